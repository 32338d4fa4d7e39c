"""feltwire reader board: RP2040 + MicroPython, many RC522 antennas, one serial link.

Sweeps every antenna, reports each antenna's full inventory when it changes, a HEARTBEAT
every HEARTBEAT_MS, HELLO at boot and on request, ERRORs when a reader fails, and shows
seat-light patterns on a WS2812 strip — the protocol of docs/serial-protocol.md, framed
by framing.py (the same bytes the bridge decodes). Settings live in board_config.py.
"""

import select
import sys
import time

import board_config as cfg
import framing as fr
import machine
import micropython
from rc522 import INV_COLLISION, INV_MORE, RC522, ReaderFault

# colour (r, g, b) and blink period in ms (0 = steady) of each light pattern
PATTERNS = {
    fr.LIGHT_OFF: ((0, 0, 0), 0),
    fr.LIGHT_IDLE: ((0, 0, 24), 0),
    fr.LIGHT_ACTING: ((160, 160, 160), 500),
    fr.LIGHT_ERROR: ((200, 0, 0), 200),
    fr.LIGHT_ALLIN: ((160, 0, 160), 0),
    fr.LIGHT_FOLDED: ((8, 8, 8), 0),
}
ERROR_REPEAT_MS = 1000


class UsbLink:
    """The Pico's USB CDC serial port (sys.stdin/stdout), raw: Ctrl-C no longer interrupts."""

    def __init__(self):
        micropython.kbd_intr(-1)
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer

    def read(self):
        data = bytearray()
        while len(data) < 64 and self._poll.poll(0):
            data.extend(self._in.read(1))
        return data

    def write(self, data):
        self._out.write(data)


class UartLink:
    """A hardware UART, for a board wired to a USB-serial adapter or the Pi's own UART."""

    def __init__(self):
        self._uart = machine.UART(
            cfg.UART_ID,
            baudrate=cfg.UART_BAUD,
            tx=machine.Pin(cfg.UART_TX),
            rx=machine.Pin(cfg.UART_RX),
            txbuf=2048,
        )

    def read(self):
        n = self._uart.any()
        return self._uart.read(n) if n else b""

    def write(self, data):
        self._uart.write(data)


