// A modal list of legal actions to pick from: which joker declaration, which
// Rummy call, which meld to lay off on. Resolves to the chosen action or null.

import { actionCards, describe } from "./actions.js";
import { cardEl, suitedText } from "./cards.js";
import { h } from "./dom.js";

export function chooseAction(title, actions) {
  return new Promise((resolve) => {
    const dlg = h("dialog", { class: "chooser", "aria-label": title, dataset: { testid: "chooser" } });
    const done = (a) => {
      dlg.close();
      dlg.remove();
      resolve(a);
    };
    const list = h("div", { class: "choices" });
    actions.forEach((a, i) => {
      const cards = actionCards(a);
      const b = h("button", { type: "button", class: "choice", dataset: { testid: `choice-${i}` } }, [
        h("span", { class: "choice-text" }, suitedText(describe(a))),
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
