"""The one settings module. Everything that differs between a laptop and production comes
from the environment:

- DEBUG            "true" for development; default false (production).
- SECRET_KEY       required in production.
- ALLOWED_HOSTS    comma-separated host names; required in production.
- DATABASE_URL     default: an SQLite file, db.sqlite3, in the project folder.
- REDIS_URL        Celery broker, result backend and cache. Unset: jobs run in-process.
- CSRF_TRUSTED_ORIGINS, SECURE_SSL_REDIRECT, SECURE_PROXY_SSL_HEADER, CELERY_VISIBILITY_TIMEOUT
                   optional, see README.
- EMAIL_BACKEND, DEFAULT_FROM_EMAIL, EMAIL_HOST (and EMAIL_*), OPP_SITE_URL
                   notifications by email; default: the console backend in development.
- ANYMAIL_*        an email service's settings for django-anymail (docs/mail.md).
- ADMINS, SENTRY_DSN  who is mailed a server error ("Name <address>, ..."); error reports to Sentry
                   (needs sentry-sdk installed; docs/deployment.md).
"""
import os
import re
from datetime import timedelta
from email.utils import getaddresses
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name, default=False):
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    normalized = value.strip().lower()
    if normalized in {"1", "true", "yes", "on"}:
        return True
    if normalized in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}.")


def env_list(name, default=()):
    value = os.environ.get(name, "")
    items = [item.strip() for item in value.split(",") if item.strip()]
    return items or list(default)


def env_int(name, default):
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}.") from None


def env_addresses(name):
    """ADMINS="Ops <ops@example.org>, Jo <jo@example.org>" as Django's [(name, address), ...]."""
    value = os.environ.get(name, "").strip()
    if not value:
        return []
    pairs = [pair for pair in getaddresses([value]) if any(pair)]
    if any("@" not in address or address != address.strip() or " " in address for _, address in pairs):
        raise ImproperlyConfigured(
            f"{name} must be addresses separated by commas, e.g. \"Ops <ops@example.org>, jo@example.org\", "
            f"not {value!r}.")
    return [(person or address, address) for person, address in pairs]


def required_in_production(name, hint):
    value = os.environ.get(name, "").strip()
    if not value:
        raise ImproperlyConfigured(
            f"{name} is not set. It is required when DEBUG is off (production): {hint} "
            f"For local development set DEBUG=true instead."
        )
    return value


DEBUG = env_bool("DEBUG", default=False)

if DEBUG:
    # A fixed development key: sessions survive restarts of the demo server.
    SECRET_KEY = os.environ.get("SECRET_KEY") or "django-insecure-development-only-key-never-use-in-production"
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"])
else:
    SECRET_KEY = required_in_production(
        "SECRET_KEY", "set it to a long random string, e.g. the output of "
        "`python -c \"import secrets; print(secrets.token_urlsafe(50))\"`."
    )
    ALLOWED_HOSTS = required_in_production(
        "ALLOWED_HOSTS", "set it to the host names the site is served under, comma-separated."
    ).split(",")
    ALLOWED_HOSTS = [host.strip() for host in ALLOWED_HOSTS if host.strip()]

CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "corsheaders",
    "axes",
    "allauth",
    "allauth.account",  # sign-up, sign-in by username or email, email verification, reset (no social accounts)
    "opp",
    "tournaments",
]

MIDDLEWARE = [
    "opp.middleware.RequestSizeLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "opp.cors.PublicReadCorsMiddleware",  # CORS for the public read-only API below (django-cors-headers)
    "opp.middleware.SiteWideCSPMiddleware",  # the Content-Security-Policy below (django-csp)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the language: the django_language cookie, else Accept-Language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tournaments.web.language.SavedLanguageMiddleware",  # a signed-in user's saved language on a new device
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "tournaments.api.unknown_parameters.UnknownQueryParametersMiddleware",  # API: undocumented query params 400
    "opp.middleware.LostRaceMiddleware",  # a lost race (unique constraint, deadlock) is 409, never 500
    "tournaments.accounts.SignInAddressLimitMiddleware",  # failed sign-ins per address, any usernames
    "axes.middleware.AxesMiddleware",  # last: answers a locked-out sign-in with the lockout page
]
if DEBUG:
    # runserver serves static files itself; WhiteNoise serves the collected ones in production.
    MIDDLEWARE.remove("whitenoise.middleware.WhiteNoiseMiddleware")

