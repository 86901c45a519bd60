"""Django configured in code, from a database URL (no settings module, no environment juggling).

`configure(url)` must run before anything imports a model. The URL:
- empty: `varz-deck.sqlite3` in the current folder;
- a path, or `sqlite:///relative/path` / `sqlite:////absolute/path`: a SQLite file, in WAL mode
  with `synchronous=NORMAL` (a crashed or killed server loses no committed submission; only a
  power cut can lose the last ones), a busy timeout and IMMEDIATE transactions (a writer takes the
  lock when it starts, so two writers never deadlock upgrading a read lock);
- `postgresql://user:password@host:port/name?sslmode=…` (or `postgres://`): PostgreSQL through
  psycopg 3 and Django's connection pool (psycopg_pool: each worker process keeps up to THREADS
  connections open, one per thread serving requests); query parameters are passed to the driver.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from varz_deck.core.messages.i18n import Message, msg

DEFAULT_SQLITE = "varz-deck.sqlite3"
DATABASE_ENV = "VARZ_DECK_DATABASE"
POOL_TIMEOUT = 20  # seconds a request waits for a pooled PostgreSQL connection
SQLITE_TIMEOUT = 20  # seconds a writer waits for the lock before "database is locked"
THREADS = 4  # threads serving requests in each worker process (bench_serve.py: see the README)
BODY_LIMIT = 1024 * 1024  # bytes: a larger request is answered 413 before it is read
HERE = Path(__file__).resolve().parent


class DatabaseURLError(ValueError):
    """A database URL that names no database this server can use."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.render("en"))
        self.message = message


def database_url(given: str | None) -> str:
    """The URL to use: the option, else $VARZ_DECK_DATABASE, else the default SQLite file."""
    if given:
        return given
    return os.environ.get(DATABASE_ENV) or DEFAULT_SQLITE


def database_settings(url: str) -> dict[str, Any]:
    """Django's DATABASES["default"] for a URL; DatabaseURLError for one it cannot use."""
    scheme = url.split(":", 1)[0].lower() if "://" in url else ""
    if scheme in ("postgresql", "postgres"):
        return _postgresql(url)
    if scheme == "sqlite":
        rest = url.split("://", 1)[1]
        if not rest.startswith("/") or rest == "/":
            raise DatabaseURLError(_SQLITE_FORM(url=url))
        path = unquote(rest[1:])  # sqlite:///a.db -> a.db; sqlite:////tmp/a.db -> /tmp/a.db
    elif scheme:
        raise DatabaseURLError(_UNKNOWN_SCHEME(url=_hidden(url), scheme=scheme))
    else:
        path = url
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(Path(path).expanduser()),
        "OPTIONS": {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": SQLITE_TIMEOUT,
        },
        "CONN_MAX_AGE": None,  # one connection per thread, kept: WAL set once
    }


def _postgresql(url: str) -> dict[str, Any]:
    parts = urlsplit(url)
    name = unquote(parts.path.lstrip("/"))
    if not name:
        raise DatabaseURLError(_NO_NAME(url=_hidden(url)))
    try:
        port = parts.port
    except ValueError:
        raise DatabaseURLError(_BAD_PORT(url=_hidden(url))) from None
    options: dict[str, Any] = dict(parse_qsl(parts.query))
    host = options.pop("host", None) or unquote(parts.hostname or "")
    # the pool hands each request a connection and takes it back (Django requires CONN_MAX_AGE 0
    # with it); a connection found broken is replaced by the pool, not by a check per request
    options["pool"] = {"min_size": 1, "max_size": THREADS, "timeout": POOL_TIMEOUT}
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": host,
        "PORT": str(port or ""),
        "OPTIONS": options,
        "CONN_MAX_AGE": 0,
    }


