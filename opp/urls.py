import os

from csp.decorators import csp_update
from django.contrib import admin
from django.http import HttpResponse
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from opp.views import healthz
from tournaments.accounts.views import LimitedPasswordResetView, SignupView
from tournaments.api.auth import TokenView
from tournaments.web import account_settings, language

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    # Accounts are django-allauth's; two of its views at their own addresses and names, before it, with this
    # site's rules (tournaments/accounts/views.py): the sign-up's invitation, the reset's limits.
    path("accounts/signup/", SignupView.as_view(), name="account_signup"),
    path("accounts/password/reset/", LimitedPasswordResetView.as_view(), name="account_reset_password"),
    path("accounts/", include("allauth.account.urls")),
    path("my/account/delete/", account_settings.delete_account, name="my-account-delete"),
    # The language switcher (base.html): Django's set_language, the choice also kept in a signed-in user's
    # settings; then Django's own i18n URLs. The page addresses stay the same in every language.
    path("i18n/setlang/", language.choose_language, name="set_language"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("api/v1/", include("tournaments.api.urls")),
    path("api/v1/auth/token/", TokenView.as_view(), name="api-token"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start script from its own address (no inline script); Redoc's
    # styled-components write <style> elements and its search runs in a worker made from a blob. Both pages
    # are this site's own (templates/api_docs/): in English (lang) with a main landmark.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(
        url_name="api-schema", template_name="api_docs/swagger_ui.html"), name="api-docs"),
    path("api/redoc/", csp_update({"style-src": ["'unsafe-inline'"], "worker-src": ["'self'", "blob:"]})(
        SpectacularRedocView.as_view(url_name="api-schema", template_name="api_docs/redoc.html")),
         name="api-redoc"),
    path("", include("tournaments.web.urls")),
]

if os.environ.get("OPP_BENCH_BASELINE") == "1":
    # Only for bench/api.py: the baseline a benchmark compares the API with, a bare view returning
    # a constant JSON body through the same middleware. Never routed unless this variable is set.
    _BENCH_BODY = b'{"bench": "constant", "ok": true}'

    def bench_constant(request):
        return HttpResponse(_BENCH_BODY, content_type="application/json")

    urlpatterns.insert(0, path("bench/constant", bench_constant))

handler400 = "opp.views.bad_request"
handler429 = "tournaments.accounts.views.too_many_requests"  # allauth's rate limits (ACCOUNT_RATE_LIMITS)
handler404 = "opp.views.not_found"
handler500 = "opp.views.server_error"
