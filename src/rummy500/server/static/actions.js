// Reading the server's `legal` list. The client never derives a move itself:
// every button it enables is one of these action dicts (RECORD.md verbs),
// found by matching the player's selection against the list.

import { RANK_ORDER, baseCard, cardText, sameMultiset, isJoker, rankOf, suitOf } from "./cards.js";

/**
 * The verb of an action dict: "draw", "take", "meld", ... A Rummy! call comes first: under
 * `calling_rummy: steal` a call carries the pile cards it melds (`{"rummy": 1, "meld": [...]}`),
 * and is a call, never a meld from the hand.
 */
export function verbOf(action) {
  for (const v of ["rummy", "draw", "take", "meld", "layoff", "swap", "discard", "pass",
    "float", "nominate", "block"]) {
    if (v in action) return v;
  }
  return Object.keys(action).find((k) => k !== "p") ?? "?";
}

/** The hand cards an action uses, as listed (jokers with their declaration). */
export function actionCards(action) {
  switch (verbOf(action)) {
    case "meld": return [...action.meld];
    case "layoff": return [...action.layoff];
    case "swap": return [action.swap];
    case "discard": return Array.isArray(action.discard) ? [...action.discard] : [action.discard];
    default: return [];
  }
}

/** Legal actions of `verb` whose cards are exactly the selected hand cards. */
export function matching(legal, verb, selected) {
  if (!selected.length) return [];
  return legal.filter((a) => verbOf(a) === verb && sameMultiset(actionCards(a), selected));
}

/** Meld / layoff choices for the selection, grouped for the buttons. */
export function selectionChoices(legal, selected) {
  const melds = matching(legal, "meld", selected);
  const discards = matching(legal, "discard", selected);
  const layoffs = new Map(); // meld id -> [actions]
  for (const a of matching(legal, "layoff", selected)) {
    if (!layoffs.has(a.on)) layoffs.set(a.on, []);
    layoffs.get(a.on).push(a);
  }
  const swaps = matching(legal, "swap", selected);
  return { melds, discards, layoffs, swaps };
}

/** True when some legal meld/layoff/discard/swap could still use these cards plus more. */
export function selectionCouldGrow(legal, selected) {
  const sel = selected.map(baseCard);
  return legal.some((a) => {
    const cards = actionCards(a).map(baseCard);
    if (cards.length <= sel.length) return false;
    const pool = [...cards];
    return sel.every((c) => {
      const i = pool.indexOf(c);
      if (i < 0) return false;
      pool.splice(i, 1);
      return true;
    });
  });
}

/**
 * Why the selected hand cards, none of them a legal move now, make no meld, when the cards
 * alone say so: one suit and one rank missing, a run with a gap, too few cards. `null` when
 * they look like a meld and the reason lies elsewhere (the table's rules, the moment): the
 * client never decides what is legal, this only puts a refusal in a player's words.
 * `minRun`: the table's shortest run; `aroundCorner`: runs may turn the corner (K A 2).
 */
export function selectionProblem(selected, { minRun = 3, aroundCorner = false } = {}) {
  if (selected.length < 2) return null;
  const natural = selected.map(baseCard).filter((c) => !isJoker(c));
  const jokers = selected.length - natural.length;
  const ranks = new Set(natural.map(rankOf));
  const suits = new Set(natural.map(suitOf));
  if (ranks.size > 1 && suits.size > 1) return "a run needs one suit and consecutive ranks; a set needs one rank";
  if (selected.length < 3) return "a meld needs at least 3 cards";
  if (ranks.size > 1 && suits.size === 1) {
    // A run: the ranks in a row (jokers may fill the gaps), the ace at one end only.
    if (ranks.size < natural.length) return "a run has each rank once";
    const gapsFit = (at) => {
      const sorted = [...at].sort((a, b) => a - b);
      return sorted[sorted.length - 1] - sorted[0] + 1 - sorted.length <= jokers;
    };
    const low = natural.map((c) => RANK_ORDER.indexOf(rankOf(c))); // A = 0 ... K = 12
    const fits = gapsFit(low) || gapsFit(low.map((r) => (r === 0 ? 13 : r)))
      // Around the corner (K A 2): the ranks in a row on the wheel, starting anywhere.
      || (aroundCorner && low.some((start) => gapsFit(low.map((r) => (r - start + 13) % 13))));
    if (!fits) {
      return aroundCorner ? "a run needs consecutive ranks" : "a run needs consecutive ranks (the ace either low, A 2 3, or high, Q K A)";
    }
    if (selected.length < minRun) return `a run needs at least ${minRun} cards at this table`;
  }
  return null;
}

