"""Hub configs the integration and browser tests start real hubs on: table ``t1`` on the
hub's embedded broker, or on a broker of the test's own (a Mosquitto), web server on a
free port — as models for a hub in the test's process, or as the TOML file a ``feltwire
hub`` process reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hub.config import HubConfig, HubMqttSettings, WebSettings


def embedded_hub_config(**overrides: Any) -> HubConfig:
    """Table ``t1`` on the hub's embedded broker and web server, both on free ports, live
    equity off; ``overrides`` replace or add :class:`~hub.config.HubConfig` fields
    (``rules=…``, ``tournament=…``, ``state_dir=…``)."""
    options: dict[str, Any] = {
        "table": "t1",
        "live_equity": False,
        "mqtt": HubMqttSettings(embedded_port=0),
        "web": WebSettings(port=0),
    } | overrides
    return HubConfig(**options)


def hub_on_broker(url: str | list[str], readers: list[str]) -> HubConfig:
    """Table ``t1`` with ``readers``, on the broker at ``url`` (a list: each in turn);
    the overlay shows hole cards live (no delay), so a test sees each read as soon as
    the hub has it."""
    return HubConfig(
        table="t1",
        readers=readers,
        mqtt=HubMqttSettings(url=url),
        web=WebSettings(port=0, overlay_delay_minutes=0, allow_live_hole_cards=True),
    )


def embedded_hub_toml(state: Path, port: int, *, web: str = "") -> str:
    """The ``hub.toml`` of a ``feltwire hub`` process: table ``t1`` (seat1, seat2, board,
    burn, muck) on its embedded broker (a free port), the event log in ``state``, the web
    server on ``port``; ``web``: more ``[web]`` lines."""
    return (
        'table = "t1"\nreaders = ["seat1", "seat2", "board", "burn", "muck"]\n'
        f'state_dir = "{state}"\n[mqtt]\nembedded_port = 0\n'
        f'[web]\nport = {port}\nproducer_token = "a-long-producer-token-for-tests"\n{web}'
    )
