"""The pages' scripts are native ES modules (hub/web/static: an entry module per page, its
parts under static/<page>/, the shared library under static/lib/): the hub serves every
module with a JavaScript MIME type (a browser refuses a module script otherwise), and each
of the four pages loads, goes live and switches language in headless Chromium without a
single script error (a module that fails to import would leave its page silently dead)."""

from __future__ import annotations

from typing import Any

import httpx

from hub.web.auth import Role
from tests.support.console_rig import WAIT, rig
from tests.support.pages import STATIC

JS_TYPES = {"text/javascript", "application/javascript"}
MODULES = sorted(p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*.js"))


def script_error(page: str, msg: Any) -> list[str]:
    """A console message that is an error, unless it is the browser's own favicon request
    (the hub serves no /favicon.ico)."""
    if msg.type != "error" or msg.location.get("url", "").endswith("/favicon.ico"):
        return []
    return [f"{page}: {msg.text} ({msg.location.get('url')})"]


async def test_every_module_is_served_as_javascript() -> None:
    assert {"lib/dom.js", "lib/cards.js", "lib/feed.js", "lib/i18n.js"} <= set(MODULES)
    async with rig() as r, httpx.AsyncClient(base_url=r.hub.web_url) as http:
        for module in MODULES:
            response = await http.get(f"/static/{module}")
            assert response.status_code == 200, module
            kind = response.headers["content-type"].split(";")[0].strip()
            assert kind in JS_TYPES, (module, kind)


async def test_the_four_pages_run_their_modules_without_a_script_error(browser: Any) -> None:
    async with rig() as r:
        context = await browser.new_context(viewport={"width": 1920, "height": 1080})
        errors: list[str] = []
        pages = {
            "console": f"{r.hub.web_url}/console?token={r.hub.token(Role.DEALER)}&lang=en",
            "overlay": f"{r.hub.overlay_url}&lang=en",
            "public": f"{r.hub.web_url}/?lang=en",
            "login": f"{r.hub.web_url}/login?lang=en",
        }
        for name, url in pages.items():
            page = await context.new_page()
            page.on("pageerror", lambda exc, name=name: errors.append(f"{name}: {exc}"))
            page.on("console", lambda msg, name=name: errors.extend(script_error(name, msg)))
            await page.goto(url)
            if name == "login":
                await page.wait_for_selector("#login-form:not([hidden])", timeout=WAIT)
            elif name == "overlay":
                await page.wait_for_function(
                    "document.body.dataset.status === 'live'", timeout=WAIT
                )
            else:
                await page.wait_for_selector("#status[data-state='live']", timeout=WAIT)
            assert await page.evaluate("typeof FW.i18n.alertParts") == "function", name
            await page.evaluate("FW.i18n.set('cs')")
            await page.wait_for_function("document.documentElement.lang === 'cs'", timeout=WAIT)
        assert errors == []
        await context.close()
