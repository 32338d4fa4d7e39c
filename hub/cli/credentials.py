"""``feltwire credentials``: one MQTT credential per node, bridge and hub.

    feltwire credentials add --file passwords --acl acl --table T --node N [--role node]
                             [--readers seat1,seat2,…]
    feltwire credentials remove --file passwords --acl acl --user USER

``add`` makes a strong random password, prints it once, and writes its PBKDF2-SHA512 hash
(the ``$7$`` format of ``mosquitto_passwd``) to the password file and the credential's
access rules to the ACL file: a node or bridge may publish only under its own
``feltwire/v1/<table>/node/<node>/`` topics, and with ``--readers`` only the inventories
of those readers. Both files serve Mosquitto (``password_file``,
``acl_file``) and the hub's embedded broker alike; send Mosquitto a SIGHUP (``systemctl
reload mosquitto``) to read them again.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from feltwire.cli import command_parser
from hub.security.acl import (
    ROLES,
    Role,
    acl_block,
    check_readers,
    check_username,
    default_username,
    remove_acl_block,
    rules_for_role,
    set_acl_block,
)
from hub.security.passwords import (
    hash_password,
    new_password,
    remove_password,
    set_password,
    write_private_text,
)


def _parser() -> argparse.ArgumentParser:
    parser, sub = command_parser(
        "feltwire credentials",
        "MQTT credentials (password file + ACL) for nodes, bridges and hubs.",
    )
    add = sub.add_parser("add", help="create (or replace) a credential; prints its password")
    add.add_argument("--table", required=True, help="table id")
    add.add_argument("--node", help="node or bridge id (a hub: optional, default 'hub')")
    add.add_argument("--role", choices=ROLES, default="node", help="default: node")
    add.add_argument("--user", help="username (default <table>-<node>, a hub <table>-hub)")
    add.add_argument(
        "--readers",
        help="comma-separated reader ids a node or bridge may publish (e.g. seat1,seat2,board);"
        " default: any reader, under its own node id",
    )
    rm = sub.add_parser("remove", help="delete a credential and its rules")
    rm.add_argument("--user", required=True, help="the username to remove")
    for p in (add, rm):
        p.add_argument("--file", type=Path, required=True, help="the password file")
        p.add_argument("--acl", type=Path, required=True, help="the ACL file")
    return parser


def _add(args: argparse.Namespace) -> int:
    role: Role = args.role
    username = check_username(args.user or default_username(role, args.table, args.node))
    readers = None
    if args.readers is not None:
        readers = check_readers([r.strip() for r in args.readers.split(",") if r.strip()])
    rules = rules_for_role(
        role, table=args.table, node=args.node, username=username, readers=readers
    )
    what = (
        f"{role} {args.node} of table {args.table}"
        if args.node
        else f"{role} of table {args.table}"
    )
    if readers is not None:
        what += f", readers {','.join(readers)}"
    password = new_password()
    set_password(args.file, username, hash_password(password))
    write_private_text(
        args.acl, set_acl_block(args.acl, username, acl_block(username, rules, what))
    )
    print(f"credential for {what}")
    print(f"  username: {username}")
    print(f"  password: {password}")
    print("  (shown once: only its hash is stored; run 'add' again to replace it)")
    print(f"  broker URL: mqtts://{username}:{password}@<broker host>:8883")
    print(f"written to {args.file} and {args.acl}; reload the broker to apply it")
    return 0


def _remove(args: argparse.Namespace) -> int:
    username = args.user
    had_password = remove_password(args.file, username)
    acl_text = remove_acl_block(args.acl, username)
    if acl_text is not None:
        write_private_text(args.acl, acl_text)
    if not had_password and acl_text is None:
        print(f"feltwire credentials: no credential {username!r}", file=sys.stderr)
        return 1
    print(f"removed {username} from {args.file} and {args.acl}; reload the broker to apply it")
    return 0


def main(argv: list[str]) -> int:
    """Entry point of ``feltwire credentials``; returns the exit code."""
    args = _parser().parse_args(argv)
    try:
        return _add(args) if args.command == "add" else _remove(args)
    except (ValueError, OSError) as exc:
        print(f"feltwire credentials {args.command}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
