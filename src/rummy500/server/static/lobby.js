// The start page: pick a name, create a table (seats, preset, house rules,
// bots), or go back to a table you sit at.

import { api, ruleCatalogue, storedName, storeName, storeSeat, storedSeats, yourTablesNow } from "./api.js";
import { distinctNames } from "./names.js";
import { h, clear, setContent, showError, goTo } from "./dom.js";

let BOT_LEVELS = ["random", "easy", "medium", "hard"];
let defaultLevel = "medium";
const GROUP_TITLES = {
  table: "Table and cards",
  melds: "Melds",
  drawing: "Drawing from the discard pile",
  going_out: "Going out and stock exhaustion",
  calling: "Calling \u201cRummy!\u201d",
  scoring: "Card values and scoring",
  winning: "Winning",
  partnership: "Partnerships",
  gambit: "Dealer\u2019s Gambit",
};

/** Normalise /api/rules into {options:[{name,default,values,description,group}], presets:{name:{rules,description}}}. */
export function normaliseCatalogue(data) {
  let options = data?.options ?? data?.catalogue ?? [];
  if (!Array.isArray(options)) {
    options = Object.entries(options).map(([name, spec]) => ({ name, ...spec }));
  }
  let presets = data?.presets ?? {};
  if (Array.isArray(presets)) {
    presets = Object.fromEntries(presets.map((p) => [p.name, p]));
  }
  const out = {};
  for (const [name, p] of Object.entries(presets)) {
    const rules = p?.rules ?? p?.options ?? (p && typeof p === "object" && !("description" in p) ? p : {});
    out[name] = { rules: rules || {}, description: p?.description ?? "", label: typeof p?.label === "string" ? p.label : "" };
  }
  return { options, presets: out, botLevels: Array.isArray(data?.bot_levels) ? data.bot_levels : null };
}

/**
 * The choices an option offers, from the catalogue (`GET /api/rules`): its
 * `choices` ({value, label, description} each) and `number` (the free whole
 * numbers it accepts besides them: {min, max, label, description}, or null).
 * An older catalogue without them is read from `values` ("auto, 7..13",
 * "0, 30, any integer", "false, true", or a list).
 *
 * Returns {choices:[{value, label, description}], number, object}: every
 * choice has a label in a player's words (the catalogue's, or one made from
 * the value when a label is missing) and the description of that value;
 * `number` is null when no other number may be typed (a short range such as
 * 7..13 is listed as choices instead); `object` marks a JSON object option.
 */
