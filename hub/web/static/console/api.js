// The dealer console's requests to /api/console/*, and the message line that says how the
// last one went ("Done", "Refused: …", "Error 403: …") in the current language.

import { i18n } from "../lib/i18n.js";
import { show } from "./store.js";

const params = new URLSearchParams(location.search);

/** An answer of the hub other than 2xx: its status, the reason it gave (English) and,
 * for a refusal, that reason as a catalog text ({key, params}) to say in any language. */
class ApiError extends Error {
  constructor(status, reason, text) {
    super(reason);
    this.status = status;
    this.text = text || null;
  }
}

function withTable(path) {
  const table = params.get("table");
  if (!table) return path;
  return path + (path.includes("?") ? "&" : "?") + "table=" + encodeURIComponent(table);
}

function reasonOf(detail) {
  if (Array.isArray(detail)) return detail.map((d) => d.msg || JSON.stringify(d)).join("; ");
  return typeof detail === "string" ? detail : JSON.stringify(detail);
}

// Every request of this page goes through here: same-origin credentials, the CSRF token
// of the page's meta tag (when the hub serves one), the ?token= of the URL as a bearer.
async function api(path, body) {
  const headers = { Accept: "application/json" };
  const csrf = document.querySelector("meta[name=csrf-token]")?.content;
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const token = params.get("token");
  if (token) headers.Authorization = "Bearer " + token;
  const init = { method: body === undefined ? "GET" : "POST", credentials: "same-origin", headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(withTable(path), init);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, reasonOf(data.detail), data.text);
  return data;
}

let said = null; // the last message, said again in the new language on a switch

/** Put a message (a string key and its parameters) in the message line; `kind` is "ok"
 * or "refused" (its class and data-kind). A parameter that is a hub text ({key, params})
 * is said in the current language, so a switch says the refusal again in the new one. */
export function say(key, values, kind) {
  said = { key, values, kind };
  const box = document.getElementById("message");
  const shown = {};
  for (const [name, value] of Object.entries(values || {})) {
    shown[name] = value && typeof value === "object" && value.key ? i18n.text(value) : value;
  }
  box.textContent = i18n.t(key, shown);
  box.className = "message" + (kind ? " " + kind : "");
  box.dataset.kind = kind || "";
}

/** Say the last message again (the language changed). */
export function sayAgain() {
  if (said) say(said.key, said.values, said.kind);
}

/** POST `body` to `path`, say how it went and show the state the hub answers with; the
 * hub's answer, or null when it refused with an error status. */
export async function send(path, body) {
  try {
    const data = await api(path, body === undefined ? {} : body);
    if (data.accepted === false) {
      say("console.refused", { reason: data.refused_text || data.refused }, "refused");
    }
    else say("console.done", {}, "ok");
    if (data.state) show(data.state);
    return data;
  } catch (err) {
    const reason = err.text || err.message || String(err);
    if (err.status === 409) say("console.refused", { reason }, "refused");
    else say("console.error", { status: err.status || "?", reason }, "refused");
    return null;
  }
}
