"""Seeded random legal games, for tests, benchmarks and demos.

`generate_game(seed)` plays both generals at random through `BattleState` itself: every step is
tried on the engine and kept only when the engine accepts it, so a generated game is legal by
construction and ends the way a real one can (a claim when a victory condition holds, a Forced
Surrender, a deadlock, a resolve, a voluntary surrender, or unfinished at the turn limit).
The same seed always gives the same game.
"""
from __future__ import annotations

import random

from .actions import predict_survivor
from .board import FACINGS
from .errors import ReplayError
from .model import (
    KINGDOMS,
    PLAYERS,
    TERRAINS,
    VARIANTS,
    BattalionSpec,
    Build,
    Deployment,
    Destroy,
    Extricate,
    Face,
    General,
    Lighten,
    Maneuver,
    Move,
    Replay,
    Result,
    Rout,
    Rules,
    Sacrifice,
    Stall,
    Turn,
)
from .state import BattleState
from .variants import new_battle
from .variants.arts import KINGDOM_ARTS
from .victory import BEST_FIRST, HOLDS, RESOLVE_TURNS, has_aggressive_action


def _candidate_actions(state: BattleState, battalion: int, rng: random.Random) -> list:
    """Plausible next actions of a maneuvering battalion; the engine decides which are legal."""
    board = state.board
    here = state.zone[battalion]
    facing = state.facing[battalion]
    ahead = board.neighbours[here][facing]
    aggressive, other = [], []
    if ahead >= 0:
        stack = state.stacks[ahead]
        if stack and state.owner[stack[-1]] != state.owner[battalion]:
            survivor = predict_survivor(state, battalion, ahead)
            facings = None
            if survivor is not None and rng.random() < 0.5:
                facings = ((state.ids[survivor], rng.choice(FACINGS)),)
            aggressive.append(Move(facings))
            target = state.ids[stack[-1]]
            if board.on_edge[ahead]:
                aggressive.append(Rout(target, "off", rng.choice((None, False, True))))
            for near in board.adjacent[ahead]:
                aggressive.append(Rout(target, board.names[near], rng.choice((None, False))))
        else:
            other.append(Move())
            other.append(Move())
        if state.ramparts[ahead] is not None:
            aggressive.append(Destroy(board.names[ahead]))
    for turn_to in range(4):
        if turn_to != facing:
            other.append(Face(FACINGS[turn_to]))
    if rng.random() < 0.08:
        other.append(Build(board.names[rng.choice(board.adjacent[here])]))
    rng.shuffle(aggressive)
    rng.shuffle(other)
    return aggressive + other if rng.random() < 0.8 else other + aggressive


def _apply_first(run, candidates):
    """The first of `candidates` the Maneuver accepts, applied; None when it accepts none."""
    for action in candidates:
        try:
            run.apply(action)
        except ReplayError:
            continue
        return action
    return None


def _try_maneuver(state: BattleState, start: dict, ident: str, rng: random.Random, may_stall: bool):
    """Play one random Maneuver of `ident` on a copy; returns (state, order) or None."""
    trial = state.copy()
    beneficiary = ident if start["sacrifice"] else None
    trial.start_turn(start["by"], start["torment"], start["counter_facings"], beneficiary)
    run = trial.begin_maneuver(ident)
    actions = []
    battalion = trial.index[ident]
    for _ in range(12):
        if run.routed or run.ma_left == 0:
            break
        if run.spent >= 1 and rng.random() < 0.3 and (may_stall or not run.faces_only):
            break
        action = _apply_first(run, _candidate_actions(trial, battalion, rng))
        if action is None:
            break
        actions.append(action)
    if run.spent < 1 or (run.faces_only and not may_stall):
        return None
    run.finish()
    trial.end_turn()
    return trial, Maneuver(ident, tuple(actions)), beneficiary


