"""Running the examples in modules' docstrings as tests."""

from __future__ import annotations

import doctest
import importlib


def assert_examples_pass(*names: str, flags: int = 0) -> None:
    """Every module named has examples in its docstrings, and they all pass."""
    for name in names:
        result = doctest.testmod(importlib.import_module(name), optionflags=flags)
        assert result.attempted > 0 and result.failed == 0, name
