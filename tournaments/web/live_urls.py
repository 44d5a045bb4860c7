"""Revision endpoints of the live pages and the venue screen (tournaments/web/live.py)."""
from django.urls import path

from tournaments.web import live

urlpatterns = [
    path("live/events/<slug:slug>/", live.event_revision, name="live-event"),
    path("live/battles/<int:pk>/", live.battle_revision, name="live-battle"),
    path("live/my/battles/", live.my_battles_revision, name="live-my-battles"),
    path("live/events/<slug:slug>/round/", live.round_revision, name="live-round"),
    path("events/<slug:slug>/screen/", live.venue_screen, name="venue-screen"),
]
