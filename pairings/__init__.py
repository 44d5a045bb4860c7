"""Swiss rounds, multiplayer tables and top cuts as plain functions, for every game's events.

No Django, no database: pairing a round as a maximum-weight matching (networkx) in `swiss.py`, the
standings it pairs from with their tie-breakers in `swiss_standings.py`, seating tables of 3 or 4 and
their placement points in `tables.py` and `table_standings.py`, the single-elimination bracket in
`top_cut.py`. General ids are ints. `tournaments.swiss` stores and serves what these decide.
"""
