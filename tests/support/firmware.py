"""The reader board's MicroPython firmware (``hardware/firmware/``), imported by path in
CPython so the tests run the real firmware code against the bridge's."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

FIRMWARE = Path(__file__).resolve().parents[2] / "hardware" / "firmware"


def load_firmware_module(name: str) -> ModuleType:
    """Import hardware/firmware/<name>.py by path, as MicroPython would import it."""
    spec = importlib.util.spec_from_file_location(f"firmware_{name}", FIRMWARE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
