"""Printable pages, exports and the event archive (tournaments/web/printouts.py)."""
from django.urls import path

from tournaments.web import printouts

urlpatterns = [
    path("events/import/", printouts.archive_import, name="event-import"),
    path("events/<slug:slug>/print/pairings/", printouts.pairings, name="print-pairings"),
    path("events/<slug:slug>/print/slips/", printouts.slips, name="print-slips"),
    path("events/<slug:slug>/export/", printouts.exports_page, name="event-exports"),
    path("events/<slug:slug>/export/<slug:what>.<slug:fmt>", printouts.export, name="event-export"),
    path("events/<slug:slug>/archive.json", printouts.archive_download, name="event-archive"),
]
