#!/usr/bin/env bash
# The site for the screenshot review, as in production (gunicorn, DEBUG off), on its own SQLite file, static
# root and port, with all seed cards and the review's users and decks (prepare.py). Usage, from the checkout:
#   SHOTS=/tmp/shots tools/screenshots/serve.sh        # serves http://127.0.0.1:${PORT:-8130}/ until Ctrl-C
set -euo pipefail
cd "$(dirname "$0")/../.."
SHOTS=${SHOTS:?name a directory outside the checkout for the database and the shots}
mkdir -p "$SHOTS"
export DATABASE_URL="sqlite:///$SHOTS/site.sqlite3" STATIC_ROOT="$SHOTS/static" MEDIA_ROOT="$SHOTS/media"
export SECRET_KEY=${SECRET_KEY:-screenshot-review-$(.venv/bin/python -c "import secrets; print(secrets.token_hex(16))")}
export DEBUG=0 SECURE_COOKIES=0 CACHE_URL=locmem:// ADDRESS="127.0.0.1:${PORT:-8130}" WEB_WORKERS=1 ACCESS_LOG=0
.venv/bin/python manage.py migrate --no-input -v0
.venv/bin/python manage.py loadcards
.venv/bin/python manage.py collectstatic --no-input -v0
.venv/bin/python manage.py shell < tools/screenshots/prepare.py | sed -n 's/^PREPARED //p' > "$SHOTS/prepared.json"
.venv/bin/python manage.py db_worker --no-reload -v0 &
worker=$!
trap 'kill $worker' EXIT
.venv/bin/gunicorn -c cardsite/gunicorn.conf.py cardsite.wsgi
