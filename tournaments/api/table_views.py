"""The API of multiplayer tables (/api/v1/tables/{id}/, Warlord CCG tables of 3-4): a seated player
reports the elimination order, every other player at the table confirms it or disputes it, an
organizer decides. The steps are tournaments.swiss.tables'; they refuse with a sentence (errors.py)."""
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from tournaments import trust
from tournaments.api import game_serializers as gs
from tournaments.api.idempotency import IdempotentPosts
from tournaments.api.views import ERRORS
from tournaments.models import Table, TableReport
from tournaments.swiss import tables as table_steps


class TableViewSet(IdempotentPosts, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A multiplayer table: its seats and counted result; its reports for its players and organizers."""

    serializer_class = gs.TableSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]

    def get_queryset(self):
        return Table.objects.filter(event__in=trust.visible_events(self.request.user)).select_related(
            "event").prefetch_related("seats__general")

    @extend_schema(responses={200: gs.TableReportSerializer(many=True), **ERRORS})
    @action(detail=True, methods=["get"], permission_classes=[IsAuthenticated], pagination_class=None)
    def reports(self, request, pk=None):
        """The table's reports: for the players seated there and the event's organizers (others: empty)."""
        table = self.get_object()
        seated = trust.general_of(request.user)
        allowed = trust.may_organize(request.user, table.event) or (
            seated is not None and seated.pk in table_steps.seated_ids(table))
        return Response(gs.TableReportSerializer(table.reports.all() if allowed else [], many=True).data)

    @extend_schema(request=gs.TableResultInputSerializer, responses={201: gs.TableReportSerializer,
                                                                     200: gs.TableSerializer, **ERRORS})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def report(self, request, pk=None):
        """A seated player reports the elimination order (201: it waits for every other player's
        confirmation); an organizer who does not play there records it at once (200: the table)."""
        table = self.get_object()
        payload = gs.TableResultInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        outcome = table_steps.report_table(table, user=request.user, eliminations=data["eliminations"],
                                           finished=data["finished"])
        if isinstance(outcome, Table):
            return Response(gs.TableSerializer(self.get_queryset().get(pk=table.pk)).data)
        return Response(gs.TableReportSerializer(outcome).data, status=201)

    @extend_schema(request=gs.TableResultInputSerializer, responses={200: gs.TableSerializer, **ERRORS})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def decide(self, request, pk=None):
        """An organizer records, decides or corrects the table's result (with a reason when it corrects a
        counted result or differs from a player's report)."""
        table = self.get_object()
        payload = gs.TableResultInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        table_steps.decide_table(table, user=request.user, eliminations=data["eliminations"],
                                 finished=data["finished"], reason=data.get("reason", ""))
        return Response(gs.TableSerializer(self.get_queryset().get(pk=table.pk)).data)

    def _report(self, request, report_pk):
        return get_object_or_404(TableReport.objects.filter(table=self.get_object()), pk=report_pk)

    @extend_schema(request=None, responses={200: gs.TableReportSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path=r"reports/(?P<report_pk>[0-9]+)/confirm",
            permission_classes=[IsAuthenticated])
    def confirm(self, request, pk=None, report_pk=None):
        """Another player at the table confirms the report; once every player has, it counts."""
        report = table_steps.confirm_table(self._report(request, report_pk), user=request.user)
        return Response(gs.TableReportSerializer(TableReport.objects.get(pk=report.pk)).data)

    @extend_schema(request=gs.TableDisputeInputSerializer, responses={200: gs.TableReportSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path=r"reports/(?P<report_pk>[0-9]+)/dispute",
            permission_classes=[IsAuthenticated])
    def dispute(self, request, pk=None, report_pk=None):
        """A player at the table disputes the report: it stays disputed until an organizer decides."""
        payload = gs.TableDisputeInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        report = table_steps.dispute_table(self._report(request, report_pk), user=request.user,
                                           reason=payload.validated_data["reason"])
        return Response(gs.TableReportSerializer(report).data)