# Request bodies: a replay is at most 1 MiB (rules_engine's limit); sent as a JSON string its escapes
# may make it larger, so a body may be 3 MiB. Uploads stay in memory within that (never a temporary file).
OPP_MAX_REQUEST_BYTES = 3 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = OPP_MAX_REQUEST_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = OPP_MAX_REQUEST_BYTES
DATA_UPLOAD_MAX_NUMBER_FILES = 5

ROOT_URLCONF = "opp.urls"
WSGI_APPLICATION = "opp.wsgi.application"
ASGI_APPLICATION = "opp.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournaments.accounts.signup.header_links",  # "Sign up" in the header unless sign-up is closed
            ],
        },
    },
]

DATABASE_URL = os.environ.get("DATABASE_URL", "").strip() or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60, conn_health_checks=True)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Persistent connections buy nothing on SQLite and keep the file locked longer.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # psycopg's prepared statements, which Django leaves off unless this is set: only the statements that
    # ask for it are prepared (the adjudication job's, tournaments/results/job_sql.py); Django's own go
    # through client-side binding cursors, which psycopg never prepares.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("prepare_threshold", 5)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out username and address at once
    "django.contrib.auth.backends.ModelBackend",  # the admin's sign-in and the API's token, by username
    "allauth.account.auth_backends.AuthenticationBackend",  # the site's sign-in, by username or email
]
# Lockout (django-axes): 5 wrong passwords for one username from one address lock that pair out for
# 15 minutes (a stranger cannot lock a player out from elsewhere); a successful sign-in starts afresh.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "tournaments.api.auth.lockout_response"
AXES_CLIENT_IP_CALLABLE = "opp.limits.client_ip"
# allauth's form sends `login` (a username or an email); one account's failures count under its username
# whichever it was given (tournaments/accounts/protection.py).
AXES_USERNAME_FORM_FIELD = "login"
AXES_USERNAME_CALLABLE = "tournaments.accounts.lockout_username"
AXES_DISABLE_ACCESS_LOG = True  # only failures are kept
# Failed sign-ins from one client address whatever the usernames (tournaments/accounts.py): after this many
# within AXES_COOLOFF_TIME, sign-ins from that address are answered 429 until the window ends. Higher than
# the lockout of one username, as a venue's players may share one address.
OPP_SIGNIN_FAILURES_PER_ADDRESS = env_int("OPP_SIGNIN_FAILURES_PER_ADDRESS", 30)
# Password-reset mails: at most this many an hour to one email address (further requests are answered as a
# sent one), and password-reset requests an hour from one client address (429).
OPP_PASSWORD_RESETS_PER_EMAIL = env_int("OPP_PASSWORD_RESETS_PER_EMAIL", 3)
OPP_PASSWORD_RESETS_PER_ADDRESS = env_int("OPP_PASSWORD_RESETS_PER_ADDRESS", 10)

# Accounts (django-allauth, tournaments/accounts/): who may sign up, unless staff set it in the admin
# (Site access): open, invite (a one-use code from the admin) or closed (staff create accounts).
OPP_SIGNUP = os.environ.get("OPP_SIGNUP", "").strip().lower() or "open"
if OPP_SIGNUP not in {"open", "invite", "closed"}:
    raise ImproperlyConfigured(f"OPP_SIGNUP must be open, invite or closed, not {OPP_SIGNUP!r}.")
