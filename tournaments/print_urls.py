"""Printable pages, exports and the event archive (tournaments/print_views.py)."""
from django.urls import path

from tournaments import print_views

urlpatterns = [
    path("events/import/", print_views.archive_import, name="event-import"),
    path("events/<slug:slug>/print/pairings/", print_views.pairings, name="print-pairings"),
    path("events/<slug:slug>/print/slips/", print_views.slips, name="print-slips"),
    path("events/<slug:slug>/export/", print_views.exports_page, name="event-exports"),
    path("events/<slug:slug>/export/<slug:what>.<slug:fmt>", print_views.export, name="event-export"),
    path("events/<slug:slug>/archive.json", print_views.archive_download, name="event-archive"),
]
