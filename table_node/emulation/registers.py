"""The MFRC522's register map, interrupt and error bits and commands (NXP data sheet).

Written from the data sheet for the emulator alone: :mod:`table_node.rc522` keeps its own
constants, so a misread register in one cannot hide the same misreading in the other.
"""

from __future__ import annotations

# Register addresses (MFRC522 data sheet, table 20).
COMMAND = 0x01
COM_IEN = 0x02
DIV_IEN = 0x03
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
STATUS1 = 0x07
STATUS2 = 0x08
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
WATER_LEVEL = 0x0B
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_MODE = 0x12
RX_MODE = 0x13
TX_CONTROL = 0x14
TX_ASK = 0x15
CRC_RESULT_H = 0x21
CRC_RESULT_L = 0x22
DEMOD = 0x19
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
T_COUNTER_H = 0x2E
T_COUNTER_L = 0x2F
VERSION = 0x37

READ_ONLY = frozenset(
    {ERROR, STATUS1, CRC_RESULT_H, CRC_RESULT_L, T_COUNTER_H, T_COUNTER_L, VERSION}
)
RESET_VALUES = {
    COMMAND: 0x20,
    COM_IEN: 0x80,
    WATER_LEVEL: 0x08,
    CONTROL: 0x10,
    COLL: 0xA0,
    MODE: 0x3F,
    TX_CONTROL: 0x80,
    0x16: 0x10,  # TxSelReg
    0x17: 0x84,  # RxSelReg
    0x18: 0x84,  # RxThresholdReg
    DEMOD: 0x4D,
    0x1C: 0x62,  # MfTxReg
    0x1F: 0xEB,  # SerialSpeedReg
    CRC_RESULT_H: 0xFF,
    CRC_RESULT_L: 0xFF,
    0x24: 0x26,  # ModWidthReg
    0x26: 0x48,  # RFCfgReg
    0x27: 0x88,  # GsNReg
    0x28: 0x20,  # CWGsPReg
    0x29: 0x20,  # ModGsPReg
    0x33: 0x80,  # TestPinEnReg
    0x36: 0x40,  # AutoTestReg
}

# ComIrqReg bits.
TIMER_IRQ = 0x01
ERR_IRQ = 0x02
LO_ALERT_IRQ = 0x04
HI_ALERT_IRQ = 0x08
IDLE_IRQ = 0x10
RX_IRQ = 0x20
TX_IRQ = 0x40
# DivIrqReg bits.
CRC_IRQ = 0x04
# ErrorReg bits.
PROTOCOL_ERR = 0x01
PARITY_ERR = 0x02
CRC_ERR = 0x04
COLL_ERR = 0x08
BUFFER_OVFL = 0x10
RX_ERRORS = PROTOCOL_ERR | PARITY_ERR | CRC_ERR | COLL_ERR
# Commands.
CMD_IDLE = 0x0
CMD_MEM = 0x1
CMD_GENERATE_RANDOM_ID = 0x2
CMD_CALC_CRC = 0x3
CMD_TRANSMIT = 0x4
CMD_NO_CMD_CHANGE = 0x7
CMD_RECEIVE = 0x8
CMD_TRANSCEIVE = 0xC
CMD_MF_AUTHENT = 0xE
CMD_SOFT_RESET = 0xF
KNOWN_COMMANDS = {
    CMD_IDLE,
    CMD_MEM,
    CMD_GENERATE_RANDOM_ID,
    CMD_CALC_CRC,
    CMD_TRANSMIT,
    CMD_NO_CMD_CHANGE,
    CMD_RECEIVE,
    CMD_TRANSCEIVE,
    CMD_MF_AUTHENT,
    CMD_SOFT_RESET,
}

#: The CRC coprocessor's presets, by ModeReg.CRCPreset.
CRC_PRESETS = (0x0000, 0x6363, 0xA671, 0xFFFF)