def _play_turn(state: BattleState, rng: random.Random, allow_stall: bool) -> tuple[BattleState, Turn]:
    player = state.to_move
    by = PLAYERS[player]
    torment = None
    held = [state.ids[b] for b in state.prisons[player]]
    if held and rng.random() < 0.5:
        torment = tuple(ident for ident in held if rng.random() < 0.6)
    probe = state.copy()
    opened = probe.start_turn(by, torment)
    counter = tuple((ident, rng.choice(FACINGS)) for ident in opened.counter_survivors if rng.random() < 0.5)
    start = {"by": by, "torment": torment, "counter_facings": counter or None, "sacrifice": opened.sacrifice_completed}
    may_stall = allow_stall or not state.stalled[player]
    own = [b for b in probe.on_battlefield(player) if probe.is_top_most(b) and probe.stun != b]
    rng.shuffle(own)

    def finish(order, beneficiary=None):
        trial = state.copy()
        trial.start_turn(by, torment, start["counter_facings"], beneficiary)
        trial.apply_order(order)
        trial.end_turn()
        return trial, Turn(by, (order,), torment, start["counter_facings"], beneficiary)

    roll = rng.random()
    prisoners = [b for b in state.prisons[1 - player]]
    if prisoners and roll < 0.5:
        home = state.board.zones_in_row(state.board.home_rows[player])
        free = [z for z in home if not probe.stacks[z] and probe.ramparts[z] is None]
        if free:
            return finish(Extricate(state.ids[rng.choice(prisoners)], state.board.names[rng.choice(free)],
                                    rng.choice(FACINGS)))
    if own and roll < 0.04:
        battalion = own[0]
        if probe.arms[battalion] > 1:
            stack = probe.stacks[probe.zone[battalion]]
            new_arms = rng.randint(1, probe.arms[battalion] - 1)
            transfer = below_facing = None
            if len(stack) > 1 and probe.owner[stack[-2]] == player:
                room = 6 - probe.arms[stack[-2]]
                transfer = rng.randint(0, min(room, probe.arms[battalion] - new_arms))
                below_facing = rng.choice((None, *FACINGS))
            facing = rng.choice((None, *FACINGS))
            if len(stack) > 1 and probe.owner[stack[-2]] != player:
                facing = None  # R101: a Lighten on an enemy battalion keeps the facing
            return finish(Lighten(state.ids[battalion], new_arms, facing, transfer, below_facing))
    if own and len(own) > 1 and roll < 0.06 and not opened.sacrifice_completed:
        return finish(Sacrifice(state.ids[own[0]]))
    for battalion in own:
        played = _try_maneuver(state, start, state.ids[battalion], rng, may_stall and rng.random() < 0.3)
        if played is not None:
            trial, order, beneficiary = played
            return trial, Turn(by, (order,), torment, start["counter_facings"], beneficiary)
    heavy = [b for b in own if probe.arms[b] > 1]
    if heavy and state.stalled[player] and not allow_stall:
        # A second Stall would surrender; Lighten is the order that is always left.
        return finish(Lighten(state.ids[heavy[0]], probe.arms[heavy[0]] - 1))
    return finish(Stall())


def _deploy(state: BattleState, rng: random.Random) -> list[Deployment]:
    entries = []
    board = state.board
    order = [[b for b in range(len(state.ids)) if state.owner[b] == player] for player in (0, 1)]
    for army in order:
        rng.shuffle(army)
    for _step in range(len(state.ids)):
        player = state.ruleset.formation_player(state)
        battalion = order[player].pop()
        rows = board.deployment_rows[player]
        zones = [z for z in range(board.size) if board.rows[z] in rows
                 and (state.stacks[z] or state.ruleset.can_deploy(state, player, z))]
        empty = [z for z in zones if not state.stacks[z]]
        stacked = [z for z in zones if state.stacks[z]]
        zone = rng.choice(stacked) if stacked and (not empty or rng.random() < 0.15) else rng.choice(empty)
        facing = rng.choice(FACINGS) if rng.random() < 0.3 else ("N" if player == 0 else "S")
        entry = Deployment(PLAYERS[player], state.ids[battalion], board.names[zone], facing)
        state.deploy(entry)
        entries.append(entry)
    return entries


def _art_candidates(state: BattleState, battalion: int, rng: random.Random) -> list:
    """Battle arts this battalion might use now (each kingdom's module lists its own); the engine
    decides which are legal."""
    arts = KINGDOM_ARTS[state.kingdom[battalion]].generator_arts(state, battalion, rng)
    rng.shuffle(arts)
    return arts


