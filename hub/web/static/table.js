// feltwire table page: renders a snapshot, then applies each antenna change from the WebSocket.
(function () {
  "use strict";
  const feed = document.body.dataset.feed;
  const params = new URLSearchParams(location.search);
  const SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
  const antennas = new Map();

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
      if (ev.type === "snapshot") { ev.antennas.forEach((a) => { antennas.set(a.reader, a); render(a); }); }
      else if (ev.type === "antenna") { antennas.set(ev.reader, ev); render(ev); }
      else if (ev.type === "equity") { showEquity(ev); }
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
