"""What the API reads and writes. Writes are validated here for shape only; the rules are
checked by the services, whose refusals become 400/409 bodies (see errors.py)."""
import json

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import game_systems
from tournaments import models, trust
from tournaments.domain import TIEBREAKERS, DomainError, opp_awards
from tournaments.events import embedding
from tournaments.events.services import GROUP_METHODS
from tournaments.leagues.seasons import waiting_for
from tournaments.ratings import queries as ratings
from tournaments.results.recording import forfeit_offer
from tournaments.standings.tables import battle_result
from tournaments.swiss import standings as swiss_standings


class GeneralBriefSerializer(serializers.ModelSerializer):
    class Meta:
        model = models.General
        fields = ["id", "name"]


class GeneralSerializer(serializers.ModelSerializer):
    claimed = serializers.BooleanField(source="is_claimed", read_only=True,
                                       help_text="Whether a player owns this general.")
    claim_code = serializers.SerializerMethodField(
        help_text="The one-use code the player claims this general with; shown to the organizers who "
                  "hand it out, while the general is unclaimed.")

    rating = serializers.SerializerMethodField(
        help_text="Glicko-2 rating over the rated events' battles (R98); null before the first rated battle.")
    deviation = serializers.SerializerMethodField(
        help_text="Rating deviation, grown for the weeks without a rated battle: the strength is within two "
                  "deviations of the rating about 95% of the time.")
    provisional = serializers.SerializerMethodField(
        help_text=f"Whether the rating is provisional: deviation above {ratings.PROVISIONAL_DEVIATION:g}.")

    class Meta:
        model = models.General
        fields = ["id", "name", "external_id", "claimed", "claim_code", "rating", "deviation", "provisional"]
        read_only_fields = ["external_id"]

    def get_claim_code(self, general) -> str | None:
        request = self.context.get("request")
        user = getattr(request, "user", None)
        return general.claim_code or None if user is not None and trust.may_see_claim_code(user, general) else None

    def current_rating(self, general):
        """Read once per general: from the list's annotations (`ratings.with_ratings`), else one query."""
        known = self.__dict__.setdefault("known_ratings", {})
        if general.pk not in known:
            annotated = hasattr(general, "rating_period")
            known[general.pk] = ratings.current_of(general) if annotated else ratings.rating_of(general)
        return known[general.pk]

    def get_rating(self, general) -> float | None:
        current = self.current_rating(general)
        return round(current.rating, 2) if current else None

    def get_deviation(self, general) -> float | None:
        current = self.current_rating(general)
        return round(current.deviation_now, 2) if current else None

    def get_provisional(self, general) -> bool | None:
        current = self.current_rating(general)
        return current.provisional if current else None


class GeneralMatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    claimed = serializers.BooleanField()


class GeneralInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    external_id = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")
    create_new = serializers.BooleanField(
        default=False, help_text="Create it even though a general of the same name exists (names are compared "
                                 "ignoring case and spaces).")


class ClaimInputSerializer(serializers.Serializer):
    code = serializers.CharField(max_length=60, help_text="The one-use code the organizer handed out.")



def _board_side(value, side):
    if not 1 <= value <= 26:
        # a whole sentence for each side: the German noun's article differs ("die Breite", "die Höhe")
        sentence = (_("The board's width is 1 to 26 zones (7 by default).") if side == "width"
                    else _("The board's height is 1 to 26 zones (7 by default)."))
        raise serializers.ValidationError(sentence)
    return value


class ScoringSerializer(serializers.Serializer):
    """Swiss points per outcome. Sent: the event's own (an outcome left out keeps the game's default).
    Read: the points that apply."""

    win = serializers.FloatField(required=False, min_value=-100, max_value=100)
    draw = serializers.FloatField(required=False, min_value=-100, max_value=100)
    loss = serializers.FloatField(required=False, min_value=-100, max_value=100)
    bye = serializers.FloatField(required=False, min_value=-100, max_value=100)


