"""The replay viewer's data: the battlefield after the formation and after each turn, as plain
JSON for the page's SVG, with each step told in words (the orders from the log, then what changed on
the battlefield), and the engine's objection where an invalid log stops.

Only the engine's public API is used: `load_replay`, `replay_states` and the snapshot's queries."""
from __future__ import annotations

import json

import rules_engine
from tournaments.results.agreement import CONDITION_WORDS, map_generals

SIDES = ("p1", "p2")
FACING_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}


def _terrain_of(state, zone):
    """The terrain of a zone now (None: flatland); the one place that asks the engine for terrain."""
    return state.terrain_at(zone)


def _frame(snapshot):
    state = snapshot.state
    zones, terrain = {}, {}
    for name in state.board.names:
        stack, ramparts = state.stack_at(name), state.ramparts_at(name)
        if stack or ramparts:
            zones[name] = {"stack": list(stack), "rampart": state.rampart_at(name), "ramparts": list(ramparts)}
        kind = _terrain_of(state, name)
        if kind is not None:
            terrain[name] = kind
    battalions = {}
    for ident in state.ids:
        view = state.battalion(ident)
        battalions[ident] = {"general": view.general, "arms": view.arms, "facing": view.facing,
                             "place": view.place, "zone": view.zone, "tokens": list(view.tokens)}
    return {"turn": snapshot.turn, "zones": zones, "terrain": terrain, "battalions": battalions}


# ---- The log in words ---------------------------------------------------------------------------------

def _facing(letter):
    return FACING_WORDS.get(letter, str(letter))


def _listed(parts):
    parts = [part for part in parts if part]
    if len(parts) < 2:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _left_facing(facings):
    if not facings:
        return ""
    return " (" + ", ".join(f"{ident} left facing {_facing(to)}" for ident, to in facings.items()) + ")"


def _art_words(action):
    name = str(action.get("act", "")).replace("_", " ").title()
    words = f"uses {name}"
    to = action.get("to")
    if to in FACING_WORDS:
        words += f" towards the {_facing(to)}"
    elif to == "off":
        words += " off the battlefield"
    elif to:
        words += f" to {to}"
    if action.get("zone"):
        words += f" on {action['zone']}"
    if action.get("target"):
        words += f" against {action['target']}"
    if action.get("facing"):
        words += f", facing {_facing(action['facing'])}"
    if action.get("torment"):
        words += ", tormenting it at once"
    return words + _left_facing(action.get("enemy_facings"))


def _action_words(action, moves):
    act = action.get("act")
    if act == "move":
        kind = "makes a Snowblind Move" if action.get("snowblind") else (
            "moves 1 zone" if moves == 1 else f"moves {moves} zones")
        return kind + _left_facing(action.get("enemy_facings"))
    if act == "face":
        return f"turns to face {_facing(action.get('to'))}"
    if act == "rout":
        if action.get("to") == "off":
            return f"routs {action.get('target')} off the battlefield" + (
                " and torments it" if action.get("torment") else "")
        return f"routs {action.get('target')} to {action.get('to')}"
    if act == "build":
        return f"builds a rampart on {action.get('zone')}"
    if act == "destroy":
        return f"destroys the rampart on {action.get('zone')}"
    return _art_words(action)


def _maneuver_words(order):
    """Consecutive plain moves read as one: "moves 2 zones"."""
    parts, actions, index = [], order.get("actions", []), 0
    while index < len(actions):
        action, moves = actions[index], 1
        plain = action.get("act") == "move" and not action.get("snowblind") and not action.get("enemy_facings")
        while plain and index + moves < len(actions) and actions[index + moves] == {"act": "move"}:
            moves += 1
        parts.append(_action_words(action, moves))
        index += moves
    return f"{order.get('battalion')} {_listed(parts) or 'holds still'}"


