"""Settings read from the environment.

SECRET_KEY, DEBUG, ALLOWED_HOSTS, DATABASE_URL. DEBUG is off unless asked for;
without DEBUG a SECRET_KEY must be given. Without DATABASE_URL the site uses the
embedded SQLite file db.sqlite3; DATABASE_URL=postgres://… selects PostgreSQL.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_flag(name: str, default: bool = False) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


DEBUG = _env_flag("DEBUG")
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY (or DEBUG=1 for local development).")
    SECRET_KEY = "insecure-development-key-only-used-with-DEBUG"

ALLOWED_HOSTS = [
    h.strip() for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h.strip()
]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "django_htmx",
    "django_tasks",
    "django_tasks_db",
    "cards",
    "decks",
    "simulator",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
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

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite's default page cache is 2 MB; searches read the card table and the FTS index
    # many times over, so keep them in memory (64 MB cache, 256 MB memory-mapped).
    DATABASES["default"].setdefault("OPTIONS", {})["init_command"] = (
        "PRAGMA cache_size=-65536; PRAGMA mmap_size=268435456; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
    )

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Interface languages; the same codes name the languages of card texts.
LANGUAGE_CODE = "ja"
LANGUAGES = [
    ("ja", _("Japanese")),
    ("zh-hant", _("Traditional Chinese")),
    ("en", _("English")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Front-end packages installed from the npm registry (package.json); served as static files.
NODE_MODULES_DIR = BASE_DIR / "node_modules"
if NODE_MODULES_DIR.is_dir():
    STATICFILES_DIRS.append(("vendor", NODE_MODULES_DIR))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Background tasks (django-tasks): Monte Carlo runs are stored in the database and played by
# `manage.py db_worker` (bin/run-site starts one). The tests switch to the immediate backend.
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        "QUEUES": ["default"],
    }
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "decks:my_decks"
LOGOUT_REDIRECT_URL = "cards:game_list"

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # The deck API (decks.api): a token (POST /api/token/) or the site's session; the token first, so that
    # a request without credentials is answered 401 with WWW-Authenticate: Token.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Card site API",
    "DESCRIPTION": "Cards, games and glossaries of four card games, in Japanese, Traditional Chinese and English.",
    "VERSION": "1",
    # The schema endpoint documents the API, not itself.
    "SERVE_INCLUDE_SCHEMA": False,
    # Enums speak for themselves (asc/desc, term/keyword/symbol); no labels in the request's language.
    "ENUM_GENERATE_CHOICE_DESCRIPTION": False,
    # Swagger UI comes from the npm package swagger-ui-dist (package.json), served as static files
    # under STATIC_URL + "vendor/" (see STATICFILES_DIRS), never from a CDN.
    "SWAGGER_UI_DIST": "/static/vendor/swagger-ui-dist",
    "SWAGGER_UI_FAVICON_HREF": "/static/vendor/swagger-ui-dist/favicon-32x32.png",
    # validatorUrl null: no badge fetched from validator.swagger.io.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
}

if not DEBUG:
    SESSION_COOKIE_SECURE = _env_flag("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = _env_flag("SECURE_COOKIES", True)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