TIE_BREAKER_KEYS = list(dict.fromkeys(t.key for system in game_systems.all_systems() for t in system.tie_breakers))
# Set when the event is created; the services change none of them afterwards.
GAME_SETTINGS = ("game", "format", "swiss_rounds", "top_cut", "table_size", "placement_points", "scoring",
                 "tie_breakers")


class EventSerializer(serializers.ModelSerializer):
    scoring = ScoringSerializer(required=False, help_text=(
        "Swiss points per outcome (win, draw, loss, bye); left out: the game's default. Read: the points that "
        "apply. Fixed once created."))
    tie_breakers = serializers.ListField(
        child=serializers.ChoiceField(choices=TIE_BREAKER_KEYS), required=False, max_length=len(TIE_BREAKER_KEYS),
        help_text="Swiss tie-breakers in order, from those the game allows (`GET games/{slug}/`); left out: the "
                  "game's default. Read: those that apply. Fixed once created.")
    placement_points = serializers.ListField(
        child=serializers.FloatField(min_value=-100, max_value=100), required=False, max_length=8,
        help_text="Multiplayer tables: points by finishing place, first place first; left out: 4, 2, 1, 0. Fixed "
                  "once created.")
    variants = serializers.ListField(child=serializers.ChoiceField(choices=models.VARIANT_KEYS), required=False,
                                     max_length=len(models.VARIANT_KEYS))
    status = serializers.CharField(source="status_label", read_only=True)
    victor = GeneralBriefSerializer(read_only=True, allow_null=True)
    organizers = serializers.SlugRelatedField(slug_field="username", many=True, read_only=True)
    owner = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True,
                                         help_text="The organizer who owns the event; co-organizers cannot remove "
                                                   "them (`POST events/{slug}/owner/` hands it over).")

    links = serializers.SerializerMethodField(
        help_text="Where others follow the event: its page, its calendar feed (iCal, RFC 5545), the standings "
                  "widget other sites may frame (once `embed_origins` lets them) and the scoreboard.")

    class Meta:
        model = models.Event
        fields = ["slug", "name", "kind", "game", "format", "swiss_rounds", "top_cut", "table_size",
                  "placement_points", "scoring", "tie_breakers",
                  "list_deadline", "list_visibility", "lists_public_from", "list_options",
                  "state", "status", "variants", "battalion_count", "board_width",
                  "board_height", "forfeit_award_opp",
                  "forfeit_counts_as_victory", "forfeits_to_disqualify", "confirmation_minutes",
                  "pair_battles_per_season", "group_method", "group_seed", "victor", "organizers", "owner", "published",
                  "approve_registrations", "rated", "starts_on", "ends_on", "venue", "description", "time_zone",
                  "embed_origins", "links", "created_at", "updated_at"]
        # The list rules change through `PATCH events/{slug}/list-rules/`.
        read_only_fields = ["state", "status", "group_method", "group_seed", "victor", "organizers", "owner",
                            "created_at", "updated_at", "list_deadline", "list_visibility", "lists_public_from",
                            "list_options"]
        extra_kwargs = {"slug": {"required": True},
                        "game": {"help_text": "The game (`GET games/`); WARLINE when left out. Fixed once created."},
                        "format": {"help_text": "groups or swiss; left out: the game's default. Fixed once "
                                                "created."},
                        "swiss_rounds": {"help_text": "Swiss rounds to play; empty: ceil(log2 of the field) when the "
                                                      "first round is paired. Fixed once created."},
                        "top_cut": {"help_text": "Players in the single-elimination top cut after the Swiss rounds: "
                                                 "0 (none), 4, 8 or 16. Fixed once created."},
                        "table_size": {"help_text": "Players per table: 2, or 3-4 where the game allows "
                                                    "multiplayer tables (Warlord CCG). Fixed once created."}}

    @extend_schema_field({"type": "object", "properties": {
        name: {"type": "string", "format": "uri"} for name in ("page", "calendar", "embed", "scoreboard")}})
    def get_links(self, event):
        request = self.context.get("request")
        paths = {"page": reverse("event-detail", args=[event.slug]),
                 "calendar": reverse("event-calendar", args=[event.slug]),
                 "embed": reverse("event-embed", args=[event.slug]),
                 "scoreboard": reverse("event-scoreboard-poll", args=[event.slug])}
        return {name: request.build_absolute_uri(path) if request else path for name, path in paths.items()}

    def validate_confirmation_minutes(self, value):
        if not 1 <= value <= 60 * 24 * 30:
            raise serializers.ValidationError(_("The confirmation window is between 1 minute and 30 days."))
        return value

    def validate_board_width(self, value):
        return _board_side(value, "width")

    def validate_board_height(self, value):
        return _board_side(value, "height")

    def validate_forfeit_award_opp(self, value):
        if not 0 <= value <= 5:
            raise serializers.ValidationError(_("The forfeit award is between 0 and 5 OPP."))
        return value

    def validate_description(self, value):
        if len(value) > 1000:
            raise serializers.ValidationError(_("A description is at most 1,000 characters."))
        return value

    def validate_embed_origins(self, value):
        try:  # the same check and tidying as the details page's (docs/embeds.md)
            return embedding.clean_origins(value)
        except DomainError as error:
            raise serializers.ValidationError(str(error)) from None

    def validate(self, data):
        data = super().validate(data)
        starts_on = data.get("starts_on", getattr(self.instance, "starts_on", None))
        ends_on = data.get("ends_on", getattr(self.instance, "ends_on", None))
        if ends_on is not None and (starts_on is None or ends_on < starts_on):
            raise serializers.ValidationError(
                {"ends_on": [_("The last day cannot be before the first.") if starts_on else _("Give starts_on too.")]})
        return data

    def get_fields(self):
        fields = super().get_fields()
        if self.instance is not None:  # the address of an event never changes, nor its game and format
            for name in ("slug", "kind", *GAME_SETTINGS):
                fields[name].read_only = True
        return fields

    def to_representation(self, event):
        body = super().to_representation(event)
        system = event.game_system
        body["scoring"] = {**system.default_scoring, **(event.scoring or {})}
        body["tie_breakers"] = list(event.tie_breakers or system.default_tie_breakers)
        body["placement_points"] = list(swiss_standings.placement_points_of(event))
        return body


