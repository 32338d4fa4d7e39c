"""Our RC522 driver and reader, run against the emulated chip."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table_node.emulation import EmulatedSpiBus, MFRC522Emulator, Tag, TagState, VirtualClock
from table_node.errors import ReaderChipError, ReaderWiringError
from table_node.node import Node
from table_node.rc522 import RC522, crc_a
from table_node.rc522_reader import RC522Reader, RC522Wiring, build_rc522_readers


def driver_for(chip: MFRC522Emulator, **kwargs: object) -> RC522:
    return RC522(chip, sleep=chip.clock.sleep, **kwargs)  # type: ignore[arg-type]


def hexes(uids: list[bytes]) -> list[str]:
    return sorted(u.hex().upper() for u in uids)


def sweep(chip: MFRC522Emulator, driver: RC522) -> tuple[list[str], int]:
    chip.reset_counters()
    return hexes(driver.inventory()), chip.transfers


def nss_low(pin: Any) -> Callable[[], bool]:
    """Whether a chip's NSS (chip select, active low) line is driven low now."""
    return lambda: not pin.state


@pytest.fixture
def mock_pins() -> Iterator[MockFactory]:
    previous = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = previous


def test_crc_a_vector() -> None:
    assert crc_a(b"\x50\x00") == bytes.fromhex("57CD")


@pytest.mark.parametrize(
    "uid", ["DEADBEEF", "04A2249A6B1D80", "04112233445566778899", "08123456"], ids=len
)
def test_reads_4_7_and_10_byte_uids(uid: str) -> None:
    chip = MFRC522Emulator()
    chip.place(Tag.from_hex(uid))
    driver = driver_for(chip)
    assert sweep(chip, driver)[0] == [uid]
    assert sweep(chip, driver)[0] == [uid]  # halted, then woken again by WUPA
    assert driver.errors == 0


def test_transfer_budget_empty_poll_and_one_tag() -> None:
    chip = MFRC522Emulator()
    driver = driver_for(chip)
    assert chip.transfers == driver.transfers == 10  # initialisation
    uids, transfers = sweep(chip, driver)
    assert uids == [] and transfers <= 60
    assert transfers == 8  # 6 to send WUPA, 1 status read, 1 to see the timer ran out
    chip.place(Tag.from_hex("DEADBEEF"))
    uids, transfers = sweep(chip, driver)
    assert uids == ["DEADBEEF"] and transfers <= 80
    chip.clear()
    chip.place(Tag.from_hex("04A2249A6B1D80"))
    uids, transfers = sweep(chip, driver)
    assert uids == ["04A2249A6B1D80"] and transfers <= 80
    assert transfers == 47  # WUPA, anticollision + SELECT at two levels, HLTA
    assert driver.transfers == 10 + 8 + 31 + 47  # the driver counts what the chip sees
    # A sweep of an empty antenna costs about 1.5 ms of (emulated) time, not 15+ ms.
    before = chip.clock.now_us
    chip.clear()
    driver.inventory()
    assert chip.clock.now_us - before < 2000


def test_every_tag_is_halted_after_a_sweep() -> None:
    tags = [Tag.from_hex("DEADBEEF"), Tag.from_hex("04A2249A6B1D80")]
    chip = MFRC522Emulator()
    for tag in tags:
        chip.place(tag)
    driver = driver_for(chip)
    driver.inventory()
    assert [chip.tag_state(t) for t in tags] == [TagState.HALT, TagState.HALT]


@pytest.mark.parametrize(
    "uids",
    [
        ["DEADBEEF", "DEADBEEE"],  # collision at the very first bit
        ["DEADBEEF", "5EADBEEF"],  # ... at bit 7
        ["DEADBEEF", "DEADBE6F"],  # ... at bit 31, the last UID bit
        ["DEADBEEF", "DEAD3EEF"],  # ... in the middle
        ["01000000", "01100000", "01200000"],  # three tags, nested collisions
        ["04A2249A6B1D80", "04A2249A6B1D81"],  # 7-byte, same CL1: collision at level 2
        ["04A2249A6B1D80", "04A2249A6B1D81", "04A2249A6B1D82"],
        ["04A2249A6B1D80", "04A2259A6B1D80"],  # 7-byte, collision at level 1
        ["DEADBEEF", "04A2249A6B1D80"],  # 4- and 7-byte together
        ["DEADBEEF", "04A2249A6B1D80", "DEADBEEE"],
        ["0A000001", "12345678", "04112233445566"],
    ],
)
def test_reads_several_tags_on_one_antenna(uids: list[str]) -> None:
    chip = MFRC522Emulator()
    for uid in uids:
        chip.place(Tag.from_hex(uid))
    driver = driver_for(chip)
    for _ in range(3):
        assert sweep(chip, driver)[0] == sorted(uids)
    assert driver.errors == 0


