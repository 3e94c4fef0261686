"""allauth's OpenID Connect addresses, answered by signin/openid_connect.py, which checks the
ID token's signature and nonce; included before allauth's URLs so these come first."""

from django.urls import path

from signin import openid_connect

urlpatterns = [
    path("oidc/<str:provider_id>/login/", openid_connect.login, name="openid_connect_login"),
    path(
        "oidc/<str:provider_id>/login/callback/",
        openid_connect.callback,
        name="openid_connect_callback",
    ),
]
