// What happened at the table, in words: the one place the client puts the
// server's events (src/rummy500/events.py, the `events` of each log entry)
// into sentences, for the game log, the screen readers' live region and the
// replay viewer. The client never works out what happened by itself: a take
// says which cards it took because the server's `took` event lists them, a
// draw from the stock shows no card because the public event has none.

import { cardText, cardWords, listWords, parseCard, RANK_ORDER } from "./cards.js";
import { describe, ordinal } from "./actions.js";
import { spokenAction } from "./chooser.js";

// Log entries of their own (not inside an action's `events`): the entry kind -> the event it carries.
const OWN_ENTRIES = { reshuffle: "reshuffled", round_over: "round_over", game_over: "game_over" };

const JOKER_MODES = { wild: "wild", double: "double", split: "split" };

/**
 * Cards as the log shows them ("9♦ Q♦ joker (as 4♠)"), or, ``spoken``, in words for a screen
 * reader ("9 of diamonds, Queen of diamonds and a joker as the 4 of spades"), as the page says a
 * card drawn.
 */
function cardsIn(spoken) {
  return {
    one: (card) => (spoken ? cardWords(card) : cardText(card)),
    all: (cards) => (spoken ? listWords((cards || []).map(cardWords)) : (cards || []).map(cardText).join(" ")),
  };
}

/** The card a card of a meld shows: a joker's declared card ("JK=QS" -> "QS"), a natural itself; null for a bare joker. */
function shown(code) {
  const { base, standsFor } = parseCard(code);
  return base === "JK" ? standsFor : base;
}

/**
 * Cards laid on the table in the order the table shows them. The server lists a meld's cards as
 * they were sent ("A♠ 10♠ J♠ K♠ joker (as Q♠)", a joker last); the table lays a run out in rank
 * order (10 J Q K A). A run (one suit, each rank once: a joker counts as the card it stands for)
 * is put in rank order with the ace where the run has it: the order starts after the widest gap
 * between its ranks, counted round the ace (A 2 3, 10 J Q K A, and Q K A 2 3 where a run may go
 * round the corner). Cards laid off on a run need not touch each other (2♠ and 9♠ on 3♠..8♠):
 * they go low to high, the ace high beside a king, else low. Anything else (a set, jokers alone)
 * stays as laid.
 */
export function tableOrder(cards) {
  const list = Array.isArray(cards) ? [...cards] : [];
  if (list.length < 2) return list;
  const faces = list.map(shown);
  if (faces.some((c) => !c)) return list;
  const suits = new Set(faces.map((c) => c.slice(-1)));
  const ranks = faces.map((c) => RANK_ORDER.indexOf(c.slice(0, -1)));
  if (suits.size !== 1 || ranks.some((r) => r < 0) || new Set(ranks).size !== ranks.length) return list;
  const byRank = (r) => list[ranks.indexOf(r)];
  const sorted = [...ranks].sort((a, b) => a - b);
  const n = sorted.length;
  // The widest gap, the one from the highest rank round to the lowest (past the ace) included.
  let widest = n - 1;
  let gap = sorted[0] + RANK_ORDER.length - sorted[n - 1];
  for (let i = 0; i < n - 1; i++) {
    if (sorted[i + 1] - sorted[i] > gap) {
      gap = sorted[i + 1] - sorted[i];
      widest = i;
    }
  }
  const rotated = [...sorted.slice(widest + 1), ...sorted.slice(0, widest + 1)];
  const span = (rotated[n - 1] - rotated[0] + RANK_ORDER.length) % RANK_ORDER.length;
  if (span === n - 1) return rotated.map(byRank); // next to each other: in order round the widest gap
  // Apart (lay-offs at both ends of a run): low to high, an ace high beside a king (and no 2).
  const aceHigh = sorted.includes(12) && !sorted.includes(1);
  const key = (r) => (r === 0 && aceHigh ? RANK_ORDER.length : r);
  return [...ranks].sort((a, b) => key(a) - key(b)).map(byRank);
}

function count(n, one, many) {
  return n === 1 ? one : `${n} ${many}`;
}

/**
 * One event in words. Events of a seat read as a predicate ("drew a card from
 * the stock"), to follow the player's name; table events (a reshuffle, a
 * round's end, the game's end) are whole sentences. Returns "" for an event
 * nobody needs to read (a declined call).
 *
 * @param {object} ev an event's JSON: {event, ...fields}
 * @param {string[]} names display names by seat
 * @param {{spoken?: boolean}} how ``spoken``: cards in words (for a live region), not symbols
 */
