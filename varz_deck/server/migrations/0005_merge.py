# Two branches each added a migration after 0003_audit; this joins them (no operations).

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("varzdeck", "0004_roster"),
        ("varzdeck", "0004_zone"),
    ]

    operations: list[migrations.operations.base.Operation] = []