def _variant_maneuver(work: BattleState, ident: str, number: int, rng: random.Random, may_stall: bool):
    """A random Maneuver of `ident` as order `number` on a copy of `work`; (state, order) or None."""
    trial = work.copy()
    try:
        run = trial.begin_maneuver(ident, number)
    except ReplayError:
        return None
    battalion = trial.index[ident]
    actions = []
    for _ in range(12):
        if run.routed or run.ended_by is not None or run.ma_left == 0 or trial.zone[battalion] < 0:
            break
        if run.spent >= 1 and rng.random() < 0.3 and (may_stall or not run.faces_only):
            break
        candidates = _candidate_actions(trial, battalion, rng)
        if trial.ruleset.has_arts and rng.random() < 0.4:
            candidates = _art_candidates(trial, battalion, rng) + candidates
        action = _apply_first(run, candidates)
        if action is None:
            break
        actions.append(action)
    try:
        if run.faces_only and not may_stall:
            return None
        run.finish()
    except ReplayError:
        return None
    return trial, Maneuver(ident, tuple(actions))


def _variant_turn(state: BattleState, rng: random.Random, allow_stall: bool) -> tuple[BattleState, Turn]:
    """One turn under any variants: as many orders as the ruleset asks, each tried on the engine."""
    player = state.to_move
    by = PLAYERS[player]
    held = [state.ids[b] for b in state.prisons[player]]
    torment = tuple(i for i in held if rng.random() < 0.5) if held and rng.random() < 0.5 else None
    probe = state.copy()
    opened = probe.start_turn(by, torment)
    counter = tuple((i, rng.choice(FACINGS)) for i in opened.counter_survivors if rng.random() < 0.5) or None
    count = state.ruleset.orders_in_turn(state.turns_played + 1)
    may_stall = allow_stall or not state.stalled[player]
    own = [b for b in probe.on_battlefield(player) if probe.is_top_most(b) and probe.stun != b]
    beneficiary = state.ids[rng.choice(own)] if opened.sacrifice_completed and own else None
    work = state.copy()
    work.start_turn(by, torment, counter, beneficiary)
    orders = []
    for number in range(1, count + 1):
        used = {order.battalion for order in orders}
        candidates = [state.ids[b] for b in work.on_battlefield(player)
                      if work.is_top_most(b) and work.stun != b and state.ids[b] not in used]
        if beneficiary is not None:
            candidates = [i for i in candidates if i == beneficiary]
        rng.shuffle(candidates)
        chosen = None
        roll = rng.random()
        if roll < 0.05 and candidates and len(work.on_battlefield(player)) > 1:
            trial = work.copy()
            try:
                trial.apply_order(Sacrifice(candidates[0]), number)
                chosen = trial, Sacrifice(candidates[0])
            except ReplayError:
                pass
        if chosen is None and work.prisons[1 - player] and roll < 0.5:
            home = work.board.zones_in_row(work.board.home_rows[player])
            free = [z for z in home if not work.stacks[z] and work.ramparts[z] is None
                    and work.ruleset.can_extricate_to(work, player, z)]
            prisoners = [b for b in work.prisons[1 - player] if state.ids[b] not in used]
            if free and prisoners:
                order = Extricate(state.ids[rng.choice(prisoners)], work.board.names[rng.choice(free)],
                                  rng.choice(FACINGS))
                trial = work.copy()
                trial.apply_order(order, number)
                chosen = trial, order
        for ident in candidates if chosen is None else ():
            chosen = _variant_maneuver(work, ident, number, rng, may_stall and rng.random() < 0.3)
            if chosen is not None:
                break
        if chosen is None:
            heavy = [i for i in candidates if work.arms[work.index[i]] > 1
                     and work.ramparts[work.zone[work.index[i]]] is None]
            order = Lighten(heavy[0], work.arms[work.index[heavy[0]]] - 1) if heavy and not may_stall else Stall()
            trial = work.copy()
            trial.apply_order(order, number)
            chosen = trial, order
        work, order = chosen
        orders.append(order)
    work.end_turn()
    return work, Turn(by, tuple(orders), torment, counter, beneficiary)


def _recruit(letter: str, rng: random.Random, size: int) -> tuple[BattalionSpec, ...]:
    """A random army that Army Recruiting allows: combined Arms within floor(3.5 x n), one of Arms 4+."""
    limit = size * 7 // 2
    arms = [rng.randint(4, 6)] + [1] * (size - 1)
    budget = limit - sum(arms)
    for index in rng.sample(range(1, size), size - 1):
        extra = rng.randint(0, min(5, budget))
        arms[index] += extra
        budget -= extra
    rng.shuffle(arms)
    return tuple(BattalionSpec(f"{letter}{number}", value, rng.choice((None, *KINGDOMS)))
                 for number, value in enumerate(arms, 1))


