"""Errors of the message catalog: one root, each also the builtin it resembles.

>>> issubclass(DuplicateKeyError, CatalogError) and issubclass(DuplicateKeyError, ValueError)
True
"""

from __future__ import annotations

from feltwire.errors import FeltwireError


class MessagesError(FeltwireError):
    """Root of every error :mod:`hub.messages` raises on purpose."""


class CatalogError(MessagesError, ValueError):
    """A catalog file that is not a valid set of entries (a missing language, placeholders
    that differ between the languages, a stray brace, a bad key)."""


class DuplicateKeyError(CatalogError):
    """The same key in two catalog files (or twice in one)."""


class UnknownKeyError(MessagesError, KeyError):
    """A text whose key the catalog has no entry for."""

    def __str__(self) -> str:  # KeyError quotes its argument; this is a sentence
        return str(self.args[0]) if self.args else ""


class ParamsError(MessagesError, ValueError):
    """A text whose parameters do not fit its entry: one missing, one too many, or one
    of the wrong kind."""


class UnknownLanguageError(MessagesError, ValueError):
    """A language the catalog has no texts in."""
