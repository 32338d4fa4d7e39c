"""Topic access rules: who may publish and read which feltwire topics.

One rule set per credential, written as a Mosquitto ``acl_file`` block::

    user table1-pi-north
    topic write feltwire/v1/table1/node/pi-north/reader/+/tags
    topic write feltwire/v1/table1/node/pi-north/availability
    topic write feltwire/v1/table1/node/pi-north/button
    topic read feltwire/v1/table1/seat/+/light/set

Mosquitto enforces the file itself; the embedded broker reads the same file with
:func:`read_acl_file` and checks it with :class:`Acl` (see
:mod:`hub.security.amqtt_plugins`). What a role may do:

- ``node`` (a table-node Pi): publish the reader inventories, availability and button
  presses under its own ``node/<node>/`` topics (the inventories of any reader, or only
  of the ``readers`` it was given); read its table's seat lights.
- ``bridge`` (a serial reader board): the same without buttons.
- ``hub``: read its table's reader inventories, node buttons and availability from every
  node; publish seat lights, alerts and the public state.

A node's id is bound to its credential: it can publish nothing under another node's
topics (the hub also refuses a payload whose ``node`` is not the topic's). Nobody but a
hub reads reader topics, and a credential of one table reaches no topic of another.

>>> acl = Acl(rules_for_role("node", table="t1", node="n1", username="t1-n1"))
>>> acl.may_publish("t1-n1", "feltwire/v1/t1/node/n1/reader/seat1/tags")
True
>>> acl.may_publish("t1-n1", "feltwire/v1/t1/node/n2/reader/seat1/tags")
False
>>> acl.may_publish("t1-n1", "feltwire/v1/t2/node/n1/reader/seat1/tags")
False
>>> acl.may_subscribe("t1-n1", "feltwire/v1/t1/node/+/reader/+/tags")
False
>>> acl = Acl(rules_for_role("node", table="t1", node="n1", username="u", readers=["board"]))
>>> acl.may_publish("u", "feltwire/v1/t1/node/n1/reader/board/tags")
True
>>> acl.may_publish("u", "feltwire/v1/t1/node/n1/reader/seat1/tags")
False
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from feltwire.protocol import TOPIC_PREFIX, reader_kind
from hub.security.errors import SecurityError

Access = Literal["read", "write", "readwrite", "deny"]
Role = Literal["node", "bridge", "hub"]
ROLES: tuple[Role, ...] = ("node", "bridge", "hub")
_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
_USERNAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


class AclFileError(SecurityError, ValueError):
    """An ACL file line the embedded broker cannot enforce."""


@dataclass(frozen=True)
class Rule:
    """One ``topic`` (or ``pattern``) line: an access right on a topic filter."""

    access: Access
    topic: str
    pattern: bool = False  # a ``pattern`` line: %u (username) and %c (client id) expand

    def line(self) -> str:
        """The line as Mosquitto's acl_file writes it."""
        return f"{'pattern' if self.pattern else 'topic'} {self.access} {self.topic}"


def check_id(kind: str, value: str) -> str:
    """``value`` if it is a valid table or node id (1-32 of ``A-Z a-z 0-9 _ -``)."""
    if not _ID.match(value):
        raise ValueError(f"{kind} id must be 1-32 characters of A-Z a-z 0-9 _ -, not {value!r}")
    return value


def check_username(value: str) -> str:
    """``value`` if it is a usable MQTT username (1-64 of ``A-Z a-z 0-9 _ . -``)."""
    if not _USERNAME.match(value):
        raise ValueError(f"username must be 1-64 characters of A-Z a-z 0-9 _ . -, not {value!r}")
    return value


def default_username(role: Role, table: str, node: str | None) -> str:
    """``<table>-<node>`` for a node or bridge, ``<table>-hub`` for a hub."""
    if role == "hub":
        return f"{table}-{node or 'hub'}"
    if node is None:
        raise ValueError(f"a {role} credential needs a node id")
    return f"{table}-{node}"


def check_readers(readers: Sequence[str]) -> list[str]:
    """``readers`` without repeats, each a reader id the protocol knows (``seat1``,
    ``board`` …); a ValueError names the first that is not."""
    if not readers:
        raise ValueError("give at least one reader id (e.g. seat1,seat2,board)")
    for reader in readers:
        reader_kind(reader)  # ProtocolError (a ValueError) for an unknown id
    return list(dict.fromkeys(readers))


