from django.apps import AppConfig


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = "Chat, moderation, blocking and cool-downs"
