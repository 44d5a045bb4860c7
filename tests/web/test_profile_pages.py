"""The players' pages: the directory with its search and pages, a general's profile (record, events with
places, recent battles with replay links, head to head), the versus page, and the player's own links."""
import pytest
from django.contrib.auth import get_user_model
from django.template import TemplateDoesNotExist
from django.template.loader import get_template

from tests.tournaments.worked_profiles import battle_of, build
from tournaments.models import Battle, General, Report

pytestmark = pytest.mark.django_db
RATING_PARTIAL = "tournaments/partials/rating_history.html"


@pytest.fixture(autouse=True)
def rating_partial(settings):
    """The rating partial comes with the ratings; where it is not there yet, an empty stand-in."""
    try:
        get_template(RATING_PARTIAL)
        return
    except TemplateDoesNotExist:
        pass
    engine = settings.TEMPLATES[0]
    settings.TEMPLATES = [{**engine, "APP_DIRS": False, "OPTIONS": {**engine["OPTIONS"], "loaders": [
        ("django.template.loaders.locmem.Loader", {RATING_PARTIAL: ""}),
        "django.template.loaders.filesystem.Loader", "django.template.loaders.app_directories.Loader"]}}]


@pytest.fixture
def worked():
    return build()


def page(client, path):
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return response.content.decode()


def test_the_profile_shows_the_record_events_and_places_a_player_would_check(client, worked):
    alice = worked.generals["Alice"]
    html = page(client, f"/generals/{alice.pk}/")
    assert "<caption" in html and 'scope="row"' in html and 'scope="col"' in html
    assert '<th scope="row">Battles fought</th><td>3</td>' in html
    assert '<th scope="row">Victories by Shackle</th><td>1</td>' in html
    assert '<th scope="row">Stalemates</th><td>1</td>' in html
    assert '<th scope="row">Forfeits received</th><td>1</td>' in html
    assert "Spring Open</a></th>" in html and "2 in Final Group" in html
    assert "Secret Cup" not in html  # unpublished: not for a stranger
    assert "Emil wins by Blunt" in html  # the latest result
    assert f'href="/generals/{alice.pk}/versus/{worked.generals["Chen"].pk}/"' in html
    assert "Email notifications and API tokens" not in html


def test_the_organizer_of_the_unpublished_event_sees_it_on_the_profile(client, worked):
    client.force_login(worked.olga)
    html = page(client, f"/generals/{worked.generals['Alice'].pk}/")
    assert "Secret Cup" in html and "1 in Group A" in html and "(so far)" in html
    assert '<th scope="row">Victories by Paralyze</th><td>1</td>' in html


def test_the_players_own_profile_links_their_battles_notifications_and_tokens(client, worked):
    client.force_login(worked.alice_user)
    html = page(client, f"/generals/{worked.generals['Alice'].pk}/")
    assert 'href="/my/battles/"' in html and 'href="/my/notifications/"' in html
    assert "This is your general" in html
    other = page(client, f"/generals/{worked.generals['Bruno'].pk}/")
    assert "This is your general" not in other


def test_a_replay_link_is_shown_to_the_battles_generals_only(client, worked):
    g = worked.generals
    battle = battle_of(worked.spring, g["Alice"], g["Bruno"])
    Report.objects.create(battle=battle, kind=Battle.Kind.VICTORY, winner=g["Alice"], condition="shackle",
                          replay="(a replay log)", status=Report.Status.CONFIRMED)
    link = f'href="/battles/{battle.pk}/replay/"'
    assert link not in page(client, f"/generals/{g['Alice'].pk}/")
    client.force_login(get_user_model().objects.create_user("sam"))
    assert link not in page(client, f"/generals/{g['Alice'].pk}/")
    client.force_login(worked.alice_user)
    assert link in page(client, f"/generals/{g['Alice'].pk}/")


