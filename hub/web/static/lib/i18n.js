// feltwire i18n: the pages speak English and Czech (the club's languages).
// Each page registers its strings with i18n.add({en: {...}, cs: {...}}) and writes text
// through i18n.t(key, params); elements with data-i18n="key" are filled in by
// i18n.apply(). The language comes from ?lang=, then localStorage, then the browser;
// i18n.set(lang) switches it and calls every listener registered with onChange().
//
// Also here, for every page:
//   i18n.switcher()      a language switch widget (EN | CZ buttons) to put on a page;
//   i18n.text(t)         a text of the hub ({key, params}) in the current language, from
//                        the message catalog (catalog.js); null when it cannot be rendered;
//                        i18n.textNum(t) the same with numbers as i18n.num writes them;
//   i18n.alertText(a)    an alert frame's text and remedy in the current language (from
//                        its text and remedy_text); alertParts(a) gives {message, remedy};
//   i18n.awardText(a)    a pot award's read-out ({text, message}: PotAwarded, hand_end);
//   i18n.num(n), duration(seconds), missing(lang)  numbers, m:ss, untranslated keys.
// A frame without a text (an old hub) shows its English message. The catalogs of both
// languages are loaded before any page module runs (this module awaits them).

import { loadCatalogs, renderText } from "./catalog.js";
import { duration, fill, formatNumber } from "./format.js";

const dicts = { en: {}, cs: {} };
const listeners = [];
const LANGS = ["en", "cs"];
const LABELS = { en: "EN", cs: "CZ" };
const NAMES = { en: "English", cs: "Čeština" };
const LOCALES = { en: "en-GB", cs: "cs-CZ" };
const STORAGE_KEY = "feltwire.lang";

function initial() {
  const q = new URLSearchParams(location.search).get("lang");
  if (LANGS.includes(q)) return q;
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (LANGS.includes(saved)) return saved;
  } catch {
    /* storage may be off */
  }
  return (navigator.language || "en").toLowerCase().startsWith("cs") ? "cs" : "en";
}

let lang = initial();
await loadCatalogs(LANGS);

/** The pages' translations: one object shared by every module of a page. */
export const i18n = {
  LANGS,
  get lang() {
    return lang;
  },
  add(more) {
    for (const l of LANGS) Object.assign(dicts[l], (more && more[l]) || {});
  },
  has(key) {
    return key in dicts[lang] || key in dicts.en;
  },
  t(key, params) {
    const text = key in dicts[lang] ? dicts[lang][key] : key in dicts.en ? dicts.en[key] : key;
    return fill(text, params);
  },
  apply(root) {
    (root || document).querySelectorAll("[data-i18n]").forEach((e) => {
      e.textContent = i18n.t(e.dataset.i18n);
    });
    document.documentElement.lang = lang;
  },
  set(next) {
    if (!LANGS.includes(next) || next === lang) return;
    lang = next;
    try {
      localStorage.setItem(STORAGE_KEY, lang);
    } catch {
      /* ignore */
    }
    i18n.apply();
    listeners.forEach((fn) => fn(lang));
  },
  onChange(fn) {
    listeners.push(fn);
  },

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
    const mark = () => markPressed(box);
    mark();
    listeners.push(mark);
    return box;
  },

  // A text of the hub ({key, params}) in the current language, or null.
  text(t) {
    return renderText(t, lang);
  },

  // The same with its numbers written as i18n.num writes them (one way on a page), or null.
  textNum(t) {
    return renderText(t, lang, i18n.num);
  },

  // An alert frame's {message, remedy} in the current language.
  alertParts(a) {
    return {
      message: renderText(a.text, lang) ?? a.message ?? "",
      remedy: renderText(a.remedy_text, lang) ?? a.remedy ?? "",
    };
  },
  alertText(a) {
    const p = i18n.alertParts(a);
    return p.remedy ? p.message + " — " + p.remedy : p.message;
  },

  // A pot award ({text, message}) read out in the current language.
  awardText(a) {
    return renderText(a && a.text, lang) ?? (a && a.message) ?? "";
  },

  num(n) {
    return formatNumber(n, LOCALES[lang]);
  },

  // Seconds as m:ss (h:mm:ss from an hour).
  duration,
};

/** Mark the [data-lang] buttons inside `root` aria-pressed when theirs is the language. */
export function markPressed(root) {
  root.querySelectorAll("[data-lang]").forEach((b) => {
    b.setAttribute("aria-pressed", String(b.dataset.lang === lang));
  });
}

/** The deliberate test hook: the browser tests (tests/web) call window.FW.i18n through
 * page.evaluate (missing(), alertParts(), text()). Each page's entry module calls this once. */
export function exposeForTests() {
  window.FW = Object.assign(window.FW || {}, { i18n });
}
