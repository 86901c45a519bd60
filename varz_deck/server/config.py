"""The server's Django settings, built from the environment (see docs/guides/organiser.md, "Run it
on a server").

`build(environ)` makes the whole settings dict; `settings.py` (the settings module, for
`DJANGO_SETTINGS_MODULE`) is `build(environment())`, and `configure(url)` (`varz-deck serve` and
`event`) is the same with the database given on the command line. Every variable may also be a
`NAME=value` line of the file `$VARZ_DECK_CONFIG` names (the same form as a systemd
`EnvironmentFile=`); the environment wins over the file.

The database URL (dj-database-url reads it):
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
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from varz_deck.core.messages.i18n import Message, msg
from varz_deck.server.defaults import BODY_LIMIT as BODY_LIMIT
from varz_deck.server.defaults import base_settings

if TYPE_CHECKING:
    from dj_database_url import DBConfig

DEFAULT_SQLITE = "varz-deck.sqlite3"
DATABASE_ENV = "VARZ_DECK_DATABASE"
CONFIG_ENV = "VARZ_DECK_CONFIG"
POOL_TIMEOUT = 20  # seconds a request waits for a pooled PostgreSQL connection
SQLITE_TIMEOUT = 20  # seconds a writer waits for the lock before "database is locked"
THREADS = 4  # threads serving requests in each worker process (bench_serve.py: see the README)
HERE = Path(__file__).resolve().parent
UNSET_KEY = "unset-"  # the prefix of a key replaced at start by the database's own
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
HSTS_YEAR = 365 * 24 * 3600
LIMITS_TABLE = "varz_deck_limits"  # the rate limits' cache table (`manage createcachetable`)


class DatabaseURLError(ValueError):
    """A database URL that names no database this server can use."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.render("en"))
        self.message = message


class SettingError(ValueError):
    """A variable of the environment (or of the config file) this server cannot use."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.render("en"))
        self.message = message


def database_url(given: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The URL to use: the option, else $VARZ_DECK_DATABASE, else the default SQLite file."""
    if given:
        return given
    found = environment() if environ is None else environ
    return found.get(DATABASE_ENV) or DEFAULT_SQLITE


def database_settings(url: str) -> DBConfig:
    """Django's DATABASES["default"] for a URL; DatabaseURLError for one it cannot use."""
    import dj_database_url

    scheme = url.split(":", 1)[0].lower() if "://" in url else ""
    if scheme in ("postgresql", "postgres"):
        return _postgresql(url)
    if scheme == "sqlite":
        rest = url.split("://", 1)[1]
        if not rest.startswith("/") or rest == "/":
            raise DatabaseURLError(_SQLITE_FORM(url=url))
        path = str(dj_database_url.parse(url)["NAME"])  # sqlite:////tmp/a.db -> /tmp/a.db
    elif scheme:
        raise DatabaseURLError(_UNKNOWN_SCHEME(url=_hidden(url), scheme=scheme))
    else:
        path = url
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(Path(unquote(path)).expanduser()),
        "OPTIONS": {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": SQLITE_TIMEOUT,
        },
        "CONN_MAX_AGE": None,  # one connection per thread, kept: WAL set once
    }


def _postgresql(url: str) -> DBConfig:
    import dj_database_url

    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 (ValueError for a port that is not one)
        found = dj_database_url.parse(url, conn_max_age=0)
    except (ValueError, dj_database_url.ParseError):
        raise DatabaseURLError(_BAD_PORT(url=_hidden(url))) from None
    if not found.get("NAME"):
        raise DatabaseURLError(_NO_NAME(url=_hidden(url)))
    options: dict[str, Any] = dict(found.get("OPTIONS") or {})  # as dj_database_url's DBConfig
    host = options.pop("host", None) or found.get("HOST") or ""
    # the pool hands each request a connection and takes it back (Django requires CONN_MAX_AGE 0
    # with it); a connection found broken is replaced by the pool, not by a check per request
    options["pool"] = {"min_size": 1, "max_size": THREADS, "timeout": POOL_TIMEOUT}
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": found["NAME"],
        "USER": found.get("USER") or "",
        "PASSWORD": found.get("PASSWORD") or "",
        "HOST": host,
        "PORT": str(found.get("PORT") or ""),
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
_BAD_CONFIG_FILE = msg(
    "serve",
    "cannot read the settings file {path} (named by VARZ_DECK_CONFIG): {error}",
)
_BAD_CONFIG_LINE = msg(
    "serve",
    "{path} line {line} is not a setting; write NAME=value, or # before a comment",
)
_BAD_LOG_LEVEL = msg(
    "serve",
    "VARZ_DECK_LOG_LEVEL={level} is not a log level; choose DEBUG, INFO, WARNING, ERROR or CRITICAL",
)
_BAD_CACHE = msg(
    "serve",
    "VARZ_DECK_LIMITS_CACHE={value} is not a cache; write memory, database or a redis:// URL",
)
_BAD_NUMBER = msg("serve", "{name}={value} is not a whole number of seconds")
_BAD_PUBLIC = msg(
    "serve",
    "VARZ_DECK_PUBLIC_URL={url} is not the address of a server's root; write it like "
    "https://decks.example.org",
)


def environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The variables: those of the file $VARZ_DECK_CONFIG names, then the environment's over them
    (an empty one counts as unset)."""
    given = dict(os.environ if environ is None else environ)
    named = given.get(CONFIG_ENV, "").strip()
    if not named:
        return given
    return {**read_config_file(Path(named)), **{k: v for k, v in given.items() if v.strip()}}


def read_config_file(path: Path) -> dict[str, str]:
    """`NAME=value` lines (blank lines and `#` comments skipped, quotes around a value removed)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise SettingError(_BAD_CONFIG_FILE(path=str(path), error=str(err)[:200])) from None
    found: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        name, equals, value = stripped.removeprefix("export ").partition("=")
        if not equals or not name.strip().replace("_", "").isalnum():
            raise SettingError(_BAD_CONFIG_LINE(path=str(path), line=number))
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        found[name.strip()] = value
    return found


def _flag(environ: Mapping[str, str], name: str, default: bool) -> bool:
    value = environ.get(name, "").strip().lower()
    if not value:
        return default
    return value in ("1", "true", "yes", "on")


def _seconds(environ: Mapping[str, str], name: str, default: int) -> int:
    value = environ.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit():
        raise SettingError(_BAD_NUMBER(name=name, value=repr(value)))
    return int(value)


def _words(text: str) -> list[str]:
    return [part.strip() for part in text.replace(" ", ",").split(",") if part.strip()]


def public_url(environ: Mapping[str, str]) -> str:
    """$VARZ_DECK_PUBLIC_URL without a trailing slash ("" when unset); SettingError when bad."""
    from varz_deck.server.hosts import public_url_problem

    given = environ.get("VARZ_DECK_PUBLIC_URL", "").strip()
    if given and public_url_problem(given) is not None:
        raise SettingError(_BAD_PUBLIC(url=repr(given)))
    return given.rstrip("/")


def allowed_hosts(environ: Mapping[str, str]) -> list[str]:
    """The public URL's host, the loopback names (a health check on the machine itself) and
    $VARZ_DECK_ALLOWED_HOSTS; every host (`*`) when there is no public URL."""
    url = public_url(environ)
    extra = _words(environ.get("VARZ_DECK_ALLOWED_HOSTS", ""))
    if not url:
        return extra or ["*"]
    named = (urlsplit(url).hostname or "").lower()
    return list(dict.fromkeys([named, "localhost", "127.0.0.1", "::1", *extra]))


def trusted_proxies(environ: Mapping[str, str]) -> str:
    """The proxies whose X-Forwarded-For is believed: $VARZ_DECK_TRUSTED_PROXIES, else gunicorn's
    $FORWARDED_ALLOW_IPS, else this machine only (127.0.0.1, ::1)."""
    for name in ("VARZ_DECK_TRUSTED_PROXIES", "FORWARDED_ALLOW_IPS"):
        if environ.get(name, "").strip():
            return ",".join(_words(environ[name]))
    return "127.0.0.1,::1"


def caches(environ: Mapping[str, str]) -> dict[str, dict[str, object]]:
    """Django's caches: the rate limits' (limits.LIMITS_CACHE) in this process's memory, or
    shared by every worker and machine when $VARZ_DECK_LIMITS_CACHE says `database` (a table,
    made by `varz-deck manage createcachetable`) or gives a redis:// URL (the `redis` package)."""
    given = environ.get("VARZ_DECK_LIMITS_CACHE", "").strip()
    local: dict[str, object] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    if given == "database":
        limits: dict[str, object] = {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": LIMITS_TABLE,
        }
    elif given.startswith(("redis://", "rediss://", "unix://")):
        limits = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": given}
    elif given in ("", "memory"):
        limits = {**local, "LOCATION": "varz-deck-limits", "OPTIONS": {"MAX_ENTRIES": 20_000}}
    else:
        raise SettingError(_BAD_CACHE(value=repr(given)))
    return {"default": local, "varz-deck-limits": limits}


