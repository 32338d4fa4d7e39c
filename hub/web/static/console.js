// feltwire dealer console: the hand, whose turn it is, the legal actions with the engine's
// amounts, undo and misdeal, manual card entry, seats, alerts and the pot award read-out.
// State comes from /ws/console (a console state, then public frames, each burst followed by
// a fresh state); inputs go to /api/console/* through api(). The hub never sends this page
// a hole card before showdown, so it cannot show one.
(function () {
  "use strict";
  const i18n = window.FW.i18n;
  const t = (key, params) => i18n.t(key, params);
  const params = new URLSearchParams(location.search);
  const SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };

  i18n.add({
    en: {
      "console.connecting": "connecting…",
      "console.live": "live",
      "console.reconnecting": "reconnecting…",
      "console.liveWarning": "Hole cards are live on the overlay (allow_live_hole_cards = true): no broadcast delay.",
      "console.pot": "Pot",
      "console.hand": "Hand {hand}",
      "console.handInfo": "Hand {hand} · {game} · {street} · button seat {button}",
      "console.blinds": " · SB seat {sb} · BB seat {bb}",
      "console.noHand": "No hand running — the next starts when the table is clear",
      "console.waiting": "Waiting for the next hand",
      "console.toAct": "Seat {seat} to act",
      "console.toShow": "Showdown: seat {seat} shows or mucks",
      "console.toShowUncalled": "Seat {seat} won uncalled: show all, one card, or muck",
      "console.showCard": "Show card",
      "console.cardShown": "card shown, e.g. As",
      "console.dealing": "Dealing: {phase}",
      "console.fold": "Fold",
      "console.check": "Check",
      "console.call": "Call {amount}",
      "console.bet": "Bet",
      "console.raise": "Raise",
      "console.complete": "Complete",
      "console.bringIn": "Bring in {amount}",
      "console.allIn": "All in {amount}",
      "console.betTo": "Bet to {amount}",
      "console.raiseTo": "Raise to {amount}",
      "console.completeTo": "Complete to {amount}",
      "console.pendingFor": "Seat {seat}: {action}",
      "console.min": "min {amount}",
      "console.max": "max {amount}",
      "console.confirm": "Confirm",
      "console.cancel": "Cancel",
      "console.undo": "Undo",
      "console.misdeal": "Misdeal",
      "console.confirmUndo": "Take back the last action?",
      "console.confirmMisdeal": "Declare a misdeal? The hand is void and every chip goes back.",
      "console.confirmLeave": "Seat {seat} leaves the table?",
      "console.yes": "Yes",
      "console.no": "No",
      "console.show": "Show",
      "console.muck": "Muck",
      "console.showdownSeat": "Seat {seat}",
      "console.alerts": "Alerts",
      "console.noAlerts": "No alerts",
      "console.ack": "Acknowledge",
      "console.acked": "acknowledged",
      "console.seatHand": "seat {seat}",
      "console.manualCard": "Card that will not read",
      "console.enterCard": "Enter card",
      "console.manualHint": "Hole cards: leave the code empty (face down). Board and burn: type the code, e.g. As, Td.",
      "console.seating": "Seats",
      "console.empty": "empty",
      "console.sit": "Sit down",
      "console.topUp": "Top up",
      "console.sitOut": "Sit out",
      "console.comeBack": "Come back",
      "console.leave": "Leave",
      "console.name": "Name",
      "console.amount": "Chips",
      "console.waitBigBlind": "wait for the big blind",
      "console.ok": "OK",
      "console.limits": "{min} – {max} ({rule})",
      "console.noMax": "no maximum",
      "console.sitTitle": "Seat {seat}: sit down",
      "console.topUpTitle": "Seat {seat}: top up",
      "console.comeBackTitle": "Seat {seat}: come back",
      "console.sittingOut": "sitting out",
      "console.folded": "folded",
      "console.allInBadge": "all in",
      "console.owes": "owes {what}",
      "console.pending": "+{amount} next hand",
      "console.stack": "stack",
      "console.betLabel": "bet",
      "console.void": "Hand {hand} is void (misdeal): every chip went back",
      "console.awardsFor": "Hand {hand}",
      "console.topUpAdded": "Seat {seat}: the {bought} bought during the hand are added (stack {stack})",
      "console.topUpRefused": "Seat {seat}: {delivered} of the {bought} bought during the hand added, {refused} refused: over the maximum {maximum} (stack {stack})",
      "console.refused": "Refused: {reason}",
      "console.done": "Done",
      "console.error": "Error {status}: {reason}",
      "award.main": "main pot {amount}",
      "award.side": "side pot {pot} {amount}",
      "award.takes": "seat {seat} takes {amount}",
      "award.high": "high",
      "award.low": "low",
      "award.oddChip": "odd chip",
      "award.noLow": " (no low hand qualifies)",
      "phase.dealing": "dealing",
      "phase.drawing": "drawing",
      "phase.betting": "betting",
      "phase.showdown": "showdown",
      "phase.complete": "complete",
      "street.pre-flop": "pre-flop",
      "street.flop": "flop",
      "street.turn": "turn",
      "street.river": "river",
      "street.pre-draw": "before the draw",
      "street.draw": "the draw",
      "street.2nd street": "2nd street",
      "street.3rd street": "3rd street",
      "street.4th street": "4th street",
      "street.5th street": "5th street",
      "street.6th street": "6th street",
      "street.7th street": "7th street",
    },
    cs: {
      "console.connecting": "připojuji…",
      "console.live": "živě",
      "console.reconnecting": "znovu se připojuji…",
      "console.liveWarning": "Overlay ukazuje karty hráčů živě (allow_live_hole_cards = true): žádné zpoždění vysílání.",
      "console.pot": "Bank",
      "console.hand": "Hra {hand}",
      "console.handInfo": "Hra {hand} · {game} · {street} · button na místě {button}",
      "console.blinds": " · SB místo {sb} · BB místo {bb}",
      "console.noHand": "Žádná hra neběží — další začne, až bude stůl prázdný",
      "console.waiting": "Čeká se na další hru",
      "console.toAct": "Na tahu je místo {seat}",
      "console.toShow": "Showdown: místo {seat} ukáže, nebo zahodí",
      "console.toShowUncalled": "Místo {seat} vyhrálo bez dorovnání: ukáže vše, jednu kartu, nebo zahodí",
      "console.showCard": "Ukázat kartu",
      "console.cardShown": "ukázaná karta, např. As",
      "console.dealing": "Rozdává se: {phase}",
      "console.fold": "Fold",
      "console.check": "Check",
      "console.call": "Call {amount}",
      "console.bet": "Bet",
      "console.raise": "Raise",
      "console.complete": "Dorovnat",
      "console.bringIn": "Bring-in {amount}",
      "console.allIn": "All-in {amount}",
      "console.betTo": "Bet na {amount}",
      "console.raiseTo": "Raise na {amount}",
      "console.completeTo": "Dorovnat na {amount}",
      "console.pendingFor": "Místo {seat}: {action}",
      "console.min": "min. {amount}",
      "console.max": "max. {amount}",
      "console.confirm": "Potvrdit",
      "console.cancel": "Zrušit",
      "console.undo": "Zpět",
      "console.misdeal": "Misdeal",
      "console.confirmUndo": "Vzít zpět poslední akci?",
      "console.confirmMisdeal": "Vyhlásit misdeal? Hra je neplatná a všechny žetony se vracejí.",
      "console.confirmLeave": "Místo {seat} odchází od stolu?",
      "console.yes": "Ano",
      "console.no": "Ne",
      "console.show": "Ukázat",
      "console.muck": "Zahodit",
      "console.showdownSeat": "Místo {seat}",
      "console.alerts": "Upozornění",
      "console.noAlerts": "Žádná upozornění",
      "console.ack": "Potvrdit",
      "console.acked": "potvrzeno",
      "console.seatHand": "místo {seat}",
      "console.manualCard": "Karta, která se nenačte",
      "console.enterCard": "Zadat kartu",
      "console.manualHint": "Karty hráčů: kód nechte prázdný (rubem nahoru). Board a burn: napište kód, např. As, Td.",
      "console.seating": "Místa",
      "console.empty": "volno",
      "console.sit": "Posadit",
      "console.topUp": "Dokoupit",
      "console.sitOut": "Vynechat",
      "console.comeBack": "Vrátit se",
      "console.leave": "Odejít",
      "console.name": "Jméno",
      "console.amount": "Žetony",
      "console.waitBigBlind": "počkat na big blind",
      "console.ok": "OK",
      "console.limits": "{min} – {max} ({rule})",
      "console.noMax": "bez maxima",
      "console.sitTitle": "Místo {seat}: posadit hráče",
      "console.topUpTitle": "Místo {seat}: dokoupit",
      "console.comeBackTitle": "Místo {seat}: návrat",
      "console.sittingOut": "vynechává",
      "console.folded": "složil",
      "console.allInBadge": "all-in",
      "console.owes": "dluží {what}",
      "console.pending": "+{amount} od další hry",
      "console.stack": "žetony",
      "console.betLabel": "sázka",
      "console.void": "Hra {hand} je neplatná (misdeal): všechny žetony se vrátily",
      "console.awardsFor": "Hra {hand}",
      "console.topUpAdded": "Místo {seat}: {bought} dokoupených během hry přidáno (žetony {stack})",
      "console.topUpRefused": "Místo {seat}: z {bought} dokoupených během hry přidáno {delivered}, {refused} odmítnuto: nad maximum {maximum} (žetony {stack})",
      "console.refused": "Odmítnuto: {reason}",
      "console.done": "Hotovo",
      "console.error": "Chyba {status}: {reason}",
      "award.main": "hlavní bank {amount}",
      "award.side": "vedlejší bank {pot} {amount}",
      "award.takes": "místo {seat} bere {amount}",
      "award.high": "high",
      "award.low": "low",
      "award.oddChip": "lichý žeton",
      "award.noLow": " (žádná low kombinace)",
      "phase.dealing": "rozdávání",
      "phase.drawing": "výměna",
      "phase.betting": "sázky",
      "phase.showdown": "showdown",
      "phase.complete": "konec",
      "street.pre-flop": "před flopem",
      "street.flop": "flop",
      "street.turn": "turn",
      "street.river": "river",
      "street.pre-draw": "před výměnou",
      "street.draw": "výměna",
      "street.2nd street": "2. ulice",
      "street.3rd street": "3. ulice",
      "street.4th street": "4. ulice",
      "street.5th street": "5. ulice",
      "street.6th street": "6. ulice",
      "street.7th street": "7. ulice",
    },
  });

  let state = null;
  let pending = null; // {act, to, key}: the action chosen, sent on confirm
  let legalKey = "";
  let modalYes = null;
  let seatForm = null; // {op, seat}

  // ------------------------------------------------------------------ the API

  class ApiError extends Error {
    constructor(status, reason) { super(reason); this.status = status; }
  }

  function withTable(path) {
    const table = params.get("table");
    if (!table) return path;
    return path + (path.includes("?") ? "&" : "?") + "table=" + encodeURIComponent(table);
  }

  function reasonOf(detail) {
    if (Array.isArray(detail)) return detail.map((d) => d.msg || JSON.stringify(d)).join("; ");
    return typeof detail === "string" ? detail : JSON.stringify(detail);
  }

  // Every request of this page goes through here: same-origin credentials, the CSRF token
  // of the page's meta tag (when the hub serves one), the ?token= of the URL as a bearer.
  async function api(path, body) {
    const headers = { Accept: "application/json" };
    const csrf = document.querySelector("meta[name=csrf-token]")?.content;
    if (csrf) headers["X-CSRF-Token"] = csrf;
    const token = params.get("token");
    if (token) headers.Authorization = "Bearer " + token;
    const init = { method: body === undefined ? "GET" : "POST", credentials: "same-origin", headers };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(withTable(path), init);
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new ApiError(response.status, reasonOf(data.detail));
    return data;
  }

  let said = null; // the last message, said again in the new language on a switch

  function say(key, params, kind) {
    said = { key, params, kind };
    const box = document.getElementById("message");
    box.textContent = t(key, params);
    box.className = "message" + (kind ? " " + kind : "");
    box.dataset.kind = kind || "";
  }

  async function send(path, body) {
    try {
      const data = await api(path, body === undefined ? {} : body);
      if (data.accepted === false) say("console.refused", { reason: data.refused }, "refused");
      else say("console.done", {}, "ok");
      if (data.state) show(data.state);
      return data;
    } catch (err) {
      const reason = err.message || String(err);
      if (err.status === 409) say("console.refused", { reason }, "refused");
      else say("console.error", { status: err.status || "?", reason }, "refused");
      return null;
    }
  }

  // ------------------------------------------------------------------ cards and helpers

  function cardEl(code) {
    const el = document.createElement("span");
    if (!code) { el.className = "card back"; return el; }
    el.className = "card" + (code[1] === "d" || code[1] === "h" ? " red" : "");
    el.textContent = (code[0] === "T" ? "10" : code[0]) + SUITS[code[1]];
    el.dataset.card = code;
    return el;
  }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function button(id, label, key, onClick, cls) {
    const b = el("button", "big" + (cls ? " " + cls : ""));
    b.type = "button";
    if (id) b.id = id;
    b.append(el("span", "label", label));
    if (key) { b.append(" "); b.append(el("kbd", "", key)); }
    b.addEventListener("click", onClick);
    return b;
  }

  // Buttons are rebuilt only when what they show changed (a frame comes with every read:
  // rebuilding under a finger would swallow the tap).
  const memo = {};
  function changed(name, value) {
    const key = JSON.stringify(value) + "|" + i18n.lang;
    if (memo[name] === key) return false;
    memo[name] = key;
    return true;
  }

  function clamp(value, lo, hi) {
    const n = Math.round(Number(value));
    if (!Number.isFinite(n)) return lo;
    return Math.min(hi, Math.max(lo, n));
  }

  // ------------------------------------------------------------------ rendering

  function show(next) {
    state = next;
    render();
  }

  function render() {
    if (!state) return;
    document.getElementById("live-warning").hidden = !state.live_hole_cards;
    renderHand();
    renderSeats();
    renderActions();
    renderShowdown();
    renderAwards();
    renderAlerts();
    renderManual();
    renderSeating();
    document.getElementById("undo").disabled = !state.can_undo;
    document.getElementById("misdeal").disabled = !state.can_misdeal;
  }

  function renderHand() {
    const info = document.getElementById("hand-info");
    if (state.in_hand) {
      let text = t("console.handInfo", {
        hand: state.hand, game: state.game_name, street: streetName(state.street), button: state.button,
      });
      if (state.small_blind || state.big_blind) {
        text += t("console.blinds", { sb: state.small_blind || "–", bb: state.big_blind || "–" });
      }
      info.textContent = text;
    } else {
      info.textContent = t("console.noHand");
    }
    info.dataset.hand = String(state.hand);
    const board = document.getElementById("board");
    board.replaceChildren(...state.board.map(cardEl));
    document.getElementById("pot").textContent = String(state.pot);
  }

  function streetName(name) {
    return i18n.has("street." + name) ? t("street." + name) : name;
  }

  function seatCount(seat) {
    const a = (state.antennas || []).find((x) => x.reader === "seat" + seat);
    return a ? a.count : 0;
  }

  function renderSeats() {
    const root = document.getElementById("seats");
    const players = new Map(state.players.map((p) => [p.seat, p]));
    const shown = new Map((state.shown || []).map((s) => [s.seat, s.cards]));
    const boxes = [];
    for (let seat = 1; seat <= state.seating.seats; seat++) {
      const p = players.get(seat);
      const box = el("div", "seat");
      box.dataset.seat = String(seat);
      const head = el("div", "seat-head");
      head.append(el("span", "seat-no", String(seat)));
      const badges = el("span", "badges");
      if (state.button === seat) badges.append(el("span", "badge btn", "D"));
      if (state.in_hand && state.small_blind === seat) badges.append(el("span", "badge", "SB"));
      if (state.in_hand && state.big_blind === seat) badges.append(el("span", "badge", "BB"));
      head.append(badges);
      const name = el("div", "name", p ? p.name : t("console.empty"));
      name.dataset.field = "name";
      const stack = el("div", "stack", p ? String(p.stack) : "");
      stack.dataset.field = "stack";
      stack.title = t("console.stack");
      const bet = el("div", "bet", p && p.bet ? String(p.bet) : "");
      bet.dataset.field = "bet";
      bet.title = t("console.betLabel");
      const cards = el("div", "cards");
      const faces = shown.get(seat);
      if (faces) faces.forEach((c) => cards.append(cardEl(c)));
      else {
        (p && p.up ? p.up : []).forEach((c) => cards.append(cardEl(c)));
        for (let i = (p && p.up ? p.up.length : 0); i < seatCount(seat); i++) cards.append(cardEl(null));
      }
      const notes = el("div", "notes");
      if (p) {
        if (p.folded) notes.append(el("span", "note", t("console.folded")));
        if (p.all_in) notes.append(el("span", "note allin", t("console.allInBadge")));
        if (p.sitting_out) notes.append(el("span", "note", t("console.sittingOut")));
        if (p.owes && p.owes !== "nothing") notes.append(el("span", "note", t("console.owes", { what: p.owes })));
        if (p.pending) notes.append(el("span", "note", t("console.pending", { amount: p.pending })));
      }
      box.append(head, name, stack, bet, cards, notes);
      box.classList.toggle("empty", !p);
      box.classList.toggle("acting", state.acting === seat);
      box.classList.toggle("folded", Boolean(p && p.folded));
      box.classList.toggle("allin", Boolean(p && p.all_in));
      box.classList.toggle("out", Boolean(p && (!p.in_hand && state.in_hand)));
      boxes.push(box);
    }
    root.replaceChildren(...boxes);
  }

  function actionLabel(act, to) {
    if (act === "fold") return t("console.fold");
    if (act === "check") return t("console.check");
    if (act === "call") return t("console.call", { amount: to });
    if (act === "bring-in") return t("console.bringIn", { amount: to });
    if (act === "all-in") return t("console.allIn", { amount: to });
    if (act === "bet") return t("console.betTo", { amount: to });
    if (act === "raise") return t("console.raiseTo", { amount: to });
    return t("console.completeTo", { amount: to });
  }

  function renderActions() {
    const turn = document.getElementById("turn");
    const root = document.getElementById("actions");
    const legal = state.legal;
    const key = legal ? JSON.stringify(legal) + "#" + state.hand : "";
    if (key !== legalKey) { legalKey = key; pending = null; }
    if (!state.in_hand) turn.textContent = t("console.waiting");
    else if (legal) turn.textContent = t("console.toAct", { seat: legal.seat });
    else if (state.showdown && state.showdown.next) {
      const key = state.showdown.uncalled ? "console.toShowUncalled" : "console.toShow";
      turn.textContent = t(key, { seat: state.showdown.next });
    }
    else turn.textContent = t("console.dealing", { phase: t("phase." + state.phase) });
    if (!changed("actions", key)) { renderAmount(); renderPending(); return; }
    const buttons = [];
    if (legal) {
      if (legal.fold) buttons.push(button("act-fold", t("console.fold"), "F", () => choose("fold"), "fold"));
      if (legal.check) buttons.push(button("act-check", t("console.check"), "C", () => choose("check")));
      if (legal.call !== null) {
        buttons.push(button("act-call", t("console.call", { amount: legal.call }), "C", () => choose("call")));
      }
      if (legal.bring_in !== null) {
        buttons.push(button("act-bring-in", t("console.bringIn", { amount: legal.bring_in }), "", () => choose("bring-in")));
      }
      if (legal.bet) {
        const word = t("console." + legal.bet.act);
        buttons.push(button("act-bet", word, legal.bet.act === "bet" ? "B" : "R", () => choose("bet")));
      }
      if (legal.all_in) {
        buttons.push(button("act-all-in", t("console.allIn", { amount: legal.all_in.to }), "A", () => choose("all-in"), "allin"));
      }
    }
    root.replaceChildren(...buttons);
    renderAmount();
    renderPending();
  }

  function renderAmount() {
    const box = document.getElementById("amount");
    const legal = state.legal;
    const bet = legal && legal.bet;
    const on = Boolean(bet && pending && pending.act === bet.act);
    box.hidden = !on;
    if (!on) return;
    const range = document.getElementById("amount-range");
    const input = document.getElementById("amount-input");
    const fixedBox = document.getElementById("amount-fixed");
    for (const e of [range, input]) { e.min = String(bet.min_to); e.max = String(bet.max_to); }
    range.value = String(pending.to);
    if (document.activeElement !== input) input.value = String(pending.to); // not while typing
    range.disabled = bet.min_to === bet.max_to;
    input.disabled = bet.fixed;
    document.getElementById("amount-min").textContent = t("console.min", { amount: bet.min_to });
    document.getElementById("amount-max").textContent = t("console.max", { amount: bet.max_to });
    fixedBox.replaceChildren();
    if (bet.fixed) {
      range.hidden = true;
      (bet.amounts || [bet.min_to]).forEach((amount) => {
        const b = button("", String(amount), "", () => { pending.to = amount; renderAmount(); renderPending(); });
        b.classList.toggle("selected", pending.to === amount);
        b.dataset.amount = String(amount);
        fixedBox.append(b);
      });
    } else {
      range.hidden = false;
    }
  }

  function renderPending() {
    const box = document.getElementById("pending");
    box.hidden = !pending;
    if (!pending) return;
    document.getElementById("pending-text").textContent =
      t("console.pendingFor", { seat: state.legal.seat, action: actionLabel(pending.act, pending.to) });
  }

  // choose an action (a button or its key); Enter or Confirm sends it
  function choose(which) {
    const legal = state && state.legal;
    if (!legal) return;
    if (which === "fold" && legal.fold) pending = { act: "fold", to: 0 };
    else if (which === "check" && legal.check) pending = { act: "check", to: 0 };
    else if (which === "call" && legal.call !== null) pending = { act: "call", to: legal.call };
    else if (which === "bring-in" && legal.bring_in !== null) pending = { act: "bring-in", to: legal.bring_in };
    else if (which === "all-in" && legal.all_in) pending = { act: "all-in", to: legal.all_in.to };
    else if (which === "bet" && legal.bet) pending = { act: legal.bet.act, to: legal.bet.min_to };
    else return;
    renderAmount();
    renderPending();
    if (which === "bet" && !legal.bet.fixed) {
      const input = document.getElementById("amount-input");
      input.focus();
      input.select();
    }
  }

  function setAmount(value, final) {
    const bet = state && state.legal && state.legal.bet;
    if (!bet || !pending) return;
    const input = document.getElementById("amount-input");
    const n = Math.round(Number(value));
    // too much is cut to the maximum at once; too little waits for the end of typing
    const fix = final || !Number.isFinite(n) || n > bet.max_to;
    pending.to = clamp(n, bet.min_to, bet.max_to);
    input.classList.toggle("invalid", !fix && n < bet.min_to);
    if (fix) input.value = String(pending.to);
    document.getElementById("amount-range").value = String(pending.to);
    renderPending();
  }

  async function confirmAction() {
    const legal = state && state.legal;
    if (!pending || !legal) return;
    const act = pending.act;
    let to = 0;
    if (legal.bet && act === legal.bet.act) {
      const input = document.getElementById("amount-input");
      if (!legal.bet.fixed) setAmount(input.value, true);
      to = clamp(pending.to, legal.bet.min_to, legal.bet.max_to);
      if (legal.bet.fixed && !(legal.bet.amounts || []).includes(to)) return;
    }
    pending = null;
    renderPending();
    await send("/api/console/action", { seat: legal.seat, act, to });
  }

  function renderShowdown() {
    const root = document.getElementById("showdown");
    const sd = state.showdown;
    root.hidden = !sd;
    if (!changed("showdown", sd)) return;
    if (!sd) { root.replaceChildren(); return; }
    const seats = [...new Set([...sd.show, ...sd.muck])].sort((a, b) => a - b);
    root.replaceChildren(...seats.map((seat) => {
      const row = el("div", "showdown-seat" + (sd.next === seat ? " next" : ""));
      row.dataset.seat = String(seat);
      row.append(el("span", "who", t("console.showdownSeat", { seat })));
      if (sd.show.includes(seat)) {
        row.append(button("", t("console.show"), "", () => send("/api/console/show", { seat }), "show"));
      }
      if (sd.muck.includes(seat)) {
        row.append(button("", t("console.muck"), "", () => send("/api/console/muck", { seat }), "muck"));
      }
      if (sd.part && sd.show.includes(seat)) {
        // R-SHOW-3: the winner whose bet nobody called turns up one card; the dealer names it
        const code = el("input", "card-code");
        code.id = "show-card-code";
        code.maxLength = 3;
        code.placeholder = t("console.cardShown");
        const showOne = () => { if (code.value.trim()) send("/api/console/show", { seat, cards: [code.value.trim()] }); };
        code.addEventListener("keydown", (e) => { if (e.key === "Enter") showOne(); });
        row.append(code, button("show-card", t("console.showCard"), "", showOne, "show"));
      }
      return row;
    }));
  }

  function awardText(a) {
    if (i18n.lang === "en" && a.text) return a.text;
    if (typeof i18n.awardText === "function" && a.text) return i18n.awardText(a.text);
    const name = a.pot === 0 ? t("award.main", { amount: a.amount }) : t("award.side", { pot: a.pot, amount: a.amount });
    const parts = (a.payouts || []).map((p) => {
      const extra = [];
      if (p.half && p.half !== "whole") extra.push(t("award." + p.half));
      if (p.odd_chip) extra.push(t("award.oddChip"));
      return t("award.takes", { seat: p.seat, amount: p.amount }) + (extra.length ? " (" + extra.join(", ") + ")" : "");
    });
    return name + ": " + parts.join("; ") + (a.no_low ? t("award.noLow") : "");
  }

  function renderAwards() {
    const root = document.getElementById("awards");
    const last = state.last_hand;
    root.replaceChildren();
    if (last && last.voided) {
      root.append(el("p", "award void", t("console.void", { hand: last.hand })));
    } else if (last && last.awards.length) {
      root.append(el("h2", "", t("console.awardsFor", { hand: last.hand })));
      last.awards.forEach((a) => {
        const p = el("p", "award", awardText(a));
        p.dataset.pot = String(a.pot);
        root.append(p);
      });
    }
    // chips bought during the hand, delivered at its end up to the maximum (R-BUY-4)
    ((last && last.top_ups) || []).forEach((u) => {
      const p = el("p", "award top-up" + (u.refused ? " refused" : ""), t(u.refused ? "console.topUpRefused" : "console.topUpAdded", u));
      p.dataset.seat = String(u.seat);
      root.append(p);
    });
    root.hidden = !root.childElementCount;
  }

  // an alert's message and remedy in the current language: i18n.js translates the
  // alert codes (alertParts, or alertText with both in one line); else the hub's English
  function alertParts(a) {
    if (typeof i18n.alertParts === "function") return i18n.alertParts(a);
    if (typeof i18n.alertText === "function") return { message: i18n.alertText(a), remedy: "" };
    return { message: a.message, remedy: a.remedy };
  }

  function renderAlerts() {
    const list = document.getElementById("alert-list");
    const alerts = [...(state.alerts || [])].reverse();
    if (!changed("alerts", alerts)) return;
    if (!alerts.length) { list.replaceChildren(el("li", "none", t("console.noAlerts"))); return; }
    list.replaceChildren(...alerts.map((a) => {
      const li = el("li", "alert " + a.severity + (a.acknowledged ? " acked" : ""));
      li.dataset.id = String(a.id);
      li.dataset.code = a.code;
      const meta = el("span", "meta", (a.seat ? t("console.seatHand", { seat: a.seat }) + " · " : "") +
        a.rule + (a.hand ? " · " + t("console.hand", { hand: a.hand }) : ""));
      const text = alertParts(a);
      const what = el("div", "what", text.message);
      const remedy = el("div", "remedy", text.remedy);
      li.append(meta, what, remedy);
      if (a.acknowledged) li.append(el("span", "acked-note", t("console.acked")));
      else if (a.id !== null && a.id !== undefined) {  // the hub's own alerts have no id
        const b = el("button", "ack", t("console.ack"));
        b.type = "button";
        b.addEventListener("click", () => send("/api/console/alerts/" + a.id + "/ack", {}));
        li.append(b);
      }
      return li;
    }));
  }

  function renderManual() {
    const select = document.getElementById("manual-reader");
    const readers = (state.antennas || []).map((a) => a.reader).filter((r) => r !== "register" && r !== "muck");
    const current = select.value;
    if (select.options.length !== readers.length) {
      select.replaceChildren(...readers.map((r) => {
        const o = el("option", "", r);
        o.value = r;
        return o;
      }));
      if (readers.includes(current)) select.value = current;
    }
    document.getElementById("manual-enter").disabled = !state.in_hand;
  }

  function renderSeating() {
    const list = document.getElementById("seat-list");
    if (!changed("seating", [state.players, state.seating])) { if (seatForm) renderSeatForm(); return; }
    const players = new Map(state.players.map((p) => [p.seat, p]));
    const rows = [];
    for (let seat = 1; seat <= state.seating.seats; seat++) {
      const p = players.get(seat);
      const li = el("li", "seat-row");
      li.dataset.seat = String(seat);
      li.append(el("span", "seat-no", String(seat)));
      li.append(el("span", "who", p ? p.name + " · " + p.stack : t("console.empty")));
      const ops = el("span", "ops");
      if (!p) {
        if (!state.seating.full) ops.append(opButton("sit", seat, t("console.sit")));
      } else {
        if (p.can_top_up) ops.append(opButton("top_up", seat, t("console.topUp")));
        if (p.can_sit_out) ops.append(opButton("sit_out", seat, t("console.sitOut")));
        if (p.can_come_back) ops.append(opButton("come_back", seat, t("console.comeBack")));
        if (p.can_leave) ops.append(opButton("leave", seat, t("console.leave")));
      }
      li.append(ops);
      rows.push(li);
    }
    list.replaceChildren(...rows);
    if (seatForm) renderSeatForm();
  }

  function opButton(op, seat, label) {
    const b = el("button", "op", label);
    b.type = "button";
    b.dataset.op = op;
    b.addEventListener("click", () => seatOp(op, seat));
    return b;
  }

  function seatLimits() {
    if (!seatForm) return null;
    if (seatForm.op === "sit") return state.seating.buy_in;
    const p = state.players.find((x) => x.seat === seatForm.seat);
    return p ? p.top_up : null;
  }

  function renderSeatForm() {
    const form = document.getElementById("seat-form");
    form.hidden = !seatForm;
    if (!seatForm) return;
    const { op, seat } = seatForm;
    const title = { sit: "console.sitTitle", top_up: "console.topUpTitle", come_back: "console.comeBackTitle" }[op];
    document.getElementById("seat-form-title").textContent = t(title, { seat });
    document.getElementById("seat-name-row").hidden = op !== "sit";
    document.getElementById("seat-amount-row").hidden = op === "come_back";
    document.getElementById("seat-wait-row").hidden = op === "top_up";
    const limits = seatLimits();
    const amount = document.getElementById("seat-amount");
    const hint = document.getElementById("seat-amount-limits");
    if (limits && op !== "come_back") {
      amount.min = String(limits.min);
      if (limits.max === null) amount.removeAttribute("max");
      else amount.max = String(limits.max);
      hint.textContent = t("console.limits", {
        min: limits.min, max: limits.max === null ? t("console.noMax") : limits.max, rule: limits.rule,
      });
    } else {
      hint.textContent = "";
    }
  }

  function seatOp(op, seat) {
    if (op === "sit_out") { send("/api/console/seat", { op, seat }); return; }
    if (op === "leave") {
      ask(t("console.confirmLeave", { seat }), () => send("/api/console/seat", { op, seat }));
      return;
    }
    seatForm = { op, seat };
    const amount = document.getElementById("seat-amount");
    document.getElementById("seat-name").value = "";
    document.getElementById("seat-wait").checked = false;
    renderSeatForm();
    const limits = seatLimits();
    amount.value = limits ? String(limits.min) : "";
    (op === "sit" ? document.getElementById("seat-name") : amount).focus();
  }

  async function submitSeatForm(ev) {
    ev.preventDefault();
    if (!seatForm) return;
    const { op, seat } = seatForm;
    const body = { op, seat };
    if (op === "sit") body.name = document.getElementById("seat-name").value.trim();
    if (op === "sit" || op === "top_up") {
      const limits = seatLimits();
      const amount = document.getElementById("seat-amount");
      const hi = limits && limits.max !== null ? limits.max : Number.MAX_SAFE_INTEGER;
      body.amount = clamp(amount.value, limits ? limits.min : 1, hi);
      amount.value = String(body.amount);
    }
    if (op === "sit" || op === "come_back") body.wait = document.getElementById("seat-wait").checked;
    const data = await send("/api/console/seat", body);
    if (data) { seatForm = null; renderSeatForm(); }
  }

  // ------------------------------------------------------------------ confirm dialog

  function ask(text, onYes) {
    document.getElementById("modal-text").textContent = text;
    document.getElementById("modal").hidden = false;
    modalYes = onYes;
    document.getElementById("modal-yes").focus();
  }

  function closeModal(yes) {
    const fn = modalYes;
    modalYes = null;
    document.getElementById("modal").hidden = true;
    if (yes && fn) fn();
  }

  // ------------------------------------------------------------------ inputs

  function undo() {
    if (state && state.can_undo) ask(t("console.confirmUndo"), () => send("/api/console/undo", {}));
  }

  function misdeal() {
    if (state && state.can_misdeal) ask(t("console.confirmMisdeal"), () => send("/api/console/misdeal", {}));
  }

  async function manualCard() {
    const reader = document.getElementById("manual-reader").value;
    const code = document.getElementById("manual-card").value.trim();
    const data = await send("/api/console/card", { reader, card: code || null });
    if (data) document.getElementById("manual-card").value = "";
  }

  function onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const modalOpen = !document.getElementById("modal").hidden;
    if (modalOpen) {
      if (ev.key === "Enter") { ev.preventDefault(); closeModal(true); }
      else if (ev.key === "Escape") { ev.preventDefault(); closeModal(false); }
      return;
    }
    const target = ev.target;
    const typing = target instanceof HTMLInputElement || target instanceof HTMLSelectElement ||
      target instanceof HTMLTextAreaElement;
    const inAmount = target && target.id === "amount-input";
    if (typing && !inAmount) return; // the side panels' own fields
    if (ev.key === "Enter") {
      if (pending) { ev.preventDefault(); confirmAction(); }
      return;
    }
    if (ev.key === "Escape") {
      pending = null;
      renderAmount();
      renderPending();
      return;
    }
    if (inAmount) return; // digits go into the amount
    const k = ev.key.toLowerCase();
    const legal = state && state.legal;
    if (k === "f") choose("fold");
    else if (k === "c") choose(legal && legal.check ? "check" : "call");
    else if (k === "b" || k === "r") choose("bet");
    else if (k === "a") choose("all-in");
    else if (k === "u") undo();
    else return;
    ev.preventDefault();
  }

  function wire() {
    document.getElementById("confirm-action").addEventListener("click", confirmAction);
    document.getElementById("cancel-action").addEventListener("click", () => {
      pending = null; renderAmount(); renderPending();
    });
    const input = document.getElementById("amount-input");
    input.addEventListener("input", () => setAmount(input.value, false));
    input.addEventListener("change", () => setAmount(input.value, true));
    input.addEventListener("blur", () => setAmount(input.value, true));
    const range = document.getElementById("amount-range");
    range.addEventListener("input", () => { input.value = range.value; setAmount(range.value, true); });
    document.getElementById("undo").addEventListener("click", undo);
    document.getElementById("misdeal").addEventListener("click", misdeal);
    document.getElementById("modal-yes").addEventListener("click", () => closeModal(true));
    document.getElementById("modal-no").addEventListener("click", () => closeModal(false));
    document.getElementById("manual-enter").addEventListener("click", manualCard);
    document.getElementById("seat-form").addEventListener("submit", submitSeatForm);
    document.getElementById("seat-cancel").addEventListener("click", () => { seatForm = null; renderSeatForm(); });
    const langs = document.querySelector(".lang");
    if (typeof i18n.switcher === "function") langs.replaceChildren(i18n.switcher());
    else {
      langs.querySelectorAll("[data-lang]").forEach((b) => {
        b.addEventListener("click", () => i18n.set(b.dataset.lang));
      });
    }
    document.addEventListener("keydown", onKey);
    i18n.onChange(() => {
      setStatus(document.getElementById("status").dataset.state);
      if (said) say(said.key, said.params, said.kind);
      render();
    });
  }

  // ------------------------------------------------------------------ the feed

  function setStatus(which) {
    const status = document.getElementById("status");
    status.dataset.state = which;
    status.dataset.i18n = "console." + which;
    status.textContent = t("console." + which);
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = new URLSearchParams();
    for (const key of ["token", "table"]) if (params.get(key)) q.set(key, params.get(key));
    const query = q.toString();
    const ws = new WebSocket(proto + "//" + location.host + "/ws/console" + (query ? "?" + query : ""));
    ws.onopen = () => setStatus("live");
    ws.onclose = () => { setStatus("reconnecting"); setTimeout(connect, 1000); };
    ws.onmessage = (msg) => {
      const ev = JSON.parse(msg.data);
      if (ev.type === "console") show(ev);
    };
  }

  i18n.apply();
  wire();
  connect();
})();
