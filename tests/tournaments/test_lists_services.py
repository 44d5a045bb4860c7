"""Deck and army lists through their services (tournaments/lists), as a cheating player, a rival
organizer and an attacker would try them: whose list is whose, when lists lock, the organizer's
acceptance despite violations, the pool upload that keeps all or nothing, who sees a list, and the
rows the list form reads (tournaments/lists/rows.py). The lists are the demo's (tournaments/demo_data),
checked by the specs warlord-ccg-decks.md §2.1 and reaper-warlord-armies.md §2.1."""
import json
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

import tournaments
from tournaments.domain import Conflict, DomainError, NotAllowed
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.lists import rows
from tournaments.lists import services as lists
from tournaments.models import AuditEntry, Event, General, ListVersion

pytestmark = pytest.mark.django_db

WARLORD = "warlord-ccg-4e"
REAPER = "reaper-warlord"
DEMO = Path(tournaments.__file__).parent / "demo_data"
DEMO_LISTS = json.loads((DEMO / "lists.json").read_text(encoding="utf-8"))
CCG_POOL = (DEMO / "warlord_ccg_pool.csv").read_text(encoding="utf-8")
REAPER_POOL = (DEMO / "reaper_warlord_models.csv").read_text(encoding="utf-8")


def list_text(name, **dumps):
    return json.dumps(DEMO_LISTS[name], **dumps)


def organizer(username):
    return grant_organizer_role(get_user_model().objects.create_user(username))


def player(name):
    return General.objects.create(name=name, user=get_user_model().objects.create_user(name.lower()))


def pool_without(pool, *names):
    return "\n".join(line for line in pool.splitlines() if line.split(",")[0] not in names) + "\n"


def codes(version):
    return [violation["code"] for violation in version.violations]


def audit_actions(event):
    return list(AuditEntry.objects.filter(event=event).order_by("id").values_list("action", flat=True))


@pytest.fixture
def cup():
    """Olga's Warlord CCG event with the demo card pool, Ada and Ben registered by themselves; Oscar
    organizes another event; Sam has an account and nothing else."""
    olga, oscar = organizer("olga"), organizer("oscar")
    event = services.create_event(name="Storm Cup", slug="storm-cup", game=WARLORD, actor=olga)
    services.create_event(name="Rival Cup", slug="rival-cup", game=WARLORD, actor=oscar)
    lists.set_pool(event, user=olga, csv_text=CCG_POOL)
    ada, ben = player("Ada"), player("Ben")
    for general in (ada, ben):
        services.register(event, general, actor=general.user)
    sam = get_user_model().objects.create_user("sam")
    return {"event": Event.objects.get(pk=event.pk), "olga": olga, "oscar": oscar, "ada": ada, "ben": ben,
            "sam": sam}


def registration(event, general):
    return event.registrations.get(general=general)


def versions(event, general):
    return list(registration(event, general).list_versions.order_by("version"))


# --- submit, replace, withdraw: the player's own ------------------------------------------------------------

def test_a_player_submits_replaces_and_withdraws_their_list_and_every_version_is_kept_as_sent(cup):
    event, ada = cup["event"], cup["ada"]
    first_text = list_text("dwarves", indent=3) + "\n"  # spacing and a final newline: kept exactly
    first = lists.submit(event, ada, user=ada.user, text=first_text)
    assert (first.version, first.status, first.violations) == (1, "valid", [])
    replaced = lists.submit(event, ada, user=ada.user, text=list_text("too_many"))
    assert replaced.version == 2 and replaced.status == "violations"
    assert codes(replaced) == ["WCCG-D02", "WCCG-D04"]  # 4 Dwarf Spearman, 2 Crown of Ages (Epic)
    withdrawn = lists.withdraw(event, ada, user=ada.user)
    assert (withdrawn.version, withdrawn.status, withdrawn.content) == (3, "withdrawn", None)
    with pytest.raises(Conflict, match="no list to withdraw"):
        lists.withdraw(event, ada, user=ada.user)
    again = lists.submit(event, ada, user=ada.user, text=list_text("elves"))
    assert again.version == 4

    kept = versions(event, ada)
    assert [v.version for v in kept] == [1, 2, 3, 4]
    assert [v.text for v in kept] == [first_text, list_text("too_many"), "", list_text("elves")]
    assert [v.status for v in kept] == ["valid", "violations", "withdrawn", "valid"]
    assert all(v.submitted_by == ada.user for v in kept)
    assert lists.current(registration(event, ada)).version == 4
    assert kept[0].submitted_at <= kept[1].submitted_at <= kept[2].submitted_at <= kept[3].submitted_at


