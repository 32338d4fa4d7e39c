"""``feltwire certs``: a certificate authority and certificates for a table's MQTT TLS.

    feltwire certs init   --out DIR                      # the CA: DIR/ca.crt, DIR/ca.key
    feltwire certs server --ca DIR --host NAME [--ip IP]  # the broker: DIR/server.crt/.key
    feltwire certs client --ca DIR --name NAME           # mutual TLS: DIR/NAME.crt/.key

Keep ``ca.key`` off the network (copy only ``ca.crt`` to nodes); key files are 0600.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from feltwire.cli import command_parser


def _parser() -> argparse.ArgumentParser:
    parser, sub = command_parser(
        "feltwire certs", "A certificate authority and TLS certificates for a table's MQTT broker."
    )
    init = sub.add_parser("init", help="create the CA (ca.crt, ca.key)")
    init.add_argument("--out", type=Path, required=True, help="folder for the CA files")
    init.add_argument("--name", default="feltwire table CA", help="the CA's common name")
    init.add_argument("--days", type=int, default=3650, help="validity (default 3650 days)")
    srv = sub.add_parser("server", help="a broker certificate signed by the CA")
    srv.add_argument("--ca", type=Path, required=True, help="the CA folder ('certs init')")
    srv.add_argument(
        "--host", action="append", default=[], help="DNS name clients use (repeatable)"
    )
    srv.add_argument("--ip", action="append", default=[], help="IP address clients use")
    srv.add_argument("--name", default="server", help="file name stem (default 'server')")
    srv.add_argument("--days", type=int, default=825, help="validity (default 825 days)")
    cli = sub.add_parser("client", help="a client certificate for mutual TLS")
    cli.add_argument("--ca", type=Path, required=True, help="the CA folder ('certs init')")
    cli.add_argument(
        "--name", required=True, help="common name: the credential's username, e.g. table1-pi1"
    )
    cli.add_argument("--days", type=int, default=825, help="validity (default 825 days)")
    for p in (init, srv, cli):
        p.add_argument("--force", action="store_true", help="replace existing files")
    for p in (srv, cli):
        p.add_argument("--out", type=Path, help="folder for the files (default: the CA folder)")
    return parser


def main(argv: list[str]) -> int:
    """Entry point of ``feltwire certs``; returns the exit code."""
    args = _parser().parse_args(argv)
    try:
        from hub.security import pki
    except ImportError as exc:
        print(
            f"feltwire certs: needs the 'cryptography' package ({exc}); "
            "pip install 'feltwire[hub]'",
            file=sys.stderr,
        )
        return 2
    try:
        if args.command == "init":
            issued = pki.create_ca(args.out, name=args.name, days=args.days, force=args.force)
            print(f"CA certificate: {issued.cert}  (copy to every broker, hub and node)")
            print(f"CA key:         {issued.key}  (mode 0600; keep it off the table network)")
        elif args.command == "server":
            issued = pki.create_server_cert(
                args.ca,
                hosts=args.host,
                ips=args.ip,
                out=args.out,
                name=args.name,
                days=args.days,
                force=args.force,
            )
            names = ", ".join([*args.host, *args.ip])
            print(f"server certificate for {names}: {issued.cert}")
            print(f"server key: {issued.key}  (mode 0600; readable by the broker only)")
        else:
            issued = pki.create_client_cert(
                args.ca, name=args.name, out=args.out, days=args.days, force=args.force
            )
            print(f"client certificate for {args.name}: {issued.cert}")
            print(f"client key: {issued.key}  (mode 0600; copy to that node only)")
    except (pki.PkiError, OSError, ValueError) as exc:
        print(f"feltwire certs {args.command}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
