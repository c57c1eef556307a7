// Finished games: a list (/#replays) and a step-by-step viewer
// (/#replay/{id}). The server replays the record; the page only shows the
// position it is sent after each step, and offers the record for download.

import { api, storedSeats, yourTablesNow } from "./api.js";
import { yourTableRows, whenWords, playedWhen } from "./lobby.js";
import { distinctNames, plural } from "./names.js";
import { cardEl } from "./cards.js";
import { entryText, eventText } from "./events.js";
import { h, clear } from "./dom.js";
import { reviewPanel } from "./review.js";
import { GAMBIT_WORDS, DEALER_JOKER_WORDS } from "./rules.js";

const SIDE_NAMES = ["A", "B", "C", "D"];

// Phases in a player's words (never the engine's codes).
const PHASE_WORDS = { draw: "to draw", play: "to meld, lay off and discard", nominate: "(the dealer) to nominate", round_over: "round over" };

/**
 * What a step played, in words, a reshuffle it brought included: "Ann: discarded 7♦, then the discard
 * pile was shuffled into a new stock of 7 cards" (the table's log line, events.js, as a clause).
 */
function actionWords(ev, names) {
  const text = entryText(ev, names);
  const shuffles = (Array.isArray(ev.events) ? ev.events : []).filter((e) => e?.event === "reshuffled");
  return shuffles.reduce((t, e) => {
    // (one card: "a new stock of 1 card", not the log's "1 cards")
    const said = eventText({ ...e, count: null }, names).replace(/\.$/, "") + (e.count ? ` of ${plural(e.count, "card")}` : "");
    return `${t}, then ${said.charAt(0).toLowerCase()}${said.slice(1)}`;
  }, text);
}

function header(extra) {
  return h("header", { class: "lobby-head" }, [
    h("h1", {}, ["Rummy ", h("span", { class: "accent" }, "500"), " \u2014 replays"]),
    h("nav", { class: "row" }, [h("a", { href: "/" }, "\u2190 Back to the lobby"), extra ?? null]),
  ]);
}

export function renderReplays(root) {
  clear(root);
  document.title = "Replays \u2014 rummy500";
  const list = h("ul", { class: "game-list", dataset: { testid: "game-list" } }, h("li", { class: "hint" }, "Loading\u2026"));
  // Private games are never listed publicly: this browser's own finished games are listed apart.
  const mine = h("ul", { class: "your-list", dataset: { testid: "your-games" } });
  const minePanel = h("section", { class: "panel", hidden: true, dataset: { testid: "your-games-panel" } }, [
    h("h2", {}, "Your finished games"),
    h("p", { class: "hint" }, "Games this browser played in, private ones included (only you and the other players can open them)."), mine]);
  const stored = storedSeats();
  const note = h("p", { class: "hint", dataset: { testid: "replays-note" } }, [
    "Only games whose table was set to \u201cList the finished game among the public replays\u201d are listed here. ",
    "A private game is under ", h("a", { href: "/#your-tables" }, "Your tables"), " in the lobby, on the browser that played it",
    stored.length ? " (and above)." : "."]);
  root.append(h("main", { class: "replays" }, [header(), minePanel,
    h("section", { class: "panel" }, [h("h2", {}, "Public finished games"), note, list])]));
  if (stored.length) {
    yourTablesNow(stored).then((rows) => {
      const done = rows.filter((r) => r.table?.status === "finished");
      clear(mine).append(...yourTableRows(done, { replayFirst: true }));
      minePanel.hidden = !done.length;
    }).catch(() => {});
  }
  api("GET", "/api/games?status=finished").then((data) => {
    const games = Array.isArray(data) ? data : (data?.games ?? []);
    clear(list);
    if (!games.length) list.append(h("li", { class: "hint", dataset: { testid: "no-public-games" } }, "No public finished games yet."));
    for (const g of games) {
      const id = g.id ?? g.game_id;
      const players = distinctNames((g.players ?? g.seats ?? []).map((p) => (typeof p === "string" ? p : p?.name ?? "?")));
      const totals = g.result?.totals ?? g.totals;
      const w = g.winner ?? g.result?.winner;
      const winner = w === null || w === undefined ? "" : `won by ${Array.isArray(w) ? w.map((s) => players[s]).join(" & ") : players[w]}`;
      const when = whenWords(g.finished ?? g.finished_at ?? g.created);
      // Each total beside its player's name ("Ann 32 · Bob 28"), not a row of bare numbers.
      const scores = totals ? totals.map((t, s) => `${players[s] ?? `Seat ${s + 1}`} ${t}`).join(" \u00B7 ") : players.join(", ");
      list.append(h("li", {}, h("a", { href: `/#replay/${encodeURIComponent(id)}`, dataset: { testid: `game-${id}` } }, [
        h("span", {}, [h("b", {}, g.title ?? g.name ?? `Game ${id}`), winner ? ` \u2014 ${winner}` : ""]),
        h("span", { class: "hint", dataset: { testid: `game-totals-${id}` } }, [scores, when ? ` \u00B7 ${when}` : ""]),
      ])));
    }
  }).catch((e) => {
    clear(list);
    list.append(h("li", { class: "error-banner" }, e.message));
  });
  return null;
}