ACCOUNT_ADAPTER = "tournaments.accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {"login": "tournaments.accounts.forms.SiteLoginForm",
                 "signup": "tournaments.accounts.forms.SiteSignupForm"}
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"  # an account that signed up signs in once its address is verified
ACCOUNT_CONFIRM_EMAIL_ON_GET = False  # the link opens a page with a button: mail scanners opening links confirm nothing
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True  # one address at a time: a new one replaces the old once verified
ACCOUNT_EMAIL_NOTIFICATIONS = True  # a mail to the account when its password or address changes
# Sign-up and reset answer alike whether or not an address has an account (a mail tells its owner).
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_SESSION_REMEMBER = True
ACCOUNT_LOGOUT_ON_GET = False  # signing out is a POST (the header's button), never a link a page can trigger
ACCOUNT_EMAIL_SUBJECT_PREFIX = "WARLINE Organized Play: "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"
# allauth's own limits (count in the cache, like the throttles). Failed sign-ins are left to django-axes and
# the per-address limit above, and reset requests to OPP_PASSWORD_RESETS_* (tournaments/accounts/views.py).
ACCOUNT_RATE_LIMITS = {
    "signup": "20/h/ip",  # a venue shares one address: twenty players an hour may sign up from it
    "confirm_email": "1/3m/key",  # a new verification mail to one address at most every 3 minutes
    "manage_email": "5/h/user",  # adding or changing an address sends a mail to it
    "change_password": "5/m/user",
    "reset_password_from_key": "20/m/ip",
    "login_failed": None,
    "reset_password": None,
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
# The pages in English and German (docs/i18n_templates.md); the project's own catalog (the templates') in locale/, the
# domain's in tournaments/locale/. Dates are written per language by the format modules in opp/formats/.
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["opp.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage",
    },
}

LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Redis: broker, result backend and cache. Without it everything stays in this process.
REDIS_URL = os.environ.get("REDIS_URL", "").strip()

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "opp.cache.DegradingRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "opp",
            # A Redis that does not answer costs a request at most this long (then the local fallback).
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "opp"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
# In-process, a retried job runs again at once as Celery's retry options say (propagating would end it
# at the first retry); a job catches its own errors and ends as failed with them.
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 24 * 3600
# Time limits of a job: the engine adjudicates the longest replay (5,000 turns) in about half a second, so a job still
# running after these is stuck (soft: it ends as failed with the reason; hard: the worker process is killed).
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 30)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 45)
# Late acknowledgement: a job whose worker dies mid-way goes back to the queue and another worker
# finishes it. Redis hands an unacknowledged job to another worker once it is older than the
# visibility timeout, looked for every 5 s: the timeout is the hard time limit + 10 s (a healthy run
# never outlives the limit), so a killed worker's job runs again within the limit + 15 s, which is
# less than twice the limit (tests/reporting/test_workers.py measures it).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fixup closes the database connections around every task unless this is set; it is set
# beyond reach, and opp/celery.py applies Django's own rule (CONN_MAX_AGE, health checks) to each job.
CELERY_DB_REUSE_MAX = 10**9
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", CELERY_TASK_TIME_LIMIT + 10),
    "unacked_restore_interval": 5, "unacked_restore_throttle": 1,
    "socket_connect_timeout": 2, "socket_timeout": 5,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Sending a job while Redis does not answer gives up after about a second: the report is saved and
# waits for the sweep instead of holding the request.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2,
                                    "interval_max": 0.5}