# WARLINE's kinds, and "draw" of the games without an engine: each event's game allows its own
# (`GET games/{slug}/`, result_kinds); the services refuse the others with a sentence.
REPORTED_KINDS = ["victory", "stalemate", "resolve", "forfeit", "draw"]


@extend_schema_field({"type": "object", "additionalProperties": {}})
class FactsField(serializers.Field):
    """A result's raw facts (`GET games/{slug}/`, result_facts): a JSON object, or its JSON text in a
    multipart form; the game checks the keys and values."""

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("help_text", "The game's raw facts of the result, e.g. {\"status\": \"finished\", "
                                       "\"turns\": 7} (`GET games/{slug}/` lists them; WARLINE has none).")
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, str):
            try:
                data = json.loads(data) if data.strip() else {}
            except ValueError:
                raise serializers.ValidationError(_("The facts must be a JSON object.")) from None
        if not isinstance(data, dict):
            raise serializers.ValidationError(_("The facts must be a JSON object."))
        return data

    def to_representation(self, value):
        return value
RULE_FIELDS = ("variants", "battalion_count", "forfeit_award_opp", "forfeit_counts_as_victory",
               "forfeits_to_disqualify", "pair_battles_per_season", "board_width", "board_height", "rated")


class RegistrationSerializer(serializers.ModelSerializer):
    general = GeneralBriefSerializer(read_only=True)

    class Meta:
        model = models.Registration
        fields = ["number", "general", "seed", "status", "status_reason", "registered_at"]


class RegisterInputSerializer(serializers.Serializer):
    general = serializers.PrimaryKeyRelatedField(queryset=models.General.objects.all(), required=False,
                                                 help_text="An existing general's id.")
    name = serializers.CharField(required=False, max_length=120,
                                 help_text="A new general's name (when `general` is not given).")
    create_new = serializers.BooleanField(
        default=False, help_text="Create a new general even though one of the same name exists.")
    seed = serializers.IntegerField(required=False, min_value=1, allow_null=True)

    def validate(self, attrs):
        if bool(attrs.get("general")) == bool(attrs.get("name", "").strip()):
            raise serializers.ValidationError({"general": [_("Give either an existing general's id or a new name.")]})
        return attrs


