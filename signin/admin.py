"""Of django-allauth's admin pages, only the one staff may need: which logins came from the
institution. Its apps are configured from the environment (config/settings.py), tokens are not
kept and email addresses are not used, so those pages would show empty tables."""

from allauth.account.models import EmailAddress
from allauth.socialaccount.models import SocialApp, SocialToken
from django.contrib import admin

for model in (EmailAddress, SocialApp, SocialToken):
    if admin.site.is_registered(model):
        admin.site.unregister(model)
