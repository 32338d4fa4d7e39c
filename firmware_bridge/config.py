"""The bridge's configuration (TOML → :class:`BridgeConfig`).

A ``bridge.toml`` for a board on USB whose antennas 0-2 are seats 1-3::

    bridge_id = "bridge-north"
    table = "table1"
    port = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614c311b7e6f35-if00"
    inventory_refresh_s = 5   # re-send a quiet antenna's inventory (0 = changes only)
    [mqtt]
    url = "mqtt://10.0.0.2:1883"
    [antennas]
    0 = "seat1"
    1 = "seat2"
    2 = "seat3"

>>> from feltwire.config import parse_config
>>> cfg = parse_config(BridgeConfig, {"antennas": {"0": "seat1"}}, source="inline")
>>> cfg.antennas
{0: 'seat1'}
"""

from __future__ import annotations

from pydantic import Field, field_validator, model_validator

from feltwire.config import ConfigModel, ConfigPath, CountersSettings, MqttClientSettings
from feltwire.protocol import KNOWN_READER_IDS


class BridgeConfig(ConfigModel):
    """Everything ``feltwire bridge`` needs."""

    bridge_id: str = Field(
        "bridge1",
        pattern=r"^[A-Za-z0-9_-]{1,32}$",
        description="this bridge's node id in MQTT (the `node` of its inventories)",
    )
    table: str = Field("table1", pattern=r"^[A-Za-z0-9_-]{1,32}$", description="table id")
    port: str = Field(
        "/dev/ttyACM0",
        min_length=1,
        description="serial device path (prefer /dev/serial/by-id/…, stable across replugs) "
        "or a pyserial URL such as rfc2217://host:port or loop://",
    )
    baud: int = Field(
        115200, ge=1200, le=4_000_000, description="baud rate (USB CDC boards ignore it)"
    )
    mqtt: MqttClientSettings = Field(
        default_factory=MqttClientSettings, description="how to reach the broker"
    )
    counters: CountersSettings = Field(
        default_factory=CountersSettings,
        description="the counters: a Prometheus /metrics endpoint (off unless a port is "
        "set) and a log line every few minutes",
    )
    antennas: dict[int, str] = Field(
        default_factory=dict,
        description="antenna index (0-254) → reader id; wins over the names the board "
        "announces in its HELLO",
    )
    use_board_names: bool = Field(
        True,
        description="name antennas missing from `antennas` by the reader id the board "
        "announces; false = publish only antennas listed here",
    )
    heartbeat_timeout_s: float = Field(
        3.0,
        gt=0,
        le=600,
        description="mark the board offline when no valid frame arrived for this long",
    )
    reconnect_min_s: float = Field(
        0.2, gt=0, le=60, description="first wait before reopening a lost port"
    )
    reconnect_max_s: float = Field(
        5.0, gt=0, le=600, description="longest wait between attempts to reopen the port"
    )
    hello_retry_s: float = Field(
        1.0, gt=0, le=60, description="how often to ask a silent or unknown board for HELLO"
    )
    inventory_refresh_s: float = Field(
        5.0,
        ge=0,
        le=3600,
        description=(
            "send each antenna's inventory again after this many seconds unchanged while "
            "the board sweeps, so the hub knows the reader still reads (it says "
            "reader_silent when one stops: the board reports it faulty or stops sweeping); "
            "0 = only changes"
        ),
    )
    state_dir: ConfigPath | None = Field(
        None, description="where the bridge keeps its MQTT sequence number across restarts"
    )

    @field_validator("antennas")
    @classmethod
    def _antennas_valid(cls, antennas: dict[int, str]) -> dict[int, str]:
        bad_index = [i for i in antennas if not 0 <= i <= 254]
        if bad_index:
            raise ValueError(f"antenna indexes {bad_index} out of 0-254")
        unknown = [r for r in antennas.values() if r not in KNOWN_READER_IDS]
        if unknown:
            raise ValueError(f"unknown reader ids {unknown}; see docs/protocol.md")
        if len(set(antennas.values())) != len(antennas):
            raise ValueError("two antennas have the same reader id")
        return antennas

    @model_validator(mode="after")
    def _backoff_ordered(self) -> BridgeConfig:
        if self.reconnect_max_s < self.reconnect_min_s:
            raise ValueError("reconnect_max_s must not be below reconnect_min_s")
        return self


__all__ = ["BridgeConfig"]
