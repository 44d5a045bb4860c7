"""German dates in the same short shape as the English ones: "24. Nov 2026", "24. Nov 2026, 15:30"; Django's own
German formats (decimal comma, thousands with a dot) fill in the rest (settings.FORMAT_MODULE_PATH)."""
DATE_FORMAT = "j. M Y"
DATETIME_FORMAT = "j. M Y, H:i"
MONTH_DAY_FORMAT = "j. M"
TIME_FORMAT = "H:i"
SHORT_DATETIME_FORMAT = "j. M, H:i"
