// The player's own hand: its order (sorted by suit or rank, or arranged by
// hand), the selection, drag-to-reorder (mouse and touch) and the keyboard.
//
// A hand may hold two identical cards (two packs), so each card is keyed by
// its code and which copy it is: "7H#0", "7H#1".

import { cardEl, sortKey } from "./cards.js";
import { h, clear } from "./dom.js";

const ORDER_KEY = "rummy500.sort";
// The selection key of the dealer's joker (Dealer's Gambit), which lies beside the hand, not in it.
const DEALER_JOKER = "JK#dealer";

export class Hand {
  constructor(onChange) {
    this.onChange = onChange; // called when the selection changes
    this.order = [];          // keys, in display order
    this.selected = new Set();
    this.fresh = new Set();   // keys that just arrived (highlighted once)
    this.mode = localStorage.getItem(ORDER_KEY) || "suit";
    // The sorted order a custom arrangement started from: new cards go where it would put them.
    this.baseMode = localStorage.getItem(`${ORDER_KEY}.base`) || (this.mode === "custom" ? "suit" : this.mode);
    this.el = h("div", {
      class: "hand", role: "group", "aria-label": "Your hand", dataset: { testid: "hand" },
    });
    // Dealer's Gambit: the dealer's joker lies face up beside the dealer's hand, the dealer's to use
    // while it is free (the view's `extra_jokers`). It is selected as a card of the hand is (its key
    // DEALER_JOKER), so a selection with it matches the legal melds and lay-offs that use it.
    this.dealerJoker = false;
    this.dealerSlot = h("div", { class: "dealer-joker-slot", hidden: true, dataset: { testid: "dealer-joker-slot" } });
    // The hand and the dealer's joker side by side (the hand keeps the width the joker leaves).
    this.row = h("div", { class: "hand-row" }, [this.el, this.dealerSlot]);
    this.drag = null;
    this.tap = null;          // the card a pointer's release just toggled (its click is skipped)
    // What the hand did with the last presses, releases and clicks (newest last),
    // for a failing browser test to show and for debugging: window.rummyHandTrail.
    this.trail = [];
    window.rummyHandTrail = this.trail;
    this.el.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.el.addEventListener("keydown", (e) => this.keyDown(e));
    // A new width (a phone turned, a zoom, the side column) may fit more or fewer cards on a row.
    this.fitWidth = 0;
    this.resizeObserver = typeof ResizeObserver === "function" ? new ResizeObserver(() => {
      if (this.el.clientWidth !== this.fitWidth) this.fit();
    }) : null;
    this.resizeObserver?.observe(this.el);
  }

  /**
   * Rows of the fanned hand: each card shows at least a strip as wide as its index (a "10" with its
   * suit), so the next card never covers it ("1(" for a 10). One row while the width allows that
   * (the overlap fits the cards to it); where it cannot (a large default font, a narrow window,
   * many cards) the cards go on two rows or more, as many on each (`rows`, `row-start`).
   */
  fit() {
    const cards = [...this.el.querySelectorAll(".card.in-hand")];
    this.fitWidth = this.el.clientWidth;
    let perRow = Math.max(2, cards.length);
    const first = cards[0];
    const corner = first?.querySelector(".corner");
    if (cards.length > 2 && corner && this.fitWidth > 0) {
      const style = getComputedStyle(this.el);
      const room = this.fitWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const width = first.getBoundingClientRect().width;
      const cs = getComputedStyle(corner);
      // The index's right edge: the corner's inset and padding, then "10" (set condensed: about 1.1 of its font size).
      const strip = corner.offsetLeft + parseFloat(cs.paddingLeft) + 1.1 * parseFloat(cs.fontSize) + 1;
      const fits = Math.max(2, Math.floor((room - width) / strip) + 1);
      if (fits < cards.length) {
        const rows = Math.ceil(cards.length / fits);
        perRow = Math.ceil(cards.length / rows);
      }
    }
    const rows = perRow < cards.length;
    this.el.classList.toggle("rows", rows);
    this.el.style.setProperty("--n", String(perRow));
    cards.forEach((c, i) => c.classList.toggle("row-start", rows && i > 0 && i % perRow === 0));
  }

