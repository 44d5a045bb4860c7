"""The API of game systems, deck and army lists, and Swiss events (/api/v1/games/, and
/api/v1/events/{slug}/lists/, list-pool/, list-rules/, swiss/). Each view declares who may call it;
the services (tournaments.lists, tournaments.swiss) ask the same rules again and refuse with a
sentence (errors.py: 400, 403, 409)."""
import json

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response

import game_systems
from game_systems.base import UnusableInput
from game_systems.cli import check_text, report
from tournaments import trust
from tournaments.api import game_serializers as gs
from tournaments.api import serializers as s
from tournaments.api.idempotency import IdempotentPosts
from tournaments.api.permissions import OrganizesEvent, OrganizesEventToChange, ReadsPublished
from tournaments.api.views import ERROR, ERRORS
from tournaments.domain import Conflict, DomainError, NotAllowed
from tournaments.lists import services as lists
from tournaments.models import Battle, ListVersion, SwissRound
from tournaments.results import confirmation
from tournaments.swiss import rounds as swiss
from tournaments.swiss import standings as swiss_standings

GAME_SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH,
                             description=f"The game: {', '.join(slug for slug, _name in game_systems.choices())}.")


def _system(slug):
    try:
        return game_systems.get(slug)
    except game_systems.UnknownGame as error:
        raise NotFound(str(error)) from None


