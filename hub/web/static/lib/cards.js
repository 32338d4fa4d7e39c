// feltwire card codes ("As", "Td", "7c": rank then suit, as the hub sends them) shown as
// playing cards. Every page draws a card the same way:
//   <div class="card red" data-card="Ah"><span class="rank">A</span><span class="suit">♥</span></div>
// and a face-down card (the hub never names a hole card it must not) as <div class="card back">;
// an antenna whose reader is offline (nothing known of what lies there) as
//   <div class="card unknown" data-unknown="true" title="reader offline">?</div>.

export const SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };

/** The rank as printed on a card: "10" for T, else the code's own letter or digit. */
export function rankText(code) {
  return code[0] === "T" ? "10" : code[0];
}

/** The suit's symbol (♣ ♦ ♥ ♠), "?" for a code the hub should not have sent. */
export function suitSymbol(code) {
  return SUITS[code[1]] || "?";
}

/** Diamonds and hearts are printed red. */
export function isRed(code) {
  return code[1] === "d" || code[1] === "h";
}

/** A card element for `code`, or a face-down card when `code` is empty. `tag` is the
 * element's name ("div" on the public view and overlay, "span" inline on the console). */
export function cardEl(code, tag = "div") {
  const e = document.createElement(tag);
  if (!code) {
    e.className = "card back";
    return e;
  }
  e.className = "card" + (isRed(code) ? " red" : "");
  e.dataset.card = code;
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = rankText(code);
  const suit = document.createElement("span");
  suit.className = "suit";
  suit.textContent = suitSymbol(code);
  e.append(rank, suit);
  return e;
}

/** The mark of an antenna whose reader is offline: a greyed "?" card, `title` saying so. */
export function unknownCardEl(title, tag = "div") {
  const e = document.createElement(tag);
  e.className = "card unknown";
  e.dataset.unknown = "true";
  e.title = title;
  e.textContent = "?";
  return e;
}
