"""``feltwire certs`` and ``feltwire credentials``: files, permissions, a verifying chain
and hashes Mosquitto accepts."""

from __future__ import annotations

import shutil
import ssl
import stat
import subprocess
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.x509.oid import ExtendedKeyUsageOID

from feltwire.cli import main as feltwire_main
from hub.cli import certs, credentials
from hub.security.acl import Acl, read_acl_file
from hub.security.passwords import hash_password, read_password_file, verify_password
from tests.support.commands import run_cli
from tests.support.guarded_brokers import TableSecrets


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_certs_files_and_permissions(table_secrets: TableSecrets) -> None:
    for key in (
        table_secrets.ca.with_suffix(".key"),
        table_secrets.server_key,
        table_secrets.node_key,
    ):
        assert _mode(key) == 0o600, key
    assert _mode(table_secrets.ca) == 0o644


def test_the_chain_verifies(table_secrets: TableSecrets) -> None:
    ca = x509.load_pem_x509_certificate(table_secrets.ca.read_bytes())
    server = x509.load_pem_x509_certificate(table_secrets.server_cert.read_bytes())
    node = x509.load_pem_x509_certificate(table_secrets.node_cert.read_bytes())
    for leaf in (server, node):
        leaf.verify_directly_issued_by(ca)
    san = server.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert san.get_values_for_type(x509.DNSName) == ["localhost"]
    assert [str(ip) for ip in san.get_values_for_type(x509.IPAddress)] == ["127.0.0.1"]
    eku = node.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert ExtendedKeyUsageOID.CLIENT_AUTH in eku
    # Python's own TLS stack accepts the files as a server and a client identity
    ssl.create_default_context(cafile=str(table_secrets.ca)).load_cert_chain(
        table_secrets.node_cert, table_secrets.node_key
    )
    if shutil.which("openssl"):
        out = subprocess.run(
            ["openssl", "verify", "-CAfile", table_secrets.ca, table_secrets.server_cert],
            capture_output=True,
            text=True,
            check=False,
        )
        assert out.returncode == 0, out.stdout + out.stderr


def test_another_ca_does_not_verify(table_secrets: TableSecrets, tmp_path: Path) -> None:
    run_cli(certs.main, ["init", "--out", str(tmp_path / "other")])
    other = x509.load_pem_x509_certificate((tmp_path / "other" / "ca.crt").read_bytes())
    server = x509.load_pem_x509_certificate(table_secrets.server_cert.read_bytes())
    with pytest.raises(InvalidSignature):
        server.verify_directly_issued_by(other)


