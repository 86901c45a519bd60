# A list withdrawn by the organiser (docs/guides/organiser.md "Withdraw and restore").

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("varzdeck", "0005_merge"),
    ]

    operations = [
        migrations.AddField(
            model_name="decklist",
            name="withdrawn_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
