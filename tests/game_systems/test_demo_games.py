"""The demo shows all three games: the Warlord CCG Open (a pool, six checked decks, one accepted despite
its violations, two Swiss rounds counted, the third to pair) and the Reaper Skirmish (a model list and
two checked armies, registration open)."""
import pytest

from tournaments.demo import DEMO_CCG_SLUG, DEMO_REAPER_SLUG, load_demo
from tournaments.lists import services as lists
from tournaments.models import Event, SwissRound
from tournaments.swiss import rounds

pytestmark = pytest.mark.django_db


def test_the_demo_runs_a_warlord_ccg_swiss_event_with_decks_and_a_reaper_event_with_armies(client):
    load_demo()
    ccg = Event.objects.get(slug=DEMO_CCG_SLUG)
    assert (ccg.game, ccg.format, ccg.state) == ("warlord-ccg-4e", "swiss", Event.State.QUALIFYING)
    assert SwissRound.objects.filter(event=ccg).count() == 2 and not ccg.battles.filter(kind="").exists()
    assert rounds.pairing_refusal(ccg) is None  # the third round waits for the organizer
    decks = {registration.general.name: version for registration, version in lists.event_lists(ccg)}
    assert len(decks) == 6 and ccg.list_pool
    invalid = [version for version in decks.values() if version.violations]
    assert len(invalid) == 1 and invalid[0].status == "accepted"
    assert {v["code"] for v in invalid[0].violations} == {"WCCG-D02", "WCCG-D04"}
    page = client.get(f"/events/{DEMO_CCG_SLUG}/").content.decode()
    assert "Swiss round 2" in page and "Opponents&#x27; win rate" in page

    reaper = Event.objects.get(slug=DEMO_REAPER_SLUG)
    assert (reaper.game, reaper.state) == ("reaper-warlord", Event.State.REGISTRATION)
    armies = [version for _registration, version in lists.event_lists(reaper)]
    assert len(armies) == 2 and all(version.status == "valid" for version in armies)
    assert client.get(f"/events/{DEMO_REAPER_SLUG}/lists/").status_code == 200