def test_tag_left_ready_by_another_program_is_back_one_sweep_later() -> None:
    chip = MFRC522Emulator()
    card = Tag.from_hex("DEADBEEF")
    chip.place(card)
    driver = driver_for(chip)
    # Someone sent REQA (READY); our WUPA is "unexpected" for it: silence, back to IDLE.
    driver._transceive(b"\x26", tx_last_bits=7, reply_bits=16)
    assert chip.tag_state(card) is TagState.READY
    assert sweep(chip, driver)[0] == []
    assert sweep(chip, driver)[0] == ["DEADBEEF"]


def test_guard_time_lets_slow_tags_power_up() -> None:
    chip = MFRC522Emulator(power_up_us=5000)
    chip.place(Tag.from_hex("DEADBEEF"))
    driver = driver_for(chip)  # waits 5 ms after switching the antenna on
    assert sweep(chip, driver)[0] == ["DEADBEEF"]
    hasty = MFRC522Emulator(power_up_us=5000)
    hasty.place(Tag.from_hex("DEADBEEF"))
    assert hexes(driver_for(hasty, power_up_s=0.0).inventory()) == []


class DeadBus:
    """MISO stuck low or high: what a missing or unpowered chip looks like."""

    def __init__(self, level: int) -> None:
        self.level = level

    def xfer2(self, data: list[int]) -> list[int]:
        return [self.level] * len(data)


@pytest.mark.parametrize("level", [0x00, 0xFF])
def test_missing_chip_is_a_reader_chip_error(level: int) -> None:
    with pytest.raises(ReaderChipError, match="seat4: no RC522 answers") as raised:
        RC522(DeadBus(level), name="seat4", sleep=lambda s: None)
    assert isinstance(raised.value, OSError)  # the node loop skips such a reader


def test_reader_debounces_departures() -> None:
    chip = MFRC522Emulator()
    card = Tag.from_hex("04A2249A6B1D80")
    seat = RC522Reader("seat1", driver_for(chip), misses_before_gone=2)
    assert seat.inventory() == frozenset()
    chip.place(card)
    assert seat.inventory() == {"04A2249A6B1D80"}
    chip.remove(card)
    assert seat.inventory() == {"04A2249A6B1D80"}  # one miss: still there
    chip.place(card)
    assert seat.inventory() == {"04A2249A6B1D80"}  # back: the miss count starts again
    chip.remove(card)
    assert seat.inventory() == {"04A2249A6B1D80"}
    assert seat.inventory() == frozenset()  # two misses in a row: gone
    eager = RC522Reader("seat2", driver_for(chip), misses_before_gone=1)
    chip.place(card)
    assert eager.inventory() == {"04A2249A6B1D80"}
    chip.remove(card)
    assert eager.inventory() == frozenset()
    with pytest.raises(ValueError):
        RC522Reader("seat3", driver_for(chip), misses_before_gone=0)


def test_reader_works_in_the_node_loop() -> None:
    chip = MFRC522Emulator()
    chip.place(Tag.from_hex("DEADBEEF"))
    published: list[tuple[str, frozenset[str]]] = []

    class Publisher:
        def update(self, reader_id: str, uids: frozenset[str]) -> bool:
            published.append((reader_id, uids))
            return True

    node = Node([RC522Reader("burn", driver_for(chip))], Publisher())  # type: ignore[arg-type]
    node.poll_once()
    assert published == [("burn", frozenset({"DEADBEEF"}))]
    node.close()
    assert not chip.field_on


def test_readers_on_one_bus_with_gpio_chip_selects(mock_pins: MockFactory) -> None:
    clock = VirtualClock()
    bus = EmulatedSpiBus(clock)
    pins = {"seat1": 5, "seat2": 6, "muck": 13}
    chips = {}
    for name, pin in pins.items():
        chips[name] = MFRC522Emulator(clock=clock, name=name)
        bus.attach(chips[name], nss_low(mock_pins.pin(pin)))
    chips["seat1"].place(Tag.from_hex("DEADBEEF"))
    chips["seat2"].place(Tag.from_hex("04A2249A6B1D80"))
    chips["seat2"].place(Tag.from_hex("04A2249A6B1D81"))
    opened: list[tuple[int, int, int, bool]] = []

    def open_spi(bus_number: int, device: int, speed_hz: int, no_cs: bool) -> EmulatedSpiBus:
        opened.append((bus_number, device, speed_hz, no_cs))
        return bus

    wirings = [RC522Wiring(name, bus=1, device=2, cs_pin=pin) for name, pin in pins.items()]
    readers = build_rc522_readers(wirings, open_spi=open_spi, sleep=clock.sleep)
    assert opened == [(1, 2, 1_000_000, True)]  # one shared bus, opened without its CE
    for pin in pins.values():
        assert mock_pins.pin(pin).state == 1  # released between transfers
    results = {}
    for reader in readers:
        bus.log.clear()
        for pin in pins.values():
            mock_pins.pin(pin).clear_states()
        results[reader.reader_id] = sorted(reader.inventory())
        # Exactly this reader's chip was selected during each of its transfers ...
        assert bus.log and set(bus.log) == {(reader.reader_id,)}
        # ... its CS pin went low and high once per transfer, the others never moved.
        for name, pin in pins.items():
            states = [s.state for s in mock_pins.pin(pin).states[1:]]
            expected = [False, True] * len(bus.log) if name == reader.reader_id else []
            assert states == expected
    assert results == {
        "seat1": ["DEADBEEF"],
        "seat2": ["04A2249A6B1D80", "04A2249A6B1D81"],
        "muck": [],
    }
    for reader in readers:
        reader.close()
    assert all(not c.field_on for c in chips.values())


