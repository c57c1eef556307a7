// REST calls and the per-table seat tokens kept in localStorage.

export class ApiError extends Error {
  constructor(message, status, code, problems = [], detail = null) {
    super(message);
    this.status = status;
    this.code = code;
    // The refusal's object as the server sent it (`already_joined` adds `table_id` and `seat`), or null.
    this.detail = detail;
    // Each problem the server listed (a refused set of rules lists every one), for a form to point at.
    this.problems = problems;
  }
}

/** fetch JSON; a non-2xx answer becomes an ApiError carrying the server's message. */
export async function api(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(`Cannot reach the server (${e.message}).`, 0, "network");
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { message: text };
  }
  if (!res.ok) {
    throw new ApiError(errorMessage(data) || `${res.status} ${res.statusText}`, res.status,
      data?.code ?? data?.error?.code ?? data?.detail?.code,
      [data?.problems, data?.error?.problems, data?.detail?.problems].find(Array.isArray) ?? [],
      [data?.detail, data?.error].find((d) => d && typeof d === "object" && !Array.isArray(d)) ?? null);
  }
  return data;
}

let rulesAsked = null;

/**
 * The rules catalogue (`GET /api/rules`), asked for once a page load: the lobby and the table
 * share the answer. A failure is not kept: the next caller asks again.
 */
export function ruleCatalogue() {
  rulesAsked ??= api("GET", "/api/rules").catch((e) => {
    rulesAsked = null;
    throw e;
  });
  return rulesAsked;
}

/** The words of an error body, whatever shape the server gave it. */
export function errorMessage(data) {
  if (!data) return "";
  if (typeof data === "string") return data;
  if (typeof data.message === "string") return data.message;
  if (data.error) return errorMessage(data.error);
  const d = data.detail;
  if (typeof d === "string") return d;
  if (Array.isArray(d)) return d.map((x) => x.msg ?? JSON.stringify(x)).join("; ");
  if (d && typeof d === "object") {
    // Each problem once: the message often holds them all already ("a; b").
    const msg = errorMessage(d);
    const missing = (Array.isArray(d.problems) ? d.problems : []).filter((p) => typeof p === "string" && !msg.includes(p));
    if (!missing.length) return msg;
    return msg ? `${msg}: ${missing.join("; ")}` : missing.join("; ");
  }
  return "";
}

const PREFIX = "rummy500.";

export function storedName() {
  return localStorage.getItem(PREFIX + "name") || "";
}

export function storeName(name) {
  localStorage.setItem(PREFIX + "name", name);
}

/** {seat, token, name, creator} for a table, or null. */
export function seatFor(tableId) {
  try {
    return JSON.parse(localStorage.getItem(`${PREFIX}seat.${tableId}`) || "null");
  } catch {
    return null;
  }
}

export function storeSeat(tableId, info) {
  // `at`: when this browser first sat there (the tables it knows are listed newest first).
  localStorage.setItem(`${PREFIX}seat.${tableId}`, JSON.stringify({ at: Date.now(), ...info }));
}

/**
 * The tables this browser holds a seat at: [{id, seat: {seat, token, name, creator, title, at}}],
 * newest first (by when this browser sat there).
 */
export function storedSeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (!k?.startsWith(`${PREFIX}seat.`)) continue;
    let seat = null;
    try { seat = JSON.parse(localStorage.getItem(k)); } catch { /* an old entry */ }
    out.push({ id: k.slice(`${PREFIX}seat.`.length), seat: seat && typeof seat === "object" ? seat : {} });
  }
  return out.sort((a, b) => (b.seat.at || 0) - (a.seat.at || 0));
}

/**
 * The tables of this browser with their public facts now (`GET /api/tables/{id}`: status, title,
 * created, finished, seats; `table` null when the server no longer has it), newest first: the
 * table's creation time, else when this browser sat there. ``stored``: `storedSeats()`, when the
 * page has read them already. At most ``max`` are asked about (the newest stored).
 */
export async function yourTablesNow(stored = storedSeats(), max = 30) {
  const when = (r) => Date.parse(r.table?.created ?? "") || r.seat.at || 0;
  const rows = stored.slice(0, max).map((r) => ({ ...r }));
  await Promise.all(rows.map(async (r) => {
    try {
      r.table = await api("GET", `/api/tables/${encodeURIComponent(r.id)}`);
    } catch (e) {
      r.table = null;
      r.gone = e.status === 404;
    }
  }));
  return rows.sort((a, b) => when(b) - when(a));
}

