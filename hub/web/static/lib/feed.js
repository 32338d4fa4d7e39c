// feltwire live feeds: a WebSocket to one of the hub's /ws/* feeds that reconnects by
// itself. After a drop it waits 1 s, then twice as long after each failed attempt (up to
// 30 s), and back to 1 s once a connection opened. The page learns the connection's state
// through onStatus: "live" when open, "reconnecting" while it waits (it starts as
// "connecting", which the page shows before calling openFeed).

const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30000;

/** The ws: or wss: URL (matching the page's own scheme) of `path` on this hub, with the
 * query parameters given (an object or URLSearchParams; empty values are kept). */
export function feedUrl(path, query) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const q = new URLSearchParams(query || {}).toString();
  return proto + "//" + location.host + path + (q ? "?" + q : "");
}

/** Open the feed at `path` (e.g. "/ws/console") and keep it open: each frame is parsed as
 * JSON and given to onFrame; onStatus("live" | "reconnecting") follows the connection.
 * Returns {close()} to stop it for good. */
export function openFeed({ path, query, onFrame, onStatus }) {
  let delay = FIRST_DELAY_MS;
  let ws = null;
  let stopped = false;
  let timer = null;

  function connect() {
    timer = null;
    ws = new WebSocket(feedUrl(path, query));
    ws.onopen = () => {
      delay = FIRST_DELAY_MS;
      if (onStatus) onStatus("live");
    };
    ws.onclose = () => {
      if (stopped) return;
      if (onStatus) onStatus("reconnecting");
      timer = setTimeout(connect, delay);
      delay = Math.min(MAX_DELAY_MS, delay * 2);
    };
    ws.onmessage = (msg) => onFrame(JSON.parse(msg.data));
  }

  connect();
  return {
    close() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      if (ws) ws.close();
    },
  };
}
