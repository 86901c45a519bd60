"""The settings that do not depend on the environment (config.build adds the rest)."""

from __future__ import annotations

BODY_LIMIT = 1024 * 1024  # bytes: a larger request is answered 413 before it is read


def base_settings() -> dict[str, object]:
    """Django's settings every deployment shares: the apps, middleware, templates, cookies."""
    return dict(
        DEFAULT_AUTO_FIELD="django.db.models.BigAutoField",
        INSTALLED_APPS=[
            "django.contrib.sessions",
            "django.contrib.staticfiles",
            "varz_deck.server.apps.ServerConfig",
        ],
        MIDDLEWARE=[
            "varz_deck.server.security.SecurityHeadersMiddleware",
            "varz_deck.server.limits.RequestLimits",
            "django.middleware.security.SecurityMiddleware",
            "whitenoise.middleware.WhiteNoiseMiddleware",  # /static/: varz_deck/server/static/
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
        # WhiteNoise serves the app's static files from where the package is installed (found
        # once at start: no `collectstatic` step), an hour in the browser's cache
        WHITENOISE_USE_FINDERS=True,
        WHITENOISE_AUTOREFRESH=False,
        WHITENOISE_MAX_AGE=3600,
        USE_TZ=True,
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
        SECURE_CONTENT_TYPE_NOSNIFF=True,
        SECURE_REFERRER_POLICY="same-origin",
        SECURE_CROSS_ORIGIN_OPENER_POLICY="same-origin",
        X_FRAME_OPTIONS="DENY",
        DATA_UPLOAD_MAX_MEMORY_SIZE=BODY_LIMIT,
        FILE_UPLOAD_MAX_MEMORY_SIZE=BODY_LIMIT,
        DATA_UPLOAD_MAX_NUMBER_FIELDS=100,
        APPEND_SLASH=False,
        NINJA_PAGINATION_CLASS="ninja.pagination.LimitOffsetPagination",
    )