class JoinInputSerializer(serializers.Serializer):
    name = serializers.CharField(required=False, max_length=120,
                                 help_text="Your general's name, when you have no general yet.")
    create_new = serializers.BooleanField(default=False,
                                          help_text="Create it even though a general of the same name exists.")


class WithdrawInputSerializer(serializers.Serializer):
    general = serializers.PrimaryKeyRelatedField(queryset=models.General.objects.all(), required=False,
                                                 help_text="Organizers only; a player withdraws their own general.")
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)


class RegistrationDecisionSerializer(serializers.Serializer):
    general = serializers.PrimaryKeyRelatedField(queryset=models.General.objects.all(),
                                                 help_text="The general whose registration waits for approval.")
    approve = serializers.BooleanField(help_text="true: registered now; false: refused with `reason`.")
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500,
                                   help_text="Required to refuse: the sentence the player reads.")


class InvitationSerializer(serializers.ModelSerializer):
    event = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    general = GeneralBriefSerializer(read_only=True)
    invited_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)

    class Meta:
        model = models.Invitation
        fields = ["id", "event", "general", "invited_by", "status", "created_at", "answered_at"]


class InviteInputSerializer(serializers.Serializer):
    general = serializers.PrimaryKeyRelatedField(queryset=models.General.objects.all())


class OrganizerSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)


class OrganizerInvitationSerializer(serializers.ModelSerializer):
    event = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    user = serializers.SlugRelatedField(slug_field="username", read_only=True)
    invited_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)

    class Meta:
        model = models.OrganizerInvitation
        fields = ["id", "event", "user", "invited_by", "status", "created_at", "answered_at"]


class GroupSerializer(serializers.ModelSerializer):
    members = serializers.SerializerMethodField()
    winner = GeneralBriefSerializer(read_only=True, allow_null=True)

    class Meta:
        model = models.Group
        fields = ["id", "name", "stage", "index", "winner", "members"]

    def get_members(self, group) -> list[dict]:
        return [{"id": m.general_id, "name": m.general.name, "position": m.position}
                for m in group.members.select_related("general")]


class FormGroupsInputSerializer(serializers.Serializer):
    group_count = serializers.IntegerField(min_value=1, max_value=1024)
    method = serializers.ChoiceField(choices=GROUP_METHODS, default="random")
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=2**62)
    manual = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()), required=False,
                                   help_text="General ids per group, for method=manual.")
    preview = serializers.BooleanField(default=False, help_text="Show the groups without saving them.")


class VerdictSummarySerializer(serializers.Serializer):
    """What everyone sees of the engine's verdict on the report that counted (never the report, its
    replay or a dispute or override reason: those are for the two generals and the organizers)."""

    engine_version = serializers.CharField()
    valid = serializers.BooleanField(help_text="Whether the replay is a legal battle.")
    outcome = serializers.CharField(allow_null=True, help_text="victory, stalemate, resolve or unfinished.")
    winner = serializers.IntegerField(allow_null=True, help_text="The winning general's id (a victory).")
    condition = serializers.CharField(allow_null=True)
    turns = serializers.IntegerField(allow_null=True)
    accepted = serializers.BooleanField(allow_null=True, help_text=(
        "Whether the log's claim or declaration held; null when it made none."))
    sentence = serializers.CharField(help_text="The engine's sentence when the replay is not legal (empty otherwise).")


COUNTED_STATUSES = (models.Report.Status.CONFIRMED, models.Report.Status.OVERRIDDEN)


def counted_verdicts():
    """The adjudicated reports that counted, newest first, without their replays (for `Prefetch`)."""
    return (models.Report.objects.filter(status__in=COUNTED_STATUSES, adjudication__state=models.Adjudication.State.DONE)
            .select_related("adjudication").defer("replay").order_by("-created_at", "-id"))


