// feltwire table page: renders a snapshot, then applies each change from the WebSocket:
// antennas, the hand (whose turn it is, pot awards) and the dealer's alerts. The public feed
// never carries a hole card, so neither does this page.
(function () {
  "use strict";
  const feed = document.body.dataset.feed;
  const params = new URLSearchParams(location.search);
  const SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
  const antennas = new Map();
  const MAX_ALERTS = 12;
  let turn = { acting: null, all_in: [], folded: [] };

  function cardEl(code) {
    const el = document.createElement("div");
    if (!code) { el.className = "card back"; return el; }
    el.className = "card" + (code[1] === "d" || code[1] === "h" ? " red" : "");
    el.textContent = (code[0] === "T" ? "10" : code[0]) + SUITS[code[1]];
    el.dataset.card = code;
    return el;
  }

  function render(a) {
    let box = document.getElementById("ant-" + a.reader);
    if (!box) {
      box = document.createElement("div");
      box.className = "antenna";
      box.id = "ant-" + a.reader;
      box.innerHTML = "<h2></h2><div class='cards'></div><div class='equity'></div>";
      box.querySelector("h2").textContent = a.reader;
      const where = a.kind === "seat" || a.kind === "up" ? "seats" : a.kind === "board" ? "board" : "side";
      document.getElementById(where).appendChild(box);
      if (a.kind === "seat") setTimeout(() => showTurn(turn), 0);
    }
    const cards = box.querySelector(".cards");
    cards.replaceChildren();
    if (a.cards) { a.cards.forEach((c) => cards.appendChild(cardEl(c))); }
    else { for (let i = 0; i < a.count; i++) cards.appendChild(cardEl(null)); }
  }

  function showEquity(ev) {
    const shown = new Map(ev.players.map((p) => [p.reader, p]));
    document.querySelectorAll(".antenna").forEach((box) => {
      const p = shown.get(box.id.slice(4));
      const el = box.querySelector(".equity");
      el.textContent = p ? (100 * p.equity).toFixed(1) + "%" + (ev.exact ? "" : " ~") : "";
      el.dataset.equity = p ? String(p.equity) : "";
    });
  }

  function seatBox(seat) { return document.getElementById("ant-seat" + seat); }

  function showTurn(t) {
    turn = { acting: t.acting, all_in: t.all_in || [], folded: t.folded || [] };
    document.querySelectorAll(".antenna").forEach((box) => {
      const m = /^ant-seat(\d+)$/.exec(box.id);
      const seat = m ? Number(m[1]) : null;
      box.classList.toggle("acting", seat !== null && seat === turn.acting);
      box.classList.toggle("allin", seat !== null && turn.all_in.includes(seat));
      box.classList.toggle("folded", seat !== null && turn.folded.includes(seat));
    });
  }

  function showHand(h) {
    const el = document.getElementById("hand");
    if (!h || !h.hand) { el.textContent = ""; return; }
    el.textContent = "Hand " + h.hand + " · button seat " + h.button +
      (h.small_blind ? " · small blind seat " + h.small_blind : "") +
      (h.big_blind ? " · big blind seat " + h.big_blind : "");
    el.dataset.hand = String(h.hand);
  }

  function showAwards(texts) {
    const el = document.getElementById("awards");
    el.replaceChildren();
    (texts || []).forEach((t) => {
      const p = document.createElement("p");
      p.className = "award";
      p.textContent = t;
      el.appendChild(p);
    });
    el.hidden = !el.childElementCount;
  }

  function addAlert(a) {
    const list = document.getElementById("alert-list");
    const li = document.createElement("li");
    li.className = "alert " + a.severity;
    li.dataset.code = a.code;
    const meta = document.createElement("span");
    meta.className = "meta";
    meta.textContent = (a.seat ? "seat " + a.seat + " · " : "") + a.rule +
      (a.hand ? " · hand " + a.hand : "");
    const what = document.createElement("span");
    what.className = "what";
    what.textContent = a.message;
    const remedy = document.createElement("div");
    remedy.className = "remedy";
    remedy.textContent = a.remedy;
    li.append(meta, what, remedy);
    list.prepend(li);
    while (list.childElementCount > MAX_ALERTS) list.lastElementChild.remove();
    document.getElementById("alerts").hidden = false;
    if (a.seat) {
      const box = seatBox(a.seat);
      if (box) {
        box.classList.add("alerted");
        setTimeout(() => box.classList.remove("alerted"), 3000);
      }
    }
  }

  function applyRules(r) {
    showHand(r.in_hand ? r : null);
    showTurn(r);
    showAwards(r.in_hand ? [] : r.awards);
    document.getElementById("alert-list").replaceChildren();
    (r.alerts || []).forEach(addAlert);
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let url = proto + "//" + location.host + "/ws/" + feed;
    if (feed === "overlay") url += "?token=" + encodeURIComponent(params.get("token") || "");
    const ws = new WebSocket(url);
    const status = document.getElementById("status");
    ws.onopen = () => { status.textContent = "live"; };
    ws.onclose = () => { status.textContent = "reconnecting…"; setTimeout(connect, 1000); };
    ws.onmessage = (msg) => {
      const ev = JSON.parse(msg.data);
      if (ev.type === "snapshot") {
        ev.antennas.forEach((a) => { antennas.set(a.reader, a); render(a); });
        if (ev.rules) applyRules(ev.rules);
      }
      else if (ev.type === "antenna") { antennas.set(ev.reader, ev); render(ev); }
      else if (ev.type === "equity") { showEquity(ev); }
      else if (ev.type === "hand") { showHand(ev); showAwards([]); showTurn({ acting: null }); }
      else if (ev.type === "turn") { showTurn(ev); }
      else if (ev.type === "alert") { addAlert(ev); }
      else if (ev.type === "hand_end") {
        showAwards(ev.voided ? ["Hand " + ev.hand + " is void (misdeal)"] : ev.awards);
        showTurn({ acting: null });
      }
    };
  }

  async function stats() {
    try {
      const r = await fetch("/api/stats");
      const s = await r.json();
      const c = s.counters;
      document.getElementById("stats").textContent =
        "reads accepted " + (c.accepted || 0) + " · refused " + (c.rejected || 0) +
        " · unknown tags " + (c.unknown_tag || 0);
    } catch (e) { /* hub restarting */ }
  }
  connect();
  stats();
  setInterval(stats, 2000);
})();
