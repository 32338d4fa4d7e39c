// feltwire pages' text formatting that does not depend on a language's words: filling
// {placeholders}, numbers in a locale, m:ss durations, percentages, clamping typed amounts.

/** `text` with each {name} replaced by params[name]; unknown placeholders stay as they are. */
export function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? String(params[k]) : m));
}

/** A number in the locale's digits grouping ("12 500" in cs-CZ); "" for a non-number. */
export function formatNumber(n, locale) {
  return typeof n === "number" ? new Intl.NumberFormat(locale).format(n) : "";
}

/** Seconds as m:ss (h:mm:ss from an hour); never negative. */
export function duration(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? h + ":" + String(m).padStart(2, "0") + ":" + ss : m + ":" + ss;
}

/** A fraction 0…1 as a percentage with one decimal ("81.3%"). */
export function percent(x) {
  return (100 * x).toFixed(1) + "%";
}

/** `value` as a whole number between lo and hi; lo when it is not a number at all. */
export function clamp(value, lo, hi) {
  const n = Math.round(Number(value));
  if (!Number.isFinite(n)) return lo;
  return Math.min(hi, Math.max(lo, n));
}
