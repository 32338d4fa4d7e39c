// feltwire sign-in page: POST /api/session with a name and a password; the hub answers
// with an HttpOnly session cookie (no script can read it) and the session's CSRF token.
// Afterwards the page goes to ?next= (a path on this hub) or shows who is signed in.
(function () {
  "use strict";
  const i18n = window.FW.i18n;
  i18n.add({
    en: {
      "login.title": "Sign in",
      "login.name": "Name",
      "login.password": "Password",
      "login.submit": "Sign in",
      "login.signOut": "Sign out",
      "login.signedIn": "Signed in as {name} ({role}).",
      "login.signedOut": "Signed out.",
      "login.wrong": "Wrong name or password.",
      "login.tooMany": "Too many failed attempts. Try again in {seconds} s.",
      "login.failed": "Sign-in failed ({status}). Try again.",
      "login.cookieRefused":
        "The browser did not keep the session cookie: open the hub over https, or set web.secure_cookies = false.",
      "login.offline": "The hub cannot be reached.",
      "role.dealer": "dealer",
      "role.producer": "producer",
      "role.admin": "admin",
    },
    cs: {
      "login.title": "Přihlášení",
      "login.name": "Jméno",
      "login.password": "Heslo",
      "login.submit": "Přihlásit",
      "login.signOut": "Odhlásit",
      "login.signedIn": "Přihlášen(a) jako {name} ({role}).",
      "login.signedOut": "Odhlášeno.",
      "login.wrong": "Špatné jméno nebo heslo.",
      "login.tooMany": "Příliš mnoho neúspěšných pokusů. Zkuste to znovu za {seconds} s.",
      "login.failed": "Přihlášení se nezdařilo ({status}). Zkuste to znovu.",
      "login.cookieRefused":
        "Prohlížeč si nepodržel přihlašovací cookie: otevřete hub přes https, nebo nastavte web.secure_cookies = false.",
      "login.offline": "Hub není dostupný.",
      "role.dealer": "krupiér",
      "role.producer": "produkce",
      "role.admin": "správce",
    },
  });

  const form = document.getElementById("login-form");
  const signedIn = document.getElementById("signed-in");
  const who = document.getElementById("who");
  const message = document.getElementById("message");
  const submit = document.getElementById("submit");
  let csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
  let shown = null; // {key, params, ok}

  function say(key, params, ok) {
    shown = key ? { key, params, ok } : null;
    message.textContent = key ? i18n.t(key, params) : "";
    message.classList.toggle("ok", !!ok);
  }

  function nextPath() {
    const next = new URLSearchParams(location.search).get("next") || "";
    // only a path on this hub: "/x", never "//host" or "/\host"
    return /^\/(?![\/\\])/.test(next) ? next : null;
  }

  let current = null;
  function show(info) {
    current = info;
    const session = info && info.via === "session";
    form.hidden = session;
    signedIn.hidden = !session;
    if (session) {
      csrf = info.csrf_token || csrf;
      who.textContent = i18n.t("login.signedIn", {
        name: info.name, role: i18n.t("role." + info.role),
      });
    }
  }

  async function whoami() {
    const r = await fetch("/api/session", { credentials: "same-origin" });
    return r.ok ? r.json() : null;
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    submit.disabled = true;
    say(null);
    try {
      const headers = { "Content-Type": "application/json" };
      if (csrf) headers["X-CSRF-Token"] = csrf;
      const r = await fetch("/api/session", {
        method: "POST", headers, credentials: "same-origin",
        body: JSON.stringify({
          name: document.getElementById("name").value,
          password: document.getElementById("password").value,
        }),
      });
      if (r.ok) {
        document.getElementById("password").value = "";
        const info = await whoami();
        if (!info || info.via !== "session") { say("login.cookieRefused"); return; }
        const next = nextPath();
        if (next) { location.assign(next); return; }
        show(info);
      } else if (r.status === 429) {
        say("login.tooMany", { seconds: r.headers.get("Retry-After") || "?" });
      } else if (r.status === 401) {
        say("login.wrong");
      } else {
        say("login.failed", { status: r.status });
      }
    } catch (e) {
      say("login.offline");
    } finally {
      submit.disabled = false;
    }
  });

  document.getElementById("sign-out").addEventListener("click", async () => {
    try {
      await fetch("/api/session", {
        method: "DELETE", credentials: "same-origin", headers: { "X-CSRF-Token": csrf },
      });
      csrf = "";
      show(await whoami());
      say("login.signedOut", null, true);
    } catch (e) {
      say("login.offline");
    }
  });

  document.querySelectorAll("[data-lang]").forEach((b) => {
    b.addEventListener("click", () => i18n.set(b.dataset.lang));
  });
  function langButtons() {
    document.querySelectorAll("[data-lang]").forEach((b) => {
      b.setAttribute("aria-pressed", String(b.dataset.lang === i18n.lang));
    });
  }
  i18n.onChange(() => {
    langButtons();
    if (current) show(current);
    if (shown) say(shown.key, shown.params, shown.ok);
  });
  i18n.apply();
  langButtons();
  whoami().then(show, () => { show(null); say("login.offline"); });
})();