# The sweep (`celery -A opp beat`): sends the jobs the web processes could not send, and jobs sent long
# ago that no worker took (a Redis restarted without persistence forgets its queue).
OPP_SWEEP_SECONDS = env_int("OPP_SWEEP_SECONDS", 60)
OPP_RESEND_AFTER_SECONDS = env_int("OPP_RESEND_AFTER_SECONDS", 600)
# Reports whose confirmation window passed count by themselves (`celery -A opp beat`); without a
# beat, requests touching the event and `manage.py confirm_expired` do the same.
CELERY_IMPORTS = ["tournaments.results.confirmation"]
CELERY_IMPORTS += ["tournaments.webhooks.tasks"]  # webhook deliveries and their sweep (docs/webhooks.md)
CELERY_BEAT_SCHEDULE = {
    "send-waiting-adjudications": {
        "task": "tournaments.send_waiting_adjudications",
        "schedule": OPP_SWEEP_SECONDS,
        "options": {"expires": OPP_SWEEP_SECONDS},  # sweeps do not pile up while no worker runs
    },
    "confirm-expired-reports": {
        "task": "tournaments.confirm_expired_reports",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
    "send-due-mails": {  # mails whose next try is due, or whose job was lost (tournaments.mailing, docs/mail.md)
        "task": "tournaments.send_due_mails",
        "schedule": 30.0,
        "options": {"expires": 30.0},
    },
    "send-due-webhooks": {  # webhook deliveries whose next try is due (tournaments.webhooks.tasks)
        "task": "tournaments.send_due_webhooks",
        "schedule": 30.0,
        "options": {"expires": 30.0},
    },
}
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# Webhooks (docs/webhooks.md): a receiver holds a job at most these seconds (to connect, in all), and only
# the first bytes of its answer are read; the tries of one delivery and the failures in a row that disable an
# endpoint. ALLOW_HTTP and ALLOW_PRIVATE are for tests against a local receiver, never for production.
OPP_WEBHOOKS_CONNECT_TIMEOUT = env_int("OPP_WEBHOOKS_CONNECT_TIMEOUT", 3)
OPP_WEBHOOKS_TIMEOUT = env_int("OPP_WEBHOOKS_TIMEOUT", 5)
OPP_WEBHOOKS_MAX_RESPONSE_BYTES = env_int("OPP_WEBHOOKS_MAX_RESPONSE_BYTES", 4096)
OPP_WEBHOOKS_MAX_ATTEMPTS = env_int("OPP_WEBHOOKS_MAX_ATTEMPTS", 8)
OPP_WEBHOOKS_DISABLE_AFTER = env_int("OPP_WEBHOOKS_DISABLE_AFTER", 10)
# Both only with DEBUG: a production site never posts to plain HTTP or to its own network.
OPP_WEBHOOKS_ALLOW_HTTP = DEBUG and env_bool("OPP_WEBHOOKS_ALLOW_HTTP", default=False)
OPP_WEBHOOKS_ALLOW_PRIVATE = DEBUG and env_bool("OPP_WEBHOOKS_ALLOW_PRIVATE", default=False)

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "tournaments.api.schema.AutoSchema",  # a tag per resource, list filters on lists
    # Token first: a request without credentials (or with a wrong token) is answered 401 with
    # `WWW-Authenticate: Token`, which DRF sends only when the first class names a scheme.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": [
        "tournaments.api.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # A list's filters, `ordering` and `search` (on a viewset's list only) and its pages: tournaments/api/query.py.
    "DEFAULT_FILTER_BACKENDS": [
        "tournaments.api.query.ListFilters",
        "tournaments.api.query.Ordering",
        "tournaments.api.query.Search",
    ],
    "DEFAULT_PAGINATION_CLASS": "tournaments.api.query.Pages",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "tournaments.api.errors.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    # A venue screen polling every 2 s uses 30/min; conditional requests (304) count too.
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_THROTTLE_ANON", "120/min"),
        "user": os.environ.get("API_THROTTLE_USER", "600/min"),
        "scoreboard": os.environ.get("API_THROTTLE_SCOREBOARD", "1200/min"),
        "login": os.environ.get("API_THROTTLE_LOGIN", "10/min"),
    },
    # Which address is the client's, for throttling: 0 trusts no X-Forwarded-For header (a client could
    # forge it); behind N reverse proxies that append it, set API_NUM_PROXIES=N.
    "NUM_PROXIES": env_int("API_NUM_PROXIES", 0),
}

