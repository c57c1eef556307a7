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
 * Controls (but tabs and line breaks, which are spaces), lone surrogates, private use, and format characters other than the zero-width joiner
 * and non-joiner and a flag's tag characters: what the server takes out (session/guards.py).
 * Characters unknown to a Unicode version (an emoji newer than the server's Python) are kept.
 */
const DROPPED = /(?![\t\n\v\f\r])\p{Cc}|[\p{Cs}\p{Co}]|(?![\u200c\u200d\u{e0020}-\u{e007f}])\p{Cf}/gu;

/**
 * A chat line as the server keeps it (docs/protocol.md): control and format characters removed,
 * runs of spaces made one, trimmed; its length is counted in characters (code points), as the server's.
 */
export function chatClean(text) {
  return String(text ?? "").replace(DROPPED, "").split(/\s+/u).filter(Boolean).join(" ");
}

export function chatLength(text) {
  return [...chatClean(text)].length;
}
