"""The runnable examples in the docstrings of hub.rules and hub.cli.history stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "hub.rules.errors",
    "hub.rules.games",
    "hub.rules.pots",
    "hub.rules.betting",
    "hub.rules.dealing",
    "hub.rules.showdown",
    "hub.rules.hand",
    "hub.rules.phh",
    "hub.cli.history",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    """Each module's examples run and print what they show."""
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
