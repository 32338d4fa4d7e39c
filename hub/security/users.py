"""The hub's web users (name, role, password hash); ``feltwire web-user`` (:mod:`hub.cli.web_user`)
writes them.

A user signs in at ``/login`` with a name and a password and gets a session
(:mod:`hub.web.session`). Users come from ``[web] users`` in ``hub.toml`` and from the
file ``[web] users_file`` names (re-read when it changes, so a user added while the hub
runs can sign in at once). Only a hash of each password is kept: **argon2id**
(``$argon2id$v=19$m=19456,t=2,p=1$…``, the OWASP baseline: 19 MiB and two passes, about
0.1 s on a Raspberry Pi 4), so a copied users file costs a guesser dearly per try.

Older hubs wrote PBKDF2-SHA512 ``$7$`` hashes (10,000 rounds) for web users. Those keep
signing in — an upgrade must not lock the dealer out mid-event, and ``--check-config``
runs before every start — but the hub warns at start (and whenever the users file is
re-read) naming each such user and the command that re-creates it. Mosquitto's ``$7$``
format stays for the broker's generated credentials (:mod:`hub.security.passwords`).

    feltwire web-user add --role dealer NAME [--file web-users.toml]
    feltwire web-user remove NAME --file web-users.toml

``add`` asks for the password twice on a terminal, or reads one line from standard input
(``echo "$PW" | feltwire web-user add …``), and either prints the entry to paste into
``[web] users`` or writes it to the users file (TOML, mode 0600)::

    [[users]]
    name = "ann"
    role = "dealer"
    password_hash = "$argon2id$v=19$m=19456,t=2,p=1$…"

>>> user = WebUser(name="ann", role="dealer", password_hash=hash_web_password("pw"))
>>> users = UserDirectory([user])
>>> users.verify("ann", "pw") == user, users.verify("ann", "guess"), users.verify("bo", "pw")
(True, None, None)
"""

from __future__ import annotations

import functools
import json
import logging
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from argon2 import PasswordHasher, extract_parameters
from argon2.exceptions import InvalidHashError, VerificationError
from pydantic import Field, ValidationError, field_validator

from feltwire.config import ConfigModel
from hub.security.passwords import PBKDF2_PREFIX, verify_password, write_private_text

log = logging.getLogger(__name__)

NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$"
"""A user name: letters, digits and ``_ . @ -``, up to 64 characters."""

MIN_PASSWORD = 10
"""Shortest password ``feltwire web-user add`` accepts."""

UserRole = Literal["dealer", "producer", "admin"]
"""The roles a user can have (``public`` needs no account)."""


ARGON2_PREFIX = "$argon2id$"
ARGON2_TIME_COST = 2
"""Passes over the memory (OWASP's argon2id baseline: m = 19 MiB, t = 2, p = 1)."""
ARGON2_MEMORY_KIB = 19 * 1024
"""Memory per hash, KiB: what one sign-in costs the hub (sign-ins are checked one at a
time, so this is also the most they take together)."""
ARGON2_PARALLELISM = 1
MAX_ARGON2_MEMORY_KIB = 256 * 1024
"""Largest memory cost a configured hash may ask for (a hand-made hash cannot make each
sign-in attempt cost the hub gigabytes)."""
MAX_ARGON2_TIME_COST = 16

_HASHER = PasswordHasher(
    time_cost=ARGON2_TIME_COST, memory_cost=ARGON2_MEMORY_KIB, parallelism=ARGON2_PARALLELISM
)


def hash_web_password(password: str) -> str:
    """The argon2id hash of a web user's password (what ``feltwire web-user add`` writes)."""
    return _HASHER.hash(password)


def is_legacy_hash(password_hash: str) -> bool:
    """True for a ``$7$`` PBKDF2 hash written by an older hub (still accepted, warned about)."""
    return password_hash.startswith(PBKDF2_PREFIX)


def _argon2_matches(password: str, password_hash: str) -> bool:
    try:
        return _HASHER.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


@functools.cache
def _dummy_hash() -> str:
    """Checked for an unknown name, so a wrong name costs the same time as a wrong password."""
    return hash_web_password("feltwire: no such user")


def check_password(user: WebUser | None, password: str) -> bool:
    """True when ``password`` is ``user``'s; for no user (an unknown name) the same work
    is done against a dummy hash, and a legacy ``$7$`` user's check costs an argon2id
    check too, so the time taken does not say which names exist or how they are hashed.
    CPU-bound (argon2id): run it off the event loop."""
    if user is None:
        _argon2_matches(password, _dummy_hash())
        return False
    if is_legacy_hash(user.password_hash):
        _argon2_matches(password, _dummy_hash())
        return verify_password(password, user.password_hash)
    return _argon2_matches(password, user.password_hash)


class WebUser(ConfigModel):
    """One person who may sign in: a name, a role and the hash of their password."""

    name: str = Field(pattern=NAME_PATTERN, description="the name typed at sign-in")
    role: UserRole = Field(description="dealer, producer or admin")
    password_hash: str = Field(
        repr=False,
        description=(
            "argon2id hash ($argon2id$…) from `feltwire web-user add`, never the password; "
            "an older hub's PBKDF2 $7$ hash still works (with a warning at start)"
        ),
    )

    @field_validator("password_hash")
    @classmethod
    def _is_a_hash(cls, value: str) -> str:
        if is_legacy_hash(value) and value.count("$") == 4:
            return value
        if not value.startswith(ARGON2_PREFIX):
            raise ValueError(
                "not an argon2id password hash ($argon2id$…): make one with `feltwire web-user add`"
            )
        try:
            params = extract_parameters(value)
        except InvalidHashError:
            raise ValueError(
                "a garbled argon2id hash: make a new one with `feltwire web-user add`"
            ) from None
        if params.memory_cost > MAX_ARGON2_MEMORY_KIB or params.time_cost > MAX_ARGON2_TIME_COST:
            raise ValueError(
                f"argon2id cost too high (m={params.memory_cost} KiB, t={params.time_cost}; "
                f"at most m={MAX_ARGON2_MEMORY_KIB}, t={MAX_ARGON2_TIME_COST}): every sign-in "
                "attempt would cost that much; make one with `feltwire web-user add`"
            )
        return value


