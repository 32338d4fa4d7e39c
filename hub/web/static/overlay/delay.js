// The broadcast overlay's board-sync offset: every frame is applied offset_ms after it
// arrived (?offset_ms=N, or the producer's setting kept in localStorage), so the graphics
// line up with the delayed video. Frames wait in arrival order; the body's data-pending
// says how many wait, data-offset-ms the offset in force.

const OFFSET_KEY = "feltwire.overlay.offset_ms";
const queue = [];
let timer = null;
let offsetMs = 0;
let applyFrame = () => {};

function readOffset(params) {
  const q = params.get("offset_ms");
  if (q !== null && q !== "" && !Number.isNaN(Number(q))) return Math.max(0, Number(q));
  try {
    const saved = localStorage.getItem(OFFSET_KEY);
    if (saved !== null && !Number.isNaN(Number(saved))) return Math.max(0, Number(saved));
  } catch {
    /* storage may be off */
  }
  return 0;
}

function showPending() {
  document.body.dataset.pending = String(queue.length);
}

function pump() {
  timer = null;
  const now = Date.now();
  while (queue.length && queue[0].due <= now) applyFrame(queue.shift().frame);
  showPending();
  if (queue.length) timer = setTimeout(pump, Math.max(0, queue[0].due - now));
}

/** Start the delay: frames go to `apply` when due; `input` is the setup's offset field
 * (the producer's changes are kept). */
export function startDelay(params, input, apply) {
  applyFrame = apply;
  offsetMs = readOffset(params);
  input.value = String(offsetMs);
  document.body.dataset.offsetMs = String(offsetMs);
  input.addEventListener("change", () => {
    offsetMs = Math.max(0, Number(input.value) || 0);
    document.body.dataset.offsetMs = String(offsetMs);
    try {
      localStorage.setItem(OFFSET_KEY, String(offsetMs));
    } catch {
      /* ignore */
    }
  });
  showPending();
}

/** Hold `frame` for the offset, then apply it. */
export function enqueue(frame) {
  queue.push({ due: Date.now() + offsetMs, frame: frame });
  showPending();
  if (timer === null) pump();
}
