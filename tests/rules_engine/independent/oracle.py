"""An independent, brute-force judge of Paralyze (R12, R102) and Blunt (R13, R41, R102, R103, R14).

Written from the rules text (Victory Conditions, "Aggressive Actions") and the rulings of
`../shared/spec/rulings.md`, not from the engine's checks: the engine is used only as a move
generator through `engine_adapter` (it plays a turn's steps 1-4 and says whether one order or one
Maneuver action is legal by applying it to a copy). Every decision about *what counts* - which
sequences of the enemy's own orders are searched, when a battalion has left its zone, what is an
aggressive action - is made here. Each "not paralyzed" / "not blunted" answer comes with a witness
(the written turns), and the coming turn of the witness is played again through the engine's
`play_turn` before it is believed.

Slow by design: small boards only (4x4, 5x5). Bounds (documented limits of the search, not of the
rulings): at most `MAX_BUILDS` rampart-creating actions (build, Flourish, Overgrow) per Maneuver,
and builds only where a rampart can serve (the builder can destroy it, Arms 4+, or Mortar it, or is
Frost with battle arts and may Snowblind next to it or Alight on it; or, in a double time turn's
first order, another battalion may use it): elsewhere a rampart of its own only stands in the way;
at most `MAX_PREPARATION_TURNS` turns of preparation before the Maneuver that leaves the zone
(Paralyze), of which at most one builds a rampart (only a Frost battalion's preparations build,
see below). `face` actions past the MA (allowed only in a Maneuver of faces alone, a Stall, R5,
R79) are not searched on: such a Maneuver is the Stall order, searched as one. `enemy_facings`,
`torment` and `counter_facings` choices are never needed to move or to act aggressively and are not
enumerated. `capped` bounds the number of engine steps tried (the test suite's cheap default).

Paralyze (R12, R102). The declaring general's opponent ("the enemy") is paralyzed when no enemy
battalion is in the declarer's prison and, with the declarer's side frozen (its turns pass with no
order; only its step 3 token reset runs, R3), no enemy battalion B can ever Move out of its zone.
For each B the search explores every sequence of the enemy's own turns made of:
- Stalls of B (any facing; the engine refuses a turn on an enemy battalion, R5), and the plain
  Stall (a turn spent waiting, e.g. while B is stunned);
- Lightens of B or of an own battalion stacked above B (every lower Arms, B's facing, every
  transfer down and the facing of the battalion below when that is B; R101, R102);
- Sacrifices of another own battalion: each one above B (uncovering it, R102), each one on a
  Forest (its fire changes the ground, R4), and one other for the 8 MA of the next turn (R2; also
  the order that spares a Stall when the turn before was one, R5);
- Maneuvers of B that leave it in its zone (e.g. destroying a rampart first, R12 "a rampart it
  cannot destroy"; turning, freezing water); those that build a rampart only for a Frost battalion
  with battle arts (a rampart of its own helps its builder leave only by Alight or Snowblind);
ending with a Maneuver of B that takes it out of its zone (Move, or an art that changes its zone:
Pounce, Alight, Descend, Chasm Forge). Steps 1-4 of each enemy turn are the engine's: a
battalion marked for Sacrifice is slaughtered before it could move (R102), a covered battalion
counter-attacks first and then stands where R26 leaves it, with its facing (R102, R101). These
turns follow one another, so an enemy battalion left on top of B once B's own battalions above are
sacrificed is counter attacked at a later turn's step 1 (R115: only by the general's top-most
battalion of the stack, only with an enemy directly above it; the engine's step 1 plays it), and B
is searched again from there. After a completed sacrifice a Maneuver needs the beneficiary (R2),
except one of `face` actions alone, which is a Stall (R113). A
stacked battalion's only action is Move until it is off the stack (Rules for Stacks, R8, R100),
and a battalion on an enemy keeps its facing (R5, R101): the oracle imposes both itself. A Stall
right after a Stall of the same general is a Forced Surrender (R5), after which nothing moves: a
general who stalled on its last turn cannot prepare with a Stall. Other own battalions' Maneuvers
are not preparations (R12 judges each battalion by what *it* can destroy and reach). Under
`double_time` each preparation is searched as a turn of one order (the second a plain Stall),
which reaches every position two orders reach, only in more turns.

Blunt (R13). The enemy is blunted when the declarer has a battalion of Arms 4+ on the battlefield
or in the enemy's prison and, on the enemy's coming turn as the battlefield stands (the declarer's
turn passing frozen first when the declarer moves next, which ends the Stun it placed, R13), no
counter attack is due, no Extricate is legal, and no Maneuver of any enemy battalion (the engine
refuses stunned, covered and slaughtered-by-sacrifice ones; 8 MA with a completed sacrifice)
contains an aggressive action: an attack (moving, Pouncing, Descending or landing onto a stack
whose top battalion is the declarer's), a Rout or Surge Rout, or the destruction of a rampart
(Destroy, Harvest, Mortar; a rampart built earlier in the same Maneuver included). Under
`double_time` (R103) the coming turn has two orders to two battalions: every first order (each
Maneuver end, Stall, Lighten, Sacrifice) is followed by every Maneuver of another battalion, the
sacrifice beneficiary being one of the maneuvering battalions (R51); a first order that changes
nothing but its own battalion's Arms or facing is the single-order case, already searched.

Not covered: boards beyond 5x5 are slow (the search is exhaustive), the parameter `ma_by_arms`
is taken from the engine, and a Snowblind move is tried only as the engine reads it (written
`"snowblind": true` once the engine reads R17 as amended; applied by itself before).
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from . import engine_adapter as engine

MAX_BUILDS = 1
MAX_PREPARATION_TURNS = 5

STEP = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}

# Battle arts by kingdom, and the Arms each applies to (Battle Arts variant text; R16 Melt is
# Flaym's). Only a speed filter: the engine still decides whether the battalion may use an art.
ANY, HEAVY, SIX = range(1, 7), range(4, 7), range(6, 7)
ART_ARMS = {
    "pounce": SIX, "burn": ANY, "incinerate": HEAVY, "scald": HEAVY, "melt": HEAVY,
    "alight": SIX, "descend": SIX, "freeze": HEAVY, "surge": SIX, "undertow": ANY, "flood": HEAVY,
    "flourish": SIX, "overgrow": ANY, "forestry": HEAVY, "mortar": SIX, "farshot": ANY, "forge": ANY,
    "devastate": HEAVY,
}
PLAIN_ARTS = {
    "flaym": ("pounce", "burn", "incinerate", "scald", "melt"),
    "frost": ("freeze",),
    "sey": ("flood",),
    "timber": ("forestry",),
    "blak": ("farshot", "forge", "devastate"),
}
ZONE_CHANGING_ARTS = frozenset(("pounce", "alight", "descend", "forge"))
RAMPART_CREATING = frozenset(("build", "flourish", "overgrow"))


class SearchCapped(Exception):
    """The search tried more engine steps than `capped` allows: the position is inconclusive for the
    oracle (not a disagreement); the property discards it (`hypothesis.assume`)."""


_CAP: dict[str, int | None] = {"left": None}


@contextmanager
def capped(steps: int | None) -> Iterator[None]:
    """Run the searches inside with at most `steps` engine steps in all (Maneuver actions and
    preparatory orders tried, counted deterministically, so that a capped position stays capped);
    past it they raise `SearchCapped`. None: no cap (the long run)."""
    before = _CAP["left"]
    _CAP["left"] = steps
    try:
        yield
    finally:
        _CAP["left"] = before


def _spend(steps: int = 1) -> None:
    left = _CAP["left"]
    if left is not None:
        if left < steps:
            raise SearchCapped("the search met its cap")
        _CAP["left"] = left - steps


@dataclass
class Answer:
    """The oracle's decision; `witness` is the enemy's turns that refute the condition."""

    holds: bool
    reason: str
    witness: list[dict] = field(default_factory=list)

    def __bool__(self) -> bool:
        return self.holds


# ---- Board geometry (rules text: rows from Player-1, columns a.., N towards higher rows) --------
def _coords(zone: str) -> tuple[int, int]:
    return ord(zone[0]) - 97, int(zone[1:])


def _name(column: int, row: int) -> str:
    return f"{chr(97 + column)}{row}"


def _on_board(state, column: int, row: int) -> bool:
    width, height = engine.width_height(state)
    return 0 <= column < width and 1 <= row <= height


def _adjacent(state, zone: str) -> list[str]:
    column, row = _coords(zone)
    return [_name(column + dx, row + dy) for dx, dy in STEP.values() if _on_board(state, column + dx, row + dy)]


def _ahead(state, zone: str, facing: str) -> str | None:
    column, row = _coords(zone)
    dx, dy = STEP[facing]
    return _name(column + dx, row + dy) if _on_board(state, column + dx, row + dy) else None


def _other(player: str) -> str:
    return "p2" if player == "p1" else "p1"


# ---- Facts about a position, read from the public views ------------------------------------------
def _on_battlefield(state, player: str) -> list[str]:
    return [ident for ident in engine.battalion_ids(state, player) if engine.view(state, ident).place == "battlefield"]


def _rampart_count(state) -> int:
    return engine.rampart_total(state)


def _stacks(state) -> dict[str, tuple[str, ...]]:
    return {zone: engine.stack(state, zone) for zone in engine.zone_names(state)}


def _counter_attack_due(state, player: str) -> str | None:
    """Rules text, step 1, and R26: the highest battalion of `player` in a stack is not its top."""
    for zone, ids in _stacks(state).items():
        owners = [engine.view(state, ident).general for ident in ids]
        if player in owners and owners[-1] != player:
            return f"{ids[len(owners) - 1 - owners[::-1].index(player)]} counter-attacks on {zone}"
    return None


def covered_battalions(state, player: str) -> list[str]:
    """`player`'s battalions with an enemy battalion anywhere above them in their stack."""
    covered = []
    for ids in _stacks(state).values():
        owners = [engine.view(state, ident).general for ident in ids]
        for position, ident in enumerate(ids):
            if owners[position] == player and any(owner != player for owner in owners[position + 1:]):
                covered.append(ident)
    return covered


