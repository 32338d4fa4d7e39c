"""Every web route and WebSocket of the real hub, tried with every kind of credential.

The test is driven by the app's own route table: each route must carry exactly one access
rule (:class:`hub.web.auth.Access`) — a route added without one fails here by name — and
is then called without a credential, with a public token, with a session and a token of
each role, and with a forged, an expired and a garbled token. The roles its rule allows
(admin always) must get through to the handler (a 404/409/422 of the handler counts as
through); every other credential must be refused with 401/403 by the rule (WebSocket: the
handshake refused). Requests carry valid path and query parameters and a minimal valid
body built from the route's own schema, so allowed calls reach the handler.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, APIWebSocketRoute
from fastapi.staticfiles import StaticFiles
from starlette.routing import Mount
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from hub.bootstrap import HubRuntime
from hub.web.app import STATIC
from hub.web.auth import ACCESS_HEADER, Access, Role, TokenSigner
from tests.support.web_hub import SECRET, SignedIn, app_of, running_hub, sign_in

STATIC_SUFFIXES = {".html", ".js", ".css"}


def access_rules(dep: Dependant) -> list[Access]:
    """Every access rule in a route's dependency tree."""
    found = [dep.call] if isinstance(dep.call, Access) else []
    for sub in dep.dependencies:
        found += access_rules(sub)
    return found


@dataclass(frozen=True)
class Credential:
    """One way of calling a route: ``role`` None = a bad credential (refused everywhere)."""

    label: str
    role: Role | None
    token: str | None = None
    how: str = "bearer"  # bearer | header | query
    session_role: str | None = None

    def describe(self) -> str:
        return self.label


def credentials(hub: HubRuntime) -> list[Credential]:
    """Every kind of caller the test tries."""
    good = TokenSigner(SECRET.encode())
    other_hub = TokenSigner(b"another hub's secret, not ours!")
    expired = TokenSigner(SECRET.encode(), clock=lambda: time.time() - 7200)
    admin = good.issue(Role.ADMIN, "root", seconds=600)
    claims = admin.split(".")[1]
    return [
        Credential("no credential", Role.PUBLIC),
        Credential("public token", Role.PUBLIC, good.issue(Role.PUBLIC, "viewer", seconds=600)),
        Credential("dealer session", Role.DEALER, session_role="dealer"),
        Credential("dealer token", Role.DEALER, hub.token(Role.DEALER), how="header"),
        Credential("producer token", Role.PRODUCER, hub.token(Role.PRODUCER)),
        Credential("producer config token", Role.PRODUCER, hub.producer_token, how="query"),
        Credential("producer session", Role.PRODUCER, session_role="producer"),
        Credential("admin token", Role.ADMIN, admin, how="query"),
        Credential("admin session", Role.ADMIN, session_role="admin"),
        Credential(
            "forged token (other secret)", None, other_hub.issue(Role.ADMIN, "x", seconds=600)
        ),
        Credential("forged token (claims swapped)", None, f"fwt1.{claims}.{'A' * 43}"),
        Credential("expired token", None, expired.issue(Role.ADMIN, "root", seconds=60)),
        Credential("garbled token", None, "fwt1.%%%.!!!", how="query"),
        Credential("not a token", None, "hunter2"),
    ]


# ---------------------------------------------------------------- values from the schema


