from django.apps import AppConfig
from django.db.models.signals import pre_save


class PeopleConfig(AppConfig):
    name = "people"

    def ready(self):
        from people.models import Person
        from people.models.profile import save_identity_of_loaded_profile

        # After the base's validation (its app is listed first), before the profile's row.
        pre_save.connect(
            save_identity_of_loaded_profile,
            sender=Person,
            dispatch_uid="people.save_identity_of_loaded_profile",
        )
