"""The node's configuration (TOML → :class:`NodeConfig`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from feltwire.config import ConfigModel, ConfigPath, CountersSettings, MqttClientSettings
from feltwire.protocol import KNOWN_READER_IDS


def default_readers(seats: int = 10) -> list[str]:
    """The antennas of a standard table: one per seat, board, burn and muck."""
    return [f"seat{n}" for n in range(1, seats + 1)] + ["board", "burn", "muck"]


class SimulatorSettings(ConfigModel):
    """How the simulated backend's dealer plays."""

    seats: list[int] = Field(
        default_factory=lambda: [1, 2, 3, 4, 5, 6],
        description="occupied seats (1-10) the simulated dealer deals to",
    )
    step_seconds: float = Field(0.4, ge=0, description="pause between the dealer's motions")
    seed: int | None = Field(None, description="shuffle seed; unset = a new shuffle each run")

    @field_validator("seats")
    @classmethod
    def _seats_valid(cls, seats: list[int]) -> list[int]:
        if len(seats) < 2 or len(set(seats)) != len(seats) or not all(1 <= s <= 10 for s in seats):
            raise ValueError("need at least two distinct seats between 1 and 10")
        return sorted(seats)


class LightPins(ConfigModel):
    """The pins of one seat light: an RGB LED (three PWM pins) or a single PWM LED."""

    rgb: tuple[int, int, int] | None = Field(None, description="BCM pins of red, green, blue")
    pwm: int | None = Field(None, description="BCM pin of a single LED")

    @model_validator(mode="after")
    def _one_kind(self) -> LightPins:
        if (self.rgb is None) == (self.pwm is None):
            raise ValueError("give either rgb = [r, g, b] or pwm = pin")
        return self


class RC522Settings(ConfigModel):
    """Where one antenna's RC522 is wired (see hardware/ for the pin map)."""

    reader: str = Field(description="reader id of this antenna (seat1, board, burn …)")
    bus: int = Field(0, ge=0, le=6, description="SPI bus: /dev/spidev<bus>.<device>")
    device: int = Field(0, ge=0, le=2, description="hardware chip select (CE0/CE1/CE2)")
    cs_pin: int | str | None = Field(
        None, description="a GPIO chip select instead (BCM number); the CE line stays unused"
    )
    reset_pin: int | str | None = Field(None, description="NRSTPD line (may be shared)")
    speed_hz: int = Field(1_000_000, ge=100_000, le=10_000_000, description="SPI clock")


class Mfrc522Settings(ConfigModel):
    """One antenna read through the PyPI ``mfrc522`` package (single-card builds)."""

    reader: str = Field(description="reader id of this antenna")
    bus: int = Field(0, ge=0, le=6, description="SPI bus")
    device: int = Field(0, ge=0, le=2, description="hardware chip select")
    pin_rst: int = Field(-1, description="reset pin in the library's numbering (-1: its default)")


class NodeConfig(ConfigModel):
    """Everything ``feltwire node`` needs."""

    node_id: str = Field("node1", pattern=r"^[A-Za-z0-9_-]{1,32}$", description="this node's id")
    table: str = Field("table1", pattern=r"^[A-Za-z0-9_-]{1,32}$", description="table id")
    mqtt: MqttClientSettings = Field(
        default_factory=MqttClientSettings, description="how to reach the broker"
    )
    counters: CountersSettings = Field(
        default_factory=CountersSettings,
        description="the counters: a Prometheus /metrics endpoint (off unless a port is "
        "set) and a log line every few minutes",
    )
    backend: Literal["simulated", "rc522", "mfrc522", "none"] = Field(
        "simulated",
        description="reader backend: 'simulated' deals hands on virtual antennas, "
        "'rc522' reads the RC522 readers listed under [[rc522]], "
        "'mfrc522' the single-card readers under [[mfrc522]] (PyPI mfrc522 package), "
        "'none' only drives seat lights (a light node)",
    )
    rc522: list[RC522Settings] = Field(
        default_factory=list, description="the RC522 readers (backend = 'rc522')"
    )
    mfrc522: list[Mfrc522Settings] = Field(
        default_factory=list, description="readers for backend 'mfrc522' (one card each)"
    )
    misses_before_gone: int = Field(
        2, ge=1, le=20, description="sweeps a tag may miss before it counts as lifted"
    )
    readers: list[str] = Field(
        default_factory=default_readers, description="reader ids of this node's antennas"
    )
    poll_interval_ms: int = Field(10, ge=1, le=10_000, description="pause between sweeps")
    inventory_refresh_s: float = Field(
        5.0,
        ge=0,
        le=3600,
        description=(
            "send each antenna's inventory again after this many seconds unchanged, so the "
            "hub knows the reader still sweeps (it says reader_silent when one stops); "
            "0 = only changes"
        ),
    )
    state_dir: ConfigPath | None = Field(
        None, description="where the node keeps its sequence number across restarts"
    )
    lights: dict[int, LightPins] = Field(
        default_factory=dict, description="seat number -> the pins of that seat's light"
    )
    buttons: dict[str, int | str] = Field(
        default_factory=dict,
        description="dealer buttons: name -> BCM pin (button to GND; e.g. undo = 21)",
    )
    simulator: SimulatorSettings = Field(
        default_factory=SimulatorSettings, description="the simulated backend's dealer"
    )

    @field_validator("readers")
    @classmethod
    def _readers_known(cls, readers: list[str]) -> list[str]:
        unknown = [r for r in readers if r not in KNOWN_READER_IDS]
        if unknown:
            raise ValueError(f"unknown reader ids {unknown}; see docs/protocol.md")
        if len(set(readers)) != len(readers):
            raise ValueError("reader ids repeat")
        return readers

    @model_validator(mode="after")
    def _backend_readers(self) -> NodeConfig:
        if self.backend == "rc522":
            if not self.rc522:
                raise ValueError("backend 'rc522' needs at least one [[rc522]] reader")
            unknown = [w.reader for w in self.rc522 if w.reader not in KNOWN_READER_IDS]
            if unknown:
                raise ValueError(f"unknown reader ids {unknown} under [[rc522]]")
        if self.backend == "mfrc522" and not self.mfrc522:
            raise ValueError("backend 'mfrc522' needs at least one [[mfrc522]] reader")
        if self.backend == "none" and not self.lights:
            raise ValueError("backend 'none' is a light node: give it [lights.N] entries")
        return self

    @field_validator("buttons")
    @classmethod
    def _button_names(cls, buttons: dict[str, int | str]) -> dict[str, int | str]:
        bad = [n for n in buttons if not n.replace("_", "").replace("-", "").isalnum()]
        if bad or any(len(n) > 32 for n in buttons):
            raise ValueError(f"button names must be 1-32 of A-Z a-z 0-9 _ -: {bad}")
        if len(set(buttons.values())) != len(buttons):
            raise ValueError("two buttons on one pin")
        return buttons

    @field_validator("lights")
    @classmethod
    def _light_seats(cls, lights: dict[int, LightPins]) -> dict[int, LightPins]:
        bad = [s for s in lights if not 1 <= s <= 10]
        if bad:
            raise ValueError(f"light seats {bad} are not seats 1-10")
        return lights
