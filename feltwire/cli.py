"""The ``feltwire`` command: a thin dispatcher to each process's own entry point.

A subcommand's code is imported only when that subcommand runs, so a node Pi without the
hub's packages can still run ``feltwire node``. :func:`command_parser` is the command
line every ``feltwire COMMAND ACTION …`` starts from.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

COMMANDS: dict[str, tuple[str, str]] = {
    "hub": ("hub.cli.hub", "run the hub (MQTT ingest, rules, web pages)"),
    "node": ("table_node.main", "run a table node (readers → MQTT)"),
    "bridge": ("firmware_bridge.main", "run a serial reader-board bridge (board → MQTT)"),
    "demo": ("simulator.demo", "a whole simulated table on this machine"),
    "event-log": ("hub.cli.event_log", "check the hub's event logs; accept a loss explicitly"),
    "history": ("hub.cli.history", "hand histories: replay PHH files, rebuild the hands store"),
    "deck": ("hub.cli.deck", "register a deck of tagged cards; check a deck file"),
    "equity": ("hub.cli.equity", "win, tie and equity shares of a spot, for any game"),
    "certs": ("hub.cli.certs", "a CA and TLS certificates for the table's MQTT broker"),
    "credentials": ("hub.cli.credentials", "MQTT credentials and ACL rules for nodes and hubs"),
    "web-user": ("hub.cli.web_user", "web sign-in users (dealer, producer, admin) for the hub"),
    "web-token": (
        "hub.cli.web_token",
        "an access token for the hub's web pages (the overlay)",
    ),
    "protocol": ("feltwire.protocol.schema", "the wire protocol: print its JSON Schema"),
}


def command_parser(
    prog: str, description: str
) -> tuple[argparse.ArgumentParser, argparse._SubParsersAction[argparse.ArgumentParser]]:
    """The parser of a command made of actions (``feltwire certs init …``), and the
    subparsers to add each action to; one action must be given (``args.command``).

    >>> parser, actions = command_parser("feltwire demo-cmd", "An example.")
    >>> _ = actions.add_parser("go", help="do it").add_argument("--fast", action="store_true")
    >>> parser.parse_args(["go", "--fast"])
    Namespace(command='go', fast=True)
    """
    parser = argparse.ArgumentParser(prog=prog, description=description)
    return parser, parser.add_subparsers(dest="command", required=True)


def _usage() -> str:
    lines = ["usage: feltwire COMMAND [options]", "", "commands:"]
    lines += [f"  {name:<12} {help_}" for name, (_, help_) in COMMANDS.items()]
    lines += ["", "'feltwire COMMAND --help' describes a command's options."]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``feltwire COMMAND …``; returns the process exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(_usage())
        return 0 if args else 2
    if args[0] in ("-V", "--version"):
        from feltwire import __version__

        print(f"feltwire {__version__}")
        return 0
    name = args[0]
    if name not in COMMANDS:
        print(f"feltwire: unknown command {name!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module_name, _ = COMMANDS[name]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        print(
            f"feltwire {name}: a package it needs is not installed ({exc.name}); "
            f"install the matching extra, e.g. pip install 'feltwire[{_extra(name)}]'",
            file=sys.stderr,
        )
        return 2
    entry: Callable[[list[str]], int] = module.main
    return entry(args[1:])


def _extra(command: str) -> str:
    return {"node": "node", "bridge": "bridge", "demo": "demo"}.get(command, "hub")


if __name__ == "__main__":
    raise SystemExit(main())
