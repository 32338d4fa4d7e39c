"""A full sweep of a table's 13 RC522 antennas: our driver vs the PyPI libraries.

Every driver runs unmodified against the same emulated chips (table_node.emulation)
and is measured in SPI transfers per sweep and in estimated milliseconds on a
Raspberry Pi 4. The estimate is the emulator's virtual clock: each ``xfer2`` call costs
30 µs of Python/ioctl overhead plus 8 µs per byte at 1 MHz, air time follows ISO 14443-3
at 106 kbit/s, and our driver's sleeps are counted as slept (the libraries busy-poll).

Table: seat1-seat10, board, burn, muck. Load "mid-hand": 6 occupied seats with 2 hole
cards each, the flop (3 cards side by side on the board antenna — not stacked), 1 burn
card, 2 cards in the muck (hobby antennas read at most 2 stacked cards reliably); 4 seats
empty. Cards carry 7-byte NTAG UIDs. The libraries do what their examples do once per
antenna (mfrc522: SimpleMFRC522.read_id_no_block; pi-rc522: RFID.read_id); neither
resolves two tags, so "cards found" shows what each sweep actually reports.

Run: .venv/bin/python bench/rc522_sweep.py   (needs mfrc522==0.0.7 and pi-rc522==2.3.0)
"""

from __future__ import annotations

import importlib
import logging
import platform
import random
import sys
from collections.abc import Callable

from table_node.emulation import MFRC522Emulator, Tag, VirtualClock, fake_pi_modules
from table_node.rc522 import RC522

ANTENNAS = [f"seat{n}" for n in range(1, 11)] + ["board", "burn", "muck"]
LOAD = {"seat1": 2, "seat2": 2, "seat4": 2, "seat6": 2, "seat7": 2, "seat9": 2}
LOAD |= {"board": 3, "burn": 1, "muck": 2}
SWEEPS = 4  # the libraries' reads alternate (a tag left READY skips every other REQA)


def make_table(load: dict[str, int]) -> tuple[VirtualClock, list[MFRC522Emulator], int]:
    clock = VirtualClock()
    rng = random.Random(7)
    chips = []
    cards = 0
    for name in ANTENNAS:
        chip = MFRC522Emulator(clock=clock, name=name)
        for _ in range(load.get(name, 0)):
            chip.place(Tag(b"\x04" + rng.randbytes(6)))
            cards += 1
        chips.append(chip)
    return clock, chips, cards


Sweep = Callable[[], int]  # one sweep of every antenna; returns the cards it reported


def ours(clock: VirtualClock, chips: list[MFRC522Emulator]) -> Sweep:
    drivers = [RC522(chip, sleep=clock.sleep, name=chip.name) for chip in chips]
    return lambda: sum(len(d.inventory()) for d in drivers)


def with_fake_pi(chips: list[MFRC522Emulator]) -> None:
    sys.modules.update(fake_pi_modules({(0, i): c for i, c in enumerate(chips)}))
    for name in [m for m in sys.modules if m.startswith(("mfrc522", "pirc522"))]:
        del sys.modules[name]


def mfrc522_lib(clock: VirtualClock, chips: list[MFRC522Emulator]) -> Sweep:
    with_fake_pi(chips)
    lib = importlib.import_module("mfrc522")
    readers = []
    for device in range(len(chips)):
        simple = lib.SimpleMFRC522.__new__(lib.SimpleMFRC522)
        simple.READER = lib.MFRC522(bus=0, device=device)
        readers.append(simple)
    return lambda: sum(r.read_id_no_block() is not None for r in readers)


def pirc522_lib(clock: VirtualClock, chips: list[MFRC522Emulator]) -> Sweep:
    with_fake_pi(chips)
    lib = importlib.import_module("pirc522")
    readers = [lib.RFID(bus=0, device=d, pin_irq=None) for d in range(len(chips))]
    return lambda: sum(r.read_id() is not None for r in readers)


def measure(
    build: Callable[[VirtualClock, list[MFRC522Emulator]], Sweep], load: dict[str, int]
) -> dict[str, float]:
    clock, chips, cards = make_table(load)
    sweep = build(clock, chips)
    for chip in chips:
        chip.reset_counters()
    start = clock.now_us
    found = sum(sweep() for _ in range(SWEEPS))
    return {
        "transfers": sum(c.transfers for c in chips) / SWEEPS,
        "ms": (clock.now_us - start) / SWEEPS / 1000,
        "air_ms": sum(c.air_us for c in chips) / SWEEPS / 1000,
        "found": found / SWEEPS,
        "cards": cards,
    }


def main() -> None:
    logging.disable(logging.WARNING)  # pi-rc522 logs "Error E2" for every collision
    drivers = {"feltwire RC522": ours, "mfrc522 0.0.7": mfrc522_lib, "pi-rc522 2.3.0": pirc522_lib}
    print(f"python {platform.python_version()} on {platform.machine()}, {SWEEPS} sweeps each")
    for title, load in (("mid-hand load (18 cards)", LOAD), ("empty table", {})):
        print(f"\n{title}: 13 antennas, per sweep")
        print(f"{'driver':16} {'transfers':>10} {'est. ms':>9} {'air ms':>7} {'cards':>7}  ratio")
        base = measure(ours, load)
        for name, build in drivers.items():
            r = base if build is ours else measure(build, load)
            ratio = r["transfers"] / base["transfers"]
            print(
                f"{name:16} {r['transfers']:10.0f} {r['ms']:9.1f} {r['air_ms']:7.1f} "
                f"{r['found']:4.1f}/{r['cards']:<2.0f}  ×{ratio:.1f} transfers, "
                f"×{r['ms'] / base['ms']:.1f} time"
            )


if __name__ == "__main__":
    main()
