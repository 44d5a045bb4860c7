"""What the API reads and writes about game systems, deck and army lists, and Swiss events
(the views are in game_views.py). Shape only: the rules are the services' (tournaments.lists,
tournaments.swiss) and the game systems' (game_systems/)."""
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments import models
from tournaments.api.serializers import BattleSerializer, GeneralBriefSerializer, ScoringSerializer

LIST_STATUSES = ["valid", "violations", "accepted", "withdrawn"]


# --- game systems ------------------------------------------------------------------------------------

class GameResultKindSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="The `kind` a report or a result sends: victory, draw, forfeit, ...")
    label = serializers.CharField()
    has_winner = serializers.BooleanField(help_text="Whether a result of this kind names its winner.")


class GameFactSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="The key in a result's `facts`.")
    label = serializers.CharField()
    choices = serializers.ListField(child=serializers.CharField(), help_text="A word from these; empty: a whole "
                                                                           "number from `minimum` to `maximum`.")
    minimum = serializers.IntegerField()
    maximum = serializers.IntegerField()
    per_side = serializers.BooleanField(help_text='One value for each player: {"a": n, "b": n} (general_a, '
                                                  'general_b of the battle).')
    help = serializers.CharField(allow_blank=True)


class GameTieBreakerSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    explanation = serializers.CharField()


class GameSerializer(serializers.Serializer):
    slug = serializers.CharField(help_text="An event's `game`.")
    name = serializers.CharField()
    short_name = serializers.CharField()
    formats = serializers.ListField(child=serializers.CharField(), help_text="groups (WARLINE Organized Play), "
                                                                           "swiss.")
    default_format = serializers.CharField()
    result_kinds = GameResultKindSerializer(many=True)
    result_facts = GameFactSerializer(many=True, help_text="What a result may record beside its kind and winner "
                                                           "(every fact optional).")
    default_scoring = ScoringSerializer()
    tie_breakers = GameTieBreakerSerializer(many=True, help_text="The Swiss tie-breakers an event may choose.")
    default_tie_breakers = serializers.ListField(child=serializers.CharField())
    table_sizes = serializers.ListField(child=serializers.IntegerField(), help_text="Players at one table.")
    adjudicated = serializers.BooleanField(help_text="Whether the rules engine adjudicates replays (WARLINE).")
    has_lists = serializers.BooleanField(help_text="Whether players submit deck or army lists.")
    pool_label = serializers.CharField(allow_null=True, help_text='What organizers upload: "card pool", '
                                                                  '"model list"; null without lists.')
    pool_header = serializers.CharField(allow_null=True, help_text="The header line of that CSV.")


def game_body(system):
    checker = system.list_checker
    return {
        "slug": system.slug, "name": system.name, "short_name": system.short_name,
        "formats": list(system.formats), "default_format": system.default_format,
        "result_kinds": [{"key": k.key, "label": k.label, "has_winner": k.has_winner} for k in system.result_kinds],
        "result_facts": [{"key": f.key, "label": f.label, "choices": list(f.choices), "minimum": f.minimum,
                          "maximum": f.maximum, "per_side": f.per_side, "help": f.help} for f in system.result_facts],
        "default_scoring": dict(system.default_scoring),
        "tie_breakers": [{"key": t.key, "label": t.label, "explanation": t.explanation} for t in system.tie_breakers],
        "default_tie_breakers": list(system.default_tie_breakers), "table_sizes": list(system.table_sizes),
        "adjudicated": system.adjudicated, "has_lists": system.has_lists,
        "pool_label": checker.pool_label if checker else None, "pool_header": checker.pool_header if checker else None,
    }


@extend_schema_field({"type": "object", "additionalProperties": {}})
class ObjectField(serializers.JSONField):
    """A JSON object (a list, a game's options): anything else is refused here, its content by the checker."""

    def to_internal_value(self, data):
        data = super().to_internal_value(data)
        if not isinstance(data, dict):
            raise serializers.ValidationError(_("Send a JSON object."))
        return data


class ViolationSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="The spec's rule code, e.g. WCCG-D01.")
    message = serializers.CharField()


class ListCheckInputSerializer(serializers.Serializer):
    list = ObjectField(help_text="The deck or army list, in the game's list format.")
    pool = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False, max_length=2_000_000,
                                 help_text="The event's card pool or model list (CSV text); without it the list "
                                           "describes its own cards or models.")
    options = ObjectField(required=False, help_text="The event's list options (the game spec's section 2).")


class ListCheckSerializer(serializers.Serializer):
    valid = serializers.BooleanField()
    violations = ViolationSerializer(many=True, help_text="Every broken construction rule, in the spec's order.")


