"""The REST API (/api/v1/). Views check who may act and hand the step to the services."""
import json

from django.db.models import Q
from django.shortcuts import get_object_or_404
from django_filters import rest_framework as filters
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import SAFE_METHODS, AllowAny, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle

from tournaments import queries, reporting, services
from tournaments.api import serializers as s
from tournaments.api.permissions import IsEventOrganizerOrReadOnly
from tournaments.api.scoreboard import conditional_answer
from tournaments.models import Battle, Event, General, Report, Season

ERROR = OpenApiResponse(inline_serializer("Error", {
    "detail": serializers.CharField(), "code": serializers.CharField(),
    "fields": serializers.DictField(child=serializers.ListField(child=serializers.CharField()), required=False),
}), description="What is wrong and where.")
ERRORS = {400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR}


class ScoreboardThrottle(AnonRateThrottle):
    """The scoreboard's one throttle: venue screens behind one address poll it often (a screen every
    2 s is 30 a minute), so it has its own rate (API_THROTTLE_SCOREBOARD)."""

    scope = "scoreboard"


def visible_events(user):
    events = Event.objects.all()
    if user.is_superuser:
        return events
    if user.is_authenticated:
        return events.filter(Q(published=True) | Q(organizers=user)).distinct()
    return events.filter(published=True)


class EventFilter(filters.FilterSet):
    class Meta:
        model = Event
        fields = ["kind", "state"]


class EventViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                   mixins.UpdateModelMixin, viewsets.GenericViewSet):
    """Tournaments and leagues. Anyone signed in may create one and becomes its organizer."""

    serializer_class = s.EventSerializer
    lookup_field = "slug"
    permission_classes = [IsAuthenticatedOrReadOnly, IsEventOrganizerOrReadOnly]
    filterset_class = EventFilter

    def get_queryset(self):
        return visible_events(self.request.user).select_related("victor").prefetch_related("organizers") \
            .order_by("-created_at", "id")

    def perform_create(self, serializer):
        serializer.instance = services.create_event(actor=self.request.user, organizers=[self.request.user],
                                                    **serializer.validated_data)

    def perform_update(self, serializer):
        event = serializer.instance
        data = dict(serializer.validated_data)
        rules = {key: data.pop(key) for key in s.RULE_FIELDS if key in data}
        if rules:
            event = services.change_rules(event, actor=self.request.user, **rules)
        for field, value in data.items():
            setattr(event, field, value)
        event.save()
        serializer.instance = event

    def _organizer_event(self):
        """The event, for its organizers only. Writes were checked by IsEventOrganizerOrReadOnly in
        get_object; the organizers' own reads (queue, audit) are checked here."""
        event = self.get_object()
        if self.request.method in SAFE_METHODS and not event.is_organizer(self.request.user):
            raise PermissionDenied(IsEventOrganizerOrReadOnly.message)
        return event

    @extend_schema(responses={200: s.RegistrationSerializer(many=True)}, methods=["GET"])
    @extend_schema(request=s.RegisterInputSerializer, responses={201: s.RegistrationSerializer, **ERRORS},
                   methods=["POST"])
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def registrations(self, request, slug=None):
        """Registrations in order; organizers register generals (an existing id, or a new name)."""
        if request.method == "GET":
            event = self.get_object()
            registrations = event.registrations.select_related("general")
            return Response(s.RegistrationSerializer(registrations, many=True).data)
        event = self._organizer_event()
        payload = s.RegisterInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        general = payload.validated_data.get("general") or General.objects.create(
            name=payload.validated_data["name"].strip())
        registration = services.register(event, general, actor=request.user,
                                         seed=payload.validated_data.get("seed"))
        return Response(s.RegistrationSerializer(registration).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: inline_serializer("ClosedRegistration", {
        "eliminated": s.RegistrationSerializer(allow_null=True),
        "partitions": serializers.ListField(child=serializers.ListField(child=serializers.IntegerField())),
    }), **ERRORS})
    @action(detail=True, methods=["post"], url_path="close-registration")
    def close_registration(self, request, slug=None):
        """Applies the odd-number rule and says which qualifying partitions are possible (R25)."""
        event = self._organizer_event()
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
    @action(detail=True, methods=["post"], url_path="form-groups")
    def form_groups(self, request, slug=None):
        """Previews or forms the qualifying groups (R25) and starts the Qualifying Stage."""
        event = self._organizer_event()
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
        """Disqualifications; organizers disqualify (R23 applies at once to every standing)."""
        if request.method == "GET":
            event = self.get_object()
            return Response(s.DisqualificationSerializer(
                event.disqualifications.select_related("general", "decided_by"), many=True).data)
        event = self._organizer_event()
        payload = s.DisqualifyInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        services.disqualify(event, actor=request.user, **payload.validated_data)
        dq = event.disqualifications.get(general=payload.validated_data["general"])
        return Response(s.DisqualificationSerializer(dq).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: s.ReportSerializer(many=True), 403: ERROR})
    @action(detail=True, methods=["get"], pagination_class=None)
    def queue(self, request, slug=None):
        """The organizer's queue: disputed and failed reports first, then those still pending."""
        return Response(s.ReportSerializer(reporting.open_reports(self._organizer_event()), many=True).data)

    @extend_schema(responses={200: s.AuditEntrySerializer(many=True), 403: ERROR})
    @action(detail=True, methods=["get"])
    def audit(self, request, slug=None):
        """The audit trail, newest first (organizers only)."""
        event = self._organizer_event()
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
        event = self._organizer_event()
        payload = s.SeasonSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        season = services.open_season(event, payload.validated_data["name"], actor=request.user)
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


