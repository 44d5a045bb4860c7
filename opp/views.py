from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from opp.health import overall, run_checks


@never_cache
def healthz(request):
    checks = run_checks()
    status = overall(checks)
    body = {"status": status, "checks": {c.name: {"ok": c.ok, "detail": c.detail} for c in checks}}
    return JsonResponse(body, status=503 if status == "down" else 200)
