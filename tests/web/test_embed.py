"""The standings widget other sites frame (/embed/events/<slug>/, docs/embeds.md) and the public API's
cross-origin reads, as the framing site, its visitors and the organizer meet them: which sites may frame
the widget (its CSP frame-ancestors; every other page still refuses all framing), what it shows without
JavaScript, the organizer's list of sites checked line by line on the details page and through the API,
and CORS for reads of public endpoints only, never for a write."""
import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.web.conftest import grouped_event
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.models import AuditEntry, Event, General, Registration
from tournaments.results import recording
from tournaments.swiss import rounds

pytestmark = pytest.mark.django_db

POLICY = "Content-Security-Policy"
ELSEWHERE = "https://club.example"


def directives(header):
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


def widget(client, slug="harbour-open", query=""):
    return client.get(f"/embed/events/{slug}/{query}")


@pytest.fixture
def event(organizer):
    """Olga's published Harbour Open, nobody registered yet."""
    return services.create_event(name="Harbour Open", slug="harbour-open", actor=organizer)


@pytest.fixture
def grouped(organizer):
    """Harbour Open with eight generals in two qualifying groups."""
    return grouped_event(organizer, name="Harbour Open", slug="harbour-open", seed=11)


def set_origins(event, text):
    Event.objects.filter(pk=event.pk).update(embed_origins=text)


# --- framing ---------------------------------------------------------------------------------------


def test_by_default_only_this_site_may_frame_the_widget(client, event):
    response = widget(client)
    assert response.status_code == 200
    assert "X-Frame-Options" not in response
    policy = directives(response[POLICY])
    assert policy["frame-ancestors"] == ["'self'"]
    # Only the framing rule differs from the site's policy: still no inline or foreign script.
    assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]


def test_the_sites_the_organizer_listed_may_frame_it_and_star_lets_any_site(client, event):
    set_origins(event, "https://club.example\nhttps://league.example:8443")
    assert directives(widget(client)[POLICY])["frame-ancestors"] == [
        "'self'", "https://club.example", "https://league.example:8443"]
    set_origins(event, "*")
    assert directives(widget(client)[POLICY])["frame-ancestors"] == ["*"]


def test_a_stored_value_that_is_no_origin_never_reaches_the_header(client, event):
    # Written past the checks (the admin, a raw update): the header keeps only the valid origins.
    set_origins(event, "https://club.example; script-src https://evil.example\nhttps://ok.example\n*.example")
    response = widget(client)
    assert directives(response[POLICY])["frame-ancestors"] == ["'self'", "https://ok.example"]
    assert directives(response[POLICY])["script-src"] == ["'self'"]


@pytest.mark.parametrize("url", ["/", "/events/harbour-open/", "/events/harbour-open/screen/", "/generals/",
                                 "/live/events/harbour-open/"])
def test_every_other_page_still_refuses_to_be_framed(client, event, url):
    set_origins(event, "*")
    response = client.get(url)
    assert response.status_code == 200
    assert response["X-Frame-Options"] == "DENY"
    assert directives(response[POLICY])["frame-ancestors"] == ["'none'"]


def test_an_unpublished_or_unknown_event_has_no_widget_even_for_its_organizer(event, organizer):
    services.change_details(event, actor=organizer, published=False)
    client = Client()
    client.force_login(organizer)
    assert client.get("/events/harbour-open/").status_code == 200  # the organizer sees the page itself
    assert widget(client).status_code == 404
    assert widget(Client()).status_code == 404
    assert widget(Client(), slug="no-such-event").status_code == 404


def test_the_widget_only_reads(client, event):
    assert client.post("/embed/events/harbour-open/").status_code == 405


# --- what it shows ---------------------------------------------------------------------------------


def test_without_javascript_the_widget_shows_the_tables_the_results_and_the_way_to_the_event(client, grouped,
                                                                                             organizer):
    event = grouped
    battle = event.battles.select_related("general_a", "general_b").order_by("group__index", "number").first()
    recording.record_result(battle, kind="victory", winner=battle.general_a, condition="shackle", actor=organizer)
    html = widget(client).content.decode()
    for group in event.groups.all():
        assert f">{group.name}</h3>" in html
    for name in ("Ada", "Ben", "Cyd", "Dov", "Eve", "Fox", "Gil", "Hal"):
        assert f'<th scope="row">{name}</th>' in html
    assert f"{battle.general_a.name} v {battle.general_b.name}: <strong>{battle.general_a.name} wins by Shackle" in html
    # The winner's row: 5 OPP (a Victory by Shackle, R21).
    assert f'<th scope="row">{battle.general_a.name}</th><td class="num opp">5</td>' in html
    assert 'href="http://testserver/events/harbour-open/" target="_blank" rel="noopener"' in html
    # Light and under the policy: no site header, no inline style or script; the live pages' script and its
    # words in the reader's language (Django's JavaScript catalog), both from this site.
    assert 'class="site-header"' not in html and "style=" not in html
    assert html.count("<script") == 2 and 'src="/static/js/live.js"' in html and 'src="/jsi18n/"' in html
    assert 'data-live="/live/events/harbour-open/"' in html
    assert 'data-live-page="/embed/events/harbour-open/"' in html


