// feltwire alert and award texts in Czech, picked by matching the hub's English text.
// This is the one module the message catalog (alert codes with parameters, en and cs from
// one source shared with the server) will replace; until then lib/i18n.js asks it through
// alertParts() and awardText() and nothing else reads these tables.

import { fill } from "./format.js";

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

const ALERTS = { cs: ALERTS_CS };
const AWARDS = { cs: AWARD_CS };

/** More alert translations (a page's own alert codes): addAlerts("cs", {code: [variant]}). */
export function addAlerts(lang, entries) {
  ALERTS[lang] = Object.assign(ALERTS[lang] || {}, entries);
}

/** An alert frame's {message, remedy} in `lang`: the first variant of its code whose `re`
 * matches the English message, filled in; the hub's English when `lang` has none. */
export function alertParts(lang, a) {
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
}

/** A pot award read-out of the hub ("main pot 30: seat 2 takes 30") in `lang`. */
export function awardText(lang, text) {
  let out = String(text || "");
  for (const [re, to] of AWARDS[lang] || []) out = out.replace(re, to);
  return out;
}
