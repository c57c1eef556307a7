// The review of a finished game, beside its replay (/#replay/{id}).
// A player of the game (this browser holds its seat token) asks the server
// for the review; it is computed in the background while this panel polls.
// Then: each player's accuracy, the moves marked with their verdicts and the
// best move beside the one played, and a chart of each player's expected
// standing over the game, drawn here as SVG (docs/review.md).

import { api, seatFor } from "./api.js";
import { h, clear } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
// Seat colours live in review.css (.seat-N): the page's CSP allows no inline styles.
const seatClass = (seat) => `seat-${seat % 8}`;
// The summary's column headings, with the short form a phone shows (review.css).
const HEADINGS = [["Player", "Player"], ["Accuracy", "Acc."], ["Points lost / round", "Lost/rd"],
  ["Inaccuracies", "Inacc."], ["Mistakes", "Mist."], ["Blunders", "Blun."]];
const WORDS = { good: "good", inaccuracy: "inaccuracy", mistake: "mistake", blunder: "blunder" };
// An unsure verdict (the review's guesses left the mistake line unsettled) reads "mistake?".
const UNSURE = "Not settled: after the most guesses the review allows, this move may or may not lose 8 points or more.";
const verdict = (d) => h("span", d.sure === false
  ? { class: `verdict ${d.verdict} unsure`, title: UNSURE, dataset: { testid: "review-unsure" } }
  : { class: `verdict ${d.verdict}` }, d.sure === false ? `${WORDS[d.verdict]}?` : WORDS[d.verdict]);

function ensureStyles() {
  if (document.querySelector("link[data-review-css]")) return;
  document.head.append(h("link", { rel: "stylesheet", href: "/static/review.css", dataset: { reviewCss: "1" } }));
}

function svg(tag, attrs = {}, children = []) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

/**
 * The review panel of a replay.
 * @param {string} gameId the finished game.
 * @param {{goTo: (step: number) => void, names: () => string[]}} hooks
 *   goTo shows the position after `step` actions; names are the players.
 * @returns {{el: HTMLElement, onStep: (step: number) => void, stop: () => void}}
 */
