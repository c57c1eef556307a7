// The table's WebSocket: reconnects with backoff, asks for a sync on every
// (re)connect and whenever a state version is skipped, and drops stale states.

// Close codes the server sends (docs/protocol.md). After these, trying again
// cannot help: 4401 the token has no seat here, 4403 this page's address may
// not open sockets to the server, 4404 no such table, 4410 the server cannot
// rebuild this stored game (its moves no longer replay in this version).
const CLOSE_CODES_FINAL = new Set([4401, 4403, 4404, 4410]);
// 4429: this client holds too many sockets already; wait longer before trying again.
export const CLOSE_TOO_MANY = 4429;
// 4408: this connection fell too far behind; reconnect (and resync) at once.
export const CLOSE_TOO_SLOW = 4408;

/** What a close code means to the player, and whether the page tries again. */
export const CLOSE_WORDS = {
  4401: "This browser's seat at the table is no longer valid.",
  4403: "The game server refused this page: it was opened from an address the server does not serve. "
    + "Open the game from the server's own address (its host may need --public-url or --allow-origin).",
  4404: "There is no such table (it may have expired).",
  4408: "Your connection fell behind the table and the server dropped it. Reconnecting\u2026",
  4410: "This game cannot be opened by this version of the server: its stored moves no longer replay "
    + "under the rules as this version plays them. Tell the server's host; reloading will not help.",
  4429: "Too many rummy500 tabs are open from your network: the server allows only so many connections. "
    + "Close some tabs; this page keeps trying.",
};

export class TableConnection {
  /**
   * handlers: {state(msg), error(msg), chat(msg), other(msg), status(text, detail),
   * fatal(reason, code): closed for good, dropped(code, reason): closed, trying again}
   */
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.ws = null;
    this.version = null;
    this.attempt = 0;
    this.closed = false;
    this.syncPending = false;
    this.timer = null;
  }

  url() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    return `${proto}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}${q}`;
  }

  open() {
    this.closed = false;
    clearTimeout(this.timer);
    this.handlers.status?.(this.attempt ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (e) {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    // "Connected" once the server speaks (a socket it refuses, 4429, opens and closes at once).
    this.heard = false;
    ws.onopen = () => this.sync();
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (!this.heard && msg.type !== "error") {
        this.heard = true;
        this.attempt = 0;
        this.handlers.status?.("connected");
      }
      this.receive(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      if (CLOSE_CODES_FINAL.has(ev.code)) {
        this.handlers.fatal?.(CLOSE_WORDS[ev.code] ?? (ev.reason || `The server closed the connection (${ev.code}).`), ev.code);
        return;
      }
      if (CLOSE_WORDS[ev.code]) this.handlers.dropped?.(ev.code, CLOSE_WORDS[ev.code]);
      if (ev.code === CLOSE_TOO_SLOW) this.attempt = 0; // the network is fine: straight back
      // Too many sockets: give the others time to close (5 s, then longer).
      this.scheduleReconnect(ev.code === CLOSE_TOO_MANY ? 5000 : 0);
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  scheduleReconnect(atLeast = 0) {
    this.attempt += 1;
    // 0.5 s, 1 s, 2 s, 4 s ... capped at 10 s; after 4429 at least 5 s, up to 30 s; a little jitter.
    const base = Math.min(atLeast ? 30000 : 10000, Math.max(atLeast, 500 * 2 ** (this.attempt - 1)));
    const delay = base * (0.85 + Math.random() * 0.3);
    this.handlers.status?.("reconnecting", Math.round(delay / 1000));
    this.timer = setTimeout(() => this.open(), delay);
  }

  receive(msg) {
    if (msg.type === "state") {
      const v = msg.version;
      if (typeof v === "number" && this.version !== null) {
        if (v < this.version) return; // stale
        if (v > this.version + 1 && !this.syncPending) this.sync();
        else this.syncPending = false;
      } else {
        this.syncPending = false;
      }
      if (typeof v === "number") this.version = v;
      this.handlers.state?.(msg);
    } else if (msg.type === "error") {
      this.handlers.error?.(msg);
    } else if (msg.type === "chat") {
      this.handlers.chat?.(msg);
    } else {
      this.handlers.other?.(msg);
    }
  }

  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  sync() {
    this.syncPending = true;
    this.send({ type: "sync" });
  }

  action(action) {
    return this.send({ type: "action", version: this.version, action });
  }

  chat(text) {
    return this.send({ type: "chat", text });
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
    this.ws = null;
  }

  /** For tests and debugging: drop the socket as a network failure would. */
  drop() {
    if (!this.ws) return;
    this.handlers.status?.("reconnecting");
    this.ws.close();
  }
}