export function optionChoices(spec) {
  const choices = [];
  let object = false;
  const add = (value, label, description, players = null) => {
    const had = choices.find((c) => c.value === value);
    if (had) {
      if (label && had.label === valueText(value)) had.label = label;
      if (description && !had.description) had.description = description;
      return;
    }
    choices.push({ value, label: label || valueText(value), description: description || "", players });
  };
  // `seats`: [{value, players}]: the only seat counts a value can be played at (a value not listed: any).
  const seats = Array.isArray(spec.seats) ? spec.seats : [];
  for (const c of Array.isArray(spec.choices) ? spec.choices : []) {
    if (!c || typeof c !== "object" || !("value" in c)) continue;
    const limit = seats.find((x) => x && x.value === c.value && Array.isArray(x.players) && x.players.length);
    add(c.value, playerWords(c.label ?? ""), playerWords(c.description ?? ""), limit ? limit.players : null);
  }
  const given = spec.number && typeof spec.number === "object" ? spec.number : null;
  let number = given
    ? {
      min: Number.isInteger(given.min) ? given.min : null,
      max: Number.isInteger(given.max) ? given.max : null,
      label: playerWords(given.label ?? ""),
      description: playerWords(given.description ?? ""),
    }
    : null;
  const raw = Array.isArray(spec.values)
    ? spec.values
    : String(spec.values ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  if (raw.some((t) => typeof t === "string" && /object|\{\}/.test(t))) object = true;
  if (!choices.length && !given) {
    // An older catalogue: the values as text.
    for (const t of raw) {
      if (typeof t !== "string") { add(t); continue; }
      let m;
      if (t === "true" || t === "false") add(t === "true");
      else if ((m = t.match(/^(-?\d+)\s*\.\.\s*(-?\d+)$/))) {
        for (let i = +m[1]; i <= +m[2]; i++) add(i);
      } else if (WHOLE.test(t)) add(+t);
      else if (/integer|^N$/i.test(t)) number = { min: null, max: null, label: "", description: "" }; // "any integer", "N"
      else if (!/object|\{\}/.test(t)) add(t);
    }
  }
  if (number && number.min !== null && number.max !== null && number.max - number.min <= 12) {
    // A short range reads best as a list.
    for (let i = number.min; i <= number.max; i++) add(i, String(i), number.description);
    number = null;
  }
  if (spec.default !== undefined && spec.default !== null && typeof spec.default !== "object") add(spec.default);
  return { choices, number, object };
}

/** An option's name in a player's words: the catalogue's `label`, else the words of its name. */
export function optionLabel(spec) {
  if (typeof spec?.label === "string" && spec.label) return spec.label;
  return valueText(spec?.name ?? "");
}

/** Seat counts in words: "4 seats", "2 to 7 seats", "3, 5 or 6 seats". */
export function seatsText(list) {
  if (list.length === 1) return `${list[0]} seats`;
  const run = list.every((n, i) => i === 0 || n === list[i - 1] + 1);
  return run ? `${list[0]} to ${list[list.length - 1]} seats` : `${list.slice(0, -1).join(", ")} or ${list[list.length - 1]} seats`;
}

/** A value in a player's words when the catalogue gives no label: Yes/No, "to target" (no code words). */
export function valueText(v) {
  if (typeof v === "boolean") return v ? "Yes" : "No";
  const t = String(v).replace(/_/g, " ");
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/**
 * Text from the catalogue in a player's words: option names written as code
 * ("dealers_gambit") lose their underscores, and seats are counted from 1 as
 * everywhere else in the app (the catalogue, like the records, counts from 0:
 * "seats 0 & 2 against 1 & 3" reads "seats 1 & 3 against 2 & 4").
 */
export function playerWords(text) {
  return String(text ?? "")
    .replace(/\b([a-z]+(?:_[a-z0-9]+)+)\b/g, (w) => w.replace(/_/g, " "))
    .replace(/\bseats?\b((?:\s*(?:\d+\b|&|,|and\b|against\b|or\b))+)/g, (m, nums) => m.replace(nums, nums.replace(/\d+/g, (d) => String(+d + 1))));
}

/**
 * What the selected value of an option means. An enumerated option's value
 * has its own description; a yes/no option's description says what "yes"
 * does; other options describe the option as a whole.
 */
export function choiceDescription(spec, choice) {
  if (choice?.description) return choice.description;
  const general = playerWords(spec.description ?? "");
  if (choice && choice.value === false && general) return `No. (Yes: ${general}.)`;
  if (Array.isArray(spec.choices) && spec.choices.length) return "";
  return general;
}

// A key of custom_values: a card (QS, 10H, TD) or a rank (Q, 10, A) or the joker; and how large a number
// any option may be (the engine's rules.NUMBER_LIMIT).
const CARD_KEY = /^(?:JK|(?:A|K|Q|J|T|10|[2-9])[CDHS]?)$/;
const NUMBER_LIMIT = 1000000;
// A whole number as a player types it: digits, a minus sign first if below 0 (never "12.7" or "1e3").
const WHOLE = /^-?\d+$/;
const TURN_CLOCKS = [[0, "no clock"], [30, "30 seconds"], [60, "60 seconds"], [120, "2 minutes"]];

/** Create a table and sit at it; returns the new table's id. */
async function createTable(body, name) {
  const res = await api("POST", "/api/tables", body);
  storeSeat(res.table_id, {
    seat: res.seat, token: res.token, name, creator: true, invite_url: res.invite_url, title: body.title ?? `${name}'s table`,
  });
  return res;
}

export function renderLobby(root) {
  clear(root);
  document.title = "rummy500";
  const errorBox = h("div", { class: "error-banner", role: "alert", hidden: true, dataset: { testid: "error-banner" } });

  const nameInput = h("input", {
    id: "player-name", type: "text", maxlength: "24", autocomplete: "nickname",
    value: storedName(), placeholder: "Your name", required: true, dataset: { testid: "name-input" },
  });
  const titleInput = h("input", {
    id: "table-title", type: "text", maxlength: "60", placeholder: "Friday game (optional)", dataset: { testid: "title-input" },
  });
  const seatsSel = h("select", { id: "seats", dataset: { testid: "seats" } },
    [2, 3, 4, 5, 6, 7, 8].map((n) => h("option", { value: n }, `${n} players`)));
  const presetSel = h("select", { id: "preset", dataset: { testid: "preset" } });
  const presetDesc = h("p", { class: "hint", id: "preset-desc" });
  const botsBox = h("div", { class: "bots", dataset: { testid: "bots" } });
  const rulesBox = h("div", { class: "rules-editor", dataset: { testid: "rules-editor" } }, "Loading the rules\u2026");
  const changedCount = h("span", { class: "badge" });
  const clockSel = h("select", { id: "turn-clock", dataset: { testid: "turn-clock" } },
    TURN_CLOCKS.map(([v, label]) => h("option", { value: String(v) }, label)));
  // What a clock does, said only once one is chosen (not under "no clock").
  const clockNote = h("p", { class: "hint", hidden: true, dataset: { testid: "turn-clock-note" } },
    "When it runs out, the computer plays that turn for the player.");
  clockSel.addEventListener("change", () => { clockNote.hidden = !Number(clockSel.value); });
  const hintsBox = h("input", { type: "checkbox", checked: true, dataset: { testid: "allow-hints" } });
  const publicBox = h("input", { type: "checkbox", dataset: { testid: "public-table" } });
  // Disabled until the rules catalogue is here: a table made before it would have no preset.
  const createBtn = h("button", {
    type: "submit", class: "primary", disabled: true, dataset: { testid: "create-table" },
  }, "Create table");

  let catalogue = { options: [], presets: {} };
  const controls = new Map(); // option name -> {spec, choices, get(), set(v), row, ctl, problem()}
  const touched = new Set(); // options the player set by hand (kept when the preset changes)
  const seatsNote = h("p", { class: "hint seats-note", id: "seats-note", dataset: { testid: "seats-note" }, "aria-live": "polite" });
  seatsSel.setAttribute("aria-describedby", "seats-note");
  let seatsBefore = null; // the seat count the player had before a preset or an option moved it

  function presetRules() {
    return catalogue.presets[presetSel.value]?.rules ?? {};
  }
  function currentValue(name) {
    if (name === "players") return +seatsSel.value;
    const c = controls.get(name);
    return c ? c.get() : undefined;
  }
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const holds = (when) => Object.entries(when ?? {}).every(([k, v]) => same(currentValue(k), v));
  /**
   * The value the engine plays for an option the player leaves alone: what the catalogue's
   * `implied` says the other options put in (Dealer's Gambit: anticlockwise), else the preset's, else
   * the default. Only a value the player's choice differs from is sent.
   */
  function effectiveDefault(spec) {
    const c = controls.get(spec.name);
    for (const i of Array.isArray(spec.implied) ? spec.implied : []) {
      if (holds(i.when) && c?.choices.some((ch) => same(ch.value, i.value))) return i.value;
    }
    const pr = presetRules();
    return spec.name in pr ? pr[spec.name] : spec.default;
  }
  /** The number an automatic value comes to now (low ace value under the card values), or null. */
  function impliedNumber(spec) {
    for (const i of Array.isArray(spec.implied) ? spec.implied : []) {
      if (Number.isInteger(i.value) && holds(i.when)) return i.value;
    }
    return null;
  }

  function renderBots() {
    const n = +seatsSel.value;
    const prev = {};
    botsBox.querySelectorAll("select").forEach((s) => { prev[s.dataset.seat] = s.value; });
    clear(botsBox);
    botsBox.append(h("div", { class: "bot-row" }, [h("span", {}, "Seat 1"), h("span", { class: "hint" }, "you")]));
    for (let s = 1; s < n; s++) {
      const sel = h("select", {
        id: `bot-${s}`, dataset: { seat: String(s), testid: `bot-seat-${s}` },
        "aria-label": `Who plays seat ${s + 1}`,
      }, [h("option", { value: "" }, "A friend (send the invite link)"),
        ...BOT_LEVELS.map((l) => h("option", { value: l }, `Computer \u2014 ${l}`))]);
      // A player alone gets the computer: friends are the choice to make.
      sel.value = prev[String(s)] ?? defaultLevel;
      if (sel.selectedIndex < 0) sel.value = "";
      botsBox.append(h("label", { class: "bot-row", for: `bot-${s}` }, [h("span", {}, `Seat ${s + 1}`), sel]));
    }
  }

  /** A chosen value in words: "Dealer's Gambit", "Packs: One pack". */
  function choiceWords(c, choice) {
    const name = optionLabel(c.spec);
    return choice.label.toLowerCase() === name.toLowerCase() || choice.value === true ? name : `${name}: ${choice.label}`;
  }

  /**
   * The seat counts the chosen options allow (each choice's `players`), shown next to the seats:
   * counts no option allows are disabled, and a count that has become impossible moves to the nearest
   * one allowed; it goes back when nothing holds it any more (Partnerships off: the seats you had).
   */
  function fitSeats() {
    let allowed = [2, 3, 4, 5, 6, 7, 8];
    const why = [];
    for (const c of controls.values()) {
      const choice = c.choices.find((ch) => same(ch.value, c.get()));
      if (!choice?.players) continue;
      allowed = allowed.filter((n) => choice.players.includes(n));
      why.push(`${choiceWords(c, choice)}: ${seatsText(choice.players)}.`);
    }
    const pr = presetRules();
    for (const o of seatsSel.options) o.disabled = allowed.length > 0 && !allowed.includes(+o.value);
    const now = +seatsSel.value;
    let next = now;
    if (allowed.length && !allowed.includes(now)) {
      next = allowed.reduce((best, n) => (Math.abs(n - now) < Math.abs(best - now) ? n : best), allowed[0]);
    } else if (!why.length && !("players" in pr) && seatsBefore !== null) {
      next = seatsBefore;
    }
    if (next !== now) {
      if (seatsBefore === null) seatsBefore = now;
      else if (next === seatsBefore) seatsBefore = null;
      seatsSel.value = String(next);
      renderBots();
    }
    setContent(seatsNote, why.join(" "));
  }

  /** Options the player has not set follow what the others imply; then the seats and the badge. */
  function sync() {
    for (let pass = 0; pass < 2; pass++) {
      for (const c of controls.values()) {
        if (touched.has(c.spec.name)) continue;
        const d = effectiveDefault(c.spec);
        if (!same(c.get(), d)) c.set(d);
      }
    }
    fitSeats();
    updateChanged();
  }

  function updateChanged() {
    let n = 0;
    for (const c of controls.values()) {
      const v = c.get();
      // An empty "Another number…" box is no value yet, so no change.
      const changed = v !== null && !same(v, effectiveDefault(c.spec));
      c.row.classList.toggle("changed", changed);
      if (changed) n++;
    }
    changedCount.textContent = n ? `${n} changed` : "";
  }

  /** The player changed an option: keep it through preset changes, and drop its refusal mark. */
  function playerSet(name) {
    touched.add(name);
    unmark(controls.get(name));
    sync();
  }

  function mark(c) {
    c.row.classList.add("invalid");
    c.ctl.setAttribute("aria-invalid", "true");
  }
  function unmark(c) {
    if (!c) return;
    c.row.classList.remove("invalid");
    c.ctl.removeAttribute("aria-invalid");
  }

  function renderRules() {
    clear(rulesBox);
    controls.clear();
    const groups = new Map();
    for (const spec of catalogue.options) {
      if (spec.name === "players") continue; // the seat count sets it
      const g = spec.group ?? "other";
      if (!groups.has(g)) groups.set(g, []);
      groups.get(g).push(spec);
    }
    for (const [g, specs] of groups) {
      const fs = h("fieldset", { class: "rule-group" }, [h("legend", {}, GROUP_TITLES[g] ?? g)]);
      for (const spec of specs) fs.append(optionRow(spec));
      rulesBox.append(fs);
    }
    applyPreset();
  }

  function optionRow(spec) {
    const id = `opt-${spec.name}`;
    const { choices, number, object } = optionChoices(spec);
    const words = optionLabel(spec);
    const row = h("div", { class: "rule-row", dataset: { option: spec.name } });
    const label = h("label", { for: id, class: "rule-name", id: `${id}-label` }, words);
    // What the selected value means (re-written only when its words change: it is a live region).
    const desc = h("div", { class: "rule-desc", id: `${id}-desc`, dataset: { testid: `${id}-desc` }, "aria-live": "polite" });
    let get, set, ctl;
    let problem = () => null;
    if (object) {
      // House values for cards or ranks ({"QS": 40, "JK": 25}): one row a key, never raw JSON.
      const rowsBox = h("div", { class: "kv-rows" });
      const head = h("div", { class: "kv-head", "aria-hidden": "true", hidden: true }, [h("span", { class: "kv-key" }, "Card or rank"), h("span", { class: "num" }, "Points")]);
      const addBtn = h("button", { type: "button", class: "chip", dataset: { testid: `${id}-add` } }, "Add a card value");
      const editor = h("div", { class: "kv-editor", id, role: "group", "aria-labelledby": `${id}-label`, "aria-describedby": `${id}-desc`, dataset: { testid: id } }, [head, rowsBox, addBtn]);
      ctl = editor;
      // The label names a group, not one input: a click on it goes to the first box (or the Add button).
      label.removeAttribute("for");
      label.addEventListener("click", () => (rowsBox.querySelector("input") ?? addBtn).focus());
      setContent(desc, `${playerWords(spec.description ?? "")}. A key is a card (QS) or a rank (Q, 10, A, JK).`);
      const entries = () => [...rowsBox.querySelectorAll(".kv-row")].map((r) => {
        const [k, v] = r.querySelectorAll("input");
        return { row: r, k, v, key: k.value.trim().toUpperCase(), text: v.value.trim() };
      });
      const showHead = () => { head.hidden = !rowsBox.querySelector(".kv-row"); };
      const addRow = (key = "", points = "") => {
        const k = h("input", { type: "text", class: "kv-key", maxlength: "4", placeholder: "QS", autocapitalize: "characters", spellcheck: "false", "aria-label": "Card or rank", value: key });
        const v = h("input", { type: "number", step: "1", class: "num", placeholder: "points", "aria-label": "Points", value: points === "" ? "" : String(points) });
        const del = h("button", { type: "button", class: "chip", "aria-label": "Remove this card value" }, "\u00d7");
        const r = h("div", { class: "kv-row" }, [k, v, del]);
        for (const input of [k, v]) input.addEventListener("input", () => { input.removeAttribute("aria-invalid"); playerSet(spec.name); });
        del.addEventListener("click", () => { r.remove(); showHead(); playerSet(spec.name); addBtn.focus(); });
        rowsBox.append(r);
        showHead();
        return k;
      };
      addBtn.addEventListener("click", () => { addRow().focus(); playerSet(spec.name); });
      get = () => {
        const out = {};
        for (const e of entries()) if (e.key && CARD_KEY.test(e.key) && WHOLE.test(e.text)) out[e.key] = parseInt(e.text, 10);
        return out;
      };
      set = (v) => {
        clear(rowsBox);
        for (const [key, points] of Object.entries(v && typeof v === "object" ? v : {})) addRow(key, points);
        showHead();
      };
      problem = () => {
        const seen = new Set();
        for (const e of entries()) {
          if (!e.key && !e.text) continue; // an empty row is no value
          const fail = (input, msg) => { input.setAttribute("aria-invalid", "true"); return `\u201c${words}\u201d: ${msg}`; };
          if (!CARD_KEY.test(e.key)) return fail(e.k, `\u201c${e.k.value.trim()}\u201d is no card or rank \u2014 write a card (QS) or a rank (Q, 10, A, JK).`);
          if (!WHOLE.test(e.text)) return fail(e.v, `${e.key} needs a whole number of points.`);
          if (Math.abs(parseInt(e.text, 10)) > NUMBER_LIMIT) return fail(e.v, `${e.key}'s points must be between -${NUMBER_LIMIT} and ${NUMBER_LIMIT}.`);
          const canon = e.key.replace(/^10/, "T");
          if (seen.has(canon)) return fail(e.k, `${e.key} is given twice.`);
          seen.add(canon);
        }
        return null;
      };
      row.append(label, editor, desc);
    } else {
      // Each value shows its label; `data-value` keeps the value itself (JSON) for tests and tools.
      const sel = h("select", { id, "aria-describedby": `${id}-desc`, dataset: { testid: id } },
        choices.map((c, i) => h("option", { value: String(i), dataset: { value: JSON.stringify(c.value) } }, c.label)));
      ctl = sel;
      let num = null;
      if (number) {
        sel.append(h("option", { value: "custom" }, "Another number\u2026"));
        num = h("input", {
          type: "number", step: "1", class: "num", hidden: true, "aria-label": number.label || `${words} value`,
          min: number.min ?? false, max: number.max ?? false, dataset: { testid: `${id}-number` },
        });
        num.addEventListener("input", () => { num.removeAttribute("aria-invalid"); playerSet(spec.name); });
      }
      // Where "Another number…" starts: the number played now (the value, or what an automatic value
      // comes to), else 0 when the range holds it, else its nearest end.
      const startNumber = () => {
        const d = effectiveDefault(spec);
        if (Number.isInteger(d)) return d;
        const implied = impliedNumber(spec);
        if (implied !== null) return implied;
        const lo = number.min ?? -Infinity;
        const hi = number.max ?? Infinity;
        return lo <= 0 && hi >= 0 ? 0 : (lo > 0 ? lo : hi);
      };
      const describe = () => {
        let text;
        if (sel.value === "custom") text = number.description || playerWords(spec.description ?? "");
        else {
          const choice = choices[+sel.value];
          text = choiceDescription(spec, choice);
          // A value that holds the seats says so, when its words do not already.
          if (choice?.players && !/\b(players|seats)\b/.test(text)) text = `${text}${text ? " \u2014 " : ""}${seatsText(choice.players)} only.`;
        }
        setContent(desc, text);
      };
      sel.addEventListener("change", () => {
        if (num) {
          num.hidden = sel.value !== "custom";
          // Start the box from the number played now, never empty: an empty box is no number.
          if (!num.hidden && num.value.trim() === "") num.value = String(startNumber());
        }
        describe();
        playerSet(spec.name);
      });
      // An empty "another number" box is no value (null, refused by name on submit), never 0; text
      // that is not a whole number stays text, refused by name too, never cut to a number.
      get = () => {
        if (sel.value !== "custom") return choices[+sel.value]?.value;
        const text = num.value.trim();
        if (text === "") return null;
        return WHOLE.test(text) ? parseInt(text, 10) : text;
      };
      problem = () => {
        if (sel.value !== "custom") return null;
        const v = get();
        const what = `\u201c${words}\u201d`;
        const fail = (msg) => { num.setAttribute("aria-invalid", "true"); return msg; };
        if (v === null) return fail(`${what} needs a number \u2014 type one, or pick one of its values.`);
        if (typeof v === "string") return fail(`${what} needs a whole number (digits only, a minus sign first if below 0): \u201c${v}\u201d is not one.`);
        if (number.min !== null && v < number.min) return fail(`${what} must be at least ${number.min}.`);
        if (number.max !== null && v > number.max) return fail(`${what} must be at most ${number.max}.`);
        return null;
      };
      set = (v) => {
        const i = choices.findIndex((c) => c.value === v);
        if (i >= 0) {
          sel.value = String(i);
          if (num) num.hidden = true;
        } else if (num) {
          sel.value = "custom";
          num.hidden = false;
          num.value = String(v);
        }
        describe();
      };
      describe();
      row.append(label, h("span", { class: "rule-ctl" }, num ? [sel, num] : [sel]), desc);
    }
    controls.set(spec.name, { spec, choices, get, set, row, ctl, problem });
    return row;
  }

  /**
   * A new preset: every option it sets takes its value, and so does every option the player left
   * alone; an option the player set by hand that the new preset does not set keeps the player's value.
   */
  function applyPreset() {
    const pr = presetRules();
    for (const name of [...touched]) if (name in pr) touched.delete(name);
    for (const c of controls.values()) unmark(c);
    const p = catalogue.presets[presetSel.value];
    presetDesc.textContent = p?.description ?? "";
    const players = pr.players;
    if (players && +seatsSel.value !== players) {
      if (seatsBefore === null) seatsBefore = +seatsSel.value;
      seatsSel.value = String(players);
      renderBots();
    }
    sync();
  }

  presetSel.addEventListener("change", applyPreset);
  seatsSel.addEventListener("change", () => {
    seatsBefore = null; // the player's own count: nothing moves it back
    seatsSel.removeAttribute("aria-invalid");
    renderBots();
    sync();
  });

  /**
   * The engine's words for a refused set of rules, in the form's: option names and values become
   * their labels ("players" is the seats), and a number an automatic value came to says so.
   * Returns {text, names}: the options the problem names, in order, that the player set.
   */
  function formWords(problem) {
    const names = [];
    const known = ["players", ...controls.keys()].sort((a, b) => b.length - a.length);
    if (!controls.size) return { text: problem, names };
    const re = new RegExp(`'?\\b(${known.join("|")})\\b'?(?::\\s*(-?\\w+))?`, "g");
    const text = problem.replace(re, (m, name, token, at) => {
      // A bare name that is also a plain word ("needs jokers") stays a word.
      if (token === undefined && !name.includes("_") && at !== 0 && !m.startsWith("'")) return m;
      const c = controls.get(name);
      const label = c ? optionLabel(c.spec) : "Seats";
      let implied = "";
      let shown = token;
      if (token !== undefined) {
        const value = token === "true" ? true : token === "false" ? false : WHOLE.test(token) ? +token : token;
        const choice = c?.choices.find((ch) => same(ch.value, value));
        if (choice) shown = choice.label;
        // A number the player did not choose: what an automatic value came to.
        const now = c ? c.get() : undefined;
        const nowChoice = c?.choices.find((ch) => same(ch.value, now));
        if (c && typeof now === "string" && !same(now, value) && nowChoice) {
          implied = ` (${nowChoice.label.toLowerCase()}: ${nowChoice.description})`;
        }
      }
      if (!implied && !names.includes(name)) names.push(name);
      if (shown === undefined || String(shown).toLowerCase() === label.toLowerCase()) return `\u201c${label}\u201d${implied}`;
      return `\u201c${label}: ${shown}\u201d${implied}`;
    });
    return { text, names };
  }

  /** Show a refusal and point at what it names: rows marked, the first one focused, the choices kept. */
  function showRefusal(problems) {
    const said = problems.map(formWords);
    clear(errorBox);
    if (said.length === 1) errorBox.append(said[0].text);
    else errorBox.append("These house rules cannot be played together:", h("ul", {}, said.map((s) => h("li", {}, s.text))));
    errorBox.hidden = false;
    // The first named in the form's order is focused: the seats, then the rows top to bottom.
    const named = new Set(said.flatMap((s) => s.names));
    let first = null;
    if (named.has("players")) {
      seatsSel.setAttribute("aria-invalid", "true");
      first = seatsSel;
    }
    for (const [name, c] of controls) {
      if (!named.has(name)) continue;
      mark(c);
      first ??= c.ctl.tagName === "SELECT" ? c.ctl : (c.ctl.querySelector("input, button") ?? c.ctl);
    }
    if (first && first !== seatsSel) first.closest("details")?.setAttribute("open", "");
    (first ?? createBtn).focus();
  }

  const form = h("form", { class: "panel create-form", novalidate: true }, [
    h("h2", {}, "New table"),
    h("label", { for: "player-name" }, "Your name"),
    nameInput,
    h("label", { for: "table-title" }, "Table name"),
    titleInput,
    h("div", { class: "two-col" }, [
      h("div", {}, [h("label", { for: "seats" }, "Seats"), seatsSel, seatsNote]),
      h("div", {}, [h("label", { for: "preset" }, "Preset"), presetSel]),
    ]),
    presetDesc,
    h("h3", {}, "Players"),
    botsBox,
    h("div", { class: "two-col table-settings" }, [
      h("div", {}, [h("label", { for: "turn-clock" }, "Turn clock"), clockSel, clockNote]),
      h("div", { class: "checks" }, [
        h("label", { class: "check" }, [hintsBox, " Players may ask for hints"]),
        h("label", { class: "check" }, [publicBox, " List the finished game among the public replays"]),
      ]),
    ]),
    h("details", { class: "house-rules", dataset: { testid: "house-rules" } }, [
      h("summary", {}, ["House rules ", changedCount]),
      h("p", { class: "hint" }, "Starting from the preset. Changed options are highlighted; another preset keeps the options you set that it does not set itself."),
      rulesBox,
    ]),
    errorBox,
    createBtn,
  ]);

  /**
   * The house rules as set in the form: each option that differs from what the engine would play
   * without it (an implied value included). null, with the first refused option shown and focused,
   * when one cannot be sent.
   */
  function formRules() {
    const rules = {};
    for (const [optName, c] of controls) {
      const bad = c.problem();
      if (bad) {
        showError(errorBox, `House rules: ${bad}`);
        c.row.classList.add("invalid");
        c.row.closest("details")?.setAttribute("open", "");
        (c.row.querySelector("[aria-invalid=true]") ?? c.row.querySelector("input:not([hidden])") ?? c.row.querySelector("select"))?.focus();
        return null;
      }
      const v = c.get();
      if (!same(v, effectiveDefault(c.spec))) rules[optName] = v;
    }
    return rules;
  }

  /** Every other seat's computer level for Play against the computer: the form's, a friend's seat the default. */
  function quickBots() {
    const bots = {};
    for (let s = 1; s < +seatsSel.value; s++) {
      const sel = botsBox.querySelector(`select[data-seat="${s}"]`);
      bots[String(s)] = sel?.value || defaultLevel;
    }
    return bots;
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    errorBox.hidden = true;
    for (const c of controls.values()) unmark(c);
    seatsSel.removeAttribute("aria-invalid");
    const name = nameInput.value.trim();
    if (!name) {
      showError(errorBox, "Please pick a name first.");
      nameInput.focus();
      return;
    }
    storeName(name);
    const rules = formRules();
    if (!rules) return;
    const bots = {};
    botsBox.querySelectorAll("select").forEach((s) => {
      if (s.value) bots[s.dataset.seat] = s.value;
    });
    createBtn.disabled = true;
    try {
      const body = {
        name, seats: +seatsSel.value, preset: presetSel.value || "standard", rules, bots,
        turn_clock: +clockSel.value, hints: hintsBox.checked, public: publicBox.checked,
      };
      if (titleInput.value.trim()) body.title = titleInput.value.trim();
      const res = await createTable(body, name);
      goTo(`/t/${res.table_id}`);
    } catch (e) {
      createBtn.disabled = false; // before focusing: a disabled button drops the focus to the page
      if (e.code === "bad_rules" && e.problems?.length) showRefusal(e.problems);
      else {
        showError(errorBox, e.message);
        createBtn.focus();
      }
    } finally {
      createBtn.disabled = false;
    }
  });

  // One click to a game against the computer, started at once, with what the form below says: its
  // preset and house rules, its seats (every other one the computer: its level there, else the
  // default), turn clock and hints. Untouched, the form is two players, the standard rules and a
  // medium computer opponent. The line beside the button says which game it starts.
  const quickBtn = h("button", { type: "button", class: "primary big", dataset: { testid: "play-computer" },
    "aria-describedby": "quick-what" }, "Play against the computer");
  const quickWhat = h("span", { class: "quick-what", id: "quick-what", dataset: { testid: "play-computer-what" } });
  function renderQuickWhat() {
    const preset = presetSel.selectedOptions[0]?.textContent || "Standard";
    const changed = [...controls.values()].filter((c) => c.row.classList.contains("changed")).length;
    const levels = Object.values(quickBots());
    const counts = levels.reduce((m, l) => m.set(l, (m.get(l) ?? 0) + 1), new Map());
    const who = [...counts].map(([l, k]) => `${k === 1 ? "one" : k} ${l} computer player${k === 1 ? "" : "s"}`).join(" and ");
    const house = changed ? ` with ${changed} house rule${changed === 1 ? "" : "s"} changed` : "";
    const text = `Rules: ${preset}${house} \u00B7 you against ${who || "the computer"} (as set in the form below).`;
    if (quickWhat.textContent !== text) quickWhat.textContent = text;
  }
  // Said again after any change to the form (once its own handlers have run).
  for (const type of ["change", "input", "click"]) form.addEventListener(type, () => queueMicrotask(renderQuickWhat));
  quickBtn.addEventListener("click", async () => {
    const name = nameInput.value.trim() || storedName() || "Player";
    storeName(name);
    errorBox.hidden = true;
    for (const c of controls.values()) unmark(c);
    const rules = formRules();
    if (!rules) return;
    quickBtn.disabled = true;
    try {
      const body = {
        name, seats: +seatsSel.value, preset: presetSel.value || "standard", rules, bots: quickBots(),
        turn_clock: +clockSel.value, hints: hintsBox.checked, public: publicBox.checked,
      };
      if (titleInput.value.trim()) body.title = titleInput.value.trim();
      const res = await createTable(body, name);
      await api("POST", `/api/tables/${encodeURIComponent(res.table_id)}/start`, {}, res.token);
      goTo(`/t/${res.table_id}`);
    } catch (e) {
      showError(errorBox, e.message);
      quickBtn.disabled = false;
    }
  });

  root.append(h("main", { class: "lobby" }, [
    h("header", { class: "lobby-head" }, [
      h("h1", {}, ["Rummy ", h("span", { class: "accent" }, "500")]),
      h("p", { class: "tagline" }, "Meld, lay off, and race to 500. No account needed \u2014 pick a name and deal."),
      h("div", { class: "row quick" }, [quickBtn,
        h("span", { class: "quick-words" }, [quickWhat, " Or set up a table below to play with friends."])]),
      h("nav", { class: "row" }, [
        h("a", { href: "/#rules", dataset: { testid: "nav-rules" } }, "How to play"),
        h("a", { href: "/#replays", dataset: { testid: "nav-replays" } }, "Replays of finished games"),
      ]),
    ]),
    form,
    yourTables(),
  ]));

  renderBots();
  renderQuickWhat();
  ruleCatalogue().then((data) => {
    catalogue = normaliseCatalogue(data);
    if (catalogue.botLevels?.length) {
      BOT_LEVELS = catalogue.botLevels;
      if (data.default_bot_level) defaultLevel = data.default_bot_level;
      renderBots();
    }
    clear(presetSel);
    const names = Object.keys(catalogue.presets);
    for (const n of names.length ? names : ["standard"]) {
      // The catalogue's label, else the option of that name's (Dealer's Gambit), else its words.
      const spec = catalogue.options.find((o) => o.name === n);
      const label = catalogue.presets[n]?.label || (spec?.label ?? "") || valueText(n);
      presetSel.append(h("option", { value: n }, label));
    }
    presetSel.value = names.includes("standard") ? "standard" : names[0] ?? "standard";
    renderRules();
    renderQuickWhat();
  }).catch((e) => {
    rulesBox.textContent = `Could not load the rules catalogue: ${e.message}`;
  }).finally(() => {
    // Without the catalogue the table still gets the standard rules (the server checks them).
    createBtn.disabled = false;
  });
}

// A table's status in a player's words (TableInfo.status).
const STATUS_WORDS = { lobby: "waiting for players", running: "playing", finished: "finished" };

/** A date and time in the reader's words ("12 May 2026, 14:03"), or "". */
export function whenWords(iso) {
  const d = iso ? new Date(iso) : null;
  return d && !Number.isNaN(d.getTime()) ? d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "";
}

/** When a table's game was played, for its date: when it finished, else when the table was made (TableInfo). */
export function playedWhen(t) {
  return t?.finished || t?.created;
}

/**
 * One table of this browser (`yourTablesNow`'s row): its name, linked to the table, then its
 * status, when it was made (a finished one: when it finished) and who sits there; a finished one
 * also links to its replay, named "Replay of Friday game". `twin`: another row has the same name
 * (a game and its Play again table): both links then say its status and date too.
 */
export function yourTableRow(r, { replayFirst = false, twin = false } = {}) {
  const t = r.table;
  const id = encodeURIComponent(r.id);
  const title = rowTitle(r);
  const names = t ? distinctNames((t.seats ?? []).map((x) => x?.name).filter(Boolean)) : [];
  const status = t ? STATUS_WORDS[t.status] ?? t.status : r.gone ? "no longer on the server" : "";
  const when = whenWords(playedWhen(t));
  const facts = [when, names.join(", ")].filter(Boolean).join(" \u00B7 ");
  const which = twin ? [status, when].filter(Boolean).join(", ") : "";
  const replayName = `Replay of ${title}${twin && when ? `, ${when}` : ""}`;
  const replay = t?.status === "finished"
    ? h("a", { href: `/#replay/${id}`, class: "replay-link", "aria-label": replayName, dataset: { testid: `your-replay-${r.id}` } }, "Replay")
    : null;
  const link = replayFirst && replay
    ? h("a", { href: `/#replay/${id}`, "aria-label": twin ? replayName : null }, title)
    : h("a", { href: `/t/${id}`, "aria-label": which ? `${title} (${which})` : null }, title);
  return h("li", { class: "your-table", dataset: { testid: `your-table-${r.id}`, status: t?.status ?? "" } }, [
    h("span", { class: "yt-main" }, [link, status ? h("span", { class: `yt-status yt-${t?.status ?? "gone"}` }, status) : null]),
    facts ? h("span", { class: "hint yt-facts" }, facts) : null,
    replayFirst ? null : replay,
  ]);
}

/** The name a row of "Your tables" shows. */
function rowTitle(r) {
  return r.table?.title || r.seat.title || `Table ${r.id.slice(0, 6)}\u2026`;
}

/** The rows of `yourTableRow`, those sharing a name told apart (`twin`). */
export function yourTableRows(rows, opts = {}) {
  const count = new Map();
  const key = (r) => rowTitle(r).trim().toLowerCase();
  for (const r of rows) count.set(key(r), (count.get(key(r)) ?? 0) + 1);
  return rows.map((r) => yourTableRow(r, { ...opts, twin: count.get(key(r)) > 1 }));
}

/**
 * Tables this browser holds a seat at (from localStorage): at once by name, then, once the server
 * has said, newest first with each one's status (waiting, playing, finished), date and players.
 */
function yourTables() {
  const stored = storedSeats();
  if (!stored.length) return h("span", { hidden: true });
  const SHOWN = 10;
  const list = h("ul", { class: "your-list", dataset: { testid: "your-tables" } },
    yourTableRows(stored.slice(0, SHOWN)));
  yourTablesNow(stored).then((rows) => {
    clear(list);
    list.append(...yourTableRows(rows.slice(0, SHOWN)));
    if (rows.length > SHOWN) list.append(h("li", { class: "hint" }, `and ${rows.length - SHOWN} older`));
  }).catch(() => { /* the names alone stay */ });
  // id: the Replays page links here (/#your-tables).
  return h("section", { class: "panel your-tables", id: "your-tables" }, [h("h2", {}, "Your tables"),
    h("p", { class: "hint" }, "The tables this browser sat at, newest first. Private games are here (and not among the public replays)."), list]);
}
