"""The language switcher's form (templates/base.html) posts here: Django's set_language sets the
django_language cookie and goes back to the page; a signed-in user's choice is also kept in their settings
(NotificationSettings.language), which their mails follow.

A visitor's form carries no CSRF token, so pages stay the same for every anonymous visitor (the password
reset answers a known and an unknown address with identical pages): for them the choice only sets their own
cookie, which a forged post cannot turn into anything worse than a page in another offered language. A
signed-in user's choice changes their account, so it needs the token as every other form does."""
from django.conf import settings
from django.utils import translation
from django.utils.translation import check_for_language
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from tournaments.models import NotificationSettings

LANGUAGE_CODES = {code for code, _name in settings.LANGUAGES}


@csrf_exempt
@require_POST
def choose_language(request):
    if request.user.is_authenticated:
        return _choose_and_keep(request)
    return set_language(request)


@csrf_protect
def _choose_and_keep(request):
    response = set_language(request)
    chosen = request.POST.get("language", "")
    if chosen in LANGUAGE_CODES and check_for_language(chosen):
        NotificationSettings.objects.update_or_create(user=request.user, defaults={"language": chosen})
    return response


CHECKED = "saved_language_checked"


class SavedLanguageMiddleware:
    """A signed-in user whose browser holds no language cookie (a new device, a cleared browser) gets the
    language kept in their settings, and the cookie with it, so the choice follows the account and not only
    the browser it was made in. One query a session, only while the cookie is missing; runs after the
    authentication."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        chosen = None
        if (settings.LANGUAGE_COOKIE_NAME not in request.COOKIES and request.user.is_authenticated
                and not request.session.get(CHECKED)):
            request.session[CHECKED] = True  # asked once a session: a user who never chose costs no query a poll
            chosen = (NotificationSettings.objects.filter(user=request.user)
                      .values_list("language", flat=True).first())
            if chosen in LANGUAGE_CODES:
                translation.activate(chosen)
                request.LANGUAGE_CODE = chosen
            else:
                chosen = None
        response = self.get_response(request)
        if chosen:
            response.set_cookie(settings.LANGUAGE_COOKIE_NAME, chosen, max_age=settings.LANGUAGE_COOKIE_AGE,
                                path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
                                secure=settings.LANGUAGE_COOKIE_SECURE, httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                                samesite=settings.LANGUAGE_COOKIE_SAMESITE)
        return response
