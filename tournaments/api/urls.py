from django.urls import path
from rest_framework.routers import DefaultRouter

from tournaments.api import game_views, ratings, scoreboard, table_views, views
from tournaments.api import webhook_views as hooks

router = DefaultRouter()
router.register("events", views.EventViewSet, basename="event")
# An event's lists, pool, list rules and Swiss rounds: more actions under events/{slug}/ (game_views.py).
router.register("events", game_views.EventGameViewSet, basename="event-game")
router.register("games", game_views.GameViewSet, basename="game")
router.register("battles", views.BattleViewSet, basename="battle")
router.register("tables", table_views.TableViewSet, basename="table")
router.register("generals", views.GeneralViewSet, basename="general")
router.register("seasons", views.SeasonViewSet, basename="season")
router.register("reports", views.ReportViewSet, basename="report")
router.register("invitations", views.InvitationViewSet, basename="invitation")
router.register("organizer-invitations", views.OrganizerInvitationViewSet, basename="organizer-invitation")

# The scoreboard's hot path comes first; it hands everything it does not answer to the router's action.
scoreboard_action = views.EventViewSet.as_view({"get": "scoreboard"})
urlpatterns = [path("events/<slug:slug>/scoreboard/", scoreboard.fast_poll(scoreboard_action), name="event-scoreboard-poll"),
               path("me/", views.MeView.as_view(), name="me"),
               path("ratings/", ratings.RatingListView.as_view(), name="rating-list"),
               # Webhooks: an event's (its organizers) and the whole site's (staff), webhook_views.py.
               *[path(f"{prefix}webhooks/{tail}", view.as_view(), name=f"{name}-{suffix}")
                 for prefix, name in (("events/<slug:slug>/", "event-webhook-api"), ("", "site-webhook-api"))
                 for tail, view, suffix in (
                     ("", hooks.WebhookListView, "list"), ("<int:pk>/", hooks.WebhookDetailView, "detail"),
                     ("<int:pk>/rotate-secret/", hooks.WebhookSecretView, "rotate-secret"),
                     ("<int:pk>/ping/", hooks.WebhookPingView, "ping"),
                     ("<int:pk>/deliveries/", hooks.WebhookDeliveriesView, "deliveries"),
                     ("<int:pk>/deliveries/<int:delivery_pk>/resend/", hooks.WebhookResendView, "resend"))],
               *router.urls]
