"""Issue 7, acceptance 1 end to end: a raise entered on the dealer console page (a real
click and keyboard in headless Chromium) reaches the producer's overlay and the public
view open in the same browser; the public view and the console never show a hole card
while the overlay (live, in this config) shows them."""

from __future__ import annotations

from typing import Any

from hub.web.auth import Role
from tests.support.console_rig import HOLE, WAIT, choose_and_confirm, rig, wait_acting


async def bet_shown(page: Any, seat: int, amount: int) -> None:
    """Wait until the page shows ``amount`` as the seat's bet (the shared data contract)."""
    await page.wait_for_function(
        """([seat, amount]) => {
          const el = document.querySelector(`[data-seat="${seat}"] [data-field=bet]`);
          return el !== null && el.textContent.replace(/[^0-9]/g, '') === String(amount);
        }""",
        arg=[seat, amount],
        timeout=WAIT,
    )


async def test_a_raise_on_the_console_reaches_the_overlay_and_the_public_view(
    browser: Any,
) -> None:
    async with rig(live=True) as r:
        sb, _bb, button = r.seats
        context = await browser.new_context(viewport={"width": 1920, "height": 1080})
        console = await context.new_page()
        overlay = await context.new_page()
        public = await context.new_page()
        await console.goto(f"{r.hub.web_url}/console?token={r.hub.token(Role.DEALER)}&lang=en")
        await overlay.goto(f"{r.hub.overlay_url}&lang=en")
        await public.goto(f"{r.hub.web_url}/?lang=en")
        await console.wait_for_selector("#status[data-state='live']", timeout=WAIT)
        await r.deal_hole_cards()
        # pre-flop the button acts first three-handed: raise to 60 on the console page
        await wait_acting(console, button)
        await choose_and_confirm(console, "r", 60)
        await wait_acting(console, sb)
        for page in (console, overlay, public):
            await bet_shown(page, button, 60)
            await page.wait_for_function(
                """(seat) => {
                  const el = document.querySelector(`[data-seat="${seat}"] [data-field=stack]`);
                  return el !== null && el.textContent.replace(/[^0-9]/g, '') === '940';
                }""",
                arg=button,
                timeout=WAIT,
            )
        assert r.bet(button) == 60
        # the overlay shows the hole cards (live here); the console and the public view not
        overlay_html = await overlay.content()
        assert any(f'data-card="{c}"' in overlay_html for c in HOLE)
        for page in (console, public):
            html = await page.content()
            assert not [c for c in HOLE if f'data-card="{c}"' in html]
        await context.close()
