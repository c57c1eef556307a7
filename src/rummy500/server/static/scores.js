// The score sheet: one row per finished round (who dealt, each player's or
// side's round score with the running total under it, a star for who went
// out) and a total row; in a partnership one column per side. Five or more
// players (or columns too wide for the panel) turn it over: one row per
// player, the total first (always in view), then one column per round, the
// newest scrolled into view.
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
    this.scrolledTo = null;  // the newest round the sheet was scrolled to (the by-player layout)
    this.scrollLeft = null;  // where the reader left it (or the sheet was scrolled to)
    this.atEnd = true;       // the newest round was in view: it stays so as the sheet is drawn again
    this.render();
    // A sheet that fits the panel no longer (or again) turns over when the panel's width changes.
    this.width = 0;
    this.resizer = typeof ResizeObserver === "function" ? new ResizeObserver(([e]) => {
      const w = Math.round(e.contentRect.width);
      if (w === this.width) return;
      this.width = w;
      this.render();
    }) : null;
    this.resizer?.observe(this.el);
  }

  destroy() {
    this.resizer?.disconnect();
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

  /** A column's running total after round ``r``, the final bonus left out (its own line adds it). */
  runAfter(r, c, value) {
    const bonus = r.bonus && c.seats.includes(r.bonus.seat) ? r.bonus.points : 0;
    return value(r.totals, c.seats) - bonus;
  }

  render() {
    clear(this.el);
    const cols = this.columns();
    if (!cols.length) return;
    // Scores are per seat (RECORD.md); a side's score is its partners' sum.
    const value = (arr, seats) => seats.reduce((t, s) => t + (arr?.[s] ?? 0), 0);
    const rows = [...this.rounds.values()].sort((a, b) => a.round - b.round);
    const known = cols.map((c) => rows.reduce((t, r) => t + value(r.scores, c.seats) + (r.bonus && c.seats.includes(r.bonus.seat) ? r.bonus.points : 0), 0));
    const earlierAll = cols.map((c, i) => value(this.totals, c.seats) - known[i]);
    const earlier = !this.complete && earlierAll.some((x) => x !== 0) ? earlierAll : null;
    const sheet = { cols, rows, earlier, value };
    // Up to four columns: a row a round. Five or more players (or columns too wide for the
    // panel) turn the sheet: a row a player, their total first, then a column a round.
    const scroller = h("div", { class: "sheet-scroll" });
    this.el.append(scroller);
    let byPlayer = cols.length >= 5;
    scroller.append(byPlayer ? this.byPlayer(sheet) : this.byRound(sheet));
    const overflows = () => scroller.scrollWidth > scroller.clientWidth + 1;
    if (!byPlayer && this.el.isConnected && overflows()) {
      byPlayer = true;
      clear(scroller).append(this.byPlayer(sheet));
    }
    this.el.classList.toggle("by-player", byPlayer);
    if (!rows.length && !earlier) {
      this.el.append(h("p", { class: "hint", dataset: { testid: "score-empty" } }, "No round finished yet."));
    }
    if (byPlayer && this.el.isConnected && overflows()) {
      // The newest round shows beside the totals; the others are a scroll away, and the sheet says
      // which way (older rounds to the left, newer ones to the right of what shows).
      const note = h("p", { class: "hint scroll-hint", dataset: { testid: "score-scroll-hint" } });
      this.el.append(note);
      const newest = rows.length ? rows[rows.length - 1].round : -1;
      // A new round (or the reader had left the newest in view): the newest round shows. The place
      // is kept at once, not only by the scroll event that comes later: this sheet is drawn twice
      // for one state (its rounds, then its totals), and the second drawing put back the place from
      // before the round, hiding the round just scored.
      if (newest !== this.scrolledTo || this.atEnd || this.scrollLeft === null) scroller.scrollLeft = scroller.scrollWidth;
      else scroller.scrollLeft = this.scrollLeft;
      this.scrolledTo = newest;
      this.keepPlace(scroller, note);
      scroller.addEventListener("scroll", () => {
        if (scroller.isConnected) this.keepPlace(scroller, note);
      }, { passive: true });
    }
  }

  /** Remember where the by-player sheet is scrolled, and say in its note which rounds are out of view. */
  keepPlace(scroller, note) {
    const max = scroller.scrollWidth - scroller.clientWidth;
    this.scrollLeft = scroller.scrollLeft;
    this.atEnd = scroller.scrollLeft >= max - 1;
    const older = scroller.scrollLeft > 1;
    const text = older && !this.atEnd ? "\u2190 Older rounds \u00B7 newer rounds \u2192: scroll the sheet sideways."
      : older ? "\u2190 Older rounds: scroll the sheet sideways."
        : "Newer rounds \u2192: scroll the sheet sideways.";
    if (note.textContent !== text) note.textContent = text;
  }

  /** One score cell: the round's score, a star for who went out, the running total under it. */
  cell(r, c, value) {
    const v = value(r.scores, c.seats);
    const out = c.seats.includes(r.wentOut);
    return h("td", { class: v < 0 ? "neg" : "" }, [
      h("span", { class: "pts" }, `${v > 0 ? "+" : ""}${v}`),
      // Spoken as "+79, went out, total 179" (a star alone reads as nothing, an aria-label on a span as "+79went out").
      out ? h("span", { class: "out", title: "went out" }, [h("span", { "aria-hidden": "true" }, " \u2605"), h("span", { class: "sr-only" }, ", went out")]) : null,
      r.totals ? h("span", { class: "run" }, [h("span", { class: "sr-only" }, ", total "), String(this.runAfter(r, c, value))]) : null,
    ]);
  }

  /** A row a round, a column a player or side, the totals at the foot. */
  byRound({ cols, rows, earlier, value }) {
    const body = [];
    if (earlier) {
      body.push(h("tr", { class: "earlier" }, [
        h("th", { scope: "row", colspan: "2" }, "earlier"),
        ...earlier.map((x) => h("td", { class: x < 0 ? "neg" : "" }, String(x)))]));
    }
    for (const r of rows) {
      const dealer = r.dealer === null || r.dealer === undefined ? "" : this.name(r.dealer);
      body.push(h("tr", { dataset: { round: String(r.round + 1) } }, [
        h("th", { scope: "row" }, String(r.round + 1)),
        h("td", { class: "dealer", title: dealer ? `${dealer} dealt` : "" }, dealer),
        ...cols.map((c) => this.cell(r, c, value)),
      ]));
      if (r.bonus) {
        body.push(h("tr", { class: "bonus" }, [
          h("th", { scope: "row", colspan: "2" }, "final bonus"),
          ...cols.map((c) => h("td", {}, c.seats.includes(r.bonus.seat) ? `+${r.bonus.points}` : "")),
        ]));
      }
    }
    return h("table", {}, [
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
    ]);
  }

  /** A row a player or side: the name, the total (always in view), then a column a round, the newest last. */
  byPlayer({ cols, rows, earlier, value }) {
    const bonus = rows.find((r) => r.bonus)?.bonus ?? null;
    const head = [
      h("th", { scope: "col", class: "who" }, "Player"),
      h("th", { scope: "col", class: "total" }, "Total"),
      earlier ? h("th", { scope: "col" }, "earlier") : null,
      ...rows.map((r) => {
        const dealer = r.dealer === null || r.dealer === undefined ? "" : this.name(r.dealer);
        return h("th", { scope: "col", class: "rnd", dataset: { round: String(r.round + 1) }, title: dealer ? `Round ${r.round + 1}: ${dealer} dealt` : `Round ${r.round + 1}` }, [
          h("span", { class: "sr-only" }, `Round ${r.round + 1}`), h("span", { "aria-hidden": "true" }, `R${r.round + 1}`),
          dealer ? h("span", { class: "sub" }, [h("span", { class: "sr-only" }, ", dealt by "), dealer]) : null]);
      }),
      bonus ? h("th", { scope: "col" }, "Bonus") : null,
    ];
    const body = cols.map((c, i) => h("tr", { dataset: { col: String(i) }, class: c.side >= 0 ? `side-${c.side}` : "" }, [
      h("th", { scope: "row", class: "who", title: c.sub ? `${c.label}: ${c.sub}` : c.label },
        c.sub ? [c.label, h("span", { class: "sub" }, c.sub)] : c.label),
      h("td", { class: "total", dataset: { testid: `score-total-${i}` } }, String(value(this.totals, c.seats))),
      earlier ? h("td", { class: earlier[i] < 0 ? "neg" : "" }, String(earlier[i])) : null,
      ...rows.map((r) => this.cell(r, c, value)),
      bonus ? h("td", { class: "bonus" }, c.seats.includes(bonus.seat) ? `+${bonus.points}` : "") : null,
    ]));
    return h("table", {}, [
      h("caption", { class: "sr-only" }, "Score sheet: each player's total, then each round's score with the running total under it"),
      h("thead", {}, h("tr", {}, head)),
      h("tbody", {}, body),
    ]);
  }
}
