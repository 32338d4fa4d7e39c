"""The unmodified PyPI RC522 libraries, run against the same emulated chip as our driver.

``mfrc522`` 0.0.7 and ``pi-rc522`` 2.3.0 import ``spidev`` and ``RPi.GPIO`` when imported;
this test puts behavioural fakes of both into ``sys.modules`` (their SPI devices are
emulated MFRC522 chips) and imports the libraries afresh for each test. The assertions
record how each library reads tags — and the faults ARCHITECTURE.md lists: the ``~``
wait loop (≈ 2,000 transfers for an empty antenna), every-other-REQA reads of a tag left
on the antenna, no anticollision for two tags, and mfrc522's 7-byte UID truncation.

Skipped when the libraries are not installed
(``pip install --no-deps mfrc522==0.0.7 pi-rc522==2.3.0``).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Iterator
from types import ModuleType

import pytest

from table_node.emulation import FakeGpio, MFRC522Emulator, Tag, VirtualClock, fake_pi_modules
from table_node.rc522 import RC522

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mfrc522") is None or importlib.util.find_spec("pirc522") is None,
    reason="PyPI libraries not installed: pip install --no-deps mfrc522==0.0.7 pi-rc522==2.3.0",
)

CARD = Tag.from_hex("DEADBEEF")
STICKER = Tag.from_hex("04A2249A6B1D80")
Importer = Callable[..., ModuleType]
Pi = tuple[dict[tuple[int, int], MFRC522Emulator], FakeGpio, Importer]


@pytest.fixture
def pi(monkeypatch: pytest.MonkeyPatch) -> Iterator[Pi]:
    """Emulated chips on /dev/spidev0.0 and 0.1, a fake RPi.GPIO, and a fresh importer."""
    clock = VirtualClock()
    chips = {(0, 0): MFRC522Emulator(clock=clock), (0, 1): MFRC522Emulator(clock=clock)}
    gpio = FakeGpio()
    for name, module in fake_pi_modules(chips, gpio).items():
        monkeypatch.setitem(sys.modules, name, module)

    def fresh(name: str) -> ModuleType:
        for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            monkeypatch.delitem(sys.modules, loaded)
        return importlib.import_module(name)

    yield chips, gpio, fresh
    for loaded in [m for m in sys.modules if m.startswith(("mfrc522", "pirc522"))]:
        del sys.modules[loaded]


def counted(chip: MFRC522Emulator, call: Callable[[], object]) -> tuple[object, int]:
    chip.reset_counters()
    result = call()
    return result, chip.transfers


# --------------------------------------------------------------------------- mfrc522 0.0.7


def test_mfrc522_reads_a_card_as_uid_and_bcc_every_other_request(pi: Pi) -> None:
    chips, gpio, fresh = pi
    mfrc522 = fresh("mfrc522")
    reader = mfrc522.SimpleMFRC522()  # bus 0, device 0, reset on BOARD pin 22
    assert gpio.mode == gpio.BOARD and gpio.levels[22] == 1
    chip = chips[(0, 0)]
    chip.place(CARD)
    # uid_to_num folds in all five bytes of the anticollision answer: UID and BCC.
    expected = int.from_bytes(CARD.uid + bytes([0xDE ^ 0xAD ^ 0xBE ^ 0xEF]), "big")
    reads = [counted(chip, reader.read_id_no_block) for _ in range(4)]
    # The tag is left READY (never halted): the next REQA drops it to IDLE, unanswered.
    assert [r for r, _ in reads] == [expected, None, expected, None]
    counts = [n for _, n in reads]
    assert counts[0] < 100 and counts[1] > 1900


def test_mfrc522_request_and_anticoll(pi: Pi) -> None:
    chips, _, fresh = pi
    lib = fresh("mfrc522").MFRC522()
    chips[(0, 0)].place(CARD)
    status, bits = lib.MFRC522_Request(lib.PICC_REQIDL)
    assert (status, bits) == (lib.MI_OK, 16)
    status, uid = lib.MFRC522_Anticoll()
    assert status == lib.MI_OK and bytes(uid) == CARD.uid + bytes([0x22])


def test_mfrc522_empty_poll_spends_about_2000_transfers(pi: Pi) -> None:
    chips, _, fresh = pi
    reader = fresh("mfrc522").SimpleMFRC522()
    chip = chips[(0, 0)]
    result, transfers = counted(chip, reader.read_id_no_block)
    assert result is None
    # ``if ~((i != 0) and ~(n & 0x01) and ~(n & waitIRq))`` ignores TimerIRq: the loop
    # only ends on RxIRq/IdleIRq or after 2000 reads of ComIrqReg.
    assert 2000 <= transfers <= 2030
    ours = RC522(MFRC522Emulator(clock=chip.clock), sleep=chip.clock.sleep)
    ours_chip = ours._spi
    assert isinstance(ours_chip, MFRC522Emulator)
    _, our_transfers = counted(ours_chip, ours.inventory)
    assert transfers > 30 * our_transfers


def test_mfrc522_truncates_seven_byte_uids(pi: Pi) -> None:
    chips, _, fresh = pi
    reader = fresh("mfrc522").SimpleMFRC522()
    chips[(0, 0)].place(STICKER)
    # It stops at cascade level 1: cascade tag 88, the first three UID bytes, the BCC.
    # Of the 7-byte UID 04A2249A6B1D80 only A2 24 vary between NXP tags.
    level1 = bytes([0x88, 0x04, 0xA2, 0x24, 0x88 ^ 0x04 ^ 0xA2 ^ 0x24])
    assert reader.read_id_no_block() == int.from_bytes(level1, "big") == 0x8804A2240A


def test_mfrc522_cannot_read_two_tags_on_one_antenna(pi: Pi) -> None:
    chips, _, fresh = pi
    reader = fresh("mfrc522").SimpleMFRC522()
    chips[(0, 0)].place(CARD)
    chips[(0, 0)].place(Tag.from_hex("DEADBEEE"))
    assert [reader.read_id_no_block() for _ in range(4)] == [None] * 4  # CollErr → MI_ERR


def test_mfrc522_reads_classic_blocks_after_authenticating(pi: Pi) -> None:
    chips, _, fresh = pi
    reader = fresh("mfrc522").SimpleMFRC522()
    chips[(0, 0)].place(Tag.classic_1k(CARD.uid, {8: b"Ace of spades", 10: b"seat 3"}))
    uid, text = reader.read_no_block()  # REQA, anticoll, select, MFAuthent key A, 3 READs
    assert uid == int.from_bytes(CARD.uid + b"\x22", "big")
    assert text == "Ace of spades".ljust(16, "\0") + "\0" * 16 + "seat 3".ljust(16, "\0")


# --------------------------------------------------------------------------- pi-rc522 2.3.0


def test_pirc522_request_and_anticoll(pi: Pi) -> None:
    chips, gpio, fresh = pi
    rfid = fresh("pirc522").RFID()  # IRQ on BOARD pin 18 with edge detection, reset on 22
    assert 18 in gpio.edge_detect
    chip = chips[(0, 0)]
    chip.place(CARD)
    assert rfid.request() == (False, 16)  # (error, bits of ATQA)
    assert rfid.anticoll() == (False, [*CARD.uid, 0x22])
    assert rfid.request() == (True, None)  # the un-halted tag skips this REQA
    assert rfid.request() == (False, 16)


def test_pirc522_reads_seven_byte_uids(pi: Pi) -> None:
    chips, _, fresh = pi
    rfid = fresh("pirc522").RFID(pin_irq=None)
    chip = chips[(0, 0)]
    chip.place(STICKER)
    uid, transfers = counted(chip, rfid.read_id)
    assert uid == list(STICKER.uid)  # request, anticoll, select CL1, anticoll CL2
    assert transfers < 250
    assert rfid.read_id() is None  # left READY at level 2: the next REQA is not answered


def test_pirc522_empty_poll_and_two_tags(pi: Pi) -> None:
    chips, _, fresh = pi
    rfid = fresh("pirc522").RFID(pin_irq=None)
    chip = chips[(0, 0)]
    result, transfers = counted(chip, rfid.request)
    assert result == (True, None) and 2000 <= transfers <= 2030
    chip.place(CARD)
    chip.place(Tag.from_hex("DEADBEEE"))
    assert rfid.request() == (False, 16)  # both answer the same ATQA
    error, _ = rfid.anticoll()
    assert error  # CollErr: no collision resolution


def test_pirc522_second_reader_needs_its_own_irq_pin(pi: Pi) -> None:
    chips, _, fresh = pi
    pirc522 = fresh("pirc522")
    pirc522.RFID(bus=0, device=0)
    with pytest.raises(RuntimeError, match="Conflicting edge detection"):
        pirc522.RFID(bus=0, device=1)  # RPi.GPIO refuses a second edge detect on pin 18
    second = pirc522.RFID(bus=0, device=1, pin_irq=None)
    chips[(0, 1)].place(CARD)
    assert second.read_id() == list(CARD.uid)
    with pytest.raises(FileNotFoundError):
        pirc522.RFID(bus=0, device=2, pin_irq=None)  # nothing wired to CE2
