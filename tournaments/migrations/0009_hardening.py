from django.conf import settings
from django.db import migrations, models  # noqa: F401


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0008_event_ownership'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
    ]