def _random_terrain(rng: random.Random, width: int, height: int) -> tuple[tuple, tuple]:
    terrain, control = [], []
    for row in range(1, height + 1):
        for column in range(width):
            if rng.random() < 0.25:
                name = f"{chr(97 + column)}{row}"
                kind = rng.choice(TERRAINS)
                terrain.append((name, kind))
                if kind in ("populace", "stronghold") and rng.random() < 0.7:
                    control.append((name, rng.choice(PLAYERS)))
    return tuple(terrain), tuple(control)


def generate_game(seed: int, *, width: int = 7, height: int = 7, max_turns: int = 80,
                  claim_chance: float = 0.5, variants: tuple[str, ...] = (),
                  names: tuple[str, str] = ("Player One", "Player Two"),
                  general_ids: tuple[int, int] | None = None) -> dict:
    """A random legal replay (as a dict) for `seed`; boards need a height of at least 3.
    `variants` elects any of the Organized Play variants (in the order of `model.VARIANTS`);
    `names` are the generals' names and `general_ids` their platform ids (`meta.general_ids`, see
    docs/replay-extensions.md). Neither changes the game a seed gives."""
    if height < 3:
        raise ValueError("a board needs a height of at least 3 to have deployment rows")
    unknown = set(variants) - set(VARIANTS)
    if unknown:
        raise ValueError(f"not variants: {', '.join(sorted(unknown))}")
    rng = random.Random(seed)
    kingdoms = rng.sample(KINGDOMS, 2)
    generals = (General(names[0], kingdoms[0]), General(names[1], kingdoms[1]))
    armies = []
    if "army_recruiting" in variants:
        size = rng.randint(6, 8)
        armies = [_recruit("A", rng, size), _recruit("B", rng, size)]
    else:
        for letter in ("A", "B"):
            arms = list(range(1, 7))
            rng.shuffle(arms)
            armies.append(tuple(BattalionSpec(f"{letter}{value}", value) for value in arms))
    terrain = control = None
    if "terrain" in variants:
        terrain, control = _random_terrain(rng, width, height)
        terrain, control = terrain or None, control or None
    elected = tuple(name for name in VARIANTS if name in variants)
    rules = Rules(elected, width, height, terrain, control, None)
    state = new_battle(rules, generals, tuple(armies))
    formation = _deploy(state, rng)
    first_turn = rng.choice(PLAYERS)
    state.begin_battle(first_turn)
    play = _variant_turn if elected else _play_turn
    turns: list[Turn] = []
    result: Result | None = Result("unfinished")
    while len(turns) < max_turns:
        state, turn = play(state, rng, allow_stall=rng.random() < 0.02)
        turns.append(turn)
        if state.is_over:
            result = Result("surrender", PLAYERS[state.forced_surrender]) if rng.random() < 0.3 else None
            break
        if rng.random() < 0.0005:
            result = Result("surrender", rng.choice(PLAYERS))
            break
        claimed = None
        for number, player in enumerate(PLAYERS):
            holding = [c for c in BEST_FIRST if HOLDS[c](state, number)]
            if holding and rng.random() < claim_chance:
                claimed = Result("claim", player, str(rng.choice(holding)))
                break
        if claimed is not None:
            result = claimed
            break
    else:
        if not has_aggressive_action(state, 0) and not has_aggressive_action(state, 1):
            result = Result("deadlock")
        elif state.calm_turns >= RESOLVE_TURNS:
            result = Result("resolve")
    meta: dict = {"generator": {"seed": seed, "max_turns": max_turns, **({"variants": list(elected)}
                                                                         if elected else {})}}
    if general_ids is not None:
        meta["general_ids"] = dict(zip(PLAYERS, general_ids, strict=True))
    replay = Replay(rules, generals, tuple(armies), tuple(formation), first_turn, tuple(turns), result,
                    meta=meta)
    return replay.to_dict()


WORST_CASES = ("flourish", "quiet")


