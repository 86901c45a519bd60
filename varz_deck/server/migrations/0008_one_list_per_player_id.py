# One current (not withdrawn) list per player id and event, held by the database: a partial unique
# index, so two submissions at the same moment, on one server or two, cannot both store a list.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("varzdeck", "0007_player_ids"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="decklist",
            constraint=models.UniqueConstraint(
                condition=models.Q(withdrawn_at__isnull=True) & ~models.Q(player_id=""),
                fields=("event", "player_id"),
                name="one_current_list_per_player_id",
            ),
        ),
    ]