class GameViewSet(IdempotentPosts, viewsets.ViewSet):
    """The games events are played in: result kinds and facts, scoring, tie-breakers, lists."""

    lookup_field = "slug"
    lookup_value_regex = "[a-z0-9-]+"
    permission_classes = [AllowAny]

    @extend_schema(responses={200: gs.GameSerializer(many=True)})
    def list(self, request):
        """Every game the site runs."""
        return Response(gs.GameSerializer([gs.game_body(system) for system in game_systems.all_systems()],
                                          many=True).data)

    @extend_schema(parameters=[GAME_SLUG], responses={200: gs.GameSerializer, 404: ERROR})
    def retrieve(self, request, slug=None):
        """One game: its formats, result kinds and facts, scoring, tie-breakers and lists."""
        return Response(gs.GameSerializer(gs.game_body(_system(slug))).data)

    @extend_schema(parameters=[GAME_SLUG], request=gs.ListCheckInputSerializer,
                   responses={200: gs.ListCheckSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def check(self, request, slug=None):
        """Checks a deck or army list against the game's construction rules, with an event's pool and
        options if given (anyone, no account needed; nothing is kept). A list that cannot be read at all,
        a rejected pool or bad options are 400 with the sentence."""
        _system(slug)
        payload = gs.ListCheckInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        try:
            violations = check_text(slug, json.dumps(data["list"]), pool_text=data.get("pool"),
                                    options=data.get("options"))
        except UnusableInput as error:
            raise DomainError(str(error), field="list") from None
        return Response(gs.ListCheckSerializer(report(violations)).data)


def _require_lists(event):
    if event.game_system.list_checker is None:
        raise Conflict(_("%(event)s is played in %(game)s, which has no deck or army lists.")
                       % {"event": event.name, "game": event.game_system.short_name})


def _event_general(request, event, general):
    """The general named in a body, or the caller's own."""
    general = general or trust.general_of(request.user)
    if general is None:
        raise DomainError(_("You have no general in this event: name one (organizers)."), field="general")
    return general


def _versions():
    return ListVersion.objects.select_related("registration__general", "registration__event", "submitted_by",
                                              "accepted_by")


def _battles():
    return (Battle.objects.select_related("event", "group", "season", "swiss_round", "general_a", "general_b")
            .prefetch_related(Prefetch("reports", queryset=s.counted_verdicts(), to_attr="counted_verdicts"))
            .order_by("number", "id"))


def _rounds(event, stage):
    return (SwissRound.objects.filter(event=event, stage=stage).select_related("bye")
            .prefetch_related(Prefetch("battles", queryset=_battles())).order_by("number"))


def standings_body(event):
    table = swiss_standings.table(event)
    labels = {key: label for key, label, _explanation in table.tie_breakers}
    scoring = table.scoring
    return {
        "scoring": {"win": scoring.win, "draw": scoring.draw, "loss": scoring.loss, "bye": scoring.bye},
        "tie_breakers": [{"key": key, "label": label, "explanation": explanation}
                         for key, label, explanation in table.tie_breakers],
        "lines": [{"rank": line.rank, "shared": line.shared, "general": line.general,
                   "score": line.score, "wins": line.wins, "draws": line.draws, "losses": line.losses,
                   "byes": line.byes, "dropped": line.dropped,
                   "tie_breaks": [{"key": key, "label": labels.get(key, key), "value": value}
                                  for key, value in line.tie_breaks]}
                  for line in table.lines],
    }


class EventGameViewSet(IdempotentPosts, viewsets.GenericViewSet):
    """An event's deck and army lists, its pool and list rules, and its Swiss rounds and top cut."""

    lookup_field = "slug"
    serializer_class = gs.EventListsSerializer  # each action names its own; this one for the schema's path type
    permission_classes = [IsAuthenticated, ReadsPublished]
    pagination_class = None

    def get_queryset(self):
        return trust.visible_events(self.request.user).prefetch_related("organizers")

    def get_object(self):
        event = super().get_object()
        if confirmation.sweep(event):  # reports whose window passed count before anything is shown
            event.refresh_from_db()
        return event

    # --- lists -------------------------------------------------------------------------------------------

    @extend_schema(responses={200: gs.EventListsSerializer, 409: ERROR}, methods=["GET"])
    @extend_schema(request=gs.ListSubmitInputSerializer, responses={201: gs.ListVersionSerializer, **ERRORS},
                   methods=["POST"])
    @action(detail=True, methods=["get", "post"], permission_classes=[IsAuthenticatedOrReadOnly, ReadsPublished])
    def lists(self, request, slug=None):
        """GET: the event's lists. Organizers see every registered general's current list with its status
        and violations; others see open lists once they are public, and their own.
        POST: the player submits or replaces their general's list (an organizer names any general); it is
        checked at once and kept with its violations, as a new version. After the deadline or once
        registration closes, lists are locked (409) except for the organizers."""
        event = self.get_object()
        _require_lists(event)
        if request.method == "GET":
            return Response(gs.EventListsSerializer(self._lists_document(request, event)).data)
        payload = gs.ListSubmitInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        general = _event_general(request, event, payload.validated_data.get("general"))
        version = lists.submit(event, general, user=request.user, text=json.dumps(payload.validated_data["list"],
                                                                                  ensure_ascii=False))
        return Response(gs.ListVersionSerializer(_versions().get(pk=version.pk)).data, status=status.HTTP_201_CREATED)

    def _lists_document(self, request, event):
        organizer = trust.may_organize(request.user, event)
        rows = [{"general": registration.general, "list": version}
                for registration, version in lists.event_lists(event)
                if organizer or lists.may_see_list(request.user, event, registration)]
        versions = {row["list"].pk for row in rows if row["list"] is not None}
        full = _versions().in_bulk(versions)  # the serializer reads each version's event and general
        for row in rows:
            if row["list"] is not None:
                row["list"] = full[row["list"].pk]
        return {"game": event.game, "pool_label": lists.checker_of(event).pool_label,
                "list_visibility": event.list_visibility, "public": lists.lists_public(event),
                "locked": lists.lock_reason(event), "lists": rows}

    @extend_schema(request=gs.ListGeneralInputSerializer, responses={200: gs.ListVersionSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="lists/withdraw")
    def withdraw_list(self, request, slug=None):
        """The player withdraws their list (an organizer names any general): a new version without a list.
        They may submit another while lists are open."""
        event = self.get_object()
        payload = gs.ListGeneralInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        general = _event_general(request, event, payload.validated_data.get("general"))
        version = lists.withdraw(event, general, user=request.user)
        return Response(gs.ListVersionSerializer(_versions().get(pk=version.pk)).data)

    @extend_schema(request=gs.ListAcceptInputSerializer, responses={200: gs.ListVersionSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="lists/accept", permission_classes=[IsAuthenticated,
                                                                                       OrganizesEvent])
    def accept_list(self, request, slug=None):
        """An organizer accepts a general's current list despite its violations, with a reason the players
        may read (e.g. a card whose own text lifts the copy limit). 409 when `version` is no longer current."""
        event = self.get_object()
        payload = gs.ListAcceptInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        version = lists.accept(event, data["general"], user=request.user, version=data["version"],
                               reason=data["reason"])
        return Response(gs.ListVersionSerializer(_versions().get(pk=version.pk)).data)

    @extend_schema(parameters=[OpenApiParameter("general_id", int, OpenApiParameter.PATH)],
                   responses={200: gs.ListVersionSerializer(many=True), 403: ERROR, 404: ERROR, 409: ERROR})
    @action(detail=True, methods=["get"], url_path=r"lists/(?P<general_id>[0-9]+)/versions",
            permission_classes=[IsAuthenticatedOrReadOnly, ReadsPublished])
    def list_versions(self, request, slug=None, general_id=None):
        """Every version of a general's list, newest first, with its time (to whoever may see that list:
        organizers, its player, everyone once open lists are public)."""
        event = self.get_object()
        _require_lists(event)
        registration = get_object_or_404(event.registrations.select_related("general"), general_id=general_id,
                                         status__in=lists.LIST_HOLDERS)
        if not lists.may_see_list(request.user, event, registration):
            if event.list_visibility == "open":
                sentence = _("%(general)s's list is for the organizers and its player until the lists are public.")
            else:
                sentence = _("%(general)s's list is for the organizers and its player.")
            raise NotAllowed(sentence % {"general": registration.general.name})
        return Response(gs.ListVersionSerializer(
            _versions().filter(registration=registration).order_by("-version"), many=True).data)

    @extend_schema(responses={200: gs.ListPoolSerializer, 409: ERROR}, methods=["GET"])
    @extend_schema(request=gs.ListPoolInputSerializer, responses={200: gs.ListPoolSerializer, **ERRORS},
                   methods=["PUT", "POST"])
    @action(detail=True, methods=["get", "put", "post"], url_path="list-pool",
            permission_classes=[IsAuthenticatedOrReadOnly, OrganizesEventToChange])
    def list_pool(self, request, slug=None):
        """GET: the event's card pool or model list, the CSV players build their lists from.
        PUT or POST (organizers): replaces it, as JSON `{"csv": "..."}` or a multipart file named `csv`.
        Any row error refuses the whole file: 400 with `rows` [{row, column, message}] (row 1 is the header
        line), and nothing is kept. Current lists are checked again against the new pool."""
        event = self.get_object()
        _require_lists(event)
        checker = lists.checker_of(event)
        if request.method != "GET":
            lists.set_pool(event, user=request.user, csv_text=self._pool_text(request))
            event.refresh_from_db()
        pool = lists.parsed_pool(event)
        return Response(gs.ListPoolSerializer({"label": checker.pool_label, "header": checker.pool_header,
                                               "entries": len(pool) if pool is not None else 0,
                                               "csv": event.list_pool}).data)

    @staticmethod
    def _pool_text(request):
        upload = request.FILES.get("csv")
        if upload is not None:
            if upload.size > lists.MAX_INPUT_BYTES:
                raise DomainError(_("The file is larger than %(megabytes)s MB.")
                                  % {"megabytes": lists.MAX_INPUT_BYTES // 1_000_000}, field="csv")
            try:
                return upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise DomainError(_("The file is not UTF-8 text."), field="csv") from None
        if not hasattr(request.data, "keys"):
            raise ValidationError({"csv": [_('Send {"csv": "<the CSV text>"} or a multipart file named csv.')]})
        payload = gs.ListPoolInputSerializer(data={"csv": request.data.get("csv")})
        payload.is_valid(raise_exception=True)
        return payload.validated_data["csv"]

    @extend_schema(request=gs.ListRulesInputSerializer, responses={200: gs.ListRulesSerializer, **ERRORS})
    @action(detail=True, methods=["patch"], url_path="list-rules", permission_classes=[IsAuthenticated,
                                                                                      OrganizesEvent])
    def list_rules(self, request, slug=None):
        """Organizers set when lists lock (`list_deadline`), who sees them (`list_visibility`, open lists
        public from `lists_public_from`) and the game's list options (fixed once the event starts). Fields
        left out keep their value; null clears a time."""
        event = self.get_object()
        payload = gs.ListRulesInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        event = lists.set_rules(event, user=request.user,
                                deadline=data.get("list_deadline", event.list_deadline),
                                visibility=data.get("list_visibility"),
                                public_from=data.get("lists_public_from", event.lists_public_from),
                                options=data.get("list_options"))
        return Response(gs.ListRulesSerializer(event).data)

    # --- Swiss ---------------------------------------------------------------------------------------------

    @extend_schema(responses={200: gs.SwissSerializer, 409: ERROR})
    @action(detail=True, methods=["get"], permission_classes=[IsAuthenticatedOrReadOnly, ReadsPublished])
    def swiss(self, request, slug=None):
        """A Swiss event's rounds (battles and bye), the standings with every tie-breaker's figure and
        label, and its top cut. 409 for an event played in Organized Play groups."""
        event = self.get_object()
        swiss.require_swiss(event)
        return Response(gs.SwissSerializer({
            "planned_rounds": swiss.planned_rounds(event),
            "next_round_refusal": swiss.pairing_refusal(event),
            "rounds": _rounds(event, SwissRound.Stage.SWISS),
            "standings": standings_body(event),
            "top_cut": {"size": event.top_cut, "rounds": _rounds(event, SwissRound.Stage.TOP_CUT)},
            "victor": event.victor,
        }).data)

    @extend_schema(request=None, responses={201: gs.SwissRoundSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="swiss/pair", permission_classes=[IsAuthenticated,
                                                                                     OrganizesEvent])
    def pair_round(self, request, slug=None):
        """Organizers pair the next Swiss round from the standings now (closing registration first): no
        rematch while one is avoidable, at most one bye each, to the lowest-ranked player who has had
        none. 409 while a battle of the round before has no counted result, or once every round is paired."""
        swiss_round = swiss.pair_next_round(self.get_object(), actor=request.user)
        answer = _rounds(swiss_round.event, SwissRound.Stage.SWISS).get(pk=swiss_round.pk)
        return Response(gs.SwissRoundSerializer(answer).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=gs.SwissDropInputSerializer, responses={200: gs.SwissDropSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="swiss/drop")
    def drop(self, request, slug=None):
        """A player leaves the event between rounds (themselves, or an organizer naming the general): they
        are not paired again and keep their place and games in the standings."""
        event = self.get_object()
        payload = gs.SwissDropInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        general = _event_general(request, event, payload.validated_data.get("general"))
        registration = swiss.drop(event, general, actor=request.user)
        return Response(gs.SwissDropSerializer({"general": general,
                                                "dropped_after_round": registration.dropped_after_round}).data)

    @extend_schema(request=gs.SwissRoundsInputSerializer, responses={200: gs.SwissRoundsInputSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="swiss/rounds", permission_classes=[IsAuthenticated,
                                                                                       OrganizesEvent])
    def set_rounds(self, request, slug=None):
        """Organizers change how many Swiss rounds are played (suggested: ceil(log2 of the field)): never
        fewer than are paired already; fixed once the top cut has begun."""
        payload = gs.SwissRoundsInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        event = swiss.set_rounds(self.get_object(), payload.validated_data["rounds"], actor=request.user)
        return Response(gs.SwissRoundsInputSerializer({"rounds": event.swiss_rounds}).data)

    @extend_schema(request=None, responses={201: gs.SwissRoundSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="swiss/top-cut", permission_classes=[IsAuthenticated,
                                                                                        OrganizesEvent])
    def top_cut(self, request, slug=None):
        """Organizers start the top cut once every Swiss round is counted: the top `top_cut` players still
        in the field play single elimination, 1 v N. Each round is paired by itself when the one before is
        decided; the final's winner is the event's victor."""
        event = self.get_object()
        swiss.start_top_cut(event, actor=request.user)
        first = _rounds(event, SwissRound.Stage.TOP_CUT).get(number=1)
        return Response(gs.SwissRoundSerializer(first).data, status=status.HTTP_201_CREATED)