class Lights:
    """Seat lights on a WS2812 strip: pixel n-1 shows seat n's pattern."""

    def __init__(self):
        self.patterns = {}
        self._np = None
        if cfg.LIGHT_PIN is not None:
            import neopixel

            self._np = neopixel.NeoPixel(machine.Pin(cfg.LIGHT_PIN), cfg.LIGHT_COUNT)
        self._last = None

    def set(self, light, pattern):
        if 1 <= light <= cfg.LIGHT_COUNT:
            self.patterns[light] = pattern

    def show(self, now_ms):
        if self._np is None:
            return
        frame = []
        for seat in range(1, cfg.LIGHT_COUNT + 1):
            colour, period = PATTERNS[self.patterns.get(seat, fr.LIGHT_OFF)]
            if period and (now_ms // (period // 2)) % 2:
                colour = (0, 0, 0)
            frame.append(colour)
        if frame != self._last:
            for i, colour in enumerate(frame):
                self._np[i] = colour
            self._np.write()
            self._last = frame


class Antenna:
    """One antenna: its RC522 and what it has reported."""

    def __init__(self, index, name, reader):
        self.index = index
        self.name = name
        self.reader = reader  # None when the chip did not answer at boot
        self.misses = {}  # uid -> sweeps in a row it was not seen
        self.reported = []
        self.error_at = {}  # error code -> ticks_ms it was last reported


class Board:
    """The board: antennas, the link, counters, and the main loop."""

    def __init__(self, link):
        self.link = link
        self.seq = 0
        self.deframer = fr.Deframer()
        self.lights = Lights()
        self.started = time.ticks_ms()
        self.sweeps = 0
        self.read_errors = 0
        rst = machine.Pin(cfg.RST_PIN, machine.Pin.OUT)
        rst.value(0)
        time.sleep_ms(2)
        rst.value(1)
        time.sleep_ms(50)
        spi = machine.SPI(
            cfg.SPI_ID,
            baudrate=cfg.SPI_BAUD,
            polarity=0,
            phase=0,
            sck=machine.Pin(cfg.SPI_SCK),
            mosi=machine.Pin(cfg.SPI_MOSI),
            miso=machine.Pin(cfg.SPI_MISO),
        )
        self.antennas = []
        for index, (name, cs_pin) in enumerate(cfg.ANTENNAS):
            reader = RC522(spi, machine.Pin(cs_pin, machine.Pin.OUT, value=1))
            self.antennas.append(Antenna(index, name, reader if reader.init() else None))

    # ------------------------------------------------------------ sending

    def send(self, ftype, payload):
        self.link.write(fr.encode_frame(ftype, self.seq, payload))
        self.seq = (self.seq + 1) & 0xFFFF

    def send_inventory(self, antenna):
        self.send(fr.T_INVENTORY, fr.inventory_payload(antenna.index, antenna.reported))

    def send_all_inventories(self):
        for antenna in self.antennas:
            self.send_inventory(antenna)

    def send_hello(self):
        names = [name for name, _ in cfg.ANTENNAS]
        payload = fr.hello_payload(cfg.BOARD_ID, cfg.FIRMWARE, cfg.HEARTBEAT_MS, names)
        self.send(fr.T_HELLO, payload)
        self.send_all_inventories()

    def send_heartbeat(self):
        uptime = time.ticks_diff(time.ticks_ms(), self.started)
        payload = fr.heartbeat_payload(
            uptime, self.sweeps, self.read_errors, self.deframer.dropped()
        )
        self.send(fr.T_HEARTBEAT, payload)

    def report(self, antenna, code, detail=0):
        """ERROR, at most once a second per antenna and code."""
        now = time.ticks_ms()
        last = antenna.error_at.get(code)
        if last is None or time.ticks_diff(now, last) >= ERROR_REPEAT_MS:
            antenna.error_at[code] = now
            self.send(fr.T_ERROR, fr.error_payload(antenna.index, code, detail))

    # ------------------------------------------------------------ work

    def handle_host(self):
        before = self.deframer.dropped()
        for ftype, _seq, payload in self.deframer.feed(self.link.read()):
            if ftype == fr.T_REQUEST_HELLO:
                self.send_hello()
            elif ftype == fr.T_REQUEST_INVENTORY:
                self.send_all_inventories()
            elif ftype == fr.T_SET_LIGHT:
                self.lights.set(payload[0], payload[1])
        dropped = self.deframer.dropped()
        if dropped != before:
            self.send(fr.T_ERROR, fr.error_payload(fr.BOARD_ANTENNA, fr.E_BAD_COMMAND, dropped))

    def sweep(self, antenna):
        if antenna.reader is None:
            self.report(antenna, fr.E_NO_READER)
            return
        try:
            seen, outcome = antenna.reader.inventory(cfg.MAX_TAGS)
        except (ReaderFault, OSError):
            self.read_errors += 1
            self.report(antenna, fr.E_READER_FAULT)
            return
        if outcome == INV_MORE:
            self.report(antenna, fr.E_TOO_MANY_TAGS, len(seen))
        elif outcome == INV_COLLISION:
            self.report(antenna, fr.E_COLLISION)
        for uid in seen:
            antenna.misses[uid] = 0
        for uid in list(antenna.misses):
            if uid not in seen:
                antenna.misses[uid] += 1
                if antenna.misses[uid] >= cfg.MISSES_BEFORE_GONE:
                    del antenna.misses[uid]
        now = [uid for uid in antenna.reported if uid in antenna.misses]
        now += [uid for uid in antenna.misses if uid not in now]
        if now != antenna.reported:
            antenna.reported = now
            self.send_inventory(antenna)

    def run(self, watchdog):
        self.send_hello()
        if machine.reset_cause() == machine.WDT_RESET:
            self.send(fr.T_ERROR, fr.error_payload(fr.BOARD_ANTENNA, fr.E_RESTARTED, 1))
        next_beat = time.ticks_add(time.ticks_ms(), cfg.HEARTBEAT_MS)
        while True:
            for antenna in self.antennas:
                self.handle_host()
                self.sweep(antenna)
            self.sweeps += 1
            now = time.ticks_ms()
            if time.ticks_diff(now, next_beat) >= 0:
                next_beat = time.ticks_add(now, cfg.HEARTBEAT_MS)
                self.send_heartbeat()
            self.lights.show(now)
            if watchdog is not None:
                watchdog.feed()


def main():
    if machine.Pin(cfg.SAFE_PIN, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0:
        print("feltwire: SAFE_PIN is low, staying at the REPL")
        return
    link = UsbLink() if cfg.SERIAL == "usb" else UartLink()
    watchdog = machine.WDT(timeout=cfg.WATCHDOG_MS) if cfg.WATCHDOG_MS else None
    try:
        Board(link).run(watchdog)
    except Exception:  # anything unforeseen: say so, then restart cleanly
        link.write(fr.encode_frame(fr.T_ERROR, 0, fr.error_payload(fr.BOARD_ANTENNA, 6, 2)))
        time.sleep_ms(100)
        machine.reset()


main()
