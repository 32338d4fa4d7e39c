"""Mosquitto-compatible password hashes and password files.

A password file holds one ``username:hash`` line per credential. The hash is the format
``mosquitto_passwd`` writes by default (``sha512-pbkdf2``)::

    $7$<iterations>$<base64 salt>$<base64 PBKDF2-HMAC-SHA512 digest>

so the same file serves a Mosquitto broker (``password_file``) and the hub's embedded
broker (:class:`hub.security.amqtt_plugins.PasswordFileAuth`).

>>> h = hash_password("s3cret", iterations=1000)
>>> h.startswith("$7$1000$"), verify_password("s3cret", h), verify_password("guess", h)
(True, True, False)
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
import secrets
import tempfile
from pathlib import Path

from hub.security.errors import SecurityError

PBKDF2_PREFIX = "$7$"
DEFAULT_ITERATIONS = 10_000
"""PBKDF2 rounds for new hashes (``mosquitto_passwd`` uses 101; Mosquitto reads any count)."""
SALT_BYTES = 12
DIGEST_BYTES = 64


class PasswordFileError(SecurityError, ValueError):
    """A password file line that cannot be read."""


def new_password() -> str:
    """A strong random password (192 bits), safe inside an ``mqtt://user:pass@`` URL."""
    return secrets.token_urlsafe(24)


def hash_password(
    password: str, *, iterations: int = DEFAULT_ITERATIONS, salt: bytes | None = None
) -> str:
    """The ``$7$`` (PBKDF2-HMAC-SHA512) hash of ``password``, as Mosquitto reads it."""
    if iterations < 1:
        raise ValueError("iterations must be at least 1")
    salt = salt if salt is not None else os.urandom(SALT_BYTES)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode("utf-8"), salt, iterations, DIGEST_BYTES)
    return (
        f"{PBKDF2_PREFIX}{iterations}${base64.b64encode(salt).decode()}"
        f"${base64.b64encode(digest).decode()}"
    )


def verify_password(password: str, password_hash: str) -> bool:
    """True when ``password`` matches a ``$7$`` hash; False for anything else."""
    parts = password_hash.split("$")
    # "", "7", iterations, salt, digest
    if len(parts) != 5 or parts[0] != "" or parts[1] != "7":
        return False
    try:
        iterations = int(parts[2])
        salt = base64.b64decode(parts[3], validate=True)
        expected = base64.b64decode(parts[4], validate=True)
    except (ValueError, binascii.Error):
        return False
    if iterations < 1 or not expected:
        return False
    digest = hashlib.pbkdf2_hmac(
        "sha512", password.encode("utf-8"), salt, iterations, len(expected)
    )
    return hmac.compare_digest(digest, expected)


def read_password_file(path: Path | str) -> dict[str, str]:
    """``{username: hash}`` from a Mosquitto password file (comments and blanks skipped)."""
    users: dict[str, str] = {}
    for n, raw in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        user, sep, password_hash = line.partition(":")
        if not sep or not user or not password_hash:
            raise PasswordFileError(f"{path}:{n}: expected 'username:hash'")
        users[user] = password_hash
    return users


def write_private_text(path: Path, text: str, *, mode: int = 0o600) -> None:
    """Replace ``path`` atomically with ``text``; a new file gets ``mode``, an existing
    one keeps its mode (so a ``root:mosquitto 0640`` file stays readable by the broker)."""
    if path.exists():
        mode = path.stat().st_mode & 0o777
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def set_password(path: Path | str, username: str, password_hash: str) -> None:
    """Add or replace ``username``'s line in a password file (created 0600 if missing)."""
    if ":" in username or not username:
        raise ValueError(f"invalid username {username!r}")
    p = Path(path)
    lines = p.read_text(encoding="utf-8").splitlines() if p.exists() else []
    out = [ln for ln in lines if ln.partition(":")[0].strip() != username]
    out.append(f"{username}:{password_hash}")
    write_private_text(p, "\n".join(out) + "\n")


def remove_password(path: Path | str, username: str) -> bool:
    """Drop ``username`` from a password file; False when it was not there."""
    p = Path(path)
    if not p.exists():
        return False
    lines = p.read_text(encoding="utf-8").splitlines()
    out = [ln for ln in lines if ln.partition(":")[0].strip() != username]
    if len(out) == len(lines):
        return False
    write_private_text(p, "\n".join(out) + ("\n" if out else ""))
    return True


__all__ = [
    "DEFAULT_ITERATIONS",
    "PasswordFileError",
    "hash_password",
    "new_password",
    "read_password_file",
    "remove_password",
    "set_password",
    "verify_password",
    "write_private_text",
]
