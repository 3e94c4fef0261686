"""Django's createsuperuser, with the password validators applied to --noinput too.

Django checks AUTH_PASSWORD_VALIDATORS when it asks for the password, but takes
DJANGO_SUPERUSER_PASSWORD as it is: `createsuperuser --noinput` accepted "1". Here that
password meets the same validators, against the same username and email, or the command
stops with the validators' messages and creates nothing.
"""

import os
from typing import Any

from django.contrib.auth.management.commands import createsuperuser
from django.contrib.auth.password_validation import validate_password
from django.core import exceptions
from django.core.management.base import CommandError


class Command(createsuperuser.Command):
    def handle(self, *args: Any, **options: Any) -> str | None:
        password = os.environ.get("DJANGO_SUPERUSER_PASSWORD")
        if not options["interactive"] and password is not None:
            model: Any = self.UserModel  # the project's user model, known only at run time
            fields = {
                name: options.get(name) or os.environ.get(f"DJANGO_SUPERUSER_{name.upper()}")
                for name in (model.USERNAME_FIELD, *model.REQUIRED_FIELDS)
            }
            try:
                validate_password(password, model(**fields))
            except exceptions.ValidationError as error:
                raise CommandError(
                    "DJANGO_SUPERUSER_PASSWORD is refused: " + " ".join(error.messages)
                ) from None
        return super().handle(*args, **options)
