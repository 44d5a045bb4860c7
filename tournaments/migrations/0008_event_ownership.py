import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def set_owners_and_appointments(apps, schema_editor):
    """Every event gets an owner: the account that created it (its "event created" audit entry) while it
    still organizes the event, else its first organizer. Co-organizers added before invitations
    existed get an accepted invitation from who added them (their "organizer added" audit entry), so
    that R95 knows who appointed them."""
    Event = apps.get_model("tournaments", "Event")
    AuditEntry = apps.get_model("tournaments", "AuditEntry")
    OrganizerInvitation = apps.get_model("tournaments", "OrganizerInvitation")
    Through = Event.organizers.through
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    for event in Event.objects.all().iterator():
        organizer_ids = list(Through.objects.filter(event_id=event.pk).order_by("pk").values_list("user_id", flat=True))
        created = (AuditEntry.objects.filter(event_id=event.pk, action="event created").exclude(actor=None)
                   .order_by("at", "pk").values_list("actor_id", flat=True).first())
        owner_id = created if created in organizer_ids else (organizer_ids[0] if organizer_ids else None)
        if owner_id is not None:
            Event.objects.filter(pk=event.pk).update(owner_id=owner_id)
        usernames = dict(User.objects.filter(pk__in=organizer_ids).values_list("username", "pk"))
        for entry in (AuditEntry.objects.filter(event_id=event.pk, action="organizer added").exclude(actor=None)
                      .order_by("at", "pk")):
            user_id = usernames.get(entry.subject)
            if user_id is None or user_id == owner_id or user_id == entry.actor_id:
                continue
            OrganizerInvitation.objects.create(event_id=event.pk, user_id=user_id, invited_by_id=entry.actor_id,
                                               status="accepted", answered_at=entry.at)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0007_report_sides'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='event',
            name='owner',
            field=models.ForeignKey(blank=True, help_text='The organizer who created the event (or to whom it was '
                                    'handed over); co-organizers cannot remove them.', null=True,
                                    on_delete=django.db.models.deletion.SET_NULL, related_name='owned_events',
                                    to=settings.AUTH_USER_MODEL),
        ),
        migrations.CreateModel(
            name='OrganizerInvitation',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('status', models.CharField(choices=[('pending', 'Waiting for the answer'), ('accepted', 'Accepted'),
                                                     ('declined', 'Declined'), ('withdrawn', 'Withdrawn')],
                                            default='pending', max_length=10)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('answered_at', models.DateTimeField(blank=True, null=True)),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                            related_name='organizer_invitations', to='tournaments.event')),
                ('invited_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL,
                                                 related_name='+', to=settings.AUTH_USER_MODEL)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                           related_name='organizer_invitations', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['-created_at', '-id'],
                'constraints': [models.UniqueConstraint(condition=models.Q(('status', 'pending')),
                                                        fields=('event', 'user'),
                                                        name='organizer_invitation_pending_once')],
            },
        ),
        migrations.RunPython(set_owners_and_appointments, migrations.RunPython.noop),
    ]
