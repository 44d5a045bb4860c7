"""English dates as this site has always written them: "24 Nov 2026", "24 Nov 2026, 15:30" (a day before its
month, the clock in 24 hours); Django's own English formats fill in the rest (settings.FORMAT_MODULE_PATH)."""
DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i"
MONTH_DAY_FORMAT = "j M"
TIME_FORMAT = "H:i"
SHORT_DATETIME_FORMAT = "j M, H:i"
