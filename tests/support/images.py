"""Small real image files for the branding tests (a logo, a player's photo)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A valid PNG of one colour, ``width`` x ``height`` pixels."""
    row = b"\x00" + bytes(rgb) * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(row * height))
        + _chunk(b"IEND", b"")
    )


def write_png(
    path: Path, width: int = 64, height: int = 32, rgb: tuple[int, int, int] = (200, 30, 40)
) -> Path:
    """Write :func:`png` to ``path``; the path."""
    path.write_bytes(png(width, height, rgb))
    return path
