"""Django admin for every record. Results, reports, registrations, disqualifications and
invitations change through the organizer and player pages or the API (which keep the audit trail
and move the event on); in the admin they are read-only so nobody bypasses the rules. So are
groups, seasons and an event's rules (organizers, confirmation window, battles per pair, forfeit
limit and award, variants), which change only through the services that guard and audit them; a
general's rename here goes through `membership.rename`, into the audit trail. Staff grant the
organizer role here (a user's permissions: "Can create events and organize them")."""
from django.contrib import admin, messages

from tournaments import models
from tournaments.domain import DomainError
from tournaments.events import membership


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(models.General)
class GeneralAdmin(admin.ModelAdmin):
    """Staff may rename a general (through `membership.rename`, audited in the general's events); who
    owns it changes only by the player's claim."""

    list_display = ["name", "external_id", "user"]
    search_fields = ["name", "external_id", "user__username"]
    readonly_fields = ["user", "created_by"]

    def save_model(self, request, obj, form, change):
        renamed = change and "name" in form.changed_data
        if renamed:
            new_name, obj.name = obj.name, models.General.objects.get(pk=obj.pk).name
        super().save_model(request, obj, form, change)
        if renamed:
            try:
                membership.rename(obj, new_name, actor=request.user, create_new=True)
            except DomainError as refusal:
                self.message_user(request, str(refusal), messages.ERROR)
            obj.refresh_from_db()


class RegistrationInline(admin.TabularInline):
    model = models.Registration
    extra = 0
    fields = ["number", "general", "seed", "status", "status_reason"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(models.Event)
class EventAdmin(admin.ModelAdmin):
    """Name, address, dates, venue and description change here; the rules the services guard (the
    organizers and the owner, the confirmation window, R111's battles per pair, the R68 forfeit limit, the forfeit
    award, the variants) are read-only, and events are created on the site, the API or with
    `manage.py event_create`, which audit them."""

    list_display = ["name", "kind", "state", "victor", "starts_on"]
    list_filter = ["kind", "state"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["state", "victor", "group_seed", "group_method", "kind", "organizers", "owner",
                       "confirmation_minutes", "pair_battles_per_season", "forfeits_to_disqualify", "forfeit_award_opp",
                       "forfeit_counts_as_victory", "variants", "battalion_count"]
    inlines = [RegistrationInline]

    def has_add_permission(self, request):
        return False


class GroupMemberInline(admin.TabularInline):
    model = models.GroupMember
    extra = 0

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(models.Group)
class GroupAdmin(ReadOnlyAdmin):
    """Groups are formed by `services.form_groups` (audited) and their winners decided by the results."""

    list_display = ["name", "event", "stage", "winner"]
    list_filter = ["stage", "event"]
    inlines = [GroupMemberInline]


@admin.register(models.Season)
class SeasonAdmin(ReadOnlyAdmin):
    """Seasons open, close and reopen through `tournaments.leagues.seasons` (audited, R88)."""

    list_display = ["name", "event", "state", "champion"]


@admin.register(models.Battle)
class BattleAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "event", "group", "season", "round", "number", "playoff", "kind", "winner",
                    "condition"]
    list_filter = ["event", "kind", "playoff"]


@admin.register(models.Disqualification)
class DisqualificationAdmin(ReadOnlyAdmin):
    list_display = ["general", "event", "reason", "decided_by", "decided_at"]
    list_filter = ["reason"]


@admin.register(models.Report)
class ReportAdmin(ReadOnlyAdmin):
    list_display = ["battle", "reported_by", "kind", "status", "confirm_by", "created_at"]
    list_filter = ["status"]
    exclude = ["replay"]


@admin.register(models.Invitation)
class InvitationAdmin(ReadOnlyAdmin):
    list_display = ["general", "event", "status", "invited_by", "created_at"]


@admin.register(models.AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["at", "event", "actor", "action", "subject", "reason"]
    list_filter = ["action", "event"]
    search_fields = ["subject", "reason"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(models.Notification)
class NotificationAdmin(ReadOnlyAdmin):
    """What was mailed to whom, and what the mail server refused: for answering "I got no mail"."""

    list_display = ("at", "user", "kind", "subject", "sent", "error")
    list_filter = ("kind", "sent")
    search_fields = ("user__username", "subject")


@admin.register(models.NotificationSettings)
class NotificationSettingsAdmin(ReadOnlyAdmin):
    """Each user chooses on /my/notifications/; staff only look."""

    list_display = ("user", "confirmations", "disputes", "verdicts", "pairings")


@admin.register(models.SiteAccess)
class SiteAccessAdmin(admin.ModelAdmin):
    """Who may open an account: open, invite-only or closed. One row; without it the `OPP_SIGNUP` setting
    decides (tournaments/accounts/signup.py)."""

    list_display = ("signup", "changed_at")

    def has_add_permission(self, request):
        return not models.SiteAccess.objects.exists()


@admin.register(models.SignupInvitation)
class SignupInvitationAdmin(admin.ModelAdmin):
    """One-use codes for invite-only sign-up: hand out the code or the link /accounts/signup/?invite=CODE.
    Who used one is recorded by the sign-up; staff only add them (with a note) or delete unused ones."""

    list_display = ("code", "note", "created_by", "created_at", "used_by", "used_at")
    search_fields = ("code", "note", "used_by__username")
    readonly_fields = ("code", "created_by", "created_at", "used_by", "used_at")

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    def has_delete_permission(self, request, obj=None):
        return obj is None or obj.used_at is None
