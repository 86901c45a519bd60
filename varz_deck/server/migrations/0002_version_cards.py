# The card data a version's verdict is of: "" for the versions stored before,
# which `serve` checks again at its next start.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("varzdeck", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="version",
            name="cards",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
    ]
