"""The rating list page /ratings/ and `GET /api/v1/ratings/`, the rating fields of a general in the
API, the rating and its history on a general's profile (an SVG chart and the same figures as a table),
the organizer's "Rated event" choice on the details page and in the API (fixed once the event
starts), and, in real Chromium, the list and the profile on a phone with no serious axe violation."""
import re
from datetime import timedelta
from pathlib import Path

import axe_playwright_python
import pytest
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.utils import timezone

from tests.api.conftest import as_user
from tests.web.conftest import ARTIFACTS
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.leagues import seasons
from tournaments.models import Battle, Event, General
from tournaments.ratings import queries
from tournaments.ratings.chart import LEFT, RIGHT, WIDTH, rating_chart
from tournaments.ratings.recompute import recompute_all
from tournaments.results import recording

AXE_SCRIPT = Path(axe_playwright_python.__file__).with_name("axe.min.js")


def rated_league(slug="pier", rated=True):
    event = services.create_event(name=slug.title(), slug=slug, kind=Event.Kind.LEAGUE, rated=rated,
                                  pair_battles_per_season=20)
    generals = [General.objects.create(name=name) for name in ("Ada Lovelace", "Bo Brand", "Cy Young", "Dee Old")]
    for general in generals:
        services.register(event, general)
    return event, seasons.open_season(event, "Season 1"), generals


def win(season, winner, loser, *, days_ago=0):
    battle = seasons.schedule_battle(season, winner, loser)
    recording.record_result(battle, kind="victory", winner=winner, condition="shackle")
    when = timezone.now() - timedelta(days=days_ago)
    Battle.objects.filter(pk=battle.pk).update(decided_at=when, first_decided_at=when)


@pytest.fixture
def ratings_on_record(db):
    """Ada beat Bo and Cy in the last weeks; Dee's one Victory over Bo was a year ago."""
    event, season, (ada, bo, cy, dee) = rated_league()
    win(season, dee, bo, days_ago=400)
    win(season, ada, bo, days_ago=14)
    win(season, ada, cy, days_ago=7)
    recompute_all()
    return event, {general.name.split()[0]: general for general in (ada, bo, cy, dee)}


@pytest.mark.django_db
def test_the_rating_list_shows_rank_rating_deviation_and_battles(client, ratings_on_record):
    _, generals = ratings_on_record
    listed = {entry.general.pk: entry for entry in queries.rating_list()}
    body = client.get("/ratings/").content.decode()
    ada = listed[generals["Ada"].pk].rating
    row = re.search(r"<tr>\s*<td class=\"num\">1</td>.*?</tr>", body, re.S).group(0)
    assert f'href="/generals/{generals["Ada"].pk}/"' in row and ">Ada Lovelace<" in row
    assert f"<strong>{ada.rating:.0f}</strong>" in row and f">{ada.deviation_now:.0f}<" in row
    assert "provisional" in row  # two rated battles: deviation far above 110
    assert '<td class="num">2</td>' in row  # battles
    assert body.count("<tr>") == 1 + 4  # the header and the four rated generals
    assert "4 rated generals." in body


@pytest.mark.django_db
def test_the_list_filters_by_activity_and_name(client, ratings_on_record):
    body = client.get("/ratings/", {"active": "3"}).content.decode()
    assert "Ada Lovelace" in body and "Cy Young" in body and "Dee Old" not in body  # Dee: a year ago
    assert "3 rated generals match the filter." in body
    body = client.get("/ratings/", {"active": "", "q": "dee"}).content.decode()
    assert "Dee Old" in body and "Ada Lovelace" not in body
    body = client.get("/ratings/", {"active": "12", "q": "dee"}).content.decode()
    assert "No rated general matches the filter." in body


@pytest.mark.django_db
def test_a_made_up_filter_is_a_400_that_says_why(client, ratings_on_record):
    response = client.get("/ratings/", {"active": "5"})
    assert response.status_code == 400
    assert "Active in the last: Select a valid choice. 5 is not one of the available choices." in response.content.decode()


@pytest.mark.django_db
def test_nobody_rated_yet_says_so(client):
    assert "Nobody is rated yet" in client.get("/ratings/").content.decode()


