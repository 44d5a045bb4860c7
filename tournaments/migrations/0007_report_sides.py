from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0006_event_day_time_and_notifications'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='event',
            name='board_width',
            field=models.PositiveSmallIntegerField(
                default=7, help_text='Columns of the battlefield every battle of the event is played on (1-26; default 7).'),
        ),
        migrations.AddField(
            model_name='event',
            name='board_height',
            field=models.PositiveSmallIntegerField(
                default=7, help_text='Rows of the battlefield (1-26; default 7); fixed once the event starts.'),
        ),
        migrations.AddField(
            model_name='report',
            name='replay_sha256',
            field=models.CharField(blank=True, default='', max_length=64,
                                   help_text="The uploaded replay's SHA-256, kept when its text is dropped (R94)."),
        ),
        migrations.AddField(
            model_name='report',
            name='replay_bytes',
            field=models.PositiveIntegerField(blank=True, null=True, help_text="The uploaded replay's size in bytes (R94)."),
        ),
        migrations.AddField(
            model_name='notificationsettings',
            name='decisions',
            field=models.BooleanField(default=True, help_text="A report of an event I organize waits for an organizer's "
                                                              "decision (nobody can answer it)."),
        ),
    ]
