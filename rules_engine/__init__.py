"""WARLINE rules engine: replay a battle log, check every step, decide the battle.

Pure Python, standard library only. The public API:

- `load_replay(text_or_dict)` -> `Replay` (strict reading; raises `ReplayError`)
- `adjudicate(replay_or_text_or_dict)` -> `Verdict` (never raises; `verdict.to_dict()`)
- `BattleState` (advance it entry by entry and turn by turn; `reach()` says what a battalion can do)
- `replay_states(replay)` -> snapshots after the formation and after each turn
- `generate_game(seed)` -> a random legal replay (dict)
"""
from .conditions import Condition
from .errors import ERROR_CODES, Location, ReplayError
from .generator import generate_game
from .model import Replay
from .replay import load_replay
from .state import BattleState, Reach
from .variants import battle_from_replay, new_battle
from .verdict import Outcome, Snapshot, Verdict, adjudicate, replay_states

ENGINE_VERSION = "1.0.0"

__all__ = [
    "ENGINE_VERSION",
    "ERROR_CODES",
    "BattleState",
    "Condition",
    "Location",
    "Outcome",
    "Reach",
    "Replay",
    "ReplayError",
    "Snapshot",
    "Verdict",
    "adjudicate",
    "battle_from_replay",
    "generate_game",
    "load_replay",
    "new_battle",
    "replay_states",
]