# ---- Candidate Maneuver actions (brute force; the engine judges each) --------------------------
def _candidate_actions(state, ident: str, builds_so_far: int, builds_for_others: bool = False) -> list[dict]:
    me = engine.view(state, ident)
    if me.place != "battlefield":
        return []
    zones = engine.zone_names(state)
    kingdom = engine.kingdom_of(state, ident)
    arts = "battle_arts" in engine.variants(state)
    out: list[dict] = [{"act": "move"}]
    if arts and kingdom == "frost":
        out.append({"act": "move", "snowblind": True})
    if len(engine.stack(state, me.zone)) > 1:
        return out  # Rules for Stacks, R8, R28, R100: a stacked battalion's only action is Move
    out += [{"act": "face", "to": facing} for facing in engine.FACINGS if facing != me.facing]
    ahead = _ahead(state, me.zone, me.facing)
    if ahead is not None:
        out.append({"act": "destroy", "zone": ahead})
    enemy = _other(me.general)
    for near in _adjacent(state, me.zone):
        top = engine.stack(state, near)
        if top and engine.view(state, top[-1]).general == enemy:
            for destination in [*_adjacent(state, near), "off"]:
                out.append({"act": "rout", "target": top[-1], "to": destination})
    # A rampart the battalion builds only stands in its own way, unless it can destroy it (Arms 4+, R13:
    # "one it could build earlier in the same Maneuver"), Mortar it (Blak Arms 6) or Snowblind next to it
    # or Alight on it (Frost): only then are builds searched, or when another battalion may use it (the
    # first order of a double time turn, `builds_for_others`).
    may_build = builds_so_far < MAX_BUILDS and (builds_for_others or me.arms >= 4 or (arts and kingdom == "frost")
                                                or (arts and kingdom == "blak" and me.arms in ART_ARMS["mortar"]))
    if may_build:
        out += [{"act": "build", "zone": zone} for zone in engine.free_zones(state)]
    if not arts:
        return out
    out += [{"act": art} for art in PLAIN_ARTS.get(kingdom, ()) if me.arms in ART_ARMS[art]]
    if kingdom == "frost" and me.arms in ART_ARMS["alight"]:
        out += [{"act": "alight", "zone": zone, "facing": facing}
                for zone in zones if engine.ramparts(state, zone) for facing in engine.FACINGS]
        out += [{"act": "descend", "to": facing} for facing in engine.FACINGS]
    elif kingdom == "sey":
        if me.arms in ART_ARMS["surge"]:
            out += [{"act": "surge", "to": zone} for zone in [*zones, "off"]]
        out += [{"act": "undertow", "target": other} for other in _on_battlefield(state, enemy)]
    elif kingdom == "timber" and may_build:
        if me.arms in ART_ARMS["flourish"]:
            out += [{"act": "flourish", "zone": zone} for zone in zones]
        out += [{"act": "overgrow", "zone": zone} for zone in zones if engine.ramparts(state, zone)]
    elif kingdom == "blak" and me.arms in ART_ARMS["mortar"]:
        out += [{"act": "mortar", "zone": zone} for zone in zones]
    return out


