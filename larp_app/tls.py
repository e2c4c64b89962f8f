"""HTTPS on a laptop at the venue: a local certificate authority that phones install once,
and a server certificate for this machine's LAN addresses and name, kept in instance/tls/.

Renewal and a new LAN address are the same command: the authority is kept (phones keep
trusting it), the server certificate is made again for the addresses of today.
"""

from __future__ import annotations

import ipaddress
import socket
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

AUTHORITY_DAYS = 3650
# Apple's limit for a server certificate is 398 days; one year, renewed by `flask tls init`.
SERVER_DAYS = 365
RENEW_BEFORE = timedelta(days=30)


@dataclass(frozen=True)
class TlsFiles:
    folder: Path

    @property
    def ca_cert(self) -> Path:
        return self.folder / "ca.pem"

    @property
    def ca_key(self) -> Path:
        return self.folder / "ca-key.pem"

    @property
    def cert(self) -> Path:
        return self.folder / "server.pem"

    @property
    def key(self) -> Path:
        return self.folder / "server-key.pem"


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback (``hostname -I``, else a UDP probe)."""
    found: list[str] = []
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=5).stdout
        found = [a for a in out.split() if _is_ipv4(a)]
    except (OSError, subprocess.SubprocessError):
        pass
    if not found:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect(("192.0.2.1", 9))  # no packet is sent: only the route is chosen
                found = [probe.getsockname()[0]]
        except OSError:
            pass
    return [a for a in found if not ipaddress.ip_address(a).is_loopback]


def _is_ipv4(text: str) -> bool:
    try:
        return ipaddress.ip_address(text).version == 4
    except ValueError:
        return False


def _write(path: Path, data: bytes, private: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if private:
        path.touch(mode=0o600)
        path.chmod(0o600)
    path.write_bytes(data)


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def ensure_authority(files: TlsFiles, label: str) -> tuple[x509.Certificate, bool]:
    """The local authority, made the first time; (its certificate, whether it is new)."""
    if files.ca_cert.exists() and files.ca_key.exists():
        return x509.load_pem_x509_certificate(files.ca_cert.read_bytes()), False
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "larp_app"),
            x509.NameAttribute(NameOID.COMMON_NAME, f"larp_app local authority ({label})"[:64]),
        ]
    )
    now = datetime.now(UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(hours=1))
        .not_valid_after(now + timedelta(days=AUTHORITY_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    _write(files.ca_key, _key_pem(key), private=True)
    _write(files.ca_cert, cert.public_bytes(serialization.Encoding.PEM))
    return cert, True


def issue_server_certificate(
    files: TlsFiles, names: list[str], addresses: list[str]
) -> x509.Certificate:
    """A server certificate for these DNS names and IP addresses, signed by the authority."""
    ca_cert = x509.load_pem_x509_certificate(files.ca_cert.read_bytes())
    ca_key = serialization.load_pem_private_key(files.ca_key.read_bytes(), password=None)
    key = ec.generate_private_key(ec.SECP256R1())
    alt = [x509.DNSName(n) for n in dict.fromkeys(names)] + [
        x509.IPAddress(ipaddress.ip_address(a)) for a in dict.fromkeys(addresses)
    ]
    now = datetime.now(UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, (names or addresses)[0])]))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(hours=1))
        .not_valid_after(now + timedelta(days=SERVER_DAYS))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    _write(files.key, _key_pem(key), private=True)
    _write(files.cert, cert.public_bytes(serialization.Encoding.PEM))
    return cert


def covers(files: TlsFiles, names: list[str], addresses: list[str]) -> bool:
    """Whether today's server certificate names all of these and is not about to expire."""
    if not (files.cert.exists() and files.key.exists()):
        return False
    cert = x509.load_pem_x509_certificate(files.cert.read_bytes())
    if cert.not_valid_after_utc - RENEW_BEFORE < datetime.now(UTC):
        return False
    alt = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    have_names = set(alt.get_values_for_type(x509.DNSName))
    have_ips = {str(a) for a in alt.get_values_for_type(x509.IPAddress)}
    return set(names) <= have_names and set(addresses) <= have_ips


def ca_der(files: TlsFiles) -> bytes:
    """The authority as phones install it (DER, .crt)."""
    cert = x509.load_pem_x509_certificate(files.ca_cert.read_bytes())
    return cert.public_bytes(serialization.Encoding.DER)


def default_names() -> list[str]:
    host = socket.gethostname()
    return list(dict.fromkeys([host, f"{host}.local", "localhost"]))


def tls_files(app) -> TlsFiles:
    """Where the authority and the certificate are kept: TLS_FOLDER, else instance/tls/."""
    return TlsFiles(Path(app.config.get("TLS_FOLDER") or Path(app.instance_path) / "tls"))


ANY_ADDRESS = ("", "0.0.0.0", "::", "[::]")


def laptop_base_url(app, port: int, host: str | None = None) -> str:
    """The address `make run` prints and phones reach: HTTPS once `flask tls init` ran; the
    ``host`` served (``HOST``) when it names one, else this machine's LAN address."""
    scheme = "https" if tls_files(app).cert.exists() else "http"
    address = host if host not in (None, *ANY_ADDRESS) else (lan_addresses() or ["127.0.0.1"])[0]
    return f"{scheme}://{address}:{port}"