@pytest.mark.django_db
def test_the_api_lists_the_same_numbers_with_the_same_filters(ratings_on_record):
    _, generals = ratings_on_record
    answer = as_user().get("/api/v1/ratings/").json()
    assert answer["count"] == 4
    first = answer["results"][0]
    ada = queries.rating_of(generals["Ada"])
    assert first["rank"] == 1 and first["general"] == {"id": generals["Ada"].pk, "name": "Ada Lovelace"}
    assert (first["rating"], first["deviation"]) == (round(ada.rating, 2), round(ada.deviation_now, 2))
    assert first["provisional"] is True and first["battles"] == 2 and first["last_played"] == ada.period.isoformat()
    recent = as_user().get("/api/v1/ratings/", {"active_months": 3}).json()
    assert {entry["general"]["name"] for entry in recent["results"]} == {"Ada Lovelace", "Bo Brand", "Cy Young"}
    assert as_user().get("/api/v1/ratings/", {"search": "CY"}).json()["count"] == 1


@pytest.mark.django_db
def test_the_api_refuses_a_made_up_filter_with_the_field():
    response = as_user().get("/api/v1/ratings/", {"active_months": "soon"})
    assert response.status_code == 400
    assert "active_months" in response.json()["fields"]


@pytest.mark.django_db
def test_a_general_in_the_api_carries_the_rating(ratings_on_record):
    _, generals = ratings_on_record
    ada = queries.rating_of(generals["Ada"])
    one = as_user().get(f"/api/v1/generals/{generals['Ada'].pk}/").json()
    assert (one["rating"], one["deviation"], one["provisional"]) == (
        round(ada.rating, 2), round(ada.deviation_now, 2), True)
    unrated = General.objects.create(name="Eve New")
    listed = {g["name"]: g for g in as_user().get("/api/v1/generals/", {"page_size": 100}).json()["results"]}
    assert listed["Ada Lovelace"]["rating"] == round(ada.rating, 2)
    assert (listed[unrated.name]["rating"], listed[unrated.name]["provisional"]) == (None, None)


@pytest.mark.django_db
def test_the_profile_shows_the_rating_in_words_a_chart_and_the_same_figures_as_a_table(ratings_on_record):
    _, generals = ratings_on_record
    ada = generals["Ada"]
    rating, history = queries.rating_of(ada), queries.history_of(ada)
    html = render_to_string("tournaments/partials/rating_history.html", {"rating": rating, "rating_history": history})
    assert f"<strong>{rating.rating:.0f}</strong> ± {rating.deviation_now:.0f}" in html
    assert f"between {rating.low:.0f} and {rating.high:.0f}" in html and "provisional" in html
    svg = re.search(r"<svg[^>]*>", html).group(0)
    assert 'role="img"' in svg and 'aria-labelledby="rating-chart-title"' in svg
    assert "style=" not in html and "<script" not in html  # the CSP allows neither
    assert html.count("<circle") == len(history) == 2
    assert "<caption" in html and html.count('<th scope="row">') == 2 and '<th scope="col"' in html
    for point in history:
        assert f'<td class="num">{point.rating:.0f}</td>' in html
    unrated = render_to_string("tournaments/partials/rating_history.html", {"rating": None, "rating_history": []})
    assert "Not rated yet" in unrated and "<svg" not in unrated


def test_the_chart_puts_the_first_week_left_the_last_right_and_a_higher_rating_higher():
    from datetime import date

    chart = rating_chart([(date(2026, 1, 5), 1500.0, 300.0), (date(2026, 1, 19), 1700.0, 200.0),
                          (date(2026, 2, 2), 1600.0, 150.0)])
    xs, ys = [dot.x for dot in chart.dots], [dot.y for dot in chart.dots]
    assert xs == [LEFT, (LEFT + WIDTH - RIGHT) / 2, WIDTH - RIGHT]  # weeks spaced by time
    assert ys[1] < ys[2] < ys[0]  # 1700 above 1600 above 1500
    assert chart.line.startswith(f"M{LEFT},") and chart.line.count("L") == 2 and chart.band.endswith("Z")
    assert [tick.label for tick in chart.x_ticks] == ["5 Jan 2026", "2 Feb 2026"]
    values = [int(tick.label) for tick in chart.y_ticks]
    assert values[0] <= 1200 and values[-1] >= 1900  # the band (rating +/- deviation) fits
    single = rating_chart([(date(2026, 1, 5), 1662.3, 290.3)])
    assert single.dots[0].x == (LEFT + WIDTH - RIGHT) / 2 and len(single.x_ticks) == 1
    assert rating_chart([]) is None


