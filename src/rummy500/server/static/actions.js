// Reading the server's `legal` list. The client never derives a move itself:
// every button it enables is one of these action dicts (RECORD.md verbs),
// found by matching the player's selection against the list.

import { baseCard, cardText, sameMultiset } from "./cards.js";

/** The verb of an action dict: "draw", "take", "meld", ... */
export function verbOf(action) {
  for (const v of ["draw", "take", "meld", "layoff", "swap", "discard", "pass",
    "rummy", "float", "nominate", "block"]) {
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

/** Does this action list an option that differs only in joker declarations? */
export function jokerDeclarations(action) {
  return actionCards(action).filter((c) => c.startsWith("JK="));
}

/** Depth-n takes (n = cards from the top) that are legal now. */
export function legalTakes(legal) {
  return new Set(legal.filter((a) => verbOf(a) === "take").map((a) => a.take));
}

/** Rummy calls that are legal now, by claimed depth. */
export function legalRummies(legal) {
  return legal.filter((a) => verbOf(a) === "rummy");
}

export function ordinal(n) {
  const s = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}

/** Words for an action, for buttons, the log and the "other moves" list (melds numbered from 1, as seats). */
export function describe(action) {
  const cards = (l) => l.map(cardText).join(" ");
  switch (verbOf(action)) {
    case "draw": return "Draw from the stock";
    case "take":
      if (action.split) return `Split the pile at the ${ordinal(action.take)} card (spend a joker)`;
      return action.take === 1 ? "Take the top discard" : `Take ${action.take} cards from the pile`;
    case "meld": return `Meld ${cards(action.meld)}`;
    case "layoff": return `Lay off ${cards(action.layoff)} on meld ${action.on + 1}`;
    case "swap": return `Swap ${cardText(action.swap)} for the joker on meld ${action.on + 1}`;
    case "discard": return `Discard ${cards(actionCards(action))}`;
    case "pass": return "Pass (do not draw)";
    case "rummy": {
      let t = `Call Rummy! on the ${ordinal(action.rummy)} card from the top`;
      if (action.on != null) t += `, onto meld ${action.on + 1}`;
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
