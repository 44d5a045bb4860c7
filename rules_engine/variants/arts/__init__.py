"""The battle arts, one module per kingdom: each holds its arts' handlers (`HANDLERS`, the Arms each
needs in `ARMS`) and its part of the Paralyze and Blunt searches (`can_leave`, `aggressive`)."""
from . import blak, flaym, frost, sey, timber

KINGDOM_ARTS = {"flaym": flaym, "frost": frost, "sey": sey, "timber": timber, "blak": blak}
# act -> (kingdom, Arms that may use it)
ARTS: dict[str, tuple[str, frozenset[int]]] = {
    act: (kingdom, arms) for kingdom, arts in KINGDOM_ARTS.items() for act, arms in arts.ARMS.items()}
HANDLERS = {act: handler for arts in KINGDOM_ARTS.values() for act, handler in arts.HANDLERS.items()}