def _order_words(order):
    kind = order.get("type")
    if kind == "maneuver":
        return _maneuver_words(order)
    if kind == "extricate":
        return (f"extricates {order.get('battalion')} onto {order.get('zone')}, facing "
                f"{_facing(order.get('facing'))}")
    if kind == "sacrifice":
        return f"marks {order.get('battalion')} for Sacrifice"
    if kind == "lighten":
        words = f"lightens {order.get('battalion')} to Arms {order.get('arms')}"
        if order.get("facing"):
            words += f", facing {_facing(order['facing'])}"
        if order.get("transfer"):
            words += f", passing {order['transfer']} Arms to the battalion beneath"
        if order.get("below_facing"):
            words += f" (left facing {_facing(order['below_facing'])})"
        return words
    if order.get("battalion"):
        return f"stalls, turning {order['battalion']} to face {_facing(order.get('facing'))}"
    return "stalls"


def _turn_words(turn):
    parts = []
    if turn.get("torment"):
        parts.append(f"torments {_listed(list(turn['torment']))} in prison")
    if turn.get("counter_facings"):
        parts.append("sets " + _listed([f"{ident} facing {_facing(to)}"
                                        for ident, to in turn["counter_facings"].items()])
                     + " after the counter attacks")
    if turn.get("sacrifice_beneficiary"):
        parts.append(f"gives the Sacrifice's 8 MA to {turn['sacrifice_beneficiary']}")
    parts.extend(_order_words(order) for order in turn.get("orders", []))
    return "; ".join(parts) + "."


def _formation_words(formation, names):
    lines = []
    for side in SIDES:
        placed = [f"{entry['battalion']} on {entry['zone']}" for entry in formation if entry.get("by") == side]
        if placed:
            lines.append(f"{names[side]} deploys {_listed(placed)}.")
    return lines


def _ending_words(result, names):
    if result is None:
        return "The battle ends by Forced Surrender: two consecutive Stalls."
    kind, by = result.get("type"), names.get(result.get("by"), result.get("by"))
    if kind == "claim":
        return f"{by} declares {CONDITION_WORDS.get(result.get('condition'), result.get('condition'))}."
    if kind == "surrender":
        return f"{by} surrenders."
    return {"deadlock": "The generals declare a deadlock.", "resolve": "The generals declare Resolve.",
            "unfinished": "The log stops before the battle ended."}.get(kind, "")


# ---- What changed between two pictures ----------------------------------------------------------------

def _battalion_changes(before, after, zones):
    sentences = []
    for ident, now in after["battalions"].items():
        was = before["battalions"][ident]
        if now == was:
            continue
        zones.update(zone for zone in (was["zone"], now["zone"]) if zone)
        if now["place"] != was["place"]:
            sentences.append({"prison": f"{ident} is taken prisoner", "graveyard": f"{ident} is slaughtered",
                              "battlefield": f"{ident} returns to {now['zone']}"}.get(now["place"], f"{ident} leaves"))
        elif now["zone"] != was["zone"]:
            turned = f", facing {_facing(now['facing'])}" if now["facing"] != was["facing"] else ""
            sentences.append(f"{ident} {was['zone']} → {now['zone']}{turned}")
        elif now["facing"] != was["facing"] and now["place"] == "battlefield":
            sentences.append(f"{ident} now faces {_facing(now['facing'])}")
        if now["arms"] != was["arms"] and now["place"] != "graveyard":
            sentences.append(f"{ident} Arms {was['arms']} → {now['arms']}")
        gained = [token for token in now["tokens"] if token not in was["tokens"]]
        sentences.extend(f"{ident} takes the {token.title()} token" for token in gained)
    return sentences


def _rampart_changes(before, after, zones):
    sentences = []
    for zone in sorted(set(before["zones"]) | set(after["zones"])):
        was, now = before["zones"].get(zone, {}), after["zones"].get(zone, {})
        if was.get("stack") != now.get("stack"):
            zones.add(zone)
        had, has = was.get("ramparts", []), now.get("ramparts", [])
        if had != has:
            zones.add(zone)
            sentences.append(f"rampart built on {zone}" if len(has) > len(had) else
                             f"rampart on {zone} destroyed" if len(has) < len(had) else f"ramparts on {zone} change")
    return sentences


