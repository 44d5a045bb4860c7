"""League seasons: the state machine from opening to the champion (R88, R111, R112)."""
