"""Standings read from the database: counters summed by SQL, ranked by the domain (R24); crosstables and schedules."""