# ---- One Maneuver, searched exhaustively -------------------------------------------------------
@dataclass
class _Node:
    actions: tuple[dict, ...]
    builds: int
    aggressive: str | None
    saved: tuple | None = None  # the battle and the run after `actions` (engine_adapter.save_maneuver)


def _rebuild(base, ident: str, order_number: int, actions: tuple[dict, ...]):
    work = engine.copy(base)
    run = engine.begin_maneuver(work, ident, order_number)
    for action in actions:
        engine.apply_action(run, action)
    return work, run


def _aggression(before_stacks: tuple, before_ramparts: int, after, ident: str, start_zone: str,
                action: dict, enemy: str) -> str | None:
    """Aggressive Actions (rules text; R13): attack, rout (Surge included), rampart destroyed."""
    act = action["act"]
    if act in ("rout", "surge"):
        return f"{ident} routs ({act})"
    if _rampart_count(after) < before_ramparts:
        return f"{ident} destroys a rampart ({act})"
    if act == "move" or act in ZONE_CHANGING_ARTS:
        landed = engine.view(after, ident).zone
        if landed is not None and landed != start_zone:
            beneath = engine.stack_in(after, before_stacks, landed)
            if beneath and beneath[-1] != ident and engine.view(after, beneath[-1]).general == enemy:
                return f"{ident} attacks {beneath[-1]} on {landed} ({act})"
    return None


