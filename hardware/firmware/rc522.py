"""A small MFRC522 driver for MicroPython: every ISO 14443-A tag on one antenna.

Talks to one RC522 through a shared ``machine.SPI`` and its own chip-select pin; knows
4-, 7- and 10-byte uids (cascade levels), resolves collisions bit by bit, and halts each
tag it read so the next REQA finds the next one (WUPA at the start of a sweep wakes them
all again). Register and command numbers follow the NXP MFRC522 data sheet; see
/work/shared/RC522.md in the project notes. Waits on the chip are logical tests of
ComIrqReg bits with a deadline, never a fixed count of SPI reads.

A MicroPython twin of the host's ``table_node/rc522.py`` (the same registers, CRC_A and
sweep, without typing or the feltwire packages), on purpose: see README.md, "A twin of
host code". ``tests/hardware/firmware_bridge/test_firmware_rc522.py`` runs it under CPython
against a fake chip and tags.
"""

import time

# registers
COMMAND = 0x01
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_MODE = 0x12
RX_MODE = 0x13
TX_CONTROL = 0x14
TX_ASK = 0x15
RF_CFG = 0x26
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# commands
IDLE = 0x00
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F

# PICC commands
REQA = 0x26
WUPA = 0x52
HLTA = 0x50
CASCADE_TAG = 0x88
SEL_LEVELS = (0x93, 0x95, 0x97)

# inventory outcomes
INV_OK = 0
INV_MORE = 1  # more tags than max_tags
INV_COLLISION = 2  # a collision could not be resolved this sweep

# transceive results
OK = 0
NO_TAG = 1
COLLISION = 2
FAULT = 3


class ReaderFault(Exception):
    """The chip misbehaved (no answer on SPI, buffer overflow, timeout of the chip itself)."""