def _terrain_changes(before, after, zones):
    """One sentence per kind of change: "b3 and b4: crag → chasm"."""
    transitions = {}
    for zone in sorted(set(before["terrain"]) | set(after["terrain"])):
        was, now = before["terrain"].get(zone), after["terrain"].get(zone)
        if was != now:
            zones.add(zone)
            transitions.setdefault((was or "flatland", now or "flatland"), []).append(zone)
    return [f"{_listed(where)}: {was} → {now}" for (was, now), where in transitions.items()]


def _changes(before, after):
    """Sentences saying what the step changed, and the zones it changed (to outline on the board)."""
    zones = set()
    sentences = (_battalion_changes(before, after, zones) + _rampart_changes(before, after, zones)
                 + _terrain_changes(before, after, zones))
    return sentences, sorted(zones, key=lambda name: (int(name[1:]), name[0]))


def _where(error):
    """Where in the log the first illegal step is, as words that follow "not a legal battle"."""
    if error["turn"] is None:
        return "in its result"
    if error["turn"] == 0:
        return "in its header or Battle Formation"
    parts = [f"turn {error['turn']}"]
    if error["order"] is not None:
        parts.append(f"order {error['order']}")
    if error["action"] is not None:
        parts.append(f"action {error['action']}")
    return "at " + ", ".join(parts)


def _error(problem):
    error = problem.to_dict()
    error["where"] = _where(error)
    return error


def battle_side_names(replay_text, battle):
    """{"p1": name, "p2": name} of the battle's generals where the replay is theirs (R73: its general
    ids or names); None otherwise, and the viewer shows the replay's own names."""
    try:
        document = json.loads(replay_text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(document, dict):
        return None
    mapped, problem = map_generals(document, battle)
    return None if problem else {side: general.name for side, general in mapped.items()}


def viewer_document(replay_text, names=None):
    """{"board", "generals", "frames", "ending", "error"}; `error` locates the first illegal step, if any.

    `names` ({"p1": ..., "p2": ...}) are the battle's generals as they should be shown; by default the
    replay's own names. Each frame tells its step: `by` (the general who moved), `words` (the orders),
    `changes` (what changed on the battlefield) and `changed` (the zones to mark)."""
    try:
        replay = rules_engine.load_replay(replay_text)
    except rules_engine.ReplayError as problem:
        return {"board": None, "generals": {}, "frames": [], "ending": "", "error": _error(problem)}
    generals = {side: general.to_dict() for side, general in zip(SIDES, replay.generals, strict=True)}
    for side in SIDES:
        if names and names.get(side):
            generals[side]["name"] = names[side]
    shown = {side: generals[side]["name"] for side in SIDES}
    log = replay.to_dict()
    frames, error = [], None
    try:
        for snapshot in rules_engine.replay_states(replay):
            frame = _frame(snapshot)
            if snapshot.turn == 0:
                frame.update(by=None, words=_formation_words(log["formation"], shown),
                             changes=[f"{shown[log['first_turn']]} takes the first turn."], changed=[])
            else:
                turn = log["turns"][snapshot.turn - 1]
                changes, changed = _changes(frames[-1], frame)
                frame.update(by=turn["by"], words=[_turn_words(turn)], changes=changes, changed=changed)
            frames.append(frame)
    except rules_engine.ReplayError as problem:
        error = _error(problem)
        turn = error["turn"] or 0
        if 0 < turn <= len(log["turns"]):
            error["by"] = log["turns"][turn - 1].get("by")
    rules = log["rules"]
    return {"board": {"width": replay.rules.width, "height": replay.rules.height,
                      "control": dict(rules.get("control") or {})},
            "generals": generals, "frames": frames,
            "ending": "" if error else _ending_words(log.get("result"), shown), "error": error}