def search_maneuver(base, ident: str, order_number: int, goal: Callable, collect: bool = False,
                    builds_for_others: bool = False):
    """Every Maneuver of `ident` from `base` (a state after steps 1-4): returns
    (witness actions or None, [action lists of every other legal Maneuver] when `collect`).

    `goal(work, run, node)` is asked after each legal action; when it is true and the Maneuver can
    end there (R29: at least 1 MA spent), that Maneuver is the witness."""
    try:
        work, run = _rebuild(base, ident, order_number, ())
    except engine.Refused:
        return None, []
    enemy = _other(engine.view(work, ident).general)
    root = _Node((), 0, None)
    seen = {(engine.fingerprint(work), engine.ma_left(run), 0, None, False)}
    queue = deque([root])
    endings: list[tuple[dict, ...]] = []
    while queue:
        node = queue.popleft()
        if node.saved is not None:
            work, run = engine.restore_maneuver(node.saved)
        else:
            work, run = _rebuild(base, ident, order_number, node.actions)
        if engine.maneuver_over(run):
            continue
        saved = engine.save_maneuver(run)
        before_stacks = engine.stacks_now(work)
        before_ramparts = _rampart_count(work)
        start_zone = engine.view(work, ident).zone
        candidates = _candidate_actions(work, ident, node.builds, builds_for_others)
        _spend(len(candidates))
        for action in candidates:
            try:
                engine.apply_action(run, action)
            except engine.Refused:
                continue
            builds = node.builds + (action["act"] in RAMPART_CREATING)
            aggressive = node.aggressive or _aggression(before_stacks, before_ramparts, work, ident, start_zone,
                                                        action, enemy)
            child = _Node((*node.actions, action), builds, aggressive)
            if goal(work, run, child) and engine.ma_spent(run) >= 1:
                return list(child.actions), endings
            key = (engine.fingerprint(work), engine.ma_left(run), builds, aggressive, engine.ma_spent(run) >= 1)
            # R5, R79: `face` actions past the MA are allowed only in a Maneuver of faces alone (a Stall,
            # MA not counted, searched as the Stall order); any other action after them is refused. Not
            # searched on: its MA would fall without end, every turning a new position.
            if engine.ma_left(run) >= 0 and key not in seen:
                seen.add(key)
                child.saved = engine.save_maneuver(run)
                queue.append(child)
                if collect and engine.ma_spent(run) >= 1:
                    endings.append(child.actions)
            if saved is not None:
                work, run = engine.restore_maneuver(saved)
            else:
                work, run = _rebuild(base, ident, order_number, node.actions)
    return None, endings


def _finished(base, ident: str, order_number: int, actions) -> object | None:
    """The state after the Maneuver `actions` of `ident` ends (None: it cannot end there)."""
    try:
        work, run = _rebuild(base, ident, order_number, tuple(actions))
        engine.finish_maneuver(run)
    except engine.Refused:
        return None
    return work


def _plays(state, turn: dict) -> bool:
    """The witness check: the engine accepts the whole written turn."""
    work = engine.copy(state)
    try:
        engine.play_turn(work, turn)
    except engine.Refused:
        return False
    return True