def crc_a(data):
    """ISO 14443-A CRC (preset 6363, bytes LSB first) as two bytes: crc_a(50 00) = 57 CD."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    crc &= 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


class RC522:
    """One RC522 on a shared SPI bus, selected by its own chip-select pin."""

    def __init__(self, spi, cs):
        self.spi = spi
        self.cs = cs
        self.cs.value(1)
        self._tx = bytearray(2)
        self._rx = bytearray(2)

    # --------------------------------------------------------------- SPI

    def write(self, reg, value):
        self._tx[0] = (reg << 1) & 0x7E
        self._tx[1] = value
        self.cs.value(0)
        try:
            self.spi.write(self._tx)
        finally:
            self.cs.value(1)

    def read(self, reg):
        self._tx[0] = ((reg << 1) & 0x7E) | 0x80
        self._tx[1] = 0
        self.cs.value(0)
        try:
            self.spi.write_readinto(self._tx, self._rx)
        finally:
            self.cs.value(1)
        return self._rx[1]

    def set_bits(self, reg, mask):
        self.write(reg, self.read(reg) | mask)

    def clear_bits(self, reg, mask):
        self.write(reg, self.read(reg) & ~mask & 0xFF)

    # --------------------------------------------------------------- setup

    def version(self):
        """VersionReg: 91/92 for NXP chips, other values for clones, 00/FF for no chip."""
        return self.read(VERSION)

    def init(self):
        """Soft reset and configure for ISO 14443-A at 106 kbit/s; False if no chip answers."""
        self.write(COMMAND, SOFT_RESET)
        deadline = time.ticks_add(time.ticks_ms(), 50)
        while self.read(COMMAND) & 0x10:  # PowerDown bit clears when the reset is done
            if time.ticks_diff(deadline, time.ticks_ms()) < 0:
                return False
        if self.version() in (0x00, 0xFF):
            return False
        self.write(TX_MODE, 0x00)
        self.write(RX_MODE, 0x00)
        self.write(T_MODE, 0x8D)  # TAuto: timer starts at the end of each transmission
        self.write(T_PRESCALER, 0x3E)
        self.write(T_RELOAD_H, 0x00)
        self.write(T_RELOAD_L, 0x30)  # ~15 ms: far longer than any tag answer
        self.write(TX_ASK, 0x40)  # 100 % ASK
        self.write(MODE, 0x3D)  # CRC preset 6363
        self.write(RF_CFG, 0x70)  # receiver gain 48 dB
        self.set_bits(TX_CONTROL, 0x03)  # antenna drivers on
        return True

    # --------------------------------------------------------------- transceive

    def transceive(self, data, tx_last_bits=0, rx_align=0):
        """Send ``data`` and wait for the answer: (status, bytes, valid bits in last byte)."""
        self.write(COMMAND, IDLE)
        self.write(COM_IRQ, 0x7F)  # clear every interrupt bit
        self.write(FIFO_LEVEL, 0x80)  # flush the FIFO
        for byte in data:
            self.write(FIFO_DATA, byte)
        self.write(BIT_FRAMING, ((rx_align & 0x07) << 4) | (tx_last_bits & 0x07))
        self.write(COMMAND, TRANSCEIVE)
        self.set_bits(BIT_FRAMING, 0x80)  # StartSend
        deadline = time.ticks_add(time.ticks_ms(), 40)
        while True:
            irq = self.read(COM_IRQ)
            if irq & 0x30:  # RxIRq or IdleIRq: an answer came
                break
            if irq & 0x01:  # TimerIRq: nobody answered
                self.clear_bits(BIT_FRAMING, 0x80)
                return NO_TAG, b"", 0
            if time.ticks_diff(deadline, time.ticks_ms()) < 0:
                self.write(COMMAND, IDLE)
                raise ReaderFault("no interrupt from the RC522 within 40 ms")
        self.clear_bits(BIT_FRAMING, 0x80)
        error = self.read(ERROR)
        if error & 0x11:  # BufferOvfl or ProtocolErr
            raise ReaderFault("RC522 error register %02X" % error)  # noqa: UP031
        n = self.read(FIFO_LEVEL) & 0x7F
        last_bits = self.read(CONTROL) & 0x07
        received = bytes(self.read(FIFO_DATA) for _ in range(n))
        if error & 0x08:  # CollErr
            return COLLISION, received, last_bits
        if error & 0x06:  # parity or CRC error: a garbled answer, as good as none
            return NO_TAG, b"", 0
        return OK, received, last_bits

    # --------------------------------------------------------------- ISO 14443-3

    def request(self, command):
        """REQA or WUPA; True when at least one tag answered (collisions included)."""
        status, data, _ = self.transceive(bytes((command,)), tx_last_bits=7)
        return status == COLLISION or (status == OK and len(data) == 2)

    def _anticollision(self, sel):
        """The 5-byte uid part (4 bytes + BCC) of one tag at cascade level ``sel``."""
        known = bytearray(5)
        known_bits = 0
        self.clear_bits(COLL, 0x80)  # bits after a collision read as 0
        for _ in range(40):
            nbytes = known_bits // 8
            nbits = known_bits % 8
            nvb = ((2 + nbytes) << 4) | nbits
            sent = nbytes + (1 if nbits else 0)
            frame = bytes((sel, nvb)) + bytes(known[:sent])
            status, data, _ = self.transceive(frame, tx_last_bits=nbits, rx_align=nbits)
            if status == NO_TAG or not data:
                return None
            # the first received byte completes the partial byte we sent
            merged = bytearray(known[:nbytes])
            first = data[0]
            if nbits:
                mask = (1 << nbits) - 1
                first = (known[nbytes] & mask) | (first & ~mask & 0xFF)
            merged.append(first)
            merged.extend(data[1:])
            if status == OK:
                if len(merged) < 5:
                    return None
                part = bytes(merged[:5])
                if part[0] ^ part[1] ^ part[2] ^ part[3] != part[4]:
                    return None  # BCC wrong: garbled
                return part
            coll = self.read(COLL)
            if coll & 0x20:  # CollPosNotValid
                return None
            pos = coll & 0x1F or 32  # 1-based bit of the uid part where tags disagree
            if pos <= known_bits:
                return None  # no progress: give up this sweep
            for i in range(min(len(merged), 5)):
                known[i] = merged[i]
            known_bits = pos
            byte_i = (pos - 1) // 8
            bit_i = (pos - 1) % 8
            keep = (1 << bit_i) - 1
            known[byte_i] = (known[byte_i] & keep) | (1 << bit_i)  # choose the tag with a 1
        return None

    def _select(self, sel, part):
        """SELECT one tag by its uid part; its SAK, or None."""
        frame = bytes((sel, 0x70)) + part
        status, data, _ = self.transceive(frame + crc_a(frame))
        if status != OK or len(data) != 3 or crc_a(data[:1]) != data[1:3]:
            return None
        return data[0]

    def halt(self):
        """HLTA: the selected tag stops answering REQA (a tag that obeys sends nothing)."""
        frame = bytes((HLTA, 0x00))
        self.transceive(frame + crc_a(frame))

    def read_uid(self):
        """Anticollision and select through the cascade levels: a 4/7/10-byte uid, or None."""
        uid = bytearray()
        for sel in SEL_LEVELS:
            part = self._anticollision(sel)
            if part is None:
                return None
            sak = self._select(sel, part)
            if sak is None:
                return None
            if sak & 0x04 and part[0] == CASCADE_TAG:
                uid.extend(part[1:4])  # uid not complete: next cascade level
                continue
            uid.extend(part[:4])
            return bytes(uid)
        return None

    def inventory(self, max_tags):
        """Every tag on the antenna now (up to ``max_tags``): (uids, INV_* outcome)."""
        tags = []
        command = WUPA  # wakes the tags halted in the previous sweep too
        while len(tags) < max_tags:
            if not self.request(command):
                return tags, INV_OK
            command = REQA  # from now on only tags not yet read and halted
            uid = self.read_uid()
            if uid is None:
                return tags, INV_COLLISION  # the rest are read next sweep
            if uid not in tags:
                tags.append(uid)
            self.halt()
        return tags, INV_MORE if self.request(REQA) else INV_OK
