"""The REST API (/api/v1/). Each view declares who may call it with the permission classes of
`tournaments.api.permissions` (over `tournaments.trust`) and hands the step to the services."""
import json

from django.db.models import Prefetch, Q
from django.db.models.functions import Lower
from django.http import QueryDict
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django_filters import rest_framework as filters
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from tournaments import notifications, trust
from tournaments.api import profile_serializers as ps
from tournaments.api import serializers as s
from tournaments.api.idempotency import IdempotentPosts
from tournaments.api.permissions import (
    AddsGenerals,
    AnswersInvitation,
    IsEventOrganizerOrReadOnly,
    MayCreateEvents,
    OrganizesEvent,
    OrganizesEventToChange,
    ReadsPublished,
    RenamesGeneral,
    SchedulesOrReportsSeasonBattles,
    SeesReports,
)
from tournaments.api.scoreboard import conditional_answer
from tournaments.domain import DomainError
from tournaments.events import membership, services
from tournaments.leagues import seasons
from tournaments.models import (
    Battle,
    Event,
    General,
    Invitation,
    OrganizerInvitation,
    Registration,
    Report,
    Season,
)
from tournaments.profiles import directory as profile_directory
from tournaments.profiles import records as profile_records
from tournaments.ratings import queries as ratings
from tournaments.results import arranged, confirmation, recording, replays, reporting
from tournaments.standings import queries

ERROR_BODY = inline_serializer("Error", {
    "detail": serializers.CharField(), "code": serializers.CharField(),
    "fields": serializers.DictField(child=serializers.ListField(child=serializers.CharField()), required=False),
    "matches": s.GeneralMatchSerializer(many=True, required=False, help_text=(
        "When a general of that name exists: the generals whose name matches (ignoring case and spaces).")),
})
ERROR = OpenApiResponse(ERROR_BODY, description="What is wrong and where.")
ERRORS = {400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR}
SAME_NAME = OpenApiResponse(ERROR_BODY, description="A general of that name exists (names compared ignoring case "
                            "and spaces, listed in `matches`): choose it by id, or send `create_new: true`.")


class ScoreboardThrottle(AnonRateThrottle):
    """The scoreboard's one throttle: venue screens behind one address poll it often (a screen every
    2 s is 30 a minute), so it has its own rate (API_THROTTLE_SCOREBOARD)."""

    scope = "scoreboard"


class EventFilter(filters.FilterSet):
    class Meta:
        model = Event
        fields = ["kind", "state", "game"]