def _maneuver(ident: str, actions) -> dict:
    return {"type": "maneuver", "battalion": ident, "actions": list(actions)}


def _turn(by: str, orders: list[dict], beneficiary: str | None) -> dict:
    turn = {"by": by, "orders": orders}
    if beneficiary is not None:
        turn["sacrifice_beneficiary"] = beneficiary
    return turn


def _coming_turn(state, enemy: str):
    """The battle at the start of the enemy's coming turn, the declarer frozen (R12, R13)."""
    root = engine.copy(state)
    if engine.to_move(root) != enemy:
        engine.pass_frozen_turn(root)
    return root


def _turn_starts(root, candidates: list[str]) -> list[tuple[str | None, object]]:
    """Steps 1-4 of the coming turn: (beneficiary, state) for no beneficiary and, when a sacrifice
    completes, for each candidate named as beneficiary (R2)."""
    try:
        plain, completed = engine.start_turn(root)
    except engine.Refused:
        return []
    starts = [(None, plain)]
    if completed:
        for ident in candidates:
            try:
                starts.append((ident, engine.start_turn(root, ident)[0]))
            except engine.Refused:
                continue
    return starts


# ---- Blunt -------------------------------------------------------------------------------------
def has_war_hammer(state, declarer: str) -> bool:
    """R13 / rules text: a battalion with a War Hammer (Arms 4+) on the battlefield or in prison."""
    return any(engine.view(state, ident).arms >= 4 and engine.view(state, ident).place in ("battlefield", "prison")
               for ident in engine.battalion_ids(state, declarer))


def _aggressive_goal(work, run, node) -> bool:
    return node.aggressive is not None


def blunted(state, declarer: str) -> Answer:
    """R13 (R41, R102, R103): is the declarer's opponent blunted at this turn end?"""
    if not has_war_hammer(state, declarer):
        return Answer(False, f"{declarer} has no battalion of Arms 4+ on the battlefield or in prison")
    return without_aggressive_action(state, _other(declarer))


def deadlocked(state) -> Answer:
    """R14: neither general could take an aggressive action (R13's search applied to both)."""
    for player in ("p1", "p2"):
        answer = without_aggressive_action(state, player)
        if not answer:
            return Answer(False, f"{player} can still act: {answer.reason}", answer.witness)
    return Answer(True, "neither general can take an aggressive action")


def without_aggressive_action(state, enemy: str) -> Answer:
    """R13 without its War Hammer clause: `enemy` could take no aggressive action in its coming
    turn as the battlefield stands (the other general's turn passing frozen if it moves next)."""
    root = _coming_turn(state, enemy)
    due = _counter_attack_due(root, enemy)
    if due is not None:
        return Answer(False, f"a counter attack is due: {due}")
    own = _on_battlefield(root, enemy)
    starts = _turn_starts(root, own)
    if not starts:
        return Answer(False, "the coming turn cannot start")
    home = 1 if enemy == "p1" else engine.width_height(root)[1]
    width = engine.width_height(root)[0]
    prisoners = [ident for ident in engine.battalion_ids(root, enemy) if engine.view(root, ident).place == "prison"]
    for prisoner in prisoners:
        for column in range(width):
            order = {"type": "extricate", "battalion": prisoner, "zone": _name(column, home), "facing": "N"}
            for orders in ([order], [order, {"type": "stall"}], [{"type": "stall"}, order]):
                turn = _turn(enemy, orders, None)
                if _plays(root, turn):
                    return Answer(False, f"{prisoner} can be extricated", [turn])
    for beneficiary, start in starts:
        for ident in own:
            if beneficiary is not None and beneficiary != ident:
                continue
            actions, _ = search_maneuver(start, ident, 1, _aggressive_goal)
            if actions is None:
                continue
            turn = _turn(enemy, [_maneuver(ident, actions)], beneficiary)
            if _is_double_time(root):
                witness = _double_time_witness(root, start, beneficiary, enemy, turn["orders"][0], ident)
                if witness is not None:
                    return Answer(False, f"{ident} acts aggressively", [witness])
            elif _plays(root, turn):
                return Answer(False, f"{ident} acts aggressively", [turn])
    if _is_double_time(root):
        found = _double_time_search(root, starts, own, enemy)
        if found is not None:
            return Answer(False, "two orders of the coming turn give an aggressive action (R103)", [found])
    return Answer(True, "no aggressive action in the coming turn")


