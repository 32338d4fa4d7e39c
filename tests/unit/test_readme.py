"""The README's examples are real: its config files validate, its commands exist, and
CI runs exactly its test command."""

from __future__ import annotations

import re
from pathlib import Path

from feltwire.cli import COMMANDS
from feltwire.config import parse_config
from hub.config import HubConfig
from table_node.config import NodeConfig
from tests.support.readme import README, ROOT, toml_block_after


def test_hub_and_node_examples_validate(tmp_path: Path) -> None:
    hub = toml_block_after("`hub.toml`:")
    assert isinstance(hub.get("deck"), str)
    hub.pop("deck")  # names a file the reader makes with `feltwire deck register`
    cfg = parse_config(HubConfig, hub, source="README hub.toml")
    assert cfg.rules is not None and cfg.web.overlay_delay_minutes == 30
    node = parse_config(NodeConfig, toml_block_after("`node.toml`:"), source="README node.toml")
    assert node.buttons and node.lights


def test_the_guarded_embedded_broker_example_validates() -> None:
    mqtt = toml_block_after("then in `hub.toml`:")
    cfg = parse_config(HubConfig, mqtt, source="README guarded hub.toml")
    assert cfg.mqtt.embedded_host == "0.0.0.0" and cfg.mqtt.embedded_is_guarded


def test_every_command_in_the_usage_table_exists() -> None:
    used = set(re.findall(r"^\| `feltwire ([\w-]+)", README, re.M))
    assert used and used <= set(COMMANDS), used - set(COMMANDS)


def test_ci_runs_exactly_the_readme_test_command() -> None:
    commands = re.findall(r"^(\./scripts/\w+)", README, re.M)
    assert commands[:2] == ["./scripts/demo", "./scripts/test"]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "exec ./scripts/test\n" in ci


def test_the_card_room_example_validates() -> None:
    link = "[docs/scaling.md](docs/scaling.md#a-card-room-of-several-hubs)"
    room = toml_block_after(f"says which hub serves which table ({link}):")
    cfg = parse_config(HubConfig, room, source="README card room hub.toml")
    assert cfg.cluster is not None and cfg.cluster.hub == "hub-a"
    assert cfg.event_log_url is not None and cfg.cluster.settle_s == cfg.cluster.lease_seconds