export function renderReplay(root, gameId) {
  clear(root);
  // /#replay/{id}/review (the game-over screen's "Review your moves"): the review panel is brought into view.
  const toReview = /\/review$/.test(gameId);
  if (toReview) gameId = gameId.replace(/\/review$/, "");
  document.title = "Replay \u2014 rummy500";
  const enc = encodeURIComponent(gameId);
  const dl = h("a", { href: `/api/games/${enc}/record`, download: `rummy500-${gameId}.json`, dataset: { testid: "download-record" } }, "Download the record (JSON)");
  const stepLabel = h("span", { class: "replay-step", dataset: { testid: "replay-step" } });
  const slider = h("input", { type: "range", min: "0", max: "0", value: "0", "aria-label": "Move number", dataset: { testid: "replay-slider" } });
  const mk = (label, testid, fn) => {
    const b = h("button", { type: "button", dataset: { testid } }, label);
    b.addEventListener("click", fn);
    return b;
  };
  const board = h("section", { class: "board replay-board", dataset: { testid: "replay-board" } });
  // What the step played, announced with its number (the step counter alone says little).
  const lastAction = h("p", { class: "hint", dataset: { testid: "replay-action" }, "aria-live": "polite" });
  const errorBox = h("div", { class: "error-banner", role: "alert", hidden: true });
  // The keyboard starts here on arriving from the list (app.js).
  const title = h("h2", { tabindex: "-1", dataset: { testid: "replay-title", pageHeading: "" } }, "Replay");
  // The table's name, when it was played and who played (the table's facts, the record's names).
  const meta = h("p", { class: "hint", dataset: { testid: "replay-meta" } });
  let table = null;
  let step = 0;
  let total = 0;
  let names = [];
  let recRules = null; // the record's rules (a partnership), for a table the server has forgotten
  let loading = 0;
  let wanted = 0; // the move last asked for (its answer may still be on its way)
  // Jump to a round: its deal, or its end (the step that shows what each seat melded and kept). A
  // later round's deal is drawn from the step that ended the round before, as the review's pick does.
  const jump = h("select", { "aria-label": "Jump to a round", dataset: { testid: "replay-jump" }, hidden: true });
  let jumpsFor = "";
  function fillJumps(ends) {
    const key = ends.join(",");
    if (key === jumpsFor) return;
    jumpsFor = key;
    clear(jump);
    jump.append(h("option", { value: "" }, "Jump to a round\u2026"));
    ends.forEach((end, r) => {
      jump.append(h("option", { value: String(r === 0 ? 0 : ends[r - 1]), dataset: { deal: r === 0 ? "" : "1" } }, `Round ${r + 1}`));
      jump.append(h("option", { value: String(end) }, `Round ${r + 1}: its end`));
    });
    jump.hidden = !ends.length;
  }
  /**
   * The list follows the position shown: the entry of the deal or the round's end it is, else its
   * "Jump to a round…" (stepping with Start, Back, Next or the slider never leaves an old choice
   * showing). The arrow keys on the closed list still step from one entry to the next.
   */
  function followJump(step, deal) {
    const opts = [...jump.options];
    const at = opts.findIndex((o) => o.value !== "" && +o.value === step
      && (deal ? o.dataset.deal === "1" : step === 0 ? o.dataset.deal === "" : o.dataset.deal === undefined));
    const index = Math.max(0, at);
    if (jump.selectedIndex !== index) jump.selectedIndex = index;
  }
  jump.addEventListener("change", () => {
    if (jump.value === "") return;
    const n = +jump.value;
    go(n, jump.selectedOptions[0]?.dataset.deal ? { before: n + 1 } : {});
  });

  /** Show the position after move `n`; `before`: it was asked for as the position before that move (the review's pick). */
  async function go(n, { before = null } = {}) {
    n = Math.max(0, Math.min(total || n, n));
    wanted = n;
    const ticket = ++loading;
    try {
      const data = await api("GET", `/api/games/${enc}/replay/${n}`);
      if (ticket !== loading) return;
      step = data.step ?? n;
      total = data.total ?? data.steps ?? data.actions ?? total;
      slider.max = String(total);
      slider.value = String(step);
      stepLabel.textContent = `move ${step} of ${total}`;
      fillJumps(Array.isArray(data.round_ends) ? data.round_ends : []);
      const ev = data.action; // the log event of the last action played
      const isBefore = before !== null && before === step + 1;
      // Before a round's first move (the review's pick): that round's deal, which the step that
      // ended the round before already holds (its view and hands), not that round's summary.
      const deal = isBefore && data.round_over && data.view?.phase !== "round_over";
      lastAction.textContent = isBefore
        ? `Before move ${before} of ${total}${deal ? `: the deal of round ${(data.round ?? 0) + 2}` : ""}.`
        : ev ? `Move ${step} of ${total}: ${actionWords(ev, names)}`
          : `The deal (move 0 of ${total}).`;
      drawBoard(data, { deal });
      followJump(step, deal);
      review.onStep(step);
      errorBox.hidden = true;
    } catch (e) {
      if (e.status === 409) {
        unfinished();
        return;
      }
      errorBox.textContent = e.message;
      errorBox.hidden = false;
    }
  }

  /** A game still being played has no replay yet: say so, and lead to its table. */
  let playing = false;
  function unfinished() {
    if (playing) return;
    playing = true;
    clear(errorBox).append(h("p", { dataset: { testid: "replay-unfinished" } }, [
      "This game is still being played: its replay and review open once it is over. ",
      h("a", { href: `/t/${enc}`, dataset: { testid: "replay-to-table" } }, "Go to its table"), "."]));
    errorBox.setAttribute("role", "status");
    errorBox.className = "replay-unfinished";
    errorBox.hidden = false;
    for (const x of [controls, lastAction, dl, board, review.el]) x.hidden = true;
  }

  /** The position of a step; `deal`: at a round's end, the next round's deal (the step's view) instead of the summary. */
  function drawBoard(data, { deal = false } = {}) {
    clear(board);
    if (data.round_over && !deal) {
      drawRoundEnd(data);
      return;
    }
    const round = deal ? (data.round ?? 0) + 1 : data.round ?? 0;
    const v = data.view ?? data.state ?? data;
    const hands = data.hands ?? v.hands ?? null;
    const n = (hands ?? v.hand_sizes ?? names).length;
    const handsBox = h("div", { class: "replay-hands" });
    for (let s = 0; s < n; s++) {
      const cards = hands?.[s];
      handsBox.append(h("div", { class: `replay-hand${v.to_move === s ? " turn" : ""}`, dataset: { testid: `replay-hand-${s}` } }, [
        h("b", {}, `${v.to_move === s ? "\u25B6 " : ""}${names[s] ?? `Seat ${s + 1}`}`),
        v.dealer === s ? h("span", { class: "hint", dataset: { testid: "replay-dealer" } }, "dealer") : null,
        h("span", { class: "hint" }, `${v.scores?.[s] ?? data.totals?.[s] ?? 0} pts`),
        // An empty list is no hand to show (a face-down deal, an older server): its size, then.
        h("div", { class: "hcards" }, cards?.length ? cards.map((c) => cardEl(c, { small: true })) : plural(v.hand_sizes?.[s], "card")),
        v.dealer === s ? gambitLine(v) : null,
      ]));
    }
    // The pile's top card is its last: marked, and scrolled into view where the pile overflows (a phone).
    const discard = v.discard ?? [];
    const pile = h("div", { class: "pile", role: "group", "aria-label": "Discard pile, top card last", dataset: { testid: "replay-pile" } },
      discard.map((c, i) => {
        const top = i === discard.length - 1;
        const el = cardEl(c, { small: true, extraLabel: top ? "top of the pile" : undefined });
        if (top) {
          el.classList.add("pile-top");
          el.dataset.testid = "replay-pile-top";
        }
        return el;
      }));
    const melds = h("div", { class: "meld-row" }, (v.melds ?? []).map((m) => h("div", { class: "meld" }, [
      h("span", { class: "meld-id" }, `#${m.id + 1}`),
      h("div", { class: "meld-cards" }, m.cards.map((c) => cardEl(c, { small: true }))),
    ])));
    const who = names[v.to_move] ?? `Seat ${v.to_move + 1}`;
    const phase = v.phase === "round_over" ? PHASE_WORDS.round_over : `${who} ${PHASE_WORDS[v.phase] ?? v.phase}`;
    board.append(
      h("h2", { class: "label", dataset: { testid: "replay-round" } }, `Round ${round + 1} \u00B7 ${phase} \u00B7 stock ${plural(v.stock_count, "card")}`),
      handsBox,
      h("h2", { class: "label" }, discard.length ? `Discard pile (${plural(discard.length, "card")}, top card last)` : "Discard pile"), pile,
      h("h2", { class: "label" }, "Melds"), melds,
    );
    pile.scrollLeft = pile.scrollWidth;
  }

  /** Dealer's Gambit, by the dealer's hand: the nomination (or that it is still to come) and the dealer's joker; null in other games. */
  function gambitLine(v) {
    if (!v.gambit && !v.dealer_joker) return null;
    const dj = DEALER_JOKER_WORDS[v.dealer_joker];
    return h("span", { class: "hint gambit", dataset: { testid: "replay-gambit" }, title: GAMBIT_WORDS[v.gambit]?.[1] ?? "" }, [
      v.gambit ? `Nominated: jokers ${v.gambit}` : "Jokers: not nominated yet",
      dj ? ` \u00B7 dealer's joker ${dj}` : "",
    ]);
  }

  /** Partnership sides as lists of seats (the table's, or its rules'), or null. */
  function partnership() {
    if (Array.isArray(table?.sides) && table.sides.length) return table.sides;
    if (table?.rules?.partnership || table?.partnership || recRules?.partnership) return [[0, 2], [1, 3]];
    return null;
  }

  /** The end of a round: what each seat melded and kept, as the table showed it. */
  function drawRoundEnd(data) {
    const r = data.round_over;
    const out = r.went_out === null || r.went_out === undefined ? "Nobody went out." : `${names[r.went_out] ?? `Seat ${r.went_out + 1}`} went out.`;
    board.append(h("h2", { class: "label", dataset: { testid: "replay-round" } }, `Round ${r.round + 1} \u00B7 round over`), h("p", {}, out));
    const go = data.game_over;
    if (go) {
      // The last step: the game's end, as the table said it.
      const winners = go.winner === null || go.winner === undefined ? [] : [].concat(go.winner);
      const nameOf = (s) => names[s] ?? `Seat ${s + 1}`;
      const tot = go.totals ?? [];
      // A partnership: the sides, each with its total (what decides the game), as the table said it.
      const sides = partnership();
      const groups = sides
        ? sides.map((seats, i) => ({ label: `Side ${SIDE_NAMES[i] ?? i + 1} (${seats.map(nameOf).join(" & ")})`, seats }))
        : tot.map((_, s) => ({ label: nameOf(s), seats: [s] }));
      for (const g of groups) g.total = g.seats.reduce((t, s) => t + (tot[s] ?? 0), 0);
      const won = groups.filter((g) => winners.length && g.seats.every((s) => winners.includes(s)));
      const who = won.length ? won.map((g) => g.label).join(" & ") : winners.map(nameOf).join(" & ");
      const totals = groups.map((g) => `${g.label} ${g.total}`).join(", ");
      board.append(h("p", { class: "winner", dataset: { testid: "replay-game-over" } },
        `Game over: ${who ? `${who} won` : "no winner"}. Final totals: ${totals}.`));
    }
    board.append(h("ul", { class: "replay-hands", dataset: { testid: "replay-round-over" } }, r.seats.map((x) => h("li", { class: "replay-hand" }, [
      h("b", {}, names[x.seat] ?? `Seat ${x.seat + 1}`),
      h("span", {}, `melded ${x.melded}, left in hand ${x.in_hand}: ${x.round_score > 0 ? "+" : ""}${x.round_score} (total ${x.total})`),
      h("div", { class: "hcards" }, x.hand.map((c) => cardEl(c, { small: true }))),
    ]))));
    board.append(h("h2", { class: "label" }, "Melds"), h("div", { class: "meld-row" }, (r.melds ?? []).map((m) => h("div", { class: "meld" }, [
      h("span", { class: "meld-id" }, `#${m.id + 1}`),
      h("div", { class: "meld-cards" }, m.cards.map((c) => cardEl(c, { small: true }))),
    ]))));
  }

  slider.addEventListener("input", () => go(+slider.value));
  const controls = h("div", { class: "replay-controls", role: "group", "aria-label": "Step through the game" }, [
    mk("\u00AB Start", "replay-first", () => go(0)),
    mk("\u2039 Back", "replay-prev", () => go(step - 1)),
    mk("Next \u203A", "replay-next", () => go(step + 1)),
    mk("End \u00BB", "replay-last", () => go(total)),
    slider, stepLabel, jump,
  ]);
  const onKey = (e) => {
    if (e.target.closest?.("input, textarea, select")) return;
    if (e.key === "ArrowRight") go(step + 1);
    if (e.key === "ArrowLeft") go(step - 1);
  };
  document.addEventListener("keydown", onKey);
  const review = reviewPanel(gameId, { goTo: go, names: () => names });
  root.append(h("main", { class: "replays" }, [
    header(h("a", { href: "/#replays" }, "All replays")),
    h("section", { class: "panel" }, [title, meta, dl, errorBox, controls, lastAction]),
    board,
    review.el,
  ]));
  // The record names the players (the replayed view only counts them).
  function heading() {
    const name = table?.title;
    title.textContent = name ? `Replay: ${name}` : names.length ? `Replay: ${names.join(", ")}` : "Replay";
    document.title = name ? `Replay: ${name} \u2014 rummy500` : "Replay \u2014 rummy500";
    const preset = table?.rules?.preset;
    meta.textContent = [whenWords(playedWhen(table)), name ? names.join(", ") : "", preset ? `${preset[0].toUpperCase()}${preset.slice(1)} rules` : ""]
      .filter(Boolean).join(" \u00B7 ");
  }
  api("GET", `/api/games/${enc}/record`).then((rec) => {
    recRules = rec?.rules ?? null;
    if (Array.isArray(rec?.players)) {
      names = distinctNames(rec.players);
      heading();
      go(wanted); // redrawn with the names: the move asked for last, not the one shown (a click may be on its way)
    }
  }).catch(() => {});
  // A game's id is its table's: the table's name and date (a table the server has forgotten: none).
  api("GET", `/api/tables/${enc}`).then((t) => {
    table = t;
    heading();
    if (partnership()) go(wanted); // the game's end grouped by side
  }).catch(() => {});
  // /#replay/{id}/review: once the first position is drawn (the board above sets where the panel lies).
  go(0).then(() => {
    if (toReview && !playing) review.reveal();
  });
  return () => {
    document.removeEventListener("keydown", onKey);
    review.stop();
  };
}
