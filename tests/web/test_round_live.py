"""The round page follows the round by itself (issue 24 item 1): after a general confirmed battle 12,
"Run the round" still listed it under "Confirmations waiting (2)" with its Accept button, and the click
answered "This report cannot be confirmed: it is confirmed." The page now polls its revision like the
other live pages (docs/live-pages.md), updates the counts and buttons of what changed, keeps a result
form the organizer opened or typed in, and works as before without JavaScript (a reload)."""
import pytest
from django.contrib.auth import get_user_model

from tests.web.conftest import ARTIFACTS, sign_in
from tests.web.test_round_page import build_event, first_round, report, win
from tournaments.models import Event, General
from tournaments.results import reporting

WAIT_MS = 15_000


@pytest.fixture
def event(db):
    return build_event()


def test_the_round_page_carries_its_revision_and_the_revision_follows_the_round(client, event):
    event, organizer = event
    battle = first_round(event)[1]
    created = report(battle, battle.general_a, kind="stalemate")
    client.force_login(organizer)
    page = client.get(f"/events/harbour-open/round/?group={battle.group_id}").content.decode()
    assert 'data-live="/live/events/harbour-open/round/"' in page
    # The page is fetched again with its selection, not as every group's current round.
    assert f'data-live-page="/events/harbour-open/round/?group={battle.group_id}"' in page
    assert "/static/js/live.js" in page

    first = client.get("/live/events/harbour-open/round/")
    assert first.status_code == 200 and first.json()["poll_ms"] == 1000
    etag = first["ETag"]
    assert client.get("/live/events/harbour-open/round/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    reporting.confirm_report(created, user=battle.general_b.user)  # the general confirms elsewhere
    changed = client.get("/live/events/harbour-open/round/", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_only_the_events_organizers_follow_the_round(client, event):
    event, organizer = event
    assert client.get("/live/events/harbour-open/round/").status_code == 401
    client.force_login(General.objects.get(name="Ada").user)
    assert client.get("/live/events/harbour-open/round/").status_code == 403
    client.force_login(get_user_model().objects.create_user("sam"))
    assert client.get("/live/events/harbour-open/round/").status_code == 403
    client.force_login(organizer)
    assert client.get("/live/events/no-such-event/round/").status_code == 404
    assert Event.objects.filter(slug="harbour-open").exists()


def test_a_refused_result_does_not_update_itself_and_a_stale_click_says_what_changed(client, event):
    event, organizer = event
    battle, other = first_round(event)[:2]
    client.force_login(organizer)
    refused = client.post("/events/harbour-open/round/", {"action": "record", "battle": battle.pk,
                                                          "kind": "stalemate", "winner": battle.general_a.pk})
    assert refused.status_code == 200 and "data-live=" not in refused.content.decode()
    created = report(other, other.general_a, **win(other, other.general_a))
    reporting.confirm_report(created, user=other.general_b.user)
    page = client.post("/events/harbour-open/round/", {"action": "accept_report", "report": created.pk},
                       follow=True).content.decode()
    assert "cannot be confirmed" in page
    assert f"Meanwhile, the battle was decided: {other.general_a.name} wins by Shackle." in page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_confirmation_elsewhere_updates_the_round_page_and_keeps_the_form_being_filled_in(live_server, browser):
    event, organizer = build_event(password="pw")
    open_form, confirmed, waiting, _ = first_round(event)
    confirmed_report = report(confirmed, confirmed.general_a, kind="stalemate")
    report(waiting, waiting.general_a, kind="resolve")

    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    sign_in(page, live_server.url, "olga")
    page.goto(f"{live_server.url}/events/harbour-open/round/")
    page.evaluate("window.notReloaded = true")
    confirmations = page.locator("#confirmations")
    assert "Confirmations waiting (2)" in confirmations.locator("h2").inner_text()
    # The organizer opens another battle's result form and starts typing.
    line = page.locator(f"#battle-{open_form.pk}")
    line.locator("summary").click()
    line.locator("textarea[name=reason]").fill("Judge saw the board at table 1")

    reporting.confirm_report(confirmed_report, user=confirmed.general_b.user)  # on the general's phone

    confirmations.locator("h2", has_text="Confirmations waiting (1)").wait_for(timeout=WAIT_MS)
    pair = f"{confirmed.general_a.name} v {confirmed.general_b.name}"
    assert pair not in confirmations.inner_text()  # no stale Accept button
    assert confirmations.locator("button", has_text="Accept the report").count() == 1
    counted = page.locator(f"#battle-{confirmed.pk}")
    assert counted.locator(".badge.state-counted").is_visible()
    assert counted.locator("button", has_text="Accept the report").count() == 0
    # The form being filled in is still open with what was typed; the page was not reloaded.
    assert line.locator("details").evaluate("details => details.open") is True
    assert line.locator("textarea[name=reason]").input_value() == "Judge saw the board at table 1"
    assert page.evaluate("window.notReloaded") is True

    # A report arrives for the battle whose form is open: its line says so and offers the Accept
    # button; the form is not replaced under the organizer's hands but says it changed.
    report(open_form, open_form.general_b, **win(open_form, open_form.general_b, "crush"))
    line.locator(".live-changed").wait_for(timeout=WAIT_MS)
    assert line.locator("button", has_text=f"Accept the report: {open_form.general_b.name} wins by Crush").is_visible()
    assert "Confirmations waiting (2)" in confirmations.locator("h2").inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "round-page-live-desktop.png"), full_page=True)
    line.get_by_role("button", name="Review the change").click()
    # The form now starts from the new report, with the typed reason kept.
    assert line.locator("select[name=kind]").input_value() == "victory"
    assert line.locator("select[name=condition]").input_value() == "crush"
    assert line.locator("textarea[name=reason]").input_value() == "Judge saw the board at table 1"
    assert line.locator(".live-changed").count() == 0
    assert page.evaluate("window.notReloaded") is True
