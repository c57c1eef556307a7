// The "your turn" chime: two soft notes made with Web Audio (no sound file),
// and the mute switch, remembered in localStorage.
//
// Browsers let a page make sound only once it has been touched: an AudioContext made (or resumed)
// before that stays silent and the console says "The AudioContext was not allowed to start". So
// the context is made at the page's first tap, click or key press (a chime due before then is
// skipped: the title and the status line still say it is your turn), and every chime after it sounds.

const KEY = "rummy500.muted";
let ctx = null;
const GESTURES = ["pointerdown", "keydown", "touchend", "click"];

export function isMuted() {
  return localStorage.getItem(KEY) === "1";
}

export function setMuted(muted) {
  localStorage.setItem(KEY, muted ? "1" : "0");
}

/** Whether the page has been touched (a tap, a click, a key): only then may it make sound. */
function mayPlay(gesture) {
  const ua = navigator.userActivation;
  return ua ? ua.hasBeenActive : gesture || !!ctx;
}

/** The audio context, made (or woken) once the page may play: null before. */
function ensure(gesture = false) {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx || !mayPlay(gesture)) return null;
  try {
    if (!ctx) {
      ctx = new Ctx();
      ctx.addEventListener?.("statechange", mark);
    }
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
    mark();
  } catch {
    return null;
  }
  return ctx;
}

function onGesture() {
  if (ensure(true)) for (const g of GESTURES) window.removeEventListener(g, onGesture, true);
}
for (const g of GESTURES) window.addEventListener(g, onGesture, { capture: true, passive: true });

/** Play the chime unless muted (nothing before the page's first gesture: see above). */
export function playTurnSound() {
  if (isMuted()) return;
  window.rummySounds = (window.rummySounds || 0) + 1; // for tests: the chimes the page asked for
  if (!ensure() || ctx.state === "closed") return;
  try {
    const t0 = ctx.currentTime;
    [[660, 0], [880, 0.12]].forEach(([freq, at]) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0 + at);
      gain.gain.exponentialRampToValueAtTime(0.15, t0 + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + 0.25);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0 + at);
      osc.stop(t0 + at + 0.3);
    });
    window.rummyChimes = (window.rummyChimes || 0) + 1; // for tests: chimes actually played
    mark();
  } catch {
    // No audio here: the title and the status line still say it is your turn.
  }
}

/** For tests: the audio context's state ("none" before the first gesture) and the chimes heard, on the page's root. */
function mark() {
  const root = document.documentElement.dataset;
  root.audio = ctx?.state ?? "none";
  root.chimes = String(window.rummyChimes || 0);
}
mark();