def report_payload(request):
    """The report fields, with the replay from a JSON body or a multipart file upload."""
    data = request.data.copy() if hasattr(request.data, "copy") else dict(request.data)
    upload = request.FILES.get("replay")
    if upload is not None:
        if upload.size > reporting.MAX_REPLAY_BYTES:
            raise reporting.DomainError(f"The replay is {upload.size:,} bytes; the limit is "
                                        f"{reporting.MAX_REPLAY_BYTES:,} (1 MiB).", field="replay")
        raw = upload.read()
        data = {key: data.get(key) for key in data if key != "replay"}
    else:
        raw = data.pop("replay", None)
        if isinstance(raw, list):  # a QueryDict gives lists
            raw = raw[0] if raw else None
    payload = s.ReportInputSerializer(data=data)
    payload.is_valid(raise_exception=True)
    return payload.validated_data, raw


class BattleReportsMixin:
    @extend_schema(responses={200: s.ReportSerializer(many=True)}, methods=["GET"])
    @extend_schema(request={"application/json": s.ReportInputSerializer,
                            "multipart/form-data": s.ReportInputSerializer},
                   responses={201: s.ReportSerializer, **ERRORS}, methods=["POST"])
    # Players report their own battles: who may is decided by reporting.submit_report, not by the
    # organizer-only permission of the rest of the battle resource.
    @action(detail=True, methods=["get", "post"], pagination_class=None,
            permission_classes=[IsAuthenticatedOrReadOnly])
    def reports(self, request, pk=None):
        """Reports of this battle, newest first; a general of the battle or an organizer reports its
        result, optionally with the replay log (adjudicated by the rules engine)."""
        battle = self.get_object()
        if request.method == "GET":
            reports = battle.reports.select_related(*REPORT_RELATED)
            return Response(s.ReportSerializer(reports, many=True).data)
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


