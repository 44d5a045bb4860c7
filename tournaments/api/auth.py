"""Signing in to the API, protected against guessing: the token endpoint has its own throttle
(`API_THROTTLE_LOGIN` per client address, counted in the cache, which degrades to process memory
when Redis is down) and shares the login form's lockout (django-axes: after `AXES_FAILURE_LIMIT`
wrong passwords for one username from one address, that pair is locked out for `AXES_COOLOFF_TIME`), and
the per-address limit on failed sign-ins whatever the usernames (tournaments/accounts/). A token goes only to
an account whose sign-in on the site would succeed: one that signed up and has not verified its email is
told to verify it first (403). `DELETE` on the same address revokes the caller's tokens."""
from axes.exceptions import AxesBackendPermissionDenied
from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import ngettext
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import FormParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle

from tournaments.accounts import revoke_api_tokens
from tournaments.accounts.signup import VERIFY_EMAIL_FIRST, needs_email_verification
from tournaments.api.parsers import JSONParser


def lockout_sentence():
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return ngettext("Too many failed sign-ins for this username from your address: signing in is locked for "
                    "%(minutes)s minute. Ask an organizer if you have forgotten your password.",
                    "Too many failed sign-ins for this username from your address: signing in is locked for "
                    "%(minutes)s minutes. Ask an organizer if you have forgotten your password.",
                    minutes) % {"minutes": minutes}


class LoginRateThrottle(ScopedRateThrottle):
    scope_attr = "throttle_scope"


class TokenView(ObtainAuthToken):
    """Exchanges a username and password for the user's API token (POST); revokes it (DELETE)."""

    throttle_classes = [LoginRateThrottle]
    throttle_scope = "login"
    parser_classes = [JSONParser, FormParser]

    def get_permissions(self):
        # Signing in needs no credentials; signing a token out needs the user it belongs to.
        return [IsAuthenticated()] if self.request.method == "DELETE" else []

    def get_throttles(self):
        return super().get_throttles() if self.request.method != "DELETE" else []

    @extend_schema(operation_id="auth_token_destroy", request=None, responses={204: None}, tags=["auth"])
    def delete(self, request, *args, **kwargs):
        """Revokes your API tokens: every client using one is signed out. A new one is handed out at the
        next sign-in (POST). Changing or resetting your password does the same."""
        revoke_api_tokens(request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        operation_id="auth_token_create",
        request=inline_serializer("Credentials", {"username": serializers.CharField(),
                                                   "password": serializers.CharField()}),
        responses={200: inline_serializer("Token", {"token": serializers.CharField()})},
        auth=[], tags=["auth"])
    def post(self, request, *args, **kwargs):
        try:
            serializer = self.get_serializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            user = serializer.validated_data["user"]
            if needs_email_verification(user):
                return Response({"detail": VERIFY_EMAIL_FIRST, "code": "email_not_verified"},
                                status=status.HTTP_403_FORBIDDEN)
            token, _ = Token.objects.get_or_create(user=user)
            return Response({"token": token.key})
        except (ValidationError, AxesBackendPermissionDenied):
            # django-axes marks the request when this failure locks the pair out, or it was locked already.
            if getattr(request, "axes_locked_out", False):
                return Response({"detail": lockout_sentence(), "code": "locked_out"},
                                status=status.HTTP_429_TOO_MANY_REQUESTS)
            raise


def lockout_response(request, response=None, credentials=None):
    """What django-axes answers a locked-out sign-in with (AXES_LOCKOUT_CALLABLE): 429 and the sentence."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": lockout_sentence(), "code": "locked_out"}, status=429)
    return render(request, "registration/locked_out.html", {"sentence": lockout_sentence()}, status=429)