def verdict_summary(battle, adjudication):
    verdict = adjudication.verdict or {}
    valid = bool(verdict.get("valid"))
    winner = None
    if valid and verdict.get("winner") in ("p1", "p2") and battle.player_1_id:
        other = battle.general_b_id if battle.player_1_id == battle.general_a_id else battle.general_a_id
        winner = battle.player_1_id if verdict["winner"] == "p1" else other
    accepted = None
    for part in (verdict.get("claim"), verdict.get("declaration")):
        if isinstance(part, dict) and "accepted" in part:
            accepted = bool(part["accepted"])
    error = verdict.get("error") if isinstance(verdict.get("error"), dict) else {}
    return {"engine_version": adjudication.engine_version, "valid": valid,
            "outcome": verdict.get("outcome") if valid else None, "winner": winner,
            "condition": verdict.get("condition") if valid else None,
            "turns": verdict.get("turns") if valid else error.get("turn"), "accepted": accepted,
            "sentence": "" if valid else str(error.get("message") or "The engine rejected the replay.")}


class SwissRoundBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    stage = serializers.CharField(help_text="swiss, or top_cut.")
    number = serializers.IntegerField()


class BattleSerializer(serializers.ModelSerializer):
    event = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    group = serializers.SerializerMethodField()
    season = serializers.SerializerMethodField()
    general_a = GeneralBriefSerializer(read_only=True)
    general_b = GeneralBriefSerializer(read_only=True)
    result = serializers.SerializerMethodField()
    verdict = serializers.SerializerMethodField(help_text=(
        "The engine's verdict on the report that counted, for everyone (rules.py: the public sees the counted "
        "result and the verdict summary); null without an adjudicated replay."))
    swiss_round = serializers.SerializerMethodField(help_text="A Swiss event's round (stage swiss or top_cut).")
    facts = FactsField(read_only=True, help_text="The counted result's raw facts (the game's result_facts).")

    class Meta:
        model = models.Battle
        fields = ["id", "event", "group", "season", "swiss_round", "round", "number", "playoff", "general_a",
                  "general_b", "result", "facts", "verdict"]

    @extend_schema_field(SwissRoundBriefSerializer(allow_null=True))
    def get_swiss_round(self, battle):
        if not battle.swiss_round_id:
            return None
        return {"id": battle.swiss_round_id, "stage": battle.swiss_round.stage, "number": battle.swiss_round.number}

    @extend_schema_field(VerdictSummarySerializer(allow_null=True))
    def get_verdict(self, battle):
        if not battle.kind:
            return None
        counted = getattr(battle, "counted_verdicts", None)  # prefetched by list views
        if counted is None:
            counted = list(counted_verdicts().filter(battle=battle)[:1])
        return verdict_summary(battle, counted[0].adjudication) if counted else None

    def get_group(self, battle) -> dict | None:
        return {"id": battle.group_id, "name": battle.group.name} if battle.group_id else None

    def get_season(self, battle) -> dict | None:
        return {"id": battle.season_id, "name": battle.season.name} if battle.season_id else None

    def get_result(self, battle) -> dict | None:
        if not battle.kind:
            return None
        opp = None  # OPP are WARLINE Organized Play's (R21); the other games' results carry none
        if battle.event.game_system.adjudicated:
            awards = opp_awards(battle_result(battle), battle.event.forfeit_award)
            opp = {str(battle.general_a_id): awards[battle.general_a.key],
                   str(battle.general_b_id): awards[battle.general_b.key]}
        return {
            "kind": battle.kind,
            "winner": battle.winner_id,
            "condition": battle.condition or None,
            "forfeited_by": battle.forfeited_by_id,
            "player_1": battle.player_1_id,
            "respect_shown": battle.respect_shown,
            "decided_at": battle.decided_at,
            "text": battle.outcome_text(),
            "opp": opp,
        }


class OfferSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    reason = serializers.CharField(help_text='Always "forfeits".')