def test_the_organizer_hands_in_a_list_for_a_player(cup):
    event, olga, ada = cup["event"], cup["olga"], cup["ada"]
    version = lists.submit(event, ada, user=olga, text=list_text("dwarves"))
    assert version.submitted_by == olga and version.registration.general == ada


@pytest.mark.parametrize("who", ["ben", "sam", "oscar", "anonymous"])
def test_nobody_else_submits_withdraws_or_accepts_a_players_list(cup, who):
    """Another player, a stranger, an organizer of ANOTHER event, nobody signed in: 403, nothing kept."""
    event, ada = cup["event"], cup["ada"]
    lists.submit(event, ada, user=ada.user, text=list_text("too_many"))
    user = AnonymousUser() if who == "anonymous" else (cup[who].user if who == "ben" else cup[who])
    trail = audit_actions(event)
    with pytest.raises(NotAllowed):
        lists.submit(event, ada, user=user, text=list_text("dwarves"))
    with pytest.raises(NotAllowed):
        lists.withdraw(event, ada, user=user)
    with pytest.raises(NotAllowed):
        lists.accept(event, ada, user=user, version=1, reason="Looks fine to me.")
    kept = versions(event, ada)
    assert [(v.version, v.status) for v in kept] == [(1, "violations")]
    assert audit_actions(event) == trail


def test_a_player_cannot_submit_for_a_general_not_in_the_event(cup):
    event = cup["event"]
    cyd = player("Cyd")
    with pytest.raises(DomainError, match="not registered") as refused:
        lists.submit(event, cyd, user=cyd.user, text=list_text("dwarves"))
    assert refused.value.field == "general"
    assert not ListVersion.objects.exists()


# --- when lists lock --------------------------------------------------------------------------------------

def test_after_the_deadline_the_player_cannot_change_the_list_and_an_organizer_can(cup):
    event, olga, ada = cup["event"], cup["olga"], cup["ada"]
    lists.submit(event, ada, user=ada.user, text=list_text("dwarves"))
    lists.set_rules(event, user=olga, deadline=timezone.now() - timedelta(minutes=1))
    with pytest.raises(Conflict, match="deadline has passed"):
        lists.submit(event, ada, user=ada.user, text=list_text("elves"))
    with pytest.raises(Conflict, match="deadline has passed"):
        lists.withdraw(event, ada, user=ada.user)
    assert [v.version for v in versions(event, ada)] == [1]
    corrected = lists.submit(event, ada, user=olga, text=list_text("elves"))
    assert corrected.version == 2
    assert lists.withdraw(event, ada, user=olga).version == 3


def test_once_registration_closed_the_player_cannot_change_the_list_and_an_organizer_can(cup):
    event, olga, ada = cup["event"], cup["olga"], cup["ada"]
    lists.submit(event, ada, user=ada.user, text=list_text("dwarves"))
    services.close_registration(event, actor=olga)
    with pytest.raises(Conflict, match="registration has closed"):
        lists.submit(event, ada, user=ada.user, text=list_text("elves"))
    with pytest.raises(Conflict, match="registration has closed"):
        lists.withdraw(event, ada, user=ada.user)
    assert lists.submit(event, ada, user=olga, text=list_text("elves")).version == 2


def test_a_deadline_still_ahead_does_not_lock(cup):
    event, olga, ada = cup["event"], cup["olga"], cup["ada"]
    lists.set_rules(event, user=olga, deadline=timezone.now() + timedelta(hours=1))
    assert lists.submit(event, ada, user=ada.user, text=list_text("dwarves")).version == 1


# --- accepting a list despite its violations ---------------------------------------------------------------

