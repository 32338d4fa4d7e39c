"""The emulated MFRC522: registers, FIFO, CRC coprocessor, timer and commands, driving
the tags on its antenna at the virtual instants the air interface would."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from table_node.emulation import registers as reg
from table_node.emulation.clock import VirtualClock
from table_node.emulation.iso14443 import (
    AUTH_US,
    BIT_US,
    FDT_US,
    crc_a,
    crc_bytes,
    crc_ok,
    pcd_frame_us,
    picc_frame_us,
)
from table_node.emulation.tags import Tag, TagOnAntenna, TagState
from table_node.errors import EmulatorError


@dataclass(order=True)
class _Event:
    """Something the chip does at a virtual instant: an air-interface step of the exchange
    in progress, or (``timer``) the timer's expiry, which outlives a cancelled exchange."""

    at_us: float
    seq: int
    action: Callable[[], None] = field(compare=False)
    timer: bool = field(default=False, compare=False)


class MFRC522Emulator:
    """An emulated MFRC522 on the end of an SPI bus, with tags on its antenna.

    Hand it to a driver wherever a ``spidev.SpiDev`` would go (it implements ``xfer2``),
    put tags on the antenna with :meth:`place`, take them off with :meth:`remove`.
    ``transfers`` counts SPI transfers (one ``xfer2`` call each) and ``air_us`` the time the
    RF link was busy; :meth:`reset_counters` zeroes both.

    Each transfer costs ``call_overhead_us`` plus 8 bits per byte at ``spi_hz`` of virtual
    time (defaults: 30 µs, 1 MHz — a Python ``xfer2`` call on a Raspberry Pi 4).

    Modelling choices where the data sheet is silent or the detail does not matter here:

    - StartSend, FlushBuffer, TStartNow and TStopNow are write-only triggers (read as 0).
    - Tags react to a frame when its transmission starts; the answer, the end-of-frame and
      timer interrupts arrive at the virtual times they would on the air. Writing the
      CommandReg (or a new StartSend) abandons a reception in progress.
    - Tags hear the reader only with 100 % ASK (TxASKReg.Force100ASK) and the antenna on; a
      field switched off (TxControlReg, soft reset, power-down) resets every tag to IDLE.
    - A collision sets CollErr/ErrIRq when the colliding bit arrives and no ParityErr;
      CollPos counts from bit 0 of the first FIFO byte, RxAlign offset included, as NXP's
      reference HAL reads it. With ValuesAfterColl = 0 the colliding bit and all later
      bits read 0, otherwise colliding bits read 1.
    - TxCRCEn appends CRC_A and RxCRCEn checks and strips it (preset 6363 at 106 kBd);
      CalcCRC uses ModeReg.CRCPreset; MSBFirst, TAutoRestart, parity errors, the IRQ pin,
      speeds above 106 kBd and the Crypto1 cipher itself are not modelled (an
      authenticated MIFARE Classic is read in plain text, but only while MFCrypto1On).
    - ``power_up_us``: how long a tag needs in the field before it answers (ISO allows up
      to 5 ms); 0 by default.

    >>> clock = VirtualClock()
    >>> chip = MFRC522Emulator(clock=clock)
    >>> chip.place(Tag(bytes.fromhex("DEADBEEF")))
    >>> _ = chip.xfer2([0x15 << 1, 0x40])  # TxASKReg: 100 % ASK
    >>> _ = chip.xfer2([0x14 << 1, 0x83])  # TxControlReg: antenna on
    >>> _ = chip.xfer2([0x09 << 1, 0x52])  # FIFO ← WUPA
    >>> _ = chip.xfer2([0x01 << 1, 0x0C])  # Transceive
    >>> _ = chip.xfer2([0x0D << 1, 0x87])  # StartSend, 7 bits
    >>> clock.sleep(0.001)
    >>> chip.xfer2([0x0A << 1 | 0x80, 0x09 << 1 | 0x80, 0x09 << 1 | 0x80, 0])  # level, ATQA
    [0, 2, 4, 0]
    """

    def __init__(
        self,
        *,
        clock: VirtualClock | None = None,
        version: int = 0x92,
        call_overhead_us: float = 30.0,
        spi_hz: int = 1_000_000,
        power_up_us: float = 0.0,
        name: str = "rc522",
    ) -> None:
        self.clock = clock if clock is not None else VirtualClock()
        self.version = version
        self.call_overhead_us = call_overhead_us
        self.spi_hz = spi_hz
        self.power_up_us = power_up_us
        self.name = name
        self.transfers = 0
        self.bytes_transferred = 0
        self.air_us = 0.0
        self._tags: list[TagOnAntenna] = []
        self._random = random.Random(0x522)
        self._internal_buffer = bytearray(25)
        self._reset_state()

    # ----------------------------------------------------------------- public surface

    @property
    def tags(self) -> list[Tag]:
        """The tags on the antenna, in the order they were placed."""
        return [t.tag for t in self._tags]

    def tag_state(self, tag: Tag) -> TagState:
        """The ISO 14443-3 state a placed tag is in now."""
        self._run_until(self.clock.now_us)
        return self._find(tag).state

    def place(self, tag: Tag) -> None:
        """Put a tag on the antenna (it powers up if the field is on)."""
        if any(t.tag == tag for t in self._tags):
            raise EmulatorError(f"tag {tag.uid.hex().upper()} is already on {self.name}")
        self._tags.append(TagOnAntenna(tag, self.clock.now_us))

    def remove(self, tag: Tag) -> None:
        """Take a tag off the antenna; EmulatorError if it is not there."""
        self._tags.remove(self._find(tag))

    def clear(self) -> list[Tag]:
        """Take every tag off the antenna; returns what was there."""
        gone = self.tags
        self._tags.clear()
        return gone

    def reset_counters(self) -> None:
        """Zero ``transfers``, ``bytes_transferred`` and ``air_us``."""
        self.transfers = 0
        self.bytes_transferred = 0
        self.air_us = 0.0

    def hard_reset(self) -> None:
        """What pulling NRSTPD low and high again does: every register to its reset value."""
        self._reset_state()

    def xfer2(self, data: list[int]) -> list[int]:
        """One SPI transaction with chip select held low throughout (``spidev`` semantics)."""
        self._account(len(data))
        return self._transaction(data)

    def xfer2_on_bus(self, data: list[int]) -> list[int]:
        """One transaction while selected on a shared :class:`~table_node.emulation.bus.
        EmulatedSpiBus`: counted here, but the bus advances the clock (once for all the
        chips it selects)."""
        self.transfers += 1
        self.bytes_transferred += len(data)
        return self._transaction(data)

    @property
    def field_on(self) -> bool:
        """Whether the antenna drivers are on."""
        return bool(self._regs[reg.TX_CONTROL] & 0x03) and not self._power_down

    # ----------------------------------------------------------------- SPI handling

    def _account(self, nbytes: int) -> None:
        self.transfers += 1
        self.bytes_transferred += nbytes
        self.clock.advance_us(self.call_overhead_us + nbytes * 8 * 1e6 / self.spi_hz)

    def _transaction(self, data: list[int]) -> list[int]:
        self._run_until(self.clock.now_us)
        if not data:
            return []
        out = [0] * len(data)
        address = (data[0] >> 1) & 0x3F
        if data[0] & 0x80:  # read burst: each byte names the next register to read
            for i in range(1, len(data)):
                out[i] = self._read(address)
                address = (data[i] >> 1) & 0x3F
        else:  # write burst: every data byte goes to the same register
            for value in data[1:]:
                self._write(address, value & 0xFF)
        return out

    # ----------------------------------------------------------------- state

    def _reset_state(self) -> None:
        was_on = getattr(self, "_regs", None) is not None and self.field_on
        self._regs = [0] * 64
        for address, value in reg.RESET_VALUES.items():
            self._regs[address] = value
        self._command = reg.CMD_IDLE
        self._power_down = False
        self._rcv_off = True
        self._com_irq = reg.IDLE_IRQ | reg.LO_ALERT_IRQ
        self._div_irq = 0
        self._error = 0
        self._crypto1_on = False
        self._fifo = bytearray()
        self._crc = 0xFFFF
        self._crc_ready = False
        self._events: list[_Event] = []
        self._seq = 0
        self._timer_end: float | None = None
        self._timer_token = 0
        self._receiving = False
        if was_on:
            self._field_changed(False)

    def _find(self, tag: Tag) -> TagOnAntenna:
        for placed in self._tags:
            if placed.tag == tag:
                return placed
        raise EmulatorError(f"tag {tag.uid.hex().upper()} is not on {self.name}")

    def _schedule(self, at_us: float, action: Callable[[], None], *, timer: bool = False) -> None:
        self._seq += 1
        self._events.append(_Event(at_us, self._seq, action, timer))
        self._events.sort()

    def _cancel_exchange(self) -> None:
        self._events = [e for e in self._events if e.timer]
        self._receiving = False

    def _run_until(self, now_us: float) -> None:
        while self._events and self._events[0].at_us <= now_us:
            self._events.pop(0).action()

    # ----------------------------------------------------------------- registers

    def _read(self, address: int) -> int:
        if address == reg.COMMAND:
            return (
                (0x20 if self._rcv_off else 0) | (0x10 if self._power_down else 0) | (self._command)
            )
        if address == reg.COM_IRQ:
            return self._com_irq & 0x7F
        if address == reg.DIV_IRQ:
            return self._div_irq & 0x7F
        if address == reg.ERROR:
            return self._error
        if address == reg.STATUS1:
            return self._status1()
        if address == reg.STATUS2:
            return (
                (self._regs[reg.STATUS2] & 0xC0)
                | (0x08 if self._crypto1_on else 0)
                | (self._modem_state())
            )
        if address == reg.FIFO_DATA:
            if not self._fifo:
                return 0
            value = self._fifo.pop(0)
            self._fifo_changed()
            return value
        if address == reg.FIFO_LEVEL:
            return len(self._fifo)
        if address == reg.BIT_FRAMING:
            return self._regs[address] & 0x7F
        if address == reg.CRC_RESULT_H:
            return self._crc >> 8
        if address == reg.CRC_RESULT_L:
            return self._crc & 0xFF
        if address in (reg.T_COUNTER_H, reg.T_COUNTER_L):
            value = self._timer_counter()
            return value >> 8 if address == reg.T_COUNTER_H else value & 0xFF
        if address == reg.VERSION:
            return self.version
        return self._regs[address]

    def _write(self, address: int, value: int) -> None:
        if address == reg.COMMAND:
            self._write_command(value)
        elif address == reg.COM_IRQ:
            if value & 0x80:
                self._com_irq |= value & 0x7F
            else:
                self._com_irq &= ~value & 0x7F
        elif address == reg.DIV_IRQ:
            if value & 0x80:
                self._div_irq |= value & 0x7F
            else:
                self._div_irq &= ~value & 0x7F
        elif address == reg.STATUS2:
            self._regs[address] = value & 0xC0
            if not value & 0x08:
                self._crypto1_on = False
        elif address == reg.FIFO_DATA:
            self._fifo_write(value)
        elif address == reg.FIFO_LEVEL:
            if value & 0x80:
                self._fifo.clear()
                self._error &= ~reg.BUFFER_OVFL
                self._fifo_changed()
        elif address == reg.CONTROL:
            if value & 0x80:
                self._stop_timer()
            if value & 0x40:
                self._start_timer(self.clock.now_us)
        elif address == reg.BIT_FRAMING:
            self._regs[address] = value & 0x7F
            if value & 0x80 and self._command == reg.CMD_TRANSCEIVE:
                self._start_transmission(receive=True)
        elif address == reg.COLL:
            self._regs[address] = (self._regs[address] & 0x7F) | (value & 0x80)
        elif address == reg.TX_CONTROL:
            was_on = self.field_on
            self._regs[address] = value
            if self.field_on != was_on:
                self._field_changed(self.field_on)
        elif address in reg.READ_ONLY:
            pass
        else:
            self._regs[address] = value

    def _status1(self) -> int:
        level = len(self._fifo)
        water = self._regs[reg.WATER_LEVEL] & 0x3F
        value = 0
        if self._crc_ready:
            value |= 0x20 | (0x40 if self._crc == 0 else 0)
        irq = (self._com_irq & self._regs[reg.COM_IEN] & 0x7F) or (
            self._div_irq & self._regs[reg.DIV_IEN] & 0x14
        )
        if irq:
            value |= 0x10
        if self._timer_end is not None:
            value |= 0x08
        if 64 - level <= water:
            value |= 0x02
        if level <= water:
            value |= 0x01
        return value

    def _modem_state(self) -> int:
        if self._command != reg.CMD_TRANSCEIVE:
            return 0
        return 0b110 if self._receiving else 0b001

    # ----------------------------------------------------------------- FIFO and CRC

    def _fifo_changed(self) -> None:
        level = len(self._fifo)
        water = self._regs[reg.WATER_LEVEL] & 0x3F
        if level <= water:
            self._com_irq |= reg.LO_ALERT_IRQ
        if 64 - level <= water:
            self._com_irq |= reg.HI_ALERT_IRQ

    def _fifo_write(self, value: int) -> None:
        if self._command == reg.CMD_CALC_CRC:  # a running CalcCRC takes each byte as it comes
            self._crc = crc_a([value], self._crc)
            self._crc_done()
            return
        if self._fifo_full():
            return
        self._fifo.append(value)
        self._fifo_changed()

    def _fifo_push(self, data: bytes) -> None:
        for value in data:
            if self._fifo_full():
                break
            self._fifo.append(value)
        self._fifo_changed()

    def _fifo_full(self) -> bool:
        """True when the 64-byte FIFO has no room for another byte; the byte that does not
        fit raises BufferOvfl (and ErrIRq), as on the chip."""
        if len(self._fifo) < 64:
            return False
        self._error |= reg.BUFFER_OVFL
        self._com_irq |= reg.ERR_IRQ
        return True

    def _crc_done(self) -> None:
        self._crc_ready = True
        self._div_irq |= reg.CRC_IRQ

    # ----------------------------------------------------------------- timer

    def _timer_period_us(self) -> float:
        prescaler = ((self._regs[reg.T_MODE] & 0x0F) << 8) | self._regs[reg.T_PRESCALER]
        reload = (self._regs[reg.T_RELOAD_H] << 8) | self._regs[reg.T_RELOAD_L]
        divider = 2 * prescaler + (2 if self._regs[reg.DEMOD] & 0x10 else 1)
        return (reload + 1) * divider / 13.56

    def _start_timer(self, at_us: float) -> None:
        self._timer_token += 1
        token = self._timer_token
        self._timer_end = at_us + self._timer_period_us()

        def expire() -> None:
            if token == self._timer_token:
                self._timer_end = None
                self._com_irq |= reg.TIMER_IRQ

        self._schedule(self._timer_end, expire, timer=True)

    def _stop_timer(self) -> None:
        self._timer_token += 1
        self._timer_end = None
        self._events = [e for e in self._events if not e.timer]

    def _timer_counter(self) -> int:
        reload = (self._regs[reg.T_RELOAD_H] << 8) | self._regs[reg.T_RELOAD_L]
        if self._timer_end is None:
            return 0
        prescaler = ((self._regs[reg.T_MODE] & 0x0F) << 8) | self._regs[reg.T_PRESCALER]
        tick_us = (2 * prescaler + 1) / 13.56
        left = max(0.0, self._timer_end - self.clock.now_us)
        return min(reload, int(left / tick_us))

    # ----------------------------------------------------------------- commands

    def _write_command(self, value: int) -> None:
        was_on = self.field_on
        self._rcv_off = bool(value & 0x20)
        self._power_down = bool(value & 0x10)
        if self.field_on != was_on:
            self._field_changed(self.field_on)
        command = value & 0x0F
        if command == reg.CMD_NO_CMD_CHANGE:
            return
        self._cancel_exchange()
        if command == reg.CMD_SOFT_RESET:
            self._reset_state()
            return
        if command not in reg.KNOWN_COMMANDS:
            self._command = reg.CMD_IDLE
            self._com_irq |= reg.IDLE_IRQ
            return
        self._command = command
        if command == reg.CMD_CALC_CRC:
            self._crc = reg.CRC_PRESETS[self._regs[reg.MODE] & 0x03]
            self._crc = crc_a(self._fifo, self._crc)
            self._fifo.clear()
            self._fifo_changed()
            self._crc_done()
        elif command == reg.CMD_TRANSMIT:
            self._start_transmission(receive=False)
        elif command == reg.CMD_MF_AUTHENT:
            self._start_authent()
        elif command == reg.CMD_MEM:
            if self._fifo:
                self._internal_buffer[:] = bytes(self._fifo[:25]).ljust(25, b"\x00")
                del self._fifo[:25]
            else:
                self._fifo_push(bytes(self._internal_buffer))
            self._finish_command()
        elif command == reg.CMD_GENERATE_RANDOM_ID:
            self._internal_buffer[:10] = bytes(self._random.randrange(256) for _ in range(10))
            self._finish_command()

    def _finish_command(self) -> None:
        self._command = reg.CMD_IDLE
        self._com_irq |= reg.IDLE_IRQ

    def _field_changed(self, on: bool) -> None:
        for placed in self._tags:
            placed.power_off()
            placed.powered_at_us = self.clock.now_us
        if not on:
            self._crypto1_on = False

    def _hearing_tags(self) -> list[TagOnAntenna]:
        """The tags that can hear the reader now (field on, 100 % ASK, powered up)."""
        if not self.field_on or not self._regs[reg.TX_ASK] & 0x40:
            return []
        now = self.clock.now_us
        return [t for t in self._tags if now - t.powered_at_us >= self.power_up_us]

    def _start_transmission(self, *, receive: bool) -> None:
        now = self.clock.now_us
        self._cancel_exchange()
        framing = self._regs[reg.BIT_FRAMING]
        tx_last_bits, rx_align = framing & 0x07, (framing >> 4) & 0x07
        data = bytes(self._fifo)
        self._fifo.clear()
        self._fifo_changed()
        nbits = (
            len(data) * 8 if tx_last_bits == 0 or not data else (len(data) - 1) * 8 + (tx_last_bits)
        )
        if self._regs[reg.TX_MODE] & 0x80 and nbits % 8 == 0 and data:
            data += crc_bytes(data)
            nbits += 16
        tx_end = now + pcd_frame_us(nbits)
        self.air_us += tx_end - now
        self._error &= ~reg.RX_ERRORS
        self._regs[reg.COLL] = (self._regs[reg.COLL] & 0x80) | 0x20
        answers = [
            bits
            for placed in self._hearing_tags()
            if (bits := placed.hear(data, nbits, self._crypto1_on)) is not None
        ]

        def transmitted() -> None:
            self._com_irq |= reg.TX_IRQ
            if not receive:
                self._finish_command()

        self._schedule(tx_end, transmitted)
        if not receive:
            return
        self._receiving = True
        if self._regs[reg.T_MODE] & 0x80:  # TAuto: the timer starts when transmission ends
            self._schedule(tx_end, lambda: self._start_timer(tx_end))
        if not answers or self._rcv_off:
            return
        self._schedule_answer(tx_end + FDT_US, answers, rx_align)

    def _schedule_answer(self, rx_start: float, answers: list[list[int]], rx_align: int) -> None:
        length = max(len(a) for a in answers)
        bits: list[int] = []
        collision: int | None = None
        clear_after = not self._regs[reg.COLL] & 0x80
        for i in range(length):
            values = {a[i] for a in answers if i < len(a)}
            if len(values) > 1 and collision is None:
                collision = i
            if collision is not None and clear_after:
                bits.append(0)
            else:
                bits.append(1 if 1 in values else 0)
        rx_us = picc_frame_us(length)
        rx_end = rx_start + rx_us
        self.air_us += FDT_US + rx_us
        five_bits = rx_start + 5 * BIT_US

        def receiving() -> None:
            if self._timer_end is not None and not self._regs[reg.RX_MODE] & 0x04:
                self._stop_timer()

        self._schedule(five_bits, receiving)
        if collision is not None:
            position = rx_align + collision + 1

            def collided() -> None:
                self._error |= reg.COLL_ERR
                self._com_irq |= reg.ERR_IRQ
                if position <= 32:
                    self._regs[reg.COLL] = (self._regs[reg.COLL] & 0x80) | (position & 0x1F)
                else:
                    self._regs[reg.COLL] = (self._regs[reg.COLL] & 0x80) | 0x20

            self._schedule(rx_start + (collision + 1) * BIT_US, collided)

        def received() -> None:
            self._receiving = False
            total = rx_align + len(bits)
            buffer = bytearray((total + 7) // 8)
            for i, bit in enumerate(bits):
                if bit:
                    position = rx_align + i
                    buffer[position // 8] |= 1 << (position % 8)
            payload = bytes(buffer)
            if self._regs[reg.RX_MODE] & 0x80:  # RxCRCEn: check and strip CRC_A
                if total % 8 or len(payload) < 3 or not crc_ok(payload):
                    self._error |= reg.CRC_ERR
                    self._com_irq |= reg.ERR_IRQ
                else:
                    payload = payload[:-2]
            self._fifo_push(payload)
            self._regs[reg.CONTROL] = (self._regs[reg.CONTROL] & 0xF8) | (total % 8)
            self._com_irq |= reg.RX_IRQ

        self._schedule(rx_end, received)

    def _start_authent(self) -> None:
        now = self.clock.now_us
        data = bytes(self._fifo)
        self._fifo.clear()
        self._fifo_changed()
        first = data[:2] + crc_bytes(data[:2]) if len(data) >= 2 else data
        tx_end = now + pcd_frame_us(len(first) * 8)
        self.air_us += AUTH_US
        success = False
        for placed in self._hearing_tags():
            if placed.state is TagState.ACTIVE and len(data) == 12:
                success = placed.authenticate(data[0], data[1], data[2:8], data[8:12]) or success
            else:
                placed.hear(first, len(first) * 8, self._crypto1_on)
        if self._regs[reg.T_MODE] & 0x80:
            self._schedule(tx_end, lambda: self._start_timer(now + AUTH_US))
        if success:

            def authenticated() -> None:
                self._crypto1_on = True
                self._stop_timer()
                self._finish_command()

            self._schedule(now + AUTH_US, authenticated)