def offer_body(general):
    """R68: the general whose forfeits reached the event's limit, offered for disqualification."""
    return {"id": general.pk, "name": general.name, "reason": "forfeits"} if general else None


class DecidedBattleSerializer(BattleSerializer):
    offer_disqualification = OfferSerializer(
        allow_null=True, read_only=True,
        help_text="R68: set when this result makes a general's forfeits reach the event's limit.")

    class Meta(BattleSerializer.Meta):
        fields = [*BattleSerializer.Meta.fields, "offer_disqualification"]


class ResultInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=REPORTED_KINDS)
    winner = serializers.IntegerField(required=False, allow_null=True, help_text="General id (victory).")
    condition = serializers.ChoiceField(choices=models.Battle.Condition.choices, required=False, allow_blank=True)
    forfeited_by = serializers.IntegerField(required=False, allow_null=True, help_text="General id (forfeit).")
    player_1 = serializers.IntegerField(required=False, allow_null=True,
                                        help_text="General id of Player-1 (decided by the Challenge).")
    respect_shown = serializers.BooleanField(default=True)
    facts = FactsField()
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000,
                                   help_text="Required when the battle already has a result (a correction) or "
                                             "an open report (an override).")


class DisqualificationSerializer(serializers.ModelSerializer):
    general = GeneralBriefSerializer(read_only=True)
    decided_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    season = serializers.SerializerMethodField(help_text="A league's season it was decided in (R88).")

    class Meta:
        model = models.Disqualification
        fields = ["general", "reason", "details", "season", "decided_by", "decided_at"]

    def get_season(self, dq) -> dict | None:
        return {"id": dq.season_id, "name": dq.season.name} if dq.season_id else None


class DisqualifyInputSerializer(serializers.Serializer):
    general = serializers.PrimaryKeyRelatedField(queryset=models.General.objects.all())
    reason = serializers.ChoiceField(choices=models.Disqualification.Reason.values)
    details = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)


class AuditEntrySerializer(serializers.ModelSerializer):
    actor = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)

    class Meta:
        model = models.AuditEntry
        fields = ["id", "at", "actor", "action", "subject", "before", "after", "reason"]


class SeasonSerializer(serializers.ModelSerializer):
    champion = GeneralBriefSerializer(read_only=True, allow_null=True)
    waiting_for = serializers.SerializerMethodField(
        help_text="One sentence: what the season is doing and what it waits for (open, closing, playoff, closed).")

    class Meta:
        model = models.Season
        fields = ["id", "number", "name", "state", "champion", "waiting_for"]
        read_only_fields = ["number", "state", "champion"]

    def get_waiting_for(self, season) -> str:
        return waiting_for(season)


class SeasonClosedSerializer(SeasonSerializer):
    playoffs = serializers.SerializerMethodField(help_text="The playoff battles this close created (R24).")

    class Meta(SeasonSerializer.Meta):
        fields = [*SeasonSerializer.Meta.fields, "playoffs"]

    def get_playoffs(self, season) -> list[dict]:
        return [{"id": b.pk, "general_a": {"id": b.general_a_id, "name": b.general_a.name},
                 "general_b": {"id": b.general_b_id, "name": b.general_b.name}}
                for b in self.context.get("playoffs", [])]


class ReasonInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000, help_text="Kept in the audit trail.")