@pytest.mark.django_db
def test_the_organizer_marks_an_event_rated_before_it_starts(client):
    User = get_user_model()
    olga = grant_organizer_role(User.objects.create_user("olga", password="pw"))
    event = services.create_event(name="Spring Open", slug="spring", actor=olga)
    client.force_login(olga)
    page = client.get("/events/spring/details/").content.decode()
    assert 'name="rated"' in page and "Rated event" in page
    fields = {"name": "Spring Open", "time_zone": "UTC", "rated": "on"}
    assert client.post("/events/spring/details/", fields).status_code == 302
    event.refresh_from_db()
    assert event.rated and event.audit_entries.filter(action="rules changed").exists()

    league = services.create_event(name="Pier", slug="pier", kind=Event.Kind.LEAGUE, actor=olga, rated=True)
    seasons.open_season(league, "Season 1", actor=olga)
    page = client.get("/events/pier/details/").content.decode()
    assert re.search(r'<input type="checkbox" name="rated"[^>]*disabled', page)
    assert "Fixed: the event has started" in page
    client.post("/events/pier/details/", {"name": "Pier", "time_zone": "UTC"})  # the box is not sent: unticked
    league.refresh_from_db()
    assert league.rated  # a disabled field keeps its value


@pytest.mark.django_db
def test_the_api_sets_rated_until_the_event_starts(harbour):
    event, olga = harbour
    api = as_user(olga)
    answer = api.patch("/api/v1/events/harbour/", {"rated": True}, format="json")
    assert answer.status_code == 200 and answer.json()["rated"] is True
    league = services.create_event(name="Pier", slug="pier", kind=Event.Kind.LEAGUE, actor=olga)
    seasons.open_season(league, "Season 1", actor=olga)
    refused = api.patch("/api/v1/events/pier/", {"rated": True}, format="json")
    assert refused.status_code == 409 and "whether it is rated (R98)" in refused.json()["detail"]
    assert not Event.objects.get(slug="pier").rated


@pytest.mark.browser
def test_the_rating_list_and_a_profile_read_on_a_phone_with_no_serious_axe_violation(live_server, browser):
    _, season, (ada, bo, cy, dee) = rated_league()
    win(season, ada, bo, days_ago=21)
    win(season, ada, cy, days_ago=14)
    win(season, cy, dee, days_ago=7)
    recompute_all()
    General.objects.filter(pk=bo.pk).update(name="Bartholomew Featherstonehaugh-Montgomery the Younger")
    problems = []
    ARTIFACTS.mkdir(exist_ok=True)
    for width in (390, 1280):
        context = browser.new_context(viewport={"width": width, "height": 844})
        context.add_init_script(path=str(AXE_SCRIPT))
        page = context.new_page()
        for name, path in (("list", "/ratings/"), ("filtered", "/ratings/?active=3&q=a"),
                           ("profile", f"/generals/{ada.pk}/")):
            page.goto(live_server.url + path)
            page.screenshot(path=str(ARTIFACTS / f"ratings-{name}-{width}.png"), full_page=True)
            results = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
            problems += [(width, path, v["id"]) for v in results["violations"] if v["impact"] in ("serious", "critical")]
            page_width = page.evaluate("document.documentElement.scrollWidth")
            if page_width > width:
                problems.append((width, path, f"the page is {page_width} px wide"))
        page.goto(live_server.url + f"/generals/{ada.pk}/")
        chart = page.locator("figure.rating-chart svg").bounding_box()
        assert chart and chart["width"] <= width and chart["height"] > 80, chart
        context.close()
    assert not problems, problems
