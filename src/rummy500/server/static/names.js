// Words shared by the pages: names of seats told apart, plurals, chat text as the server keeps it.

/**
 * The seats' names as the page shows them: two seats of one name (an old table let a second
 * "Bob" join) are told apart by their seat, "Bob (seat 2)" and "Bob (seat 4)"; other names as they are.
 */
export function distinctNames(names) {
  const key = (n) => String(n ?? "").trim().toLowerCase();
  const count = new Map();
  for (const n of names) if (n) count.set(key(n), (count.get(key(n)) ?? 0) + 1);
  return names.map((n, s) => (n && count.get(key(n)) > 1 ? `${n} (seat ${s + 1})` : n));
}

/** "1 card", "7 cards" ("? cards" when the number is not known). */
export function plural(n, one, many = `${one}s`) {
  return `${n ?? "?"} ${n === 1 ? one : many}`;
}

/**
 * Unicode's default-ignorable code points: drawn as nothing (a combining grapheme joiner, variation
 * selectors, Khmer inherent vowels, Mongolian variation selectors, Hangul fillers, the U+E0000 block).
 * The server's list (storage/base.py IGNORABLE).
 */
const IGNORABLE = String.raw`\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f`
  + String.raw`\u3164\ufe00-\ufe0f\ufeff\uffa0\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0000}-\u{e0fff}`;

/**
 * What the server takes out of a chat line (session/guards.py): controls (but tabs and line breaks,
 * which are spaces), lone surrogates, private use, format characters and default-ignorable ones but
 * the zero-width joiner and non-joiner; tag characters but those right after a black flag (a
 * subdivision's flag, 🏴󠁧󠁢󠁳󠁣󠁴󠁿); the presentation selectors VS15 and VS16 but right after a symbol, a
 * character unknown to a Unicode version, or another emoji base (❤️, the keycaps' # * 0-9).
 * Characters unknown to a Unicode version (an emoji newer than the server's Python) are kept.
 */
const DROPPED = new RegExp([
  String.raw`(?![\t\n\v\f\r])\p{Cc}`,
  String.raw`[\p{Cs}\p{Co}]`,
  String.raw`(?<!\u{1f3f4}[\u{e0020}-\u{e007f}]*)[\u{e0020}-\u{e007f}]`,
  String.raw`(?<![\p{So}\p{Sm}\p{Cn}#*0-9\u203c\u2049\u2139\u3030\u303d])[\ufe0e\ufe0f]`,
  String.raw`(?![\u200c\u200d\ufe0e\ufe0f\u{e0020}-\u{e007f}])[\p{Cf}${IGNORABLE}]`,
].join("|"), "gu");

/** A line that shows nothing: spaces, joiners, presentation selectors, tags and Braille blanks only. */
const UNSEEN = /^[\s\u200c\u200d\ufe0e\ufe0f\u{e0020}-\u{e007f}\u2800]*$/u;

/**
 * A chat line as the server keeps it (docs/protocol.md): control, format and invisible characters
 * removed, runs of spaces made one, trimmed, and nothing at all when what is left shows nothing;
 * its length is counted in characters (code points), as the server's.
 */
export function chatClean(text) {
  const kept = String(text ?? "").replace(DROPPED, "").split(/\s+/u).filter(Boolean).join(" ");
  return UNSEEN.test(kept) ? "" : kept;
}

export function chatLength(text) {
  return [...chatClean(text)].length;
}
