from tests.api.conftest import harbour  # noqa: F401  (Olga's empty Harbour Open)
