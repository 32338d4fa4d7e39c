"""A table's own certificate authority: the CA, the broker's server certificate and
client certificates for mutual TLS, made with the ``cryptography`` library.

Keys are ECDSA P-256 (fast on a Raspberry Pi, understood by Mosquitto, OpenSSL and
Python's ssl) and are written unencrypted with mode 0600: brokers and nodes start
unattended, so the file permissions are the protection.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from hub.security.errors import SecurityError

CA_CERT = "ca.crt"
CA_KEY = "ca.key"


class PkiError(SecurityError, ValueError):
    """A certificate cannot be made (missing CA, file in the way, bad name)."""


@dataclass(frozen=True)
class Issued:
    """The files of one certificate."""

    cert: Path
    key: Path


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _new_key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def _write_key(path: Path, key: ec.EllipticCurvePrivateKey) -> None:
    data = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, data)
    finally:
        os.close(fd)


def _write_cert(path: Path, cert: x509.Certificate) -> None:
    path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    path.chmod(0o644)


def _check_free(paths: list[Path], force: bool) -> None:
    taken = [str(p) for p in paths if p.exists()]
    if taken and not force:
        raise PkiError(f"{', '.join(taken)} already exist; pass --force to replace them")


def _builder(
    subject: x509.Name,
    issuer: x509.Name,
    key: ec.EllipticCurvePrivateKey,
    not_after: dt.datetime,
    *,
    ca: bool,
) -> x509.CertificateBuilder:
    """What every certificate here starts from: its names and key, a random serial, valid
    from five minutes ago (clocks differ) to ``not_after``, and the constraints and key
    usage of a CA (signs certificates) or of an end entity (signs, agrees ECDH keys)."""
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(_now() - dt.timedelta(minutes=5))
        .not_valid_after(not_after)
        .add_extension(x509.BasicConstraints(ca=ca, path_length=0 if ca else None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=not ca,
                key_cert_sign=ca,
                crl_sign=ca,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
    )


def create_ca(
    out: Path, *, name: str = "feltwire table CA", days: int = 3650, force: bool = False
) -> Issued:
    """Make a CA in ``out`` (``ca.crt``, ``ca.key``); refuses to overwrite without ``force``."""
    out.mkdir(parents=True, exist_ok=True)
    cert_path, key_path = out / CA_CERT, out / CA_KEY
    _check_free([cert_path, key_path], force)
    key = _new_key()
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    ski = x509.SubjectKeyIdentifier.from_public_key(key.public_key())
    cert = (
        _builder(subject, subject, key, _now() + dt.timedelta(days=days), ca=True)
        .add_extension(ski, critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ski), critical=False
        )
        .sign(key, hashes.SHA256())
    )
    _write_key(key_path, key)
    _write_cert(cert_path, cert)
    return Issued(cert_path, key_path)


def load_ca(ca_dir: Path) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """The CA certificate and key in ``ca_dir`` (as :func:`create_ca` wrote them)."""
    cert_path, key_path = ca_dir / CA_CERT, ca_dir / CA_KEY
    if not cert_path.is_file() or not key_path.is_file():
        raise PkiError(f"no CA in {ca_dir}: run 'feltwire certs init --out {ca_dir}' first")
    cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        raise PkiError(f"{key_path}: not an EC private key")
    return cert, key


def _issue(
    ca_dir: Path,
    out: Path,
    stem: str,
    *,
    common_name: str,
    sans: list[x509.GeneralName],
    usage: x509.ObjectIdentifier,
    days: int,
    force: bool,
) -> Issued:
    ca_cert, ca_key = load_ca(ca_dir)
    out.mkdir(parents=True, exist_ok=True)
    cert_path, key_path = out / f"{stem}.crt", out / f"{stem}.key"
    _check_free([cert_path, key_path], force)
    key = _new_key()
    not_after = min(_now() + dt.timedelta(days=days), ca_cert.not_valid_after_utc)
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    builder = (
        _builder(subject, ca_cert.subject, key, not_after, ca=False)
        .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
            critical=False,
        )
    )
    if sans:
        builder = builder.add_extension(x509.SubjectAlternativeName(sans), critical=False)
    cert = builder.sign(ca_key, hashes.SHA256())
    _write_key(key_path, key)
    _write_cert(cert_path, cert)
    return Issued(cert_path, key_path)


def create_server_cert(
    ca_dir: Path,
    *,
    hosts: list[str],
    ips: list[str] | None = None,
    out: Path | None = None,
    name: str = "server",
    days: int = 825,
    force: bool = False,
) -> Issued:
    """A broker certificate (``<name>.crt``/``.key`` in ``out``, default the CA folder)
    valid for each DNS name in ``hosts`` and each address in ``ips``."""
    if not hosts and not ips:
        raise PkiError("a server certificate needs at least one --host or --ip")
    sans: list[x509.GeneralName] = [x509.DNSName(h) for h in hosts]
    for ip in ips or []:
        try:
            sans.append(x509.IPAddress(ipaddress.ip_address(ip)))
        except ValueError:
            raise PkiError(f"not an IP address: {ip!r}") from None
    return _issue(
        ca_dir,
        out or ca_dir,
        name,
        common_name=hosts[0] if hosts else str(ips[0] if ips else name),
        sans=sans,
        usage=ExtendedKeyUsageOID.SERVER_AUTH,
        days=days,
        force=force,
    )


def create_client_cert(
    ca_dir: Path, *, name: str, out: Path | None = None, days: int = 825, force: bool = False
) -> Issued:
    """A client certificate for mutual TLS, common name ``name`` (use the credential's
    username, so Mosquitto's ``use_identity_as_username`` maps it to the same ACL)."""
    if not name or "/" in name or name.startswith("."):
        raise PkiError(f"invalid client name {name!r}")
    return _issue(
        ca_dir,
        out or ca_dir,
        name,
        common_name=name,
        sans=[],
        usage=ExtendedKeyUsageOID.CLIENT_AUTH,
        days=days,
        force=force,
    )


__all__ = [
    "CA_CERT",
    "CA_KEY",
    "Issued",
    "PkiError",
    "create_ca",
    "create_client_cert",
    "create_server_cert",
    "load_ca",
]
