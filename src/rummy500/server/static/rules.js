// Rules in a player's words: the house rules of a table (for its side panel)
// and the "How to play" page (/#rules).

import { ruleCatalogue } from "./api.js";
import { h, clear } from "./dom.js";
import { optionLabel, playerWords, valueText } from "./lobby.js";

// Dealer's Gambit nominations: [name, what it means] (the table and the replay say them alike).
export const GAMBIT_WORDS = {
  wild: ["Wild", "jokers are wild and count 0."],
  double: ["Double", "jokers are not wild; a joker put on a set as it is melded doubles the set and seals it."],
  split: ["Split", "jokers are not wild; spend one to take a single card from deep in the pile (the cards above it leave play)."],
};
// Where the dealer's joker is (a view's dealer_joker), in a player's words.
export const DEALER_JOKER_WORDS = { available: "free", used: "used", blocked: "blocked" };

// Per option and value: one sentence. Options missing here are said from the rules catalogue
// (GET /api/rules: the option's label, the value's label and description) once it has come,
// else as "name: value".
// The natural cards of each `card_values`; what a joker counts is said after them (jokerWords).
const CARD_WORDS = {
  standard: "Cards count their number; 10, jack, queen and king 10; aces 15 (1 at the low end of a run)",
  flat: "Cards count 5 (2 to 9), 10 (10 to king) and 15 (ace; 5 at the low end of a run)",
  ace_25: "Cards count their number; 10, jack, queen and king 10; aces 25 wherever they are",
  pip_rank: "Cards count their rank: ace 1, 2 to 10 their number, jack 11, queen 12, king 13",
  ace_11: "Aces count 11 (1 at the low end of a run); 10, jack, queen and king 10; other cards their number; an ace left in hand counts 15",
};

const WORDS = {
  // With the standard jokers (15; as their card with ace_11): a table's own jokers are said by cardWords.
  card_values: Object.fromEntries(Object.entries(CARD_WORDS).map(([k, w]) => [k,
    `${w}; ${k === "ace_11" ? "a melded joker counts as the card it stands for, 15 left in hand" : "jokers 15"}.`])),
  score_divisor: {
    1: "Scores count in full.",
    5: "Each round's score is divided by 5 (rounded), so a 100-point game is short.",
  },
  discard_draw: {
    any_depth: "You may take any card of the discard pile, with every card above it; the deepest card taken must be used that turn.",
    top_only: "Only the top card of the discard pile may be taken.",
  },
  must_use_taken: {
    if_several: "A single top card taken may simply be kept.",
    always: "Even a single top card taken from the pile must be used that turn.",
  },
  calling_rummy: {
    off: "No Rummy! calls.",
    pile: "Rummy!: when a discard leaves a playable card in the pile, anyone but the discarder may call and take the pile down to it.",
    top_card: "Rummy!: anyone but the discarder may call to claim the card just discarded if it can be played.",
    steal: "Rummy!: a caller takes only the playable card and lays it off at once; play goes on as before.",
  },
  going_out: {
    any: "You go out by melding or laying off all your cards, or by discarding your last card.",
    discard_required: "You must discard to go out.",
    floating: "You may meld out and float: you go out by discarding at a later turn.",
    unplayable_discard: "You go out only by discarding a card that could not be played.",
  },
  stock_out: {
    end_round: "When the stock runs out the round ends (unless the next player takes from the pile).",
    immediate: "When the stock runs out the round ends: the player who drew its last card finishes that turn first.",
    reshuffle: "When the stock runs out the discard pile is shuffled into a new stock.",
    play_on: "When the stock runs out play goes on from the discard pile.",
  },
  hand_penalty: {
    own: "Cards left in your hand count against you.",
    to_goer: "Cards left in the others' hands score for the player who went out.",
  },
  joker_use: { wild: "Jokers are wild.", joker_sets_only: "Jokers only make sets of jokers." },
  layoff_onto: {
    any: "You may lay off on anyone's meld.",
    own: "You may lay off only on your own melds.",
    own_and_partner: "You may lay off only on your own and your partner's melds.",
  },
  around_the_corner: { true: "Runs may go around the corner (K A 2)." },
  meld_out_of_turn: { true: "Melds and lay-offs are allowed out of turn." },
  joker_swap: { true: "A natural card may be swapped for the joker standing for it." },
  layoff_needs_own_meld: { true: "You must have a meld of your own before laying off." },
  discard_back: { true: "The top card taken may be discarded again the same turn." },
  partnership: { true: "Partners (seats 1 & 3, 2 & 4) score together." },
  dealers_gambit: { true: "Dealer's Gambit: the dealer says each hand what jokers do." },
  four_aces_bonus: { true: "Four aces melded together score a bonus." },
  masters_hand: { true: "A 7-card run laid down and going out scores 500 (Master's Hand)." },
  must_go_out_to_win: { true: "You must go out in the round you pass the target to win." },
  rummy_after_going_out: { true: "Going out while a playable card lies in the pile is a Rummy: the cards above it go back into your hand." },
  short_pack: { true: "A short pack: 7 to ace only." },
};