def test_an_organizer_accepts_the_current_list_with_a_reason(cup):
    event, olga, ada = cup["event"], cup["olga"], cup["ada"]
    lists.submit(event, ada, user=ada.user, text=list_text("too_many"))
    for blank in ("", "   ", None):
        with pytest.raises(DomainError) as refused:
            lists.accept(event, ada, user=olga, version=1, reason=blank)
        assert refused.value.field == "reason"
    with pytest.raises(Conflict, match="read the list again"):
        lists.accept(event, ada, user=olga, version=2, reason="Errata allows a fourth copy.")
    accepted = lists.accept(event, ada, user=olga, version=1, reason="  Errata allows a fourth copy. ")
    assert (accepted.status, accepted.accepted_by, accepted.accepted_reason) == (
        "accepted", olga, "Errata allows a fourth copy.")
    assert codes(accepted) == ["WCCG-D02", "WCCG-D04"]  # still shown: accepted, not erased
    entry = AuditEntry.objects.get(event=event, action="list accepted")
    assert (entry.actor, entry.reason, entry.subject) == (olga, "Errata allows a fourth copy.", "Ada")


def test_a_stale_version_is_not_accepted_after_the_player_replaced_the_list(cup):
    """The organizer read version 1; the player slipped in version 2 meanwhile: accepting 1 must not
    bless 2."""
    event, olga, ada = cup["event"], cup["olga"], cup["ada"]
    lists.submit(event, ada, user=ada.user, text=list_text("too_many"))
    sneaky = dict(DEMO_LISTS["too_many"], cards=[*DEMO_LISTS["too_many"]["cards"], {"name": "Fireball", "count": 9}])
    lists.submit(event, ada, user=ada.user, text=json.dumps(sneaky))
    with pytest.raises(Conflict, match="not Ada's current list"):
        lists.accept(event, ada, user=olga, version=1, reason="The copy limit is lifted by errata.")
    assert [v.status for v in versions(event, ada)] == ["violations", "violations"]


def test_a_valid_or_withdrawn_list_has_nothing_to_accept(cup):
    event, olga, ada, ben = cup["event"], cup["olga"], cup["ada"], cup["ben"]
    lists.submit(event, ada, user=ada.user, text=list_text("dwarves"))
    with pytest.raises(Conflict, match="no violations"):
        lists.accept(event, ada, user=olga, version=1, reason="Just in case.")
    lists.withdraw(event, ada, user=ada.user)
    with pytest.raises(Conflict, match="no violations"):
        lists.accept(event, ada, user=olga, version=2, reason="Just in case.")
    with pytest.raises(Conflict):
        lists.accept(event, ben, user=olga, version=1, reason="Ben has no list at all.")
    assert not ListVersion.objects.exclude(accepted_at=None).exists()


def test_a_replaced_list_does_not_inherit_the_acceptance(cup):
    event, olga, ada = cup["event"], cup["olga"], cup["ada"]
    lists.submit(event, ada, user=ada.user, text=list_text("too_many"))
    lists.accept(event, ada, user=olga, version=1, reason="Errata allows a fourth copy.")
    replaced = lists.submit(event, ada, user=ada.user, text=list_text("too_many"))
    assert replaced.status == "violations" and replaced.accepted_at is None


# --- the pool ------------------------------------------------------------------------------------------------

