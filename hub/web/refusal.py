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

A request body that does not pass its model is a 422 with FastAPI's list of problems as
``detail`` and a text too: the one its check raised (:class:`BodyRefusal`, a
``refusal.body.*`` key), or ``refusal.body.invalid`` naming the fields at fault.
"""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response

from feltwire.text import Text
from hub.messages import render

__all__ = ["BodyRefusal", "Refusal", "body_of", "invalid_body", "refused"]


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


class BodyRefusal(ValueError):
    """A request body's own check refused it (raised in a pydantic validator, which makes
    it a 422): the catalog text says why; ``str()`` is the English."""

    def __init__(self, text: Text) -> None:
        super().__init__(render(text, "en"))
        self.text = text


def _field(location: tuple[Any, ...] | list[Any]) -> str:
    """``("body", "amount")`` → ``amount``; the body as a whole → ``body``."""
    parts = [str(p) for p in location[1:]] if len(location) > 1 else [str(p) for p in location]
    return ".".join(parts)


def body_text(exc: RequestValidationError) -> Text:
    """What a 422 says to people: the first :class:`BodyRefusal` among the problems, or
    ``refusal.body.invalid`` with the fields at fault (in the order FastAPI lists them).

    >>> from pydantic import BaseModel, ValidationError
    >>> class Body(BaseModel):
    ...     amount: int
    >>> try:
    ...     Body.model_validate({"amount": "lots"})
    ... except ValidationError as err:
    ...     problems = err.errors()
    >>> render(body_text(RequestValidationError(
    ...     [p | {"loc": ("body", *p["loc"])} for p in problems])), "cs")
    'tělo požadavku nelze přijmout: amount'
    """
    fields: list[str] = []
    for problem in exc.errors():
        error = problem.get("ctx", {}).get("error")
        if isinstance(error, BodyRefusal):
            return error.text
        field = _field(problem.get("loc", ()))
        if field not in fields:
            fields.append(field)
    return Text("refusal.body.invalid", {"fields": ", ".join(fields) or "body"})


async def invalid_body(request: Request, exc: Exception) -> Response:
    """The app's handler of FastAPI's :class:`RequestValidationError`: the 422 FastAPI
    answers (``detail``, its list of problems), with :func:`body_text` as ``text``."""
    assert isinstance(exc, RequestValidationError)
    body = {"detail": jsonable_encoder(exc.errors()), "text": body_text(exc).as_json()}
    return JSONResponse(body, 422)
