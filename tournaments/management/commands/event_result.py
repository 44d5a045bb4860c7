from django.core.management.base import CommandError

from tournaments import audit
from tournaments.management.organizer import OrganizerCommand, find_general
from tournaments.models import Battle
from tournaments.results import recording


class Command(OrganizerCommand):
    help = "Records or corrects a battle's result (OPP follow from the outcome, R21-R23)."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("battle", type=int, help="the battle's id (see event_standings --schedule)")
        outcome = parser.add_mutually_exclusive_group(required=True)
        outcome.add_argument("--victory", metavar="WINNER")
        outcome.add_argument("--stalemate", action="store_true")
        outcome.add_argument("--resolve", action="store_true")
        outcome.add_argument("--forfeit", metavar="FORFEITED_BY")
        parser.add_argument("--condition", choices=Battle.Condition.values)
        parser.add_argument("--player-1", dest="player_1", help="who was Player-1 at the table")
        parser.add_argument("--reason", default="", help="required when correcting a result")

    def run(self, event, actor, battle, victory, stalemate, resolve, forfeit, condition, player_1, reason,
            **options):
        found = event.battles.filter(pk=battle).first()
        if found is None:
            raise CommandError(f"{event.name} has no battle {battle}.")
        result = {"kind": Battle.Kind.STALEMATE if stalemate else Battle.Kind.RESOLVE if resolve else
                  Battle.Kind.FORFEIT if forfeit else Battle.Kind.VICTORY}
        if victory:
            result.update(winner=find_general(event, victory), condition=condition or "")
        if forfeit:
            result["forfeited_by"] = find_general(event, forfeit)
        if player_1:
            result["player_1"] = find_general(event, player_1)
        recorded = recording.record_result(found, actor=actor, reason=reason, **result)
        self.stdout.write(f"{audit.battle_subject(recorded.battle)}: {recorded.battle.outcome_text()}")
        if recorded.offer_disqualification:
            self.stdout.write(f"{recorded.offer_disqualification.name} has reached the forfeit limit: "
                              f"disqualify with `event_disqualify {event.slug} "
                              f"\"{recorded.offer_disqualification.name}\" --reason forfeits`.")
