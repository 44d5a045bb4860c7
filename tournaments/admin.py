"""Django admin for every record. Results, reports, registrations, disqualifications and
invitations change through the organizer and player pages or the API (which keep the audit trail
and move the event on); in the admin they are read-only so nobody bypasses the rules. So are
groups, seasons and an event's rules (organizers, confirmation window, battles per pair, forfeit
limit and award, variants), which change only through the services that guard and audit them; a
general's rename here goes through `membership.rename`, into the audit trail. Staff grant the
organizer role here (a user's permissions: "Can create events and organize them")."""
from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError

from tournaments import models
from tournaments.domain import DomainError
from tournaments.events import membership
from tournaments.mailing import outbox as mail_outbox
from tournaments.webhooks import services as webhook_services


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


class MailStateFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [(state, state) for state in mail_outbox.STATES]

    def queryset(self, request, queryset):
        match = mail_outbox.STATES.get(self.value())
        return queryset if match is None else queryset.filter(match)


@admin.register(models.Notification)
class NotificationAdmin(ReadOnlyAdmin):
    """What was mailed to whom, and what the mail server refused: for answering "I got no mail". A mail
    is sent, waiting (for its first or next try), given up (after the last try, or refused for good) or
    withdrawn (what it asked had been answered before it went); docs/mail.md."""

    list_display = ("at", "user", "kind", "subject", "state", "attempts", "next_attempt_at", "sent_at", "error")
    list_filter = (MailStateFilter, "kind")
    search_fields = ("user__username", "user__email", "subject", "key")
    actions = ["send_again_now"]

    @admin.display(description="state")
    def state(self, note):
        return mail_outbox.state_of(note)

    def has_resend_permission(self, request):
        return self.has_view_permission(request)

    @admin.action(description="Send again now (the mails not sent)", permissions=["resend"])
    def send_again_now(self, request, queryset):
        count = mail_outbox.send_again(queryset)
        self.message_user(request, f"{count} mail(s) handed to the mail job; sent ones are left as they are.")


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


# --- webhooks (tournaments.webhooks; docs/webhooks.md) ----------------------------------------------------

class WebhookEndpointForm(forms.ModelForm):
    """A new endpoint: the address and kinds are checked as the API checks them (services.register)."""

    url = forms.URLField(max_length=500, assume_scheme="https")
    kinds = forms.MultipleChoiceField(choices=models.WebhookEndpoint.Kind.choices,
                                      widget=forms.CheckboxSelectMultiple)

    acting_user = None  # set by WebhookEndpointAdmin.get_form

    class Meta:
        model = models.WebhookEndpoint
        fields = ("event", "url", "kinds")

    def clean(self):
        data = super().clean()
        try:
            webhook_services.require_manage(self.acting_user, data.get("event"))
            data["url"] = webhook_services.clean_url(data.get("url", ""))
            data["kinds"] = webhook_services.clean_kinds(list(data.get("kinds") or []))
        except DomainError as error:
            raise ValidationError(str(error)) from None
        return data


@admin.register(models.WebhookEndpoint)
class WebhookEndpointAdmin(admin.ModelAdmin):
    """Endpoints of one event, and (event empty) of every event: site staff add those here. Changed only by
    the actions, which keep the failure count and the cached list of listeners right."""

    list_display = ("url", "event", "owner", "active", "consecutive_failures", "disabled_at")
    list_filter = ("active",)
    search_fields = ("url", "event__name", "owner__username")
    actions = ["enable_again", "disable"]

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = type("WebhookEndpointForm", (WebhookEndpointForm,), {"acting_user": request.user})
        return super().get_form(request, obj, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else [field.name for field in self.model._meta.fields]

    def save_model(self, request, obj, form, change):
        if not change:  # checked by the form's clean(); register gives it its owner and secret
            obj.pk = webhook_services.register(request.user, obj.event, url=obj.url, kinds=list(obj.kinds)).pk

    @admin.action(description="Enable again (failures back to 0, waiting deliveries sent)")
    def enable_again(self, request, queryset):
        for endpoint in queryset.select_related("event"):
            webhook_services.update(request.user, endpoint, active=True)

    @admin.action(description="Disable")
    def disable(self, request, queryset):
        for endpoint in queryset.select_related("event"):
            webhook_services.update(request.user, endpoint, active=False)


@admin.register(models.WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnlyAdmin):
    """The delivery log: each delivery's state, tries, last answer; "send again" resends as it was."""

    list_display = ("kind", "endpoint", "state", "attempts", "response_code", "error", "created_at", "next_attempt_at")
    list_filter = ("state", "kind")
    search_fields = ("endpoint__url", "delivery_id")
    actions = ["send_again"]

    @admin.action(description="Send again now")
    def send_again(self, request, queryset):
        for delivery in queryset.select_related("endpoint__event"):
            try:
                webhook_services.resend(request.user, delivery)
            except DomainError as error:
                messages.error(request, f"{delivery}: {error}")