def _is_double_time(state) -> bool:
    return "double_time" in engine.variants(state)


def _double_time_witness(root, start, beneficiary, enemy, first: dict, first_id: str) -> dict | None:
    """Under double_time a turn has two orders (R103, R50): complete an aggressive first Maneuver
    with a second order of another battalion (any Stall is one; R51 names a maneuvering beneficiary)."""
    for ident in _on_battlefield(start, enemy):
        if ident == first_id:
            continue
        for second in ({"type": "stall", "battalion": ident}, {"type": "stall"}):
            turn = _turn(enemy, [first, second], beneficiary)
            if _plays(root, turn):
                return turn
    turn = _turn(enemy, [first, {"type": "stall"}], beneficiary)
    return turn if _plays(root, turn) else None


def _first_orders(start, enemy: str, beneficiary: str | None):
    """Every first order of a double time turn: (battalion, order, state after it)."""
    arts = "battle_arts" in engine.variants(start)
    for ident in _on_battlefield(start, enemy):
        # A rampart the first battalion builds can only help another one that can destroy it
        # (Arms 4+) or Alight or Snowblind by it (Frost with battle arts); otherwise it only blocks.
        builds_matter = any(engine.view(start, other).arms >= 4 or (arts and engine.kingdom_of(start, other) == "frost")
                            for other in _on_battlefield(start, enemy) if other != ident)
        _, endings = search_maneuver(start, ident, 1, lambda work, run, node: False, collect=True,
                                     builds_for_others=builds_matter)
        for actions in endings:
            if not builds_matter and any(action["act"] in RAMPART_CREATING for action in actions):
                continue
            after = _finished(start, ident, 1, actions)
            if after is not None:
                yield ident, _maneuver(ident, actions), after
        if beneficiary is not None:
            continue  # R51: with a beneficiary named, the turn's orders must include its Maneuver
        view = engine.view(start, ident)
        others: list[dict] = [{"type": "stall", "battalion": ident, "facing": f} for f in engine.FACINGS]
        others.append({"type": "sacrifice", "battalion": ident})
        for arms in range(1, view.arms):
            others.append({"type": "lighten", "battalion": ident, "arms": arms})
            for transfer in range(1, view.arms - arms + 1):
                others.append({"type": "lighten", "battalion": ident, "arms": arms, "transfer": transfer})
        for order in others:
            after = engine.copy(start)
            try:
                engine.apply_order(after, order, 1)
            except engine.Refused:
                continue
            yield ident, order, after


def _double_time_search(root, starts, own, enemy) -> dict | None:
    """R103: a first order, then an aggressive second order of another battalion."""
    for beneficiary, start in starts:
        seen = set()
        # Shortest first orders first, across battalions: a witness is usually a small step aside.
        firsts = sorted(_first_orders(start, enemy, beneficiary), key=lambda item: len(item[1].get("actions", ())))
        for first_id, first, after in firsts:
            # The first battalion's own Arms and facing change nothing another battalion can do; a
            # first order that changes nothing else leaves the single orders, searched already.
            key = (first_id, engine.fingerprint_without(after, first_id))
            if key in seen or key[1] == engine.fingerprint_without(start, first_id):
                continue
            seen.add(key)
            for ident in own:
                if ident == first_id:
                    continue
                if beneficiary is not None and first["type"] != "maneuver" and ident != beneficiary:
                    continue
                if beneficiary is not None and beneficiary not in (first_id, ident):
                    continue
                actions, _ = search_maneuver(after, ident, 2, _aggressive_goal)
                if actions is None:
                    continue
                turn = _turn(enemy, [first, _maneuver(ident, actions)], beneficiary)
                if _plays(root, turn):
                    return turn
    return None


# ---- Paralyze ----------------------------------------------------------------------------------
def paralyzed(state, declarer: str) -> Answer:
    """R12 (R102, R101, R5): is the declarer's opponent paralyzed at this turn end?"""
    enemy = _other(declarer)
    held = [ident for ident in engine.battalion_ids(state, enemy) if engine.view(state, ident).place == "prison"]
    if held:
        return Answer(False, f"{held[0]} is held in {declarer}'s prison (the enemy can Extricate)")
    root = _coming_turn(state, enemy)
    movers = _on_battlefield(root, enemy)
    for ident in movers:  # the quick look first: a Maneuver of the coming turn
        witness = _leaves_in_coming_turn(root, ident)
        if witness is not None:
            return Answer(False, f"{ident} can move out of its zone", witness)
    for ident in movers:
        witness = _ever_leaves(root, ident)
        if witness is not None:
            return Answer(False, f"{ident} can move out of its zone after preparing", witness)
    return Answer(True, "no enemy battalion can ever move out of its zone")


