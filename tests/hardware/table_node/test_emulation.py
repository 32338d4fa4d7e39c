"""The emulated MFRC522 behaves like the chip and its tags like ISO 14443-3 tags.

These tests drive the emulator with raw register traffic (no driver), so a driver bug
cannot hide an emulator bug.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from table_node.emulation import (
    BIT_US,
    EmulatedSpiBus,
    MFRC522Emulator,
    Tag,
    TagState,
    VirtualClock,
    crc_a,
)
from table_node.errors import EmulatorError

COMMAND, COM_IRQ, DIV_IRQ, ERROR, STATUS2 = 0x01, 0x04, 0x05, 0x06, 0x08
FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING, COLL = 0x09, 0x0A, 0x0C, 0x0D, 0x0E
MODE, TX_CONTROL, TX_ASK, CRC_H, CRC_L = 0x11, 0x14, 0x15, 0x21, 0x22
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L, VERSION = 0x2A, 0x2B, 0x2C, 0x2D, 0x37


def write(chip: MFRC522Emulator, reg: int, *values: int) -> None:
    chip.xfer2([reg << 1, *values])


def read(chip: MFRC522Emulator, *regs: int) -> list[int]:
    return chip.xfer2([reg << 1 | 0x80 for reg in regs] + [0])[1:]


def ready_chip(*tags: Tag, timer_us: int = 1000) -> MFRC522Emulator:
    """A chip set up the way any driver sets it up: 25 µs timer ticks, 100 % ASK, field on."""
    chip = MFRC522Emulator()
    for tag in tags:
        chip.place(tag)
    write(chip, T_MODE, 0x80)
    write(chip, T_PRESCALER, 0xA9)
    write(chip, T_RELOAD_H, 0)
    write(chip, T_RELOAD_L, timer_us // 25 - 1)
    write(chip, TX_ASK, 0x40)
    write(chip, MODE, 0x3D)
    write(chip, TX_CONTROL, 0x83)
    return chip


@dataclass
class Result:
    irq: int
    error: int
    data: bytes
    last_bits: int
    coll: int


def transceive(
    chip: MFRC522Emulator, frame: bytes, *, bits: int = 0, align: int = 0, wait_us: float = 3000
) -> Result:
    write(chip, COMMAND, 0x00)
    write(chip, COM_IRQ, 0x7F)
    write(chip, FIFO_LEVEL, 0x80)
    write(chip, FIFO_DATA, *frame)
    write(chip, COMMAND, 0x0C)
    write(chip, BIT_FRAMING, 0x80 | align << 4 | bits)
    chip.clock.sleep(wait_us / 1e6)
    irq, error, level, control, coll = read(chip, COM_IRQ, ERROR, FIFO_LEVEL, CONTROL, COLL)
    data = bytes(read(chip, *[FIFO_DATA] * level)) if level else b""
    return Result(irq, error, data, control & 7, coll)


def reqa(chip: MFRC522Emulator) -> Result:
    return transceive(chip, b"\x26", bits=7)


def wupa(chip: MFRC522Emulator) -> Result:
    return transceive(chip, b"\x52", bits=7)


def select_frame(sel: int, part: bytes) -> bytes:
    frame = bytes([sel, 0x70]) + part + bytes([part[0] ^ part[1] ^ part[2] ^ part[3]])
    crc = crc_a(frame)
    return frame + bytes([crc & 0xFF, crc >> 8])


CARD = Tag(bytes.fromhex("DEADBEEF"))
STICKER = Tag.from_hex("04A2249A6B1D80")


def test_crc_a_reference_vector() -> None:
    assert crc_a(b"\x50\x00").to_bytes(2, "little") == bytes.fromhex("57CD")
    assert crc_a(b"\x93\x70\xde\xad\xbe\xef\x22") != crc_a(b"\x93\x70\xde\xad\xbe\xef\x23")


def test_calc_crc_command_uses_the_mode_reg_preset() -> None:
    chip = MFRC522Emulator()
    write(chip, FIFO_DATA, 0x50, 0x00)
    write(chip, COMMAND, 0x03)  # CalcCRC with the reset preset FFFF
    assert read(chip, DIV_IRQ)[0] & 0x04
    assert read(chip, CRC_L, CRC_H) != [0x57, 0xCD]
    write(chip, COMMAND, 0x00)
    write(chip, MODE, 0x3D)  # preset 6363, as ISO 14443-3 needs
    write(chip, FIFO_DATA, 0x50, 0x00)
    write(chip, COMMAND, 0x03)
    assert read(chip, CRC_L, CRC_H) == [0x57, 0xCD]
    assert read(chip, FIFO_LEVEL) == [0]  # the coprocessor took the bytes


def test_spi_address_format_bursts_and_counters() -> None:
    chip = MFRC522Emulator()
    assert chip.xfer2([VERSION << 1 | 0x80, 0]) == [0, 0x92]
    write(chip, FIFO_DATA, 1, 2, 3)  # a write burst goes to one register
    assert read(chip, FIFO_LEVEL, FIFO_DATA, FIFO_DATA, FIFO_LEVEL) == [3, 1, 2, 1]
    write(chip, FIFO_LEVEL, 0x80)  # FlushBuffer
    assert read(chip, FIFO_LEVEL) == [0]
    assert chip.transfers == 5
    before = chip.clock.now_us
    chip.xfer2([VERSION << 1 | 0x80, 0])
    assert chip.clock.now_us - before == pytest.approx(30 + 16)  # overhead + 2 bytes at 1 MHz
    chip.reset_counters()
    assert chip.transfers == 0


def test_com_irq_set1_semantics() -> None:
    chip = MFRC522Emulator()
    assert read(chip, COM_IRQ) == [0x14]  # reset value: IdleIRq, LoAlertIRq
    write(chip, COM_IRQ, 0x80 | 0x21)  # Set1 = 1: set RxIRq and TimerIRq
    assert read(chip, COM_IRQ) == [0x35]
    write(chip, COM_IRQ, 0x01)  # Set1 = 0: clear only TimerIRq
    assert read(chip, COM_IRQ) == [0x34]
    write(chip, COM_IRQ, 0x7F)
    assert read(chip, COM_IRQ) == [0x00]


def test_empty_field_ends_in_timer_irq_after_the_programmed_timeout() -> None:
    chip = ready_chip(timer_us=1000)
    early = transceive(chip, b"\x52", bits=7, wait_us=900)
    assert not early.irq & 0x21  # neither an answer nor the timer yet
    chip.clock.sleep(0.0003)
    irq, level = read(chip, COM_IRQ, FIFO_LEVEL)
    assert irq & 0x01 and not irq & 0x20 and level == 0
    # The libraries' setting (TMode 8D, TPrescaler 3E, TReload 30) is a 15.5 ms timer.
    write(chip, T_MODE, 0x8D)
    write(chip, T_PRESCALER, 0x3E)
    write(chip, T_RELOAD_L, 30)
    assert not transceive(chip, b"\x52", bits=7, wait_us=15_000).irq & 0x01
    chip.clock.sleep(0.001)
    assert read(chip, COM_IRQ)[0] & 0x01


def test_reqa_answers_every_other_time_when_the_tag_is_not_halted() -> None:
    chip = ready_chip(CARD)
    answers = [reqa(chip).data for _ in range(6)]
    assert answers == [b"\x04\x00", b"", b"\x04\x00", b"", b"\x04\x00", b""]


def test_wupa_wakes_halted_tags_and_reqa_does_not() -> None:
    chip = ready_chip(CARD)
    assert reqa(chip).data == b"\x04\x00"
    assert transceive(chip, b"\x93\x20").data == bytes.fromhex("DEADBEEF22")
    sak = transceive(chip, select_frame(0x93, CARD.uid))
    assert sak.data == b"\x08" + crc_a(b"\x08").to_bytes(2, "little")
    assert chip.tag_state(CARD) is TagState.ACTIVE
    hlta = b"\x50\x00" + crc_a(b"\x50\x00").to_bytes(2, "little")
    assert transceive(chip, hlta).data == b""  # a halted tag says nothing
    assert chip.tag_state(CARD) is TagState.HALT
    assert reqa(chip).data == b""
    assert chip.tag_state(CARD) is TagState.HALT
    assert wupa(chip).data == b"\x04\x00"
    assert chip.tag_state(CARD) is TagState.READY
    # Woken from HALT, anything unexpected sends it back to HALT, not IDLE.
    assert reqa(chip).data == b""
    assert chip.tag_state(CARD) is TagState.HALT


def test_select_needs_a_right_crc_and_bcc() -> None:
    chip = ready_chip(CARD)
    wupa(chip)
    bad = bytearray(select_frame(0x93, CARD.uid))
    bad[-1] ^= 0xFF
    assert transceive(chip, bytes(bad)).data == b""
    assert chip.tag_state(CARD) is TagState.IDLE


def test_seven_byte_uid_uses_two_cascade_levels() -> None:
    chip = ready_chip(STICKER)
    assert wupa(chip).data == b"\x44\x00"
    level1 = transceive(chip, b"\x93\x20").data
    assert level1 == bytes([0x88, 0x04, 0xA2, 0x24, 0x88 ^ 0x04 ^ 0xA2 ^ 0x24])
    assert transceive(chip, select_frame(0x93, level1[:4])).data[0] == 0x04  # cascade bit
    level2 = transceive(chip, b"\x95\x20").data
    assert level2[:4] == bytes.fromhex("9A6B1D80")
    assert transceive(chip, select_frame(0x95, level2[:4])).data[0] == 0x00  # NTAG
    assert chip.tag_state(STICKER) is TagState.ACTIVE


def test_collision_sets_coll_err_and_coll_pos_and_clears_later_bits() -> None:
    a, b = Tag(bytes.fromhex("DEADBEEF")), Tag(bytes.fromhex("DEADBE6F"))  # bit 31 differs
    chip = ready_chip(a, b)
    write(chip, COLL, 0x00)  # ValuesAfterColl = 0
    assert wupa(chip).data == b"\x04\x00"  # same ATQA: no collision there
    result = transceive(chip, b"\x93\x20")
    assert result.error & 0x08 and result.irq & 0x22 == 0x22  # CollErr, ErrIRq, RxIRq
    assert not result.error & 0x02  # no ParityErr
    assert result.coll & 0x20 == 0 and (result.coll & 0x1F or 32) == 32
    assert result.data[:3] == bytes.fromhex("DEADBE") and result.data[3] == 0x6F & 0x7F
    assert result.data[4] == 0  # the BCC came after the collision: cleared


def test_collision_position_counts_the_rx_align_offset() -> None:
    a, b = Tag(bytes.fromhex("01000000")), Tag(bytes.fromhex("01100000"))  # bit 12 differs
    chip = ready_chip(a, b)
    write(chip, COLL, 0x00)
    wupa(chip)
    # Known: 11 bits (byte 0 and three bits of byte 1); RxAlign = 3.
    result = transceive(chip, b"\x93\x33\x01\x00", bits=3, align=3)
    assert result.error & 0x08
    assert result.coll & 0x1F == 3 + (12 - 11) + 1  # 1-based, offset included
    # The other side of the tree: a known prefix only one tag matches answers cleanly.
    result = transceive(chip, b"\x93\x35\x01\x10", bits=5, align=5)
    assert not result.error & 0x08
    assert result.data[0] == 0x10 & ~0x1F  # bits 0-4 belong to the reader's prefix
    assert result.data[1:] == bytes([0x00, 0x00, 0x01 ^ 0x10])
    assert result.last_bits == 0


def test_prefix_that_matches_no_tag_gets_silence_and_tags_stay_ready() -> None:
    chip = ready_chip(CARD)
    wupa(chip)
    assert transceive(chip, b"\x93\x30\x00").data == b""  # NVB 30: 8 known bits, 00
    assert chip.tag_state(CARD) is TagState.READY
    assert transceive(chip, b"\x93\x20").data[:4] == CARD.uid


def test_tags_need_100_percent_ask_and_the_antenna() -> None:
    chip = ready_chip(CARD)
    write(chip, TX_ASK, 0x00)
    assert wupa(chip).irq & 0x01 and wupa(chip).data == b""
    write(chip, TX_ASK, 0x40)
    write(chip, TX_CONTROL, 0x80)
    assert wupa(chip).data == b""
    write(chip, TX_CONTROL, 0x83)
    assert wupa(chip).data == b"\x04\x00"


def test_soft_reset_switches_the_field_off_and_tags_forget_their_state() -> None:
    chip = ready_chip(CARD)
    wupa(chip)
    assert chip.tag_state(CARD) is TagState.READY
    write(chip, COMMAND, 0x0F)
    assert not chip.field_on
    assert chip.tag_state(CARD) is TagState.IDLE
    assert read(chip, COMMAND, TX_CONTROL, MODE) == [0x20, 0x80, 0x3F]


def test_power_up_time_is_honoured() -> None:
    chip = MFRC522Emulator(power_up_us=5000)
    chip.place(CARD)
    write(chip, TX_ASK, 0x40)
    write(chip, TX_CONTROL, 0x83)
    assert wupa(chip).data == b""
    chip.clock.sleep(0.005)
    assert wupa(chip).data == b"\x04\x00"


def test_air_time_is_modelled() -> None:
    chip = ready_chip(CARD)
    chip.reset_counters()
    wupa(chip)
    assert 0.3e3 < chip.air_us < 0.45e3  # WUPA + ATQA ≈ 0.35 ms
    chip.reset_counters()
    transceive(chip, b"\x93\x20")
    assert 0.65e3 < chip.air_us < 0.85e3  # anticollision ≈ 0.75 ms
    assert round(BIT_US, 2) == 9.44


def test_mifare_classic_read_needs_authentication() -> None:
    tag = Tag.classic_1k(bytes.fromhex("DEADBEEF"), {8: b"ace of spades"})
    chip = ready_chip(tag)
    wupa(chip)
    transceive(chip, b"\x93\x20")
    transceive(chip, select_frame(0x93, tag.uid))
    write(chip, COMMAND, 0x00)
    write(chip, COM_IRQ, 0x7F)
    write(chip, FIFO_LEVEL, 0x80)
    write(chip, FIFO_DATA, 0x60, 11, *b"\xff" * 6, *tag.uid)
    write(chip, COMMAND, 0x0E)  # MFAuthent
    chip.clock.sleep(0.003)
    assert read(chip, COM_IRQ)[0] & 0x10  # IdleIRq: authenticated
    assert read(chip, STATUS2)[0] & 0x08  # MFCrypto1On
    frame = b"\x30\x08"
    block = transceive(chip, frame + crc_a(frame).to_bytes(2, "little")).data
    assert block[:16] == b"ace of spades".ljust(16, b"\x00")


def test_wrong_key_times_out() -> None:
    tag = Tag.classic_1k(bytes.fromhex("DEADBEEF"))
    chip = ready_chip(tag)
    wupa(chip)
    transceive(chip, select_frame(0x93, tag.uid))
    write(chip, COM_IRQ, 0x7F)
    write(chip, FIFO_DATA, 0x60, 11, *b"\x00" * 6, *tag.uid)
    write(chip, COMMAND, 0x0E)
    chip.clock.sleep(0.004)
    irq = read(chip, COM_IRQ)[0]
    assert irq & 0x01 and not irq & 0x10
    assert not read(chip, STATUS2)[0] & 0x08


def test_tag_values_are_checked() -> None:
    with pytest.raises(EmulatorError):
        Tag(b"\x88\x01\x02\x03")  # 88 is the cascade tag
    with pytest.raises(EmulatorError):
        Tag(b"\x01\x02\x03")
    chip = MFRC522Emulator()
    chip.place(CARD)
    with pytest.raises(EmulatorError):
        chip.place(CARD)
    chip.remove(CARD)
    with pytest.raises(EmulatorError, match="not on"):
        chip.remove(CARD)
    with pytest.raises(ValueError):  # EmulatorError is a ValueError too
        chip.remove(CARD)


def test_shared_bus_routes_to_the_selected_chip_only() -> None:
    clock = VirtualClock()
    bus = EmulatedSpiBus(clock)
    a = MFRC522Emulator(clock=clock, name="a", version=0x91)
    b = MFRC522Emulator(clock=clock, name="b", version=0x92)
    lines = {"a": True, "b": True}  # True = NSS high (released)
    bus.attach(a, lambda: not lines["a"])
    bus.attach(b, lambda: not lines["b"])
    assert bus.xfer2([VERSION << 1 | 0x80, 0]) == [0, 0]  # nobody selected
    lines["b"] = False
    assert bus.xfer2([VERSION << 1 | 0x80, 0]) == [0, 0x92]
    lines["a"] = False  # both selected: MISO is garbage (wired AND), both see MOSI
    assert bus.xfer2([VERSION << 1 | 0x80, 0]) == [0, 0x90]
    assert bus.log == [(), ("b",), ("a", "b")]
    assert (a.transfers, b.transfers) == (1, 2)
