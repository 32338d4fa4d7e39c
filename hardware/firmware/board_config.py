"""Settings of one RP2040 reader board (Raspberry Pi Pico): edit, then copy to the board.

Pin numbers are GPIO numbers (GPn), not package pins. See README.md for the wiring.
"""

BOARD_ID = "rp2040-1"  # 1-32 of A-Z a-z 0-9 _ - ; appears in the bridge's logs
FIRMWARE = "0.1.0"
HEARTBEAT_MS = 1000  # the bridge's heartbeat_timeout_s should be >= 3x this

# Link to the host: "usb" (USB CDC, the Pico's own USB port) or "uart" (UART0 below).
SERIAL = "usb"
UART_ID = 0
UART_TX = 0
UART_RX = 1
UART_BAUD = 115200

# SPI bus shared by every RC522 (SPI0): SCK GP18, MOSI GP19, MISO GP16.
SPI_ID = 0
SPI_SCK = 18
SPI_MOSI = 19
SPI_MISO = 16
SPI_BAUD = 4_000_000  # the RC522 allows 10 MHz; 4 MHz is safe on long ribbon cables
RST_PIN = 22  # shared NRSTPD of every RC522 (high = running)

# One entry per antenna, in antenna-index order: (reader id or "", chip-select GPIO).
# The name is what the bridge publishes unless its config maps the index itself.
ANTENNAS = (
    ("seat1", 17),
    ("seat2", 2),
    ("seat3", 3),
    ("seat4", 4),
    ("seat5", 5),
    ("seat6", 6),
    ("seat7", 7),
    ("seat8", 8),
    ("seat9", 9),
    ("seat10", 10),
    ("board", 11),
    ("burn", 12),
    ("muck", 13),
)

MAX_TAGS = 8  # tags resolved per antenna per sweep (hobby antennas read <= 2 stacked)
MISSES_BEFORE_GONE = 2  # a tag left on an antenna can miss one sweep; report it gone after 2

# Seat lights: a WS2812 strip, pixel n-1 for seat n. LIGHT_PIN = None for no lights.
LIGHT_PIN = 28
LIGHT_COUNT = 10

# Hold this GPIO low (jumper to GND) at power-up to stay at the REPL for mpremote.
SAFE_PIN = 15
WATCHDOG_MS = 5000
