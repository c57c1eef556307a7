// The review of a finished game, beside its replay (/#replay/{id}).
// A player of the game (this browser holds its seat token) asks the server
// for the review; it is computed in the background while this panel polls.
// Then: each player's accuracy, the moves marked with their verdicts and the
// best move beside the one played, and a chart of each player's expected
// standing over the game, drawn here as SVG (docs/review.md). Moves are
// written as the table, its log and the replay write them (actions.js
// `describe`: "Lay off Q♥ K♥ on meld 1"), from the review's record actions.

import { api, seatFor } from "./api.js";
import { describe } from "./actions.js";
import { cardText, suitedText } from "./cards.js";
import { h, clear, setContent } from "./dom.js";
import { plural } from "./names.js";

const SVG = "http://www.w3.org/2000/svg";
// Seat colours live in review.css (.seat-N): the page's CSP allows no inline styles.
const seatClass = (seat) => `seat-${seat % 8}`;
// The summary's column headings, with the short form a phone shows (review.css; "Lost/rd" may break after its slash).
const HEADINGS = [["Player", "Player"], ["Accuracy", "Acc."], ["Points lost", "Lost"], ["Points lost / round", "Lost/\u200Brd"],
  ["Inaccuracies", "Inacc."], ["Mistakes", "Mist."], ["Blunders", "Blun."]];
const WORDS = { good: "good", inaccuracy: "inaccuracy", mistake: "mistake", blunder: "blunder" };
// A figure of the review as few digits as it needs: 8, 1.6 (a game that divides its scores by 5).
const num = (x) => String(Math.round(x * 100) / 100);
// An unsure verdict (the review's guesses left the mistake line unsettled) reads "mistake?"; this says
// why, with the mistake line of this game (8 points, 1.6 in a game that divides its scores by 5).
const unsureWhy = (t) => `Not settled: after the most guesses the review allows, this move may or may not lose ${num(t?.mistake ?? 8)} points or more.`;
// A close call: points lost by the estimate, but not by the margin a verdict needs.
const isClose = (d) => d.verdict === "good" && d.loss > 0;
const CLOSE_WHY = "Close call: the move lost points by the review's estimate, but too few to tell from the luck of the deals, so it is rated good; its points still count in the points lost.";
// The moves listed by default: every one that lost points (close calls too), so they add up to the summary.
const lostPoints = (d) => d.loss > 0 || d.verdict !== "good";

// ``piles``: the discard pile before each reviewed take of several cards (by step), fetched from the
// replay by one panel: the take's words name the deepest card taken ("Take 11 cards from the pile, down to K♦").

/** A move of a decision ("played" or "best") in the words of the table, the log and the replay. */
function moveWords(d, which, piles) {
  const action = d[`${which}_action`];
  return action ? describe(action, piles.get(`${d.step}`) ?? null) : d[which];
}

/** The piles the review's takes of several cards need (before their moves), from the replay's positions. */
async function loadPiles(gameId, r, piles) {
  const steps = new Set(r.decisions.filter((d) => [d.played_action, d.best_action]
    .some((a) => a && "take" in a && a.take > 1 && !a.split)).map((d) => d.step));
  await Promise.all([...steps].filter((s) => !piles.has(`${s}`)).map(async (s) => {
    try {
      const data = await api("GET", `/api/games/${encodeURIComponent(gameId)}/replay/${s - 1}`);
      const v = data.view ?? data.state ?? data;
      if (Array.isArray(v?.discard)) piles.set(`${s}`, v.discard);
    } catch {
      // The take is written without its card.
    }
  }));
}

// A lay played where the best move throws a card: the review says the laid cards are kept for now (Decision.kept).
const keptWords = (d) => (d.kept?.length ? `, keeping ${d.kept.map(cardText).join(" ")} in hand for now` : "");

const moveText = (d, which, piles) => suitedText(moveWords(d, which, piles) + (which === "best" && d.best !== d.played ? keptWords(d) : ""));

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
 * @param {{goTo: (step: number, opts?: {before?: number}) => void, names: () => string[]}} hooks
 *   goTo shows the position after `step` actions (`before`: it is shown as the position before
 *   that move, the one picked); names are the players.
 * @returns {{el: HTMLElement, onStep: (step: number) => void, stop: () => void}}
 */
