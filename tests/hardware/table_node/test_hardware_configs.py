"""The node configs shipped in hardware/ validate and match the documented wiring."""

from __future__ import annotations

from pathlib import Path

from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from feltwire.config import load_config
from table_node.config import NodeConfig
from table_node.emulation import EmulatedSpiBus, MFRC522Emulator, Tag, VirtualClock
from table_node.rc522_reader import RC522Wiring, build_rc522_readers

HARDWARE = Path(__file__).resolve().parents[3] / "hardware"


def test_thirteen_reader_wiring_reads_every_antenna() -> None:
    cfg = load_config(NodeConfig, HARDWARE / "node-13-readers.toml")
    ids = [w.reader for w in cfg.rc522]
    assert ids == [f"seat{n}" for n in range(1, 11)] + ["board", "burn", "muck"]
    hw_cs = [(w.bus, w.device) for w in cfg.rc522 if w.cs_pin is None]
    assert len(hw_cs) == len(set(hw_cs)) == 4  # SPI0 CE0 + SPI1 CE0..2
    gpio_cs = [w.cs_pin for w in cfg.rc522 if w.cs_pin is not None]
    assert len(gpio_cs) == len(set(gpio_cs)) == 9
    # with emulated chips behind each chip select, every antenna reads its own tag
    factory = MockFactory()
    Device.pin_factory = factory
    clock = VirtualClock()
    try:
        buses: dict[tuple[int, int], object] = {}
        chips: dict[str, MFRC522Emulator] = {}
        shared = EmulatedSpiBus(clock)
        for w in cfg.rc522:
            chip = MFRC522Emulator(clock=clock, name=w.reader)
            chips[w.reader] = chip
            if w.cs_pin is None:
                buses[(w.bus, w.device)] = chip
            else:
                pin = factory.pin(w.cs_pin)
                shared.attach(chip, lambda p=pin: not p.state)
                buses[(w.bus, w.device)] = shared
        for i, reader in enumerate(ids):
            chips[reader].place(Tag(bytes([0x04, 0x10, i, 0xA0, 0xB0, 0xC0, 0xD0])))
        readers = build_rc522_readers(
            [RC522Wiring(w.reader, w.bus, w.device, w.cs_pin, w.reset_pin) for w in cfg.rc522],
            open_spi=lambda b, d, hz, no_cs: buses[(b, d)],
            sleep=clock.sleep,
        )
        got = {r.reader_id: sorted(r.inventory()) for r in readers}
        for r in readers:
            r.close()
    finally:
        factory.reset()
        Device.pin_factory = None
    assert got == {reader: [f"0410{i:02X}A0B0C0D0"] for i, reader in enumerate(ids)}


def test_light_node_config() -> None:
    cfg = load_config(NodeConfig, HARDWARE / "node-lights.toml")
    assert cfg.backend == "none" and sorted(cfg.lights) == list(range(1, 11))