def test_a_pool_with_a_bad_row_keeps_nothing_and_names_every_bad_row(cup):
    event, olga, ada, ben = cup["event"], cup["olga"], cup["ada"], cup["ben"]
    lists.submit(event, ada, user=ada.user, text=list_text("dwarves"))
    lists.submit(event, ben, user=ben.user, text=list_text("too_many"))
    lists.accept(event, ben, user=olga, version=1, reason="Errata allows a fourth copy.")
    before = [(v.pk, v.violations, v.accepted_at) for v in ListVersion.objects.order_by("pk")]
    trail = audit_actions(event)
    # Thane Brokk missing (would add WCCG-E01 to both lists), and two broken rows further down.
    broken = (pool_without(CCG_POOL, "Thane Brokk").rstrip("\n")
              + "\nBroken Card,spaceship,1,Dwarves,,good,fighter,\nLevel-less,character,,Dwarves,,good,fighter,\n")
    with pytest.raises(DomainError, match="was not saved") as refused:
        lists.set_pool(event, user=olga, csv_text=broken)
    assert refused.value.field == "pool"
    bad_rows = sorted({row["row"] for row in refused.value.extra["rows"]})
    line_count = len(broken.strip().splitlines())
    assert bad_rows == [line_count - 1, line_count]  # both, numbered as the file's lines (row 1 the header)
    assert all(row["column"] and row["message"] for row in refused.value.extra["rows"])
    assert Event.objects.get(pk=event.pk).list_pool == CCG_POOL
    assert [(v.pk, v.violations, v.accepted_at) for v in ListVersion.objects.order_by("pk")] == before
    assert audit_actions(event) == trail


def test_a_new_pool_checks_the_lists_again_and_drops_an_acceptance_whose_violations_changed(cup):
    event, olga, ada, ben = cup["event"], cup["olga"], cup["ada"], cup["ben"]
    lists.submit(event, ada, user=ada.user, text=list_text("dwarves"))
    lists.submit(event, ben, user=ben.user, text=list_text("too_many"))
    lists.accept(event, ben, user=olga, version=1, reason="Errata allows a fourth copy.")

    # A card neither list uses: nothing changes, Ben's acceptance stands.
    lists.set_pool(event, user=olga, csv_text=pool_without(CCG_POOL, "Elf Lord"))
    assert lists.current(registration(event, ben)).status == "accepted"
    assert lists.current(registration(event, ada)).status == "valid"

    # Dwarf Miner is in both lists: WCCG-E01 appears, and Ben's acceptance is for other violations.
    lists.set_pool(event, user=olga, csv_text=pool_without(CCG_POOL, "Elf Lord", "Dwarf Miner"))
    ada_list, ben_list = lists.current(registration(event, ada)), lists.current(registration(event, ben))
    assert "WCCG-E01" in codes(ada_list) and "Dwarf Miner" in ada_list.violations[0]["message"]
    assert "WCCG-E01" in codes(ben_list)
    assert (ben_list.status, ben_list.accepted_by, ben_list.accepted_reason) == ("violations", None, "")
    assert ada_list.text == list_text("dwarves") and ada_list.version == 1  # checked again, not a new version
    assert audit_actions(event).count("card pool uploaded") == 3  # the fixture's and these two


def test_only_the_events_organizer_uploads_its_pool(cup):
    event = cup["event"]
    for user in (cup["oscar"], cup["ada"].user, cup["sam"]):
        with pytest.raises(NotAllowed):
            lists.set_pool(event, user=user, csv_text=pool_without(CCG_POOL, "Dwarf Miner"))
    assert Event.objects.get(pk=event.pk).list_pool == CCG_POOL


# --- list options and rules ----------------------------------------------------------------------------------

@pytest.mark.parametrize("options", [{"deck_size": 60}, {"require_declared_starting_army": "yes"},
                                     {"card_source": "database"}, "pool", ["card_source"]])
def test_invalid_list_options_are_refused_on_the_field_and_nothing_changes(cup, options):
    event, olga = cup["event"], cup["olga"]
    trail = audit_actions(event)
    with pytest.raises(DomainError) as refused:
        lists.set_rules(event, user=olga, options=options)
    assert refused.value.field == "list_options" and str(refused.value)
    assert Event.objects.get(pk=event.pk).list_options == {}
    assert audit_actions(event) == trail


def test_reaper_options_are_checked_too():
    olga = organizer("olga")
    event = services.create_event(name="Reaper Day", slug="reaper-day", game=REAPER, actor=olga)
    with pytest.raises(DomainError) as refused:
        lists.set_rules(event, user=olga, options={"points_limit": "lots"})
    assert refused.value.field == "list_options"
    lists.set_rules(event, user=olga, options={"points_limit": 500})
    lists.set_pool(event, user=olga, csv_text=REAPER_POOL)
    crusaders = player("Ada")
    services.register(event, crusaders, actor=crusaders.user)
    version = lists.submit(event, crusaders, user=crusaders.user, text=list_text("crusaders"))
    assert codes(version) == ["RW-P01"]  # the demo army is over 500 points (A1: at most the limit)