def test_the_directory_searches_pages_and_links(client, worked):
    html = page(client, "/")
    assert 'href="/generals/"' in html and ">Players</a>" in html  # in the header
    html = page(client, "/generals/")
    assert "8 generals." in html and f'href="/generals/{worked.generals["Alice"].pk}/"' in html
    html = page(client, "/generals/?q=+EM+il")
    assert "1 general matches" in html and ">Emil</a>" in html and ">Alice</a>" not in html
    General.objects.bulk_create([General(name=f"Recruit {n:02}", name_key=f"recruit{n:02}") for n in range(30)])
    first = page(client, "/generals/?q=recruit")
    assert "Recruit 24" in first and "Recruit 25" not in first and "page=2" in first and "Page 1 of 2" in first
    second = page(client, "/generals/?q=recruit&page=2")
    assert "Recruit 25" in second and "Recruit 24" not in second
    assert "Page 1 of 2" in page(client, "/generals/?q=recruit&page=-3")  # nonsense: the first page
    assert "No general matches" in page(client, "/generals/?q=nobody")


def test_the_directory_counts_only_events_the_viewer_may_see(client, worked):
    import re

    def played(html):
        return re.search(r'>Alice</a></th><td>(\d+)</td>', html).group(1)

    assert played(page(client, "/generals/?q=alice")) == "1"
    client.force_login(worked.olga)
    assert played(page(client, "/generals/?q=alice")) == "2"


def test_versus_compares_two_generals(client, worked):
    g = worked.generals
    html = page(client, f"/generals/{g['Alice'].pk}/versus/{g['Dana'].pk}/")
    assert '<th scope="row">Forfeits given</th><td>0</td><td>1</td>' in html
    assert "Dana forfeits" in html
    html = page(client, f"/generals/{g['Alice'].pk}/versus/{g['Bruno'].pk}/")
    assert '<th scope="row">Victories</th><td>1</td><td>0</td>' in html and "Secret Cup" not in html
    assert "have not met" in page(client, f"/generals/{g['Alice'].pk}/versus/{g['Hana'].pk}/")


def test_the_head_to_head_form_finds_the_other_general(client, worked):
    g = worked.generals
    response = client.get(f"/generals/{g['Alice'].pk}/versus/", {"q": " e MIL"})
    assert response.status_code == 302 and response["Location"] == f"/generals/{g['Alice'].pk}/versus/{g['Emil'].pk}/"
    General.objects.create(name="Emilia")
    html = page(client, f"/generals/{g['Alice'].pk}/versus/?q=emil")
    assert "Several generals match" in html and ">Emilia</a>" in html
    assert "No other general matches" in page(client, f"/generals/{g['Alice'].pk}/versus/?q=zzz")
    assert "No other general matches" in page(client, f"/generals/{g['Alice'].pk}/versus/?q=alice")


@pytest.mark.parametrize("path", ["/generals/999999/", "/generals/999999/versus/", "/generals/{alice}/versus/999999/",
                                  "/generals/999999/versus/{alice}/", "/generals/{alice}/versus/{alice}/"])
def test_unknown_generals_are_404(client, worked, path):
    assert client.get(path.format(alice=worked.generals["Alice"].pk)).status_code == 404


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_players_pages_read_on_a_phone_with_no_serious_axe_violation(browser, live_server):
    """390 px: nothing wider than the screen, and axe-core finds nothing serious or critical."""
    from tests.web.test_accessibility import AXE_SCRIPT

    worked = build()
    g = worked.generals
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(path=str(AXE_SCRIPT))
    tab = context.new_page()
    problems = []
    for path in ("/generals/", "/generals/?q=a", f"/generals/{g['Alice'].pk}/",
                 f"/generals/{g['Alice'].pk}/versus/{g['Dana'].pk}/", f"/generals/{g['Alice'].pk}/versus/?q=zz"):
        assert tab.goto(live_server.url + path).status == 200, path
        if tab.evaluate("document.documentElement.scrollWidth") > 390:
            problems.append(f"{path}: wider than the phone")
        results = tab.evaluate("axe.run(document, {resultTypes: ['violations']})")
        problems += [f"{path}: {v['id']} ({v['impact']})" for v in results["violations"]
                     if v["impact"] in ("serious", "critical")]
    context.close()
    assert problems == []