def resolve(schema: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        node: Any = spec
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def example(schema: dict[str, Any], spec: dict[str, Any]) -> Any:
    """A minimal value valid for a JSON schema (of the app's OpenAPI document)."""
    schema = resolve(schema, spec)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    if "default" in schema:
        return schema["default"]
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            options = [o for o in schema[key] if resolve(o, spec).get("type") != "null"]
            return example(options[0] if options else schema[key][0], spec)
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object":
        props = schema.get("properties", {})
        return {k: example(props[k], spec) for k in schema.get("required", []) if k in props}
    if kind == "array":
        return [example(schema.get("items", {}), spec)] * int(schema.get("minItems", 0))
    if kind == "string":
        return "x" * max(1, int(schema.get("minLength", 1)))
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", 0) + 1)
        return int(low) if kind == "integer" else float(low)
    if kind == "boolean":
        return False
    return None


@dataclass
class Call:
    """One route's method, concrete path, query and body."""

    method: str
    path: str
    params: dict[str, Any]
    body: Any = None
    has_body: bool = False


def calls_of(route: APIRoute, spec: dict[str, Any], table: str) -> Iterator[Call]:
    """A valid request for each method of ``route`` (from its OpenAPI operation)."""
    for method in sorted(route.methods or ()):
        if method == "HEAD":
            continue
        op = spec["paths"].get(route.path_format, {}).get(method.lower(), {})
        path, params = route.path_format, {}
        for p in op.get("parameters", []):
            value = table if p["name"] == "table" else example(p.get("schema", {}), spec)
            if p["in"] == "path":
                path = path.replace("{" + p["name"] + "}", str(value))
            elif p["in"] == "query" and (p.get("required") or p["name"] == "table"):
                params[p["name"]] = value
        call = Call(method, path, params)
        content = op.get("requestBody", {}).get("content", {})
        if "application/json" in content:
            call.body = example(content["application/json"].get("schema", {}), spec)
            call.has_body = True
        yield call


# ---------------------------------------------------------------- the test


async def try_http(
    http: httpx.AsyncClient, call: Call, cred: Credential, session: SignedIn | None
) -> httpx.Response:
    headers: dict[str, str] = {}
    params = dict(call.params)
    if session is not None:
        headers |= session.headers()
    if cred.token is not None:
        if cred.how == "bearer":
            headers["Authorization"] = f"Bearer {cred.token}"
        elif cred.how == "header":
            headers["X-Feltwire-Token"] = cred.token
        else:
            params["token"] = cred.token
    kwargs: dict[str, Any] = {"json": call.body} if call.has_body else {}
    return await http.request(call.method, call.path, params=params, headers=headers, **kwargs)


async def try_ws(
    hub: HubRuntime, path: str, cred: Credential, session: SignedIn | None
) -> tuple[bool, str]:
    """Whether the handshake was accepted (and what was refused, if not)."""
    url = hub.web_url.replace("http", "ws", 1) + path
    headers: dict[str, str] = {}
    if session is not None:
        headers |= session.headers(csrf=False)
    if cred.token is not None:
        if cred.how == "query":
            url += f"?token={cred.token}"
        else:
            headers["Authorization"] = f"Bearer {cred.token}"
    try:
        async with connect(url, additional_headers=headers, open_timeout=20):
            return True, ""
    except InvalidStatus as exc:
        return False, f"HTTP {exc.response.status_code}"


async def test_every_route_admits_exactly_its_roles(tmp_path: Path) -> None:
    async with running_hub(tmp_path / "state") as hub:
        app = app_of(hub)
        spec = app.openapi()
        table = hub.service.table
        creds = credentials(hub)
        problems: list[str] = []
        tried = 0
        async with httpx.AsyncClient(base_url=hub.web_url, timeout=30) as http:

            async def session_for(cred: Credential) -> SignedIn | None:
                # a fresh session for every call: a sign-out route must not end the next
                if cred.session_role is None:
                    return None
                signed = await sign_in(http, cred.session_role)
                http.cookies.clear()
                return signed

            for route in app.routes:
                if isinstance(route, Mount):
                    continue  # the static files: test_static_mount_serves_only_page_assets
                if not isinstance(route, APIRoute | APIWebSocketRoute):
                    problems.append(f"{route!r}: not an API route, so it cannot carry a rule")
                    continue
                rules = access_rules(route.dependant)
                if len(rules) != 1:
                    problems.append(
                        f"{route.path} ({route.name}): {len(rules)} access rules, needs exactly 1"
                    )
                    continue
                rule = rules[0]
                if rule.audit is not None and rule.roles - {Role.PRODUCER, Role.ADMIN}:
                    problems.append(f"{route.path} carries hole cards but {rule!r}")
                for cred in creds:
                    allowed = cred.role is Role.ADMIN or cred.role in rule.roles
                    if isinstance(route, APIWebSocketRoute):
                        session = await session_for(cred)
                        accepted, why = await try_ws(hub, route.path, cred, session)
                        tried += 1
                        if accepted != allowed:
                            problems.append(
                                f"WS {route.path} {rule!r} with {cred.label}: "
                                f"{'accepted' if accepted else 'refused (' + why + ')'}"
                            )
                        continue
                    for call in calls_of(route, spec, table):
                        session = await session_for(cred)
                        r = await try_http(http, call, cred, session)
                        tried += 1
                        refused = r.headers.get(ACCESS_HEADER) == "refused"
                        where = f"{call.method} {route.path} {rule!r} with {cred.label}"
                        if r.status_code >= 500:
                            problems.append(f"{where}: {r.status_code} {r.text[:200]}")
                        elif allowed and refused:
                            problems.append(f"{where}: refused {r.status_code} {r.text[:200]}")
                        elif not allowed:
                            expected = 403 if cred.role in (Role.DEALER, Role.PRODUCER) else 401
                            if not refused or r.status_code != expected:
                                problems.append(
                                    f"{where}: {r.status_code} {r.text[:120]}, "
                                    f"expected {expected} from the access rule"
                                )
        assert not problems, "\n".join(problems)
        # the route table really was walked: pages, APIs and both feeds
        paths = {getattr(r, "path", "") for r in app.routes}
        assert {"/", "/overlay", "/ws/overlay", "/ws/public", "/api/session"} <= paths
        card_bearing = {
            getattr(r, "path", "")
            for r in app.routes
            if isinstance(r, APIRoute | APIWebSocketRoute)
            and any(a.audit for a in access_rules(r.dependant))
        }
        assert {"/overlay", "/ws/overlay"} <= card_bearing
        assert tried > 10 * len(creds)


def assert_only_page_assets(directory: Path) -> None:
    """The static directory is the package's, and holds pages, scripts and styles only —
    and the message catalog the pages speak from (``messages/<lang>.json``)."""
    assert directory.resolve() == Path(str(STATIC)).resolve()
    files = [p for p in directory.rglob("*") if p.is_file()]
    catalogs = {p for p in files if p.suffix == ".json"}
    assert {p.relative_to(directory).as_posix() for p in catalogs} == {
        "messages/en.json",
        "messages/cs.json",
    }
    assert files and {p.suffix for p in set(files) - catalogs} <= STATIC_SUFFIXES, files


async def test_static_mount_serves_only_page_assets() -> None:
    async with running_hub() as hub:
        app = app_of(hub)
        mounts = [r for r in app.routes if isinstance(r, Mount)]
        assert [m.path for m in mounts] == ["/static"], "the static files are the only mount"
        static = mounts[0].app
        assert isinstance(static, StaticFiles)
        assert_only_page_assets(Path(str(static.directory)))
        async with httpx.AsyncClient(base_url=hub.web_url) as http:
            assert (await http.get("/static/lib/i18n.js")).status_code == 200
            for sneaky in ("/static/../auth.py", "/static/%2e%2e/auth.py", "/static/..%2fauth.py"):
                r = await http.get(sneaky)
                assert r.status_code == 404, (sneaky, r.status_code)
                assert "TokenSigner" not in r.text