class BattleViewSet(BattleReportsMixin, viewsets.ReadOnlyModelViewSet):
    """The schedule and the results; filter by event, group, round, general, decided."""

    serializer_class = s.BattleSerializer
    filterset_class = BattleFilter
    permission_classes = [IsAuthenticatedOrReadOnly, IsEventOrganizerOrReadOnly]

    def get_queryset(self):
        return (Battle.objects.filter(event__in=visible_events(self.request.user))
                .select_related("event", "group", "season", "general_a", "general_b")
                .order_by("event_id", "group_id", "season_id", "playoff", "round", "number", "id"))

    @extend_schema(request=s.ResultInputSerializer, responses={200: s.BattleSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def result(self, request, pk=None):
        """Records, corrects or overrides the result (organizers; a correction needs a reason)."""
        battle = self.get_object()  # organizers only: IsEventOrganizerOrReadOnly
        payload = s.ResultInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        recorded = services.record_result(battle, actor=request.user, **payload.validated_data)
        body = s.BattleSerializer(self.get_queryset().get(pk=recorded.battle.pk)).data
        if recorded.offer_disqualification:
            body["offer_disqualification"] = {"id": recorded.offer_disqualification.pk,
                                              "name": recorded.offer_disqualification.name,
                                              "reason": "forfeits"}
        return Response(body)


class ReportViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A report's status (queued, adjudicating, confirmed, disputed and why), confirmation, dispute
    and the organizer's override."""

    serializer_class = s.ReportSerializer

    def get_queryset(self):
        return Report.objects.filter(battle__event__in=visible_events(self.request.user)) \
            .select_related(*REPORT_RELATED)

    def _respond(self, report):
        return Response(s.ReportSerializer(self.get_queryset().get(pk=report.pk)).data)

    @extend_schema(request=None, responses={200: s.ReportSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def confirm(self, request, pk=None):
        """The opponent (or an organizer) confirms the report; its result counts from now on."""
        return self._respond(reporting.confirm_report(self.get_object(), user=request.user))

    @extend_schema(request=s.DisputeInputSerializer, responses={200: s.ReportSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def dispute(self, request, pk=None):
        """The opponent disputes the report; an organizer decides."""
        payload = s.DisputeInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        return self._respond(reporting.dispute_report(self.get_object(), user=request.user,
                                                      reason=payload.validated_data["reason"]))

    @extend_schema(request=s.OverrideInputSerializer, responses={200: s.ReportSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def override(self, request, pk=None):
        """An organizer decides the report: its result, or the one given, with a reason."""
        payload = s.OverrideInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = dict(payload.validated_data)
        reason = data.pop("reason")
        return self._respond(reporting.override_report(self.get_object(), user=request.user, reason=reason,
                                                       **data))


class GeneralViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                     viewsets.GenericViewSet):
    """Generals (players). Organizers and staff add generals who have no account yet."""

    serializer_class = s.GeneralSerializer
    queryset = General.objects.order_by("name", "id")
    filterset_fields = ["external_id"]

    def perform_create(self, serializer):
        user = self.request.user
        if not (user.is_staff or user.organized_events.exists()):
            raise PermissionDenied("Only organizers add generals.")
        serializer.save()


class SeasonViewSet(viewsets.GenericViewSet):
    serializer_class = s.SeasonSerializer
    permission_classes = [IsAuthenticatedOrReadOnly, IsEventOrganizerOrReadOnly]

    def get_queryset(self):
        return Season.objects.filter(event__in=visible_events(self.request.user)).select_related("event")

    @extend_schema(request=None, responses={200: s.SeasonSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        """Closes the season: its champion, or playoff battles when the top is tied (R24)."""
        season = self.get_object()
        services.close_season(season, actor=request.user)
        season.refresh_from_db()
        return Response(s.SeasonSerializer(season).data)

    @extend_schema(request=s.LeagueBattleInputSerializer, responses={201: s.BattleSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def battles(self, request, pk=None):
        """Schedules a league battle, or reports one the members arranged (with `result`)."""
        season = self.get_object()
        payload = s.LeagueBattleInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        if "result" in data:
            recorded = services.report_league_battle(season, data["general_a"], data["general_b"],
                                                     actor=request.user, **data["result"])
            battle = recorded.battle
        else:
            battle = services.schedule_league_battle(season, data["general_a"], data["general_b"],
                                                     actor=request.user)
        battle = get_object_or_404(Battle.objects.select_related("event", "group", "season", "general_a",
                                                                 "general_b"), pk=battle.pk)
        return Response(s.BattleSerializer(battle).data, status=status.HTTP_201_CREATED)