/**
 * The link that brings this browser's seat at a table to another device: the table's page with
 * the seat and its token in the fragment (`#seat=1&token=…`), which browsers never send to a
 * server (no access log or proxy sees it). A secret: whoever opens it plays the seat.
 */
export function seatLink(tableId, info) {
  const words = new URLSearchParams({ seat: String(info.seat), token: info.token });
  return new URL(`/t/${encodeURIComponent(tableId)}#${words}`, location.href).href;
}

/** The table of this page's address (`/t/{id}`), or null. */
function tableOfPage() {
  const m = location.pathname.match(/^\/t\/([^/]+)\/?$/);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}

/**
 * A seat brought by a link of seatLink: {seat, token} from the address's fragment, or null. The
 * fragment is taken out of the address bar at once (it stays out of the history, and a copied
 * address does not carry the token on).
 *
 * A link never replaces a seat this browser holds at the table without asking: when it holds
 * another seat's token there (``tableId``: the page's table), the person is asked, naming both
 * seats, and a "no" keeps the seat it had (null, as if the link held no seat). A link is a secret
 * anyone may send, and the seat it would replace could not be found again without its own link.
 */
export function seatFromLink(tableId = tableOfPage()) {
  const hash = location.hash.replace(/^#/, "");
  if (!/(^|&)token=/.test(hash)) return null;
  const words = new URLSearchParams(hash);
  history.replaceState(history.state, "", location.pathname + location.search);
  const token = words.get("token")?.trim();
  const seat = Number(words.get("seat"));
  if (!token || !Number.isInteger(seat) || seat < 0) return { seat: null, token: null };
  const had = tableId == null ? null : seatFor(tableId);
  if (had?.token && had.token !== token && !switchSeat(had, seat)) return null;
  return { seat, token };
}

/** Whether the person takes the seat ``seat`` a link brings, giving up ``had``, the seat this browser holds there. */
function switchSeat(had, seat) {
  const linked = `seat ${seat + 1}`;
  const mine = Number.isInteger(had.seat) ? `seat ${had.seat + 1}` : "a seat";
  const same = had.seat === seat;
  const who = had.name ? ` (as ${had.name})` : "";
  return window.confirm(
    `The link you opened is for ${linked} at this table, but this browser already holds `
    + `${same ? "that seat here with another key" : `${mine} here`}${who}.\n\n`
    + `OK: play ${linked} with the link's key here; this browser forgets the seat it had (only that seat's own link brings it back).\n`
    + `Cancel: keep ${mine}${same ? " with this browser's key" : ""}.`);
}

export function forgetSeat(tableId) {
  localStorage.removeItem(`${PREFIX}seat.${tableId}`);
}

// How long a note of a seat given back is kept: long enough for another tab (or one reconnecting) to read it.
const LEFT_NOTE_MS = 24 * 3600 * 1000;

/**
 * Note that this browser is giving back its seat (``token``) at a table: another tab of it, whose
 * socket the server then closes, says that this browser left (not that the creator freed the seat).
 * Old notes of other tables go.
 */
export function noteLeaving(tableId, token) {
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const k = localStorage.key(i);
    if (!k?.startsWith(`${PREFIX}left.`)) continue;
    let at = 0;
    try { at = JSON.parse(localStorage.getItem(k))?.at || 0; } catch { /* an odd entry */ }
    if (Date.now() - at > LEFT_NOTE_MS) localStorage.removeItem(k);
  }
  localStorage.setItem(`${PREFIX}left.${tableId}`, JSON.stringify({ token, at: Date.now() }));
}

/** Whether this browser gave back the seat ``token`` at a table (noteLeaving). */
export function leftHere(tableId, token) {
  try {
    return !!token && JSON.parse(localStorage.getItem(`${PREFIX}left.${tableId}`) || "null")?.token === token;
  } catch {
    return false;
  }
}

/** The seat ``token`` was not given back after all (Leave refused): its note goes. */
export function unnoteLeaving(tableId, token) {
  if (leftHere(tableId, token)) localStorage.removeItem(`${PREFIX}left.${tableId}`);
}

/** Give this browser's seat back while the table waits (`POST .../leave`); answers the table's facts. */
export function leaveSeat(tableId, token) {
  return api("POST", `/api/tables/${encodeURIComponent(tableId)}/leave`, undefined, token);
}

/** The creator frees another person's seat while the table waits; answers the table's facts. */
export function removeSeat(tableId, seat, token) {
  return api("POST", `/api/tables/${encodeURIComponent(tableId)}/seats/${encodeURIComponent(seat)}/remove`, undefined, token);
}
