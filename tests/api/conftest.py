from tests.reporting.conftest import event_day  # noqa: F401  (a started tournament with player accounts)
