"""An account deactivated by any path (a ban here, or the user admin's "active" box) gives up
its seat at once; ``accounts.sockets`` closes its sockets the same way."""

from __future__ import annotations

from typing import Any

from django.contrib import auth
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver

from accounts.models import Player

from .services.moderation import seats_release


@receiver(pre_save, sender=auth.get_user_model())
def _remember_active(sender: Any, instance: Any, **kwargs: Any) -> None:
    instance._was_active = (
        instance.pk is not None and sender.objects.filter(pk=instance.pk, is_active=True).exists()
    )


@receiver(post_save, sender=auth.get_user_model())
def _deactivated(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    if created or instance.is_active or not getattr(instance, "_was_active", False):
        return
    player = Player.objects.filter(user=instance).first()
    if player is not None:  # in the deactivation's transaction: both happen, or neither
        seats_release(player)