def test_hardware_and_gpio_chip_selects_mixed(mock_pins: MockFactory) -> None:
    clock = VirtualClock()
    ce0, ce1 = MFRC522Emulator(clock=clock), MFRC522Emulator(clock=clock)
    shared = EmulatedSpiBus(clock)
    gpio_chip = MFRC522Emulator(clock=clock, name="burn")
    shared.attach(gpio_chip, nss_low(mock_pins.pin(26)))
    devices: dict[tuple[int, int], object] = {(0, 0): ce0, (0, 1): ce1, (1, 0): shared}
    gpio_chip.place(Tag.from_hex("DEADBEEF"))
    ce1.place(Tag.from_hex("CAFEBABE"))
    readers = build_rc522_readers(
        [
            RC522Wiring("seat1", bus=0, device=0),
            RC522Wiring("seat2", bus=0, device=1, reset_pin=25),
            RC522Wiring("burn", bus=1, device=0, cs_pin=26, reset_pin=25),
        ],
        open_spi=lambda b, d, hz, no_cs: devices[(b, d)],
        sleep=clock.sleep,
    )
    assert [sorted(r.inventory()) for r in readers] == [[], ["CAFEBABE"], ["DEADBEEF"]]
    assert mock_pins.pin(25).state == 1  # the shared reset line holds both chips running
    for reader in readers:
        reader.close()


@pytest.mark.parametrize(
    "wirings",
    [
        [RC522Wiring("seat1"), RC522Wiring("seat1", device=1)],
        [RC522Wiring("seat1"), RC522Wiring("seat2")],
        [RC522Wiring("seat1"), RC522Wiring("seat2", device=0, cs_pin=5)],
        [RC522Wiring("seat1", device=1, cs_pin=5), RC522Wiring("seat2", device=1, cs_pin=5)],
    ],
)
def test_impossible_wirings_are_refused(wirings: list[RC522Wiring]) -> None:
    with pytest.raises(ReaderWiringError):
        build_rc522_readers(wirings, open_spi=lambda *a: pytest.fail("opened a bus"))


def test_a_dead_chip_names_its_reader_and_closes_what_was_opened(mock_pins: MockFactory) -> None:
    clock = VirtualClock()
    good = MFRC522Emulator(clock=clock)
    devices: dict[tuple[int, int], object] = {(0, 0): good, (0, 1): DeadBus(0)}
    with pytest.raises(ReaderChipError, match="seat2"):
        build_rc522_readers(
            [RC522Wiring("seat1", cs_pin=None), RC522Wiring("seat2", device=1, cs_pin=None)],
            open_spi=lambda b, d, hz, no_cs: devices[(b, d)],
            sleep=clock.sleep,
        )
    assert not good.field_on  # seat1 was built, then closed again


def uids_strategy() -> st.SearchStrategy[list[bytes]]:
    four = st.binary(min_size=4, max_size=4).filter(lambda u: u[0] != 0x88)
    seven = st.binary(min_size=6, max_size=6).map(lambda u: b"\x04" + u)  # NXP: 04 first
    return st.lists(st.one_of(four, seven), min_size=1, max_size=3, unique=True)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(uids=uids_strategy())
def test_inventory_returns_exactly_the_tags_on_the_antenna(uids: list[bytes]) -> None:
    chip = MFRC522Emulator()
    for uid in uids:
        chip.place(Tag(uid))
    driver = driver_for(chip)
    assert hexes(driver.inventory()) == hexes(uids)
    assert hexes(driver.inventory()) == hexes(uids)
    assert driver.errors == 0


@settings(max_examples=60, deadline=None)
@given(uid=st.binary(min_size=7, max_size=7), bit=st.integers(0, 55))
def test_two_seven_byte_uids_one_bit_apart(uid: bytes, bit: int) -> None:
    """Collisions at every bit position of both cascade levels."""
    other = bytearray(uid)
    other[bit // 8] ^= 1 << (bit % 8)
    if _CT in (uid[0], other[0]):
        return
    chip = MFRC522Emulator()
    chip.place(Tag(uid))
    chip.place(Tag(bytes(other)))
    assert hexes(driver_for(chip).inventory()) == hexes([uid, bytes(other)])


_CT = 0x88
