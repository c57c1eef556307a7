// What happened at the table, in words: the one place the client puts the
// server's events (src/rummy500/events.py, the `events` of each log entry)
// into sentences, for the game log, the screen readers' live region and the
// replay viewer. The client never works out what happened by itself: a take
// says which cards it took because the server's `took` event lists them, a
// draw from the stock shows no card because the public event has none.

import { cardText, cardWords, listWords } from "./cards.js";
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
    case "melded": return `melded ${cardsText(ev.cards)}`;
    case "laid_off": return `laid off ${cardsText(ev.cards)} on meld ${ev.on + 1}`;
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
