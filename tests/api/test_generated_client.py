"""A Python client generated from the served schema with openapi-python-client (as API users do)
imports and runs an event end to end against a live server: create, register, close registration,
form groups, report (JSON, and a replay file upload), confirm, standings, scoreboard. The client
raises on any status the schema does not document."""
import importlib
import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from django.contrib.auth import get_user_model

from tests.reporting.conftest import replay_between
from tournaments.models import General

GENERATOR = Path(sys.executable).with_name("openapi-python-client")


@pytest.fixture
def generated_client(live_server, tmp_path, monkeypatch):
    schema = httpx.get(f"{live_server.url}/api/schema/?format=json", timeout=60)
    assert schema.status_code == 200
    (tmp_path / "schema.json").write_bytes(schema.content)
    (tmp_path / "config.yaml").write_text("package_name_override: warline_client\n"
                                          "project_name_override: warline-client\npost_hooks: []\n")
    generated = subprocess.run(
        [str(GENERATOR), "generate", "--path", "schema.json", "--config", "config.yaml", "--meta", "none",
         "--output-path", str(tmp_path / "warline_client")],
        cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    assert "Warning" not in generated.stdout + generated.stderr, generated.stdout + generated.stderr
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [m for m in sys.modules if m == "warline_client" or m.startswith("warline_client.")]:
        del sys.modules[name]
    return importlib.import_module("warline_client")


def call(module_path, **kwargs):
    return importlib.import_module(f"warline_client.api.{module_path}").sync(**kwargs)


def four_players_signing_in(live_server):
    """The players of the client tests: the boss (a superuser), Ada, Ben, Cyd and Dov, each with an
    account and a general; returns (players by name, the anonymous client, signed_in(username,
    password) giving a client with the account's token)."""
    from warline_client import AuthenticatedClient, Client
    from warline_client.models import CredentialsRequest, Error

    User = get_user_model()
    User.objects.create_superuser("boss", password="boss-password-1")
    players = {}
    for name in ("Ada", "Ben", "Cyd", "Dov"):
        user = User.objects.create_user(name.lower(), password=f"{name}-password-1")
        players[name] = General.objects.create(name=name, user=user)

    anonymous = Client(base_url=live_server.url, raise_on_unexpected_status=True)

    def signed_in(username, password):
        token = call("auth.auth_token_create", client=anonymous,
                     body=CredentialsRequest(username=username, password=password))
        assert not isinstance(token, Error), token
        return AuthenticatedClient(base_url=live_server.url, token=token.token, prefix="Token",
                                   raise_on_unexpected_status=True)

    return players, anonymous, signed_in


def test_a_generated_client_runs_an_event_from_creation_to_the_scoreboard(generated_client, live_server):
    from warline_client.models import (
        CredentialsRequest,
        Error,
        EventRequest,
        FormGroupsInputRequest,
        JoinInputRequest,
        RegisterInputRequest,
        ReportedKindEnum,
        ReportInputRequest,
        ReportStatusEnum,
        ReportUploadRequest,
        VictoryConditionEnum,
    )
    from warline_client.types import File

    players, anonymous, signed_in = four_players_signing_in(live_server)

    refused = call("auth.auth_token_create", client=anonymous,
                   body=CredentialsRequest(username="boss", password="wrong"))
    assert isinstance(refused, Error) and refused.code == "invalid"

    boss = signed_in("boss", "boss-password-1")
    event = call("events.v1_events_create", client=boss,
                 body=EventRequest(name="Client Cup", slug="client-cup", published=True))
    assert not isinstance(event, Error), event
    assert event.slug == "client-cup" and event.state.value == "registration"
    # A general that belongs to a player enters only by its player (R78): the organizer is refused,
    # the players join themselves.
    refused = call("events.v1_events_registrations_create", client=boss, slug="client-cup",
                   body=RegisterInputRequest(general=players["Ada"].pk))
    assert isinstance(refused, Error) and refused.code == "permission_denied"
    for name, general in players.items():
        player = signed_in(general.user.username, f"{name}-password-1")
        registration = call("events.v1_events_join_create", client=player, slug="client-cup", body=JoinInputRequest())
        assert not isinstance(registration, Error), registration
    closed = call("events.v1_events_close_registration_create", client=boss, slug="client-cup")
    assert closed.eliminated is None and [2, 2] in closed.partitions
    plan = call("events.v1_events_form_groups_create", client=boss, slug="client-cup",
                body=FormGroupsInputRequest(group_count=2, seed=7))
    assert not isinstance(plan, Error), plan
    assert plan.saved and len(plan.groups) == 2

    battles = call("battles.v1_battles_list", client=anonymous, event="client-cup").results
    assert len(battles) == 2
    first, second = battles
    a, b = first.general_a, first.general_b
    by_id = {g.pk: g for g in players.values()}

    # A general reports without a replay; the opponent, with their own account, confirms.
    reporter = signed_in(by_id[a.id].user.username, f"{a.name}-password-1")
    report = call("battles.v1_battles_reports_create", client=reporter, id=first.id,
                  body=ReportInputRequest(kind=ReportedKindEnum.VICTORY, winner=a.id,
                                          condition=VictoryConditionEnum.BLUNT))
    assert not isinstance(report, Error), report
    assert report.status == ReportStatusEnum.AWAITING_OPPONENT
    not_yours = call("reports.v1_reports_confirm_create", client=reporter, id=report.id)
    assert isinstance(not_yours, Error) and not_yours.code == "permission_denied"
    opponent = signed_in(by_id[b.id].user.username, f"{b.name}-password-1")
    confirmed = call("reports.v1_reports_confirm_create", client=opponent, id=report.id)
    assert not isinstance(confirmed, Error), confirmed
    assert confirmed.status == ReportStatusEnum.CONFIRMED

    # The other battle is reported with its replay as a file: the rules engine checks it, and it counts
    # once the opponent uploads the same battle.
    c, d = by_id[second.general_a.id], by_id[second.general_b.id]
    replay = json.dumps(replay_between("victory-shackle", c, d)).encode()

    def upload_the_replay(client):
        return call("battles.v1_battles_reports_upload_create", client=client, id=second.id,
                    body=ReportUploadRequest(kind=ReportedKindEnum.VICTORY, winner=c.pk,
                                             condition=VictoryConditionEnum.SHACKLE,
                                             replay=File(payload=replay, file_name="replay.json",
                                                         mime_type="application/json")))

    uploader = signed_in(c.user.username, f"{c.name}-password-1")
    uploaded = upload_the_replay(uploader)
    assert not isinstance(uploaded, Error), uploaded
    assert uploaded.has_replay
    adjudicated = call("reports.v1_reports_retrieve", client=uploader, id=uploaded.id)
    assert adjudicated.status == ReportStatusEnum.CHECKED, adjudicated.status_reason
    assert adjudicated.waiting_for.name == d.name
    answering = signed_in(d.user.username, f"{d.name}-password-1")
    second_upload = upload_the_replay(answering)
    assert not isinstance(second_upload, Error), second_upload
    counted = call("reports.v1_reports_retrieve", client=uploader, id=uploaded.id)
    assert counted.status == ReportStatusEnum.CONFIRMED, counted.status_reason

    standings = call("events.v1_events_standings_retrieve", client=anonymous, slug="client-cup")
    rows = [row for table in standings.tables for row in table.rows]
    winners = {row.general.name: row for row in rows if row.victories}
    assert set(winners) == {a.name, c.name} and all(row.played == 1 for row in winners.values())
    scoreboard = call("events.v1_events_scoreboard_retrieve", client=anonymous, slug="client-cup")
    assert scoreboard.event["slug"] == "client-cup"
    assert len(scoreboard.latest_results) == 2
