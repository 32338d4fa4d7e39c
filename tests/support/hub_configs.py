"""Hub configs the integration and browser tests start real hubs on: table ``t1`` on the
hub's embedded broker, or on a broker of the test's own (a Mosquitto), web server on a
free port."""

from __future__ import annotations

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


def hub_on_broker(url: str, readers: list[str]) -> HubConfig:
    """Table ``t1`` with ``readers``, on the broker at ``url``; the overlay shows hole
    cards live (no delay), so a test sees each read as soon as the hub has it."""
    return HubConfig(
        table="t1",
        readers=readers,
        mqtt=HubMqttSettings(url=url),
        web=WebSettings(port=0, overlay_delay_minutes=0, allow_live_hole_cards=True),
    )
