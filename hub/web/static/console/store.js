// The dealer console's page state: the latest console state from the hub, the action the
// dealer chose and has not confirmed yet, the open seat form; and the one render() every
// module calls after a change (set by the entry module, console.js).

/** What the page shows and what the dealer is doing. */
export const store = {
  state: null, // the hub's console state (hub/web/console.py), null before the first
  pending: null, // {act, to}: the action chosen, sent on confirm
  seatForm: null, // {op, seat}: the seat form being filled in
};

let renderAll = () => {};

/** Set the function that draws the whole page from store.state. */
export function setRenderer(fn) {
  renderAll = fn;
}

/** Show a new console state (a feed frame or an API answer). */
export function show(next) {
  store.state = next;
  renderAll();
}

/** Draw the page again (after a language switch, say). */
export function render() {
  if (store.state) renderAll();
}

// Buttons are rebuilt only when what they show changed (a frame comes with every read:
// rebuilding under a finger would swallow the tap).
const memo = {};

/** True (and remembered) when `value` differs from the last one seen under `name` in this
 * language. */
export function changed(name, value, lang) {
  const key = JSON.stringify(value) + "|" + lang;
  if (memo[name] === key) return false;
  memo[name] = key;
  return true;
}
