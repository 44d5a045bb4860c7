"""The demo event and the public pages a player or a spectator opens."""
import pytest
from django.core.management import CommandError, call_command

from tournaments.demo import DEMO_EVENT_SLUG, load_demo
from tournaments.events import services
from tournaments.models import Event, Group, Report
from tournaments.standings import tables

from .helpers import make_tournament

pytestmark = pytest.mark.django_db


def test_the_demo_is_a_real_event_half_played(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        event = load_demo()
    assert event.state == Event.State.QUALIFYING
    groups = list(event.groups.filter(stage=Group.Stage.QUALIFYING))
    assert [g.members.count() for g in groups] == [4, 4]
    decided = event.battles.exclude(kind="").count()
    assert 0 < decided < event.battles.count()
    assert load_demo().pk == event.pk and Event.objects.filter(slug=DEMO_EVENT_SLUG).count() == 1
    reports = {r.battle.number: r for r in Report.objects.filter(battle__event=event)}
    # The engine agreed, yet the report waits for the opponent, with the time left shown.
    assert reports[4].status == Report.Status.CHECKED and reports[4].adjudication.agrees
    assert reports[4].confirm_by is not None and not reports[4].battle.kind
    assert reports[5].status == Report.Status.DISPUTED and "the replay gives" in reports[5].status_reason


def test_event_page_shows_standings_with_every_tiebreak_column_and_the_crosstable(client):
    event = load_demo()
    page = client.get(f"/events/{event.slug}/").content.decode()
    for heading in ("Group A", "Group B", "Crosstable", "Round 1"):
        assert heading in page
    for label in ("Victories by Shackle", "Victories by Crush", "Victories by Paralyze", "Victories by Blunt",
                  "Defeats by Stalemate", "Defeats by Resolve"):
        assert f'title="{label}"' in page
    table = tables.group_standings(event.groups.get(index=0))
    leader = table.generals[table.rows[0].general]
    assert page.index(leader.name) < page.index("Crosstable")
    assert str(event.group_seed) in page  # the draw's seed is shown to everyone


def test_shared_places_and_disqualification_are_marked(client):
    event, generals = make_tournament(4)
    services.form_groups(event, 2, "random", seed=1)
    services.disqualify(event, generals[0], reason="conduct", details="Threw dice at the judge")
    page = client.get(f"/events/{event.slug}/").content.decode()
    assert "DQ" in page and "Threw dice at the judge" in page


def test_registration_page_warns_about_the_odd_number_rule(client):
    event, generals = make_tournament(5)
    page = client.get(f"/events/{event.slug}/").content.decode()
    assert f"{generals[-1].name} (registered last) is eliminated" in page


def test_general_page_lists_their_battles(client):
    event = load_demo()
    battle = event.battles.exclude(kind="").first()
    page = client.get(f"/generals/{battle.general_a.pk}/").content.decode()
    assert battle.general_b.name in page and battle.outcome_text() in page


def test_unknown_event_is_a_404(client):
    assert client.get("/events/no-such-event/").status_code == 404


def test_organizer_commands_print_the_refusal_sentence():
    event, _ = make_tournament(8, slug="cli-open")
    with pytest.raises(CommandError, match="8 generals can form 2 groups of 4 or 4 groups of 2"):
        call_command("event_form_groups", "cli-open", "--groups", "3")
    call_command("event_form_groups", "cli-open", "--groups", "2", "--seed", "5")
    event.refresh_from_db()
    assert event.state == Event.State.QUALIFYING and event.group_seed == 5


def test_a_finished_event_shows_its_victor_and_final_group(client):
    from .helpers import play_group_strongest_wins

    event, generals = make_tournament(4, slug="finished")
    services.form_groups(event, 2, "random", seed=4)
    strength = [g.pk for g in generals]
    for group in event.groups.all():
        play_group_strongest_wins(group, strength)
    final = event.groups.get(stage=Group.Stage.FINAL)
    play_group_strongest_wins(final, strength)
    page = client.get(f"/events/{event.slug}/").content.decode()
    assert f"Victor: <strong>{generals[0].name}</strong>" in page
    assert page.index("Final Group") < page.index("Group A")
    assert f"{generals[0].name} is the Victor" in page


def test_the_demo_report_keeps_waiting_with_its_countdown_a_day_later(client, django_capture_on_commit_callbacks):
    """The demo loads once: its waiting report must not confirm itself 30 minutes later."""
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.results import confirmation

    with django_capture_on_commit_callbacks(execute=True):
        event = load_demo()
    waiting = Report.objects.get(battle__event=event, status=Report.Status.CHECKED)
    assert waiting.confirm_by - waiting.created_at >= timedelta(days=7)
    assert confirmation.confirm_expired(now=timezone.now() + timedelta(days=1)) == []  # nothing counts by itself yet
    opponent = waiting.battle.opponent_of(waiting.battle.winner or waiting.winner)
    client.force_login(opponent.user)
    page = client.get(f"/battles/{waiting.battle_id}/").content.decode()
    assert "Counts by itself in" in page and "Confirm this result" in page
    public = client.__class__().get(f"/battles/{waiting.battle_id}/").content.decode()
    assert "a report is waiting for confirmation" in public


def test_event_register_refuses_a_name_of_an_existing_general_unless_told():
    import io

    from tournaments.models import General

    event, _ = make_tournament(0, slug="cli-open")
    goran = General.objects.create(name="Goran Golub")
    with pytest.raises(CommandError, match=rf"Goran Golub \(id {goran.pk}\).*--general-id.*--create-new"):
        call_command("event_register", "cli-open", "goran  golub", "Hana Horvat", stdout=io.StringIO())
    assert not event.registrations.exists() and not General.objects.filter(name="Hana Horvat").exists()
    out = io.StringIO()
    call_command("event_register", "cli-open", "--general-id", str(goran.pk), "Hana Horvat", stdout=out)
    assert out.getvalue().splitlines() == ["1. Goran Golub", "2. Hana Horvat"]
    call_command("event_register", "cli-open", "GORAN GOLUB", "--create-new", stdout=io.StringIO())
    assert General.objects.filter(name_key=goran.name_key).count() == 2
    assert event.registrations.count() == 3
