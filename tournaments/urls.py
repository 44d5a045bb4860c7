from django.urls import include, path

from tournaments import battle_views, organizer_views, player_views, round_views, settings_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("", include("tournaments.print_urls")),  # before events/<slug>/: "events/import/" is not a slug
    path("", include("tournaments.live_urls")),
    path("events/new/", organizer_views.event_create, name="event-create"),
    path("events/<slug:slug>/", views.event_detail, name="event-detail"),
    path("events/<slug:slug>/manage/", organizer_views.event_manage, name="event-manage"),
    path("events/<slug:slug>/audit/", organizer_views.event_audit, name="event-audit"),
    path("events/<slug:slug>/round/", round_views.round_page, name="event-round"),
    path("events/<slug:slug>/details/", settings_views.event_details, name="event-details"),
    path("events/<slug:slug>/report/", battle_views.league_report, name="league-report"),
    path("battles/<int:pk>/", battle_views.battle_detail, name="battle-detail"),
    path("battles/<int:pk>/replay/", battle_views.battle_replay, name="battle-replay"),
    path("battles/<int:pk>/report/", battle_views.battle_report, name="battle-report"),
    path("battles/<int:pk>/result/", battle_views.battle_result, name="battle-result"),
    path("reports/<int:pk>/answer/", battle_views.report_answer, name="report-answer"),
    path("generals/<int:pk>/", views.general_detail, name="general-detail"),
    path("my/battles/", battle_views.my_battles, name="my-battles"),
    path("my/notifications/", settings_views.my_notifications, name="my-notifications"),
    path("my/api-token/revoke/", settings_views.revoke_api_token, name="my-api-token-revoke"),
    path("claim/", player_views.claim_general, name="claim-general"),
    path("claim/<str:code>/", player_views.claim_general, name="claim-general-code"),
    path("events/<slug:slug>/join/", player_views.join_event, name="event-join"),
    path("events/<slug:slug>/withdraw/", player_views.withdraw_from_event, name="event-withdraw"),
    path("invitations/<int:pk>/answer/", player_views.answer_invitation, name="invitation-answer"),
    path("organizer-invitations/<int:pk>/", organizer_views.organizer_invitation, name="organizer-invitation"),
]
