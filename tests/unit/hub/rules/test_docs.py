"""The runnable examples in the docstrings of hub.rules and hub.cli.history stay true."""

from __future__ import annotations

import doctest

import pytest

from tests.support.doctests import assert_examples_pass

MODULES = [
    "hub.rules.errors",
    "hub.rules.games",
    "hub.rules.pots",
    "hub.rules.betting",
    "hub.rules.dealing",
    "hub.rules.showdown",
    "hub.rules.hand",
    "hub.rules.phh",
    "hub.rules.evaluator",
    "hub.rules.evaluator_tables",
    "hub.rules.procedure",
    "hub.rules.procedure.inputs",
    "hub.rules.procedure.events",
    "hub.rules.procedure.monitor",
    "hub.rules.antennas",
    "hub.rules.table",
    "hub.rules.table.blinds",
    "hub.rules.table.config",
    "hub.rules.table.errors",
    "hub.rules.table.events",
    "hub.rules.table.seating",
    "hub.rules.table.table",
    "hub.rules.tournament",
    "hub.rules.rake",
    "hub.cli.history",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    """Each module's examples run and print what they show."""
    assert_examples_pass(name, flags=doctest.ELLIPSIS)