def _leaving_goal(zone: str, ident: str) -> Callable:
    def goal(work, run, node) -> bool:
        return engine.view(work, ident).zone not in (zone, None)
    return goal


def _leaves_in_coming_turn(turn_start, ident: str) -> list[dict] | None:
    """A Maneuver of `ident` in the turn that starts at `turn_start` that takes it out of its
    zone, as the written turn (checked by the engine), or None."""
    return _explore_turn(turn_start, ident, may_build=False, preparing=False)[0]


def _explore_turn(turn_start, ident: str, may_build: bool, preparing: bool):
    """One turn of the enemy for `ident`: (the written turn in which it leaves its zone, or None;
    and, when `preparing`, every preparatory turn as (written turn, state after its order))."""
    by = engine.to_move(turn_start)
    preparations = []
    starts = _turn_starts(turn_start, [ident])
    completed = any(beneficiary is not None for beneficiary, _ in starts)
    for beneficiary, start in starts:
        view = engine.view(start, ident)
        if view.place != "battlefield":
            continue
        zone = view.zone
        actions, endings = search_maneuver(start, ident, 1, _leaving_goal(zone, ident), collect=preparing)
        if actions is not None:
            orders = [_maneuver(ident, actions)]
            for written in (orders, [*orders, {"type": "stall"}]):  # one order, or two under double_time
                turn = _turn(by, written, beneficiary)
                if _plays(turn_start, turn):
                    return [turn], []
        if preparing:
            preparations += _preparations(start, by, ident, beneficiary, endings, may_build, completed)
    return None, preparations


def _sacrifices(start, by: str, ident: str, here: tuple[str, ...]) -> list[dict]:
    """The Sacrifices that can change what `ident` can do: of each battalion above it (R102), of
    each battalion on a Forest (its fire changes the ground, R4), and of one other battalion for
    the 8 MA (R2; which one is sacrificed matters to nothing else: `ident` may move onto its own)."""
    above = set(here[here.index(ident) + 1:])
    orders, for_ma = [], []
    for other in _on_battlefield(start, by):
        if other == ident:
            continue
        order = {"type": "sacrifice", "battalion": other}
        if other in above or engine.terrain(start, engine.view(start, other).zone) == "forest":
            orders.append(order)
        else:
            for_ma.append(order)
    for order in for_ma:
        trial = engine.copy(start)
        try:
            engine.apply_order(trial, order, 1)
        except engine.Refused:
            continue
        orders.append(order)
        break
    return orders


def _builds(turn: dict) -> bool:
    return any(action["act"] in RAMPART_CREATING for order in turn["orders"] for action in order.get("actions", ()))


def _faces_only(actions) -> bool:
    return bool(actions) and all(action["act"] == "face" for action in actions)


def _preparations(start, by: str, ident: str, beneficiary, endings, may_build: bool, completed: bool = False) -> list:
    """Every preparatory order of the enemy for `ident` (see the module docstring) after steps 1-4
    (`start`), with `endings` the action lists of its Maneuvers: (written turn, state after it). When a
    sacrifice completed at step 4 (`completed`), a Maneuver without a beneficiary is one of `face` actions
    alone, a Stall for R2 (R113); any other needs the beneficiary (R2)."""
    view = engine.view(start, ident)
    orders: list[dict] = []
    # R5, R101: a battalion on top of an enemy battalion keeps its facing (Stall and Lighten).
    here = engine.stack(start, view.zone)
    on_enemy = here.index(ident) > 0 and engine.view(start, here[here.index(ident) - 1]).general != by
    turns_to = () if on_enemy else tuple(f for f in engine.FACINGS if f != view.facing)
    if beneficiary is None:
        orders.append({"type": "stall"})
        orders += [{"type": "stall", "battalion": ident, "facing": f} for f in turns_to]
        for lightening in here[here.index(ident):]:
            current = engine.view(start, lightening).arms
            below_id = here[here.index(lightening) - 1] if here.index(lightening) > 0 else None
            facings = (None, *turns_to) if lightening == ident else (None,)
            below_facings = (None, *engine.FACINGS) if below_id == ident else (None,)
            for arms in range(1, current):
                for facing in facings:
                    for transfer in range(0, current - arms + 1):
                        for below_facing in below_facings:
                            order = {"type": "lighten", "battalion": lightening, "arms": arms}
                            if facing is not None:
                                order["facing"] = facing
                            if transfer:
                                order["transfer"] = transfer
                            if below_facing is not None:
                                order["below_facing"] = below_facing
                            orders.append(order)
        orders += _sacrifices(start, by, ident, here)
    found = []
    _spend(len(orders))
    for order in orders:
        after = engine.copy(start)
        try:
            engine.apply_order(after, order, 1)
        except engine.Refused:
            continue
        found.append((_turn(by, [order], beneficiary), after))
    builds_help = may_build and "battle_arts" in engine.variants(start) and engine.kingdom_of(start, ident) == "frost"
    for actions in endings:
        if not builds_help and any(action["act"] in RAMPART_CREATING for action in actions):
            continue  # a rampart of its own never opens a way, except to Alight or Snowblind onto
        if completed and beneficiary is None and not _faces_only(actions):
            continue  # R2: the 8 MA go to the maneuvering battalion, which must be named (R113: not a Stall)
        after = _finished(start, ident, 1, actions)
        if after is not None and engine.view(after, ident).zone == view.zone:
            found.append((_turn(by, [_maneuver(ident, actions)], beneficiary), after))
    return found


