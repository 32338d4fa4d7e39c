// feltwire i18n: the pages speak English and Czech (the club's languages).
// Each page registers its strings with FW.i18n.add({en: {...}, cs: {...}}) and writes
// text through FW.i18n.t(key, params); elements with data-i18n="key" are filled in by
// FW.i18n.apply(). The language comes from ?lang=, then localStorage, then the browser;
// FW.i18n.set(lang) switches it and calls every listener registered with onChange().
(function () {
  "use strict";
  const dicts = { en: {}, cs: {} };
  const listeners = [];
  const LANGS = ["en", "cs"];
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
  };
  window.FW = window.FW || {};
  window.FW.i18n = i18n;
})();
