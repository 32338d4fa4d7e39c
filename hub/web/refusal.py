"""An HTTP refusal as people read it: the English ``detail`` and the catalog text.

A route that refuses a request raises a :class:`Refusal` with the
:class:`~feltwire.text.Text` that says why (a ``refusal.*`` key of the message catalog,
seats as the table numbers them, never a hole card). The answer keeps FastAPI's shape —
``{"detail": "<the English sentence>"}``, what every client has always read — and adds
the structured text a page renders in its reader's language:

    {"detail": "R-BET-10: seat 5 acted out of turn; seat 7 is to act",
     "text": {"key": "refusal.ruled", "params": {"rule": "R-BET-10", "reason": {…}}}}

>>> from feltwire.text import Seat
>>> err = Refusal(409, Text("refusal.console.seat_folded", {"seat": Seat(4)}))
>>> err.detail, body_of(err)["text"]["key"]
('seat 4 has folded', 'refusal.console.seat_folded')
"""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException, Request
from fastapi.responses import JSONResponse, Response

from feltwire.text import Text
from hub.messages import render

__all__ = ["Refusal", "body_of", "refused"]


class Refusal(HTTPException):
    """An HTTP error whose reason is a catalog text: ``detail`` is its English rendering
    (clients that read ``detail`` read what they always did), ``text`` the text itself."""

    def __init__(self, status_code: int, text: Text, headers: dict[str, str] | None = None):
        super().__init__(status_code=status_code, detail=render(text, "en"), headers=headers)
        self.text = text


def body_of(err: Refusal) -> dict[str, Any]:
    """The JSON body of a refusal: ``{"detail": <English>, "text": {"key", "params"}}``."""
    return {"detail": err.detail, "text": err.text.as_json()}


async def refused(request: Request, exc: Exception) -> Response:
    """The app's handler of :class:`Refusal` (:func:`hub.web.app.create_app`): its status
    and headers, and :func:`body_of` as the body."""
    assert isinstance(exc, Refusal)
    return JSONResponse(body_of(exc), exc.status_code, headers=exc.headers)