class LeagueBattleInputSerializer(serializers.Serializer):
    """Organizers schedule a battle (general_a, general_b) or record an arranged one (with `result`).
    A member reports their own arranged battle: `opponent` and the report's fields, as for any report."""

    general_a = serializers.PrimaryKeyRelatedField(queryset=models.General.objects.all(), required=False,
                                                   help_text="Organizers: the first general.")
    general_b = serializers.PrimaryKeyRelatedField(queryset=models.General.objects.all(), required=False,
                                                   help_text="Organizers: the second general.")
    result = ResultInputSerializer(required=False, help_text="Organizers: record the result at once.")
    opponent = serializers.PrimaryKeyRelatedField(queryset=models.General.objects.all(), required=False,
                                                  help_text="Members: the member you played.")
    kind = serializers.ChoiceField(choices=REPORTED_KINDS, required=False, help_text="Members: the result.")
    winner = serializers.PrimaryKeyRelatedField(queryset=models.General.objects.all(), required=False, allow_null=True)
    condition = serializers.ChoiceField(choices=models.Battle.Condition.choices, required=False, allow_blank=True,
                                        default="")
    forfeited_by = serializers.PrimaryKeyRelatedField(queryset=models.General.objects.all(), required=False,
                                                      allow_null=True)
    player_1 = serializers.PrimaryKeyRelatedField(queryset=models.General.objects.all(), required=False, allow_null=True)
    replay = serializers.JSONField(required=False, help_text="Members: the replay log, a JSON object or a file "
                                   "upload (multipart) named `replay`.")

    def validate(self, attrs):
        if "opponent" in attrs:
            if "kind" not in attrs:
                raise serializers.ValidationError({"kind": [_("Say how the battle ended.")]})
            if {"general_a", "general_b", "result"} & set(attrs):
                raise serializers.ValidationError({"opponent": [
                    _("A member's report names the opponent only; general_a, general_b and result are for "
                      "organizers.")]})
        elif not ("general_a" in attrs and "general_b" in attrs):
            raise serializers.ValidationError({"general_a": [
                _("Give general_a and general_b (organizers), or opponent and the result (members).")]})
        return attrs


class StandingRowSerializer(serializers.Serializer):
    """Documents the shape of a standings row (see `standing_rows`)."""

    place = serializers.IntegerField()
    shared = serializers.BooleanField()
    general = GeneralBriefSerializer()
    played = serializers.IntegerField()
    defeats = serializers.IntegerField()
    forfeits = serializers.IntegerField()
    pending = serializers.IntegerField()
    disqualified = serializers.BooleanField()

    def get_fields(self):
        fields = super().get_fields()
        for metric in TIEBREAKERS:
            fields[metric.key] = serializers.IntegerField(help_text=metric.label)
        return fields


class StandingsTableSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["group", "season"])
    id = serializers.IntegerField()
    name = serializers.CharField()
    stage = serializers.CharField(allow_null=True)
    decided = GeneralBriefSerializer(allow_null=True, help_text="Group winner or season champion, once decided.")
    pending_results = serializers.IntegerField()
    rows = StandingRowSerializer(many=True)


class StandingsSerializer(serializers.Serializer):
    event = serializers.CharField()
    tiebreakers = serializers.ListField(child=serializers.DictField())
    tables = StandingsTableSerializer(many=True)


class AdjudicationSerializer(serializers.ModelSerializer):
    class Meta:
        model = models.Adjudication
        fields = ["state", "engine_version", "verdict", "agrees", "disagreement", "attempts", "last_error",
                  "queued_at", "started_at", "finished_at", "engine_ms"]


class ReportSerializer(serializers.ModelSerializer):
    battle = serializers.PrimaryKeyRelatedField(read_only=True)
    reported_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    answered_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    status_text = serializers.CharField(source="get_status_display", read_only=True)
    has_replay = serializers.SerializerMethodField()
    facts = FactsField(read_only=True, help_text="The raw facts reported with the result (the game's result_facts).")
    adjudication = AdjudicationSerializer(read_only=True, allow_null=True)
    waiting_for = serializers.SerializerMethodField(help_text="The general expected to confirm or dispute.")
    seconds_left = serializers.SerializerMethodField(
        help_text="Seconds until the report counts by itself unless disputed (`confirm_by`).")
    offer_disqualification = serializers.SerializerMethodField(
        help_text="R68: set when this counted forfeit makes the general's forfeits reach the event's limit.")

    class Meta:
        model = models.Report
        fields = ["id", "battle", "reported_by", "kind", "winner", "condition", "forfeited_by", "player_1", "facts",
                  "status", "status_text", "status_reason", "dispute_turn", "answered_by", "has_replay",
                  "replay_sha256", "replay_bytes", "adjudication", "waiting_for", "confirm_by", "seconds_left", "offer_disqualification",
                  "created_at", "updated_at"]

    def get_has_replay(self, report) -> bool:
        return bool(report.replay)

    @extend_schema_field(GeneralBriefSerializer(allow_null=True))
    def get_waiting_for(self, report):
        if not report.is_awaiting_opponent:
            return None
        opponent = trust.opponent_of_reporter(report)
        return GeneralBriefSerializer(opponent).data if opponent else None

    def get_seconds_left(self, report) -> int | None:
        if report.confirm_by is None or not report.is_awaiting_opponent:
            return None
        return max(0, int((report.confirm_by - timezone.now()).total_seconds()))

    @extend_schema_field(OfferSerializer(allow_null=True))
    def get_offer_disqualification(self, report):
        battle = report.battle
        if report.status not in (models.Report.Status.CONFIRMED, models.Report.Status.OVERRIDDEN) \
                or battle.kind != models.Battle.Kind.FORFEIT:
            return None
        return offer_body(forfeit_offer(battle.event, battle.forfeited_by))


