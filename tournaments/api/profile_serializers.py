"""What the API answers for a general's profile and head to head (`tournaments.profiles`): read-only,
typed field by field so the OpenAPI schema names every figure."""
from django.urls import reverse
from rest_framework import serializers

from rules_engine.conditions import LABELS, Condition
from tournaments.api.serializers import GeneralBriefSerializer

# One field per victory condition, named and worded by the one vocabulary (rules_engine/conditions.py).
VictoriesByConditionSerializer = type("VictoriesByConditionSerializer", (serializers.Serializer,), {
    condition.value: serializers.IntegerField(help_text=f"Victories by {LABELS[condition]}.")
    for condition in Condition
})


class FiguresSerializer(serializers.Serializer):
    battles = serializers.IntegerField(help_text="Battles fought: Victories, defeats, Stalemates and Resolves, "
                                                 "playoff battles included; not forfeits, not battles not fought.")
    victories = serializers.IntegerField(help_text="Battles fought and won (a forfeit received is not one).")
    victories_by_condition = VictoriesByConditionSerializer()
    stalemates = serializers.IntegerField()
    resolves = serializers.IntegerField()
    defeats = serializers.IntegerField(help_text="Battles fought and lost to a victor.")
    forfeits_given = serializers.IntegerField(help_text="Battles this general forfeited.")
    forfeits_received = serializers.IntegerField(help_text="Battles the opponent forfeited.")
    not_fought = serializers.IntegerField(help_text="Scheduled, not fought because a general was disqualified (R23).")


class PlaceSerializer(serializers.Serializer):
    label = serializers.CharField(help_text='The place, "=" when shared after every tie-breaker: "1", "3=".')
    table = serializers.CharField(help_text="The group or season it is a place in; empty for the Victor.")
    final = serializers.BooleanField(help_text="False while the event is in progress: the place so far.")
    disqualified = serializers.BooleanField()
    victor = serializers.BooleanField(help_text="The tournament's Victor.")


class EventBriefSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    kind = serializers.CharField()
    state = serializers.CharField()


class EventLineSerializer(serializers.Serializer):
    event = EventBriefSerializer()
    opp = serializers.IntegerField(help_text="OPP in the event (R21-R23), its tables added up; playoffs give none.")
    figures = FiguresSerializer()
    place = PlaceSerializer(allow_null=True, help_text=(
        "A finished tournament's Victor is 1st; otherwise the place in the latest table the general is in "
        "(the Final Group, else the qualifying group; a league's latest season). Null: no table yet."))


class RecordSerializer(serializers.Serializer):
    totals = FiguresSerializer()
    events = EventLineSerializer(many=True, help_text="Latest event first.")


def _where(battle):
    return battle.group.name if battle.group_id else (battle.season.name if battle.season_id else "")


class RecentBattleSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="battle.pk")
    event = EventBriefSerializer(source="battle.event")
    where = serializers.SerializerMethodField(help_text="The group or season.")
    round = serializers.IntegerField(source="battle.round")
    playoff = serializers.BooleanField(source="battle.playoff")
    opponent = GeneralBriefSerializer()
    result = serializers.CharField(source="battle.outcome_text")
    decided_at = serializers.DateTimeField(source="battle.decided_at", allow_null=True)
    replay = serializers.SerializerMethodField(help_text=(
        "The replay viewer's address, for the battle's two generals and the event's organizers; null for "
        "everyone else and when the battle has no replay."))

    def get_where(self, item) -> str:
        return _where(item.battle)

    def get_replay(self, item) -> str | None:
        return reverse("battle-replay", args=[item.battle.pk]) if item.replay_visible else None


class ProfileSerializer(serializers.Serializer):
    general = GeneralBriefSerializer()
    record = RecordSerializer()
    recent_battles = RecentBattleSerializer(many=True, help_text="The latest decided battles, latest first.")


class VersusBattleSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    event = EventBriefSerializer()
    where = serializers.SerializerMethodField(help_text="The group or season.")
    round = serializers.IntegerField()
    playoff = serializers.BooleanField()
    general_a = GeneralBriefSerializer()
    general_b = GeneralBriefSerializer()
    result = serializers.SerializerMethodField(help_text="The result in words; null while not decided.")

    def get_where(self, battle) -> str:
        return _where(battle)

    def get_result(self, battle) -> str | None:
        return battle.outcome_text() if battle.kind else None


class HeadToHeadSerializer(serializers.Serializer):
    general = GeneralBriefSerializer()
    other = GeneralBriefSerializer()
    general_figures = FiguresSerializer(help_text="The general's results against the other.")
    other_figures = FiguresSerializer(help_text="The other general's results against the general.")
    battles = VersusBattleSerializer(many=True, help_text="Every battle between them, decided or not, latest first.")