class WitnessRefused(AssertionError):
    """The engine refuses a sequence of turns the search built from steps it accepted one by one:
    the oracle and the engine disagree on what a turn is (report it, do not paper over it)."""


def _checked(root, turns: list[dict]) -> list[dict]:
    """Play the witness again, whole turn by whole turn, through the engine's `play_turn` (the
    declarer's turns passing frozen in between); under double_time each one-order preparation is
    written with a plain Stall as its second order."""
    work = engine.copy(root)
    double = "double_time" in engine.variants(root)
    for number, turn in enumerate(turns):
        written = turn
        if double and len(turn["orders"]) == 1:
            written = {**turn, "orders": [*turn["orders"], {"type": "stall"}]}
        trial = engine.copy(work)
        try:
            engine.play_turn(trial, written)
        except engine.Refused:
            trial = engine.copy(work)
            try:
                engine.play_turn(trial, turn)
            except engine.Refused as error:
                raise WitnessRefused(f"turn {number + 1} of the witness {turns} is refused: {error}") from error
        work = trial
        if number < len(turns) - 1:
            engine.pass_frozen_turn(work)
    return turns


def _ever_leaves(root, ident: str) -> list[dict] | None:
    """R12 "could ever Move out of its zone": breadth-first over the enemy's own turns."""
    seen = {engine.fingerprint(root)}
    frontier = [(root, [])]
    for depth in range(MAX_PREPARATION_TURNS + 1):
        following = []
        for turn_start, written in frontier:
            may_build = not any(_builds(turn) for turn in written)
            witness, preparations = _explore_turn(turn_start, ident, may_build,
                                                  preparing=depth < MAX_PREPARATION_TURNS)
            if witness is not None:
                return _checked(root, written + witness)
            for turn, after in preparations:
                engine.end_turn(after)
                if engine.is_over(after):
                    continue  # two consecutive Stalls: a Forced Surrender, nothing moves again (R5)
                engine.pass_frozen_turn(after)
                key = engine.fingerprint(after)
                if key in seen or engine.view(after, ident).place != "battlefield":
                    continue
                seen.add(key)
                following.append((after, [*written, turn]))
        frontier = following
        if not frontier:
            break
    return None


# ---- One battalion at a time (for hand-built positions) --------------------------------------
def battalion_can_leave(state, ident: str) -> list[dict] | None:
    """R12/R102 for one battalion: the enemy's turns (its general's opponent frozen) after which
    `ident` has moved out of its zone, or None when it never can."""
    owner = engine.view(state, ident).general
    root = _coming_turn(state, owner)
    if engine.view(root, ident).place != "battlefield":
        return None
    return _ever_leaves(root, ident)


def aggressive_maneuver(state, ident: str) -> list[dict] | None:
    """R13 for one battalion: a Maneuver of `ident` in its general's coming turn that contains an
    aggressive action (as written actions), or None."""
    owner = engine.view(state, ident).general
    root = _coming_turn(state, owner)
    for beneficiary, start in _turn_starts(root, [ident]):
        if beneficiary not in (None, ident) or engine.view(start, ident).place != "battlefield":
            continue
        actions, _ = search_maneuver(start, ident, 1, _aggressive_goal)
        if actions is not None:
            return actions
    return None
