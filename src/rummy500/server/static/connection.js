// The table's WebSocket: reconnects with backoff, asks for a sync on every
// (re)connect and whenever a state version is skipped, and drops stale states.

// 4401: the token has no seat here; 4404: no such table (docs/protocol.md).
const CLOSE_CODES_FINAL = new Set([4401, 4403, 4404]);

export class TableConnection {
  /**
   * handlers: {state(msg), error(msg), chat(msg), other(msg), status(text, detail), fatal(reason)}
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
    ws.onopen = () => {
      this.attempt = 0;
      this.handlers.status?.("connected");
      this.sync();
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      if (CLOSE_CODES_FINAL.has(ev.code)) {
        this.handlers.fatal?.(ev.reason || `The server closed the connection (${ev.code}).`, ev.code);
        return;
      }
      this.scheduleReconnect();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  scheduleReconnect() {
    this.attempt += 1;
    // 0.5 s, 1 s, 2 s, 4 s ... capped at 10 s, with a little jitter.
    const delay = Math.min(10000, 500 * 2 ** (this.attempt - 1)) * (0.85 + Math.random() * 0.3);
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
