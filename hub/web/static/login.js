// feltwire sign-in page: POST /api/session with a name and a password; the hub answers
// with an HttpOnly session cookie (no script can read it) and the session's CSRF token.
// Afterwards the page goes to ?next= (a path on this hub) or shows who is signed in.
//
// This is the page's entry module; the shared library is under lib/.

import { exposeForTests, i18n, markPressed } from "./lib/i18n.js";
import { STRINGS } from "./login/strings.js";

i18n.add(STRINGS);
exposeForTests();

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
  return /^\/(?![/\\])/.test(next) ? next : null;
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
      if (!info || info.via !== "session") {
        say("login.cookieRefused");
        return;
      }
      const next = nextPath();
      if (next) {
        location.assign(next);
        return;
      }
      show(info);
    } else if (r.status === 429) {
      say("login.tooMany", { seconds: r.headers.get("Retry-After") || "?" });
    } else if (r.status === 401) {
      say("login.wrong");
    } else {
      say("login.failed", { status: r.status });
    }
  } catch {
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
  } catch {
    say("login.offline");
  }
});

document.querySelectorAll("[data-lang]").forEach((b) => {
  b.addEventListener("click", () => i18n.set(b.dataset.lang));
});
const langButtons = () => markPressed(document);
i18n.onChange(() => {
  langButtons();
  if (current) show(current);
  if (shown) say(shown.key, shown.params, shown.ok);
});
i18n.apply();
langButtons();
whoami().then(show, () => {
  show(null);
  say("login.offline");
});
