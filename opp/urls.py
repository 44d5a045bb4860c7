import os

from django.contrib import admin
from django.http import HttpResponse
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from opp.views import healthz
from tournaments.api.auth import TokenView

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/v1/", include("tournaments.api.urls")),
    path("api/v1/auth/token/", TokenView.as_view(), name="api-token"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path("", include("tournaments.urls")),
]

if os.environ.get("OPP_BENCH_BASELINE") == "1":
    # Only for bench/api.py: the baseline a benchmark compares the API with, a bare view returning
    # a constant JSON body through the same middleware. Never routed unless this variable is set.
    _BENCH_BODY = b'{"bench": "constant", "ok": true}'

    def bench_constant(request):
        return HttpResponse(_BENCH_BODY, content_type="application/json")

    urlpatterns.insert(0, path("bench/constant", bench_constant))

handler400 = "opp.views.bad_request"
handler404 = "opp.views.not_found"
handler500 = "opp.views.server_error"