# --- lists of an event -------------------------------------------------------------------------------

class ListVersionSerializer(serializers.ModelSerializer):
    general = GeneralBriefSerializer(source="registration.general", read_only=True)
    status = serializers.ChoiceField(choices=LIST_STATUSES, read_only=True, help_text=(
        "valid; violations (it breaks a rule); accepted (an organizer accepted it despite its violations, "
        "`accepted_reason`); withdrawn."))
    submitted_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    accepted_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    violations = ViolationSerializer(many=True, read_only=True)
    list = serializers.SerializerMethodField(help_text="The list as read; null once withdrawn.")
    summary = serializers.SerializerMethodField(help_text='One line, e.g. "52 cards; starting army marked".')

    class Meta:
        model = models.ListVersion
        fields = ["general", "version", "status", "submitted_at", "submitted_by", "summary", "list", "violations",
                  "accepted_by", "accepted_reason", "accepted_at"]

    @extend_schema_field({"type": "object", "additionalProperties": {}, "nullable": True})
    def get_list(self, version):
        return version.content

    def get_summary(self, version) -> str:
        checker = version.registration.event.game_system.list_checker
        if version.withdrawn or checker is None:
            return ""
        try:
            return checker.summary(version.content)
        except ValueError:  # readable when submitted; a summary is never worth a refusal
            return ""


class EventListSerializer(serializers.Serializer):
    general = GeneralBriefSerializer()
    list = ListVersionSerializer(allow_null=True, help_text="The current version; null: none submitted.")


class EventListsSerializer(serializers.Serializer):
    game = serializers.CharField()
    pool_label = serializers.CharField()
    list_visibility = serializers.ChoiceField(choices=models.Event.ListVisibility.choices)
    public = serializers.BooleanField(help_text="Whether everyone sees the lists now (open lists from their date).")
    locked = serializers.CharField(allow_null=True, help_text="Why lists cannot change now; null: they can.")
    lists = EventListSerializer(many=True, help_text=(
        "Organizers: every registered general. Others: the lists they may see (open lists once public, "
        "and their own)."))


class ListSubmitInputSerializer(serializers.Serializer):
    general = serializers.PrimaryKeyRelatedField(queryset=models.General.objects.all(), required=False,
                                                 help_text="Organizers name the general; a player submits their own.")
    list = ObjectField(help_text="The deck or army list in the game's list format; checked at once and kept "
                                 "with its violations.")


class ListGeneralInputSerializer(serializers.Serializer):
    general = serializers.PrimaryKeyRelatedField(queryset=models.General.objects.all(), required=False,
                                                 help_text="Organizers name the general; a player withdraws their "
                                                           "own.")


class ListAcceptInputSerializer(serializers.Serializer):
    general = serializers.PrimaryKeyRelatedField(queryset=models.General.objects.all())
    version = serializers.IntegerField(min_value=1, help_text="The version read: a newer one is 409.")
    reason = serializers.CharField(max_length=2000, help_text="Why, for the audit trail and the players.")


class ListPoolInputSerializer(serializers.Serializer):
    csv = serializers.CharField(allow_blank=True, trim_whitespace=False, help_text=(
        "The whole CSV, header line first (empty: no pool). A multipart form may send it as a file named "
        "`csv`."))


class ListPoolSerializer(serializers.Serializer):
    label = serializers.CharField(help_text='"card pool" or "model list".')
    header = serializers.CharField(help_text="The CSV's header line.")
    entries = serializers.IntegerField(help_text="Cards or models in the pool; 0 without one.")
    csv = serializers.CharField(allow_blank=True, help_text="The CSV exactly as uploaded.")


class ListRulesSerializer(serializers.ModelSerializer):
    locked = serializers.SerializerMethodField(help_text="Why lists cannot change now; null: they can.")

    class Meta:
        model = models.Event
        fields = ["list_deadline", "list_visibility", "lists_public_from", "list_options", "locked"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_locked(self, event):
        from tournaments.lists.services import lock_reason

        return lock_reason(event)


class ListRulesInputSerializer(serializers.Serializer):
    list_deadline = serializers.DateTimeField(required=False, allow_null=True,
                                              help_text="Lists lock then (null: when registration closes).")
    list_visibility = serializers.ChoiceField(choices=models.Event.ListVisibility.choices, required=False)
    lists_public_from = serializers.DateTimeField(required=False, allow_null=True,
                                                  help_text="Open lists are public from then (null: once locked).")
    list_options = ObjectField(required=False, help_text="The game's list options (its spec's section 2).")


# --- Swiss ----------------------------------------------------------------------------------------------

class TableSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="Clockwise order at the table, 1 first.")
    general = GeneralBriefSerializer()