class NotificationSettingsSerializer(serializers.ModelSerializer):
    """Which emails the user gets; every kind is on until they switch it off (`PATCH me/`)."""

    class Meta:
        model = models.NotificationSettings
        fields = list(models.NotificationSettings.KINDS)


class MeUpdateSerializer(serializers.Serializer):
    notifications = NotificationSettingsSerializer(help_text="The kinds of email to switch on (true) or off.")


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    email = serializers.EmailField(allow_blank=True, help_text="Where notifications go; empty: none are sent.")
    notifications = NotificationSettingsSerializer(help_text="Which emails you get.")
    may_create_events = serializers.BooleanField(help_text="Granted the organizer role by site staff.")
    general = GeneralSerializer(allow_null=True)
    awaiting_my_confirmation = ReportSerializer(many=True, help_text="Opponents' reports waiting for you.")
    my_open_reports = ReportSerializer(many=True, help_text="Your reports not decided yet.")
    invitations = InvitationSerializer(many=True, help_text="Pending invitations for your general.")
    organizer_invitations = OrganizerInvitationSerializer(
        many=True, help_text="Pending invitations to co-organize an event (`organizer-invitations/{id}/accept/`).")
    organizing = serializers.ListField(child=serializers.CharField(), help_text="Slugs of events you organize.")


@extend_schema_field({"$ref": "#/components/schemas/Replay"})
class ReplayField(serializers.JSONField):
    """A replay log (the `Replay` component of the schema, see api/replay_schema.py)."""


class ReportInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=REPORTED_KINDS)
    winner = serializers.PrimaryKeyRelatedField(queryset=models.General.objects.all(), required=False, allow_null=True)
    condition = serializers.ChoiceField(choices=models.Battle.Condition.choices, required=False, allow_blank=True,
                                        default="")
    forfeited_by = serializers.PrimaryKeyRelatedField(queryset=models.General.objects.all(), required=False,
                                                      allow_null=True)
    player_1 = serializers.PrimaryKeyRelatedField(queryset=models.General.objects.all(), required=False, allow_null=True)
    facts = FactsField()
    replay = ReplayField(required=False, help_text="The replay log: a JSON object, or a file upload "
                         "(multipart) named `replay`.")


class ReportUploadSerializer(ReportInputSerializer):
    """The same report as a multipart form, with the replay log as a file."""

    replay = serializers.FileField(required=False, help_text="The replay log (JSON, at most 1 MiB).")


class DisputeInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000)


class WithdrawDisputeInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="",
                                   help_text="Why, for the audit trail (optional).")


class OverrideInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000)
    kind = serializers.ChoiceField(choices=REPORTED_KINDS, required=False)
    winner = serializers.PrimaryKeyRelatedField(queryset=models.General.objects.all(), required=False, allow_null=True)
    condition = serializers.ChoiceField(choices=models.Battle.Condition.choices, required=False, allow_blank=True)
    forfeited_by = serializers.PrimaryKeyRelatedField(queryset=models.General.objects.all(), required=False,
                                                      allow_null=True)
    facts = FactsField()
