# A player id names one current list per event (docs/guides/organiser.md, "The roster"): whether a
# list's id was given by the personal link or the organiser, the id a list named before the
# player's own link took it, and, in a database an older version filled, every list but the
# newest of an id withdrawn (kept with its versions, restorable; the audit log says why).

from django.db import migrations, models
from django.utils import timezone


def one_list_per_player_id(apps, schema_editor):
    Decklist = apps.get_model("varzdeck", "Decklist")
    Version = apps.get_model("varzdeck", "Version")
    AuditEntry = apps.get_model("varzdeck", "AuditEntry")
    by_organiser = Version.objects.filter(number=1, by_organiser=True).values("decklist_id")
    Decklist.objects.filter(pk__in=by_organiser).exclude(player_id="").update(
        player_id_confirmed=True
    )
    now = timezone.now()
    held = Decklist.objects.filter(withdrawn_at__isnull=True).exclude(player_id="")
    seen = set()
    for pk, event, player_id in held.order_by("-id").values_list("id", "event_id", "player_id"):
        if (event, player_id) not in seen:
            seen.add((event, player_id))
            continue
        Decklist.objects.filter(pk=pk).update(withdrawn_at=now)
        detail = f"on upgrade: a newer list has player id {player_id}"
        AuditEntry.objects.create(
            event_id=event, action="withdraw", at=now, decklist_id=pk, detail=detail[:200]
        )


class Migration(migrations.Migration):
    dependencies = [
        ("varzdeck", "0006_withdraw"),
    ]

    operations = [
        migrations.AddField(
            model_name="decklist",
            name="player_id_confirmed",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="decklist",
            name="claimed_player_id",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.RunPython(one_list_per_player_id, migrations.RunPython.noop),
    ]