def test_show_chooses_the_standings_or_the_results_and_a_wrong_value_says_what_is_allowed(client, event):
    standings = widget(client, query="?show=standings").content.decode()
    assert 'id="embed-standings"' in standings and 'id="embed-results"' not in standings
    assert "The groups are not formed yet." in standings
    assert 'data-live-page="/embed/events/harbour-open/?show=standings"' in standings
    results = widget(client, query="?show=results").content.decode()
    assert 'id="embed-results"' in results and 'id="embed-standings"' not in results
    assert "No results yet." in results
    refused = widget(client, query="?show=everything")
    assert refused.status_code == 400
    assert "show=everything is not known: use show=standings, show=results" in refused.content.decode()
    assert "X-Frame-Options" not in refused  # the framing site shows the sentence, not a browser error


def test_a_swiss_event_shows_its_swiss_standings(client):
    olga = grant_organizer_role(get_user_model().objects.create_user("olga-swiss"))
    event = services.create_event(name="Storm Swiss", slug="storm-swiss", game="warlord-ccg-4e", actor=olga)
    for name in ("Ada", "Ben", "Cyd", "Dov"):
        general = General.objects.create(name=name, user=get_user_model().objects.create_user(name.lower()))
        services.register(event, general, actor=general.user)
    services.close_registration(event, actor=olga)
    swiss_round = rounds.pair_next_round(Event.objects.get(pk=event.pk), actor=olga)
    battle = swiss_round.battles.select_related("general_a").order_by("number").first()
    recording.record_result(battle, kind="victory", winner=battle.general_a, actor=olga)
    html = widget(client, slug="storm-swiss").content.decode()
    assert '<th scope="col">Player</th><th class="num" scope="col">Points</th>' in html
    assert f'<td class="num">1</td><th scope="row">{battle.general_a.name}</th><td class="num opp">3</td>' in html
    assert "The groups are not formed yet." not in html


# --- the organizer's list of sites -----------------------------------------------------------------


def api_as(user):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.parametrize("typed, sentence", [
    ("https://club.example\nhttps://club.example/standings",
     "Line 2 (https://club.example/standings): an origin has no path, query or fragment: write "
     "https://club.example."),
    ("club.example", "Line 1 (club.example): write the whole origin with its scheme, e.g. https://club.example."),
    ("https://*.club.example", "Line 1 (https://*.club.example): a wildcard is only a lone * on a line of its own"),
    ("http://club.example", "Line 1 (http://club.example): only https:// sites may frame the widget"),
    ("http://localhost:8000", "Line 1 (http://localhost:8000): only https:// sites may frame the widget"),
    ("https://club.example\n*", "Line 2 (*): * already lets every site show the widget"),
    ("https://club.example:99999", "Line 1 (https://club.example:99999): the port is not a number from 1 to 65535."),
])
def test_the_api_refuses_a_line_that_is_not_an_origin_and_names_it(event, organizer, typed, sentence):
    response = api_as(organizer).patch("/api/v1/events/harbour-open/", {"embed_origins": typed}, format="json")
    assert response.status_code == 400
    assert sentence in response.json()["fields"]["embed_origins"][0]
    assert response.json()["detail"].startswith("embed_origins: Line ")
    assert Event.objects.get(pk=event.pk).embed_origins == ""


