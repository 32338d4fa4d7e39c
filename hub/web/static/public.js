// feltwire public table view — a TV in the room. It shows the board, the pot, every seat
// (name, stack, bet, folded, all-in, whose turn it is, how many cards it holds as backs),
// the tournament level, blinds and a live countdown, the last pot award and the dealer's
// recent alerts, in English or Czech.
//
// It renders the snapshot (/ws/public's first frame), then each frame of the public feed.
// The numbers of a hand (stacks, bets, pot) are the hub's own: a frame that changes them
// makes the page fetch /api/public again (coalesced), so the view never drifts from the
// rules. The countdown ticks locally from the clock's time_left and re-syncs on each
// clock frame. The public feed never carries a hole card, so neither does this page.
(function () {
  "use strict";
  const I = window.FW.i18n;
  const TABLE = document.body.dataset.table;
  const SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
  const MAX_ALERTS = 5;
  const BOARD_SLOTS = 5;

  I.add({
    en: {
      "public.table": "Table",
      "public.hand": "Hand {n}",
      "public.seat": "Seat {n}",
      "public.seat_short": "seat {n}",
      "public.hand_short": "hand {n}",
      "public.pot": "Pot",
      "public.stack": "Stack",
      "public.bet": "Bet",
      "public.to_act": "To act",
      "public.folded": "Folded",
      "public.all_in": "All-in",
      "public.shown": "Shows the hand",
      "public.shown_part": "Shows {n} of the cards",
      "public.sitting_out": "Sitting out",
      "public.level": "Level",
      "public.level_of": "{n} of {of}",
      "public.blinds": "Blinds",
      "public.ante": "ante {n}",
      "public.next": "Next level",
      "public.last_level": "last level",
      "public.paused": "Paused",
      "public.not_started": "not started",
      "public.award": "Last pot",
      "public.award_hand": "Hand {n}",
      "public.void": "Hand {n} is void (misdeal)",
      "public.alerts": "Dealer alerts",
      "public.button": "Dealer button",
      "public.status.connecting": "connecting…",
      "public.status.live": "live",
      "public.status.reconnecting": "reconnecting…",
    },
    cs: {
      "public.table": "Stůl",
      "public.hand": "Hra {n}",
      "public.seat": "Místo {n}",
      "public.seat_short": "místo {n}",
      "public.hand_short": "hra {n}",
      "public.pot": "Bank",
      "public.stack": "Žetony",
      "public.bet": "Sázka",
      "public.to_act": "Na řadě",
      "public.folded": "Fold",
      "public.all_in": "All-in",
      "public.shown": "Ukazuje karty",
      "public.shown_part": "Ukazuje {n} z karet",
      "public.sitting_out": "Nehraje",
      "public.level": "Úroveň",
      "public.level_of": "{n} z {of}",
      "public.blinds": "Blindy",
      "public.ante": "ante {n}",
      "public.next": "Další úroveň",
      "public.last_level": "poslední úroveň",
      "public.paused": "Pauza",
      "public.not_started": "nezačalo",
      "public.award": "Poslední bank",
      "public.award_hand": "Hra {n}",
      "public.void": "Hra {n} je neplatná (chybné rozdání)",
      "public.alerts": "Upozornění pro dealera",
      "public.button": "Dealer button",
      "public.status.connecting": "připojuji…",
      "public.status.live": "živě",
      "public.status.reconnecting": "znovu se připojuji…",
    },
  });

  const model = {
    antennas: new Map(), // reader -> public antenna view (cards only when face up)
    rules: null, // TableService.public_state(): players, pot, acting, button, …
    clock: null, // the tournament clock's state
    clockAt: 0, // performance.now() when clock.time_left was true
    awards: null, // {hand, texts} or {hand, void: true}
    alerts: [], // newest first
    status: "connecting",
  };

  // ------------------------------------------------------------------ rendering

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function cardEl(code) {
    if (!code) return el("div", "card back");
    const red = code[1] === "d" || code[1] === "h";
    const e = el("div", "card" + (red ? " red" : ""));
    e.dataset.card = code;
    e.append(el("span", "rank", code[0] === "T" ? "10" : code[0]), el("span", "suit", SUITS[code[1]]));
    return e;
  }

  function renderHeader() {
    const r = model.rules;
    const hand = document.getElementById("hand-no");
    hand.textContent = r && r.hand ? I.t("public.hand", { n: r.hand }) : "";
    hand.dataset.hand = r && r.hand ? String(r.hand) : "";
    const status = document.getElementById("status");
    status.dataset.state = model.status;
    status.textContent = I.t("public.status." + model.status);
  }

  function renderBoard() {
    const board = document.getElementById("board");
    const cards = [];
    let hasBoard = false;
    for (const a of model.antennas.values()) {
      if (a.kind !== "board") continue;
      hasBoard = true;
      (a.cards || []).forEach((c) => cards.push(c));
    }
    board.replaceChildren(...cards.map(cardEl));
    for (let i = cards.length; hasBoard && i < BOARD_SLOTS; i++) board.appendChild(el("div", "card slot"));
    const r = model.rules;
    document.getElementById("pot").textContent = I.num(r && r.in_hand ? r.pot : 0);
  }

  function seatNumbers() {
    const seats = new Set();
    const r = model.rules;
    if (r) r.players.forEach((p) => seats.add(p.seat));
    for (const a of model.antennas.values()) {
      const m = /^(seat|up)(\d+)$/.exec(a.reader);
      if (m && (a.count > 0 || (a.cards && a.cards.length))) seats.add(Number(m[2]));
    }
    return [...seats].sort((a, b) => a - b);
  }

  function seatBox(n) {
    const box = el("div", "seat");
    box.dataset.seat = String(n);
    box.id = "seat-" + n;
    const head = el("div", "seat-head");
    const no = el("span", "seat-no", String(n));
    const button = el("span", "dealer-button", "D");
    button.hidden = true;
    head.append(no, button);
    const name = el("div", "name");
    name.dataset.field = "name";
    const cards = el("div", "cards");
    const money = el("div", "money");
    const stack = el("div", "stack");
    stack.append(el("span", "k"), el("span", "v"));
    stack.querySelector(".v").dataset.field = "stack";
    const bet = el("div", "bet");
    bet.append(el("span", "k"), el("span", "v"));
    bet.querySelector(".v").dataset.field = "bet";
    money.append(stack, bet);
    box.append(head, name, cards, money, el("div", "state"));
    return box;
  }

  function renderSeats() {
    const root = document.getElementById("seats");
    const r = model.rules;
    const players = new Map(r ? r.players.map((p) => [p.seat, p]) : []);
    const inHand = !!(r && r.in_hand);
    const wanted = seatNumbers();
    root.querySelectorAll(".seat").forEach((box) => {
      if (!wanted.includes(Number(box.dataset.seat))) box.remove();
    });
    root.dataset.count = String(wanted.length);
    const n = wanted.length;
    const cols = n <= 3 ? Math.max(n, 2) : n <= 6 ? 3 : n <= 8 ? 4 : 5;
    root.style.setProperty("--cols", String(cols));
    root.dataset.cols = String(cols);
    for (const n of wanted) {
      const box = root.querySelector('.seat[data-seat="' + n + '"]') || seatBox(n);
      root.appendChild(box); // keeps seat order
      const p = players.get(n);
      const acting = inHand && r.acting === n;
      const folded = !!(p && p.in_hand && (p.folded || (r.folded || []).includes(n)));
      const allIn = !!(p && p.in_hand && (p.all_in || (r.all_in || []).includes(n)));
      box.classList.toggle("acting", acting);
      box.classList.toggle("folded", folded);
      box.classList.toggle("allin", allIn && !folded);
      box.classList.toggle("out", !!(p && p.sitting_out));
      box.classList.toggle("empty", !p);
      const button = box.querySelector(".dealer-button");
      button.hidden = !(r && r.hand && r.button === n);
      button.title = I.t("public.button");
      box.querySelector("[data-field=name]").textContent = p ? p.name : I.t("public.seat", { n });
      box.querySelector(".stack .k").textContent = I.t("public.stack");
      box.querySelector("[data-field=stack]").textContent = p ? I.num(p.stack) : "";
      box.querySelector(".bet .k").textContent = I.t("public.bet");
      const bet = p && inHand ? p.bet : 0;
      box.querySelector("[data-field=bet]").textContent = bet ? I.num(bet) : "";
      box.querySelector(".bet").classList.toggle("none", !bet);
      const ant = model.antennas.get("seat" + n);
      const up = model.antennas.get("up" + n);
      const cards = box.querySelector(".cards");
      cards.replaceChildren();
      for (let i = 0; ant && i < ant.count; i++) cards.appendChild(cardEl(null));
      ((up && up.cards) || []).forEach((c) => cards.appendChild(cardEl(c)));
      cards.dataset.count = String(cards.childElementCount);
      // a hand shown (R-SHOW-3: perhaps only some cards): how many, never which
      const shown = ((r && r.shown) || []).find((s) => s.seat === n);
      let state = "";
      if (shown) state = shown.whole ? I.t("public.shown") : I.t("public.shown_part", { n: shown.count });
      else if (acting) state = I.t("public.to_act");
      else if (folded) state = I.t("public.folded");
      else if (allIn) state = I.t("public.all_in");
      else if (p && p.sitting_out) state = I.t("public.sitting_out");
      box.querySelector(".state").textContent = state;
    }
  }

  function clockLeft() {
    const c = model.clock;
    if (!c) return 0;
    if (c.paused || !c.started) return c.time_left;
    return Math.max(0, c.time_left - (performance.now() - model.clockAt) / 1000);
  }

  function blindsText(lv) {
    return I.num(lv.small_blind) + " / " + I.num(lv.big_blind) +
      (lv.ante ? " · " + I.t("public.ante", { n: I.num(lv.ante) }) : "");
  }

  let lastAskedAt = 0;
  function renderCountdown() {
    const c = model.clock;
    if (!c) return;
    const left = clockLeft();
    const cd = document.getElementById("countdown");
    cd.textContent = c.started ? I.duration(left) : I.t("public.not_started");
    cd.dataset.seconds = String(Math.ceil(left));
    // the level ran out here: ask the hub for the next one (its clock frame may be late)
    if (c.started && !c.paused && c.next && left <= 0 && performance.now() - lastAskedAt > 2000) {
      lastAskedAt = performance.now();
      refresh();
    }
  }

  function renderClock() {
    const box = document.getElementById("clock");
    const c = model.clock;
    box.hidden = !c;
    if (!c) return;
    box.classList.toggle("paused", !!c.paused);
    box.dataset.level = String(c.level);
    box.querySelector("[data-field=level]").textContent =
      I.t("public.level_of", { n: c.level, of: c.levels });
    box.querySelector("[data-field=blinds]").textContent = blindsText(c);
    box.querySelector("[data-field=next]").textContent =
      c.next ? blindsText(c.next) : I.t("public.last_level");
    document.getElementById("paused").hidden = !c.paused;
    renderCountdown();
  }

  function renderAwards() {
    const box = document.getElementById("awards");
    const list = document.getElementById("award-list");
    list.replaceChildren();
    const a = model.awards;
    if (a && a.hand) list.appendChild(el("p", "award-hand", I.t("public.award_hand", { n: a.hand })));
    if (a && a.void) list.appendChild(el("p", "award void", I.t("public.void", { n: a.hand })));
    ((a && a.texts) || []).forEach((t) => {
      const p = el("p", "award", I.awardText(t));
      p.dataset.text = t;
      list.appendChild(p);
    });
    box.hidden = !list.querySelector(".award");
  }

  function alertItem(a) {
    const li = el("li", "alert " + (a.severity || "info"));
    li.dataset.code = a.code;
    const parts = I.alertParts(a);
    const meta = [];
    if (a.seat) meta.push(I.t("public.seat_short", { n: a.seat }));
    if (a.rule) meta.push(a.rule);
    if (a.hand) meta.push(I.t("public.hand_short", { n: a.hand }));
    li.append(el("span", "meta", meta.join(" · ")), el("span", "what", parts.message),
      el("div", "remedy", parts.remedy));
    return li;
  }

  function renderAlerts() {
    const list = document.getElementById("alert-list");
    list.replaceChildren(...model.alerts.map(alertItem));
    document.getElementById("alerts").hidden = !model.alerts.length;
  }

  function render() {
    renderHeader();
    renderClock();
    renderBoard();
    renderSeats();
    renderAwards();
    renderAlerts();
  }

  // ------------------------------------------------------------------ state

  function setClock(c) {
    model.clock = c || null;
    model.clockAt = performance.now();
  }

  function applySnapshot(snap, first) {
    model.antennas = new Map((snap.antennas || []).map((a) => [a.reader, a]));
    const r = snap.rules || null;
    model.rules = r;
    setClock(r ? r.clock : null);
    if (first && r) {
      model.alerts = (r.alerts || []).slice(-MAX_ALERTS).reverse();
      if (r.awards && r.awards.length) {
        model.awards = { hand: r.in_hand ? r.hand - 1 : r.hand, texts: r.awards };
      }
    }
    render();
  }

  let refreshing = false;
  let again = false;
  async function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    try {
      do {
        again = false;
        const res = await fetch("/api/public?table=" + encodeURIComponent(TABLE));
        if (res.ok) applySnapshot(await res.json(), false);
      } while (again);
    } catch (e) { /* the hub is restarting: the WebSocket reconnects and resyncs */ }
    finally { refreshing = false; }
  }

  function flashSeat(seat) {
    const box = document.querySelector('#seats .seat[data-seat="' + seat + '"]');
    if (!box) return;
    box.classList.add("alerted");
    setTimeout(() => box.classList.remove("alerted"), 3000);
  }

  function onFrame(ev) {
    const r = model.rules;
    switch (ev.type) {
      case "snapshot":
        applySnapshot(ev, true);
        break;
      case "antenna":
        model.antennas.set(ev.reader, ev);
        renderBoard();
        renderSeats();
        break;
      case "clock":
        setClock(ev);
        renderClock();
        break;
      case "turn":
        if (r) Object.assign(r, { acting: ev.acting, all_in: ev.all_in, folded: ev.folded });
        renderSeats();
        refresh();
        break;
      case "hand":
        if (r) Object.assign(r, { hand: ev.hand, in_hand: true, button: ev.button, acting: null });
        render();
        refresh();
        break;
      case "hand_end":
        if (r) Object.assign(r, { in_hand: false, acting: null });
        model.awards = ev.voided ? { hand: ev.hand, void: true } : { hand: ev.hand, texts: ev.awards };
        render();
        refresh();
        break;
      case "alert":
        model.alerts.unshift(ev);
        model.alerts.length = Math.min(model.alerts.length, MAX_ALERTS);
        renderAlerts();
        if (ev.seat) flashSeat(ev.seat);
        break;
      case "event":
        if (ev.event === "PotAwarded") {
          // the pot is read out as it is awarded (a winner uncalled may still show, R-SHOW-3)
          if (!model.awards || model.awards.hand !== ev.hand || model.awards.void) model.awards = { hand: ev.hand, texts: [] };
          if (!model.awards.texts.includes(ev.text)) model.awards.texts.push(ev.text);
          render();
        }
        refresh();
        break;
      case "seats":
        refresh();
        break;
      default:
        break; // button presses, acknowledgements: nothing to show here
    }
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(proto + "//" + location.host + "/ws/public?table=" + encodeURIComponent(TABLE));
    ws.onopen = () => { model.status = "live"; renderHeader(); };
    ws.onclose = () => {
      model.status = "reconnecting";
      renderHeader();
      setTimeout(connect, 1000);
    };
    ws.onmessage = (msg) => onFrame(JSON.parse(msg.data));
  }

  document.getElementById("lang").appendChild(I.switcher());
  I.onChange(render);
  I.apply();
  render();
  connect();
  setInterval(renderCountdown, 250);
})();