def _hidden(url: str) -> str:
    """The URL as it may be shown: without its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


def shown_database(url: str) -> str:
    """How the database is named in messages: the SQLite file, or the URL without a password."""
    found = database_settings(url)
    if found["ENGINE"].endswith("sqlite3"):
        return str(found["NAME"])
    return _hidden(url)


_SQLITE_FORM = msg(
    "serve",
    "{url} is not a SQLite URL; write sqlite:///relative/file.sqlite3 or "
    "sqlite:////absolute/file.sqlite3 (or just the file's path)",
)
_UNKNOWN_SCHEME = msg(
    "serve",
    "{url}: {scheme} databases are not supported; use a SQLite file or postgresql://…",
)
_NO_NAME = msg(
    "serve", "{url} names no database; write postgresql://user:password@host:5432/DATABASE"
)
_BAD_PORT = msg("serve", "{url} has a port that is not a number from 1 to 65535")


def configure(url: str, *, debug: bool = False) -> None:
    """Configure Django for this process and set it up (once). DatabaseURLError for a bad URL."""
    from django.conf import settings

    if settings.configured:
        return
    database = database_settings(url)
    settings.configure(
        DEBUG=debug,
        # replaced at start by the database's own key (app.load_secret_key): sessions and CSRF
        # tokens outlive a restart; until then nothing is signed
        SECRET_KEY="unset-" + os.urandom(16).hex(),
        # the Host is checked first (security.SecurityHeadersMiddleware, hosts.py: any IP literal
        # too when serving on every address, which ALLOWED_HOSTS cannot say); links are built
        # from the public URL, never from the Host
        ALLOWED_HOSTS=["*"],
        DATABASES={"default": database},
        DEFAULT_AUTO_FIELD="django.db.models.BigAutoField",
        INSTALLED_APPS=[
            "django.contrib.sessions",
            "django.contrib.staticfiles",
            "varz_deck.server.apps.ServerConfig",
        ],
        MIDDLEWARE=[
            "varz_deck.server.security.SecurityHeadersMiddleware",
            "varz_deck.server.security.RequestLimits",
            "django.middleware.security.SecurityMiddleware",
            "django.contrib.sessions.middleware.SessionMiddleware",
            "varz_deck.server.security.PageLocaleMiddleware",
            "django.middleware.common.CommonMiddleware",
            "django.middleware.csrf.CsrfViewMiddleware",
            "django.middleware.clickjacking.XFrameOptionsMiddleware",
        ],
        ROOT_URLCONF="varz_deck.server.urls",
        TEMPLATES=[
            {
                "BACKEND": "django.template.backends.django.DjangoTemplates",
                "DIRS": [],
                "APP_DIRS": True,  # varz_deck/server/templates/
                "OPTIONS": {
                    "context_processors": [
                        "django.template.context_processors.request",
                        "django.template.context_processors.csrf",
                        "django.template.context_processors.i18n",
                    ],
                },
            }
        ],
        STATIC_URL="/static/",
        STATIC_ROOT=None,
        USE_TZ=True,
        TIME_ZONE="UTC",
        USE_I18N=True,
        LANGUAGE_CODE="en",
        LANGUAGES=[("en", "English"), ("ja", "日本語"), ("zh-hans", "中文")],
        SESSION_ENGINE="django.contrib.sessions.backends.db",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_NAME="varzdeck_session",
        SESSION_COOKIE_AGE=14 * 24 * 3600,
        CSRF_COOKIE_HTTPONLY=True,
        CSRF_COOKIE_SAMESITE="Lax",
        CSRF_COOKIE_NAME="varzdeck_csrftoken",
        # Secure cookies when the request came over https (security.SecurityHeadersMiddleware):
        # a laptop at the venue serves plain http on the LAN, a server behind TLS gets Secure
        SESSION_COOKIE_SECURE=False,
        CSRF_COOKIE_SECURE=False,
        SECURE_CONTENT_TYPE_NOSNIFF=True,
        SECURE_REFERRER_POLICY="same-origin",
        SECURE_CROSS_ORIGIN_OPENER_POLICY="same-origin",
        X_FRAME_OPTIONS="DENY",
        DATA_UPLOAD_MAX_MEMORY_SIZE=BODY_LIMIT,
        FILE_UPLOAD_MAX_MEMORY_SIZE=BODY_LIMIT,
        DATA_UPLOAD_MAX_NUMBER_FIELDS=100,
        APPEND_SLASH=False,
        LOGGING_CONFIG=None,
        NINJA_PAGINATION_CLASS="ninja.pagination.LimitOffsetPagination",
    )
    import django

    django.setup()