export function reviewPanel(gameId, hooks) {
  ensureStyles();
  const enc = encodeURIComponent(gameId);
  const me = seatFor(gameId);
  const status = h("p", { class: "hint", dataset: { testid: "review-status" }, "aria-live": "polite" });
  const current = h("div", { class: "review-current", dataset: { testid: "review-current" }, "aria-live": "polite" });
  const body = h("div", { class: "review-body" });
  const button = h("button", { type: "button", dataset: { testid: "review-button" } }, "Review this game");
  // How far the running review has come (outside the live region: it changes every second).
  const bar = h("progress", { max: "1", value: "0", "aria-label": "Decisions reviewed" });
  const count = h("span", { class: "hint" });
  const progress = h("div", { class: "review-progress", dataset: { testid: "review-progress" }, hidden: true }, [bar, count]);
  const el = h("section", { class: "panel review-panel", dataset: { testid: "review-panel" } }, [
    h("h2", {}, "Review"), button, status, progress, current, body,
  ]);
  let review = null;
  let step = 0;
  let timer = null;
  let stopped = false;
  const byStep = new Map();

  if (!me?.token) {
    button.disabled = true;
    status.textContent = "Only the players of this game can ask for its review.";
  }
  button.addEventListener("click", () => ask());

  async function ask() {
    button.disabled = true;
    status.textContent = "Asking for the review\u2026";
    try {
      show(await api("POST", `/api/games/${enc}/review`, {}, me.token));
    } catch (e) {
      status.textContent = e.message;
      button.disabled = false;
    }
  }

  function show(data) {
    if (stopped) return;
    progress.hidden = !(data.status === "running" && data.total > 0);
    if (!progress.hidden) {
      bar.max = data.total;
      bar.value = data.done;
      count.textContent = `${data.done} of ${data.total} decisions`;
    }
    if (data.status === "done") {
      status.textContent = "";
      button.hidden = true;
      render(data.review);
      return;
    }
    if (data.status === "failed") {
      status.textContent = `The review failed: ${data.error ?? "unknown error"}`;
      button.disabled = false;
      return;
    }
    status.textContent = data.status === "queued"
      ? `Queued${data.ahead ? ` (${data.ahead} ahead)` : ""}\u2026 the review is computed in the background.`
      : "Reviewing every decision\u2026 this takes a minute or two.";
    timer = setTimeout(poll, 1000);
  }

  async function poll() {
    try {
      show(await api("GET", `/api/games/${enc}/review`, undefined, me.token));
    } catch (e) {
      status.textContent = e.message;
      button.disabled = false;
    }
  }

  function name(seat) {
    return hooks.names()[seat] || `Seat ${seat + 1}`;
  }

  function render(r) {
    review = r;
    byStep.clear();
    for (const d of r.decisions) byStep.set(d.step, d);
    clear(body);
    body.append(summary(r), chart(r), moves(r), legendNote(r));
    onStep(step);
  }

  function summary(r) {
    const rows = r.players.map((p) => h("tr", {}, [
      h("th", { scope: "row" }, [h("span", { class: `swatch ${seatClass(p.seat)}` }), name(p.seat)]),
      h("td", { dataset: { testid: `review-accuracy-${p.seat}` } }, p.accuracy === null ? "\u2013" : `${p.accuracy.toFixed(1)}%`),
      h("td", {}, p.loss_per_round.toFixed(1)),
      h("td", {}, String(p.verdicts.inaccuracy)),
      h("td", {}, String(p.verdicts.mistake)),
      h("td", {}, String(p.verdicts.blunder)),
    ]));
    return h("div", { class: "review-scroll" }, h("table", { class: "review-summary", dataset: { testid: "review-summary" } }, [
      h("thead", {}, h("tr", {}, HEADINGS.map(([t, short]) => h("th", { scope: "col" }, t === short ? t : [
        h("span", { class: "long" }, t), h("abbr", { class: "short", title: t }, short)])))),
      h("tbody", {}, rows),
    ]));
  }

  function chart(r) {
    const W = 600, H = 200, L = 40, R = 10, T = 10, B = 24;
    const series = r.players.map((p) => r.decisions.filter((d) => d.seat === p.seat).map((d) => [d.step, d.standing, d]));
    const ys = series.flat().map((pt) => pt[1]).concat([0]);
    let lo = Math.min(...ys), hi = Math.max(...ys);
    if (hi - lo < 20) { hi += 10; lo -= 10; }
    const steps = Math.max(1, r.steps);
    const x = (s) => L + ((W - L - R) * s) / steps;
    const y = (v) => T + ((H - T - B) * (hi - v)) / (hi - lo);
    const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "review-chart", "data-testid": "review-chart" });
    g.append(svg("title", {}, [document.createTextNode("Each player's expected standing (total lead plus the expected round result) after each of their decisions")]));
    g.append(svg("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), class: "axis" }));
    for (const v of [lo, 0, hi]) {
      const t = svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", class: "tick" });
      t.textContent = String(Math.round(v));
      g.append(t);
    }
    const xt = svg("text", { x: W - R, y: H - 6, "text-anchor": "end", class: "tick" });
    xt.textContent = `move ${steps}`;
    g.append(xt);
    series.forEach((pts, i) => {
      const seat = r.players[i].seat;
      if (pts.length) {
        g.append(svg("polyline", { points: pts.map(([s, v]) => `${x(s).toFixed(1)},${y(v).toFixed(1)}`).join(" "), class: `line ${seatClass(seat)}`, "data-seat": seat }));
      }
      for (const [s, v, d] of pts) {
        if (d.verdict !== "mistake" && d.verdict !== "blunder") continue;
        const c = svg("circle", { cx: x(s).toFixed(1), cy: y(v).toFixed(1), r: d.verdict === "blunder" ? 5 : 3.5, class: `mark ${d.verdict} ${seatClass(seat)}` });
        c.append(svg("title", {}, [document.createTextNode(`Move ${s}: ${d.verdict} (${d.played})`)]));
        g.append(c);
      }
    });
    return h("figure", { class: "review-figure" }, [g, h("figcaption", { class: "hint" }, "Expected standing after each decision: lead in the totals plus the round points the move was expected to bring. Dots: mistakes and blunders.")]);
  }

  function moves(r) {
    const list = h("ol", { class: "review-moves", dataset: { testid: "review-moves" } });
    const all = h("input", { type: "checkbox", dataset: { testid: "review-show-all" } });
    const fill = () => {
      clear(list);
      const shown = r.decisions.filter((d) => all.checked || d.verdict !== "good");
      if (!shown.length) list.append(h("li", { class: "hint" }, "No move lost points by the review's measure."));
      for (const d of shown) {
        const item = h("li", { class: `verdict-${d.verdict}`, dataset: { step: String(d.step) } }, h("button", {
          type: "button", class: "review-move", dataset: { testid: `review-move-${d.step}` },
          onclick: () => hooks.goTo(d.step - 1),
        }, [
          h("span", { class: "num" }, `Move ${d.step}`),
          h("span", { class: "who" }, name(d.seat)),
          h("span", { class: "played" }, d.played),
          d.best !== d.played ? h("span", { class: "best" }, ["best: ", h("b", {}, d.best)]) : null,
          d.loss > 0 ? h("span", { class: "loss" }, `\u2212${d.loss.toFixed(1)}`) : null,
          verdict(d),
        ]));
        list.append(item);
      }
      mark();
    };
    all.addEventListener("change", fill);
    fill();
    return h("div", {}, [
      h("h3", {}, "Moves"),
      h("label", { class: "hint" }, [all, " show every reviewed decision"]),
      list,
    ]);
  }

  function legendNote(r) {
    const t = r.thresholds;
    const b = r.budget;
    const most = b.samples * (1 + b.extend);
    const fewest = Math.min(most, b.samples * Math.max(1, b.settle_after || 1));
    const guesses = fewest === most ? `${most} guesses` : `${fewest} to ${most} guesses`;
    const close = fewest === most ? "" : ", more where the verdict is close";
    return h("p", { class: "hint", dataset: { testid: "review-legend" } }, `Points are expected round points, judged from the player's own view (${guesses} of the hidden cards per decision${close}). Inaccuracy from ${t.inaccuracy}, mistake from ${t.mistake}, blunder from ${t.blunder} points lost; a ? marks a verdict the guesses did not settle.`);
  }

  function line(label, d) {
    return h("p", { class: `verdict-${d.verdict}` }, [
      `${label} (move ${d.step}) \u2014 ${name(d.seat)} played `, h("b", {}, d.played),
      d.best !== d.played ? [", best was ", h("b", {}, d.best), `, \u2212${d.loss.toFixed(1)} expected points`] : "",
      ": ", verdict(d),
    ]);
  }

  function mark() {
    for (const li of el.querySelectorAll(".review-moves li[data-step]")) {
      li.classList.toggle("here", Number(li.dataset.step) === step + 1);
    }
  }

  function onStep(s) {
    step = s;
    if (!review) return;
    clear(current);
    const next = byStep.get(s + 1);
    const prev = byStep.get(s);
    if (next) current.append(line("Next move", next));
    if (prev) current.append(line("Last move", prev));
    mark();
  }

  function stop() {
    stopped = true;
    if (timer) clearTimeout(timer);
  }

  return { el, onStep, stop };
}
