"""The runnable examples in the web floor's module docstrings stay true."""

from __future__ import annotations

import doctest

import pytest

from tests.support.doctests import assert_examples_pass


@pytest.mark.parametrize(
    "name",
    [
        "hub.web.errors",
        "hub.web.guard",
        "hub.web.pages",
        "hub.web.refusal",
        "hub.web.server",
        "hub.web.tables",
    ],
)
def test_docstring_examples(name: str) -> None:
    assert_examples_pass(name, flags=doctest.ELLIPSIS)
