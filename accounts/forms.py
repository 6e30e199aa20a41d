from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.utils.translation import gettext_lazy as _

from .validators import NAME_MAX_LENGTH, NAME_MIN_LENGTH, name_rule

# The name rule (accounts.validators) as the browser's pattern: letters of any script, digits,
# "_" and "-". The server's check stays the authority; this only stops a typo before submitting.
NAME_PATTERN = r"[\p{L}\p{N}_\-]+"


class FriendRequestForm(forms.Form):
    username = forms.CharField(
        max_length=150,
        label=_("Username"),
        widget=forms.TextInput(attrs={"placeholder": _("their username"), "autocomplete": "off"}),
    )


class SignupForm(AllauthSignupForm):
    """allauth's sign-up with the name rule beside the name field and enforced while typing, and
    both passwords kept after an error elsewhere in the form (retyping them is the usual reason
    people give up). The login and password-change forms still never send a password back."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        rule = name_rule()
        username.help_text = rule
        username.widget.attrs.update(
            {
                "maxlength": str(NAME_MAX_LENGTH),
                "minlength": str(NAME_MIN_LENGTH),
                "pattern": NAME_PATTERN,
                "title": rule,
            }
        )
        for name in ("password1", "password2"):
            if name in self.fields:
                widget = self.fields[name].widget
                assert isinstance(widget, forms.PasswordInput)
                widget.render_value = True
