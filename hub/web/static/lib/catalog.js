// The message catalog in the pages: the hub says what happened as texts — {key, params}, a
// key of hub/messages/catalog and the values of its {placeholders} — and the pages render
// them in their language from the same catalog, served as /static/messages/<lang>.json
// (written by `python -m hub.messages --write-static`). Rendering is hub.messages.render's:
// a number as the catalog's locale writes it (group_digits), a string as it is, a nested
// text rendered the same way, {seat: n} as the "seat" entry, {player: i} as "player" (i + 1).

const catalogs = {};
const PLACEHOLDER = /\{([a-z_][a-z0-9_]*)\}/g;

async function load(lang) {
  try {
    const res = await fetch(new URL("../messages/" + lang + ".json", import.meta.url));
    if (res.ok) catalogs[lang] = await res.json();
  } catch {
    /* offline, or a hub without the files: the frames' English is shown */
  }
}

/** Load the catalogs of `langs` that are not loaded yet. */
export async function loadCatalogs(langs) {
  await Promise.all(langs.filter((l) => !(l in catalogs)).map(load));
}

function param(value, cat, num) {
  if (typeof value === "number") {
    if (num) return num(value);
    return cat.group_digits ? new Intl.NumberFormat(cat.locale).format(value) : String(value);
  }
  if (typeof value === "string") return value;
  if (value && typeof value.key === "string") return fillIn(value, cat, num);
  if (value && "seat" in value) return fillIn({ key: "seat", params: { n: value.seat } }, cat, num);
  if (value && "player" in value) {
    return fillIn({ key: "player", params: { n: value.player + 1 } }, cat, num);
  }
  throw new Error("not a text parameter: " + JSON.stringify(value));
}

function fillIn(text, cat, num) {
  const template = cat.texts[text.key];
  if (typeof template !== "string") throw new Error("the catalog has no entry " + text.key);
  const params = text.params || {};
  return template.replace(PLACEHOLDER, (m, name) => {
    if (!(name in params)) throw new Error(text.key + " needs {" + name + "}");
    return param(params[name], cat, num);
  });
}

/** Text `text` ({key, params}) in `lang`; null when that catalog is not loaded or the text
 * does not fit it (the caller shows the frame's English instead). `num`, when given, writes
 * the numbers (a page that writes every number one way, as the public view does). */
export function renderText(text, lang, num) {
  const cat = catalogs[lang];
  if (!cat || !text || typeof text.key !== "string") return null;
  try {
    return fillIn(text, cat, num);
  } catch {
    return null;
  }
}