  static keysOf(cards) {
    const seen = {};
    return cards.map((c) => {
      seen[c] = (seen[c] ?? -1) + 1;
      return `${c}#${seen[c]}`;
    });
  }

  /** Take a new hand from the server, keeping the player's order and selection. */
  /**
   * The hand's cards; `faceDown` is how many lie face down instead (Dealer's Gambit: nobody looks
   * at their cards before the dealer nominates), shown as card backs.
   */
  update(cards, faceDown = 0, dealerJoker = false) {
    this.setDealerJoker(dealerJoker);
    this.faceDown = cards?.length ? 0 : faceDown;
    const keys = Hand.keysOf(cards || []);
    const had = new Set(this.order);
    const present = new Set(keys);
    const firstUpdate = this.order.length === 0;
    const arrived = keys.filter((k) => !had.has(k));
    const newDeal = firstUpdate || arrived.length * 2 > keys.length;
    // Highlight cards just drawn or taken, not a whole new deal.
    this.fresh = new Set(newDeal ? [] : arrived);
    this.order = this.order.filter((k) => present.has(k));
    if (newDeal && this.mode === "custom") {
      // A new deal starts sorted again (the last sorted order the player chose).
      this.order = [];
      this.mode = this.baseMode;
      localStorage.setItem(ORDER_KEY, this.mode);
    }
    const by = this.mode === "custom" ? this.baseMode : this.mode;
    const key = (k) => sortKey(code(k), by);
    for (const k of keys) {
      if (this.order.includes(k)) continue;
      // A drawn or taken card goes next to the cards it sorts with, not to the far end.
      const at = this.order.findIndex((o) => key(o) > key(k));
      if (at < 0) this.order.push(k);
      else this.order.splice(at, 0, k);
    }
    if (this.dealerJoker) present.add(DEALER_JOKER);
    const gone = [...this.selected].filter((k) => !present.has(k));
    if (gone.length) this.note(`left the hand while selected: ${gone.join(" ")}`);
    this.selected = new Set([...this.selected].filter((k) => present.has(k)));
    if (this.mode !== "custom") this.sortBy(this.mode, false);
    this.render();
  }

  sortBy(mode, render = true) {
    this.mode = mode;
    localStorage.setItem(ORDER_KEY, mode);
    if (mode !== "custom") {
      this.baseMode = mode;
      localStorage.setItem(`${ORDER_KEY}.base`, mode);
    }
    if (mode !== "custom") {
      this.order.sort((a, b) => sortKey(code(a), mode) - sortKey(code(b), mode) || (a < b ? -1 : 1));
    }
    if (render) this.render();
  }

  /** Selected cards, as codes, in hand order (the dealer's joker, when selected, last). */
  selectedCards() {
    const out = this.order.filter((k) => this.selected.has(k)).map(code);
    if (this.selected.has(DEALER_JOKER)) out.push("JK");
    return out;
  }

  /** Selected cards, as codes, in the order the player picked them (first picked first). */
  pickedCards() {
    return [...this.selected].map(code);
  }

  /** Whether the dealer's joker (not a card of the hand) is among the selected cards. */
  dealerJokerSelected() {
    return this.selected.has(DEALER_JOKER);
  }

  /**
   * Show the dealer's joker beside the hand (`on`: it is free and this seat deals), or take it
   * away (used, blocked, another round): a selected one leaves the selection.
   */
  setDealerJoker(on) {
    on = !!on;
    if (on === this.dealerJoker) return;
    this.dealerJoker = on;
    if (!on && this.selected.delete(DEALER_JOKER)) this.note("the dealer's joker went while selected");
    clear(this.dealerSlot);
    this.dealerSlot.hidden = !on;
    if (!on) return;
    const el = cardEl("JK", { tag: "button", testid: "card-dealer-joker", extraLabel: "the dealer's joker: yours to use this hand, not in your hand" });
    el.type = "button";
    el.dataset.key = DEALER_JOKER;
    el.classList.add("dealer-joker");
    el.addEventListener("click", () => this.toggle(DEALER_JOKER, "click (the dealer's joker)"));
    this.dealerSlot.append(h("span", { class: "dj-label", "aria-hidden": "true" }, "Dealer's joker"), el);
    this.renderDealerJoker();
  }

