// The broadcast overlay's plate layout (docs/overlay.md, "Plate layout"): plates go by the
// number of players, not by seat number — two stacks standing on the lower corners, the
// left one taking the odd player, filled in seat order up the left edge and down the
// right (so heads-up is one plate in each lower corner, six players three and three,
// nine five and four). Positions are in the stage's 1920x1080 design pixels.

export const STAGE = { width: 1920, height: 1080 };
export const PLATE = { width: 420, height: 118 };
export const EDGE = 24;
/** Top of the lowest row, and the pitch from row to row (px). */
export const BOTTOM_TOP = 908;
export const ROW_PITCH = 132;

/** The slot of each of `n` players, in seat order: {side: "left"|"right", row (0 the
 * lowest), left, top}. */
export function slots(n) {
  const leftCount = Math.ceil(n / 2);
  const out = [];
  for (let i = 0; i < n; i++) {
    const left = i < leftCount;
    const row = left ? i : n - 1 - i;
    out.push({
      side: left ? "left" : "right",
      row: row,
      left: left ? EDGE : STAGE.width - EDGE - PLATE.width,
      top: BOTTOM_TOP - row * ROW_PITCH,
    });
  }
  return out;
}

/** Put each visible plate of `boxes` (in seat order) in its slot. */
export function place(boxes) {
  slots(boxes.length).forEach((slot, i) => {
    const box = boxes[i];
    box.style.left = slot.left + "px";
    box.style.top = slot.top + "px";
    box.dataset.side = slot.side;
    box.dataset.row = String(slot.row);
  });
}