def log_level(environ: Mapping[str, str]) -> str:
    level = environ.get("VARZ_DECK_LOG_LEVEL", "").strip().upper() or "WARNING"
    if level not in LOG_LEVELS:
        raise SettingError(_BAD_LOG_LEVEL(level=repr(environ["VARZ_DECK_LOG_LEVEL"])))
    return level


def logging_settings(level: str) -> dict[str, object]:
    """Everything to stderr at `level`; Django's line for each 4xx answer only at DEBUG or INFO."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "handlers": {"stderr": {"class": "logging.StreamHandler"}},
        "root": {"handlers": ["stderr"], "level": level},
        "loggers": {
            "django": {"handlers": [], "level": level, "propagate": True},
            "django.request": {"level": level if level in ("DEBUG", "INFO") else "ERROR"},
        },
    }


def build(
    environ: Mapping[str, str], *, database: str | None = None, debug: bool = False
) -> dict[str, object]:
    """Every Django setting, from these variables (and the database URL given, if one is)."""
    url = public_url(environ)
    secure = url.startswith("https://")
    key = environ.get("VARZ_DECK_SECRET_KEY", "").strip()
    hsts = _seconds(environ, "VARZ_DECK_HSTS_SECONDS", HSTS_YEAR if secure else 0)
    level = log_level(environ)
    found = base_settings()
    found.update(
        DEBUG=debug,
        # none given: replaced at start by the database's own key (app.load_secret_key), so
        # sessions and CSRF tokens outlive a restart and every machine on the database agrees
        SECRET_KEY=key or UNSET_KEY + secrets.token_urlsafe(48),
        VARZ_DECK_KEY_GIVEN=bool(key),
        VARZ_DECK_PUBLIC_URL=url,
        VARZ_DECK_TRUSTED_PROXIES=trusted_proxies(environ),
        VARZ_DECK_CARDS=environ.get("VARZ_DECK_CARDS", "").strip(),
        ALLOWED_HOSTS=allowed_hosts(environ),
        CSRF_TRUSTED_ORIGINS=[url] if url else [],
        DATABASES={"default": database_settings(database_url(database, environ))},
        TIME_ZONE=environ.get("VARZ_DECK_TIME_ZONE", "").strip() or "UTC",
        LOGGING=logging_settings(level),
        CACHES=caches(environ),
        # behind TLS (an https public URL): https only, Secure cookies, HSTS; /healthz answers
        # plain http too (a load balancer's check on the machine itself)
        SECURE_SSL_REDIRECT=secure,
        SECURE_REDIRECT_EXEMPT=[r"^healthz$"],
        SESSION_COOKIE_SECURE=secure,
        CSRF_COOKIE_SECURE=secure,
        SECURE_HSTS_SECONDS=hsts,
        SECURE_HSTS_INCLUDE_SUBDOMAINS=_flag(environ, "VARZ_DECK_HSTS_SUBDOMAINS", bool(hsts)),
        SECURE_HSTS_PRELOAD=_flag(environ, "VARZ_DECK_HSTS_PRELOAD", bool(hsts)),
    )
    return found


def configure(url: str, *, debug: bool = False) -> None:
    """Configure Django for this process and set it up (once), with this database URL and the
    rest from the environment. DatabaseURLError for a bad URL; SettingError for a bad variable."""
    from django.conf import settings

    if settings.configured:
        return
    found = build(environment(), database=url, debug=debug)
    # `serve` checks the Host itself (hosts.py: any IP literal too when serving on every
    # address, which ALLOWED_HOSTS cannot say), serves http at a venue and gives Secure cookies
    # to the requests that came over https (security.SecurityHeadersMiddleware)
    found.update(
        ALLOWED_HOSTS=["*"],
        LOGGING_CONFIG=None,
        SECURE_SSL_REDIRECT=False,
        SESSION_COOKIE_SECURE=False,
        CSRF_COOKIE_SECURE=False,
        SECURE_HSTS_SECONDS=0,
    )
    settings.configure(**found)
    import django

    django.setup()
