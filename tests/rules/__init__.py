"""The rules tests' old place, kept only so that ``from tests.rules.oracle_pokerkit import …``
(``bench/rules_engine.py``) still finds the PokerKit oracle, now
:mod:`tests.support.oracle_pokerkit`; the rules tests are in ``tests/unit/hub/rules``.
Delete this package once bench imports the oracle from its new place."""

from __future__ import annotations

import sys

from tests.support import oracle_pokerkit

sys.modules[f"{__name__}.oracle_pokerkit"] = oracle_pokerkit
