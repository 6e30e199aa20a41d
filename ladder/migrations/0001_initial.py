"""The ladder (issue 14): ratings per player and game, rating changes (the claim on a match),
voided matches."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('accounts', '0004_player_last_seen'),
        ('games', '0004_presence_per_player_absence_bank'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='MatchVoid',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('reason', models.TextField(verbose_name='reason')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('match', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='ladder_void', to='games.match')),
                ('voided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'voided match',
                'verbose_name_plural': 'voided matches',
                'ordering': ['-created_at'],
            },
        ),
        migrations.CreateModel(
            name='Rating',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game', models.CharField(choices=[('japanese_joker', 'Japanese Joker'), ('classic_joker', 'Classic Georgian Joker'), ('japanese_whist', 'Japanese Whist')], max_length=20)),
                ('mu', models.FloatField(default=25.0)),
                ('sigma', models.FloatField(default=8.333333333333334)),
                ('display', models.IntegerField(default=1500)),
                ('matches', models.PositiveIntegerField(default=0)),
                ('wins', models.PositiveIntegerField(default=0)),
                ('last_played_at', models.DateTimeField(blank=True, null=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='accounts.player')),
            ],
            options={
                'ordering': ['game', '-display'],
                'indexes': [models.Index(fields=['game', 'display'], name='rating_leaderboard')],
                'constraints': [models.UniqueConstraint(fields=('player', 'game'), name='rating_once_per_game')],
            },
        ),
        migrations.CreateModel(
            name='RatingChange',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game', models.CharField(choices=[('japanese_joker', 'Japanese Joker'), ('classic_joker', 'Classic Georgian Joker'), ('japanese_whist', 'Japanese Whist')], max_length=20)),
                ('seat', models.PositiveSmallIntegerField()),
                ('place', models.PositiveSmallIntegerField()),
                ('mu_before', models.FloatField()),
                ('sigma_before', models.FloatField()),
                ('mu_after', models.FloatField()),
                ('sigma_after', models.FloatField()),
                ('before', models.IntegerField()),
                ('after', models.IntegerField()),
                ('delta', models.IntegerField()),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='rating_changes', to='games.match')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='accounts.player')),
            ],
            options={
                'ordering': ['-created_at'],
                'indexes': [models.Index(fields=['player', 'game'], name='rating_change_history')],
                'constraints': [models.UniqueConstraint(fields=('match', 'player'), name='rating_change_once')],
            },
        ),
    ]
