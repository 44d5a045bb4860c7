"""Swiss rounds and top cuts for every game: pairing a round (pairings.swiss), the standings
with the chosen tie-breakers (pairings.swiss_standings), drops, and the single-elimination
top cut (pairings.top_cut)."""
