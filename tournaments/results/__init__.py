"""Battle results: reports, their confirmation and dispute, adjudication by the rules engine, the one entry point that counts a result."""
