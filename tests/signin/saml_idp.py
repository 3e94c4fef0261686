"""A real SAML identity provider for the sign-in tests: pysaml2's IdP (`saml2.server.Server`),
which signs with Debian's xmlsec1, behind a small HTTP server on 127.0.0.1. It publishes its
metadata, reads the portal's AuthnRequest (HTTP-Redirect binding), asks for a password and
answers with a signed Response and Assertion to be posted to the portal (HTTP-POST binding),
as a university's Shibboleth or SimpleSAMLphp would. The institution's people are the OpenID
Connect provider's (tests/signin/provider/prepare.py)."""

import datetime
import html
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID

from tests.identifier_service import serving
from tests.signin.provider.prepare import PASSWORD, USERS

EDUPERSON = "urn:oid:1.3.6.1.4.1.5923.1.1.1."
ENTITLEMENT = f"{EDUPERSON}7"  # eduPersonEntitlement: the groups, as the portal reads them


def key_and_certificate(folder: Path) -> tuple[Path, Path]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "idp.institution.example")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .sign(key, hashes.SHA256())
    )
    key_file, certificate_file = folder / "idp-key.pem", folder / "idp-cert.pem"
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.NoEncryption(),
        )
    )
    certificate_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return key_file, certificate_file


def identity_provider(base: str, folder: Path):
    from saml2 import BINDING_HTTP_REDIRECT
    from saml2.config import IdPConfig
    from saml2.saml import NAME_FORMAT_URI, NAMEID_FORMAT_PERSISTENT
    from saml2.server import Server

    key_file, certificate_file = key_and_certificate(folder)
    config = IdPConfig()
    config.load(
        {
            "entityid": f"{base}/metadata",
            "service": {
                "idp": {
                    "endpoints": {
                        "single_sign_on_service": [(f"{base}/sso", BINDING_HTTP_REDIRECT)]
                    },
                    "name_id_format": [NAMEID_FORMAT_PERSISTENT],
                    "policy": {"default": {"name_form": NAME_FORMAT_URI}},
                    "sign_response": True,
                    "sign_assertion": True,
                }
            },
            "key_file": str(key_file),
            "cert_file": str(certificate_file),
            "xmlsec_binary": shutil.which("xmlsec1"),
            "metadata": {},
        }
    )
    return Server(config=config)


class Handler(BaseHTTPRequestHandler):
    server: "IdentityProvider"

    def do_GET(self) -> None:
        address = urlsplit(self.path)
        if address.path == "/metadata":
            from saml2.metadata import create_metadata_string

            self._answer(
                200,
                "application/samlmetadata+xml",
                create_metadata_string(None, config=self.server.idp.config, valid=1),
            )
        elif address.path == "/sso":
            query = {name: values[0] for name, values in parse_qs(address.query).items()}
            fields = "".join(
                f'<input type="hidden" name="{name}" value="{html.escape(query.get(name, ""))}">'
                for name in ("SAMLRequest", "RelayState")
            )
            page = (
                '<form method="post" action="/sso/login">'
                '<input name="username"><input name="password" type="password">'
                f"{fields}<button>Sign in</button></form>"
            )
            self._answer(200, "text/html", page.encode())
        else:
            self._answer(404, "text/plain", b"Not found.")

    def do_POST(self) -> None:
        from saml2 import BINDING_HTTP_POST, BINDING_HTTP_REDIRECT
        from saml2.saml import NAMEID_FORMAT_PERSISTENT, NameID
        from saml2.xmldsig import DIGEST_SHA256, SIG_RSA_SHA256

        length = int(self.headers["Content-Length"])
        form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
        username = form.get("username", "")
        if username not in USERS or form.get("password") != PASSWORD:
            self._answer(403, "text/plain", b"Wrong user name or password.")
            return
        idp = self.server.idp
        request = idp.parse_authn_request(form["SAMLRequest"], BINDING_HTTP_REDIRECT).message
        email, groups, orcid = USERS[username]
        identity = {"uid": [username], "mail": [email], "eduPersonEntitlement": groups}
        if orcid:
            identity["eduPersonOrcid"] = [f"https://orcid.org/{orcid}"]
        response = idp.create_authn_response(
            identity,
            in_response_to=request.id,
            destination=request.assertion_consumer_service_url,
            sp_entity_id=request.issuer.text,
            name_id=NameID(format=NAMEID_FORMAT_PERSISTENT, text=f"{username}-persistent-id"),
            authn={"class_ref": "urn:oasis:names:tc:SAML:2.0:ac:classes:Password"},
            sign_response=True,
            sign_assertion=True,
            # The portal refuses SHA-1 (python3-saml's rejectDeprecatedAlgorithm).
            sign_alg=SIG_RSA_SHA256,
            digest_alg=DIGEST_SHA256,
        )
        answer = idp.apply_binding(
            BINDING_HTTP_POST,
            str(response),
            destination=request.assertion_consumer_service_url,
            relay_state=form.get("RelayState", ""),
            response=True,
        )
        self._answer(200, "text/html", answer["data"].encode())

    def _answer(self, status: int, content_type: str, body: bytes | str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.end_headers()
        self.wfile.write(body.encode() if isinstance(body, str) else body)

    def log_message(self, format: str, *args: object) -> None:
        pass


class IdentityProvider(ThreadingHTTPServer):
    daemon_threads = True
    idp: object

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"


@contextmanager
def saml_identity_provider(folder: Path) -> Iterator[IdentityProvider]:
    server = IdentityProvider(("127.0.0.1", 0), Handler)
    server.idp = identity_provider(server.url, folder)
    with serving(server):
        yield server


def posted_form(page: str) -> tuple[str, dict[str, str]]:
    """The action and fields of the form pysaml2's HTTP-POST binding page posts."""
    action = html.unescape(re.search(r'action="([^"]*)"', page).group(1))
    fields = {
        html.unescape(name): html.unescape(value)
        for name, value in re.findall(r'name="([^"]*)" value="([^"]*)"', page)
    }
    return action, fields
