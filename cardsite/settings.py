"""Settings read from the environment (see README, "Settings" and "Serving in production").

DEBUG is off unless asked for; without DEBUG a SECRET_KEY must be given (``bin/run-site``
generates one and keeps it in ``var/secret_key``). Without DATABASE_URL the site uses the
embedded SQLite file db.sqlite3; DATABASE_URL=postgres://… selects PostgreSQL. Every
production knob (HSTS, SSL redirect, the proxy's SSL header, hosts, trusted origins, admins,
logging, cache, task backend) is an environment variable, so serving the site never means
editing code.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from . import env, stylesheet

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env.flag("DEBUG")
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY (or DEBUG=1 for local development); bin/run-site makes one.")
    SECRET_KEY = "insecure-development-key-only-used-with-DEBUG"

ALLOWED_HOSTS = env.csv_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env.csv_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "cardsite",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles: runserver serves static files the way production does (WhiteNoise).
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "axes",
    "drf_spectacular",
    "django_htmx",
    "django_tasks",
    "django_tasks_db",
    "reversion",
    "accounts",
    "notifications",
    "cards",
    "decks",
    "simulator",
    "contributions",
    "readings",
    "collection",
    "community",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # After WhiteNoise, which answers static files compressed already; before the rest, so that it compresses
    # what every other middleware answered (pages kept by the page cache too).
    "cardsite.middleware.CompressedTextMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # After the locale, which it overrides: ?lang= on an API request (refused there when it is not a language).
    "cardsite.middleware.ApiLanguageMiddleware",
    # After the locale (pages are kept per language), before everything that only a rendering needs.
    "cardsite.pagecache.PageCacheMiddleware",
    # After the locale: its answers (503, time limits) speak the reader's language.
    "cardsite.middleware.DatabaseGuardMiddleware",
    # Every 429 with Retry-After, also a page's form that shows a refused allowance (cardsite.errorpages).
    "cardsite.errorpages.RetryAfterMiddleware",
    # A body over Django's limits answers the site's error shape, in DEBUG too (where Django's would be HTML).
    "cardsite.middleware.RequestLimitsMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # Django's, remembering a verified session's user while nothing is written (cardsite.pagecache).
    "cardsite.pagecache.ReaderAuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: turns a login refused for too many failures into the 429 page (accounts.views.locked_out).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "cardsite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "cards.context_processors.site",
            ],
        },
    },
]

WSGI_APPLICATION = "cardsite.wsgi.application"

# --- database -----------------------------------------------------------------------------------

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env.integer("CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    if DATABASES["default"].get("OPTIONS", {}).pop("mode", None) == "ro":
        # sqlite:////path/db.sqlite3?mode=ro serves a database (a copy, a replica) without writing to it.
        DATABASES["default"]["NAME"] = f"file:{DATABASES['default']['NAME']}?mode=ro"
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            # Writers take the write lock when their transaction begins, so a transaction never has to
            # upgrade a read lock (which SQLite refuses at once with "database is locked", busy timeout
            # or not); a writer waits its turn for up to `timeout` seconds instead.
            "transaction_mode": "IMMEDIATE",
            "timeout": env.number("SQLITE_BUSY_TIMEOUT", 20.0),
            # Per-connection settings only: none of them writes to the file, so a read-only database
            # still opens. WAL mode (readers never wait for the writer) is a property of the file,
            # set once after migrating (cardsite.apps).
            # The page cache is 2 MB by default; searches read the card table and the FTS index many
            # times over, so keep them in memory (64 MB cache, 256 MB memory-mapped).
            "init_command": "PRAGMA synchronous=NORMAL; PRAGMA cache_size=-65536; PRAGMA mmap_size=268435456",
        }
    )
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # No JIT compilation (PostgreSQL's default compiles any statement planned above a cost of 100,000). The
    # site's statements are short reads, and their estimated costs are no guide to their time: a search with an
    # exclusion scans the whole GIN index in its estimate (2.7 million at 2,000 cards), and the planner hints of
    # cards.search.backends add a disabled scan's 10^10. Such a count took 57 ms to run and 267 ms more to compile
    # (EXPLAIN ANALYZE, 2026-12-03). Put ahead of any `options` the URL gives, so that its own -c jit=on wins.
    options = DATABASES["default"].setdefault("OPTIONS", {})
    options["options"] = " ".join(filter(None, ["-c jit=off", options.get("options")]))
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env.flag("PREPARED_STATEMENTS", True):
    # A statement run through cardsite.db.prepared_cursor is planned once per connection and kept (psycopg's
    # prepared statements); no other is: Django's own statements bind their parameters on the client, and
    # nothing asks psycopg to prepare them however often they run. PREPARED_STATEMENTS=0 turns it off, for a
    # pooler in transaction mode that cannot keep prepared statements (PgBouncer before 1.21).
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = 2**31

# A statement run for a web request is stopped after this many seconds (a regular expression
# that backtracks, a runaway query): SQLite through its progress handler, PostgreSQL through
# statement_timeout (cardsite.db). Commands and the task worker are not limited.
REQUEST_STATEMENT_TIMEOUT = env.number("REQUEST_STATEMENT_TIMEOUT", 5.0)
# A search's statements (regular expressions above all) have a second; a search that needs more is
# answered 400 with a message to simplify it.
SEARCH_STATEMENT_TIMEOUT = env.number("SEARCH_STATEMENT_TIMEOUT", 1.0)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- cache (rate limits, shared by every process when it is Redis or files) ------------------------

CACHES = {"default": env.cache_from_url(os.environ.get("CACHE_URL", f"file://{BASE_DIR / 'var' / 'cache'}"))}
# Every key this site writes (pages, their versions, rate-limit counts) starts with its own prefix, so that
# two sites on one Redis never read each other's pages or share a count. By default the prefix names the
# site's database (cardsite.env.database_identity): the processes and machines of one site share it, two
# checkouts with databases of their own do not. Machines that reach one database by different addresses
# set CACHE_KEY_PREFIX to one value.
CACHE_KEY_PREFIX = os.environ.get("CACHE_KEY_PREFIX", "").strip() or env.database_identity(DATABASES["default"])
CACHES["default"]["KEY_PREFIX"] = CACHE_KEY_PREFIX
# Whole pages for readers who are not signed in (cardsite.pagecache): on by default when the cache is
# shared by every process (Redis, files), since a write must reach every process's idea of "current".
PAGE_CACHE = env.flag("PAGE_CACHE", CACHES["default"]["BACKEND"].rsplit(".", 2)[-2] in {"redis", "filebased"})

# --- accounts -----------------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # First: refuses a username and address that failed too often, before the password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Failed logins (pages and /api/accounts/token/): after 5 failures for one user name from one address, that
# pair is refused for 15 minutes, even with the right password (429). Failures are counted in the
# database (a row per failure, which every server process sees); successful log-ins are kept there too.
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_FAILURE_LIMIT = env.integer("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env.integer("LOGIN_LOCKOUT_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
# The client's address as every other per-address limit takes it (cardsite.clients), never a header a
# client writes.
AXES_CLIENT_IP_CALLABLE = "cardsite.clients.client_address"
AXES_VERBOSE = False  # accounts.signals logs each failure as one structured line instead
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "decks:my_decks"
LOGOUT_REDIRECT_URL = "cards:game_list"

# --- languages ----------------------------------------------------------------------------------

# Interface languages; the same codes name the languages of card texts.
LANGUAGE_CODE = "ja"
LANGUAGES = [
    ("ja", _("Japanese")),
    ("zh-hant", _("Traditional Chinese")),
    ("en", _("English")),
    # Made from the Traditional catalogue (tools/make_zh_hans.py); card texts have no Simplified ones of their
    # own: their Traditional texts are converted when shown (cardsite.labels.simplified).
    ("zh-hans", _("Simplified Chinese")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# --- static files -------------------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS: list[Path | tuple[str, Path]] = [BASE_DIR / "static"]
# Front-end packages installed from the npm registry (package.json), served as static files under
# static/vendor/<package>/: only the folders the pages use, not the whole of node_modules.
NODE_MODULES_DIR = BASE_DIR / "node_modules"
VENDOR_FOLDERS = ("htmx.org/dist", "chart.js/dist", "swagger-ui-dist")
for folder in VENDOR_FOLDERS:
    if (NODE_MODULES_DIR / folder).is_dir():
        STATICFILES_DIRS.append((f"vendor/{folder}", NODE_MODULES_DIR / folder))
# Uploaded card images (cards.images): files under MEDIA_ROOT by default; any storage backend by setting,
# e.g. MEDIA_STORAGE=storages.backends.s3.S3Storage MEDIA_STORAGE_OPTIONS='{"bucket_name": "cards"}' (README).
# They are always served by the site itself (cards.images.views, MEDIA_URL), whatever the backend.
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT") or BASE_DIR / "var" / "media")
MEDIA_URL = "/media/"
STORAGES = {
    "default": env.storage("MEDIA_STORAGE", "MEDIA_STORAGE_OPTIONS", "django.core.files.storage.FileSystemStorage"),
    # Hashed, compressed copies made by collectstatic (bin/run-site), served by WhiteNoise with
    # far-future cache headers. DEBUG serves the files as they are.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# --- background tasks ---------------------------------------------------------------------------

# Monte Carlo runs are played by task workers. TASKS_BACKEND=database (default): the runs wait in the
# database and `manage.py db_worker` plays them (bin/run-site starts one). TASKS_BACKEND=rq: they wait
# in Redis (TASKS_REDIS_URL) and `manage.py rqworker default` plays them, on as many machines as wanted.
TASKS_BACKEND = os.environ.get("TASKS_BACKEND", "database").strip().lower()
TASKS_REDIS_URL = os.environ.get("TASKS_REDIS_URL", "redis://127.0.0.1:6379/0")
if TASKS_BACKEND == "database":
    TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
elif TASKS_BACKEND == "rq":
    INSTALLED_APPS += ["django_rq", "django_tasks_rq"]
    TASKS = {"default": {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": ["default"]}}
    RQ_QUEUES = {"default": {"URL": TASKS_REDIS_URL, "DEFAULT_TIMEOUT": 3600}}
elif TASKS_BACKEND == "immediate":
    TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
else:
    raise ImproperlyConfigured(f"TASKS_BACKEND must be database, rq or immediate (got {TASKS_BACKEND!r})")

# A task of the database queue whose worker has not renewed its lease for this many seconds (killed, its machine
# lost) is no worker's: its row is marked failed and /healthz/ reports it until then (cardsite.taskqueue). Workers
# renew every quarter of it.
TASK_STALE_SECONDS = env.integer("TASK_STALE_SECONDS", 60)

# --- API ----------------------------------------------------------------------------------------

REST_FRAMEWORK = {
    # drf-spectacular plus the answers every operation can give, stated once (cardsite.api_schema).
    "DEFAULT_SCHEMA_CLASS": "cardsite.api_schema.SiteAutoSchema",
    # The deck API (decks.api): a token (POST /api/accounts/token/) or the site's session; the token first, so that
    # a request without credentials is answered 401 with WWW-Authenticate: Token.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "knox.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Bodies are JSON, with size and depth limits (cardsite.parsers); anything else is 415. Forms would be
    # read leniently (nested fields lost, a garbage body taken for an empty one) and the schema says JSON.
    # Only POST /api/accounts/token/ also takes a form, as token endpoints do (accounts.api.views).
    "DEFAULT_PARSER_CLASSES": ["cardsite.parsers.BoundedJSONParser"],
    # DRF's negotiation with the usual Accept (*/*, JSON, none) answered without parsing it.
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "cardsite.negotiation.SiteContentNegotiation",
    # One body shape for every error: {"detail", "code", "errors"} (cardsite.api_errors).
    "EXCEPTION_HANDLER": "cardsite.api_errors.exception_handler",
    # A view's throttle_scope names its limit in RATE_LIMITS (cardsite.throttling).
    "DEFAULT_THROTTLE_CLASSES": ["cardsite.throttling.ScopedThrottle"],
    "DEFAULT_PAGINATION_CLASS": "cardsite.api_inputs.Pagination",
    "PAGE_SIZE": 50,
}
# API tokens (django-rest-knox): stored hashed, valid for API_TOKEN_DAYS, listed and revoked by their
# owner (/accounts/tokens/, /api/accounts/tokens/), all revoked when the password changes.
REST_KNOX = {
    "TOKEN_TTL": timedelta(days=env.integer("API_TOKEN_DAYS", 30)),
    "TOKEN_LIMIT_PER_USER": 20,
    "AUTH_HEADER_PREFIX": "Token",
}

# Rate limits per scope (cardsite.throttling): per signed-in user, else per client address.
# RATE_LIMITS="search=600/min,login=off" changes them.
RATE_LIMITS = env.rates(
    "RATE_LIMITS",
    {
        "login": "20/min",  # attempts from one address (failures also lock a user name: AXES_* above)
        "token": "20/min",
        "signup": "5/hour",
        "search": "120/min",
        "deck_write": "240/min",
        "collection_write": "240/min",  # +/- on a card, a set count, an import (page or API)
        "simulation_start": "30/hour",
        # a person's answers in a game played one choice at a time (each replays the game: a few milliseconds)
        "game_answer": "1200/min",
        # change sets (each may hold many cards) and uploads one contributor may submit
        "contribution": "60/day",
    },
)
# Monte Carlo runs one user may have waiting or running at once.
MAX_ACTIVE_RUNS_PER_USER = env.integer("MAX_ACTIVE_RUNS_PER_USER", 3)
# A run is played in chunks of this many games, one task each, by as many workers as there are; a
# chunk whose worker has not reported for SIMULATION_STALE_SECONDS is played again by another.
SIMULATION_CHUNK_GAMES = env.integer("SIMULATION_CHUNK_GAMES", 5_000)
SIMULATION_STALE_SECONDS = env.integer("SIMULATION_STALE_SECONDS", 30)

SPECTACULAR_SETTINGS = {
    "TITLE": "Card site API",
    "DESCRIPTION": "Cards, games and glossaries of four card games, in Japanese, Traditional Chinese and English.",
    "VERSION": "1",
    # The schema endpoint documents the API, not itself.
    "SERVE_INCLUDE_SCHEMA": False,
    # Enums speak for themselves (asc/desc, term/keyword/symbol); no labels in the request's language.
    "ENUM_GENERATE_CHOICE_DESCRIPTION": False,
    # Two models have a `status`: each enum named after its model.
    "ENUM_NAME_OVERRIDES": {
        "ChangeSetStatusEnum": "contributions.models.ChangeSet.Status",
        "DeckVisibilityEnum": "decks.models.DeckVisibility",
        "VisibilityEnum": "cardsite.sharing.Visibility",
        "ModerationActionEnum": "community.models.ModerationAction.Action",
        "ReadingStatusEnum": "readings.models.ReadingStatus",
        "RunStatusEnum": "simulator.models.RunStatus",
    },
    # Swagger UI comes from the npm package swagger-ui-dist (package.json), served as static files
    # under STATIC_URL + "vendor/" (see STATICFILES_DIRS), never from a CDN.
    "SWAGGER_UI_DIST": "/static/vendor/swagger-ui-dist",
    "SWAGGER_UI_FAVICON_HREF": "/static/vendor/swagger-ui-dist/favicon-32x32.png",
    # validatorUrl null: no badge fetched from validator.swagger.io.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    # A PATCH body is stated as its serializer reads it: the views validate PATCH bodies whole (a deck's
    # changes are all optional by declaration; a PATCH of entries needs its entries), not as "partial".
    "COMPONENT_SPLIT_PATCH": False,
    # Path parameters as the URL converters match them: <int:…> only digits, <segment:…> (cardsite.api_inputs)
    # one non-empty segment without NUL. Anything else is a 404 before any view runs.
    "PATH_CONVERTER_OVERRIDES": {
        "int": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
        "segment": {"type": "string", "pattern": r"^[^/\x00]+$"},
    },
}

# --- security -----------------------------------------------------------------------------------

# The proxies in front of the site (addresses or networks, comma-separated), none by default: a client's
# address is then the connection's. Behind a proxy, FORWARDED_ALLOW_IPS=<its address>: X-Forwarded-For is
# read from the right, past these proxies only (cardsite.clients). gunicorn reads the same variable
# (cardsite/gunicorn.conf.py) to believe their X-Forwarded-Proto.
TRUSTED_PROXIES = env.trusted_proxies("FORWARDED_ALLOW_IPS")

# Behind a TLS-terminating proxy (README, "Serving in production"): SECURE_SSL_REDIRECT=1,
# SECURE_HSTS_SECONDS=31536000, SECURE_PROXY_SSL_HEADER=X-Forwarded-Proto:https. bin/run-site serves
# plain HTTP on loopback and so sets SECURE_COOKIES=0.
SECURE_SSL_REDIRECT = env.flag("SECURE_SSL_REDIRECT")
SECURE_HSTS_SECONDS = env.integer("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.flag("SECURE_HSTS_INCLUDE_SUBDOMAINS")
SECURE_HSTS_PRELOAD = env.flag("SECURE_HSTS_PRELOAD")
SECURE_PROXY_SSL_HEADER = env.proxy_ssl_header("SECURE_PROXY_SSL_HEADER")
SECURE_REDIRECT_EXEMPT = [r"^healthz/$"]  # the load balancer's probe speaks plain HTTP to the server
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env.flag("SECURE_COOKIES", not DEBUG)
SESSION_COOKIE_HTTPONLY = True
# Sessions are read from the cache (CACHE_URL), written through to the database: a signed-in reader's page
# kept by cardsite.pagecache costs no session query, and a cache that is lost or emptied signs no one out.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): scripts and styles only from this site's static files, no
# inline handlers or styles, no eval (htmx runs with allowEval off, see base.html); the one inline style
# element allowed is site.css as base.html inlines it, by its hash (cardsite.stylesheet).
# Swagger UI draws its icons as data: images.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", stylesheet.style_hash(stylesheet.site_stylesheet())],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
# Permissions-Policy (django-permissions-policy): the site uses none of these browser features.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer",
        "camera",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
        "interest-cohort",
        "browsing-topics",
    )
}

# Request bodies: Django refuses a form body over this size (400); the API's JSON parser has the
# same limit (cardsite.parsers), named in its error.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.integer("DATA_UPLOAD_MAX_MEMORY_SIZE", 1_000_000)
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
# The request line and headers the site takes (cardsite.middleware answers 431 above the header limits, in the
# site's error shape). The HTTP server's own limits (cardsite/gunicorn.conf.py) are set above the header limits so
# that the site answers; the request line's is gunicorn's own maximum, which it enforces itself.
REQUEST_LINE_MAX_BYTES = 8190
REQUEST_HEADER_FIELDS_MAX = 100
REQUEST_HEADER_FIELD_MAX_BYTES = 8190

# Card images (cards.images): bytes of one upload, pixels (width × height, checked before decoding: a
# decompression bomb is refused unread), and uploads per user in 24 hours.
IMAGE_MAX_BYTES = env.integer("IMAGE_MAX_BYTES", 10_000_000)
IMAGE_MAX_PIXELS = env.integer("IMAGE_MAX_PIXELS", 40_000_000)
IMAGE_UPLOADS_PER_DAY = env.integer("IMAGE_UPLOADS_PER_DAY", 30)
# Reading card photos (readings): photos in one batch (each counts as an upload against IMAGE_UPLOADS_PER_DAY);
# a photo whose worker has not reported for READING_STALE_SECONDS is read again by another (Tesseract gives up
# on a photo after 60 seconds, cards.reading.OcrSettings.timeout).
READING_MAX_PHOTOS_PER_BATCH = env.integer("READING_MAX_PHOTOS_PER_BATCH", 20)
READING_STALE_SECONDS = env.integer("READING_STALE_SECONDS", 180)
# A value read at least this sure (0-1) may be taken over a matched card's stored value by the review page's
# "take the sure readings" button; below it, the reading is only offered beside the stored value. Either way a
# stored value changes only when the contributor chooses so: the review page submitted untouched changes nothing.
READING_SURE_AT_LEAST = env.number("READING_SURE_AT_LEAST", 0.9)

# --- e-mail and logging -------------------------------------------------------------------------

ADMINS = env.admins("ADMINS")
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", "root@localhost")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", SERVER_EMAIL)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env.integer("EMAIL_PORT", 25)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env.flag("EMAIL_USE_TLS")
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

# Structured logs: one JSON object a line on standard error (LOG_FORMAT=text for people reading a
# terminal; the default when DEBUG is on). Errors also go to ADMINS by mail when ADMINS is set.
# Errors go to ADMINS by mail, but not the answers the site degrades to on purpose (429, 503: logged, and
# /healthz/ reports the state), and one kind of error (its exception type and place) at most once per this many
# seconds however many requests meet it (cardsite.logs.AdminMailFilter); 0 mails every one.
ERROR_MAIL_INTERVAL = env.integer("ERROR_MAIL_INTERVAL", 600)
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text" if DEBUG else "json").strip().lower()
LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").strip().upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request": {"()": "cardsite.logs.RequestFilter"},
        "admin_mail": {"()": "cardsite.logs.AdminMailFilter"},
    },
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
        "text": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json" if LOG_FORMAT == "json" else "text",
            "filters": ["request"],
        },
        "mail_admins": {
            "class": "django.utils.log.AdminEmailHandler",
            "level": "ERROR",
            "include_html": False,
            "filters": ["admin_mail"],
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        "django.request": {
            # Sends nothing while ADMINS is empty.
            "handlers": ["console", "mail_admins"],
            "level": "WARNING",
            "propagate": False,
        },
        # Every request is logged by the application server (gunicorn's access log); Django's own
        # server keeps its lines short.
        "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}
CSRF_FAILURE_VIEW = "cardsite.errorpages.csrf_failure"
