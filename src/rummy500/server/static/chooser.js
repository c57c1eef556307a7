// A modal list of legal actions to pick from: which joker declaration, which
// Rummy call, which meld to lay off on. Resolves to the chosen action or null.

import { actionCards, claimedCard, describe, ordinal, verbOf } from "./actions.js";
import { cardEl, cardWords, listWords, suitedText } from "./cards.js";
import { h } from "./dom.js";

/**
 * An action in words for a screen reader (the button shows the short notation, "Meld 5♣ 5♥
 * joker (as 5♦)", and its card pictures are hidden): "Meld 5 of clubs, 5 of hearts and a joker as the 5
 * of diamonds". `pile` (the discard pile, bottom first), when known, names the card a Rummy! call claims.
 */
export function spokenAction(action, pile = null) {
  const cards = (list) => listWords((list || []).map(cardWords));
  switch (verbOf(action)) {
    case "meld": return `Meld ${cards(action.meld)}`;
    case "layoff": return `Lay off ${cards(action.layoff)} on meld ${action.on + 1}`;
    case "swap": return `Swap ${cardWords(action.swap)} for the joker on meld ${action.on + 1}`;
    case "discard": return `Discard ${cards(actionCards(action))}`;
    case "rummy": {
      const card = claimedCard(action, pile);
      let t = card ? `Call Rummy! on the ${cardWords(card)}, ${ordinal(action.rummy)} card from the top`
        : `Call Rummy! on the ${ordinal(action.rummy)} card from the top`;
      if (action.on != null) t += `, laying it on meld ${action.on + 1}`;
      if (action.meld) t += `, melding ${cards(action.meld)}`;
      return t;
    }
    default: return describe(action, pile);
  }
}

/**
 * The cards pictured beside a choice: the hand cards it uses, or for a Rummy! call the pile cards
 * it melds (a steal), else the card it claims.
 */
function choiceCards(action, pile) {
  if (verbOf(action) !== "rummy") return actionCards(action);
  if (action.meld) return [...action.meld];
  const card = claimedCard(action, pile);
  return card ? [card] : [];
}

/** `opts.pile`: the discard pile (bottom first), so that Rummy! calls name the card they claim. */
export function chooseAction(title, actions, { pile = null } = {}) {
  return new Promise((resolve) => {
    const dlg = h("dialog", { class: "chooser", "aria-label": title, dataset: { testid: "chooser" } });
    const done = (a) => {
      dlg.close();
      dlg.remove();
      resolve(a);
    };
    const list = h("div", { class: "choices" });
    actions.forEach((a, i) => {
      const cards = choiceCards(a, pile);
      const b = h("button", { type: "button", class: "choice", "aria-label": spokenAction(a, pile), dataset: { testid: `choice-${i}` } }, [
        h("span", { class: "choice-text" }, suitedText(describe(a, pile))),
        cards.length ? h("span", { class: "choice-cards", "aria-hidden": "true" }, cards.map((c) => cardEl(c, { small: true }))) : null,
      ]);
      b.addEventListener("click", () => done(a));
      list.append(b);
    });
    const cancel = h("button", { type: "button", class: "ghost", dataset: { testid: "choice-cancel" } }, "Cancel");
    cancel.addEventListener("click", () => done(null));
    dlg.addEventListener("cancel", (e) => {
      e.preventDefault();
      done(null);
    });
    dlg.append(h("h2", {}, title), list, h("div", { class: "row end" }, cancel));
    document.body.append(dlg);
    dlg.showModal();
    list.querySelector("button")?.focus();
  });
}
