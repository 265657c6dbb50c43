from django.urls import path

from moderation import views

urlpatterns = [
    path(
        "games/<int:game_id>/afterwords/",
        views.GameAfterwordsView.as_view(),
        name="game-afterwords",
    ),
    path("afterwords/phrases/", views.WarmPhrasesView.as_view(), name="afterword-phrases"),
    path("club/mood/", views.ClubMoodView.as_view(), name="club-mood"),
    path("reports/", views.ReportCreateView.as_view(), name="report-create"),
    path("reports/mine/", views.MyReportsView.as_view(), name="reports-mine"),
    path("sanctions/mine/", views.MySanctionsView.as_view(), name="sanctions-mine"),
    path("moderation/reports/", views.ModerationQueueView.as_view(), name="moderation-queue"),
    path(
        "moderation/reports/<int:report_id>/",
        views.ModerationReportView.as_view(),
        name="moderation-report",
    ),
    path(
        "moderation/reports/<int:report_id>/claim/",
        views.ClaimReportView.as_view(),
        name="moderation-report-claim",
    ),
    path(
        "moderation/reports/<int:report_id>/release/",
        views.ReleaseReportView.as_view(),
        name="moderation-report-release",
    ),
    path(
        "moderation/reports/<int:report_id>/resolve/",
        views.ResolveReportView.as_view(),
        name="moderation-report-resolve",
    ),
    path(
        "moderation/reports/<int:report_id>/reporter/",
        views.ReporterIdentityView.as_view(),
        name="moderation-report-reporter",
    ),
    path("moderation/stats/", views.ModerationStatsView.as_view(), name="moderation-stats"),
    path("moderation/duty/", views.DutyView.as_view(), name="moderation-duty"),
]
