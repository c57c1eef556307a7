// Tiny DOM helpers: h() builds elements, so views read as their markup.

/**
 * h("button", {class: "x", dataset: {testid: "btn"}, onclick: fn, disabled: true}, [children])
 * Attributes: `dataset` object, `on<event>` functions, booleans set/omit the
 * attribute, everything else is setAttribute. Children: nodes, strings,
 * numbers, arrays, null/false (skipped).
 */
export function h(tag, attrs = {}, children = []) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, "");
    else if (k === "value" && (tag === "input" || tag === "textarea" || tag === "select")) el.value = v;
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

function append(el, c) {
  if (c === null || c === undefined || c === false) return;
  if (Array.isArray(c)) c.forEach((x) => append(el, x));
  else if (c instanceof Node) el.append(c);
  else el.append(String(c));
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

export function showError(box, message) {
  box.textContent = message;
  box.hidden = false;
}

/**
 * Put ``children`` in ``el`` unless it already shows exactly that. A live region written with
 * the text it already holds is read out again, so live regions are written through this.
 * Returns whether ``el`` changed.
 */
export function setContent(el, children) {
  const next = h("div", {}, children);
  if (next.innerHTML === el.innerHTML) return false;
  el.replaceChildren(...next.childNodes);
  return true;
}

/**
 * Show ``message`` in the corner for a few seconds; returns its element (remove() takes it away
 * sooner). ``quiet``: the same words are already in a live region of the page (the hint line, the
 * error banner), so screen readers do not hear them twice: the toast is only seen.
 */
export function toast(message, kind = "info", { quiet = false } = {}) {
  let host = document.getElementById("toasts");
  if (!host) {
    host = h("div", { id: "toasts", class: "toasts", "aria-live": "polite" });
    document.body.append(host);
  }
  const t = h("div", quiet ? { class: `toast ${kind}`, "aria-hidden": "true" }
    : { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" }, message);
  host.append(t);
  setTimeout(() => t.remove(), kind === "error" ? 8000 : 3500);
  return t;
}

/** Go to another page of the app without a reload (app.js's router draws it). */
export function goTo(path) {
  history.pushState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}
