"""Glicko-2 ratings over the counted battles of rated events (R98): recomputed from the record
(`recompute`), read by the pages, the API and group seeding (`queries`), rerun after results change
(`tasks`)."""