def unique_users(users: Iterable[WebUser], source: str) -> dict[str, WebUser]:
    """``{name: user}``; ValueError naming ``source`` when a name comes twice."""
    out: dict[str, WebUser] = {}
    for user in users:
        if user.name in out:
            raise ValueError(f"{source}: user {user.name!r} appears twice")
        out[user.name] = user
    return out


def read_users_file(path: Path) -> list[WebUser]:
    """The users of a users file (``[[users]]`` tables); ValueError names what is wrong."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{path}: no such users file") from None
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{path}: cannot read the users file: {exc}") from None
    unknown = set(data) - {"users"}
    if unknown:
        raise ValueError(f"{path}: unknown keys {sorted(unknown)} (expected [[users]] tables)")
    entries = data.get("users", [])
    if not isinstance(entries, list):
        raise ValueError(f"{path}: 'users' must be a list of [[users]] tables")
    users = []
    for n, entry in enumerate(entries, start=1):
        try:
            users.append(WebUser.model_validate(entry))
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'entry'}: {e['msg']}" for e in exc.errors()
            )
            raise ValueError(f"{path}: user #{n}: {problems}") from None
    unique_users(users, str(path))
    return users


def toml_entry(user: WebUser) -> str:
    """``user`` as a ``[[users]]`` table of a users file."""
    return (
        "[[users]]\n"
        f"name = {json.dumps(user.name)}\n"
        f"role = {json.dumps(user.role)}\n"
        f"password_hash = {json.dumps(user.password_hash)}\n"
    )


def inline_entry(user: WebUser) -> str:
    """``user`` as one element of ``[web] users = [ … ]`` in ``hub.toml``."""
    return (
        f"{{ name = {json.dumps(user.name)}, role = {json.dumps(user.role)}, "
        f"password_hash = {json.dumps(user.password_hash)} }}"
    )


def write_users_file(path: Path, users: Iterable[WebUser]) -> None:
    """Replace ``path`` with ``users`` (created 0600; an existing file keeps its mode)."""
    header = "# feltwire web users — written by `feltwire web-user`; hashes only, no passwords\n"
    write_private_text(path, header + "".join("\n" + toml_entry(u) for u in users))


class UserDirectory:
    """Who may sign in: the config's users and those of the users file.

    The file is read again when its modification time changes; a file that has become
    unreadable is logged and the users read before stay in force. A user whose hash is a
    legacy ``$7$`` one is warned about once (per hash) when it is read.
    """

    def __init__(self, users: Iterable[WebUser] = (), users_file: Path | None = None) -> None:
        self._inline = unique_users(users, "[web] users")
        self.users_file = users_file
        self._from_file: dict[str, WebUser] = {}
        self._stamp: tuple[int, int] | None = None
        self._warned: set[tuple[str, str]] = set()
        self._warn_legacy(self._inline.values(), None)
        self._refresh()

    def _warn_legacy(self, users: Iterable[WebUser], path: Path | None) -> None:
        for user in users:
            if not is_legacy_hash(user.password_hash):
                continue
            if (user.name, user.password_hash) in self._warned:
                continue
            self._warned.add((user.name, user.password_hash))
            command = f"feltwire web-user add --role {user.role} {user.name}"
            if path is not None:
                how = f"`{command} --file {path}`"
            else:
                how = f"`{command}` and replace its entry in [web] users"
            log.warning(
                "web user %r has an old PBKDF2 ($7$) password hash: it still signs in, "
                "but re-create it with %s to store an argon2id hash",
                user.name,
                how,
            )

    def _refresh(self) -> None:
        if self.users_file is None:
            return
        try:
            st = self.users_file.stat()
            stamp = (st.st_mtime_ns, st.st_size)
            if stamp == self._stamp:
                return
            self._from_file = unique_users(read_users_file(self.users_file), str(self.users_file))
            self._stamp = stamp
            self._warn_legacy(self._from_file.values(), self.users_file)
        except (OSError, ValueError) as exc:
            log.error("web users file not (re)read, the users read before stay: %s", exc)

    def lookup(self, name: str) -> WebUser | None:
        """The user called ``name`` (the config wins over the file), or None."""
        self._refresh()
        return self._inline.get(name) or self._from_file.get(name)

    def verify(self, name: str, password: str) -> WebUser | None:
        """The user when ``password`` is theirs, else None (same cost for unknown names;
        CPU-bound, see :func:`check_password`)."""
        user = self.lookup(name)
        return user if check_password(user, password) and user is not None else None

    def __len__(self) -> int:
        self._refresh()
        return len(set(self._inline) | set(self._from_file))


__all__ = [
    "ARGON2_PREFIX",
    "NAME_PATTERN",
    "UserDirectory",
    "UserRole",
    "WebUser",
    "check_password",
    "hash_web_password",
    "inline_entry",
    "is_legacy_hash",
    "read_users_file",
    "toml_entry",
    "write_users_file",
]
