"""The errors of the hub's web side: one root, :class:`WebError`, and each error also a
builtin, so a caller may catch what it knows (``PermissionError``) or the package's root.

>>> try:
...     raise SignInRefused("wrong name or password")
... except PermissionError as err:
...     isinstance(err, WebError), str(err)
(True, 'wrong name or password')
"""

from __future__ import annotations

from fastapi import HTTPException

from feltwire.errors import FeltwireError


class WebError(FeltwireError):
    """The root of every error the hub's web side raises."""


class AuthError(WebError, PermissionError):
    """A credential that proves nothing: forged, expired or garbled (refused with 401)."""


class SignInRefused(AuthError):
    """A sign-in refused: wrong name or password (the message never says which)."""


class TooManySignIns(AuthError):
    """Sign-in refused without checking the password: too many recent failures."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"too many failed sign-ins; try again in {retry_after:.0f} s")
        self.retry_after = retry_after


class AccessRefused(WebError, HTTPException):
    """An HTTP request refused by an access rule (401 or 403, with the header
    :data:`hub.web.auth.ACCESS_HEADER`); answered by :func:`hub.web.session.refused`."""


__all__ = ["AccessRefused", "AuthError", "SignInRefused", "TooManySignIns", "WebError"]
