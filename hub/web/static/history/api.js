// feltwire hand history: the filters as the API's query, and the API's answers (a refusal
// as the catalog text the hub sent with it, in the reader's language).

import { i18n } from "../lib/i18n.js";

export const FILTERS = ["table", "since", "until", "player", "game"];

/** The filters of `form` that are set, as {name: value}. */
export function filtersOf(form) {
  const out = {};
  for (const name of FILTERS) {
    const value = form.elements[name].value.trim();
    if (value) out[name] = value;
  }
  return out;
}

/** `path` with `params` as its query string. */
export function withQuery(path, params) {
  const q = new URLSearchParams(params).toString();
  return q ? path + "?" + q : path;
}

/** Why the hub refused (its catalog text in the reader's language), or a status line. */
export function refusalText(body, status) {
  if (body && body.text) {
    const said = i18n.text(body.text);
    if (said) return said;
  }
  if (body && typeof body.detail === "string") return body.detail;
  return "HTTP " + status;
}

/** GET `path` as JSON; throws an Error saying why when the hub refuses or is away. */
export async function getJson(path) {
  let r;
  try {
    r = await fetch(path, { credentials: "same-origin", headers: { Accept: "application/json" } });
  } catch {
    throw new Error(i18n.t("history.offline"));
  }
  let body = null;
  try {
    body = await r.json();
  } catch {
    /* not JSON */
  }
  if (!r.ok) throw new Error(refusalText(body, r.status));
  return body;
}
