"""Signing in and out of the hub's web side: the ``/login`` page and ``/api/session``.

* ``GET /login`` — the sign-in page (English and Czech, ``static/login.*``);
* ``POST /api/session`` — a name and a password, as JSON or as a form; on success a
  new session (:mod:`hub.security.sessions`) and its cookie, on failure 401 with the same
  message whatever was wrong; too many failures for the name from this address, or from
  the address: 429 with ``Retry-After`` (:class:`hub.security.limits.SignInLimiter`).
  The address is the TCP peer's, or the client a proxy in ``[web] trusted_proxies``
  names in ``X-Forwarded-For`` (:mod:`hub.web.server`); refusals are logged throttled;
* ``GET /api/session`` — who this request is (name, role, how) and, for a session, its
  CSRF token and expiry;
* ``DELETE /api/session`` — sign out (the session ends on the hub, the cookie is cleared).

The cookie is ``feltwire_session``: ``HttpOnly`` (no script reads it), ``SameSite=Strict``
(no other site's page sends it), ``Path=/``, and ``Secure`` as ``[web] secure_cookies``
says (:meth:`hub.web.auth.WebAuth.cookie_secure`).
"""

from __future__ import annotations

import json
import logging
import math
from html import escape
from typing import Any
from urllib.parse import parse_qs, urlencode

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from hub.web.auth import SESSION_COOKIE, Principal, same_origin
from hub.web.dependencies import PublicDep, auth_of
from hub.web.errors import AccessRefused, SignInRefused, TooManySignIns
from hub.web.pages import page

log = logging.getLogger(__name__)

router = APIRouter()

MAX_BODY = 4096
"""Largest sign-in request body read (bytes)."""


class SignIn(BaseModel):
    """What ``POST /api/session`` takes: a user's name and password."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=1024)


class SessionInfo(BaseModel):
    """Who a request is: what ``GET /api/session`` (and a successful sign-in) returns."""

    signed_in: bool
    """True for a session (signed in at /login) or a token, false for the public."""
    name: str
    role: str
    via: str
    """``session``, ``token`` or ``anonymous``."""
    csrf_token: str | None = None
    """The session's CSRF token, to send as ``X-CSRF-Token`` (sessions only)."""
    expires_at: float | None = None
    """When the session or token ends (seconds since the epoch)."""


def session_info(who: Principal) -> SessionInfo:
    """The answer of ``GET /api/session`` for ``who``."""
    return SessionInfo(
        signed_in=who.via != "anonymous",
        name=who.name,
        role=who.role.value,
        via=who.via,
        csrf_token=who.csrf or None,
        expires_at=who.expires_at,
    )


_SIGN_IN_SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 64},
        "password": {"type": "string", "minLength": 1, "maxLength": 1024},
    },
    "required": ["name", "password"],
    "additionalProperties": False,
}


async def _read_sign_in(request: Request) -> SignIn:
    """The name and password of a sign-in request (JSON or a urlencoded form); 4xx with a
    message when the body is neither."""
    body = await request.body()
    if len(body) > MAX_BODY:
        raise HTTPException(413, f"a sign-in is at most {MAX_BODY} bytes")
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    data: Any
    try:
        if kind == "application/json":
            data = json.loads(body)
        elif kind == "application/x-www-form-urlencoded":
            form = parse_qs(body.decode("utf-8"), keep_blank_values=True, max_num_fields=10)
            data = {k: v[-1] for k, v in form.items()}
        else:
            raise HTTPException(
                415, "send the name and password as application/json or a urlencoded form"
            )
        return SignIn.model_validate(data)
    except (ValueError, UnicodeDecodeError) as exc:
        if isinstance(exc, ValidationError):
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'body'}: {e['msg']}" for e in exc.errors()
            )
            raise HTTPException(422, problems) from None
        raise HTTPException(422, f"the sign-in body is unreadable: {exc}") from None


async def refused(request: Request, exc: Exception) -> Response:
    """An access rule's refusal: JSON as usual, but a browser asking for a page without
    the role gets a page that sends it to ``/login`` and back (still 401/403). The app's
    handler of :class:`~hub.web.errors.AccessRefused` (:func:`hub.web.app.create_app`)."""
    assert isinstance(exc, AccessRefused)
    wants_page = request.method == "GET" and "text/html" in request.headers.get("accept", "")
    if not wants_page:
        return JSONResponse({"detail": exc.detail}, exc.status_code, headers=exc.headers)
    back = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    target = escape("/login?" + urlencode({"next": back}))
    html = (
        '<!doctype html><html><head><meta charset="utf-8">'
        f'<meta http-equiv="refresh" content="0; url={target}"><title>feltwire</title>'
        f'</head><body><p><a href="{target}">{escape(str(exc.detail))}</a></p></body></html>'
    )
    return HTMLResponse(html, exc.status_code, headers=exc.headers)


@router.get("/login", response_class=HTMLResponse)
async def login_page(_: PublicDep) -> str:
    """The sign-in page."""
    return page("login.html")


@router.get("/api/session")
async def whoami(who: PublicDep) -> SessionInfo:
    """Who this request is, and the session's CSRF token."""
    return session_info(who)


@router.post(
    "/api/session",
    responses={
        401: {"description": "wrong name or password"},
        429: {"description": "too many failed sign-ins; see Retry-After"},
    },
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {"schema": _SIGN_IN_SCHEMA},
                "application/x-www-form-urlencoded": {"schema": _SIGN_IN_SCHEMA},
            },
        }
    },
)
async def sign_in(request: Request, response: Response, _: PublicDep) -> SessionInfo:
    """Sign in with a name and a password: a session cookie and the CSRF token."""
    if not same_origin(request):
        raise HTTPException(403, "sign in from the hub's own page")
    creds = await _read_sign_in(request)
    auth = auth_of(request)
    source = request.client.host if request.client is not None else ""
    try:
        session_id, session = await auth.sign_in(creds.name, creds.password, source)
    except TooManySignIns as exc:
        auth.refusal_log.warning(
            "sign-in as %r from %s refused: too many failures", creds.name, source
        )
        raise HTTPException(
            429, str(exc), headers={"Retry-After": str(math.ceil(exc.retry_after))}
        ) from None
    except SignInRefused as exc:
        auth.refusal_log.warning("failed sign-in as %r from %s", creds.name, source)
        raise HTTPException(401, str(exc)) from None
    auth.sign_out(request)  # a session this browser had before ends: no fixation
    log.info("%s %r signed in from %s", session.role, session.name, source)
    info = SessionInfo(
        signed_in=True,
        name=session.name,
        role=session.role,
        via="session",
        csrf_token=session.csrf,
        expires_at=auth.session_expires_at(session),
    )
    response.set_cookie(
        SESSION_COOKIE,
        session_id,
        max_age=int(auth.sessions.absolute),
        path="/",
        secure=auth.cookie_secure(request),
        httponly=True,
        samesite="strict",
    )
    return info


@router.delete("/api/session", status_code=204)
async def sign_out(request: Request, who: PublicDep) -> Response:
    """Sign out: the session ends and its cookie is cleared."""
    auth = auth_of(request)
    if auth.sign_out(request):
        log.info("%s %r signed out", who.role.value, who.name)
    response = Response(status_code=204)
    response.delete_cookie(
        SESSION_COOKIE,
        path="/",
        secure=auth.cookie_secure(request),
        httponly=True,
        samesite="strict",
    )
    return response


__all__ = ["SessionInfo", "SignIn", "refused", "router", "session_info"]