  /** The dealer's joker's selected look (as a card of the hand). */
  renderDealerJoker() {
    const el = this.dealerSlot.querySelector("[data-testid=card-dealer-joker]");
    if (!el) return;
    const on = this.selected.has(DEALER_JOKER);
    el.setAttribute("aria-pressed", on ? "true" : "false");
    el.classList.toggle("selected", on);
  }

  clearSelection() {
    this.forgetSelection("clear");
    this.render();
    this.onChange();
  }

  /** Unselect every card without redrawing (the caller redraws), noting why in the trail. */
  forgetSelection(why) {
    this.selected.clear();
    this.note(why);
  }

  /** Keep a line of the trail: what happened to which card, and whether it is selected now. */
  note(what, key = null) {
    this.trail.push({ t: Math.round(performance.now()), what, key, selected: key ? this.selected.has(key) : null });
    if (this.trail.length > 40) this.trail.shift();
  }

  toggle(key, why) {
    if (this.selected.has(key)) this.selected.delete(key);
    else this.selected.add(key);
    this.note(why, key);
    this.render(key);
    this.onChange();
  }

  /**
   * Draw the hand. Each card keeps its button from one drawing to the next
   * (keyed by card and copy): only classes, attributes and the order change.
   * A state that arrives while a finger or the mouse is down on a card (an
   * opponent's move, a timer) must not swap the button under it, or the
   * browser drops the tap: its press and release would land on two different
   * elements and no click would fire.
   */
  render(focusKey = null) {
    this.renderDealerJoker();
    const active = focusKey ?? document.activeElement?.dataset?.key;
    // A big hand overlaps like a held fan so it stays on one or two rows.
    this.el.classList.toggle("many", this.order.length > 10);
    const old = this.els ?? new Map();
    const els = new Map();
    const count = {};
    for (const key of this.order) {
      const c = code(key);
      count[c] = (count[c] ?? -1) + 1;
      const testid = count[c] ? `card-${c}-${count[c] + 1}` : `card-${c}`;
      let el = old.get(key);
      if (!el) {
        el = cardEl(c, { tag: "button", testid });
        el.type = "button";
        el.dataset.key = key;
        el.classList.add("in-hand");
        el.addEventListener("click", (e) => {
          if (this.suppressClick) {
            this.suppressClick = false;
            e.preventDefault();
            this.note("click after a drag: skipped", key);
            return;
          }
          // A tap was already taken on its release (pointerUp): this is its click
          // (a pointer's click has a detail; the keyboard's has none).
          const tap = this.tap;
          this.tap = null;
          if (e.detail > 0 && tap === key) return;
          this.toggle(key, `click (detail ${e.detail}, tap ${tap})`);
        });
      }
      el.dataset.testid = testid;
      el.setAttribute("aria-pressed", this.selected.has(key) ? "true" : "false");
      el.classList.toggle("selected", this.selected.has(key));
      el.classList.toggle("fresh", this.fresh.has(key));
      el.classList.remove("dragging", "drop-before", "drop-after");
      el.style.removeProperty("transform");
      els.set(key, el);
    }
    this.els = els;
    // Out with cards that left the hand (and the "no cards" line), then put the rest in order.
    for (const child of [...this.el.children]) {
      if (!els.has(child.dataset?.key ?? "")) child.remove();
    }
    let i = 0;
    for (const el of els.values()) {
      const at = this.el.children[i] ?? null;
      if (at !== el) this.el.insertBefore(el, at);
      i += 1;
    }
    if (!this.order.length && this.faceDown) {
      this.el.append(h("div", { class: "face-down", dataset: { testid: "face-down" } }, [
        h("div", { class: "backs", "aria-hidden": "true" }, Array.from({ length: this.faceDown }, () => h("span", { class: "card back" }))),
        h("p", { class: "hint" }, `Your ${this.faceDown} cards lie face down until the dealer has nominated what jokers do.`),
      ]));
    } else if (!this.order.length) this.el.append(h("p", { class: "hint empty" }, "No cards in hand."));
    this.fit();
    if (active) this.el.querySelector(`[data-key="${CSS.escape(active)}"]`)?.focus({ preventScroll: true });
  }