def test_a_list_rules_change_is_the_organizers_and_is_audited(cup):
    event, olga, oscar = cup["event"], cup["olga"], cup["oscar"]
    with pytest.raises(NotAllowed):
        lists.set_rules(event, user=oscar, visibility="open")
    lists.set_rules(event, user=olga, visibility="open")
    entry = AuditEntry.objects.filter(event=event, action="list rules changed").get()
    assert (entry.before["visibility"], entry.after["visibility"]) == ("closed", "open")
    with pytest.raises(DomainError) as refused:
        lists.set_rules(event, user=olga, visibility="secret")
    assert refused.value.field == "list_visibility"


# --- what a list may be --------------------------------------------------------------------------------------

def test_a_huge_list_is_refused_before_it_is_read_and_nothing_is_saved(cup):
    event, ada = cup["event"], cup["ada"]
    huge = json.dumps({"game": WARLORD, "cards": [{"name": "Dwarf Miner " + "x" * 200_001, "count": 1}]})
    with pytest.raises(DomainError, match="larger than 200 kB") as refused:
        lists.submit(event, ada, user=ada.user, text=huge)
    assert refused.value.field == "list"
    multibyte = json.dumps({"game": WARLORD, "cards": [{"name": "龍" * 70_000}]}, ensure_ascii=False)
    assert len(multibyte) < 200_000 < len(multibyte.encode())  # bytes count, not characters
    with pytest.raises(DomainError, match="larger than"):
        lists.submit(event, ada, user=ada.user, text=multibyte)
    assert not ListVersion.objects.exists()
    assert "list submitted" not in audit_actions(event)


@pytest.mark.parametrize(("text", "says"), [
    ('{"game": "warlord-ccg-4e", "cards": [', "not JSON"),
    ("", "not JSON"),
    ("{'game': 'warlord-ccg-4e'}", "not JSON"),
    ("[" * 60_000 + "]" * 60_000, "nested too deeply"),
    ('{"game": "warlord-ccg-4e", "cards": ' + "[" * 60_000 + "]" * 60_000 + "}", "nested too deeply"),
], ids=["cut-off", "empty", "single-quotes", "deep", "deep-inside"])
def test_text_that_is_not_a_list_is_refused_with_a_sentence_and_nothing_is_saved(cup, text, says):
    event, ada = cup["event"], cup["ada"]
    with pytest.raises(DomainError, match=says) as refused:
        lists.submit(event, ada, user=ada.user, text=text)
    assert refused.value.field == "list"
    assert not ListVersion.objects.exists()


ODD_SHAPES = {
    "a list": "[1, 2]",
    "a string": '"fifty cards"',
    "another game": json.dumps(DEMO_LISTS["crusaders"]),
    "cards an object": '{"game": "warlord-ccg-4e", "cards": {"Dwarf Miner": 3}}',
    "a card a string": '{"game": "warlord-ccg-4e", "cards": ["Dwarf Miner"]}',
    "a name a list": '{"game": "warlord-ccg-4e", "cards": [{"name": [[["Dwarf Miner"]]], "count": 3}]}',
    "a name a number": '{"game": "warlord-ccg-4e", "cards": [{"name": 7, "count": 3}]}',
    "no name": '{"game": "warlord-ccg-4e", "cards": [{"count": 3}]}',
    "count a string": '{"game": "warlord-ccg-4e", "cards": [{"name": "Dwarf Miner", "count": "3"}]}',
    "count huge": '{"game": "warlord-ccg-4e", "cards": [{"name": "Dwarf Miner", "count": ' + "9" * 400 + "}]}",
    "count fractional": '{"game": "warlord-ccg-4e", "cards": [{"name": "Dwarf Miner", "count": 2.5}]}',
    "count Infinity": '{"game": "warlord-ccg-4e", "cards": [{"name": "Dwarf Miner", "count": Infinity}]}',
    "starting NaN": '{"game": "warlord-ccg-4e", "cards": [{"name": "Dwarf Miner", "count": 3, "starting": NaN}]}',
    "count true": '{"game": "warlord-ccg-4e", "cards": [{"name": "Dwarf Miner", "count": true}]}',
    "a NUL in a name": '{"game": "warlord-ccg-4e", "cards": [{"name": "Dwarf\\u0000Miner", "count": 3}]}',
}


