// Card notation (RULES.md): rank A 2..9 T J Q K, suit C D H S; "JK" is a joker
// in hand; "JK=7H" a joker on the table standing for 7H. This module only
// reads and draws the notation; it never decides what is legal.

const RANK_NAMES = {
  A: "Ace", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
  T: "10", J: "Jack", Q: "Queen", K: "King",
};
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
/** The ranks in order, the ace low: "A" is 0, "K" 12. */
export const RANK_ORDER = "A23456789TJQK";
const SUIT_ORDER = "CDSH"; // alternate colours when sorted by suit

/** Split "JK=7H" into {base:"JK", standsFor:"7H"}; "7H" into {base:"7H"}. */
export function parseCard(code) {
  const s = String(code).toUpperCase().replace(/^10/, "T");
  const eq = s.indexOf("=");
  if (eq >= 0) return { base: s.slice(0, eq), standsFor: s.slice(eq + 1) };
  return { base: s, standsFor: null };
}

/** The card as it sits in a hand: "JK=7H" -> "JK". */
export function baseCard(code) {
  return parseCard(code).base;
}

export function isJoker(code) {
  return parseCard(code).base === "JK";
}

export function rankOf(code) {
  const { base, standsFor } = parseCard(code);
  const c = base === "JK" ? standsFor : base;
  return c ? c.slice(0, -1) : null;
}

export function suitOf(code) {
  const { base, standsFor } = parseCard(code);
  const c = base === "JK" ? standsFor : base;
  return c ? c.slice(-1) : null;
}

export function isRed(code) {
  const s = suitOf(code);
  return s === "H" || s === "D";
}

/** Spoken name: "Queen of spades", "Joker standing for 7 of hearts", "Joker". */
export function cardLabel(code) {
  const { base, standsFor } = parseCard(code);
  if (base === "JK") {
    return standsFor ? `Joker standing for ${naturalLabel(standsFor)}` : "Joker";
  }
  return naturalLabel(base);
}

/** A card in a sentence: "5 of clubs", "a joker as the 5 of diamonds", "a joker". */
export function cardWords(code) {
  const { base, standsFor } = parseCard(code);
  if (base === "JK") return standsFor ? `a joker as the ${naturalLabel(standsFor)}` : "a joker";
  return naturalLabel(base);
}

/** Words in a list: "a", "a and b", "a, b and c". */
export function listWords(words) {
  if (words.length < 2) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

function naturalLabel(c) {
  const rank = RANK_NAMES[c.slice(0, -1)] ?? c.slice(0, -1);
  const suit = SUIT_NAMES[c.slice(-1)] ?? c.slice(-1);
  return `${rank} of ${suit}`;
}

/**
 * Short text for logs, buttons, hints and the review: "Q♠", "10♥", "joker (as 7♥)", "joker" (the
 * words the server's hint reasons use; never the notation "JK=7H"). Screen readers get cardWords.
 */
export function cardText(code) {
  const { base, standsFor } = parseCard(code);
  if (base === "JK") return standsFor ? `joker (as ${naturalText(standsFor)})` : "joker";
  return naturalText(base);
}

function naturalText(c) {
  const r = c.slice(0, -1);
  return `${r === "T" ? "10" : r}${SUIT_SYMBOLS[c.slice(-1)] ?? c.slice(-1)}`;
}

/** Sort keys for the two hand orders; jokers go to the end. */
export function sortKey(code, by) {
  const { base } = parseCard(code);
  if (base === "JK") return 1000;
  const r = RANK_ORDER.indexOf(base.slice(0, -1));
  const s = SUIT_ORDER.indexOf(base.slice(-1));
  return by === "rank" ? r * 10 + s : s * 100 + r;
}

// The card faces: SVG-cards 4.0.2 (LGPL-2.1), one file per card (static/cards/README.md).
const ART = "/static/cards";

/** The face of a card (court cards with their figures, jokers with their art), behind the index. */
function artEl(base, code) {
  const img = document.createElement("img");
  img.className = "art";
  img.alt = "";
  img.setAttribute("aria-hidden", "true");
  img.draggable = false;
  img.decoding = "async";
  img.src = `${ART}/${base === "JK" ? (isRed(code) ? "JK-red" : "JK-black") : base}.svg`;
  return img;
}

/**
 * A card element. Options: {small, faceDown, testid, label, extraLabel}.
 * Cards are <div role="img"> by default; interactive callers wrap or set roles.
 */
export function cardEl(code, opts = {}) {
  const el = document.createElement(opts.tag || "div");
  el.className = "card";
  if (opts.small) el.classList.add("small");
  if (opts.faceDown) {
    el.classList.add("back");
    el.setAttribute("aria-label", opts.label || "Face-down card");
    if (!opts.tag) el.setAttribute("role", "img");
    return el;
  }
  const { base, standsFor } = parseCard(code);
  el.dataset.card = code;
  if (base === "JK") el.classList.add("joker");
  if (isRed(code)) el.classList.add("red");
  let label = cardLabel(code);
  if (opts.extraLabel) label += `, ${opts.extraLabel}`;
  el.setAttribute("aria-label", label);
  if (!opts.tag) el.setAttribute("role", "img");
  if (opts.testid) el.dataset.testid = opts.testid;

  el.classList.add("has-art");
  el.append(artEl(base, code));
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.setAttribute("aria-hidden", "true");
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.setAttribute("aria-hidden", "true");
  if (base === "JK") {
    corner.innerHTML = "J<br>K";
    pip.textContent = "\u2605";
    if (standsFor) {
      const tag = document.createElement("span");
      tag.className = "stands";
      tag.setAttribute("aria-hidden", "true");
      tag.textContent = `=${naturalText(standsFor)}`;
      if (isRed(code)) tag.classList.add("red");
      el.append(corner, pip, tag);
      return el;
    }
  } else {
    const r = base.slice(0, -1);
    const sym = SUIT_SYMBOLS[base.slice(-1)] ?? "?";
    // "10" is set condensed (`ten`), about as wide as a "Q": where cards overlap, the strip that
    // shows a queen's index shows a whole 10 too (never "1(").
    corner.innerHTML = `${r === "T" ? '<span class="ten">10</span>' : r}<br>${sym}`;
    pip.textContent = sym;
  }
  el.append(corner, pip);
  return el;
}

/** Compare two card lists as multisets of hand cards ("JK=7H" counts as "JK"). */
export function sameMultiset(a, b) {
  if (a.length !== b.length) return false;
  const x = a.map(baseCard).sort();
  const y = b.map(baseCard).sort();
  return x.every((c, i) => c === y[i]);
}

/** Text with its red-suit cards ("10♥", the "7♦" of "joker (as 7♦)") coloured, as nodes to append. */
export function suitedText(text) {
  const parts = String(text).split(/(\S*[\u2665\u2666])/u);
  return parts.filter(Boolean).map((p) => {
    if (!/[\u2665\u2666]$/u.test(p)) return document.createTextNode(p);
    const span = document.createElement("span");
    span.className = "red-suit";
    span.textContent = p;
    return span;
  });
}
