// Card movement: cards arriving in the hand slide in from the stock or the
// pile, a new discard drops onto the pile, a new meld fades in. Nothing moves
// for people who ask their system for reduced motion.

const reduced = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

function slide(el, from, ms = 280) {
  if (!el?.animate) return;
  const a = el.getBoundingClientRect();
  const dx = from ? from.left - a.left : 0;
  const dy = from ? from.top - a.top : -30;
  el.animate([{ transform: `translate(${dx}px, ${dy}px)`, opacity: 0.4 }, { transform: "none", opacity: 1 }],
    { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" });
}

/** Animate what changed between two views (called after the new one is drawn). */
export function animateArrivals(before, after, root) {
  if (!before || !after || reduced()) return;
  window.rummyAnimations = (window.rummyAnimations || 0) + 1; // for tests: animations run
  const stock = root.querySelector("[data-testid=stock]")?.getBoundingClientRect();
  const pileTop = root.querySelector("[data-testid=pile-card-1]");
  const tookFromPile = (after.discard?.length ?? 0) < (before.discard?.length ?? 0);
  for (const el of root.querySelectorAll(".hand .card.in-hand.fresh")) {
    slide(el, tookFromPile ? pileTop?.getBoundingClientRect() ?? stock : stock);
  }
  if ((after.discard?.length ?? 0) > (before.discard?.length ?? 0) && pileTop) slide(pileTop, null, 220);
  const had = new Set((before.melds || []).map((m) => `${m.id}:${m.cards.length}`));
  for (const m of after.melds || []) {
    if (had.has(`${m.id}:${m.cards.length}`)) continue;
    root.querySelector(`[data-testid="meld-${m.id}"]`)?.animate?.([{ opacity: 0.2, transform: "scale(.9)" }, { opacity: 1, transform: "none" }], { duration: 300 });
  }
}