@pytest.mark.parametrize("text", list(ODD_SHAPES.values()), ids=list(ODD_SHAPES))
def test_a_list_of_an_odd_shape_is_refused_with_a_sentence_or_kept_with_its_violations(cup, text):
    """Whatever JSON an attacker sends, the answer is a sentence (400) or a version with violations that
    the database keeps and reads back: never another error (a 500)."""
    event, ada = cup["event"], cup["ada"]
    try:
        version = lists.submit(event, ada, user=ada.user, text=text)
    except DomainError as refused:
        assert refused.field == "list" and str(refused)
        assert not ListVersion.objects.exists()
        return
    stored = ListVersion.objects.get(pk=version.pk)
    assert stored.text == text and stored.violations  # none of these is a legal deck
    assert all(v["code"] and v["message"] for v in stored.violations)


def test_a_game_without_lists_refuses_every_list_step():
    olga = organizer("olga")
    event = services.create_event(name="Harbour Open", slug="harbour", actor=olga)  # WARLINE
    ada = player("Ada")
    services.register(event, ada, actor=ada.user)
    steps = [lambda: lists.submit(event, ada, user=ada.user, text=list_text("dwarves")),
             lambda: lists.set_pool(event, user=olga, csv_text=CCG_POOL),
             lambda: lists.set_rules(event, user=olga, visibility="open")]
    for step in steps:
        with pytest.raises(DomainError, match="no deck or army lists"):
            step()
    assert not ListVersion.objects.exists() and Event.objects.get(pk=event.pk).list_pool == ""


# --- the audit trail -----------------------------------------------------------------------------------------

def test_the_audit_trail_has_an_entry_per_step(cup):
    event, olga, ada = cup["event"], cup["olga"], cup["ada"]
    start = AuditEntry.objects.filter(event=event).count()
    lists.submit(event, ada, user=ada.user, text=list_text("too_many"))
    lists.submit(event, ada, user=ada.user, text=list_text("too_many"))
    lists.accept(event, ada, user=olga, version=2, reason="Errata allows a fourth copy.")
    lists.withdraw(event, ada, user=ada.user)
    lists.set_pool(event, user=olga, csv_text=pool_without(CCG_POOL, "Elf Lord"))
    lists.set_rules(event, user=olga, visibility="open")
    entries = list(AuditEntry.objects.filter(event=event).order_by("id"))[start:]
    assert [(e.action, e.actor) for e in entries] == [
        ("list submitted", ada.user), ("list submitted", ada.user), ("list accepted", olga),
        ("list withdrawn", ada.user), ("card pool uploaded", olga), ("list rules changed", olga)]
    assert entries[0].after == {"version": 1, "status": "violations", "violations": ["WCCG-D02", "WCCG-D04"]}
    assert entries[3].before["version"] == 2 and entries[3].before["status"] == "accepted"


# --- who sees a list -----------------------------------------------------------------------------------------

def viewers(cup):
    return {"olga": cup["olga"], "ada": cup["ada"].user, "ben": cup["ben"].user, "sam": cup["sam"],
            "oscar": cup["oscar"], "anonymous": AnonymousUser()}


def who_sees_adas_list(cup, now=None):
    event = Event.objects.get(pk=cup["event"].pk)
    entry = registration(event, cup["ada"])
    return {name for name, user in viewers(cup).items() if lists.may_see_list(user, event, entry, now)}


def test_closed_lists_are_the_organizers_and_each_players_own_even_after_they_lock(cup):
    event, olga = cup["event"], cup["olga"]
    assert who_sees_adas_list(cup) == {"olga", "ada"}
    services.close_registration(event, actor=olga)
    assert who_sees_adas_list(cup) == {"olga", "ada"}
    assert who_sees_adas_list(cup, now=timezone.now() + timedelta(days=365)) == {"olga", "ada"}


