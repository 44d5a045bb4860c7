"""Printable pages (tournaments/web/printouts.py), exports and the event archive (tournaments/web/downloads.py)."""
from django.urls import path

from tournaments.web import downloads, printouts

urlpatterns = [
    path("events/import/", downloads.archive_import, name="event-import"),
    path("events/<slug:slug>/print/pairings/", printouts.pairings, name="print-pairings"),
    path("events/<slug:slug>/print/slips/", printouts.slips, name="print-slips"),
    path("events/<slug:slug>/export/", downloads.exports_page, name="event-exports"),
    path("events/<slug:slug>/export/<slug:what>.<slug:fmt>", downloads.export, name="event-export"),
    path("events/<slug:slug>/archive.json", downloads.archive_download, name="event-archive"),
]
