"""``feltwire web-token``: an issued access token for the hub's web side.

    feltwire web-token --role producer --hours 12 --config hub.toml [--name obs-studio]

prints a ``fwt1`` token signed with ``[web] token_secret`` (:mod:`hub.web.auth`), good for
the given hours: the overlay's URL for an OBS browser source (``/overlay?token=…``), or an
``Authorization: Bearer …`` header for a script. A token cannot be revoked before it
expires except by changing ``token_secret`` (which ends every token), so keep the hours
short. The hub's config must set ``token_secret``: without it the hub signs with a
random secret of its own and no token made here would be accepted.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from feltwire.config import load_command_config
from hub.config import HubConfig
from hub.web.auth import Role, TokenSigner

MAX_HOURS = 24 * 31
"""Longest validity a token may be given (a month)."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="feltwire web-token",
        description="Print an access token for the hub's web pages, signed with token_secret.",
    )
    parser.add_argument(
        "--role", choices=[r.value for r in Role if r is not Role.PUBLIC], required=True
    )
    parser.add_argument("--hours", type=float, default=12.0, help="validity (default 12)")
    parser.add_argument("--name", help="who the token is for, shown in the audit trail")
    parser.add_argument("--config", type=Path, required=True, help="the hub's hub.toml")
    return parser


def main(argv: list[str]) -> int:
    """Entry point of ``feltwire web-token``; returns the exit code."""
    args = _parser().parse_args(argv)
    if not 0 < args.hours <= MAX_HOURS:
        print(f"feltwire web-token: --hours must be in (0, {MAX_HOURS}]", file=sys.stderr)
        return 2
    config = load_command_config(HubConfig, args.config, "feltwire web-token")
    if isinstance(config, int):
        return config
    secret = config.web.signing_secret
    if secret is None:
        print(
            f"feltwire web-token: {args.config} sets no [web] token_secret (nor "
            "token_secret_file); the hub then "
            "signs with a random secret of its own and would refuse this token",
            file=sys.stderr,
        )
        return 1
    role = Role(args.role)
    signer = TokenSigner(secret.get_secret_value().encode())
    print(signer.issue(role, args.name or role.value, seconds=args.hours * 3600))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