def test_open_lists_are_public_from_their_date(cup):
    event, olga = cup["event"], cup["olga"]
    everyone = set(viewers(cup))
    later = timezone.now() + timedelta(hours=2)
    lists.set_rules(event, user=olga, visibility="open", public_from=later)
    assert who_sees_adas_list(cup) == {"olga", "ada"}
    assert who_sees_adas_list(cup, now=later - timedelta(seconds=1)) == {"olga", "ada"}
    assert who_sees_adas_list(cup, now=later) == everyone


def test_open_lists_without_a_date_are_public_once_they_lock(cup):
    event, olga = cup["event"], cup["olga"]
    everyone = set(viewers(cup))
    deadline = timezone.now() + timedelta(hours=1)
    lists.set_rules(event, user=olga, visibility="open", deadline=deadline)
    assert who_sees_adas_list(cup) == {"olga", "ada"}  # still open to changes: nobody copies a list
    assert who_sees_adas_list(cup, now=deadline) == everyone
    lists.set_rules(event, user=olga, visibility="open")  # no deadline any more
    assert who_sees_adas_list(cup) == {"olga", "ada"}
    services.close_registration(event, actor=olga)
    assert who_sees_adas_list(cup) == everyone


def test_an_unclaimed_generals_list_is_not_everyones_own(cup):
    """A walk-in has no account; nobody signed out may pass for its player."""
    event, olga = cup["event"], cup["olga"]
    walk_in = General.objects.create(name="Walk In")
    services.register(event, walk_in, actor=olga)
    entry = registration(event, walk_in)
    assert lists.may_see_list(olga, event, entry)
    assert not lists.may_see_list(AnonymousUser(), event, entry)
    assert not lists.may_see_list(cup["sam"], event, entry)


# --- rows.py: the list form's rows ---------------------------------------------------------------------------

def with_counts(content):
    """The list as rows say it: every count written, a starting count of 0 left out."""
    if content["game"] == WARLORD:
        cards = [{key: value for key, value in {"name": c["name"], "count": c.get("count", 1),
                                                 "starting": c.get("starting")}.items() if value}
                 for c in content["cards"]]
        return {"game": WARLORD, "cards": cards}
    return {"game": REAPER, "army_faction": content["army_faction"],
            "troops": [{"models": [{"name": m["name"], "count": m.get("count", 1)} for m in troop["models"]]}
                       for troop in content["troops"]]}


@pytest.mark.parametrize("name", ["dwarves", "elves", "too_many", "crusaders", "necropolis"])
def test_rows_and_lists_round_trip_for_both_games(name):
    content = DEMO_LISTS[name]
    written = rows.list_to_rows(content["game"], content)
    assert written
    read = rows.rows_to_list(content["game"], written)
    assert read == with_counts(content)
    assert rows.list_to_rows(content["game"], read) == written


def test_rows_read_what_a_player_types():
    typed = "1 Thane Brokk, starting 1\n\n3x Dwarf Spearman, Starting 2\n  2 × Healing Draught  \n"
    assert rows.rows_to_list(WARLORD, typed) == {"game": WARLORD, "cards": [
        {"name": "Thane Brokk", "count": 1, "starting": 1}, {"name": "Dwarf Spearman", "count": 3, "starting": 2},
        {"name": "Healing Draught", "count": 2}]}
    army = "Faction: Crusaders\n1 Sir Brannoc\n6 Crusader Soldier\nTroop 2\n1 Crusader Captain\n\n\n1 War Griffon"
    assert rows.rows_to_list(REAPER, army) == {"game": REAPER, "army_faction": "Crusaders", "troops": [
        {"models": [{"name": "Sir Brannoc", "count": 1}, {"name": "Crusader Soldier", "count": 6}]},
        {"models": [{"name": "Crusader Captain", "count": 1}]}, {"models": [{"name": "War Griffon", "count": 1}]}]}