  // --- keyboard: arrows move focus; Shift/Alt + arrows move the card ---
  keyDown(e) {
    const key = e.target?.dataset?.key;
    if (!key) return;
    const i = this.order.indexOf(key);
    let d = 0;
    if (e.key === "ArrowLeft" || e.key === "ArrowUp") d = -1;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") d = 1;
    if (e.key === "Escape") {
      this.clearSelection();
      return;
    }
    if (!d) return;
    e.preventDefault();
    const j = Math.max(0, Math.min(this.order.length - 1, i + d));
    if (e.shiftKey || e.altKey) {
      this.order.splice(i, 1);
      this.order.splice(j, 0, key);
      this.mode = "custom";
      localStorage.setItem(ORDER_KEY, "custom");
      this.render(key);
      this.onChange();
    } else {
      this.el.querySelector(`[data-key="${CSS.escape(this.order[j])}"]`)?.focus();
    }
  }

  // --- dragging with pointer events (works for mouse, pen and touch) ---
  pointerDown(e) {
    const card = e.target.closest?.(".card.in-hand");
    if (!card || e.button > 0) return;
    this.tap = null; // a new press: a tap left without its click is forgotten
    this.drag = { key: card.dataset.key, card, x0: e.clientX, y0: e.clientY, active: false };
    this.note(`press (${e.pointerType})`, card.dataset.key);
    const move = (ev) => this.pointerMove(ev);
    const up = (ev) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      this.pointerUp(ev);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  }

  pointerMove(e) {
    const d = this.drag;
    if (!d) return;
    const dx = e.clientX - d.x0;
    const dy = e.clientY - d.y0;
    if (!d.active && Math.hypot(dx, dy) < 8) return;
    if (!d.active) {
      d.active = true;
      d.card.classList.add("dragging");
      this.el.classList.add("drag-on");
    }
    e.preventDefault();
    d.card.style.transform = `translate(${dx}px, ${dy}px)`;
    const target = this.insertIndex(e.clientX, e.clientY, d.key);
    this.el.querySelectorAll(".drop-before, .drop-after").forEach((x) => x.classList.remove("drop-before", "drop-after"));
    if (target.el) target.el.classList.add(target.after ? "drop-after" : "drop-before");
  }

  pointerUp(e) {
    const d = this.drag;
    this.drag = null;
    if (!d) return;
    if (!d.active) {
      // A tap selects the card that was pressed, even when something moved
      // under the pointer before the release (a card sliding in, the layout
      // shifting): the browser would then send the click to the hand itself
      // and the tap would be lost. The click that usually follows is skipped.
      if (e.type === "pointercancel") {
        this.note("press cancelled", d.key);
        return;
      }
      this.tap = d.key; // its click, if one follows (at once for a mouse, later for a finger), is skipped
      if (this.order.includes(d.key)) this.toggle(d.key, "tap");
      return;
    }
    this.note("drag", d.key);
    this.suppressClick = true;
    setTimeout(() => { this.suppressClick = false; }, 0);
    this.el.classList.remove("drag-on");
    const target = this.insertIndex(e.clientX, e.clientY, d.key);
    const from = this.order.indexOf(d.key);
    this.order.splice(from, 1);
    let to = target.index;
    if (to > from) to -= 1;
    this.order.splice(Math.max(0, Math.min(this.order.length, to)), 0, d.key);
    this.mode = "custom";
    localStorage.setItem(ORDER_KEY, "custom");
    this.render();
    this.onChange();
  }

  /** Where a card dropped at (x, y) goes: index into the current order. */
  insertIndex(x, y, dragKey) {
    let best = { index: this.order.length, el: null, after: true, dist: Infinity };
    for (const el of this.el.querySelectorAll(".card.in-hand")) {
      if (el.dataset.key === dragKey) continue;
      const r = el.getBoundingClientRect();
      const cx = r.left + r.width / 2;
      const cy = r.top + r.height / 2;
      const dist = Math.abs(x - cx) + 2 * Math.abs(y - cy);
      if (dist < best.dist) {
        const after = x > cx;
        const idx = this.order.indexOf(el.dataset.key) + (after ? 1 : 0);
        best = { index: idx, el, after, dist };
      }
    }
    return best;
  }
}

function code(key) {
  return key.slice(0, key.indexOf("#"));
}