/** Does this action list an option that differs only in joker declarations? */
export function jokerDeclarations(action) {
  return actionCards(action).filter((c) => c.startsWith("JK="));
}

/** Depth-n takes (n = cards from the top) that are legal now. */
export function legalTakes(legal) {
  return new Set(legal.filter((a) => verbOf(a) === "take").map((a) => a.take));
}

/** Rummy calls that are legal now (a steal's meld or lay-off of the claimed card included). */
export function legalRummies(legal) {
  return legal.filter((a) => verbOf(a) === "rummy");
}

/** The pile card a Rummy! call claims (`pile`: the discard pile, bottom first), or null when unknown. */
export function claimedCard(action, pile) {
  const d = action?.rummy;
  return Array.isArray(pile) && d >= 1 && pile.length >= d ? pile[pile.length - d] : null;
}

/**
 * The cards a legal discard of several cards (`discard_count: match_drawn`) puts on the pile, in
 * the order the player picked them (`picked`: hand cards, first picked first): they go on the pile
 * in that order, the last one on top. The legal list names each choice once (ascending) and the
 * server takes those cards in any order. `null` when `picked` is not those cards.
 */
export function discardInPickedOrder(action, picked) {
  const cards = actionCards(action);
  if (cards.length < 2 || !sameMultiset(cards, picked)) return null;
  return { ...action, discard: [...picked] };
}

/** How many cards a discard takes now (`discard_count: match_drawn` after drawing two): 0 when none is legal. */
export function discardSize(legal) {
  const sizes = legal.filter((a) => verbOf(a) === "discard").map((a) => actionCards(a).length);
  return sizes.length ? Math.max(...sizes) : 0;
}

export function ordinal(n) {
  const s = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}

/**
 * Words for an action, for buttons, the log and the "other moves" list (melds numbered from 1, as seats).
 * `pile`: the discard pile before the move (bottom card first), when known (the review, the table): a
 * take of several cards names the deepest one taken ("Take 11 cards from the pile, down to K♦"), a
 * Rummy! call the card it claims ("Call Rummy! on the 7♦, 1st card from the top, melding 6♦ 7♦ 8♦").
 */
export function describe(action, pile = null) {
  const cards = (l) => l.map(cardText).join(" ");
  switch (verbOf(action)) {
    case "draw": return "Draw from the stock";
    case "take":
      if (action.split) return `Split the pile at the ${ordinal(action.take)} card (spend a joker)`;
      if (action.take === 1) return "Take the top discard";
      {
        const deepest = Array.isArray(pile) && pile.length >= action.take ? pile[pile.length - action.take] : null;
        return `Take ${action.take} cards from the pile${deepest ? `, down to ${cardText(deepest)}` : ""}`;
      }
    case "meld": return `Meld ${cards(action.meld)}`;
    case "layoff": return `Lay off ${cards(action.layoff)} on meld ${action.on + 1}`;
    case "swap": return `Swap ${cardText(action.swap)} for the joker on meld ${action.on + 1}`;
    case "discard": return `Discard ${cards(actionCards(action))}`;
    // Passing is legal only with an empty stock, and it ends the round (the engine's Pass).
    case "pass": return "Pass (ends the round)";
    case "rummy": {
      // Several calls may claim the same card or meld the same cards: the depth tells them apart.
      const card = claimedCard(action, pile);
      let t = card ? `Call Rummy! on the ${cardText(card)}, ${ordinal(action.rummy)} card from the top`
        : `Call Rummy! on the ${ordinal(action.rummy)} card from the top`;
      if (action.on != null) t += `, laying it on meld ${action.on + 1}`;
      if (action.meld) t += `, melding ${cards(action.meld)}`;
      return t;
    }
    case "float": return "Float (meld out, discard later)";
    case "nominate": return `Nominate jokers: ${action.nominate}`;
    case "block": return "Block the dealer's joker";
    default: return JSON.stringify(action);
  }
}

/** Two action dicts are the same move. */
export function sameAction(a, b) {
  return JSON.stringify(normalize(a)) === JSON.stringify(normalize(b));
}

function normalize(a) {
  const out = {};
  for (const k of Object.keys(a).sort()) if (k !== "p") out[k] = a[k];
  return out;
}
