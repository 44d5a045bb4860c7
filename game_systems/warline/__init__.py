"""WARLINE: Tactical Fantasy Battles. No lists to check; its battles' replays are adjudicated by
`rules_engine`."""
