from django.apps import AppConfig


class SigninConfig(AppConfig):
    name = "signin"
    verbose_name = "Institutional sign-in"

    def ready(self) -> None:
        from allauth.account.signals import user_logged_in

        from signin.services import give_roles_on_sign_in

        user_logged_in.connect(give_roles_on_sign_in, dispatch_uid="signin.give_roles")
