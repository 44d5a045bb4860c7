"""The API of webhooks (docs/webhooks.md): an event's organizers register HTTPS endpoints under
/api/v1/events/{slug}/webhooks/, site staff the ones that hear of every event under /api/v1/webhooks/.
Each endpoint has its secret (shown here, to those who manage it), its kinds and its delivery log; a
delivery can be sent again. The steps are tournaments.webhooks.services'; they refuse with a sentence
(errors.py: 400, 403, 409)."""
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import trust
from tournaments.api.idempotency import IdempotentPosts
from tournaments.api.views import ERROR, ERRORS
from tournaments.models import WebhookDelivery, WebhookEndpoint
from tournaments.webhooks import services

DELIVERIES_LISTED = 100


# --- bodies ---------------------------------------------------------------------------------------------

class WebhookEndpointSerializer(serializers.ModelSerializer):
    event = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True,
                                         help_text="The event it hears of; null: every event of the site.")
    owner = serializers.CharField(source="owner.username", read_only=True, help_text="Who registered it.")
    kinds = serializers.ListField(child=serializers.ChoiceField(choices=WebhookEndpoint.Kind.choices),
                                  read_only=True)
    secret = serializers.CharField(read_only=True, help_text=(
        "Signs every delivery (HMAC-SHA256 of `<t>.<body>`, header `X-Warline-Signature: t=<t>,v1=<hex>`)."))

    class Meta:
        model = WebhookEndpoint
        fields = ["id", "event", "url", "kinds", "active", "secret", "owner", "consecutive_failures", "disabled_at",
                  "disabled_reason", "created_at"]
        read_only_fields = fields


class WebhookEndpointInputSerializer(serializers.Serializer):
    url = serializers.CharField(max_length=500, help_text="https:// address of a public host.")
    kinds = serializers.ListField(child=serializers.ChoiceField(choices=WebhookEndpoint.Kind.choices),
                                  allow_empty=False, max_length=len(WebhookEndpoint.Kind.values),
                                  help_text="The happenings it hears of.")


class WebhookEndpointChangeSerializer(serializers.Serializer):
    url = serializers.CharField(max_length=500, required=False)
    kinds = serializers.ListField(child=serializers.ChoiceField(choices=WebhookEndpoint.Kind.choices),
                                  allow_empty=False, max_length=len(WebhookEndpoint.Kind.values), required=False)
    active = serializers.BooleanField(required=False, help_text=(
        "false disables it; true enables it again (its failures back to 0, what waits for it is sent)."))


class WebhookDeliverySerializer(serializers.ModelSerializer):
    delivery_id = serializers.UUIDField(read_only=True, help_text="`X-Warline-Delivery`: the same on a resend.")
    body = serializers.CharField(read_only=True, help_text="The JSON body exactly as signed and sent.")

    class Meta:
        model = WebhookDelivery
        fields = ["id", "delivery_id", "kind", "state", "attempts", "next_attempt_at", "response_code",
                  "response_excerpt", "error", "created_at", "delivered_at", "body"]
        read_only_fields = fields


# --- who may --------------------------------------------------------------------------------------------

class ManagesWebhooks(BasePermission):
    """An event's organizers for its webhooks; site staff for the site's."""

    def has_permission(self, request, view):
        event = view.scope()
        self.message = services.NOT_STAFF if event is None else trust.NOT_ORGANIZER
        return services.may_manage(request.user, event)


class WebhookView(IdempotentPosts, APIView):
    """The scope from the path: the event named by `slug` (404 when the user may not see it), or the
    whole site."""

    permission_classes = [IsAuthenticated, ManagesWebhooks]

    def scope(self):
        slug = self.kwargs.get("slug")
        if slug is None:
            return None
        if not hasattr(self, "_event"):
            self._event = get_object_or_404(trust.visible_events(self.request.user), slug=slug)
        return self._event

    def endpoint(self, pk):
        return get_object_or_404(services.endpoints_of(self.scope()), pk=pk)


NO_CONTENT = OpenApiResponse(description="Deleted.")


class WebhookListView(WebhookView):
    @extend_schema(responses={200: WebhookEndpointSerializer(many=True), 403: ERROR, 404: ERROR})
    def get(self, request, slug=None):
        """The webhooks (of the event, or of the whole site), with their secrets."""
        return Response(WebhookEndpointSerializer(services.endpoints_of(self.scope()), many=True).data)

    @extend_schema(request=WebhookEndpointInputSerializer, responses={201: WebhookEndpointSerializer, **ERRORS})
    def post(self, request, slug=None):
        """Registers an HTTPS endpoint for the kinds given; its secret is in the answer. An address that is
        not https, names no public host or resolves to a private address is 400 with the sentence."""
        payload = WebhookEndpointInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        endpoint = services.register(request.user, self.scope(), **payload.validated_data)
        return Response(WebhookEndpointSerializer(endpoint).data, status=status.HTTP_201_CREATED)


class WebhookDetailView(WebhookView):
    @extend_schema(responses={200: WebhookEndpointSerializer, 403: ERROR, 404: ERROR})
    def get(self, request, pk, slug=None):
        """One webhook."""
        return Response(WebhookEndpointSerializer(self.endpoint(pk)).data)

    @extend_schema(request=WebhookEndpointChangeSerializer, responses={200: WebhookEndpointSerializer, **ERRORS})
    def patch(self, request, pk, slug=None):
        """Changes its address or kinds, or disables it or enables it again."""
        endpoint = self.endpoint(pk)
        payload = WebhookEndpointChangeSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        return Response(WebhookEndpointSerializer(services.update(request.user, endpoint,
                                                                  **payload.validated_data)).data)

    @extend_schema(responses={204: NO_CONTENT, **ERRORS})
    def delete(self, request, pk, slug=None):
        """Deletes it with its delivery log."""
        services.delete(request.user, self.endpoint(pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookSecretView(WebhookView):
    @extend_schema(request=None, responses={200: WebhookEndpointSerializer, **ERRORS})
    def post(self, request, pk, slug=None):
        """A new secret: deliveries are signed with it from now on (retries too)."""
        return Response(WebhookEndpointSerializer(services.rotate_secret(request.user, self.endpoint(pk))).data)


class WebhookPingView(WebhookView):
    @extend_schema(request=None, responses={202: WebhookDeliverySerializer, **ERRORS})
    def post(self, request, pk, slug=None):
        """Sends a test delivery (kind `ping`); its answer shows in the log."""
        delivery = services.ping(request.user, self.endpoint(pk))
        return Response(WebhookDeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)


class WebhookDeliveriesView(WebhookView):
    @extend_schema(responses={200: WebhookDeliverySerializer(many=True), 403: ERROR, 404: ERROR})
    def get(self, request, pk, slug=None):
        """The delivery log, newest first (the last 100): each delivery's state, tries, last answer's code
        and start, and its body."""
        deliveries = self.endpoint(pk).deliveries.all()[:DELIVERIES_LISTED]
        return Response(WebhookDeliverySerializer(deliveries, many=True).data)


class WebhookResendView(WebhookView):
    @extend_schema(request=None, responses={202: WebhookDeliverySerializer, **ERRORS})
    def post(self, request, pk, delivery_pk, slug=None):
        """Sends the delivery again as it was (same body, same `X-Warline-Delivery`), its tries counted afresh."""
        delivery = self.endpoint(pk).deliveries.filter(pk=delivery_pk).first()
        if delivery is None:
            raise NotFound(_("No such delivery of this webhook."))
        delivery = services.resend(request.user, delivery)
        return Response(WebhookDeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)