/** The rules catalogue (GET /api/rules) by option name, once loaded. */
let catalogue = null;
let catalogueLoading = null;

/**
 * Fetch the rules catalogue once (later calls share it); resolves to whether it is here. Until
 * then, and if it never comes, options without words of their own are said as "name: value".
 */
export function loadRuleCatalogue() {
  catalogueLoading ??= ruleCatalogue().then((data) => {
    catalogue = new Map((data?.options ?? []).filter((o) => o?.name).map((o) => [o.name, o]));
    return true;
  }, () => {
    catalogueLoading = null; // a later page may ask again
    return false;
  });
  return catalogueLoading;
}

/** Whether the rules catalogue is here (the panel says more once it is). */
export function ruleCatalogueLoaded() {
  return catalogue !== null;
}

function valueWords(value) {
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (value && typeof value === "object") return Object.entries(value).map(([k, v]) => `${k} ${v}`).join(", ");
  return String(value).replace(/_/g, " ");
}

function said(name, value) {
  const words = WORDS[name]?.[String(value)];
  if (words) return words;
  const spec = catalogue?.get(name);
  if (spec) {
    const choice = (spec.choices ?? []).find((c) => String(c.value) === String(value));
    const what = choice?.label ?? (value && typeof value === "object" ? valueWords(value) : valueText(value));
    const more = choice?.description ? ` \u2014 ${playerWords(choice.description)}` : "";
    return `${optionLabel(spec)}: ${what}${more}.`;
  }
  return `${name.replace(/_/g, " ")}: ${valueWords(value)}.`;
}

/**
 * The packs and jokers in play: `decks` and `jokers` are "auto" unless set (one pack for 2-4
 * players, two for 5-8, one always with Dealer's Gambit; two jokers a pack), as the engine has it.
 */
function packsInWords(r, players) {
  const n = Number(r.players ?? players ?? 2);
  const auto = (x) => x === undefined || x === null || x === "auto";
  const decks = auto(r.decks) ? (n <= 4 || r.dealers_gambit ? 1 : 2) : Number(r.decks);
  const jokers = auto(r.jokers) ? 2 * decks : Number(r.jokers);
  const jk = jokers ? `${jokers} joker${jokers === 1 ? "" : "s"}` : "no jokers";
  if (decks > 1) return `Two packs with ${jk}${auto(r.decks) ? " (5 or more players)" : ""}.`;
  if (!jokers) return "No jokers.";
  return auto(r.jokers) ? null : `One pack with ${jk}.`;
}

/** How many jokers are in play (`jokers` "auto": two a pack), as the engine has it. */
function jokerCount(r, players) {
  const n = Number(r.players ?? players ?? 2);
  const auto = (x) => x === undefined || x === null || x === "auto";
  const decks = auto(r.decks) ? (n <= 4 || r.dealers_gambit ? 1 : 2) : Number(r.decks);
  return auto(r.jokers) ? 2 * decks : Number(r.jokers);
}

/**
 * What a joker counts at this table, as the engine scores it (scoring.joker_value): a house value
 * (`custom_values` JK, then a `joker_value` number), as its card (`represented`, or `ace_11` with
 * the value automatic: 15 left in hand), 0 under Dealer's Gambit, else 15. "" when no joker is in play.
 */
function jokerWords(r, players) {
  if (!jokerCount(r, players)) return "";
  const custom = r.custom_values && typeof r.custom_values === "object" ? r.custom_values.JK : undefined;
  if (custom !== undefined) return `jokers ${custom}`;
  const jv = r.joker_value ?? "auto";
  if (typeof jv === "number") return `jokers ${jv}`;
  if (jv === "represented") return "a melded joker counts as the card it stands for, 15 left in hand";
  if (r.dealers_gambit) return "jokers 0";
  if ((r.card_values ?? "standard") === "ace_11") return "a melded joker counts as the card it stands for, 15 left in hand";
  return "jokers 15";
}

/** What the cards count at this table: the natural cards of its `card_values`, then its jokers. */
function cardValueWords(r, players) {
  const natural = CARD_WORDS[r.card_values ?? "standard"];
  if (!natural) return said("card_values", r.card_values);
  const jokers = jokerWords(r, players);
  return `${natural}${jokers ? `; ${jokers}` : ""}.`;
}

