# The event's date and time zone; the verdict a list got at submission.
# Existing events: UTC, and the date of their deadline (else of their creation) in UTC; existing
# versions: their stored verdict is the one at submission.

from __future__ import annotations

from typing import Any

from django.db import migrations, models


def _fill(apps: Any, schema_editor: Any) -> None:
    event_model = apps.get_model("varzdeck", "Event")
    version_model = apps.get_model("varzdeck", "Version")
    for event in event_model.objects.all().iterator():
        event.date = (event.deadline or event.created_at).date()  # stored in UTC
        event.save(update_fields=["date"])
    batch = []
    for version in version_model.objects.all().iterator():
        version.submitted_legal = version.legal
        version.submitted_errors = _errors(version.diagnostics)
        batch.append(version)
        if len(batch) >= 500:
            version_model.objects.bulk_update(batch, ["submitted_legal", "submitted_errors"])
            batch = []
    version_model.objects.bulk_update(batch, ["submitted_legal", "submitted_errors"])


def _errors(diagnostics: Any) -> list[str]:
    if not isinstance(diagnostics, list):
        return []
    return list(
        dict.fromkeys(
            str(d.get("code", ""))
            for d in diagnostics
            if isinstance(d, dict) and d.get("severity") == "error"
        )
    )


class Migration(migrations.Migration):
    dependencies = [
        ("varzdeck", "0003_audit"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="date",
            field=models.DateField(null=True),
        ),
        migrations.AddField(
            model_name="event",
            name="timezone",
            field=models.CharField(default="UTC", max_length=64),
        ),
        migrations.AddField(
            model_name="version",
            name="submitted_legal",
            field=models.BooleanField(null=True),
        ),
        migrations.AddField(
            model_name="version",
            name="submitted_errors",
            field=models.JSONField(default=list),
        ),
        migrations.AddField(
            model_name="version",
            name="changed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(_fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="event",
            name="date",
            field=models.DateField(),
        ),
    ]