export function reviewPanel(gameId, hooks) {
  ensureStyles();
  const piles = new Map(); // this game's (a fetch of another panel's never lands here)
  const enc = encodeURIComponent(gameId);
  const me = seatFor(gameId);
  // The live region: written only when what it says changes (a poll a second would repeat it).
  // It holds the keyboard while the review runs (the button is gone): tabindex -1, not in the tab order.
  const status = h("p", { class: "hint review-status", tabindex: "-1", dataset: { testid: "review-status" }, "aria-live": "polite" });
  const say = (text) => setContent(status, [text]);
  const current = h("div", { class: "review-current", dataset: { testid: "review-current" }, "aria-live": "polite" });
  const body = h("div", { class: "review-body" });
  const button = h("button", { type: "button", dataset: { testid: "review-button" } }, "Review this game");
  // How far the running review has come (outside the live region: it changes every second).
  const bar = h("progress", { max: "1", value: "0", "aria-label": "Decisions reviewed" });
  const count = h("span", { class: "hint" });
  const progress = h("div", { class: "review-progress", dataset: { testid: "review-progress" }, hidden: true }, [bar, count]);
  // After a move of the list is picked, the position is shown on the board (above the panel):
  // this bar stays in view there, saying which move it is, with the way back to the list.
  const backText = h("span", { class: "review-back-text" });
  const back = h("button", { type: "button", class: "primary", dataset: { testid: "review-back" } }, "Back to the list");
  const backBar = h("div", { class: "review-back-bar", role: "region", "aria-label": "The reviewed move shown", dataset: { testid: "review-back-bar" }, hidden: true }, [backText, back]);
  // The heading the keyboard is brought to when the review is shown (and by /#replay/{id}/review).
  const heading = h("h2", { tabindex: "-1", id: "review", dataset: { testid: "review-heading" } }, "Review");
  const el = h("section", { class: "panel review-panel", dataset: { testid: "review-panel" } }, [
    heading, button, status, progress, current, body, backBar,
  ]);
  let review = null;
  let step = 0;
  let timer = null;
  let stopped = false;
  let running = false; // asked for and not yet done or failed
  let retried = false; // a "none" while running was answered by asking again once
  let failures = 0; // polls in a row that got no answer
  let picked = 0; // the step of the move picked in the list (0: none)
  let watch = null; // sees the picked move back in view
  let sizer = null; // redraws the chart at its width
  const byStep = new Map();

  if (!me?.token) {
    button.disabled = true;
    say("Only the players of this game can ask for its review.");
  }
  button.addEventListener("click", () => ask());

  async function ask({ again = false } = {}) {
    const hadFocus = button === document.activeElement || status === document.activeElement;
    button.disabled = true;
    if (!again) {
      retried = false;
      failures = 0;
      say("Asking for the review\u2026");
    }
    // The button is disabled (and hidden once done): the keyboard waits on the status line.
    if (hadFocus) status.focus({ preventScroll: true });
    try {
      show(await api("POST", `/api/games/${enc}/review`, {}, me.token));
    } catch (e) {
      giveUp(e.message);
    }
  }

  /** The review stopped without a result: the bar goes, the button asks again. */
  function giveUp(text, label = "Try again") {
    running = false;
    if (timer) clearTimeout(timer);
    timer = null;
    progress.hidden = true;
    say(text);
    button.textContent = label;
    button.disabled = false;
    button.hidden = false;
    if (status === document.activeElement) button.focus({ preventScroll: true });
  }

  function show(data) {
    if (stopped) return;
    if (data.status === "none") {
      // The server knows no review of this game (restarted meanwhile): asked again once, then given up.
      if (running && !retried) {
        retried = true;
        ask({ again: true });
        return;
      }
      giveUp(running || retried ? "The server lost the review (it may have restarted). Ask for it again." : "No review has been asked for yet.", "Review this game");
      return;
    }
    running = data.status === "queued" || data.status === "running";
    failures = 0;
    progress.hidden = !(data.status === "running" && data.total > 0);
    if (!progress.hidden) {
      bar.max = data.total;
      bar.value = data.done;
      count.textContent = `${data.done} of ${data.total} decisions`;
    }
    if (data.status === "done") {
      running = false;
      loadPiles(gameId, data.review, piles).then(() => done(data));
      return;
    }
    if (data.status === "failed") {
      giveUp(`The review failed: ${data.error ?? "unknown error"}`);
      return;
    }
    say(data.status === "queued"
      ? `Queued${data.ahead ? ` (${data.ahead} ahead)` : ""}\u2026 the review is computed in the background.`
      : "Reviewing every decision\u2026 this takes a minute or two.");
    timer = setTimeout(poll, 1000);
  }

  function done(data) {
    if (stopped) return;
    const hadFocus = [button, status].includes(document.activeElement) || document.activeElement === document.body;
    button.hidden = true;
    render(data.review);
    say(readyWords(data.review));
    // The keyboard comes to the result: the panel's heading, the summary below it.
    if (hadFocus) heading.focus({ preventScroll: true });
  }

  // A poll that gets no answer is tried again, later each time, before the review is given up.
  const RETRY_MS = [1000, 2000, 3000];

  async function poll() {
    timer = null;
    let data;
    try {
      data = await api("GET", `/api/games/${enc}/review`, undefined, me.token);
    } catch (e) {
      if (stopped) return;
      if (failures < RETRY_MS.length) {
        timer = setTimeout(poll, RETRY_MS[failures++]);
        return;
      }
      giveUp(`The review could not be followed: ${e.message}`);
      return;
    }
    show(data);
  }

  /** "Review ready: Ann 81.2% accuracy, 12.3 points lost …": this browser's player, else the first. */
  function readyWords(r) {
    const p = r.players.find((x) => x.seat === me?.seat) ?? r.players[0];
    if (!p) return "Review ready.";
    const acc = p.accuracy === null ? "no" : `${p.accuracy.toFixed(1)}%`;
    return `Review ready: ${name(p.seat)} ${acc} accuracy, ${p.loss.toFixed(1)} points lost, ${plural(p.verdicts.mistake, "mistake")}, ${plural(p.verdicts.blunder, "blunder")}.`;
  }

  // The review names the players itself: the replay's names may not have come yet.
  function name(seat) {
    return review?.players?.find((p) => p.seat === seat)?.name || hooks.names()[seat] || `Seat ${seat + 1}`;
  }

  function verdict(d) {
    if (d.sure !== false) return h("span", { class: `verdict ${d.verdict}` }, WORDS[d.verdict]);
    return h("span", { class: `verdict ${d.verdict} unsure`, title: unsureWhy(review?.thresholds), dataset: { testid: "review-unsure" } }, `${WORDS[d.verdict]}?`);
  }

  const closeTag = () => h("span", { class: "close-call", dataset: { testid: "review-close" } }, "close call");

  function render(r) {
    review = r;
    byStep.clear();
    for (const d of r.decisions) byStep.set(d.step, d);
    hideBack();
    clear(body);
    body.append(summary(r), chart(r), moves(r), legendNote(r));
    onStep(step);
  }

  function summary(r) {
    const rows = r.players.map((p) => h("tr", {}, [
      h("th", { scope: "row" }, [h("span", { class: `swatch ${seatClass(p.seat)}` }), h("span", { class: "name", title: name(p.seat) }, name(p.seat))]),
      h("td", { dataset: { testid: `review-accuracy-${p.seat}` } }, p.accuracy === null ? "\u2013" : `${p.accuracy.toFixed(1)}%`),
      h("td", { dataset: { testid: `review-lost-${p.seat}` } }, p.loss.toFixed(1)),
      h("td", {}, p.loss_per_round.toFixed(1)),
      h("td", {}, String(p.verdicts.inaccuracy)),
      h("td", {}, String(p.verdicts.mistake)),
      h("td", {}, String(p.verdicts.blunder)),
    ]));
    // Each heading is read in full (aria-label) where a phone shows its short form.
    return h("div", { class: "review-scroll" }, h("table", { class: "review-summary", dataset: { testid: "review-summary" } }, [
      h("caption", { class: "sr-only" }, "Each player's accuracy, points lost and the moves rated inaccuracies, mistakes and blunders"),
      h("thead", {}, h("tr", {}, HEADINGS.map(([t, short]) => h("th", { scope: "col", "aria-label": t }, t === short ? t : [
        h("span", { class: "long", "aria-hidden": "true" }, t), h("abbr", { class: "short", title: t, "aria-hidden": "true" }, short)])))),
      h("tbody", {}, rows),
    ]));
  }

  // The chart is drawn at the width it is shown at (one unit a pixel), so its text keeps its size on a
  // phone; it is drawn again when that width changes.
  function chart(r) {
    const fig = h("figure", { class: "review-figure" }, [drawChart(r, 600), h("figcaption", { class: "hint" }, "Expected standing after each decision: lead in the totals plus the round points the move was expected to bring. Dots: mistakes and blunders.")]);
    let width = 600;
    sizer?.disconnect();
    sizer = typeof ResizeObserver === "function" ? new ResizeObserver(() => {
      const w = Math.round(fig.clientWidth);
      if (!w || Math.abs(w - width) < 2) return;
      width = w;
      fig.firstChild.replaceWith(drawChart(r, w));
    }) : null;
    sizer?.observe(fig);
    return fig;
  }

  function drawChart(r, W) {
    const H = Math.max(160, Math.min(220, Math.round(W / 3))), L = 40, R = 10, T = 12, B = 24;
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
        c.append(svg("title", {}, [document.createTextNode(`Move ${s}: ${d.verdict} (${moveWords(d, "played", piles)})`)]));
        g.append(c);
      }
    });
    return g;
  }

  function moves(r) {
    const list = h("ol", { class: "review-moves", dataset: { testid: "review-moves" } });
    const all = h("input", { type: "checkbox", dataset: { testid: "review-show-all" } });
    // What a close call and a "?" mean, in words a touch screen shows too (not only in a tooltip).
    const notes = h("div", { class: "hint review-notes", dataset: { testid: "review-notes" } });
    const fill = () => {
      clear(list);
      clear(notes);
      const shown = r.decisions.filter((d) => all.checked || lostPoints(d));
      if (!shown.length) {
        list.append(h("li", { class: "hint" }, all.checked ? "No decision was reviewed." : "No move lost points by the review's measure."));
      }
      for (const d of shown) {
        const item = h("li", { class: `verdict-${d.verdict}`, dataset: { step: String(d.step) } }, h("button", {
          type: "button", class: "review-move", dataset: { testid: `review-move-${d.step}` },
          onclick: (e) => pick(d, e.currentTarget),
        }, [
          h("span", { class: "num" }, `round ${(d.round ?? 0) + 1} \u00B7 Move ${d.step}`),
          h("span", { class: "who" }, name(d.seat)),
          h("span", { class: "played" }, moveText(d, "played", piles)),
          d.best !== d.played ? h("span", { class: "best" }, ["best: ", h("b", {}, moveText(d, "best", piles))]) : null,
          d.loss > 0 ? h("span", { class: "loss" }, [`\u2212${d.loss.toFixed(1)}`, h("span", { class: "pts" }, " points")]) : null,
          verdict(d),
          isClose(d) ? closeTag() : null,
        ]));
        list.append(item);
      }
      if (shown.some(isClose)) notes.append(h("p", {}, CLOSE_WHY));
      if (shown.some((d) => d.sure === false)) notes.append(h("p", {}, `A verdict with a ?: ${unsureWhy(r.thresholds).replace(/^Not settled/, "not settled")}`));
      mark();
    };
    all.addEventListener("change", fill);
    fill();
    return h("div", {}, [
      h("h3", {}, "Moves"),
      h("label", { class: "hint" }, [all, " show every reviewed decision"]),
      list,
      notes,
    ]);
  }

  /** Show the position before a move of the list on the board, and the way back to the list. */
  async function pick(d, from) {
    // The board shows the position before the move; the replay says so with the move's own number.
    await hooks.goTo(d.step - 1, { before: d.step });
    if (stopped || review === null) return;
    picked = d.step;
    clear(backText);
    backText.append(h("span", {}, [`Move ${d.step} \u2014 ${name(d.seat)}: `, h("b", {}, moveText(d, "played", piles)),
      d.best !== d.played ? ["; best: ", h("b", {}, moveText(d, "best", piles)), ` (\u2212${d.loss.toFixed(1)})`] : "", " ", verdict(d)]));
    backBar.hidden = false;
    document.querySelector("[data-testid=replay-board]")?.scrollIntoView({ block: "start", behavior: "instant" });
    back.focus({ preventScroll: true });
    // Back at the move in the list (scrolled there by hand): the bar goes.
    watch?.disconnect();
    watch = typeof IntersectionObserver === "function" ? new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) hideBack();
    }, { rootMargin: `0px 0px -${backBar.offsetHeight}px 0px`, threshold: 1 }) : null;
    watch?.observe(from);
  }

  function hideBack() {
    watch?.disconnect();
    watch = null;
    if (backBar.hidden) return;
    const focused = backBar.contains(document.activeElement);
    backBar.hidden = true;
    if (focused) pickedButton()?.focus({ preventScroll: true });
  }

  const pickedButton = () => el.querySelector(`.review-moves li[data-step="${picked}"] button`);

  back.addEventListener("click", () => {
    const target = pickedButton() ?? el.querySelector(".review-moves");
    target?.scrollIntoView({ block: "center", behavior: "instant" });
    hideBack();
    target?.focus?.({ preventScroll: true });
  });

  function legendNote(r) {
    const t = r.thresholds;
    const b = r.budget;
    const most = b.samples * (1 + b.extend);
    const fewest = Math.min(most, b.samples * Math.max(1, b.settle_after || 1));
    const guesses = fewest === most ? `${most} guesses` : `${fewest} to ${most} guesses`;
    const close = fewest === most ? "" : ", more where the verdict is close";
    return h("p", { class: "hint", dataset: { testid: "review-legend" } }, `Points are expected round points, as this game scores them, judged from the player's own view (${guesses} of the hidden cards per decision${close}). Inaccuracy from ${num(t.inaccuracy)}, mistake from ${num(t.mistake)}, blunder from ${num(t.blunder)} points lost; a ? marks a verdict the guesses did not settle.`);
  }

  function line(label, d) {
    return h("p", { class: `verdict-${d.verdict}` }, [
      `${label} (move ${d.step}) \u2014 ${name(d.seat)}: `, h("b", {}, moveText(d, "played", piles)),
      d.best !== d.played ? ["; best: ", h("b", {}, moveText(d, "best", piles)), `, \u2212${d.loss.toFixed(1)} expected points`] : "",
      " ", verdict(d), isClose(d) ? [" ", closeTag()] : null,
      // Read as sentences ("... inaccuracy. Last move ..."), not run together by a screen reader.
      h("span", { class: "sr-only" }, "."),
    ]);
  }

  function mark() {
    for (const li of el.querySelectorAll(".review-moves li[data-step]")) {
      const here = Number(li.dataset.step) === step + 1;
      li.classList.toggle("here", here);
      const b = li.querySelector(".review-move");
      if (here) b?.setAttribute("aria-current", "step");
      else b?.removeAttribute("aria-current");
    }
  }

  function onStep(s) {
    step = s;
    // Stepped away from the move picked (the arrows, the slider): its bar says nothing of this position.
    if (picked && s !== picked - 1) hideBack();
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
    hideBack();
    sizer?.disconnect();
  }

  /** Bring the panel into view with the keyboard on its heading (/#replay/{id}/review). */
  function reveal() {
    el.scrollIntoView({ block: "start", behavior: "instant" });
    heading.focus({ preventScroll: true });
  }

  return { el, onStep, stop, reveal };
}
