"""Django admin for every record. Results change through the organizer pages (which keep the audit
trail and move the event on); in the admin they are read-only so nobody bypasses the rules."""
from django.contrib import admin

from tournaments.models import (
    AuditEntry,
    Battle,
    Disqualification,
    Event,
    General,
    Group,
    GroupMember,
    Registration,
    Season,
)


@admin.register(General)
class GeneralAdmin(admin.ModelAdmin):
    list_display = ["name", "external_id", "user"]
    search_fields = ["name", "external_id", "user__username"]


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    fields = ["number", "general", "seed", "status", "status_reason"]
    readonly_fields = ["status", "status_reason"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "state", "victor", "starts_on"]
    list_filter = ["kind", "state"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organizers"]
    readonly_fields = ["state", "victor", "group_seed", "group_method"]
    inlines = [RegistrationInline]


class GroupMemberInline(admin.TabularInline):
    model = GroupMember
    extra = 0


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin):
    list_display = ["name", "event", "stage", "winner"]
    list_filter = ["stage", "event"]
    inlines = [GroupMemberInline]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "event", "state", "champion"]


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin):
    list_display = ["__str__", "event", "group", "season", "round", "number", "playoff", "kind", "winner",
                    "condition"]
    list_filter = ["event", "kind", "playoff"]
    readonly_fields = ["kind", "winner", "condition", "forfeited_by", "decided_at"]


@admin.register(Disqualification)
class DisqualificationAdmin(admin.ModelAdmin):
    list_display = ["general", "event", "reason", "decided_by", "decided_at"]
    list_filter = ["reason"]

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(AuditEntry)
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
