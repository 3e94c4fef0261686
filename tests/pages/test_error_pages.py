import pytest
from django.test import RequestFactory
from django.views.defaults import server_error

pytestmark = pytest.mark.django_db


def test_unknown_address_is_a_404_in_the_sites_design(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Page not found" in html
    assert 'href="/publications/"' in html
    assert "skip-link" in html


def test_server_error_page_renders_on_its_own():
    """The 500 page must render even when the database or context processors fail."""
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()
