"""A Python client generated from the served schema with openapi-python-client (as API users do), left
as generated, runs a Warlord CCG Swiss event with deck lists from registration to its winner: the game's
list check, the card pool, lists submitted and one accepted despite its violation, two Swiss rounds
reported with their facts and confirmed by the opponents, the standings and the victor. The client
raises on any status the schema does not document."""
import pytest

from tests.api.test_generated_client import (  # noqa: F401  (generated_client: the fixture)
    call,
    four_players_signing_in,
    generated_client,
)
from tests.game_systems.examples.warlord_ccg import POOL_CSV, example

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_generated_client_runs_a_warlord_swiss_event_with_lists_to_its_winner(
        generated_client, live_server):  # noqa: F811  (the fixture imported above)
    from warline_client.models import (
        Error,
        EventRequest,
        FormatEnum,
        GameEnum,
        JoinInputRequest,
        ListAcceptInputRequest,
        ListCheckInputRequest,
        ListCheckInputRequestList,
        ListPoolInputRequest,
        ListSubmitInputRequest,
        ListSubmitInputRequestList,
        ListVersionStatusEnum,
        ReportedKindEnum,
        ReportInputRequest,
        ReportInputRequestFacts,
        ReportStatusEnum,
    )

    players, anonymous, signed_in = four_players_signing_in(live_server)

    # The game as a client discovers it, and a deck checked before any event exists (spec example C04).
    game = call("games.v1_games_retrieve", client=anonymous, slug="warlord-ccg-4e")
    assert [kind.key for kind in game.result_kinds] == ["victory", "draw", "forfeit"]
    checked = call("games.v1_games_check_create", client=anonymous, slug="warlord-ccg-4e", body=ListCheckInputRequest(
        list_=ListCheckInputRequestList.from_dict(example("C04")["list"]), pool=POOL_CSV))
    assert not isinstance(checked, Error), checked
    assert not checked.valid and [v.code for v in checked.violations] == ["WCCG-D01"]

    boss = signed_in("boss", "boss-password-1")
    event = call("events.v1_events_create", client=boss, body=EventRequest(
        name="Storm Cup", slug="storm-cup", game=GameEnum.WARLORD_CCG_4E, format_=FormatEnum.SWISS, swiss_rounds=2,
        published=True))
    assert not isinstance(event, Error), event
    assert event.game == GameEnum.WARLORD_CCG_4E and event.scoring.win == 3
    pool = call("lists.v1_events_list_pool_update", client=boss, slug="storm-cup", body=ListPoolInputRequest(csv=POOL_CSV))
    assert not isinstance(pool, Error), pool
    assert pool.label == "card pool" and pool.entries > 0

    clients = {}
    for name, general in players.items():
        clients[general.pk] = player = signed_in(general.user.username, f"{name}-password-1")
        assert not isinstance(call("events.v1_events_join_create", client=player, slug="storm-cup",
                                   body=JoinInputRequest()), Error)
        cards = example("C04" if name == "Dov" else "C01")["list"]
        version = call("lists.v1_events_lists_create", client=player, slug="storm-cup",
                       body=ListSubmitInputRequest(list_=ListSubmitInputRequestList.from_dict(cards)))
        assert not isinstance(version, Error), version
        assert version.version == 1
    dov = players["Dov"]
    accepted = call("lists.v1_events_lists_accept_create", client=boss, slug="storm-cup", body=ListAcceptInputRequest(
        general=dov.pk, version=1, reason="Printed errata: the card's own text allows it."))
    assert not isinstance(accepted, Error), accepted
    assert accepted.status == ListVersionStatusEnum.ACCEPTED
    lists = call("lists.v1_events_lists_retrieve", client=boss, slug="storm-cup")
    assert sorted(row.list_.status.value for row in lists.lists) == ["accepted", "valid", "valid", "valid"]
    not_yours = call("lists.v1_events_lists_versions_list", client=clients[players["Ada"].pk], slug="storm-cup",
                     general_id=dov.pk)
    assert isinstance(not_yours, Error) and not_yours.code == "permission_denied"

    closed = call("events.v1_events_close_registration_create", client=boss, slug="storm-cup")
    assert not isinstance(closed, Error) and closed.eliminated is None

    def play_round(number):
        paired = call("swiss.v1_events_swiss_pair_create", client=boss, slug="storm-cup")
        assert not isinstance(paired, Error), paired
        assert paired.number == number and len(paired.battles) == 2 and paired.bye is None
        for battle in paired.battles:
            winner, loser = battle.general_a, battle.general_b
            report = call("battles.v1_battles_reports_create", client=clients[winner.id], id=battle.id,
                          body=ReportInputRequest(kind=ReportedKindEnum.VICTORY, winner=winner.id,
                                                  facts=ReportInputRequestFacts.from_dict(
                                                      {"status": "finished", "turns": 6})))
            assert not isinstance(report, Error), report
            assert report.status == ReportStatusEnum.AWAITING_OPPONENT
            confirmed = call("reports.v1_reports_confirm_create", client=clients[loser.id], id=report.id)
            assert not isinstance(confirmed, Error), confirmed
            assert confirmed.status == ReportStatusEnum.CONFIRMED
        return paired

    play_round(1)
    final = play_round(2)
    standings = call("swiss.v1_events_swiss_retrieve", client=anonymous, slug="storm-cup")
    assert not isinstance(standings, Error), standings
    top = standings.standings.lines[0]
    assert (top.rank, top.wins, top.score) == (1, 2, 6)
    assert [t.key for t in top.tie_breaks] == ["omw", "sos", "h2h"]
    # The two who won round 1 met in round 2 (Swiss pairs equal scores): its winner won the event.
    assert top.general.id in {final.battles[0].general_a.id, final.battles[1].general_a.id}
    assert standings.victor is not None and standings.victor.id == top.general.id
    assert "over" in standings.next_round_refusal  # no third round
    done = call("events.v1_events_retrieve", client=anonymous, slug="storm-cup")
    assert done.state.value == "complete" and done.victor.id == top.general.id
