"""What the API reads and writes. Writes are validated here for shape only; the rules are
checked by the services, whose refusals become 400/409 bodies (see errors.py)."""
from rest_framework import serializers

from tournaments.domain import TIEBREAKERS, opp_awards
from tournaments.models import (
    VARIANT_KEYS,
    Adjudication,
    AuditEntry,
    Battle,
    Disqualification,
    Event,
    General,
    Group,
    Registration,
    Report,
    Season,
)
from tournaments.services import GROUP_METHODS, battle_result


class GeneralBriefSerializer(serializers.ModelSerializer):
    class Meta:
        model = General
        fields = ["id", "name"]


class GeneralSerializer(serializers.ModelSerializer):
    class Meta:
        model = General
        fields = ["id", "name", "external_id"]

    def validate_name(self, value):
        if not value.strip():
            raise serializers.ValidationError("A general needs a name.")
        return value.strip()


class EventSerializer(serializers.ModelSerializer):
    variants = serializers.ListField(child=serializers.ChoiceField(choices=VARIANT_KEYS), required=False,
                                     max_length=len(VARIANT_KEYS))
    status = serializers.CharField(source="status_label", read_only=True)
    victor = GeneralBriefSerializer(read_only=True, allow_null=True)
    organizers = serializers.SlugRelatedField(slug_field="username", many=True, read_only=True)

    class Meta:
        model = Event
        fields = ["slug", "name", "kind", "state", "status", "variants", "battalion_count", "forfeit_award_opp",
                  "forfeit_counts_as_victory", "forfeits_to_disqualify", "group_method", "group_seed", "victor",
                  "organizers", "published", "starts_on", "venue", "created_at", "updated_at"]
        read_only_fields = ["state", "status", "group_method", "group_seed", "victor", "organizers", "created_at",
                            "updated_at"]
        extra_kwargs = {"slug": {"required": True}}

    def validate_forfeit_award_opp(self, value):
        if not 0 <= value <= 5:
            raise serializers.ValidationError("The forfeit award is between 0 and 5 OPP.")
        return value

    def get_fields(self):
        fields = super().get_fields()
        if self.instance is not None:  # the address of an event never changes
            fields["slug"].read_only = True
            fields["kind"].read_only = True
        return fields


REPORTED_KINDS = ["victory", "stalemate", "resolve", "forfeit"]
RULE_FIELDS = ("variants", "battalion_count", "forfeit_award_opp", "forfeit_counts_as_victory",
               "forfeits_to_disqualify")


class RegistrationSerializer(serializers.ModelSerializer):
    general = GeneralBriefSerializer(read_only=True)

    class Meta:
        model = Registration
        fields = ["number", "general", "seed", "status", "status_reason", "registered_at"]


class RegisterInputSerializer(serializers.Serializer):
    general = serializers.PrimaryKeyRelatedField(queryset=General.objects.all(), required=False,
                                                 help_text="An existing general's id.")
    name = serializers.CharField(required=False, max_length=120,
                                 help_text="A new general's name (when `general` is not given).")
    seed = serializers.IntegerField(required=False, min_value=1, allow_null=True)

    def validate(self, attrs):
        if bool(attrs.get("general")) == bool(attrs.get("name", "").strip()):
            raise serializers.ValidationError({"general": ["Give either an existing general's id or a new name."]})
        return attrs


class GroupSerializer(serializers.ModelSerializer):
    members = serializers.SerializerMethodField()
    winner = GeneralBriefSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Group
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


class BattleSerializer(serializers.ModelSerializer):
    event = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    group = serializers.SerializerMethodField()
    season = serializers.SerializerMethodField()
    general_a = GeneralBriefSerializer(read_only=True)
    general_b = GeneralBriefSerializer(read_only=True)
    result = serializers.SerializerMethodField()

    class Meta:
        model = Battle
        fields = ["id", "event", "group", "season", "round", "number", "playoff", "general_a", "general_b",
                  "result"]

    def get_group(self, battle) -> dict | None:
        return {"id": battle.group_id, "name": battle.group.name} if battle.group_id else None

    def get_season(self, battle) -> dict | None:
        return {"id": battle.season_id, "name": battle.season.name} if battle.season_id else None

    def get_result(self, battle) -> dict | None:
        if not battle.kind:
            return None
        awards = opp_awards(battle_result(battle), battle.event.forfeit_award)
        return {
            "kind": battle.kind,
            "winner": battle.winner_id,
            "condition": battle.condition or None,
            "forfeited_by": battle.forfeited_by_id,
            "player_1": battle.player_1_id,
            "respect_shown": battle.respect_shown,
            "decided_at": battle.decided_at,
            "text": battle.outcome_text(),
            "opp": {str(battle.general_a_id): awards[battle.general_a.key],
                    str(battle.general_b_id): awards[battle.general_b.key]},
        }


class ResultInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=REPORTED_KINDS)
    winner = serializers.IntegerField(required=False, allow_null=True, help_text="General id (victory).")
    condition = serializers.ChoiceField(choices=Battle.Condition.choices, required=False, allow_blank=True)
    forfeited_by = serializers.IntegerField(required=False, allow_null=True, help_text="General id (forfeit).")
    player_1 = serializers.IntegerField(required=False, allow_null=True,
                                        help_text="General id of Player-1 (decided by the Challenge).")
    respect_shown = serializers.BooleanField(default=True)
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000,
                                   help_text="Required when the battle already has a result.")


class DisqualificationSerializer(serializers.ModelSerializer):
    general = GeneralBriefSerializer(read_only=True)
    decided_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)

    class Meta:
        model = Disqualification
        fields = ["general", "reason", "details", "decided_by", "decided_at"]


class DisqualifyInputSerializer(serializers.Serializer):
    general = serializers.PrimaryKeyRelatedField(queryset=General.objects.all())
    reason = serializers.ChoiceField(choices=Disqualification.Reason.values)
    details = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)


class AuditEntrySerializer(serializers.ModelSerializer):
    actor = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)

    class Meta:
        model = AuditEntry
        fields = ["id", "at", "actor", "action", "subject", "before", "after", "reason"]


class SeasonSerializer(serializers.ModelSerializer):
    champion = GeneralBriefSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Season
        fields = ["id", "number", "name", "state", "champion"]
        read_only_fields = ["number", "state", "champion"]


class LeagueBattleInputSerializer(serializers.Serializer):
    general_a = serializers.PrimaryKeyRelatedField(queryset=General.objects.all())
    general_b = serializers.PrimaryKeyRelatedField(queryset=General.objects.all())
    result = ResultInputSerializer(required=False, help_text="Report the result at once (an arranged battle).")


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
        model = Adjudication
        fields = ["state", "engine_version", "verdict", "agrees", "disagreement", "attempts", "last_error",
                  "queued_at", "started_at", "finished_at", "engine_ms"]


class ReportSerializer(serializers.ModelSerializer):
    battle = serializers.PrimaryKeyRelatedField(read_only=True)
    reported_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    answered_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    status_text = serializers.CharField(source="get_status_display", read_only=True)
    has_replay = serializers.SerializerMethodField()
    adjudication = AdjudicationSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Report
        fields = ["id", "battle", "reported_by", "kind", "winner", "condition", "forfeited_by", "player_1",
                  "status", "status_text", "status_reason", "dispute_turn", "answered_by", "has_replay",
                  "adjudication", "created_at", "updated_at"]

    def get_has_replay(self, report) -> bool:
        return bool(report.replay)


class ReportInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=REPORTED_KINDS)
    winner = serializers.PrimaryKeyRelatedField(queryset=General.objects.all(), required=False, allow_null=True)
    condition = serializers.ChoiceField(choices=Battle.Condition.choices, required=False, allow_blank=True,
                                        default="")
    forfeited_by = serializers.PrimaryKeyRelatedField(queryset=General.objects.all(), required=False,
                                                      allow_null=True)
    player_1 = serializers.PrimaryKeyRelatedField(queryset=General.objects.all(), required=False, allow_null=True)
    replay = serializers.JSONField(required=False, help_text="The replay log: a JSON object, or a file upload "
                                   "(multipart) named `replay`.")


class DisputeInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000)


class OverrideInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000)
    kind = serializers.ChoiceField(choices=REPORTED_KINDS, required=False)
    winner = serializers.PrimaryKeyRelatedField(queryset=General.objects.all(), required=False, allow_null=True)
    condition = serializers.ChoiceField(choices=Battle.Condition.choices, required=False, allow_blank=True)
    forfeited_by = serializers.PrimaryKeyRelatedField(queryset=General.objects.all(), required=False,
                                                      allow_null=True)