export function eventText(ev, names = [], { spoken = false } = {}) {
  const { one: oneCard, all: cardsText } = cardsIn(spoken);
  const who = (seat) => names[seat] ?? `Seat ${seat + 1}`;
  const signed = (x) => `${x > 0 ? "+" : ""}${x}`;
  switch (ev?.event) {
    case "nominated": return `nominated jokers ${JOKER_MODES[ev.mode] ?? ev.mode}`;
    case "drew":
      return ev.cards ? `drew ${cardsText(ev.cards)} from the stock` : `drew ${count(ev.count ?? 1, "a card", "cards")} from the stock`;
    case "took": {
      const cards = ev.cards || [];
      let t = cards.length === 1 ? `took ${oneCard(cards[0])} from the pile` : `took ${cards.length} cards from the pile: ${cardsText(cards)}`;
      if (ev.removed?.length) t += ` (split: ${cardsText(ev.removed)} left play)`;
      return t;
    }
    case "melded": return `melded ${cardsText(tableOrder(ev.cards))}`;
    case "laid_off": return `laid off ${cardsText(tableOrder(ev.cards))} on meld ${ev.on + 1}`;
    case "swapped": return `swapped ${oneCard(ev.card)} for the joker on meld ${ev.on + 1}`;
    case "discarded": return `discarded ${cardsText(ev.cards)}`;
    case "floated": return "melded out and floats (goes out by discarding later)";
    case "left_rummy": {
      const back = ev.cards?.length ? `takes back ${cardsText(ev.cards)}` : "floats with no card";
      return `left the ${oneCard(ev.card)} playable in the pile: a Rummy! Not out: ${back}`;
    }
    case "passed": return "passed: the stock is empty";
    case "called_rummy": {
      const cards = ev.cards || [];
      let t = `called Rummy! on the ${ordinal(ev.depth)} card from the top`;
      if (cards.length) t += `, taking ${cardsText(cards)}`;
      if (ev.on !== null && ev.on !== undefined) t += `, laid on meld ${ev.on + 1}`;
      if (ev.meld !== null && ev.meld !== undefined) t += `, melded as meld ${ev.meld + 1}`;
      return t;
    }
    case "blocked": return "blocked the dealer's joker";
    case "declined": return "";
    case "reshuffled": return `The discard pile was shuffled into a new stock${ev.count ? ` of ${ev.count} cards` : ""}.`;
    case "dealt": return `Round ${(ev.round ?? 0) + 1}: ${who(ev.dealer)} deals.`;
    case "round_over": {
      const out = ev.went_out !== null && ev.went_out !== undefined ? `${who(ev.went_out)} went out. ` : "The stock ran out. ";
      const sc = (ev.round_scores ?? []).map((x, i) => `${who(i)} ${signed(x)}`).join(", ");
      return `Round ${(ev.round ?? 0) + 1} over. ${out}${sc}`.trim();
    }
    case "game_over": {
      const w = ev.winner;
      if (w === null || w === undefined) return "Game over.";
      return `Game over: ${Array.isArray(w) ? w.map(who).join(" & ") : who(w)} won.`;
    }
    default: return "";
  }
}

/**
 * The player's own move in words, for the screen readers' live region, its cards said as a card
 * drawn is ("You drew Jack of hearts"): "You took 3 cards from the pile: 9 of diamonds, Queen of
 * diamonds and 4 of spades", "You melded 7 of hearts, 8 of hearts and a joker as the 9 of hearts,
 * then discarded King of clubs". "" when its events say nothing.
 *
 * @param {object} entry a log entry of the player's own action ({events, ...})
 * @param {string[]} names display names by seat
 */
export function ownEntryText(entry, names = []) {
  const events = Array.isArray(entry?.events) ? entry.events : [];
  const text = events.filter(bySeat).map((ev) => eventText(ev, names, { spoken: true })).filter(Boolean).join(", then ");
  return text ? `You ${text}` : "";
}

/** Whether an event is a seat's doing (read after the player's name). */
function bySeat(ev) {
  return ev && "seat" in ev && !(ev.event in { round_over: 1, game_over: 1, dealt: 1, reshuffled: 1 });
}

/**
 * A log entry of a state message in words: "Ann: took 3 cards from the pile:
 * 9♦ 10♦ J♣, then melded 9♦ 10♦ J♦" (``spoken``, for a live region: "Ann: took
 * 3 cards from the pile: 9 of diamonds, 10 of diamonds and Jack of clubs, ...").
 * An action's entry is read from its
 * `events` (the round's end, a reshuffle and the game's end have entries of
 * their own and are read there); an entry without events (an older server)
 * falls back to the action itself.
 *
 * @param {object|string} entry a log entry ({kind, seat, name, action, events, auto, ...})
 * @param {string[]} names display names by seat
 * @param {Set<number>|null} people seats played by people (a move the computer made for one of them says so)
 * @param {{spoken?: boolean}} how ``spoken``: cards in words (for a live region), not symbols
 */
export function entryText(entry, names = [], people = null, { spoken = false } = {}) {
  if (typeof entry === "string") return entry;
  if (!entry) return "";
  if (entry.kind in OWN_ENTRIES) return eventText({ ...entry, event: OWN_ENTRIES[entry.kind] }, names, { spoken });
  const seat = entry.seat ?? entry.p;
  const name = entry.name ?? (seat !== undefined ? names[seat] ?? `Seat ${seat + 1}` : "");
  let text;
  if (Array.isArray(entry.events)) {
    text = entry.events.filter(bySeat).map((ev) => eventText(ev, names, { spoken })).filter(Boolean).join(", then ");
  }
  if (!text) text = entry.action ? (spoken ? spokenAction : describe)(entry.action) : (entry.text ?? entry.message ?? "");
  // A person's move the computer made (turn clock out, or away): say so.
  const standIn = entry.auto && people?.has(seat) ? " (played by the computer)" : "";
  return `${name}${name && text ? ": " : ""}${text}${standIn}`;
}
