from django import forms


class FriendRequestForm(forms.Form):
    username = forms.CharField(
        max_length=150,
        label="Username",
        widget=forms.TextInput(attrs={"placeholder": "their username", "autocomplete": "off"}),
    )