@pytest.mark.parametrize(("game", "typed", "row"), [
    (WARLORD, "1 Thane Brokk, starting 1\nthree Dwarf Spearman\n", 2),
    (WARLORD, "\n\n2 Heal\n3\n", 4),
    (REAPER, "Faction: Crusaders\n1 Sir Brannoc\nsix Crusader Soldier", 3),
    (REAPER, "Faction: Crusaders\n\n1 Sir Brannoc\n\nTroop\nWar Griffon", 6),
])
def test_a_row_that_does_not_read_is_named_by_its_number(game, typed, row):
    with pytest.raises(DomainError, match=f"^Row {row} ") as refused:
        rows.rows_to_list(game, typed)
    assert refused.value.field == "rows"


def test_rows_are_refused_for_a_game_without_them_and_beyond_the_limit():
    with pytest.raises(DomainError, match="JSON"):
        rows.rows_to_list("warline", "1 Battalion")
    with pytest.raises(DomainError, match="At most"):
        rows.rows_to_list(WARLORD, "1 Heal\n" * (rows.MAX_ROWS + 1))


def test_a_list_rows_cannot_say_is_edited_as_json():
    described = {"game": WARLORD, "cards": [{"name": "Homebrew Lord", "count": 1, "type": "character"}]}
    assert rows.list_to_rows(WARLORD, described) == ""
    assert rows.list_to_rows(WARLORD, None) == "" and rows.list_to_rows(REAPER, {"troops": "x"}) == ""


@pytest.mark.parametrize(("game", "content"), [
    (WARLORD, {"game": WARLORD, "cards": [{"name": "X Marks the Spot", "count": 2}]}),
    (REAPER, {"game": REAPER, "army_faction": "Crusaders", "troops": [{"models": [{"name": "X Legion Captain",
                                                                                     "count": 1}]}]}),
], ids=["card", "model"])
def test_a_name_that_begins_with_an_x_keeps_it_through_the_rows(game, content):
    """"2 X Marks the Spot" is two copies of "X Marks the Spot", not of "Marks the Spot": the x of
    "2x Heal" belongs to the count only when written against it."""
    assert rows.rows_to_list(game, rows.list_to_rows(game, content)) == content


def test_a_pool_with_a_nul_character_is_refused_with_a_sentence_not_an_error(cup):
    """A NUL byte (pasted from a binary file) cannot be stored as text: the upload is refused whole."""
    event, olga = cup["event"], cup["olga"]
    poisoned = CCG_POOL.rstrip("\n") + "\nNul\x00Card,action,1,,,,fighter,\n"
    try:
        lists.set_pool(event, user=olga, csv_text=poisoned)
    except DomainError as refused:
        assert refused.field == "pool" and str(refused)
        assert Event.objects.get(pk=event.pk).list_pool == CCG_POOL
        return
    assert Event.objects.get(pk=event.pk).list_pool == poisoned  # kept, it reads back as uploaded


def test_a_withdrawn_registration_holds_no_list(cup):
    event, ada = cup["event"], cup["ada"]
    lists.submit(event, ada, user=ada.user, text=list_text("dwarves"))
    services.withdraw(event, ada, actor=ada.user)
    with pytest.raises(DomainError, match="not registered") as refused:
        lists.submit(event, ada, user=ada.user, text=list_text("elves"))
    assert refused.value.field == "general"
    assert [v.version for v in ListVersion.objects.all()] == [1]


def test_the_pool_and_the_list_options_are_fixed_once_the_event_started(cup):
    """Pairing round 1 starts the event: a new pool or new options would change lists already played."""
    from tournaments.swiss import rounds

    event, olga = cup["event"], cup["olga"]
    services.close_registration(event, actor=olga)
    lists.set_pool(event, user=olga, csv_text=pool_without(CCG_POOL, "Elf Lord"))  # closed, not started: allowed
    rounds.pair_next_round(event, actor=olga)
    with pytest.raises(Conflict, match="has started"):
        lists.set_pool(event, user=olga, csv_text=CCG_POOL)
    with pytest.raises(Conflict, match="has started"):
        lists.set_rules(Event.objects.get(pk=event.pk), user=olga, options={"require_declared_starting_army": True})
    started = Event.objects.get(pk=event.pk)
    assert started.list_pool == pool_without(CCG_POOL, "Elf Lord") and started.list_options == {}