SPECTACULAR_SETTINGS = {
    "TITLE": "WARLINE Organized Play API",
    "DESCRIPTION": "Events, generals, battles, verdicts and standings of WARLINE organized play.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Separate request and response components: a client sends no read-only field and reads every one.
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tournaments.api.schema.finish_schema",
    ],
    # Swagger UI and Redoc from this site's own static files (drf-spectacular-sidecar): no CDN, so the
    # docs work at a venue without internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Without deep links each operation's summary is one button with no link inside it (a link nested in a
    # button is out of reach of the keyboard and screen readers: axe's nested-interactive).
    "SWAGGER_UI_SETTINGS": {"deepLinking": False},
    "ENUM_NAME_OVERRIDES": {
        "BattleKindEnum": "tournaments.models.Battle.Kind",
        "ReportedKindEnum": ["victory", "stalemate", "resolve", "forfeit", "draw"],
        "VictoryConditionEnum": "tournaments.models.Battle.Condition",
        "EventStateEnum": "tournaments.models.Event.State",
        "SeasonStateEnum": "tournaments.models.Season.State",
        "WebhookKindEnum": "tournaments.models.WebhookEndpoint.Kind",
    },
}

# Content-Security-Policy (django-csp), in development too so that every page is tried under it: the
# pages load scripts, styles, images and fonts from this site only, run no inline script or style and
# are framed by nobody. The API docs (Swagger UI, Redoc) widen it for themselves only (opp/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# Live pages' streams (docs/live-pages.md, "Streams"): OPP_LIVE_STREAM_URL empty (the default) and pages poll;
# "/" when a proxy sends /live/events/*/stream/ of this site to the live processes, or an origin
# (https://live.example.org) that serves them. Streams are fanned out through Redis: without REDIS_URL the
# setting is refused here, at start, rather than pages opening streams that never hear of a change.
OPP_LIVE_STREAM_URL = os.environ.get("OPP_LIVE_STREAM_URL", "").strip()
if OPP_LIVE_STREAM_URL:
    if not REDIS_URL:
        raise ImproperlyConfigured("OPP_LIVE_STREAM_URL needs REDIS_URL: the live processes hear of changes "
                                   "through Redis. Set REDIS_URL, or leave OPP_LIVE_STREAM_URL empty (pages poll).")
    if OPP_LIVE_STREAM_URL != "/":
        if not re.fullmatch(r"https?://[^/?#\s]+/?", OPP_LIVE_STREAM_URL):
            raise ImproperlyConfigured(f"OPP_LIVE_STREAM_URL must be / or an origin like https://live.example.org, "
                                       f"not {OPP_LIVE_STREAM_URL!r}.")
        OPP_LIVE_STREAM_URL = OPP_LIVE_STREAM_URL.rstrip("/")
        CONTENT_SECURITY_POLICY["DIRECTIVES"]["connect-src"].append(OPP_LIVE_STREAM_URL)
OPP_LIVE_MAX_STREAMS = env_int("OPP_LIVE_MAX_STREAMS", 20000)  # per live process; beyond it 503 and pages poll

