"""The PyPI ``mfrc522`` package as a reader backend, against the emulated chip."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from feltwire.config import load_config
from table_node.config import NodeConfig
from table_node.emulation import MFRC522Emulator, Tag, VirtualClock, fake_pi_modules
from table_node.main import build_readers
from table_node.mfrc522_backend import Mfrc522Reader

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mfrc522") is None,
    reason="PyPI mfrc522 not installed: pip install --no-deps mfrc522==0.0.7 (scripts/test does)",
)


@pytest.fixture
def chip_and_lib(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[MFRC522Emulator, ModuleType]]:
    chip = MFRC522Emulator(clock=VirtualClock())
    for name, module in fake_pi_modules({(0, 0): chip}).items():
        monkeypatch.setitem(sys.modules, name, module)
    for loaded in [m for m in sys.modules if m.startswith("mfrc522")]:
        monkeypatch.delitem(sys.modules, loaded)
    yield chip, importlib.import_module("mfrc522")
    for loaded in [m for m in sys.modules if m.startswith("mfrc522")]:
        del sys.modules[loaded]


def test_one_card_is_reported_steadily_and_gone_after_two_misses(
    chip_and_lib: tuple[MFRC522Emulator, ModuleType],
) -> None:
    chip, lib = chip_and_lib
    reader = Mfrc522Reader("burn", library=lib)
    assert reader.inventory() == frozenset()
    chip.place(Tag.from_hex("DEADBEEF"))
    sweeps = [reader.inventory() for _ in range(6)]
    # the library only gets every other answer from a card left on the antenna;
    # the debounce keeps it present throughout
    assert all(s == {"DEADBEEF"} for s in sweeps[1:])
    chip.remove(Tag.from_hex("DEADBEEF"))
    gone = [reader.inventory() for _ in range(2)]  # two misses at most
    assert gone[-1] == frozenset()
    reader.close()


def test_limit_7_byte_uids_truncate(chip_and_lib: tuple[MFRC522Emulator, ModuleType]) -> None:
    chip, lib = chip_and_lib
    reader = Mfrc522Reader("seat1", library=lib)
    chip.place(Tag.from_hex("04A2249A6B1D80"))
    got = set().union(*(reader.inventory() for _ in range(3)))
    assert got == {"8804A224"}  # cascade tag + first three bytes, as documented


def test_limit_two_cards_on_the_antenna_read_as_nothing(
    chip_and_lib: tuple[MFRC522Emulator, ModuleType],
) -> None:
    chip, lib = chip_and_lib
    reader = Mfrc522Reader("seat1", library=lib)
    chip.place(Tag.from_hex("04A2249A6B1D80"))
    chip.place(Tag.from_hex("DEADBEEF"))
    assert [reader.inventory() for _ in range(6)] == [frozenset()] * 6  # a collision


def test_node_config_builds_mfrc522_readers(
    chip_and_lib: tuple[MFRC522Emulator, ModuleType], tmp_path: Path
) -> None:
    chip, _ = chip_and_lib
    f = tmp_path / "node.toml"
    f.write_text('backend = "mfrc522"\n[[mfrc522]]\nreader = "burn"\n')
    readers = build_readers(load_config(NodeConfig, f))
    assert [r.reader_id for r in readers] == ["burn"]
    chip.place(Tag.from_hex("CAFEBABE"))
    assert readers[0].inventory() == {"CAFEBABE"}
    readers[0].close()