def worst_case_game(kind: str = "flourish", *, turns: int = 2, ma_by_arms: tuple[int, ...] | None = None,
                    seed: int = 0) -> dict:
    """A hand-built legal replay whose turn ends cost the victory checks as much as a battle can (the worst
    case `bench/engine.py` times, R99): a 26 x 26 battlefield under Army Recruiting and Double Time, sixteen
    battalions a side that no turn brings within reach of the enemy, so that every turn end searches every
    battalion's two orders (R103) and finds nothing; the result is p1's Blunt claim.

    Each general has eight Arms-6 Timber battalions on the home row, facing off the battlefield, and eight
    Arms-1 Flaym battalions four rows further in. `kind`:
    - "flourish": with Battle Arts and Terrain too, each Arms-6 battalion hemmed in by waterbody: a Flourish
      may raise a rampart on any empty zone, and the Blunt search asks what each one opens;
    - "quiet": neither: the plain two-order search on a large battlefield.
    After the first turn (one order, R50) each turn walks two Arms-1 battalions, chosen by `seed`, one zone
    forward or back within four rows, so that the battlefield rarely comes back; `turns` is 1..5,000.
    `ma_by_arms` (rules.params, R1) must give Arms 1 at least 5 MA (a step back and two turns)."""
    if kind not in WORST_CASES:
        raise ValueError(f"kind must be one of {', '.join(WORST_CASES)}")
    if not 1 <= turns <= 5000:
        raise ValueError("turns must be 1..5000")
    if ma_by_arms is not None and ma_by_arms[0] < 5:
        raise ValueError("Arms 1 needs at least 5 MA to step back")
    side = 26
    letters = [chr(97 + column) for column in range(side)]
    columns = [letters[3 * number + 1] for number in range(8)]
    home, inner, facing, back = {"p1": 1, "p2": side}, {"p1": 4, "p2": side - 3}, {"p1": "N", "p2": "S"}, \
        {"p1": "S", "p2": "N"}
    armies: dict[str, list[dict]] = {}
    places: dict[str, list[tuple[str, str, str]]] = {}
    for player, letter in (("p1", "A"), ("p2", "B")):
        armies[player] = ([{"id": f"{letter}H{n}", "arms": 6} for n in range(1, 9)]
                          + [{"id": f"{letter}L{n}", "arms": 1, "kingdom": "flaym"} for n in range(1, 9)])
        places[player] = ([(f"{letter}H{n}", f"{columns[n - 1]}{home[player]}", back[player]) for n in range(1, 9)]
                          + [(f"{letter}L{n}", f"{columns[n - 1]}{inner[player]}", facing[player])
                             for n in range(1, 9)])
    formation = []
    for pair in range(8):  # R54: two entries each, p1 first
        for player in PLAYERS:
            for ident, zone, towards in places[player][2 * pair:2 * pair + 2]:
                formation.append({"by": player, "battalion": ident, "zone": zone, "facing": towards})
    rules: dict = {"variants": ["army_recruiting", "double_time"], "board": {"width": side, "height": side}}
    if kind == "flourish":
        rules["variants"] = ["battle_arts", "army_recruiting", "terrain", "double_time"]
        water = {}
        for number in range(8):
            for row, beside in ((1, 2), (side, side - 1)):
                water[f"{letters[3 * number]}{row}"] = water[f"{letters[3 * number + 2]}{row}"] = "waterbody"
                water[f"{letters[3 * number + 1]}{beside}"] = "waterbody"
        rules["terrain"] = water
    if ma_by_arms is not None:
        rules["params"] = {"ma_by_arms": list(ma_by_arms)}
    rng = random.Random(seed)
    walked = {player: [0] * 8 for player in PLAYERS}  # zones each Arms-1 battalion stands in from its start

    def step(player: str, number: int) -> dict:
        ident = f"{'A' if player == 'p1' else 'B'}L{number + 1}"
        out = walked[player][number] == 3 or (walked[player][number] > 0 and rng.random() < 0.5)
        walked[player][number] += -1 if out else 1
        actions = ([{"act": "face", "to": back[player]}, {"act": "move"}, {"act": "face", "to": facing[player]}]
                   if out else [{"act": "move"}])
        return {"type": "maneuver", "battalion": ident, "actions": actions}

    played = []
    for number in range(turns):
        player = PLAYERS[number % 2]
        chosen = rng.sample(range(8), 1 if number == 0 else 2)
        played.append({"by": player, "orders": [step(player, battalion) for battalion in chosen]})
    return {"format": "warline-replay", "version": 1, "meta": {"worst_case": {"kind": kind, "seed": seed}},
            "rules": rules, "generals": {"p1": {"name": "Player One", "kingdom": "timber"},
                                         "p2": {"name": "Player Two", "kingdom": "timber"}},
            "armies": armies, "formation": formation, "first_turn": "p1", "turns": played,
            "result": {"type": "claim", "by": "p1", "condition": "blunt"}}