class EventViewSet(IdempotentPosts, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                   mixins.UpdateModelMixin, viewsets.GenericViewSet):
    """Tournaments and leagues. Users granted the organizer role create them and organize them."""

    serializer_class = s.EventSerializer
    lookup_field = "slug"
    permission_classes = [IsAuthenticatedOrReadOnly, MayCreateEvents, OrganizesEventToChange]
    # The list's query (tournaments/api/query.py); newest first without `ordering`.
    filterset_class = EventFilter
    ordering_fields = {"name": Lower("name"), "starts_on": "starts_on", "created_at": "created_at"}
    search_fields = ["name", "venue"]

    def get_queryset(self):
        return trust.visible_events(self.request.user).select_related("victor").prefetch_related("organizers") \
            .order_by("-created_at", "id")

    def get_object(self):
        event = super().get_object()
        if confirmation.sweep(event):  # reports whose window passed count before anything is shown
            event.refresh_from_db()
        return event

    @extend_schema(responses={201: s.EventSerializer, **ERRORS})
    def create(self, request, *args, **kwargs):
        """Creates an event (needs the organizer role site staff grant); the creator organizes it."""
        return super().create(request, *args, **kwargs)

    def perform_create(self, serializer):
        serializer.instance = services.create_event(actor=self.request.user, organizers=[self.request.user],
                                                    **serializer.validated_data)

    def perform_update(self, serializer):
        event = serializer.instance
        data = dict(serializer.validated_data)
        rule_changes = {key: data.pop(key) for key in s.RULE_FIELDS if key in data}
        if rule_changes:
            event = services.change_rules(event, actor=self.request.user, **rule_changes)
        if "confirmation_minutes" in data:
            event = confirmation.set_window(event, data.pop("confirmation_minutes"), actor=self.request.user)
        if data:
            event = services.change_details(event, actor=self.request.user, **data)
        serializer.instance = event

    @extend_schema(responses={200: s.RegistrationSerializer(many=True)}, methods=["GET"])
    @extend_schema(request=s.RegisterInputSerializer, responses={201: s.RegistrationSerializer, **ERRORS,
                                                                 409: SAME_NAME}, methods=["POST"])
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def registrations(self, request, slug=None):
        """Registrations in order. Organizers register generals without a player account: an
        existing unclaimed general's id, or a new name (409 with the general(s) of the same name
        unless `create_new`). A player's general enters only with their consent: 403, invite them."""
        event = self.get_object()
        if request.method == "GET":
            registrations = event.registrations.select_related("general")
            if not trust.may_organize(request.user, event):  # the approval queue is the organizers' and the player's
                me = trust.general_of(request.user)
                registrations = registrations.exclude(
                    Q(status__in=(Registration.Status.PENDING, Registration.Status.REFUSED)) & ~Q(general=me))
            return Response(s.RegistrationSerializer(registrations, many=True).data)
        payload = s.RegisterInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        registration = membership.register_by_organizer(
            event, actor=request.user, general=data.get("general"), name=data.get("name"),
            create_new=data["create_new"], seed=data.get("seed"))
        return Response(s.RegistrationSerializer(registration).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.RegistrationDecisionSerializer, responses={200: s.RegistrationSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="registrations/decision",
            permission_classes=[IsAuthenticated, OrganizesEvent])
    def decide_registration(self, request, slug=None):
        """An organizer approves a registration waiting for approval (`status` `pending`, where the event
        has `approve_registrations`) or refuses it with a sentence the player reads (`status_reason`).
        A registration decided already is 409."""
        event = self.get_object()
        payload = s.RegistrationDecisionSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        registration = services.decide_registration(event, data["general"], actor=request.user,
                                                    approve=data["approve"], reason=data["reason"])
        return Response(s.RegistrationSerializer(registration).data)

    @extend_schema(request=s.JoinInputSerializer, responses={201: s.RegistrationSerializer, **ERRORS,
                                                             409: SAME_NAME})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated, ReadsPublished])
    def join(self, request, slug=None):
        """Self-registration: the signed-in player enters their own general while registration is
        open (a tournament, or a league's members). A player without a general names it here."""
        event = self.get_object()
        payload = s.JoinInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        registration = membership.join(event, request.user, name=payload.validated_data.get("name"),
                                       create_new=payload.validated_data["create_new"])
        return Response(s.RegistrationSerializer(registration).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.WithdrawInputSerializer, responses={200: s.RegistrationSerializer, **ERRORS})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated, ReadsPublished])
    def withdraw(self, request, slug=None):
        """The player withdraws their general before registration closes (an organizer may name any
        general of the event)."""
        event = self.get_object()
        payload = s.WithdrawInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        general = payload.validated_data.get("general") or trust.general_of(request.user)
        if general is None:
            raise DomainError(_("You have no general to withdraw."), field="general")
        services.withdraw(event, general, actor=request.user, reason=payload.validated_data["reason"])
        return Response(s.RegistrationSerializer(event.registrations.get(general=general)).data)

    @extend_schema(responses={200: s.InvitationSerializer(many=True), **ERRORS}, methods=["GET"])
    @extend_schema(request=s.InviteInputSerializer, responses={201: s.InvitationSerializer, **ERRORS},
                   methods=["POST"])
    @action(detail=True, methods=["get", "post"], pagination_class=None,
            permission_classes=[IsAuthenticated, OrganizesEvent])
    def invitations(self, request, slug=None):
        """Organizers invite a player's general; it enters the event when the player accepts."""
        event = self.get_object()
        if request.method == "GET":
            return Response(s.InvitationSerializer(event.invitations.select_related("general", "event"),
                                                   many=True).data)
        payload = s.InviteInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        invitation = membership.invite(event, payload.validated_data["general"], actor=request.user)
        return Response(s.InvitationSerializer(invitation).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: s.OrganizerSerializer(many=True)}, methods=["GET"])
    @extend_schema(request=s.OrganizerSerializer, responses={201: s.OrganizerInvitationSerializer, **ERRORS},
                   methods=["POST"])
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def organizers(self, request, slug=None):
        """The event's organizers. An organizer invites a co-organizer by username (an account holding the
        organizer permission, or staff); it organizes once it accepts (`organizer-invitations/{id}/accept/`)."""
        event = self.get_object()
        if request.method == "POST":
            payload = s.OrganizerSerializer(data=request.data)
            payload.is_valid(raise_exception=True)
            invitation = membership.invite_organizer(event, payload.validated_data["username"], actor=request.user)
            return Response(s.OrganizerInvitationSerializer(invitation).data, status=status.HTTP_201_CREATED)
        return Response(s.OrganizerSerializer(event.organizers.order_by("username"), many=True).data)

    @extend_schema(request=None, responses={204: None, **ERRORS})
    @action(detail=True, methods=["delete"], url_path=r"organizers/(?P<username>[^/]+)",
            permission_classes=[IsAuthenticated, OrganizesEvent])
    def remove_organizer(self, request, slug=None, username=None):
        """Removes a co-organizer (not the owner, not the last organizer)."""
        membership.remove_organizer(self.get_object(), username, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(responses={200: s.OrganizerInvitationSerializer(many=True), **ERRORS})
    @action(detail=True, methods=["get"], url_path="organizer-invitations", pagination_class=None,
            permission_classes=[IsAuthenticated, OrganizesEvent])
    def organizer_invitations(self, request, slug=None):
        """The event's invitations to co-organize, newest first."""
        event = self.get_object()
        return Response(s.OrganizerInvitationSerializer(
            event.organizer_invitations.select_related("event", "user", "invited_by"), many=True).data)

    @extend_schema(request=s.OrganizerSerializer, responses={200: s.EventSerializer, **ERRORS})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated, OrganizesEvent])
    def owner(self, request, slug=None):
        """The owner hands the event over to a co-organizer (`username`); they stay a co-organizer."""
        payload = s.OrganizerSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        event = membership.hand_over(self.get_object(), payload.validated_data["username"], actor=request.user)
        return Response(s.EventSerializer(event, context={"request": request}).data)

    @extend_schema(request=None, responses={200: inline_serializer("ClosedRegistration", {
        "eliminated": s.RegistrationSerializer(allow_null=True),
        "partitions": serializers.ListField(child=serializers.ListField(child=serializers.IntegerField())),
    }), **ERRORS})
    @action(detail=True, methods=["post"], url_path="close-registration",
            permission_classes=[IsAuthenticated, OrganizesEvent])
    def close_registration(self, request, slug=None):
        """Closes registration (state `registration_closed`; registering afterwards is 409), applies
        the odd-number rule (R71) and says which qualifying partitions are possible (R25)."""
        event = self.get_object()
        eliminated = services.close_registration(event, actor=request.user)
        _count, partitions = services.partition_choices(event)
        return Response({"eliminated": s.RegistrationSerializer(eliminated).data if eliminated else None,
                         "partitions": [list(p) for p in partitions]})

    @extend_schema(responses={200: s.GroupSerializer(many=True)})
    @action(detail=True, methods=["get"], pagination_class=None)
    def groups(self, request, slug=None):
        event = self.get_object()
        return Response(s.GroupSerializer(event.groups.select_related("winner").order_by("-stage", "index"),
                                          many=True).data)

    @extend_schema(request=s.FormGroupsInputSerializer, responses={200: inline_serializer("GroupPlan", {
        "saved": serializers.BooleanField(), "method": serializers.CharField(),
        "seed": serializers.IntegerField(allow_null=True),
        "groups": serializers.ListField(child=s.GeneralBriefSerializer(many=True)),
    }), **ERRORS})
    @action(detail=True, methods=["post"], url_path="form-groups",
            permission_classes=[IsAuthenticated, OrganizesEvent])
    def form_groups(self, request, slug=None):
        """Previews or forms the qualifying groups (R25) and starts the Qualifying Stage."""
        event = self.get_object()
        payload = s.FormGroupsInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        plan = services.plan_groups(event, data["group_count"], data["method"], seed=data.get("seed"),
                                    manual=data.get("manual"))
        if not data["preview"]:
            services.form_groups(event, data["group_count"], data["method"], seed=plan.seed,
                                 manual=data.get("manual"), actor=request.user)
        return Response({"saved": not data["preview"], "method": plan.method, "seed": plan.seed,
                         "groups": [[{"id": g.pk, "name": g.name} for g in group] for group in plan.groups]})

    @extend_schema(responses={200: s.StandingsSerializer})
    @action(detail=True, methods=["get"])
    def standings(self, request, slug=None):
        """Every group's (and season's) standings with every tie-break figure (R24)."""
        return Response(queries.standings_document(self.get_object()))

    @extend_schema(responses={200: inline_serializer("Crosstables", {
        "groups": serializers.ListField(child=serializers.DictField())})})
    @action(detail=True, methods=["get"])
    def crosstables(self, request, slug=None):
        """Round-robin grids: each cell is the row general's result and OPP against the column general."""
        event = self.get_object()
        groups = []
        for group in event.groups.order_by("-stage", "index"):
            order, grid = queries.crosstable(group)
            groups.append({
                "id": group.pk, "name": group.name, "generals": [{"id": g.pk, "name": g.name} for g in order],
                "cells": [[{"text": c.text, "opp": c.opp, "battle": c.battle_id} for c in cells]
                          for _general, cells in grid],
            })
        return Response({"groups": groups})

    @extend_schema(responses={200: s.DisqualificationSerializer(many=True)}, methods=["GET"])
    @extend_schema(request=s.DisqualifyInputSerializer, responses={201: s.DisqualificationSerializer, **ERRORS},
                   methods=["POST"])
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def disqualifications(self, request, slug=None):
        """Disqualifications; organizers disqualify a registered general still in the event (R23
        applies at once to every standing; "forfeits" needs the forfeits on record, R68)."""
        event = self.get_object()
        if request.method == "GET":
            return Response(s.DisqualificationSerializer(
                event.disqualifications.select_related("general", "decided_by"), many=True).data)
        payload = s.DisqualifyInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        services.disqualify(event, actor=request.user, **payload.validated_data)
        dq = event.disqualifications.get(general=payload.validated_data["general"])
        return Response(s.DisqualificationSerializer(dq).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: s.ReportSerializer(many=True), 403: ERROR}, parameters=[
        OpenApiParameter("X-Disqualification-Offers", str, OpenApiParameter.HEADER, response=[200], description=(
            "R68: ids of the generals whose forfeits on record reach the event's limit, comma-separated "
            "(empty when none); their names are at `offers/`.")),
        OpenApiParameter("Link", str, OpenApiParameter.HEADER, response=[200],
                         description='`<.../offers/>; rel="offers"`: the standing R68 offers.')])
    @action(detail=True, methods=["get"], pagination_class=None, permission_classes=[IsAuthenticated, OrganizesEvent])
    def queue(self, request, slug=None):
        """The organizer's queue: disputed and failed reports first, then those still pending (with
        the time left before each counts by itself). The standing R68 offers (a forfeit counted by
        a confirmation, the window or an organizer) come with it in the `X-Disqualification-Offers`
        header, their names at `offers/` (the body stays the list of reports)."""
        event = self.get_object()
        offers = recording.disqualification_offers(event)
        return Response(s.ReportSerializer(reporting.open_reports(event), many=True).data, headers={
            "X-Disqualification-Offers": ",".join(str(general.pk) for general in offers),
            "Link": f'<{request.build_absolute_uri(reverse("event-offers", args=[event.slug]))}>; rel="offers"'})

    @extend_schema(responses={200: s.GeneralBriefSerializer(many=True), 403: ERROR})
    @action(detail=True, methods=["get"], pagination_class=None, permission_classes=[IsAuthenticated, OrganizesEvent])
    def offers(self, request, slug=None):
        """R68: generals whose forfeits on record reach the event's limit and who are not
        disqualified: disqualification is offered to the organizer, not applied."""
        return Response(s.GeneralBriefSerializer(recording.disqualification_offers(self.get_object()),
                                                 many=True).data)

    @extend_schema(responses={200: s.AuditEntrySerializer(many=True), 403: ERROR})
    @action(detail=True, methods=["get"], permission_classes=[IsAuthenticated, OrganizesEvent])
    def audit(self, request, slug=None):
        """The audit trail, newest first (organizers only)."""
        event = self.get_object()
        page = self.paginate_queryset(event.audit_entries.select_related("actor"))
        return self.get_paginated_response(s.AuditEntrySerializer(page, many=True).data)

    @extend_schema(responses={200: s.SeasonSerializer(many=True)}, methods=["GET"])
    @extend_schema(request=s.SeasonSerializer, responses={201: s.SeasonSerializer, **ERRORS}, methods=["POST"])
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def seasons(self, request, slug=None):
        """A league's seasons; organizers open the next one."""
        if request.method == "GET":
            return Response(s.SeasonSerializer(self.get_object().seasons.select_related("champion"),
                                               many=True).data)
        event = self.get_object()
        payload = s.SeasonSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        season = seasons.open_season(event, payload.validated_data["name"], actor=request.user)
        return Response(s.SeasonSerializer(season).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: inline_serializer("Scoreboard", {
        "event": serializers.DictField(), "tables": serializers.ListField(child=serializers.DictField()),
        "in_progress": serializers.ListField(child=serializers.DictField()),
        "latest_results": serializers.ListField(child=serializers.DictField())}), 304: None})
    @action(detail=True, methods=["get"], permission_classes=[AllowAny], throttle_classes=[ScoreboardThrottle])
    def scoreboard(self, request, slug=None):
        """One compact document for venue screens and stream overlays. Poll it with If-None-Match or
        If-Modified-Since: an unchanged event answers 304 without a body."""
        head = queries.scoreboard_head(slug)
        if head is None or not head["published"]:
            event = self.get_object()  # 404, or an organizer looking at an unpublished event
            if head is None:  # the event was created since its head was looked up
                revision_id, revision_at = queries.event_revision(event)
                head = {"event": event.pk, "revision": revision_id, "at": revision_at.timestamp()}
        status_code, headers, document = conditional_answer(request.META, head)
        # The rare path (an organizer's preview): decoded again so DRF can render any format.
        return Response(None if document is None else json.loads(document), status=status_code, headers=headers)


