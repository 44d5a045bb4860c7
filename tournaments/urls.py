from django.urls import path

from tournaments import battle_views, organizer_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("events/new/", organizer_views.event_create, name="event-create"),
    path("events/<slug:slug>/", views.event_detail, name="event-detail"),
    path("events/<slug:slug>/manage/", organizer_views.event_manage, name="event-manage"),
    path("events/<slug:slug>/audit/", organizer_views.event_audit, name="event-audit"),
    path("events/<slug:slug>/report/", battle_views.league_report, name="league-report"),
    path("battles/<int:pk>/", battle_views.battle_detail, name="battle-detail"),
    path("battles/<int:pk>/replay/", battle_views.battle_replay, name="battle-replay"),
    path("battles/<int:pk>/report/", battle_views.battle_report, name="battle-report"),
    path("battles/<int:pk>/result/", battle_views.battle_result, name="battle-result"),
    path("reports/<int:pk>/answer/", battle_views.report_answer, name="report-answer"),
    path("generals/<int:pk>/", views.general_detail, name="general-detail"),
    path("my/battles/", battle_views.my_battles, name="my-battles"),
]
