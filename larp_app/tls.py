"""HTTPS on a laptop at the venue: a local certificate authority that phones install once,
and a server certificate for this machine's LAN addresses and name, kept in instance/tls/.

Renewal and a new LAN address are the same command: the authority is kept (phones keep
trusting it), the server certificate is made again for the addresses of today.

The authority is for the venue only. Its certificate says so in a critical X.509 Name
Constraints extension: it may sign for this machine's names (its host name, ``.local``
names, ``localhost``, and names given with ``--name``) and for private addresses (10/8,
172.16/12, 192.168/16, 127/8, link-local, IPv6 unique-local and loopback), nothing else.
A phone that trusts it trusts no certificate it signs for a public name (a bank, a mail
provider), even if its key is copied from ``instance/``. It lives one event season
(AUTHORITY_DAYS, about 13 months); the trust page says how to remove it afterwards.
"""

from __future__ import annotations

import ipaddress
import socket
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

# One event season, and a little more: a season's events all fall within it; the next season
# phones install a new one (the trust page shows the date).
AUTHORITY_DAYS = 400
# Apple's limit for a server certificate is 398 days; one year (never past the authority's
# end), renewed by `flask tls init`.
SERVER_DAYS = 365
RENEW_BEFORE = timedelta(days=30)
# The addresses a venue's laptop has: private IPv4, loopback, link-local, IPv6 ULA/loopback.
VENUE_NETWORKS = tuple(
    ipaddress.ip_network(n)
    for n in (
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "127.0.0.0/8",
        "169.254.0.0/16",
        "fc00::/7",
        "::1/128",
        "fe80::/10",
    )
)
VENUE_DOMAINS = ("local", "localhost")  # mDNS names (laptop.local) and this machine


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
    return [a for a in found if not ipaddress.ip_address(a).is_loopback and is_venue_address(a)]


def is_venue_address(text: str) -> bool:
    """Whether the venue's authority may sign for this address (a private one)."""
    address = ipaddress.ip_address(text)
    return any(address in network for network in VENUE_NETWORKS)


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


def venue_constraints(names: list[str]) -> x509.NameConstraints:
    """What the authority may sign for: these names (and names under them), ``.local``
    names, ``localhost``, and the private address ranges."""
    domains = dict.fromkeys([*(n.lower().rstrip(".") for n in names), *VENUE_DOMAINS])
    return x509.NameConstraints(
        permitted_subtrees=[x509.DNSName(d) for d in domains]
        + [x509.IPAddress(network) for network in VENUE_NETWORKS],
        excluded_subtrees=None,
    )


def _permits(constraints: x509.NameConstraints, name: str) -> bool:
    name = name.lower().rstrip(".")
    return any(
        name == d or name.endswith("." + d)
        for d in (
            g.value for g in constraints.permitted_subtrees or [] if isinstance(g, x509.DNSName)
        )
    )


def authority_fits(files: TlsFiles, names: list[str]) -> bool:
    """Whether the kept authority is a venue-only one that may sign for ``names`` and has
    a season left (an authority made before they were limited is replaced)."""
    if not (files.ca_cert.exists() and files.ca_key.exists()):
        return False
    cert = x509.load_pem_x509_certificate(files.ca_cert.read_bytes())
    try:
        limits = cert.extensions.get_extension_for_class(x509.NameConstraints)
    except x509.ExtensionNotFound:
        return False
    if not limits.critical or cert.not_valid_after_utc - RENEW_BEFORE < datetime.now(UTC):
        return False
    return all(_permits(limits.value, n) for n in names)


def ensure_authority(files: TlsFiles, names: list[str]) -> tuple[x509.Certificate, bool]:
    """The local authority, made when there is none fit for ``names`` (see
    ``authority_fits``); (its certificate, whether it is new)."""
    if authority_fits(files, names):
        return x509.load_pem_x509_certificate(files.ca_cert.read_bytes()), False
    label = names[0] if names else "venue"
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
        .add_extension(venue_constraints(names), critical=True)
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
    # The name a verifier may read as a host name too (OpenSSL does): one the authority may
    # sign for, or words that are no host name.
    common = names[0] if names else "larp_app server"
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)]))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(hours=1))
        .not_valid_after(min(now + timedelta(days=SERVER_DAYS), ca_cert.not_valid_after_utc))
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
    try:  # signed by today's authority (a replaced one signs for nobody)
        cert.verify_directly_issued_by(x509.load_pem_x509_certificate(files.ca_cert.read_bytes()))
    except (ValueError, TypeError, InvalidSignature):
        return False
    alt = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    have_names = set(alt.get_values_for_type(x509.DNSName))
    have_ips = {str(a) for a in alt.get_values_for_type(x509.IPAddress)}
    return set(names) <= have_names and set(addresses) <= have_ips


def authority_until(files: TlsFiles) -> datetime | None:
    """When the kept authority expires (None: there is none)."""
    if not files.ca_cert.exists():
        return None
    return x509.load_pem_x509_certificate(files.ca_cert.read_bytes()).not_valid_after_utc


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
