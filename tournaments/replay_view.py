"""The replay viewer's data: the battlefield after the formation and after each turn, as plain
JSON for the page's SVG, and the engine's objection where an invalid log stops."""
from __future__ import annotations

import rules_engine


def _frame(snapshot):
    state = snapshot.state
    zones = {}
    for name in state.board.names:
        stack, rampart = state.stack_at(name), state.rampart_at(name)
        if stack or rampart:
            zones[name] = {"stack": list(stack), "rampart": rampart}
    battalions = {}
    for ident in state.ids:
        view = state.battalion(ident)
        battalions[ident] = {"general": view.general, "arms": view.arms, "facing": view.facing,
                             "place": view.place, "zone": view.zone, "tokens": list(view.tokens)}
    return {"turn": snapshot.turn, "zones": zones, "battalions": battalions}


def viewer_document(replay_text):
    """{"board", "generals", "frames", "error"}; `error` locates the first illegal step, if any."""
    try:
        replay = rules_engine.load_replay(replay_text)
    except rules_engine.ReplayError as problem:
        return {"board": None, "generals": {}, "frames": [], "error": problem.to_dict()}
    frames, error = [], None
    try:
        for snapshot in rules_engine.replay_states(replay):
            frames.append(_frame(snapshot))
    except rules_engine.ReplayError as problem:
        error = problem.to_dict()
    return {"board": {"width": replay.rules.width, "height": replay.rules.height},
            "generals": {side: general.to_dict() for side, general in zip(("p1", "p2"), replay.generals, strict=True)},
            "frames": frames, "error": error}