/** The table's rules and settings as sentences (the most important first); `players`: the seats, if the rules do not say. */
export function rulesInWords(rules, settings, players) {
  const r = rules || {};
  const out = [];
  if (r.rounds && r.rounds !== "to_target") out.push(`${r.rounds} round${r.rounds === 1 ? "" : "s"}; the highest total wins.`);
  else out.push(`First to ${r.target ?? 500} points wins.`);
  // How the points are counted, next to the target they count towards: what the cards are worth is
  // always said (a table of the standard values says it too), the divisor where the table has one.
  out.push(cardValueWords(r, players));
  if (r.score_divisor !== undefined) out.push(said("score_divisor", r.score_divisor));
  for (const key of ["discard_draw", "must_use_taken", "calling_rummy", "going_out"]) out.push(said(key, r[key] ?? Object.keys(WORDS[key])[0]));
  if (r.first_meld_min) out.push(`Your first melds must total at least ${r.first_meld_min} points.`);
  if (r.min_run && r.min_run !== 3) out.push(`Runs need at least ${r.min_run} cards.`);
  const packs = packsInWords(r, players);
  if (packs) out.push(packs);
  // (joker_value is said with the card values.)
  const shown = new Set(["target", "rounds", "players", "preset", "card_values", "joker_value", "score_divisor", "discard_draw", "must_use_taken", "calling_rummy", "going_out", "first_meld_min", "min_run", "decks", "jokers"]);
  for (const [k, v] of Object.entries(r)) if (!shown.has(k)) out.push(said(k, v));
  const s = settings || {};
  out.push(s.turn_clock ? `Turn clock: ${s.turn_clock} s a turn, then the computer plays it.` : "No turn clock.");
  out.push(s.hints === false ? "Hints are off at this table." : "Hints are on: press Hint on your turn.");
  return out;
}

/** The "How to play" page. */
export function renderRulesPage(root) {
  clear(root);
  document.title = "How to play \u2014 rummy500";
  const sec = (title, ...paras) => h("section", { class: "panel" }, [h("h2", {}, title), ...paras.map((p) => h("p", {}, p))]);
  root.append(h("main", { class: "rules-page", dataset: { testid: "rules-page" } }, [
    h("header", { class: "lobby-head" }, [h("h1", {}, ["How to play Rummy ", h("span", { class: "accent" }, "500")]),
      h("nav", { class: "row" }, [h("a", { href: "/" }, "Play"), h("a", { href: "/#replays" }, "Replays")])]),
    sec("The aim", "Score points by laying cards on the table in melds. Cards left in your hand when a round ends count against you. Rounds are played until someone reaches 500; the highest total then wins. If the highest totals are tied, another round is played to break the tie."),
    sec("Melds", "A set is 3 or 4 cards of one rank in different suits (7\u2663 7\u2666 7\u2660). A run is 3 or more cards of one suit in a row (4\u2665 5\u2665 6\u2665); the ace is high (Q K A) or low (A 2 3), not both.",
      "A joker stands for any card you say; it keeps that meaning for the rest of the round. A meld needs at least two real cards besides its jokers: 5\u2665 6\u2665 and a joker is a meld, two jokers and a 5\u2665 are not."),
    sec("Your turn", "1. Draw: take the top card of the stock, or take a card from the discard pile together with every card above it. If you take more than one card, you must use the deepest one in a meld or lay-off this turn.",
      "A single top card you take from the pile may not be discarded again that turn (unless the table's rules allow it): meld it, lay it off, or keep it.",
      "2. Meld and lay off as you like: lay down new melds, or add cards to any meld on the table (a lay-off scores for you).",
      "3. Discard one card. The round ends when someone has no cards left.",
      "The round also ends when the stock runs out: each player in turn may still take from the discard pile, and as soon as one does not, the round is over: everyone scores as usual, the cards laid down minus the cards left in hand. (Some tables reshuffle the pile into a new stock or play on instead: the table's rules panel says so.)"),
    sec("Rummy!", "At some tables, when a discard leaves a card in the pile that could be played, anyone but the discarder may call Rummy! and claim it. Everyone gets the same few seconds to call; the window shows on the table."),
    sec("Scoring", "Aces count 15 (1 as the low end of a run), kings, queens, jacks and tens 10, other cards their number, jokers 15. Each round you score the cards you laid on the table minus the cards left in your hand.",
      "Some tables count cards otherwise: the quick game counts 5 (2 to 9), 10 (10 to king) and 15 (ace), divides each round's score by 5 and plays to 100. The table's rules panel says how yours counts."),
    sec("At the table", "Tap cards to select them, then press Meld, Lay off or Discard; a lit card of the pile can be taken. Hint shows what a strong computer player would do, and why. With a turn clock, the computer plays your turn when time runs out. Everyone presses Ready after a round to deal the next."),
  ]));
}