def rules_for_role(
    role: Role,
    *,
    table: str,
    node: str | None,
    username: str,
    readers: Sequence[str] | None = None,
) -> list[Rule]:
    """The rules of one credential (``node`` is the node's id; unused for a hub).

    ``readers`` limits a node or bridge to the inventories of those readers (None: any
    reader, still only under its own ``node/<node>/``)."""
    t = f"{TOPIC_PREFIX}/{check_id('table', table)}"
    if role == "hub":
        if readers is not None:
            raise ValueError("readers limit a node or bridge credential; a hub reads them all")
        return [
            Rule("read", f"{t}/node/+/reader/+/tags"),
            Rule("read", f"{t}/node/+/button"),
            Rule("read", f"{t}/node/+/availability"),
            Rule("write", f"{t}/seat/+/light/set"),
            Rule("write", f"{t}/alerts"),
            Rule("write", f"{t}/public"),
        ]
    if node is None:
        raise ValueError(f"a {role} credential needs a node id")
    n = f"{t}/node/{check_id('node', node)}"
    levels = ["+"] if readers is None else check_readers(readers)
    rules = [Rule("write", f"{n}/reader/{level}/tags") for level in levels]
    rules.append(Rule("write", f"{n}/availability"))
    if role == "node":
        rules.append(Rule("write", f"{n}/button"))
    elif role != "bridge":
        raise ValueError(f"unknown role {role!r}; one of {', '.join(ROLES)}")
    rules.append(Rule("read", f"{t}/seat/+/light/set"))
    return rules


def acl_block(username: str, rules: Iterable[Rule], comment: str = "") -> list[str]:
    """The ``user`` block of one credential, as acl_file lines."""
    lines = [f"user {check_username(username)}"]
    if comment:
        lines.append(f"# {comment}")
    lines += [r.line() for r in rules]
    return lines


def set_acl_block(path: Path | str, username: str, block: list[str]) -> str:
    """The text of the ACL file at ``path`` with ``username``'s block replaced by ``block``
    (appended when new); other users' blocks and ``pattern`` lines are kept."""
    p = Path(path)
    text = p.read_text(encoding="utf-8") if p.exists() else _ACL_HEADER
    kept = _without_user(text.splitlines(), username)
    while kept and not kept[-1].strip():
        kept.pop()
    return "\n".join([*kept, "", *block]) + "\n"


def remove_acl_block(path: Path | str, username: str) -> str | None:
    """The ACL file's text without ``username``'s block; None when it had none."""
    p = Path(path)
    if not p.exists():
        return None
    lines = p.read_text(encoding="utf-8").splitlines()
    kept = _without_user(lines, username)
    if kept == lines:
        return None
    return "\n".join(kept) + "\n"


_ACL_HEADER = (
    "# feltwire MQTT access rules (Mosquitto acl_file format), written by"
    " 'feltwire credentials'.\n# One 'user' block per credential; a client gets nothing"
    " that its block does not grant.\n"
)


def _without_user(lines: list[str], username: str) -> list[str]:
    out: list[str] = []
    skipping = False
    for line in lines:
        words = line.split()
        if words[:1] == ["user"]:
            skipping = " ".join(words[1:]) == username
        elif words[:1] == ["pattern"]:
            skipping = False  # a pattern line belongs to no user block
        if not skipping:
            out.append(line)
    return out


@dataclass
class AclTable:
    """An ACL file read into rules: per user, for anonymous clients, and patterns."""

    users: dict[str, list[Rule]] = field(default_factory=dict)
    anonymous: list[Rule] = field(default_factory=list)
    patterns: list[Rule] = field(default_factory=list)


def read_acl_file(path: Path | str) -> AclTable:
    """Parse a Mosquitto acl_file (``user``, ``topic``, ``pattern`` lines)."""
    table = AclTable()
    current: list[Rule] = table.anonymous  # topic lines before any 'user' line
    for n, raw in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        rest = rest.strip()
        if keyword == "user":
            if not rest:
                raise AclFileError(f"{path}:{n}: 'user' needs a name")
            current = table.users.setdefault(rest, [])
        elif keyword in ("topic", "pattern"):
            words = rest.split(" ", 1)
            access: str = "readwrite"
            topic = rest
            if len(words) == 2 and words[0] in ("read", "write", "readwrite", "deny"):
                access, topic = words[0], words[1].strip()
            if not topic:
                raise AclFileError(f"{path}:{n}: '{keyword}' needs a topic")
            rule = Rule(access, topic, pattern=keyword == "pattern")  # type: ignore[arg-type]
            (table.patterns if keyword == "pattern" else current).append(rule)
        else:
            raise AclFileError(f"{path}:{n}: unknown keyword {keyword!r}")
    return table


