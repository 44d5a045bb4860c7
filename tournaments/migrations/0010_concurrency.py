from django.conf import settings
from django.db import migrations, models  # noqa: F401


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0009_hardening'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='IdempotentRequest',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(max_length=255)),
                ('endpoint', models.CharField(help_text='The method and path, e.g. POST /api/v1/generals/.', max_length=300)),
                ('fingerprint', models.CharField(help_text="SHA-256 of the request's data.", max_length=64)),
                ('status_code', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('body', models.JSONField(blank=True, null=True)),
                ('created_at', models.DateTimeField(auto_now_add=True, db_index=True)),
                ('user', models.ForeignKey(on_delete=models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('user', 'key', 'endpoint'), name='idempotency_key_once')],
            },
        ),
    ]
