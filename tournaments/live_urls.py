"""Revision endpoints of the live pages and the venue screen (tournaments/live_views.py)."""
from django.urls import path

from tournaments import live_views

urlpatterns = [
    path("live/events/<slug:slug>/", live_views.event_revision, name="live-event"),
    path("live/battles/<int:pk>/", live_views.battle_revision, name="live-battle"),
    path("live/my/battles/", live_views.my_battles_revision, name="live-my-battles"),
    path("events/<slug:slug>/screen/", live_views.venue_screen, name="venue-screen"),
]