def test_certs_refuses_to_overwrite_and_needs_a_ca(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert certs.main(["init", "--out", str(tmp_path)]) == 0
    assert certs.main(["init", "--out", str(tmp_path)]) == 1
    assert "already exist" in capsys.readouterr().err
    assert certs.main(["init", "--out", str(tmp_path), "--force"]) == 0
    assert certs.main(["server", "--ca", str(tmp_path / "none"), "--host", "x"]) == 1
    assert "certs init" in capsys.readouterr().err
    assert certs.main(["server", "--ca", str(tmp_path), "--ip", "not-an-ip"]) == 1


def test_feltwire_dispatches_the_commands(tmp_path: Path) -> None:
    assert feltwire_main(["certs", "init", "--out", str(tmp_path / "ca")]) == 0
    args = ["--file", str(tmp_path / "pw"), "--acl", str(tmp_path / "acl")]
    assert feltwire_main(["credentials", "add", *args, "--table", "t", "--node", "n"]) == 0


def test_credentials_add_writes_a_verifying_hash_and_rules(table_secrets: TableSecrets) -> None:
    users = read_password_file(table_secrets.passwords)
    node = table_secrets.users["node1"]
    assert users[node.username].startswith("$7$")
    assert verify_password(node.password, users[node.username])
    assert not verify_password(node.password + "x", users[node.username])
    assert _mode(table_secrets.passwords) == 0o600
    assert _mode(table_secrets.acl) == 0o600
    acl = Acl(read_acl_file(table_secrets.acl))
    hub = table_secrets.users["hub1"].username
    bridge = table_secrets.users["node2"].username
    assert acl.may_publish(node.username, "feltwire/v1/table1/node/pi1/reader/seat3/tags")
    assert not acl.may_publish(node.username, "feltwire/v1/table1/node/pi2/reader/seat3/tags")
    assert not acl.may_publish(node.username, "feltwire/v1/table1/reader/seat3/tags")  # old form
    assert acl.may_publish(node.username, "feltwire/v1/table1/node/pi1/button")
    assert not acl.may_publish(node.username, "feltwire/v1/table1/node/pi2/button")
    assert not acl.may_publish(node.username, "feltwire/v1/table2/node/pi1/reader/seat3/tags")
    assert acl.may_subscribe(node.username, "feltwire/v1/table1/seat/+/light/set")
    assert not acl.may_subscribe(node.username, "feltwire/v1/table1/node/+/reader/+/tags")
    assert not acl.may_subscribe(node.username, "feltwire/v1/table1/node/pi1/reader/+/tags")
    assert not acl.may_subscribe(node.username, "#")
    assert acl.may_subscribe(hub, "feltwire/v1/table1/node/+/reader/+/tags")
    assert not acl.may_subscribe(hub, "feltwire/v1/table2/node/+/reader/+/tags")
    assert not acl.may_publish(hub, "feltwire/v1/table1/node/pi1/reader/seat1/tags")
    assert not acl.may_publish(bridge, "feltwire/v1/table2/node/pi9/button")  # a bridge


def test_credentials_add_replaces_and_remove_deletes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--file", str(tmp_path / "pw"), "--acl", str(tmp_path / "acl")]
    for _ in range(2):
        assert credentials.main(["add", *args, "--table", "t1", "--node", "n1"]) == 0
    assert credentials.main(["add", *args, "--table", "t1", "--role", "hub"]) == 0
    assert list(read_password_file(tmp_path / "pw")) == ["t1-n1", "t1-hub"]
    assert (tmp_path / "acl").read_text().count("user t1-n1") == 1
    assert credentials.main(["remove", *args, "--user", "t1-n1"]) == 0
    assert list(read_password_file(tmp_path / "pw")) == ["t1-hub"]
    assert "t1-n1" not in (tmp_path / "acl").read_text()
    assert credentials.main(["remove", *args, "--user", "t1-n1"]) == 1
    assert credentials.main(["add", *args, "--table", "bad table", "--node", "n"]) == 1
    assert credentials.main(["add", *args, "--table", "t1"]) == 1  # a node needs --node
    capsys.readouterr()


def test_credentials_add_with_readers_grants_only_those(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--file", str(tmp_path / "pw"), "--acl", str(tmp_path / "acl"), "--table", "t1"]
    assert credentials.main(["add", *args, "--node", "n1", "--readers", "seat1, seat2,seat1"]) == 0
    assert "readers seat1,seat2" in capsys.readouterr().out
    text = (tmp_path / "acl").read_text()
    assert "topic write feltwire/v1/t1/node/n1/reader/seat1/tags" in text
    assert "topic write feltwire/v1/t1/node/n1/reader/seat2/tags" in text
    assert "reader/+/tags" not in text
    acl = Acl(read_acl_file(tmp_path / "acl"))
    assert acl.may_publish("t1-n1", "feltwire/v1/t1/node/n1/reader/seat2/tags")
    assert not acl.may_publish("t1-n1", "feltwire/v1/t1/node/n1/reader/board/tags")
    assert acl.may_publish("t1-n1", "feltwire/v1/t1/node/n1/availability")
    # an unknown reader, an empty list, or readers for a hub: refused with a reason
    for bad, why in (
        (["--node", "n2", "--readers", "seat1,seat11"], "unknown reader id 'seat11'"),
        (["--node", "n2", "--readers", ","], "at least one reader"),
        (["--role", "hub", "--readers", "seat1"], "a hub reads them all"),
    ):
        assert credentials.main(["add", *args, *bad]) == 1
        assert why in capsys.readouterr().err
    assert list(read_password_file(tmp_path / "pw")) == ["t1-n1"]


def test_our_hash_matches_mosquitto_passwd(tmp_path: Path) -> None:
    """The real ``mosquitto_passwd`` output verifies with our code (same format)."""
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        pytest.skip("mosquitto_passwd is not installed")
    pw = tmp_path / "pw"
    subprocess.run([tool, "-b", "-c", str(pw), "alice", "s3cret"], check=True)
    theirs = read_password_file(pw)["alice"]
    assert theirs.startswith("$7$")
    assert verify_password("s3cret", theirs)
    assert not verify_password("S3cret", theirs)
    salt = theirs.split("$")[3]
    import base64

    iterations = int(theirs.split("$")[2])
    assert hash_password("s3cret", iterations=iterations, salt=base64.b64decode(salt)) == theirs