def topic_matches(topic_filter: str, topic: str) -> bool:
    """True when ``topic`` (no wildcards) matches ``topic_filter`` (``+`` and ``#``)."""
    f_levels = topic_filter.split("/")
    t_levels = topic.split("/")
    for i, level in enumerate(f_levels):
        if level == "#":
            return True  # also matches the parent level itself ('a/#' matches 'a')
        if i >= len(t_levels):
            return False
        if level not in ("+", t_levels[i]):
            return False
    return len(f_levels) == len(t_levels)


def filter_covers(outer: str, inner: str) -> bool:
    """True when every topic ``inner`` (a subscription filter) can match also matches
    ``outer`` — a subscription is allowed only inside what the ACL grants."""
    o_levels = outer.split("/")
    i_levels = inner.split("/")
    for i, level in enumerate(o_levels):
        if level == "#":
            return True
        if i >= len(i_levels):
            return False
        sub = i_levels[i]
        if sub == "#":
            return False
        if level == "+":
            continue
        if level != sub:  # a literal level covers only itself, not '+'
            return False
    return len(o_levels) == len(i_levels)


def filters_overlap(a: str, b: str) -> bool:
    """True when some topic matches both filters."""
    a_levels = a.split("/")
    b_levels = b.split("/")
    for i in range(max(len(a_levels), len(b_levels))):
        x = a_levels[i] if i < len(a_levels) else None
        y = b_levels[i] if i < len(b_levels) else None
        if x == "#" or y == "#":
            return True
        if x is None or y is None:
            return False
        if x != y and "+" not in (x, y):
            return False
    return True


class Acl:
    """Decides publish, subscribe and receive rights from an :class:`AclTable`.

    Like Mosquitto: a ``deny`` rule that matches wins; otherwise a matching ``write``
    (publish) or ``read`` (subscribe, receive) rule grants; otherwise refused.
    """

    def __init__(self, rules: AclTable | list[Rule], username: str | None = None) -> None:
        if isinstance(rules, list):
            table = AclTable()
            if username is None:
                table.patterns = rules
            else:
                table.users[username] = rules
            self.table = table
        else:
            self.table = rules

    def _rules(self, username: str | None, client_id: str | None) -> list[Rule]:
        own = self.table.anonymous if username is None else self.table.users.get(username, [])
        expanded = []
        for rule in self.table.patterns:
            topic = rule.topic
            if "%u" in topic:
                if username is None or any(c in username for c in "+#/"):
                    continue
                topic = topic.replace("%u", username)
            if "%c" in topic:
                if not client_id or any(c in client_id for c in "+#/"):
                    continue
                topic = topic.replace("%c", client_id)
            expanded.append(Rule(rule.access, topic))
        return [*own, *expanded]

    def may_publish(self, username: str | None, topic: str, client_id: str | None = None) -> bool:
        """May this user publish to ``topic``?"""
        return self._decide(self._rules(username, client_id), topic, "write")

    def may_receive(self, username: str | None, topic: str, client_id: str | None = None) -> bool:
        """May this user be sent a message published on ``topic``?"""
        return self._decide(self._rules(username, client_id), topic, "read")

    def may_subscribe(
        self, username: str | None, topic_filter: str, client_id: str | None = None
    ) -> bool:
        """May this user subscribe to ``topic_filter``? Only when a read rule covers all of
        it, so a broad filter (``#``) cannot pull retained messages it may not read."""
        rules = self._rules(username, client_id)
        if any(r.access == "deny" and filters_overlap(r.topic, topic_filter) for r in rules):
            return False
        return any(
            r.access in ("read", "readwrite") and filter_covers(r.topic, topic_filter)
            for r in rules
        )

    @staticmethod
    def _decide(rules: list[Rule], topic: str, want: str) -> bool:
        if any(r.access == "deny" and topic_matches(r.topic, topic) for r in rules):
            return False
        return any(r.access in (want, "readwrite") and topic_matches(r.topic, topic) for r in rules)


__all__ = [
    "ROLES",
    "Acl",
    "AclFileError",
    "AclTable",
    "Role",
    "Rule",
    "acl_block",
    "check_id",
    "check_readers",
    "check_username",
    "default_username",
    "filter_covers",
    "filters_overlap",
    "read_acl_file",
    "remove_acl_block",
    "rules_for_role",
    "set_acl_block",
    "topic_matches",
]
