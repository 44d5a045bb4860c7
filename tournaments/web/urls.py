from django.urls import include, path

from tournaments.web import account_settings, battles, organizer, players, profiles, ratings, rounds, views

urlpatterns = [
    path("", views.home, name="home"),
    path("", include("tournaments.web.print_urls")),  # before events/<slug>/: "events/import/" is not a slug
    path("", include("tournaments.web.live_urls")),
    path("events/new/", organizer.event_create, name="event-create"),
    path("events/<slug:slug>/", views.event_detail, name="event-detail"),
    path("events/<slug:slug>/manage/", organizer.event_manage, name="event-manage"),
    path("events/<slug:slug>/audit/", organizer.event_audit, name="event-audit"),
    path("events/<slug:slug>/round/", rounds.round_page, name="event-round"),
    path("events/<slug:slug>/details/", account_settings.event_details, name="event-details"),
    path("events/<slug:slug>/report/", battles.league_report, name="league-report"),
    path("battles/<int:pk>/", battles.battle_detail, name="battle-detail"),
    path("battles/<int:pk>/replay/", battles.battle_replay, name="battle-replay"),
    path("battles/<int:pk>/report/", battles.battle_report, name="battle-report"),
    path("battles/<int:pk>/result/", battles.battle_result, name="battle-result"),
    path("reports/<int:pk>/answer/", battles.report_answer, name="report-answer"),
    path("generals/", profiles.generals, name="generals"),
    path("generals/<int:pk>/", profiles.general_detail, name="general-detail"),
    path("generals/<int:pk>/versus/", profiles.versus_choose, name="general-versus-choose"),
    path("generals/<int:pk>/versus/<int:other>/", profiles.versus, name="general-versus"),
    path("ratings/", ratings.rating_list, name="rating-list"),
    path("my/battles/", battles.my_battles, name="my-battles"),
    path("my/notifications/", account_settings.my_notifications, name="my-notifications"),
    path("my/api-token/revoke/", account_settings.revoke_api_token, name="my-api-token-revoke"),
    path("claim/", players.claim_general, name="claim-general"),
    path("claim/<str:code>/", players.claim_general, name="claim-general-code"),
    path("events/<slug:slug>/join/", players.join_event, name="event-join"),
    path("events/<slug:slug>/withdraw/", players.withdraw_from_event, name="event-withdraw"),
    path("invitations/<int:pk>/answer/", players.answer_invitation, name="invitation-answer"),
    path("organizer-invitations/<int:pk>/", organizer.organizer_invitation, name="organizer-invitation"),
]
