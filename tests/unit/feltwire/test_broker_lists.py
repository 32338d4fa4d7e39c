"""``[mqtt] url`` as a list — the brokers of a cluster — for the hub, a node and a bridge:
one URL keeps working; a list is checked whole (same scheme, same user, none twice), the
password file and TLS files apply to every broker, and ``--check-config`` names each."""

from __future__ import annotations

from pathlib import Path

import pytest

from feltwire.config import MqttClientSettings, load_config
from feltwire.errors import ConfigError
from firmware_bridge import main as bridge_main
from firmware_bridge.config import BridgeConfig
from hub.cli import hub as hub_cli
from hub.config import HubConfig
from table_node import main as node_main
from table_node.config import NodeConfig

CLUSTER = ["mqtt://pi1@10.0.0.2:1883", "mqtt://pi1@10.0.0.3:1883", "mqtt://pi1@10.0.0.4:1884"]
Model = type[HubConfig] | type[NodeConfig] | type[BridgeConfig]
MODELS = [HubConfig, NodeConfig, BridgeConfig]


def toml_list(urls: list[str]) -> str:
    return "[" + ", ".join(f'"{u}"' for u in urls) + "]"


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


@pytest.mark.parametrize("model", MODELS)
def test_a_list_gives_every_broker_in_order_and_the_first_as_the_address(
    model: Model, tmp_path: Path
) -> None:
    write(tmp_path / "pw", "cluster-secret\n")
    cfg = write(tmp_path / "c.toml", f'[mqtt]\nurl = {toml_list(CLUSTER)}\npassword_file = "pw"\n')
    mqtt = load_config(model, cfg).mqtt
    assert [(a.host, a.port) for a in mqtt.addresses] == [
        ("10.0.0.2", 1883),
        ("10.0.0.3", 1883),
        ("10.0.0.4", 1884),
    ]
    # the password file's password goes to every broker, the first stays `address`
    assert {(a.username, a.password) for a in mqtt.addresses} == {("pi1", "cluster-secret")}
    assert mqtt.address == mqtt.addresses[0]
    assert mqtt.urls == CLUSTER


def test_one_url_is_a_list_of_one() -> None:
    mqtt = MqttClientSettings(url="mqtt://10.0.0.2:1883")
    assert mqtt.urls == ["mqtt://10.0.0.2:1883"]
    assert [(a.host, a.port) for a in mqtt.addresses] == [("10.0.0.2", 1883)]


@pytest.mark.parametrize(
    ("urls", "said"),
    [
        ([], "list of broker URLs is empty"),
        (["mqtt://10.0.0.2", "mqtts://10.0.0.3"], "mix mqtt:// and mqtts://"),
        (["mqtt://pi1@10.0.0.2", "mqtt://pi2@10.0.0.3"], "different users or passwords"),
        (["mqtt://pi1:a@10.0.0.2", "mqtt://pi1:b@10.0.0.3"], "different users or passwords"),
        (["mqtt://10.0.0.2:1883", "mqtt://10.0.0.2"], "10.0.0.2:1883 is listed twice"),
        (["mqtt://10.0.0.2", "http://10.0.0.3"], "must start with mqtt:// or mqtts://"),
    ],
)
@pytest.mark.parametrize("model", MODELS)
def test_a_bad_list_is_a_config_error_saying_what_is_wrong(
    model: Model, urls: list[str], said: str, tmp_path: Path
) -> None:
    cfg = write(tmp_path / "c.toml", f"[mqtt]\nurl = {toml_list(urls)}\n")
    with pytest.raises(ConfigError, match=rf"mqtt\.url.*{said}"):
        load_config(model, cfg)


def test_tls_files_need_every_broker_on_mqtts(tmp_path: Path) -> None:
    ca = write(tmp_path / "ca.crt", "x")
    plain = write(
        tmp_path / "plain.toml",
        f'[mqtt]\nurl = {toml_list(["mqtt://10.0.0.2", "mqtt://10.0.0.3"])}\nca_file = "{ca}"\n',
    )
    with pytest.raises(ConfigError, match="need an mqtts:// url"):
        load_config(NodeConfig, plain)
    tls = ["mqtts://10.0.0.2", "mqtts://10.0.0.3"]
    cfg = write(tmp_path / "tls.toml", f'[mqtt]\nurl = {toml_list(tls)}\nca_file = "{ca}"\n')
    assert [a.port for a in load_config(NodeConfig, cfg).mqtt.addresses] == [8883, 8883]


@pytest.mark.parametrize(
    ("main", "config"),
    [
        (hub_cli.main, '[mqtt]\nurl = {urls}\npassword_file = "pw"\n'),
        (node_main.main, '[mqtt]\nurl = {urls}\npassword_file = "pw"\n'),
        (
            bridge_main.main,
            'port = "loop://"\n[mqtt]\nurl = {urls}\npassword_file = "pw"\n',
        ),
    ],
    ids=["hub", "node", "bridge"],
)
def test_check_config_names_every_broker_and_no_password(
    main: object, config: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path / "pw", "cluster-secret\n")
    cfg = write(tmp_path / "c.toml", config.format(urls=toml_list(CLUSTER)))
    assert callable(main)
    assert main(["--config", str(cfg), "--check-config"]) == 0
    out = capsys.readouterr().out
    assert "checked broker 1 of 3: mqtt://pi1@10.0.0.2:1883" in out
    assert "checked broker 2 of 3: mqtt://pi1@10.0.0.3:1883" in out
    assert "checked broker 3 of 3: mqtt://pi1@10.0.0.4:1884" in out
    assert "cluster-secret" not in out