# CORS (django-cors-headers, docs/embeds.md): any site's scripts may read the public, read-only API
# endpoints below, anonymously (no cookies, no token: the Authorization header is not allowed), and nothing
# else; opp.cors.PublicReadCorsMiddleware gives CORS headers to reads only, never to a write.
CORS_URLS_REGEX = (r"^/api/(schema/"
                   r"|v1/events/([^/.]+/((scoreboard|standings|crosstables|groups|swiss|seasons|registrations)/)?)?"
                   r"|v1/battles/([^/.]+/)?|v1/generals/([^/.]+/(profile/|versus/[0-9]+/)?)?"
                   r"|v1/ratings/|v1/games/([^/.]+/)?)$")
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_METHODS = ("GET", "HEAD", "OPTIONS")
CORS_ALLOW_HEADERS = ("accept", "accept-language", "content-language", "if-none-match", "if-modified-since")
CORS_EXPOSE_HEADERS = ("ETag", "Retry-After")

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    # Behind a TLS-terminating proxy (nginx, a load balancer) set SECURE_PROXY_SSL_HEADER=true.
    if env_bool("SECURE_PROXY_SSL_HEADER", default=False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    # The health check is polled over plain HTTP by load balancers inside the network.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# Email (tournaments.notifications): the console backend in development prints each mail; in
# production the SMTP backend with EMAIL_HOST etc. A mail server that fails never breaks a step.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "").strip() or (
    "django.core.mail.backends.console.EmailBackend" if DEBUG else "django.core.mail.backends.smtp.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip() or "localhost"
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", default=False)
# Seconds a mail server that hangs holds the mail job (a worker, or the background thread): never a request.
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
# Mail as jobs (tournaments.mailing, docs/mail.md): a failed mail is tried again after OPP_MAIL_RETRY_SECONDS,
# the pause doubling up to OPP_MAIL_RETRY_MAX_SECONDS, and given up after OPP_MAIL_MAX_ATTEMPTS tries (about
# 4 hours with the defaults). A job claims its mails for OPP_MAIL_LEASE_SECONDS: if it dies, they are due again
# then. OPP_MAIL_BATCH: the most mails one sweep sends.
OPP_MAIL_RETRY_SECONDS = env_int("OPP_MAIL_RETRY_SECONDS", 60)
OPP_MAIL_RETRY_MAX_SECONDS = env_int("OPP_MAIL_RETRY_MAX_SECONDS", 3600)
OPP_MAIL_MAX_ATTEMPTS = env_int("OPP_MAIL_MAX_ATTEMPTS", 10)
OPP_MAIL_LEASE_SECONDS = env_int("OPP_MAIL_LEASE_SECONDS", 300)
OPP_MAIL_BATCH = env_int("OPP_MAIL_BATCH", 50)
# An email service through django-anymail: EMAIL_BACKEND=anymail.backends.<service>.EmailBackend and its
# settings as ANYMAIL_<NAME> variables, e.g. ANYMAIL_MAILGUN_API_KEY, read into ANYMAIL["MAILGUN_API_KEY"].
ANYMAIL = {name.removeprefix("ANYMAIL_"): value for name, value in os.environ.items() if name.startswith("ANYMAIL_")}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "").strip() or "WARLINE Organized Play <noreply@localhost>"
# The site's address in emails (links to battles and events).
_first_host = next((h.lstrip(".") for h in ALLOWED_HOSTS if h not in ("*", "testserver")), "localhost")
OPP_SITE_URL = os.environ.get("OPP_SITE_URL", "").strip().rstrip("/") or (
    "http://127.0.0.1:8000" if DEBUG else f"https://{_first_host}")

# Error reporting (docs/deployment.md): in production every ERROR logged anywhere (a server error of a page,
# a job that failed) is mailed to ADMINS through the mail settings above, from DEFAULT_FROM_EMAIL.
ADMINS = env_addresses("ADMINS")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "filters": {"require_debug_false": {"()": "django.utils.log.RequireDebugFalse"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain"},
        "mail_admins": {"class": "django.utils.log.AdminEmailHandler", "level": "ERROR",
                        "filters": ["require_debug_false"]},
    },
    "root": {"handlers": ["console", "mail_admins"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # Django's own default handlers would print and mail its errors a second time: the root has both.
        "django": {"handlers": [], "level": "INFO"},
        "django.db.backends": {"level": "WARNING"},
        # The live process's event loop serves thousands of streams: a mail sent from it would stall them all
        # for as long as the mail server takes. Its errors are logged only.
        "tournaments.web.live_stream": {"handlers": ["console"], "propagate": False},
    },
}

# Error reports to Sentry when SENTRY_DSN is set; sentry-sdk is not among the requirements, so a site that
# wants it adds it to requirements.txt and regenerates the lock (docs/deployment.md). Its Django and Celery
# integrations switch themselves on; no personal data (addresses, cookies, users) is sent.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "").strip()
if SENTRY_DSN:
    try:
        import sentry_sdk
    except ImportError:
        raise ImproperlyConfigured(
            "SENTRY_DSN is set but sentry-sdk is not installed: add sentry-sdk to requirements.txt, "
            "regenerate requirements.lock and install it (docs/deployment.md), or unset SENTRY_DSN.") from None
    sentry_sdk.init(dsn=SENTRY_DSN, send_default_pii=False,
                    environment=os.environ.get("SENTRY_ENVIRONMENT", "").strip() or "production")
