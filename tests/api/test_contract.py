"""The OpenAPI schema as a contract a generated client can rely on: separate request and response
components, JSON request bodies (multipart only where a file is taken), one error component with
the statuses answered, 401 with WWW-Authenticate, the replay as a JSON Schema that accepts and
refuses what the engine's reader does, and documentation pages that load nothing from elsewhere."""
import copy
import itertools
import json
import re
from pathlib import Path

import jsonschema
import pytest
from django.contrib.staticfiles import finders
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

import rules_engine
import rules_engine.model
from tournaments.api.replay_schema import standalone_schema

SHARED_REPLAYS = Path(__file__).resolve().parents[3] / "shared" / "examples" / "replays"
pytestmark = pytest.mark.django_db



def operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            yield path, method, operation


def test_request_and_response_components_are_separate(schema):
    components = schema["components"]["schemas"]
    event_request = components["EventRequest"]["properties"]
    assert not {"state", "status", "created_at", "id"} & set(event_request)
    assert {"state", "created_at"} <= set(components["Event"]["properties"])
    token = schema["paths"]["/api/v1/auth/token/"]["post"]
    assert token["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/Token")
    assert components["Token"]["required"] == ["token"]


def test_request_bodies_are_json_and_multipart_only_where_a_file_is_taken(schema):
    multipart = []
    for path, method, operation in operations(schema):
        if "requestBody" in operation:
            media = set(operation["requestBody"]["content"])
            assert media in ({"application/json"}, {"multipart/form-data"}), (path, method, media)
            if "multipart/form-data" in media:
                multipart.append(path)
    assert multipart == ["/api/v1/battles/{id}/reports/upload/"]
    upload = schema["components"]["schemas"]["ReportUploadRequest"]["properties"]["replay"]
    assert upload["format"] == "binary"


