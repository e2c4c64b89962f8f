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