class TableReportSerializer(serializers.ModelSerializer):
    confirmed_by = serializers.ListField(child=serializers.IntegerField(), read_only=True,
                                         help_text="Ids of the generals who stand behind it.")
    eliminations = serializers.ListField(child=serializers.IntegerField(), read_only=True,
                                         help_text="General ids, first out first.")

    class Meta:
        model = models.TableReport
        fields = ["id", "status", "status_reason", "eliminations", "finished", "confirmed_by", "confirm_by",
                  "created_at"]


class TableSerializer(serializers.ModelSerializer):
    seats = serializers.SerializerMethodField()
    eliminations = serializers.ListField(child=serializers.IntegerField(), read_only=True,
                                         help_text="The counted elimination order, first out first (empty while "
                                                   "not decided).")
    result = serializers.SerializerMethodField(help_text="The counted result in words, or null.")

    class Meta:
        model = models.Table
        fields = ["id", "number", "seats", "eliminations", "finished", "decided_at", "result"]

    @extend_schema_field(TableSeatSerializer(many=True))
    def get_seats(self, table):
        return TableSeatSerializer([{"seat": s.seat, "general": s.general} for s in table.seats.all()], many=True).data

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_result(self, table):
        from tournaments.swiss.tables import result_text

        return result_text(table, table.eliminations, table.finished) if table.is_decided else None


class SwissRoundSerializer(serializers.ModelSerializer):
    bye = GeneralBriefSerializer(read_only=True, allow_null=True, help_text="Who has the bye (an odd field).")
    battles = BattleSerializer(many=True, read_only=True)
    tables = serializers.SerializerMethodField(help_text="Multiplayer tables of the round (Warlord CCG tables of "
                                                         "3-4); empty for two-player rounds.")

    class Meta:
        model = models.SwissRound
        fields = ["id", "stage", "number", "bye", "rematches", "paired_at", "battles", "tables"]

    @extend_schema_field(TableSerializer(many=True))
    def get_tables(self, swiss_round):
        return TableSerializer(swiss_round.tables.prefetch_related("seats__general").order_by("number"),
                               many=True).data


class SwissTieBreakSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    value = serializers.FloatField()


class SwissLineSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="Equal with another player on the score and every tie-breaker.")
    general = GeneralBriefSerializer()
    score = serializers.FloatField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    dropped = serializers.BooleanField(help_text="Left the event: kept in the standings, never paired again.")
    tie_breaks = SwissTieBreakSerializer(many=True, help_text="The event's tie-breakers in order.")


class SwissStandingsSerializer(serializers.Serializer):
    scoring = ScoringSerializer()
    tie_breakers = GameTieBreakerSerializer(many=True)
    lines = SwissLineSerializer(many=True)


class SwissTopCutSerializer(serializers.Serializer):
    size = serializers.IntegerField(help_text="Players in the top cut; 0: none.")
    rounds = SwissRoundSerializer(many=True)


class SwissSerializer(serializers.Serializer):
    planned_rounds = serializers.IntegerField(help_text="Swiss rounds the event plays.")
    next_round_refusal = serializers.CharField(allow_null=True, help_text=(
        "Why the next Swiss round cannot be paired now; null: an organizer may pair it."))
    rounds = SwissRoundSerializer(many=True)
    standings = SwissStandingsSerializer()
    top_cut = SwissTopCutSerializer()
    victor = GeneralBriefSerializer(allow_null=True)


class SwissDropInputSerializer(serializers.Serializer):
    general = serializers.PrimaryKeyRelatedField(queryset=models.General.objects.all(), required=False,
                                                 help_text="Organizers name the general; a player drops their own.")


class SwissDropSerializer(serializers.Serializer):
    general = GeneralBriefSerializer()
    dropped_after_round = serializers.IntegerField()


class TableResultInputSerializer(serializers.Serializer):
    eliminations = serializers.ListField(child=serializers.IntegerField(), max_length=8,
                                         help_text="The generals' ids in the order they were eliminated, first "
                                                   "out first.")
    finished = serializers.BooleanField(default=True, help_text="False: the round's time ran out with players "
                                                                "left, who share the places they cover.")
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000,
                                   help_text="Organizers: needed to correct a counted result or to decide otherwise "
                                             "than a player's report.")


class TableDisputeInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000, help_text="What is wrong with the report.")


class SwissRoundsInputSerializer(serializers.Serializer):
    rounds = serializers.IntegerField(min_value=1, max_value=20, help_text="Swiss rounds to play.")
