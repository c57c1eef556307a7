// The score sheet: one row per finished round and a total row (one column
// per side in a partnership). Rows come from the log's `round_over` events;
// rounds that ended before this page was opened are summed into one
// "earlier" row so the totals always match the server's.

import { h, clear } from "./dom.js";

export class ScoreSheet {
  constructor() {
    this.el = h("div", { class: "score-sheet", dataset: { testid: "score-sheet" } });
    this.names = [];
    this.sides = null;
    this.rounds = new Map(); // round number -> {round, scores, wentOut}
    this.totals = [];
    this.render();
  }

  setNames(names, sides) {
    this.names = names;
    this.sides = sides;
    this.render();
  }

  /** A `round_over` event from the log (recorded once per round). */
  addRound(ev) {
    const key = ev.round ?? this.rounds.size;
    if (this.rounds.has(key)) return;
    this.rounds.set(key, { round: key, scores: ev.round_scores ?? [], wentOut: ev.went_out });
    if (ev.totals) this.totals = ev.totals;
    this.render();
  }

  update(view) {
    if (Array.isArray(view?.scores)) this.totals = view.scores;
    this.render();
  }

  columns() {
    if (this.sides) {
      return this.sides.map((seats) => ({ label: seats.map((s) => this.names[s] ?? `Seat ${s + 1}`).join(" & "), seats }));
    }
    return this.names.map((n, s) => ({ label: n, seats: [s] }));
  }

  render() {
    clear(this.el);
    const cols = this.columns();
    if (!cols.length) return;
    // Scores are per seat (RECORD.md); a side's score is its partners' sum.
    const value = (arr, seats) => seats.reduce((t, s) => t + (arr?.[s] ?? 0), 0);
    const rows = [...this.rounds.values()].sort((a, b) => a.round - b.round);
    const roundValue = (r, seats) => value(r.scores, seats);
    const body = [];
    const known = cols.map((c) => rows.reduce((t, r) => t + roundValue(r, c.seats), 0));
    const earlier = cols.map((c, i) => value(this.totals, c.seats) - known[i]);
    if (earlier.some((x) => x !== 0)) {
      body.push(h("tr", { class: "earlier" }, [h("th", { scope: "row" }, "earlier"), ...earlier.map((x) => h("td", { class: x < 0 ? "neg" : "" }, String(x)))]));
    }
    for (const r of rows) {
      body.push(h("tr", {}, [
        h("th", { scope: "row" }, String(r.round + 1)),
        ...cols.map((c) => {
          const v = roundValue(r, c.seats);
          return h("td", { class: v < 0 ? "neg" : "" }, [String(v), c.seats.includes(r.wentOut) ? h("span", { class: "out", title: "went out", "aria-label": "went out" }, " \u2605") : null]);
        }),
      ]));
    }
    if (!body.length) body.push(h("tr", {}, h("td", { colspan: String(cols.length + 1), class: "hint" }, "No round finished yet.")));
    this.el.append(h("table", {}, [
      h("thead", {}, h("tr", {}, [h("th", { scope: "col" }, "Round"), ...cols.map((c) => h("th", { scope: "col" }, c.label))])),
      h("tbody", {}, body),
      h("tfoot", {}, h("tr", {}, [h("th", { scope: "row" }, "Total"), ...cols.map((c) => h("td", {}, String(value(this.totals, c.seats))))])),
    ]));
  }
}
