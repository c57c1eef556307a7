// The score sheet: one row per finished round (who dealt, each player's or
// side's round score with the running total under it, a star for who went
// out) and a total row; in a partnership one column per side.
//
// Rows come from the state message's `rounds` (the server's whole sheet, so a
// reload loses nothing). Against a server that does not send it, rows come
// from the log's `round_over` events and rounds from before the page was
// opened are summed into one "earlier" row, so the totals still match.

import { h, clear } from "./dom.js";

const SIDE_NAMES = ["A", "B", "C", "D"];

export class ScoreSheet {
  constructor() {
    this.el = h("div", { class: "score-sheet", dataset: { testid: "score-sheet" } });
    this.names = [];
    this.sides = null;
    this.rounds = new Map(); // round number -> {round, dealer, scores, wentOut, totals, bonus}
    this.complete = false;   // rows are the server's whole sheet
    this.totals = [];
    this.render();
  }

  setNames(names, sides) {
    if (JSON.stringify([names, sides]) === JSON.stringify([this.names, this.sides])) return;
    this.names = names;
    this.sides = sides;
    this.render();
  }

  /** The state message's `rounds`: every finished round (replaces what was known). */
  setRounds(rounds) {
    this.rounds = new Map();
    for (const r of rounds) {
      this.rounds.set(r.round, {
        round: r.round, dealer: r.dealer, scores: r.round_scores ?? [], wentOut: r.went_out,
        totals: r.totals ?? null, bonus: r.bonus ?? null,
      });
    }
    this.complete = true;
    const last = rounds[rounds.length - 1];
    if (last?.totals) this.totals = last.totals;
    this.render();
  }

  /** A `round_over` event from the log (only used without `rounds`). */
  addRound(ev) {
    if (this.complete) return;
    const key = ev.round ?? this.rounds.size;
    if (this.rounds.has(key)) return;
    this.rounds.set(key, { round: key, dealer: null, scores: ev.round_scores ?? [], wentOut: ev.went_out, totals: ev.totals ?? null, bonus: null });
    if (ev.totals) this.totals = ev.totals;
    this.render();
  }

  update(view) {
    if (Array.isArray(view?.scores)) this.totals = view.scores;
    this.render();
  }

  name(s) {
    return this.names[s] ?? `Seat ${s + 1}`;
  }

  columns() {
    if (this.sides) {
      return this.sides.map((seats, i) => ({
        label: `Side ${SIDE_NAMES[i] ?? i + 1}`, sub: seats.map((s) => this.name(s)).join(" & "), seats, side: i,
      }));
    }
    return this.names.map((n, s) => ({ label: n, sub: null, seats: [s], side: -1 }));
  }

  render() {
    clear(this.el);
    const cols = this.columns();
    if (!cols.length) return;
    // Scores are per seat (RECORD.md); a side's score is its partners' sum.
    const value = (arr, seats) => seats.reduce((t, s) => t + (arr?.[s] ?? 0), 0);
    const rows = [...this.rounds.values()].sort((a, b) => a.round - b.round);
    const body = [];
    const known = cols.map((c) => rows.reduce((t, r) => t + value(r.scores, c.seats) + (r.bonus && c.seats.includes(r.bonus.seat) ? r.bonus.points : 0), 0));
    const earlier = cols.map((c, i) => value(this.totals, c.seats) - known[i]);
    if (!this.complete && earlier.some((x) => x !== 0)) {
      body.push(h("tr", { class: "earlier" }, [
        h("th", { scope: "row", colspan: "2" }, "earlier"),
        ...earlier.map((x) => h("td", { class: x < 0 ? "neg" : "" }, String(x)))]));
    }
    for (const r of rows) {
      const dealer = r.dealer === null || r.dealer === undefined ? "" : this.name(r.dealer);
      body.push(h("tr", { dataset: { round: String(r.round + 1) } }, [
        h("th", { scope: "row" }, String(r.round + 1)),
        h("td", { class: "dealer", title: dealer ? `${dealer} dealt` : "" }, dealer),
        ...cols.map((c) => {
          const v = value(r.scores, c.seats);
          const out = c.seats.includes(r.wentOut);
          return h("td", { class: v < 0 ? "neg" : "" }, [
            h("span", { class: "pts" }, `${v > 0 ? "+" : ""}${v}`),
            // Spoken as "+79, went out, total 179" (a star alone reads as nothing, an aria-label on a span as "+79went out").
            out ? h("span", { class: "out", title: "went out" }, [h("span", { "aria-hidden": "true" }, " \u2605"), h("span", { class: "sr-only" }, ", went out")]) : null,
            r.totals ? h("span", { class: "run" }, [h("span", { class: "sr-only" }, ", total "), String(value(r.totals, c.seats))]) : null,
          ]);
        }),
      ]));
      if (r.bonus) {
        body.push(h("tr", { class: "bonus" }, [
          h("th", { scope: "row", colspan: "2" }, "final bonus"),
          ...cols.map((c) => h("td", {}, c.seats.includes(r.bonus.seat) ? `+${r.bonus.points}` : "")),
        ]));
      }
    }
    if (!body.length) body.push(h("tr", {}, h("td", { colspan: String(cols.length + 2), class: "hint" }, "No round finished yet.")));
    this.el.append(h("table", {}, [
      h("caption", { class: "sr-only" }, "Score sheet: each round's score, with the running total under it"),
      h("thead", {}, h("tr", {}, [
        h("th", { scope: "col" }, "Round"),
        h("th", { scope: "col", class: "dealer" }, "Dealer"),
        ...cols.map((c) => h("th", { scope: "col", class: c.side >= 0 ? `side-${c.side}` : "" },
          c.sub ? [c.label, h("span", { class: "sub" }, c.sub)] : c.label)),
      ])),
      h("tbody", {}, body),
      h("tfoot", {}, h("tr", { dataset: { testid: "score-totals" } }, [
        h("th", { scope: "row", colspan: "2" }, "Total"),
        ...cols.map((c) => h("td", {}, String(value(this.totals, c.seats))))])),
    ]));
  }
}