def test_the_api_keeps_the_origins_tidied_and_audited(event, organizer):
    response = api_as(organizer).patch("/api/v1/events/harbour-open/", {
        "embed_origins": "  HTTPS://Club.Example/ \n\nhttps://club.example:443\nhttps://league.example:8443"},
        format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["embed_origins"] == "https://club.example\nhttps://league.example:8443"
    entry = AuditEntry.objects.filter(event=event, action="details changed").latest("pk")
    assert entry.after == {"embed_origins": "https://club.example\nhttps://league.example:8443"}
    assert directives(widget(Client())[POLICY])["frame-ancestors"] == [
        "'self'", "https://club.example", "https://league.example:8443"]


def test_plain_http_is_for_localhost_while_developing_only(event, organizer, settings):
    settings.DEBUG = True
    response = api_as(organizer).patch("/api/v1/events/harbour-open/", {"embed_origins": "http://localhost:8000"},
                                       format="json")
    assert response.status_code == 200
    refused = api_as(organizer).patch("/api/v1/events/harbour-open/", {"embed_origins": "http://club.example"},
                                      format="json")
    assert refused.status_code == 400


def test_only_an_organizer_changes_the_sites(event):
    stranger = get_user_model().objects.create_user("stranger")
    response = api_as(stranger).patch("/api/v1/events/harbour-open/", {"embed_origins": "*"}, format="json")
    assert response.status_code == 403
    assert Event.objects.get(pk=event.pk).embed_origins == ""


def details_form(event, **changes):
    fields = {"name": event.name, "description": event.description, "venue": event.venue,
              "time_zone": event.time_zone, "embed_origins": ""}
    return {**fields, **changes}


def test_the_details_page_refuses_a_bad_line_with_a_400_and_the_sentence(event, organizer):
    client = Client()
    client.force_login(organizer)
    response = client.post("/events/harbour-open/details/",
                           details_form(event, embed_origins="https://club.example\nclub.example/page"))
    assert response.status_code == 400
    assert "Line 2 (club.example/page): write the whole origin with its scheme" in response.content.decode()
    assert Event.objects.get(pk=event.pk).embed_origins == ""


def test_the_details_page_saves_the_sites_and_gives_the_code_to_paste(event, organizer):
    client = Client()
    client.force_login(organizer)
    response = client.post("/events/harbour-open/details/", details_form(event, embed_origins="https://club.example/"))
    assert response.status_code == 302
    assert Event.objects.get(pk=event.pk).embed_origins == "https://club.example"
    page = client.get("/events/harbour-open/details/").content.decode()
    assert "https://club.example</textarea>" in page
    assert ('&lt;iframe src=&quot;http://testserver/embed/events/harbour-open/&quot; '
            'title=&quot;Harbour Open: standings and results&quot;') in page


# --- CORS: public reads from any site, never a write -------------------------------------------------


@pytest.mark.parametrize("url", ["/api/v1/events/harbour-open/scoreboard/", "/api/v1/events/",
                                 "/api/v1/events/harbour-open/", "/api/v1/events/harbour-open/standings/",
                                 "/api/v1/generals/", "/api/v1/ratings/", "/api/schema/"])
def test_another_site_may_read_the_public_endpoints(client, event, url):
    response = client.get(url, HTTP_ORIGIN=ELSEWHERE)
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response


def test_the_scoreboard_read_from_another_site_exposes_its_etag_for_polling(client, event):
    response = client.get("/api/v1/events/harbour-open/scoreboard/", HTTP_ORIGIN=ELSEWHERE)
    assert "ETag" in response["Access-Control-Expose-Headers"]
    preflight = client.options("/api/v1/events/harbour-open/scoreboard/", HTTP_ORIGIN=ELSEWHERE,
                               HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
                               HTTP_ACCESS_CONTROL_REQUEST_HEADERS="if-none-match")
    assert preflight.status_code == 200
    assert "if-none-match" in preflight["Access-Control-Allow-Headers"]
    again = client.get("/api/v1/events/harbour-open/scoreboard/", HTTP_ORIGIN=ELSEWHERE,
                       HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304 and again["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize("method", ["POST", "PATCH", "PUT", "DELETE"])
def test_a_preflight_for_a_write_is_not_allowed_the_write(client, event, method):
    response = client.options("/api/v1/events/harbour-open/", HTTP_ORIGIN=ELSEWHERE,
                              HTTP_ACCESS_CONTROL_REQUEST_METHOD=method,
                              HTTP_ACCESS_CONTROL_REQUEST_HEADERS="content-type")
    allowed = [m.strip() for m in response.get("Access-Control-Allow-Methods", "").split(",")]
    assert method not in allowed and allowed == ["GET", "HEAD", "OPTIONS"]
    assert "content-type" not in response.get("Access-Control-Allow-Headers", "")


def test_no_token_client_can_be_driven_from_another_site(client, event):
    preflight = client.options("/api/v1/events/harbour-open/", HTTP_ORIGIN=ELSEWHERE,
                               HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
                               HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization")
    assert "authorization" not in preflight.get("Access-Control-Allow-Headers", "")


def test_a_simple_cross_origin_write_gets_no_cors_answer_and_csrf_refuses_it(event):
    """A form-encoded POST needs no preflight, so the browser sends it, with the session cookie when the
    cookie's SameSite allows: the CSRF check refuses it, and its answer carries no CORS header for the
    other site's script to read."""
    player = get_user_model().objects.create_user("walker", password="pw")
    General.objects.create(name="Walker", user=player)
    Event.objects.filter(pk=event.pk).update(state=Event.State.REGISTRATION)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    response = browser.post("/api/v1/events/harbour-open/join/", "x=1", content_type="text/plain",
                            HTTP_ORIGIN=ELSEWHERE)
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    assert "Access-Control-Allow-Origin" not in response
    assert not Registration.objects.filter(event=event, general__name="Walker").exists()
    # The same for a public endpoint's address: only reads get CORS headers.
    response = browser.post("/api/v1/events/", "x=1", content_type="text/plain", HTTP_ORIGIN=ELSEWHERE)
    assert response.status_code == 403 and "Access-Control-Allow-Origin" not in response


@pytest.mark.parametrize("url", ["/api/v1/me/", "/api/v1/events/harbour-open/audit/",
                                 "/api/v1/events/harbour-open/queue/", "/events/harbour-open/",
                                 "/live/events/harbour-open/", "/embed/events/harbour-open/"])
def test_private_endpoints_and_pages_are_not_open_to_other_sites(client, event, url):
    response = client.get(url, HTTP_ORIGIN=ELSEWHERE)
    assert "Access-Control-Allow-Origin" not in response
