"""An independent check of the engine's Paralyze (R12, R102, R115) and Blunt (R13, R103) answers.

- `oracle.py`: the brute-force search, written from the rules text and the rulings;
- `engine_adapter.py`: the only module that touches the engine (move generator and answers);
- `positions.py`: hypothesis strategies for legal small-board positions near the end of a game
  (generated games, some with the beneficiary of face-only Maneuvers left out, R113), and for
  mixed stacks (an enemy battalion between two of a general's own, the upper one often marked for
  Sacrifice, R115);
- `test_oracle_agrees.py`: the agreement property (a cheap capped run by default, the long run with
  `OPP_ORACLE_EXAMPLES`), hand-built positions, and the engine's former misjudgements as cases
  (`cases/*.json`, minimal replays), decided by both.
"""
