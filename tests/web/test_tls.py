"""HTTPS on a laptop: `flask tls init`, the plain-HTTP trust page, badge addresses without
--base-url, and a scan page over plain HTTP that says how to trust the server."""

import pytest
from cryptography import x509

from larp_app.extensions import db
from larp_app.services.demo import load_demo
from larp_app.trust import create_trust_app

from .helpers import TOKEN


@pytest.fixture
def tls_app(app, tmp_path):
    app.config["TLS_FOLDER"] = str(tmp_path / "tls")
    return app


def read(path):
    return x509.load_pem_x509_certificate(path.read_bytes())


def alt_names(cert):
    alt = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return set(alt.get_values_for_type(x509.DNSName)) | {
        str(a) for a in alt.get_values_for_type(x509.IPAddress)
    }


def test_tls_init_makes_an_authority_and_a_certificate_it_signed_for_this_machine(
    tls_app, tmp_path
):
    answer = tls_app.test_cli_runner().invoke(args=["tls", "init", "--ip", "192.168.1.10"])
    assert answer.exit_code == 0, answer.output
    assert "phones install it once" in answer.output
    authority, server = read(tmp_path / "tls/ca.pem"), read(tmp_path / "tls/server.pem")
    server.verify_directly_issued_by(authority)
    assert authority.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    assert {"localhost", "127.0.0.1", "192.168.1.10"} <= alt_names(server)
    assert oct((tmp_path / "tls/ca-key.pem").stat().st_mode & 0o777) == "0o600"


def test_a_new_lan_address_is_one_command_and_phones_keep_the_authority(tls_app, tmp_path):
    runner = tls_app.test_cli_runner()
    runner.invoke(args=["tls", "init"])
    authority = (tmp_path / "tls/ca.pem").read_bytes()
    kept = runner.invoke(args=["tls", "init", "--keep"])
    assert "kept" in kept.output
    moved = runner.invoke(args=["tls", "init", "--keep", "--ip", "10.0.0.7"])
    assert moved.exit_code == 0, moved.output
    assert "phones install it once" not in moved.output
    assert (tmp_path / "tls/ca.pem").read_bytes() == authority
    server = read(tmp_path / "tls/server.pem")
    assert "10.0.0.7" in alt_names(server)
    server.verify_directly_issued_by(read(tmp_path / "tls/ca.pem"))


def test_a_bad_ip_is_refused_naming_the_option(tls_app):
    answer = tls_app.test_cli_runner().invoke(args=["tls", "init", "--ip", "not-an-ip"])
    assert answer.exit_code == 2
    assert "--ip" in answer.output


def test_badges_print_without_base_url_uses_the_address_make_run_prints(tls_app, tmp_path):
    with tls_app.app_context():
        load_demo()
        db.session.commit()
    runner = tls_app.test_cli_runner()
    runner.invoke(args=["tls", "init"])
    answer = runner.invoke(args=["badges", "print", "1", "--out", str(tmp_path / "b.pdf")])
    assert answer.exit_code == 0, answer.output
    assert "QR codes point at https://" in answer.output
    assert (tmp_path / "b.pdf").stat().st_size > 0


@pytest.fixture
def trust_client(tls_app, tmp_path):
    tls_app.test_cli_runner().invoke(args=["tls", "init"])
    trust = create_trust_app(
        {"TLS_FOLDER": str(tmp_path / "tls"), "PUBLIC_BASE_URL": "https://192.168.1.10:5000"}
    )
    return trust.test_client()


@pytest.mark.parametrize(
    ("language", "android", "ios"),
    [
        ("en", "Install a certificate", "Certificate trust settings"),
        ("it", "Installa un certificato", "Impostazioni attendibilità certificati"),
        ("es", "Instalar un certificado", "Ajustes de confianza de certificados"),
    ],
)
def test_the_trust_page_is_a_big_qr_code_and_the_steps_for_android_and_ios(
    trust_client, language, android, ios
):
    page = trust_client.get(
        "/", base_url="http://192.168.1.10:8080", headers={"Accept-Language": language}
    )
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "<svg" in text and "http://192.168.1.10:8080/" in text
    assert android in text and ios in text
    assert 'data-trust-check="https://192.168.1.10:5000/icons/192.png"' in text


def test_the_trust_page_hands_out_the_authority_for_phones(trust_client, tmp_path):
    answer = trust_client.get("/larp-ca.crt")
    assert answer.mimetype == "application/x-x509-ca-cert"
    assert x509.load_der_x509_certificate(answer.data) == read(tmp_path / "tls/ca.pem")


def test_the_scan_page_over_plain_http_says_how_to_trust_the_server(app, client):
    app.config["TRUST_URL"] = "http://192.168.1.10:8080/"
    with app.app_context():
        load_demo()
        db.session.commit()
    lan = "http://192.168.1.10:5000"
    login = client.get("/login", base_url=lan).get_data(as_text=True)
    token = TOKEN.search(login).group(1)
    credentials = {"username": "referee", "password": "referee-demo", "csrf_token": token}
    client.post("/login", data=credentials, base_url=lan)
    page = client.get("/scan", base_url=lan).get_data(as_text=True)
    assert "This page is not secure" in page
    assert 'href="http://192.168.1.10:8080/"' in page
    secure = client.get("/scan", base_url="https://192.168.1.10:5000").get_data(as_text=True)
    assert "This page is not secure" not in secure