REPORT_RELATED = ("battle", "battle__event", "battle__general_a", "battle__general_b", "reported_by",
                  "answered_by", "adjudication")


def report_payload(request, serializer_class=None):
    """The report fields, with the replay from a JSON body or a multipart file upload. The fields are
    read one by one: copying a multipart body would copy its uploaded file too."""
    serializer_class = serializer_class or s.ReportInputSerializer
    if not hasattr(request.data, "keys"):
        raise ValidationError({"non_field_errors": [_("The body must be one JSON object with the report's fields.")]})
    upload = request.FILES.get("replay")
    if isinstance(request.data, QueryDict):  # a form or multipart body: one value per field
        data = {key: request.data.get(key) for key in request.data if key not in request.FILES}
    else:
        data = dict(request.data)
    if upload is not None:
        replays.refuse_oversized_replay(upload.size)  # before reading it into memory
        raw = upload.read()
        data.pop("replay", None)
    else:
        raw = data.pop("replay", None)
    payload = serializer_class(data=data)
    payload.is_valid(raise_exception=True)
    return payload.validated_data, raw


class BattleReportsMixin:
    @extend_schema(responses={200: s.ReportSerializer(many=True)}, methods=["GET"])
    @extend_schema(request=s.ReportInputSerializer, responses={201: s.ReportSerializer, **ERRORS}, methods=["POST"])
    @action(detail=True, methods=["get", "post"], pagination_class=None,
            permission_classes=[IsAuthenticated, ReadsPublished, SeesReports])
    def reports(self, request, pk=None):
        """Reports of this battle, newest first (for its two generals and the event's organizers).
        A general of the battle reports its result, optionally with the replay log; it counts when
        the opponent confirms, when both upload the same battle, or when the event's confirmation
        window passes without a dispute. An organizer's report counts at once. A battle with a
        counted result is 409: only an organizer's correction changes it (R69). The replay may also
        be uploaded as a file here (multipart), as `reports/upload/` documents."""
        battle = self.get_object()
        if request.method == "GET":
            reports = battle.reports.select_related(*REPORT_RELATED)
            return Response(s.ReportSerializer(reports, many=True).data)
        return self._submit_report(request, battle)

    # The multipart form is its own operation in the schema: generated clients handle one request
    # media type per operation.
    @extend_schema(request={"multipart/form-data": s.ReportUploadSerializer},
                   responses={201: s.ReportSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="reports/upload", parser_classes=[MultiPartParser],
            permission_classes=[IsAuthenticated, ReadsPublished, SeesReports])
    def upload_report(self, request, pk=None):
        """The same report with the replay log uploaded as a file named `replay` (multipart)."""
        return self._submit_report(request, self.get_object())

    def _submit_report(self, request, battle):
        fields, raw_replay = report_payload(request)
        report = reporting.submit_report(battle, user=request.user, replay=raw_replay, **fields)
        report = Report.objects.select_related(*REPORT_RELATED).get(pk=report.pk)
        return Response(s.ReportSerializer(report).data, status=status.HTTP_201_CREATED)


class BattleFilter(filters.FilterSet):
    event = filters.CharFilter(field_name="event__slug", help_text="The event's slug.")
    decided = filters.BooleanFilter(method="filter_decided", help_text="true: with a result; false: still open.")
    # Bounded so that an id no row can have is refused alike on PostgreSQL and SQLite.
    general = filters.NumberFilter(method="filter_general", min_value=1, max_value=2**63 - 1,
                                   help_text="A general's id.")

    class Meta:
        model = Battle
        fields = ["event", "group", "season", "round", "playoff", "kind"]

    def filter_decided(self, queryset, name, value):
        return queryset.exclude(kind="") if value else queryset.filter(kind="")

    def filter_general(self, queryset, name, value):
        return queryset.filter(Q(general_a_id=value) | Q(general_b_id=value))


class BattleViewSet(IdempotentPosts, BattleReportsMixin, mixins.DestroyModelMixin, viewsets.ReadOnlyModelViewSet):
    """The schedule and the results; filter by event, group, round, general, decided; search by a general's
    name."""

    serializer_class = s.BattleSerializer
    # The list's query (tournaments/api/query.py); by event, group or season, round and number without `ordering`.
    filterset_class = BattleFilter
    ordering_fields = {"id": "id", "round": "round", "number": "number", "decided_at": "decided_at"}
    search_fields = ["general_a__name", "general_b__name"]
    search_description = ["either general's name"]
    permission_classes = [IsAuthenticatedOrReadOnly, OrganizesEventToChange]

    def get_object(self):
        battle = super().get_object()
        if confirmation.sweep(battle.event):  # a result counted just now is shown, not the one before
            battle.refresh_from_db()
        return battle

    def get_queryset(self):
        return (Battle.objects.filter(event__in=trust.visible_events(self.request.user))
                .select_related("event", "group", "season", "swiss_round", "general_a", "general_b")
                .prefetch_related(Prefetch("reports", queryset=s.counted_verdicts(), to_attr="counted_verdicts"))
                .order_by("event_id", "group_id", "season_id", "playoff", "round", "number", "id"))

    @extend_schema(request=s.ResultInputSerializer, responses={200: s.DecidedBattleSerializer, **ERRORS})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated, OrganizesEvent])
    def result(self, request, pk=None):
        """Records a result, overrides the open report or corrects a counted result (organizers; an
        override or a correction needs a reason, R69). `offer_disqualification` is the R68 offer."""
        battle = self.get_object()
        payload = s.ResultInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = dict(payload.validated_data)
        recorded = reporting.decide_battle(battle, user=request.user, **data)
        body = s.BattleSerializer(self.get_queryset().get(pk=recorded.battle.pk)).data
        body["offer_disqualification"] = s.offer_body(recorded.offer_disqualification)
        return Response(body)

    @extend_schema(parameters=[OpenApiParameter("reason", str, required=False,
                                                description="Why, for the audit trail.")],
                   responses={204: None, **ERRORS})
    def destroy(self, request, *args, **kwargs):
        """Removes a scheduled league battle that has no result and no report (organizers; audited). A
        closing season may then name its champion."""
        battle = self.get_object()  # organizers only: IsEventOrganizerOrReadOnly
        seasons.remove_battle(battle, actor=request.user, reason=request.query_params.get("reason", ""))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ReportViewSet(IdempotentPosts, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A report's status (waiting, checked, confirmed, disputed and why), confirmation, dispute and
    the organizer's override. Reports are for the battle's two generals and the event's
    organizers: to anyone else they do not exist (404)."""

    serializer_class = s.ReportSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        reports = Report.objects.filter(battle__event__in=trust.visible_events(self.request.user))
        return trust.visible_reports(self.request.user, reports).select_related(*REPORT_RELATED)

    def get_object(self):
        report = super().get_object()
        if confirmation.sweep(report.battle.event):
            report.refresh_from_db()
        return report

    def _respond(self, report):
        return Response(s.ReportSerializer(self.get_queryset().get(pk=report.pk)).data)

    @extend_schema(request=None, responses={200: s.ReportSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def confirm(self, request, pk=None):
        """The opponent (or an organizer) confirms the report; its result counts from now on. When
        the result is a forfeit that reaches the limit, `offer_disqualification` names the general (R68)."""
        return self._respond(reporting.confirm_report(self.get_object(), user=request.user))

    @extend_schema(request=s.DisputeInputSerializer, responses={200: s.ReportSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def dispute(self, request, pk=None):
        """The opponent disputes the report (also while its replay waits for the engine); an organizer
        decides, unless the opponent withdraws the dispute (`withdraw-dispute/`) or confirms."""
        payload = s.DisputeInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        return self._respond(reporting.dispute_report(self.get_object(), user=request.user,
                                                      reason=payload.validated_data["reason"]))

    @extend_schema(request=s.WithdrawDisputeInputSerializer, responses={200: s.ReportSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="withdraw-dispute")
    def withdraw_dispute(self, request, pk=None):
        """The general who disputed the report takes the dispute back: the report waits for their
        confirmation again, with a new window. Nobody else ends a dispute but an organizer."""
        payload = s.WithdrawDisputeInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        return self._respond(reporting.withdraw_dispute(self.get_object(), user=request.user,
                                                        reason=payload.validated_data["reason"]))

    @extend_schema(request=s.OverrideInputSerializer, responses={200: s.ReportSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def override(self, request, pk=None):
        """An organizer decides the report: its result, or the one given, with a reason (400 without),
        audited as "report overridden" with the result before and after."""
        payload = s.OverrideInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = dict(payload.validated_data)
        reason = data.pop("reason")
        return self._respond(reporting.override_report(self.get_object(), user=request.user, reason=reason,
                                                       **data))


class GeneralFilter(filters.FilterSet):
    search = filters.CharFilter(method="search_names", max_length=100, help_text=(
        "Generals whose name contains this, ignoring case and spaces."))

    class Meta:
        model = General
        fields = ["external_id", "search"]

    def search_names(self, queryset, name, value):
        return queryset & profile_directory.matching(value)


class GeneralViewSet(IdempotentPosts, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                     mixins.UpdateModelMixin, viewsets.GenericViewSet):
    """Generals (players): one per user. Organizers add generals for players without an account;
    those stay unclaimed until the player claims them with the one-use code."""

    serializer_class = s.GeneralSerializer
    queryset = ratings.with_ratings(General.objects.order_by("name", "id"))  # the rating fields in the same query
    # The list's query (tournaments/api/query.py); `search` is the filter's, ignoring case and spaces.
    filterset_class = GeneralFilter
    ordering_fields = {"name": Lower("name"), "rating": "rating_value", "created_at": "created_at"}
    permission_classes = [IsAuthenticatedOrReadOnly, AddsGenerals, RenamesGeneral]
    http_method_names = ["get", "post", "patch", "head", "options"]

    @extend_schema(request=s.GeneralInputSerializer, responses={201: s.GeneralSerializer, **ERRORS,
                                                                409: SAME_NAME})
    def create(self, request, *args, **kwargs):
        """An unclaimed general; 409 with the general(s) of the same name (ignoring case and spaces)
        unless `create_new`. The answer carries the claim code to hand to the player."""
        payload = s.GeneralInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        general = membership.create_general(data["name"], actor=request.user, create_new=data["create_new"],
                                            external_id=data.get("external_id", ""))
        return Response(self.get_serializer(general).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.GeneralInputSerializer, responses={200: s.GeneralSerializer, **ERRORS,
                                                                409: SAME_NAME})
    def partial_update(self, request, *args, **kwargs):
        """Renames the general: only its player (or staff) for a claimed general."""
        general = self.get_object()
        payload = s.GeneralInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        general = membership.rename(general, payload.validated_data["name"], actor=request.user,
                                    create_new=payload.validated_data["create_new"])
        return Response(self.get_serializer(general).data)

    @extend_schema(exclude=True)
    def update(self, request, *args, **kwargs):
        return self.partial_update(request, *args, **kwargs)

    @extend_schema(request=s.ClaimInputSerializer, responses={200: s.GeneralSerializer, **ERRORS})
    @action(detail=False, methods=["post"], permission_classes=[IsAuthenticated])
    def claim(self, request):
        """The player claims the general an organizer created for them, with its one-use code."""
        payload = s.ClaimInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        general = membership.claim(request.user, payload.validated_data["code"])
        return Response(self.get_serializer(general).data)

    @extend_schema(request=None, responses={200: s.GeneralSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="claim-code", permission_classes=[IsAuthenticated])
    def claim_code(self, request, pk=None):
        """A new one-use claim code for an unclaimed general (its event's organizers, or staff)."""
        general = membership.renew_claim_code(self.get_object(), actor=request.user)
        return Response(self.get_serializer(general).data)

    @extend_schema(request=None, responses={200: ps.ProfileSerializer, 404: ERROR})
    @action(detail=True, methods=["get"], pagination_class=None)
    def profile(self, request, pk=None):
        """The general's record across events (battles, Victories by condition, Stalemates, Resolves,
        forfeits, OPP and place per event) and recent battles, over the events the caller may see."""
        general = self.get_object()
        events = trust.visible_events(request.user)
        profile = {"general": general, "record": profile_records.record(general, events),
                   "recent_battles": profile_directory.recent_battles(general, events, viewer=request.user)}
        return Response(ps.ProfileSerializer(profile).data)

    @extend_schema(request=None, responses={200: ps.HeadToHeadSerializer, 400: ERROR, 404: ERROR})
    @action(detail=True, methods=["get"], url_path=r"versus/(?P<other_id>[0-9]+)", pagination_class=None)
    def versus(self, request, pk=None, other_id=None):
        """Head to head: both generals' Victories, Stalemates, Resolves and forfeits against each other and
        their battles, in the events the caller may see."""
        general = self.get_object()
        other = get_object_or_404(General, pk=other_id)
        if other.pk == general.pk:
            raise DomainError(_("A general has no battles against themselves: give another general's id."),
                              field="other_id")
        head_to_head = profile_records.head_to_head(general, other, trust.visible_events(request.user))
        return Response(ps.HeadToHeadSerializer(head_to_head).data)


class InvitationViewSet(IdempotentPosts, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Invitations to enter an event: the invited general's player accepts or declines."""

    serializer_class = s.InvitationSerializer
    permission_classes = [IsAuthenticated, AnswersInvitation]
    queryset = Invitation.objects.none()  # the schema's path type; get_queryset answers requests

    def get_queryset(self):
        return Invitation.objects.filter(general__user=self.request.user).select_related("event", "general")

    @extend_schema(request=None, responses={200: s.InvitationSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def accept(self, request, pk=None):
        """The player accepts: their general is registered (while registration is open)."""
        invitation = membership.answer_invitation(self.get_object(), user=request.user, accept=True)
        return Response(self.get_serializer(invitation).data)

    @extend_schema(request=None, responses={200: s.InvitationSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def decline(self, request, pk=None):
        invitation = membership.answer_invitation(self.get_object(), user=request.user, accept=False)
        return Response(self.get_serializer(invitation).data)


class OrganizerInvitationViewSet(IdempotentPosts, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Invitations to co-organize an event: the invited account accepts or declines."""

    serializer_class = s.OrganizerInvitationSerializer
    permission_classes = [IsAuthenticated]
    queryset = OrganizerInvitation.objects.none()  # the schema's path type; get_queryset answers requests

    def get_queryset(self):  # only the invited account's own: others get 404
        return OrganizerInvitation.objects.filter(user=self.request.user).select_related("event", "user",
                                                                                        "invited_by")

    @extend_schema(request=None, responses={200: s.OrganizerInvitationSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def accept(self, request, pk=None):
        """The invited account accepts: it organizes the event from now on."""
        invitation = membership.answer_organizer_invitation(self.get_object(), user=request.user, accept=True)
        return Response(self.get_serializer(invitation).data)

    @extend_schema(request=None, responses={200: s.OrganizerInvitationSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def decline(self, request, pk=None):
        invitation = membership.answer_organizer_invitation(self.get_object(), user=request.user, accept=False)
        return Response(self.get_serializer(invitation).data)


class MeView(APIView):
    """The signed-in user, their general, the reports waiting for their confirmation, their own
    open reports, their invitations and the events they organize."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.MeSerializer, 401: ERROR, 403: ERROR})
    def get(self, request):
        return self._answer(request)

    @extend_schema(request=s.MeUpdateSerializer, responses={200: s.MeSerializer, 400: ERROR, 401: ERROR,
                                                            403: ERROR})
    def patch(self, request):
        """Changes which emails you get: `{"notifications": {"pairings": false}}`."""
        payload = s.MeUpdateSerializer(data=request.data, partial=True)
        payload.is_valid(raise_exception=True)
        notifications.update_settings(request.user, **payload.validated_data.get("notifications", {}))
        return self._answer(request)

    def _answer(self, request):
        user = request.user
        general = trust.general_of(user)
        reports = Report.objects.select_related(*REPORT_RELATED)
        waiting, mine, invitations = [], [], []
        if general is not None:
            for event in Event.objects.filter(battles__reports__status__in=Report.AWAITING_STATUSES).filter(
                    Q(battles__general_a=general) | Q(battles__general_b=general)).distinct():
                confirmation.sweep(event)
            involved = reports.filter(Q(battle__general_a=general) | Q(battle__general_b=general),
                                      status__in=Report.OPEN_STATUSES)
            waiting = [r for r in involved.filter(status__in=reporting.ANSWERABLE) if trust.may_answer(user, r)]
            invitations = general.invitations.filter(status=Invitation.Status.PENDING).select_related("event",
                                                                                                    "general")
        mine = reports.filter(reported_by=user, status__in=Report.OPEN_STATUSES)
        return Response(s.MeSerializer({
            "username": user.get_username(), "email": user.email,
            "notifications": notifications.settings_of(user), "may_create_events": trust.may_create_event(user),
            "general": general, "awaiting_my_confirmation": waiting, "my_open_reports": list(mine),
            "invitations": list(invitations),
            "organizer_invitations": list(user.organizer_invitations.filter(
                status=OrganizerInvitation.Status.PENDING).select_related("event", "user", "invited_by")),
            "organizing": list(user.organized_events.order_by("-created_at").values_list("slug", flat=True)),
        }, context={"request": request}).data)


class SeasonViewSet(IdempotentPosts, viewsets.GenericViewSet):
    """A league's seasons: open -> closing -> playoff -> closed, moving on by itself once closed
    (see tournaments/leagues/seasons.py). `waiting_for` says what a season waits for."""

    serializer_class = s.SeasonSerializer
    permission_classes = [IsAuthenticatedOrReadOnly, IsEventOrganizerOrReadOnly]

    def get_queryset(self):
        return Season.objects.filter(event__in=trust.visible_events(self.request.user)).select_related(
            "event", "champion")

    @extend_schema(request=None, responses={200: s.SeasonClosedSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        """Closes the season (organizers). It takes no new battles and moves on by itself: closing while
        battles are still scheduled, then playoffs when the top is tied (R24; listed in `playoffs`),
        then closed with its champion (R112: none without a counted battle)."""
        season = self.get_object()
        settled = seasons.close_season(season, actor=request.user)
        season = self.get_queryset().get(pk=season.pk)
        return Response(s.SeasonClosedSerializer(season, context={"playoffs": settled.playoffs}).data)

    @extend_schema(request=s.ReasonInputSerializer, responses={200: s.SeasonSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def reopen(self, request, pk=None):
        """Opens the season again, with a reason (organizers; audited). Pending playoffs are removed; a
        closed season reopens only while no later season exists."""
        season = self.get_object()
        payload = s.ReasonInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        seasons.reopen_season(season, actor=request.user, reason=payload.validated_data["reason"])
        return Response(s.SeasonSerializer(self.get_queryset().get(pk=season.pk)).data)

    @extend_schema(request={"application/json": s.LeagueBattleInputSerializer,
                            "multipart/form-data": s.LeagueBattleInputSerializer},
                   responses={201: s.BattleSerializer, **ERRORS})
    # Members report their own arranged battles: not the organizer-only permission of the rest of the
    # season (tournaments.trust: may_report_arranged, may_organize).
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated, SchedulesOrReportsSeasonBattles])
    def battles(self, request, pk=None):
        """Organizers schedule a battle (`general_a`, `general_b`) or record an arranged one (with
        `result`). A member reports a battle they arranged: `opponent`, `kind`, `winner`, `condition`,
        `forfeited_by`, `player_1` and the replay (JSON `replay` or a multipart file `replay`); the
        report waits for the opponent or the engine like any report. R111 limits battles per pair."""
        season = self.get_object()
        data, raw_replay = report_payload(request, s.LeagueBattleInputSerializer)
        if "opponent" in data:
            me = trust.general_of(request.user)  # a member: SchedulesOrReportsSeasonBattles
            report = arranged.report_arranged_battle(
                season, user=request.user, me=me, opponent=data["opponent"], kind=data["kind"],
                winner=data.get("winner"), condition=data.get("condition", ""),
                forfeited_by=data.get("forfeited_by"), player_1=data.get("player_1"), replay=raw_replay)
            battle_pk = report.battle_id
        elif "result" in data:  # an organizer: SchedulesOrReportsSeasonBattles
            battle_pk = arranged.record_arranged_battle(season, data["general_a"], data["general_b"],
                                                        actor=request.user, **data["result"]).battle.pk
        else:
            battle_pk = seasons.schedule_battle(season, data["general_a"], data["general_b"],
                                                actor=request.user).pk
        battle = get_object_or_404(Battle.objects.select_related("event", "group", "season", "general_a",
                                                                 "general_b"), pk=battle_pk)
        return Response(s.BattleSerializer(battle).data, status=status.HTTP_201_CREATED)
