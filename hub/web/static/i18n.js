// feltwire i18n: the pages speak English and Czech (the club's languages).
// Each page registers its strings with FW.i18n.add({en: {...}, cs: {...}}) and writes
// text through FW.i18n.t(key, params); elements with data-i18n="key" are filled in by
// FW.i18n.apply(). The language comes from ?lang=, then localStorage, then the browser;
// FW.i18n.set(lang) switches it and calls every listener registered with onChange().
//
// Also here, for every page:
//   FW.i18n.switcher()      a language switch widget (EN | CZ buttons) to put on a page;
//   FW.i18n.alertText(a)    an alert frame's text in the current language (English: its
//                           message and remedy; Czech: the translation of its code, seat
//                           filled in); alertParts(a) gives {message, remedy} apart;
//   FW.i18n.awardText(s)    a pot award read-out ("main pot 30: seat 2 takes 30");
//   FW.i18n.num(n), duration(seconds), missing(lang)  numbers, m:ss, untranslated keys.
(function () {
  "use strict";
  const dicts = { en: {}, cs: {} };
  const listeners = [];
  const LANGS = ["en", "cs"];
  const LABELS = { en: "EN", cs: "CZ" };
  const NAMES = { en: "English", cs: "Čeština" };
  const LOCALES = { en: "en-GB", cs: "cs-CZ" };

  // Czech texts of the dealer's alerts, one entry per AlertCode of hub/rules/alerts.py
  // (tests/web/test_i18n.py fails when a code has none). An entry lists variants: the first
  // whose `re` matches the English message is used (no `re`: always); its named groups and
  // the alert's seat and hand fill the {placeholders}; `msg0` is the text when the alert
  // names no seat. The words are the Czech dealer rules' (spálená karta, sázka, navýšení,
  // mimo pořadí, chybné rozdání, místo = seat, bank = pot).
  const ALERTS_CS = {
    deal_out_of_order: [{
      msg: "Karty rozdány mimo pořadí (místo {seat}).",
      msg0: "Karty rozdány mimo pořadí.",
      remedy: "Rozdávejte po jedné kartě po směru hodinových ručiček, od prvního hráče " +
        "nalevo od buttonu; před začátkem akce jde o chybné rozdání (R-DEAL-6).",
    }],
    wrong_card_count: [{
      re: /which has folded/,
      msg: "Karta rozdána na místo {seat}, které už složilo karty (fold).",
      remedy: "Vezměte kartu zpět.",
    }, {
      re: /too many/,
      msg: "Místo {seat} dostalo kartu navíc.",
      remedy: "Vezměte kartu navíc zpět; před začátkem akce jde o chybné rozdání.",
    }, {
      msg: "Místo {seat} má nesprávný počet karet.",
      msg0: "Nesprávný počet karet.",
      remedy: "Srovnejte počet karet podle pravidel hry; před začátkem akce jde o chybné " +
        "rozdání.",
    }],
    card_to_empty_seat: [{
      msg: "Karta rozdána na místo {seat}, které v této hře nehraje.",
      msg0: "Karta rozdána na prázdné místo.",
      remedy: "Vezměte kartu zpět; před začátkem akce jde o chybné rozdání (R-DEAL-6).",
    }],
    missing_burn: [{
      re: /the (?<street>.+) came without a burn/,
      msg: "Chybí spálená karta: {street} vyložen bez spálení.",
    }, {
      msg: "Chybí spálená karta.",
    }].map((v) => Object.assign(v, {
      remedy: "Před každou ulicí spalte jednu kartu; tyto karty nechte ležet, jak jsou.",
    })),
    extra_burn: [{
      re: /too many on the (?<street>.+)$/,
      msg: "Spálená karta navíc ({street}).",
    }, {
      msg: "Spálená karta navíc.",
    }].map((v) => Object.assign(v, {
      remedy: "Vraťte spálenou kartu navíc zpět na vršek balíčku.",
    })),
    premature_board_card: [{
      re: /when none is due/,
      msg: "Společná karta vyložena, když žádná nepřichází na řadu.",
      remedy: "Vezměte kartu zpět (předčasná karta, pravidlo herny).",
    }, {
      msg: "Karta rozdána na místo {seat} před koncem sázkového kola.",
      msg0: "Společná karta vyložena před koncem sázkového kola.",
      remedy: "Vezměte kartu zpět (předčasná karta, pravidlo herny).",
    }],
    duplicate_card: [{
      re: /two tags .* stand for the same card/,
      msg: "Dva tagy u místa {seat} označují stejnou kartu.",
      msg0: "Dva tagy označují stejnou kartu.",
      remedy: "Zkontrolujte balíček: karta je zdvojená nebo špatně zaregistrovaná.",
    }, {
      msg: "Karta místa {seat} je ve hře dvakrát.",
      msg0: "Jedna karta je ve hře dvakrát.",
      remedy: "Najděte druhou kopii a vyřaďte ji ze hry; zdvojená karta může hru zneplatnit.",
    }],
    unknown_tag: [{
      msg: "U místa {seat} leží tag, který není v registrovaném balíčku.",
      msg0: "Na stole leží tag, který není v registrovaném balíčku.",
      remedy: "Vyřaďte kartu ze hry, nebo balíček zaregistrujte znovu.",
    }],
    cards_left_seat: [{
      msg: "Karty místa {seat} opustily místo bez foldu.",
      remedy: "Karty zůstávají na anténě místa, dokud hráč karty nesloží (fold) nebo neukáže.",
    }],
    fold_out_of_turn: [{
      msg: "Místo {seat} složilo karty mimo pořadí.",
      remedy: "Fold platí a uplatní se, až bude hráč na řadě; připomeňte mu, ať počká.",
    }],
    action_out_of_turn: [{
      re: /seat (?<actor>\d+) is to act/,
      msg: "Místo {seat} jedná mimo pořadí; na řadě je místo {actor}.",
      remedy: "Akce se nepřijímá; nechte nejdřív jednat místo {actor}.",
    }, {
      msg: "Akce místa {seat}, zatímco se ještě rozdávají karty.",
      remedy: "Dokončete rozdávání; akce se nepřijímá.",
    }],
    folded_card_returned: [{
      msg: "Složená karta místa {seat} se vrátila do hry.",
      remedy: "Vraťte ji do odhozených karet; složená ruka zůstává mrtvá.",
    }],
    stud_card_wrong_place: [{
      msg: "Karta místa {seat} leží na nesprávné anténě (otevřená / zavřená karta).",
      remedy: "Přesuňte ji na správnou anténu místa {seat}: otevřenou lícem nahoru, " +
        "zavřenou lícem dolů.",
    }],
    draw_mismatch: [{
      msg: "Místo {seat}: počet karet při výměně nesouhlasí s odhozenými.",
      msg0: "Počet karet při výměně nesouhlasí s odhozenými.",
      remedy: "Dejte každému hráči přesně tolik karet, kolik odhodil.",
    }],
    winning_hand_mucked: [{
      msg: "Místo {seat} zahodilo vítěznou kombinaci dřív, než byla přečtena.",
      remedy: "Vyzvedněte karty a přečtěte kombinaci (rozhodnutí herny), nebo potvrďte " +
        "zahození.",
    }],
    misdeal_declared: [{
      re: /hand (?<hand>\d+) is void/,
      msg: "Chybné rozdání: hra {hand} je neplatná.",
    }, {
      msg: "Chybné rozdání: hra je neplatná.",
    }].map((v) => Object.assign(v, {
      remedy: "Všechny žetony se vracejí majitelům; seberte všechny karty a zamíchejte; " +
        "button se neposouvá.",
    })),
    // the hub's security alert (hub/service.py), not a rules AlertCode
    uid_on_two_antennas: [{
      msg: "Jeden registrovaný tag je čten na dvou anténách najednou: kopírovaný " +
        "(klonovaný či podvržený) tag, nebo karta ležící mezi anténami.",
      remedy: "Zkontrolujte tato místa; kopírovanou kartu vyřaďte ze hry a zavolejte floormana.",
    }],
  };
  const ALERTS = { cs: ALERTS_CS };

  // Pot award read-outs ("main pot 30: seat 2 takes 30 (high, odd chip)") in Czech.
  const AWARD_CS = [
    [/\(no low hand qualifies\)/g, "(žádná nízká kombinace se nekvalifikuje)"],
    [/\bmain pot\b/g, "hlavní bank"],
    [/\bside pot (\d+)/g, "vedlejší bank $1"],
    [/\bseat (\d+) takes (\d+)/g, "místo $1 bere $2"],
    [/\bodd chip\b/g, "lichý žeton"],
    [/\bhigh\b/g, "vysoká"],
    [/\blow\b/g, "nízká"],
  ];
  const AWARDS = { cs: AWARD_CS };

  function initial() {
    const q = new URLSearchParams(location.search).get("lang");
    if (LANGS.includes(q)) return q;
    try {
      const saved = localStorage.getItem("feltwire.lang");
      if (LANGS.includes(saved)) return saved;
    } catch (e) { /* storage may be off */ }
    return (navigator.language || "en").toLowerCase().startsWith("cs") ? "cs" : "en";
  }
  let lang = initial();
  function fill(text, params) {
    return text.replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? String(params[k]) : m));
  }
  const i18n = {
    LANGS,
    get lang() { return lang; },
    add(more) {
      for (const l of LANGS) Object.assign(dicts[l], (more && more[l]) || {});
    },
    has(key) { return key in dicts[lang] || key in dicts.en; },
    t(key, params) {
      const text = key in dicts[lang] ? dicts[lang][key] : key in dicts.en ? dicts.en[key] : key;
      return fill(text, params);
    },
    apply(root) {
      (root || document).querySelectorAll("[data-i18n]").forEach((el) => {
        el.textContent = i18n.t(el.dataset.i18n);
      });
      document.documentElement.lang = lang;
    },
    set(next) {
      if (!LANGS.includes(next) || next === lang) return;
      lang = next;
      try { localStorage.setItem("feltwire.lang", lang); } catch (e) { /* ignore */ }
      i18n.apply();
      listeners.forEach((fn) => fn(lang));
    },
    onChange(fn) { listeners.push(fn); },

    // English keys a language lacks (a page's strings must all be translated).
    missing(l) {
      return Object.keys(dicts.en).filter((k) => !(k in (dicts[l] || {})));
    },

    // A language switch: one button per language, the current one aria-pressed.
    switcher() {
      const box = document.createElement("div");
      box.className = "fw-lang";
      box.setAttribute("role", "group");
      box.setAttribute("aria-label", "Language / Jazyk");
      for (const l of LANGS) {
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.lang = l;
        b.textContent = LABELS[l];
        b.title = NAMES[l];
        b.lang = l;
        b.addEventListener("click", () => i18n.set(l));
        box.appendChild(b);
      }
      const mark = () => box.querySelectorAll("button").forEach((b) => {
        b.setAttribute("aria-pressed", String(b.dataset.lang === lang));
      });
      mark();
      listeners.push(mark);
      return box;
    },

    // More alert translations (a page's own alert codes): addAlerts("cs", {code: [variant]}).
    addAlerts(l, entries) {
      ALERTS[l] = Object.assign(ALERTS[l] || {}, entries);
    },

    // An alert frame's {message, remedy} in the current language.
    alertParts(a) {
      const en = { message: a.message || "", remedy: a.remedy || "" };
      const variants = (ALERTS[lang] || {})[a.code];
      if (!variants) return en;
      for (const v of variants) {
        const m = v.re ? v.re.exec(en.message) : null;
        if (v.re && !m) continue;
        const params = Object.assign(
          { seat: a.seat == null ? "?" : a.seat, hand: a.hand == null ? "?" : a.hand },
          (m && m.groups) || {},
        );
        const text = a.seat == null && v.msg0 ? v.msg0 : v.msg;
        return { message: fill(text, params), remedy: fill(v.remedy || "", params) };
      }
      return en;
    },
    alertText(a) {
      const p = i18n.alertParts(a);
      return p.remedy ? p.message + " — " + p.remedy : p.message;
    },

    awardText(text) {
      let out = String(text || "");
      for (const [re, to] of AWARDS[lang] || []) out = out.replace(re, to);
      return out;
    },

    num(n) {
      return typeof n === "number" ? new Intl.NumberFormat(LOCALES[lang]).format(n) : "";
    },

    // Seconds as m:ss (h:mm:ss from an hour).
    duration(seconds) {
      const s = Math.max(0, Math.ceil(seconds));
      const h = Math.floor(s / 3600);
      const m = Math.floor((s % 3600) / 60);
      const ss = String(s % 60).padStart(2, "0");
      return h ? h + ":" + String(m).padStart(2, "0") + ":" + ss : m + ":" + ss;
    },
  };
  window.FW = window.FW || {};
  window.FW.i18n = i18n;
})();
