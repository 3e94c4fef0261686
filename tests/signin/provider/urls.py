from django.contrib.auth.views import LoginView
from django.http import HttpResponse
from django.urls import include, path

from benchmarks.http import BARE_URL
from tests.signin.provider.tampering import TamperingTokenView, TamperingUserInfoView

urlpatterns = [
    # Before django-oauth-toolkit's own: some people get an altered answer (tampering.py).
    path("o/token/", TamperingTokenView.as_view(), name="token"),
    path("o/userinfo/", TamperingUserInfoView.as_view(), name="user-info"),
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("login/", LoginView.as_view(template_name="registration/login.html")),
    # What benchmarks.http.Server asks before it says the server is up.
    path(BARE_URL.lstrip("/"), lambda request: HttpResponse("ok")),
]
