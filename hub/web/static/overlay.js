// feltwire broadcast overlay (an OBS browser source, producer token in the URL).
// The hub folds every released overlay frame into its picture of the table and sends that
// picture in the snapshot and in a "state" frame after each change; this page only draws
// the latest picture. Board-sync offset: every frame is applied offset_ms after it arrived
// (?offset_ms=N, or the producer's setting kept in localStorage), so the graphics line up
// with the delayed video. Seat panels carry data-seat="n" with [data-field=name|stack|bet].
(function () {
  "use strict";
  const FW = window.FW;
  const t = (key, params) => FW.i18n.t(key, params);
  FW.i18n.add({
    en: {
      pot: "Pot",
      offset: "Board-sync offset (ms)",
      "setup.hint": "Press S to hide or show these settings.",
      "status.connecting": "connecting…",
      "status.live": "live",
      "status.reconnecting": "reconnecting…",
      seat: "Seat {n}",
      allin: "All in",
      fold: "Fold",
      button: "D",
      outs: "{n} outs",
      "outs.one": "1 out",
      split: "+{n} to split",
      hilo: "Hi {high} · Lo {low}",
      "act.fold": "{name} folds",
      "act.check": "{name} checks",
      "act.call": "{name} calls {amount}",
      "act.bet": "{name} bets {to}",
      "act.raise": "{name} raises to {to}",
      "act.bring-in": "{name} brings in {amount}",
      "act.complete": "{name} completes to {to}",
      "act.allin": "{text} — all in",
      wins: "{name} wins {amount}",
      "wins.high": "{name} wins {amount} (high)",
      "wins.low": "{name} wins {amount} (low)",
      voided: "Hand {hand} is void (misdeal)",
      "outs.line": "{name}: {cards}",
    },
    cs: {
      pot: "Bank",
      offset: "Posun synchronizace boardu (ms)",
      "setup.hint": "Klávesou S toto nastavení skryjete nebo zobrazíte.",
      "status.connecting": "připojuji…",
      "status.live": "živě",
      "status.reconnecting": "znovu se připojuji…",
      seat: "Místo {n}",
      allin: "All-in",
      fold: "Složeno",
      button: "D",
      outs: "{n} outů",
      "outs.one": "1 out",
      split: "+{n} na dělení",
      hilo: "Hi {high} · Lo {low}",
      "act.fold": "{name} skládá",
      "act.check": "{name} čeká",
      "act.call": "{name} dorovnává {amount}",
      "act.bet": "{name} sází {to}",
      "act.raise": "{name} navyšuje na {to}",
      "act.bring-in": "{name} platí bring-in {amount}",
      "act.complete": "{name} doplňuje na {to}",
      "act.allin": "{text} — all-in",
      wins: "{name} vyhrává {amount}",
      "wins.high": "{name} vyhrává {amount} (high)",
      "wins.low": "{name} vyhrává {amount} (low)",
      voided: "Hra {hand} je neplatná (misdeal)",
      "outs.line": "{name}: {cards}",
    },
  });

  const params = new URLSearchParams(location.search);
  const SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
  const OFFSET_KEY = "feltwire.overlay.offset_ms";
  const stage = document.getElementById("stage");
  const seatsEl = document.getElementById("seats");
  const setupEl = document.getElementById("setup");
  const offsetInput = document.getElementById("offset");
  let picture = null;

  // ------------------------------------------------------------ scaling (1920x1080 design)
  function fit() {
    const scale = Math.min(window.innerWidth / 1920, window.innerHeight / 1080);
    const left = (window.innerWidth - 1920 * scale) / 2;
    const top = (window.innerHeight - 1080 * scale) / 2;
    stage.style.transform = "translate(" + left + "px," + top + "px) scale(" + scale + ")";
    document.body.dataset.scale = scale.toFixed(4);
  }
  window.addEventListener("resize", fit);
  fit();

  // ------------------------------------------------------------ board-sync offset
  function readOffset() {
    const q = params.get("offset_ms");
    if (q !== null && q !== "" && !Number.isNaN(Number(q))) return Math.max(0, Number(q));
    try {
      const saved = localStorage.getItem(OFFSET_KEY);
      if (saved !== null && !Number.isNaN(Number(saved))) return Math.max(0, Number(saved));
    } catch (e) { /* storage may be off */ }
    return 0;
  }
  let offsetMs = readOffset();
  offsetInput.value = String(offsetMs);
  document.body.dataset.offsetMs = String(offsetMs);
  offsetInput.addEventListener("change", () => {
    const v = Math.max(0, Number(offsetInput.value) || 0);
    offsetMs = v;
    document.body.dataset.offsetMs = String(v);
    try { localStorage.setItem(OFFSET_KEY, String(v)); } catch (e) { /* ignore */ }
  });
  setupEl.hidden = params.get("setup") !== "1";
  document.addEventListener("keydown", (e) => {
    if (e.key === "s" || e.key === "S") setupEl.hidden = !setupEl.hidden;
  });

  // Frames wait in arrival order; each is applied offsetMs after it came.
  const queue = [];
  let timer = null;
  function showPending() { document.body.dataset.pending = String(queue.length); }
  function pump() {
    timer = null;
    const now = Date.now();
    while (queue.length && queue[0].due <= now) apply(queue.shift().frame);
    showPending();
    if (queue.length) timer = setTimeout(pump, Math.max(0, queue[0].due - now));
  }
  function enqueue(frame) {
    queue.push({ due: Date.now() + offsetMs, frame: frame });
    showPending();
    if (timer === null) pump();
  }
  showPending();

  // ------------------------------------------------------------ drawing
  function cardEl(code) {
    const el = document.createElement("div");
    if (!code) { el.className = "card back"; return el; }
    el.className = "card" + (code[1] === "d" || code[1] === "h" ? " red" : "");
    const rank = document.createElement("span");
    rank.textContent = code[0] === "T" ? "10" : code[0];
    const suit = document.createElement("span");
    suit.className = "suit";
    suit.textContent = SUITS[code[1]] || "?";
    el.append(rank, suit);
    el.dataset.card = code;
    return el;
  }

  function setCards(el, cards) {
    const key = JSON.stringify(cards);
    if (el.dataset.cards === key) return;
    el.dataset.cards = key;
    el.replaceChildren(...cards.map(cardEl));
    el.classList.toggle("four", cards.length > 2);
  }

  function pct(x) { return (100 * x).toFixed(1) + "%"; }

  function num(n) {
    if (typeof n !== "number") return "";
    return FW.i18n.num ? FW.i18n.num(n) : String(n);
  }

  function nameOf(p) { return p && p.name ? p.name : t("seat", { n: p ? p.seat : "?" }); }

  function panel(seat) {
    let el = seatsEl.querySelector('.seat[data-seat="' + seat + '"]');
    if (el) return el;
    el = document.createElement("div");
    el.className = "seat";
    el.dataset.seat = String(seat);
    el.dataset.pos = String(seat);
    el.innerHTML =
      '<div class="cards" data-field="cards"></div>' +
      '<div class="info">' +
      '  <div class="top"><span data-field="name"></span>' +
      '    <span class="badge button" hidden></span>' +
      '    <span class="badge allin" hidden></span>' +
      '    <span class="badge fold" hidden></span></div>' +
      '  <div class="chips"><span data-field="stack"></span>' +
      '    <span class="bet-chip" hidden><span data-field="bet"></span></span>' +
      '    <span class="won-chip" hidden>+<span data-field="won">0</span></span></div>' +
      '  <div class="eq"><div class="bar"><div class="fill"></div></div>' +
      '    <span data-field="equity"></span></div>' +
      '  <div class="sub"><span data-field="hand-name"></span><span data-field="hilo"></span>' +
      '    <span data-field="outs"></span></div>' +
      "</div>";
    seatsEl.appendChild(el);
    return el;
  }

  function field(el, name) { return el.querySelector('[data-field="' + name + '"]'); }

  function drawSeat(p, eqInfo) {
    const el = panel(p.seat);
    el.hidden = false;
    field(el, "name").textContent = nameOf(p);
    field(el, "stack").textContent = num(p.stack);
    field(el, "bet").textContent = p.bet ? num(p.bet) : "";
    el.querySelector(".bet-chip").hidden = !p.bet;
    field(el, "stack").dataset.value = String(p.stack === null ? "" : p.stack);
    field(el, "bet").dataset.value = String(p.bet || 0);
    field(el, "won").textContent = num(p.won || 0);
    el.querySelector(".won-chip").hidden = !p.won;
    setCards(field(el, "cards"), p.cards || []);
    el.classList.toggle("folded", !!p.folded);
    el.classList.toggle("allin", !!p.all_in);
    el.classList.toggle("acting", !!p.acting);
    el.classList.toggle("shown", !!p.shown);
    // R-SHOW-3: a winner who showed only some cards: those are outlined, not the rest
    const up = p.shown_cards || [];
    const cards = p.cards || [];
    el.classList.toggle("part", !!p.shown && up.length < cards.length);
    field(el, "cards").querySelectorAll(".card").forEach((c, i) => c.classList.toggle("turned", up.includes(cards[i])));
    el.classList.toggle("won", !!p.won);
    el.dataset.folded = String(!!p.folded);
    el.dataset.allIn = String(!!p.all_in);
    el.dataset.acting = String(!!p.acting);
    const btn = el.querySelector(".badge.button");
    btn.hidden = !p.button;
    btn.textContent = t("button");
    const allin = el.querySelector(".badge.allin");
    allin.hidden = !p.all_in;
    allin.textContent = t("allin");
    const fold = el.querySelector(".badge.fold");
    fold.hidden = !p.folded;
    fold.textContent = t("fold");

    const eq = p.equity;
    const eqEl = field(el, "equity");
    const fill = el.querySelector(".fill");
    el.querySelector(".eq").hidden = !eq;
    if (eq) {
      eqEl.textContent = pct(eq.equity) + (eq.exact ? "" : " ~");
      eqEl.dataset.equity = String(eq.equity);
      eqEl.dataset.exact = String(!!eq.exact);
      eqEl.classList.toggle("quick", !eq.exact);
      eqEl.classList.toggle("stale", !!(eqInfo && eqInfo.stale));
      fill.style.width = (100 * eq.equity).toFixed(1) + "%";
      fill.classList.toggle("quick", !eq.exact);
    } else {
      eqEl.textContent = "";
      eqEl.dataset.equity = "";
      eqEl.dataset.exact = "";
      fill.style.width = "0";
    }
    field(el, "hand-name").textContent = eq && eq.hand_name ? eq.hand_name : "";
    field(el, "hilo").textContent = eq && eq.high !== undefined && eq.low !== undefined
      ? t("hilo", { high: pct(eq.high), low: pct(eq.low) }) : "";
    let outs = "";
    if (eq && eq.outs && eq.outs.length) {
      outs = eq.outs.length === 1 ? t("outs.one") : t("outs", { n: eq.outs.length });
      if (eq.split_outs && eq.split_outs.length) outs += " " + t("split", { n: eq.split_outs.length });
    }
    field(el, "outs").textContent = outs;
  }

  function actionText(a, bySeat) {
    if (!a) return "";
    const key = "act." + a.kind;
    const text = t(FW.i18n.has(key) ? key : "act.bet",
      { name: nameOf(bySeat.get(a.seat) || { seat: a.seat }), amount: num(a.amount), to: num(a.to) });
    return a.all_in ? t("act.allin", { text: text }) : text;
  }

  function draw(s) {
    picture = s;
    const bySeat = new Map(s.players.map((p) => [p.seat, p]));
    seatsEl.querySelectorAll(".seat").forEach((el) => {
      el.hidden = !bySeat.has(Number(el.dataset.seat));
    });
    s.players.forEach((p) => drawSeat(p, s.equity));
    const board = document.getElementById("board");
    setCards(board, s.board || []);
    board.classList.remove("four");
    const pot = document.getElementById("pot");
    pot.textContent = num(s.pot || 0);
    document.querySelector(".pot-box").hidden = !s.rules;
    pot.dataset.pot = String(s.pot || 0);
    document.getElementById("action").textContent = s.in_hand ? actionText(s.last_action, bySeat) : "";
    // heads-up outs: the cards that would put the trailing player ahead
    const outsEl = document.getElementById("outs");
    const lines = [];
    s.players.forEach((p) => {
      if (p.equity && p.equity.outs && p.equity.outs.length && p.equity.outs.length <= 12) {
        lines.push(t("outs.line", { name: nameOf(p), cards: p.equity.outs.join(" ") }));
      }
    });
    outsEl.textContent = lines.join(" · ");
    outsEl.hidden = !lines.length || !s.in_hand;
    // the award read-out at showdown
    const awards = document.getElementById("awards");
    awards.replaceChildren();
    if (s.voided) {
      const line = document.createElement("p");
      line.textContent = t("voided", { hand: s.hand });
      awards.appendChild(line);
    }
    (s.awards || []).forEach((a) => {
      const parts = (a.payouts || []).map((p) => {
        const key = p.half === "high" ? "wins.high" : p.half === "low" ? "wins.low" : "wins";
        return t(key, { name: nameOf(bySeat.get(p.seat) || { seat: p.seat }), amount: num(p.amount) });
      });
      const line = document.createElement("p");
      line.className = "award";
      line.dataset.text = a.text || "";
      line.textContent = parts.length ? parts.join(" · ")
        : FW.i18n.awardText ? FW.i18n.awardText(a.text) : a.text;
      awards.appendChild(line);
    });
    awards.hidden = !awards.childElementCount;
    document.body.dataset.hand = s.hand === null || s.hand === undefined ? "" : String(s.hand);
    document.body.dataset.frames = String((Number(document.body.dataset.frames) || 0) + 1);
  }

  function apply(frame) {
    if (frame.type === "snapshot" && frame.state) draw(frame.state);
    else if (frame.type === "state") draw(frame.state);
  }

  FW.i18n.apply();
  FW.i18n.onChange(() => { if (picture) draw(picture); });

  // ------------------------------------------------------------ the feed
  function setStatus(key) {
    document.body.dataset.status = key;
    const el = document.getElementById("status");
    el.dataset.i18n = "status." + key;
    el.textContent = t("status." + key);
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = new URLSearchParams();
    q.set("token", params.get("token") || "");
    if (params.get("table")) q.set("table", params.get("table"));
    const ws = new WebSocket(proto + "//" + location.host + "/ws/overlay?" + q.toString());
    ws.onopen = () => setStatus("live");
    ws.onclose = () => { setStatus("reconnecting"); setTimeout(connect, 1000); };
    ws.onmessage = (msg) => {
      const frame = JSON.parse(msg.data);
      if (frame.type === "snapshot" || frame.type === "state") enqueue(frame);
    };
  }
  connect();
})();