def test_one_error_component_for_every_refusal(schema):
    assert [name for name in schema["components"]["schemas"] if "rror" in name] == ["Error"]
    for path, method, operation in operations(schema):
        for status, answer in operation["responses"].items():
            if status.startswith("4") and status != "404" or status == "404":
                assert answer["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}, \
                    (path, method, status)
        assert "WWW-Authenticate" in operation["responses"]["401"]["headers"]
    writes = [op for _path, method, op in operations(schema) if method == "post"
              and op["operationId"] != "auth_token_create"]
    assert all({"400", "401", "403", "409"} <= set(op["responses"]) for op in writes)


def test_missing_or_wrong_credentials_are_401_with_www_authenticate():
    anonymous = APIClient().post("/api/v1/events/", {"name": "X", "slug": "x"}, format="json")
    assert anonymous.status_code == 401 and anonymous["WWW-Authenticate"] == "Token"
    forged = APIClient(HTTP_AUTHORIZATION="Token nope").get("/api/v1/battles/")
    assert forged.status_code == 401 and forged["WWW-Authenticate"] == "Token"
    assert forged.json()["code"] == "authentication_failed"


# --- the replay component and the engine's reader ---------------------------------------------------

def shared_replays():
    files = sorted(p for p in SHARED_REPLAYS.glob("*.json") if not p.name.endswith(".verdict.json"))
    assert files, f"no example replays in {SHARED_REPLAYS}"
    return files


def engine_reads(document):
    try:
        rules_engine.load_replay(json.dumps(document))
    except rules_engine.ReplayError:
        return False
    return True


def test_the_schemas_replay_component_is_the_one_in_the_served_schema(schema):
    served = schema["components"]["schemas"]
    for name, component in standalone_schema()["components"]["schemas"].items():
        assert served[name] == json.loads(json.dumps(component)), name


@pytest.mark.parametrize("path", shared_replays(), ids=lambda p: p.name)
def test_every_shared_example_replay_is_accepted_by_the_schema_and_the_engine(path):
    document = json.loads(path.read_text())
    jsonschema.Draft4Validator(standalone_schema()).validate(document)
    assert engine_reads(document)


def _break(change):
    def broken(document):
        document = copy.deepcopy(document)
        change(document)
        return document
    return broken


BROKEN = {
    "an unknown top-level key": _break(lambda d: d.update(colour="red")),
    "another format": _break(lambda d: d.update(format="chess-pgn")),
    "version 2": _break(lambda d: d.update(version=2)),
    "an unknown variant": _break(lambda d: d["rules"].update(variants=["fog_of_war"])),
    "a board of 27 columns": _break(lambda d: d["rules"]["board"].update(width=27)),
    "a kingdom that does not exist": _break(lambda d: d["generals"]["p1"].update(kingdom="atlantis")),
    "Arms 7": _break(lambda d: d["armies"]["p1"][0].update(arms=7)),
    "a bad battalion id": _break(lambda d: d["armies"]["p1"][0].update(id="has space")),
    "a formation zone that is no zone": _break(lambda d: d["formation"][0].update(zone="z0")),
    "a facing NE": _break(lambda d: d["formation"][0].update(facing="NE")),
    "a turn by p3": _break(lambda d: d["turns"][0].update(by="p3")),
    "an unknown order": _break(lambda d: d["turns"][0].update(orders=[{"type": "teleport", "battalion": "F1"}])),
    "an unknown action": _break(lambda d: d["turns"][0].update(orders=[
        {"type": "maneuver", "battalion": "F1", "actions": [{"act": "fly"}]}])),
    "a Stall turning two ways": _break(lambda d: d["turns"][0].update(orders=[
        {"type": "stall", "battalion": "F1", "facing": "NE"}])),
    "a result that does not exist": _break(lambda d: d.update(result={"type": "draw"})),
    "a claim without a condition": _break(lambda d: d.update(result={"type": "claim", "by": "p1"})),
    "no turns": _break(lambda d: d.pop("turns")),
}


@pytest.mark.parametrize("how", sorted(BROKEN))
def test_broken_replays_are_refused_by_the_schema_and_the_engine_alike(how):
    document = BROKEN[how](json.loads((SHARED_REPLAYS / "victory-shackle.json").read_text()))
    assert not jsonschema.Draft4Validator(standalone_schema()).is_valid(document), how
    assert not engine_reads(document), how


def test_orders_too_many_are_refused_by_the_schema_and_by_the_engine_at_that_order():
    """The reader takes a turn's orders as they come; the engine refuses the one too many at its own
    place (R105: the second in a Core Rules turn), and the schema allows no turn more than two."""
    document = json.loads((SHARED_REPLAYS / "victory-shackle.json").read_text())
    document["turns"][0]["orders"] = document["turns"][0]["orders"] * 3
    assert not jsonschema.Draft4Validator(standalone_schema()).is_valid(document)
    verdict = rules_engine.adjudicate(json.dumps(document)).to_dict()
    assert verdict["valid"] is False
    assert (verdict["error"]["turn"], verdict["error"]["order"], verdict["error"]["code"]) == (1, 2, "wrong_order_count")


# --- the documentation pages ---------------------------------------------------------------------------

@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_the_api_docs_load_only_this_sites_own_files(client, url):
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    addresses = re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", html)
    addresses += re.findall(r"""url\s*:\s*["']([^"']+)["']""", html)
    assert addresses, html[:500]
    assert not re.search(r"https?://|//cdn|unpkg|jsdelivr", html), "the docs page names another site"
    static = [a for a in addresses if a.startswith("/static/")]
    assert static, addresses
    for address in static:
        assert finders.find(address.removeprefix("/static/")), f"{address} is not among the static files"


# --- what the engine reads, the schema accepts (R17, R106, R109 and generated games) -------------------

def _with_action(action, variants=("battle_arts",)):
    def change(document):
        document["rules"]["variants"] = list(variants)
        document["turns"][0]["orders"] = [{"type": "maneuver", "battalion": "S1_1", "actions": [action]}]
    return _break(change)


ACCEPTED = {
    "R109: no rules.variants": _break(lambda d: d["rules"].pop("variants")),
    "R109: a board without its sides": _break(lambda d: d["rules"].update(board={})),
    "R109: a board with its width only": _break(lambda d: d["rules"].update(board={"width": 7})),
    "R109: a board with its height only": _break(lambda d: d["rules"].update(board={"height": 5})),
    "R17: a Snowblind move": _with_action({"act": "move", "snowblind": True}),
    "R17: a move that says it is no Snowblind": _with_action({"act": "move", "snowblind": False}, ()),
    "R106: a rout that torments": _with_action({"act": "rout", "target": "S2_3", "to": "off", "torment": True}, ()),
    "R106: a Surge that torments": _with_action({"act": "surge", "to": "off", "torment": True}),
    "R106: a move with enemy_facings": _with_action({"act": "move", "enemy_facings": {"S2_3": "W"}}, ()),
    **{f"R106: {art} with enemy_facings": _with_action({"act": art, **fields, "enemy_facings": {"S2_3": "N"}})
       for art, fields in (("pounce", {}), ("alight", {"zone": "d4", "facing": "N"}), ("descend", {"to": "E"}),
                           ("forge", {}))},
    "R106: a turn's torment and counter_facings": _break(lambda d: d["turns"][0].update(
        torment=["S2_3"], counter_facings={"S2_1": "S"})),
}


@pytest.mark.parametrize("how", sorted(ACCEPTED))
def test_what_the_engine_reads_the_schema_accepts(how):
    document = ACCEPTED[how](json.loads((SHARED_REPLAYS / "victory-shackle.json").read_text()))
    assert engine_reads(document), how
    assert not schema_errors(document), how


def test_the_schema_says_the_board_defaults_to_seven_by_seven(schema):
    board = schema["components"]["schemas"]["Replay"]["properties"]["rules"]["properties"]["board"]
    assert "required" not in board
    assert {side["default"] for side in board["properties"].values()} == {7}
    assert "variants" not in schema["components"]["schemas"]["Replay"]["properties"]["rules"]["required"]


VARIANT_SETS = [combo for size in range(len(rules_engine.model.VARIANTS) + 1)
                for combo in itertools.combinations(rules_engine.model.VARIANTS, size)]
GAMES = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def schema_errors(document):
    return [f"{list(error.absolute_path)}: {error.message[:200]}"
            for error in jsonschema.Draft4Validator(standalone_schema()).iter_errors(document)]


@pytest.mark.parametrize("variants", VARIANT_SETS, ids=lambda combo: "+".join(combo) or "core")
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), board=st.sampled_from([(7, 7), (5, 4), (9, 9), (26, 3)]))
def test_every_game_of_the_engines_generator_is_a_replay_of_the_schema(variants, seed, board):
    document = rules_engine.generate_game(seed, variants=variants, width=board[0], height=board[1], max_turns=30)
    assert engine_reads(document)
    assert not schema_errors(document)


