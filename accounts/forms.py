from django import forms
from django.utils.translation import gettext_lazy as _


class FriendRequestForm(forms.Form):
    username = forms.CharField(
        max_length=150,
        label=_("Username"),
        widget=forms.TextInput(attrs={"placeholder": _("their username"), "autocomplete": "off"}),
    )
