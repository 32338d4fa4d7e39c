"""The sign-in page in a real headless Chromium: a producer who opens the overlay without
signing in is sent to /login, reads it in Czech, mistypes, signs in, lands on the overlay
(its feed live over the session cookie) and signs out again."""

from __future__ import annotations

from typing import Any

from tests.support.web_hub import PASSWORD, running_hub

WAIT = 30_000  # ms: Chromium is slow on this machine


async def test_producer_signs_in_through_the_login_page(browser: Any) -> None:
    async with running_hub() as hub:
        page = await browser.new_page()
        await page.goto(hub.web_url + "/overlay", timeout=WAIT)
        await page.wait_for_url("**/login?next=%2Foverlay", timeout=WAIT)
        await page.wait_for_selector("#login-form:not([hidden])", timeout=WAIT)
        assert await page.inner_text("#submit") == "Sign in"
        assert not await page.is_visible("#sign-out")  # nobody is signed in yet
        await page.click("[data-lang='cs']")
        assert await page.inner_text("[data-i18n='login.name']") == "Jméno"
        assert await page.inner_text("#submit") == "Přihlásit"

        await page.fill("#name", "producer-user")
        await page.fill("#password", "not the password")
        await page.click("#submit")
        await page.wait_for_function(
            "document.getElementById('message').textContent.includes('Špatné jméno')",
            timeout=WAIT,
        )
        await page.click("[data-lang='en']")
        await page.wait_for_function(
            "document.getElementById('message').textContent === 'Wrong name or password.'",
            timeout=WAIT,
        )

        await page.fill("#password", PASSWORD)
        await page.click("#submit")
        await page.wait_for_url("**/overlay", timeout=WAIT)
        await page.wait_for_function(
            "document.getElementById('status').textContent === 'live'", timeout=WAIT
        )
        cookies = {c["name"]: c for c in await page.context.cookies()}
        session = cookies["feltwire_session"]
        assert session["httpOnly"] and session["sameSite"] == "Strict"
        assert await page.evaluate("document.cookie") == ""  # no script can read it
        csrf = await page.get_attribute("meta[name='csrf-token']", "content")
        assert csrf

        # the overlay's feed was opened over the session cookie, and audited
        opens = [(e.outcome, e.route, e.name, e.via) for e in hub.auth.audit.read()]
        assert ("open", "/ws/overlay", "producer-user", "session") in opens

        await page.goto(hub.web_url + "/login", timeout=WAIT)
        await page.wait_for_selector("#signed-in:not([hidden])", timeout=WAIT)
        assert "producer-user" in await page.inner_text("#who")
        assert not await page.is_visible("#login-form")
        await page.click("#sign-out")
        await page.wait_for_selector("#login-form", state="visible", timeout=WAIT)
        assert not await page.is_visible("#sign-out")
        await page.goto(hub.web_url + "/overlay", timeout=WAIT)
        await page.wait_for_url("**/login?next=%2Foverlay", timeout=WAIT)