# Optional keys the format lets a log add to any step (R17, R106): the engine reads them where it
# knows them and refuses them elsewhere; wherever it reads them the schema must accept them.
EXTRAS = st.sampled_from([("snowblind", True), ("snowblind", False), ("torment", True), ("torment", False),
                          ("enemy_facings", {"A1": "N"}), ("enemy_facings", {}), ("counter_facings", {"B2": "S"})])


@GAMES
@given(seed=st.integers(0, 2**32 - 1), variants=st.sampled_from(VARIANT_SETS), data=st.data())
def test_whatever_the_engine_reads_of_a_changed_game_the_schema_accepts(seed, variants, data):
    document = rules_engine.generate_game(seed, variants=variants, max_turns=20)
    steps = [action for turn in document["turns"] for order in turn["orders"] for action in order.get("actions", [])]
    steps += document["turns"]
    for _ in range(data.draw(st.integers(1, 4))):
        key, value = data.draw(EXTRAS)
        data.draw(st.sampled_from(steps))[key] = copy.deepcopy(value)
    if not variants and data.draw(st.booleans()):
        del document["rules"]["variants"]
    for side in ("width", "height"):
        if document["rules"]["board"][side] == 7 and data.draw(st.booleans()):
            del document["rules"]["board"][side]
    if engine_reads(document):
        assert not schema_errors(document)


# --- 403 where a permission can refuse a signed-in user's reading -------------------------------------------

def test_an_outsider_reading_a_battles_reports_gets_the_documented_403(schema, event_day):
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    event, organizer, battle = event_day
    outsider = get_user_model().objects.create_user("outsider", password="pw")
    client = APIClient(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=outsider).key}")
    assert client.get(f"/api/v1/battles/{battle.pk}/").status_code == 200  # the battle is public ...
    refused = client.get(f"/api/v1/battles/{battle.pk}/reports/")  # ... its reports are not (SeesReports)
    assert refused.status_code == 403
    body = refused.json()
    assert body["code"] == "permission_denied" and "generals of this battle" in body["detail"]
    jsonschema.Draft4Validator(schema["components"]["schemas"]["Error"]).validate(body)
    answer = schema["paths"]["/api/v1/battles/{id}/reports/"]["get"]["responses"]["403"]
    assert answer["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}


def test_403_is_documented_for_reading_only_where_a_permission_can_refuse_a_signed_in_user(schema):
    reading = {path for path, method, operation in operations(schema) if method == "get"
               and "403" in operation["responses"]}
    assert {"/api/v1/battles/{id}/reports/", "/api/v1/events/{slug}/queue/",
            "/api/v1/events/{slug}/audit/"} <= reading
    assert not {"/api/v1/events/", "/api/v1/events/{slug}/", "/api/v1/battles/{id}/", "/api/v1/generals/",
                "/api/v1/events/{slug}/standings/"} & reading
