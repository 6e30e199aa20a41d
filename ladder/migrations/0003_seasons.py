# The ladder's seasons (issue 29 § 4): each game's seasons and their final standings (docs/ladder.md § Seasons).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0006_prize_pools'),
        ('ladder', '0002_game_from_the_registry'),
    ]

    operations = [
        migrations.CreateModel(
            name='Season',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game', models.CharField(max_length=20)),
                ('number', models.PositiveIntegerField()),
                ('starts_at', models.DateTimeField()),
                ('ends_at', models.DateTimeField()),
                ('closed_at', models.DateTimeField(blank=True, null=True)),
            ],
            options={
                'ordering': ['game', '-number'],
                'constraints': [models.UniqueConstraint(fields=('game', 'number'), name='season_once_per_number'), models.UniqueConstraint(condition=models.Q(('closed_at__isnull', True)), fields=('game',), name='season_one_open'), models.CheckConstraint(condition=models.Q(('ends_at__gt', models.F('starts_at'))), name='season_ends_after_it_starts')],
            },
        ),
        migrations.CreateModel(
            name='SeasonStanding',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('rank', models.PositiveIntegerField(blank=True, null=True)),
                ('display', models.IntegerField(verbose_name='rating')),
                ('matches', models.PositiveIntegerField()),
                ('wins', models.PositiveIntegerField()),
                ('badge', models.BooleanField(default=False)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='season_standings', to='accounts.player')),
                ('season', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='ladder.season')),
            ],
            options={
                'ordering': ['season', models.OrderBy(models.F('rank'), nulls_last=True), '-display'],
                'constraints': [models.UniqueConstraint(fields=('season', 'player'), name='season_standing_once')],
            },
        ),
    ]