# The venue's authority: limited to this machine and private addresses, for one season.


def verify_for(authority, leaf, name):
    """Verify ``leaf`` for ``name`` (a DNS name or an IP) as a browser trusting ``authority``."""
    import ipaddress
    from datetime import UTC, datetime

    from cryptography.x509.verification import PolicyBuilder, Store

    try:
        subject = x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        subject = x509.DNSName(name)
    verifier = (
        PolicyBuilder()
        .store(Store([authority]))
        .time(datetime.now(UTC))
        .build_server_verifier(subject)
    )
    return verifier.verify(leaf, [])


def test_a_certificate_the_authority_signs_for_a_public_name_does_not_verify(tls_app, tmp_path):
    import shutil
    import subprocess

    from cryptography.x509.verification import VerificationError

    from larp_app.tls import TlsFiles, issue_server_certificate

    runner = tls_app.test_cli_runner()
    assert runner.invoke(args=["tls", "init", "--ip", "192.168.1.10"]).exit_code == 0
    authority, server = read(tmp_path / "tls/ca.pem"), read(tmp_path / "tls/server.pem")
    for name in ("localhost", "192.168.1.10", "127.0.0.1"):
        verify_for(authority, server, name)  # the venue's own names and addresses verify
    # Whoever copies instance/tls/ signs what they like with the key: it never verifies.
    stolen = TlsFiles(tmp_path / "stolen")
    shutil.copytree(tmp_path / "tls", stolen.folder)
    for names, addresses, asked in (
        (["accounts.google.com"], [], "accounts.google.com"),
        (["localhost"], ["8.8.8.8"], "8.8.8.8"),
    ):
        forged = issue_server_certificate(stolen, names, addresses)
        with pytest.raises(VerificationError):
            verify_for(authority, forged, asked)
    if shutil.which("openssl"):
        issue_server_certificate(stolen, ["accounts.google.com"], [])
        answer = subprocess.run(
            ["openssl", "verify", "-CAfile", str(stolen.ca_cert), str(stolen.cert)],
            capture_output=True,
            text=True,
        )
        assert answer.returncode != 0 and "subtree" in (answer.stdout + answer.stderr)


def test_the_authority_is_limited_critically_and_lives_one_event_season(tls_app, tmp_path):
    from datetime import UTC, datetime, timedelta

    answer = tls_app.test_cli_runner().invoke(args=["tls", "init"])
    authority = read(tmp_path / "tls/ca.pem")
    limits = authority.extensions.get_extension_for_class(x509.NameConstraints)
    assert limits.critical
    permitted = {str(g.value) for g in limits.value.permitted_subtrees}
    assert {"local", "localhost", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"} <= permitted
    assert {"127.0.0.0/8", "169.254.0.0/16", "fc00::/7", "::1/128", "fe80::/10"} <= permitted
    lifetime = authority.not_valid_after_utc - datetime.now(UTC)
    assert timedelta(days=365) < lifetime <= timedelta(days=400)
    assert f"until {authority.not_valid_after_utc:%Y-%m-%d}" in answer.output
    assert read(tmp_path / "tls/server.pem").not_valid_after_utc <= authority.not_valid_after_utc


def test_an_authority_that_could_sign_for_any_site_is_replaced(tls_app, tmp_path):
    from datetime import UTC, datetime, timedelta

    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    folder = tmp_path / "tls"
    folder.mkdir()
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(x509.NameOID.COMMON_NAME, "larp_app local authority")])
    now = datetime.now(UTC)
    unlimited = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(1)
        .not_valid_before(now)
        .not_valid_after(now + timedelta(days=3650))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .sign(key, hashes.SHA256())
    )
    (folder / "ca.pem").write_bytes(unlimited.public_bytes(serialization.Encoding.PEM))
    (folder / "ca-key.pem").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    answer = tls_app.test_cli_runner().invoke(args=["tls", "init", "--keep"])
    assert answer.exit_code == 0, answer.output
    assert "remove it from the phones" in answer.output
    authority = read(folder / "ca.pem")
    assert authority != unlimited
    authority.extensions.get_extension_for_class(x509.NameConstraints)
    read(folder / "server.pem").verify_directly_issued_by(authority)


def test_a_public_ip_is_refused_naming_the_option(tls_app):
    answer = tls_app.test_cli_runner().invoke(args=["tls", "init", "--ip", "8.8.8.8"])
    assert answer.exit_code == 2
    assert "--ip" in answer.output and "private" in answer.output


def test_the_trust_page_says_how_to_remove_the_authority_after_the_event(trust_client, tmp_path):
    text = trust_client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    until = read(tmp_path / "tls/ca.pem").not_valid_after_utc.date().isoformat()
    assert "After the event" in text and until in text
    assert "User credentials" in text and "Remove profile" in text
