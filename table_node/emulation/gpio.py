"""A behavioural ``RPi.GPIO`` stand-in, for the PyPI RC522 libraries that import it."""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping


class FakeGpio:
    """A behavioural stand-in for ``RPi.GPIO``: numbering mode, pin directions, levels.

    It raises where the real module raises (no numbering mode set, a different mode set
    twice, output on an input, edge detection added twice) and records every level set.
    """

    BOARD = 10
    BCM = 11
    OUT = 0
    IN = 1
    LOW = 0
    HIGH = 1
    PUD_OFF = 20
    PUD_DOWN = 21
    PUD_UP = 22
    RISING = 31
    FALLING = 32
    BOTH = 33
    VERSION = "0.7.1-fake"
    RPI_INFO: Mapping[str, object] = {"P1_REVISION": 3, "TYPE": "Pi 4 Model B"}

    def __init__(self) -> None:
        self.mode: int | None = None
        self.directions: dict[int, int] = {}
        self.levels: dict[int, int] = {}
        self.history: list[tuple[int, int]] = []
        self.edge_detect: dict[int, Callable[[int], None] | None] = {}
        self.warnings = True

    def getmode(self) -> int | None:
        """The numbering mode, or None."""
        return self.mode

    def setmode(self, mode: int) -> None:
        """Choose BOARD or BCM numbering."""
        if mode not in (self.BOARD, self.BCM):
            raise ValueError("An invalid mode was passed to setmode()")
        if self.mode is not None and self.mode != mode:
            raise ValueError("A different mode has already been set!")
        self.mode = mode

    def setwarnings(self, flag: bool) -> None:
        """Turn warnings on or off."""
        self.warnings = bool(flag)

    def _check(self, channel: int) -> None:
        if self.mode is None:
            raise RuntimeError(
                "Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) or "
                "GPIO.setmode(GPIO.BCM)"
            )
        if not isinstance(channel, int):
            raise ValueError("Channel must be an integer or list/tuple of integers")

    def setup(
        self, channel: int, direction: int, pull_up_down: int = PUD_OFF, initial: int = -1
    ) -> None:
        """Make a channel an input or an output."""
        self._check(channel)
        self.directions[channel] = direction
        if direction == self.IN:
            self.levels[channel] = 1 if pull_up_down == self.PUD_UP else 0
        elif initial != -1:
            self.output(channel, initial)

    def output(self, channel: int, value: int) -> None:
        """Drive an output channel."""
        self._check(channel)
        if self.directions.get(channel) != self.OUT:
            raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
        self.levels[channel] = 1 if value else 0
        self.history.append((channel, self.levels[channel]))

    def input(self, channel: int) -> int:
        """Read a channel's level."""
        self._check(channel)
        if channel not in self.directions:
            raise RuntimeError("You must setup() the GPIO channel first")
        return self.levels.get(channel, 0)

    def add_event_detect(
        self,
        channel: int,
        edge: int,
        callback: Callable[[int], None] | None = None,
        bouncetime: int | None = None,
    ) -> None:
        """Watch an input for edges."""
        self._check(channel)
        if self.directions.get(channel) != self.IN:
            raise RuntimeError("You must setup() the GPIO channel as an input first")
        if channel in self.edge_detect:
            raise RuntimeError("Conflicting edge detection already enabled for this GPIO channel")
        self.edge_detect[channel] = callback

    def remove_event_detect(self, channel: int) -> None:
        """Stop watching a channel."""
        self.edge_detect.pop(channel, None)

    def event_detected(self, channel: int) -> bool:
        """Whether an edge was seen (the fake never sees one)."""
        return False

    def cleanup(self, channel: int | None = None) -> None:
        """Release one channel, or all of them and the numbering mode."""
        if channel is None:
            self.directions.clear()
            self.edge_detect.clear()
            self.mode = None
        else:
            self.directions.pop(channel, None)
            self.edge_detect.pop(channel, None)


def fake_rpi_modules(gpio: FakeGpio) -> dict[str, types.ModuleType]:
    """``RPi`` and ``RPi.GPIO`` modules backed by ``gpio``, to put into ``sys.modules``."""
    gpio_module = types.ModuleType("RPi.GPIO")
    for name in dir(gpio):
        value = getattr(gpio, name)
        if not name.startswith("_") and (callable(value) or name.isupper()):
            setattr(gpio_module, name, value)
    package = types.ModuleType("RPi")
    package.__path__ = []
    package.GPIO = gpio_module  # type: ignore[attr-defined]
    return {"RPi": package, "RPi.GPIO": gpio_module}
