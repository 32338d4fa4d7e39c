"""``feltwire web-user``: add or remove the hub's web sign-in users (:mod:`hub.security.users`).

feltwire web-user add --role dealer NAME [--file web-users.toml]
feltwire web-user remove NAME --file web-users.toml
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path

from feltwire.cli import command_parser
from hub.security.users import (
    MIN_PASSWORD,
    WebUser,
    hash_web_password,
    inline_entry,
    read_users_file,
    write_users_file,
)


def _parser() -> argparse.ArgumentParser:
    parser, sub = command_parser(
        "feltwire web-user", "Web users of the hub (dealer console, producer overlay, admin)."
    )
    add = sub.add_parser("add", help="add (or replace) a user; asks for the password")
    add.add_argument("name", help="the name typed at sign-in")
    add.add_argument("--role", choices=["dealer", "producer", "admin"], required=True)
    add.add_argument(
        "--file", type=Path, help="users file to write (default: print the entry for hub.toml)"
    )
    rm = sub.add_parser("remove", help="remove a user from a users file")
    rm.add_argument("name")
    rm.add_argument("--file", type=Path, required=True, help="the users file")
    return parser


def read_new_password() -> str:
    """The new password: asked twice on a terminal, else one line of standard input."""
    if sys.stdin.isatty():
        first = getpass.getpass("password: ")
        if getpass.getpass("again: ") != first:
            raise ValueError("the two passwords differ")
    else:
        first = sys.stdin.readline().rstrip("\r\n")
    if len(first) < MIN_PASSWORD:
        raise ValueError(f"the password needs at least {MIN_PASSWORD} characters")
    return first


def _add(args: argparse.Namespace) -> int:
    user = WebUser(
        name=args.name, role=args.role, password_hash=hash_web_password(read_new_password())
    )
    if args.file is None:
        print("# add to the users list of [web] in hub.toml:")
        print(inline_entry(user))
        return 0
    users = read_users_file(args.file) if args.file.exists() else []
    replaced = any(u.name == user.name for u in users)
    users = [u for u in users if u.name != user.name] + [user]
    write_users_file(args.file, users)
    print(f"{'replaced' if replaced else 'added'} {user.role} {user.name!r} in {args.file}")
    return 0


def _remove(args: argparse.Namespace) -> int:
    users = read_users_file(args.file)
    kept = [u for u in users if u.name != args.name]
    if len(kept) == len(users):
        print(f"feltwire web-user: no user {args.name!r} in {args.file}", file=sys.stderr)
        return 1
    write_users_file(args.file, kept)
    print(f"removed {args.name!r} from {args.file} (their open sessions end with it)")
    return 0


def main(argv: list[str]) -> int:
    """Entry point of ``feltwire web-user``; returns the exit code."""
    args = _parser().parse_args(argv)
    try:
        return _add(args) if args.command == "add" else _remove(args)
    except (ValueError, OSError, EOFError) as exc:
        print(f"feltwire web-user {args.command}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
