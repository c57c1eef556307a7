// The "your turn" chime: two soft notes made with Web Audio (no sound file),
// and the mute switch, remembered in localStorage.

const KEY = "rummy500.muted";
let ctx = null;

export function isMuted() {
  return localStorage.getItem(KEY) === "1";
}

export function setMuted(muted) {
  localStorage.setItem(KEY, muted ? "1" : "0");
}

/** Play the chime unless muted (browsers keep audio silent until the page was touched). */
export function playTurnSound() {
  if (isMuted()) return;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  try {
    ctx = ctx || new Ctx();
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
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
    window.rummySounds = (window.rummySounds || 0) + 1; // for tests: chimes played
  } catch {
    // No audio here: the title and the status line still say it is your turn.
  }
}
