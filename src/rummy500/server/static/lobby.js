// The start page: pick a name, create a table (seats, preset, house rules,
// bots), or go back to a table you sit at.

import { api, storedName, storeName, storeSeat } from "./api.js";
import { h, clear, showError } from "./dom.js";

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
    out[name] = { rules: rules || {}, description: p?.description ?? "" };
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
  const add = (value, label, description) => {
    const had = choices.find((c) => c.value === value);
    if (had) {
      if (label && had.label === valueText(value)) had.label = label;
      if (description && !had.description) had.description = description;
      return;
    }
    choices.push({ value, label: label || valueText(value), description: description || "" });
  };
  for (const c of Array.isArray(spec.choices) ? spec.choices : []) {
    if (c && typeof c === "object" && "value" in c) add(c.value, playerWords(c.label ?? ""), playerWords(c.description ?? ""));
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
      } else if (/^-?\d+$/.test(t)) add(+t);
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
const TURN_CLOCKS = [[0, "no clock"], [30, "30 seconds"], [60, "60 seconds"], [120, "2 minutes"]];

/** Create a table and sit at it; returns the new table's id. */
async function createTable(body, name) {
  const res = await api("POST", "/api/tables", body);
  storeSeat(res.table_id, {
    seat: res.seat, token: res.token, name, creator: true, invite_url: res.invite_url, title: body.title ?? `${name}'s table`,
  });
  return res;
}

function goTo(path) {
  history.pushState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
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
  const hintsBox = h("input", { type: "checkbox", checked: true, dataset: { testid: "allow-hints" } });
  const publicBox = h("input", { type: "checkbox", dataset: { testid: "public-table" } });
  // Disabled until the rules catalogue is here: a table made before it would have no preset.
  const createBtn = h("button", {
    type: "submit", class: "primary", disabled: true, dataset: { testid: "create-table" },
  }, "Create table");

  let catalogue = { options: [], presets: {} };
  const controls = new Map(); // option name -> {get(), set(v), row}

  function presetRules() {
    return catalogue.presets[presetSel.value]?.rules ?? {};
  }
  function effectiveDefault(spec) {
    const pr = presetRules();
    return spec.name in pr ? pr[spec.name] : spec.default;
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

  function updateChanged() {
    let n = 0;
    for (const c of controls.values()) {
      const changed = JSON.stringify(c.get()) !== JSON.stringify(effectiveDefault(c.spec));
      c.row.classList.toggle("changed", changed);
      if (changed) n++;
    }
    changedCount.textContent = n ? `${n} changed` : "";
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
    const words = spec.name.replace(/_/g, " ");
    const row = h("div", { class: "rule-row", dataset: { option: spec.name } });
    const label = h("label", { for: id, class: "rule-name" }, words);
    // What the selected value means (re-written whenever the value changes).
    const desc = h("div", { class: "rule-desc", id: `${id}-desc`, dataset: { testid: `${id}-desc` }, "aria-live": "polite" });
    let get, set;
    let problem = () => null;
    if (object) {
      // House values for cards or ranks ({"QS": 40, "JK": 25}): one row a key, never raw JSON.
      const rowsBox = h("div", { class: "kv-rows" });
      const addBtn = h("button", { type: "button", class: "chip", dataset: { testid: `${id}-add` } }, "Add a card value");
      const editor = h("div", { class: "kv-editor", id, role: "group", "aria-label": words, "aria-describedby": `${id}-desc`, dataset: { testid: id } }, [rowsBox, addBtn]);
      desc.textContent = `${playerWords(spec.description ?? "")}. A key is a card (QS) or a rank (Q, 10, A, JK).`;
      const entries = () => [...rowsBox.querySelectorAll(".kv-row")].map((r) => {
        const [k, v] = r.querySelectorAll("input");
        return { row: r, k, v, key: k.value.trim().toUpperCase(), text: v.value.trim() };
      });
      const addRow = (key = "", points = "") => {
        const k = h("input", { type: "text", class: "kv-key", maxlength: "4", placeholder: "QS", autocapitalize: "characters", spellcheck: "false", "aria-label": "Card or rank", value: key });
        const v = h("input", { type: "number", step: "1", class: "num", placeholder: "points", "aria-label": "Points", value: points === "" ? "" : String(points) });
        const del = h("button", { type: "button", class: "chip", "aria-label": "Remove this card value" }, "\u00d7");
        const r = h("div", { class: "kv-row" }, [k, v, del]);
        for (const input of [k, v]) input.addEventListener("input", () => { input.removeAttribute("aria-invalid"); updateChanged(); });
        del.addEventListener("click", () => { r.remove(); updateChanged(); addBtn.focus(); });
        rowsBox.append(r);
        return k;
      };
      addBtn.addEventListener("click", () => { addRow().focus(); updateChanged(); });
      get = () => {
        const out = {};
        for (const e of entries()) if (e.key && CARD_KEY.test(e.key) && /^-?\d+$/.test(e.text)) out[e.key] = parseInt(e.text, 10);
        return out;
      };
      set = (v) => {
        clear(rowsBox);
        for (const [key, points] of Object.entries(v && typeof v === "object" ? v : {})) addRow(key, points);
      };
      problem = () => {
        const seen = new Set();
        for (const e of entries()) {
          if (!e.key && !e.text) continue; // an empty row is no value
          const fail = (input, msg) => { input.setAttribute("aria-invalid", "true"); return `\u201c${words}\u201d: ${msg}`; };
          if (!CARD_KEY.test(e.key)) return fail(e.k, `\u201c${e.k.value.trim()}\u201d is no card or rank \u2014 write a card (QS) or a rank (Q, 10, A, JK).`);
          if (!/^-?\d+$/.test(e.text)) return fail(e.v, `${e.key} needs a whole number of points.`);
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
      let num = null;
      if (number) {
        sel.append(h("option", { value: "custom" }, "Another number\u2026"));
        num = h("input", {
          type: "number", step: "1", class: "num", hidden: true, "aria-label": number.label || `${words} value`,
          min: number.min ?? false, max: number.max ?? false, dataset: { testid: `${id}-number` },
        });
        num.addEventListener("input", updateChanged);
      }
      const describe = () => {
        desc.textContent = sel.value === "custom"
          ? (number.description || playerWords(spec.description ?? ""))
          : choiceDescription(spec, choices[+sel.value]);
      };
      sel.addEventListener("change", () => {
        if (num) {
          num.hidden = sel.value !== "custom";
          // Start the box from the option's value, never empty: an empty box is no number.
          if (!num.hidden && num.value.trim() === "") {
            const d = effectiveDefault(spec);
            num.value = String(Number.isInteger(d) ? d : (number.min ?? 0));
          }
        }
        describe();
        updateChanged();
      });
      // An empty "another number" box is no value (refused by name on submit), never 0.
      get = () => (sel.value === "custom" ? (num.value.trim() === "" ? null : parseInt(num.value, 10)) : choices[+sel.value]?.value);
      problem = () => {
        if (sel.value !== "custom") return null;
        const v = get();
        const what = `\u201c${words}\u201d`;
        if (v === null || Number.isNaN(v)) return `${what} needs a number \u2014 type one, or pick one of its values.`;
        if (number.min !== null && v < number.min) return `${what} must be at least ${number.min}.`;
        if (number.max !== null && v > number.max) return `${what} must be at most ${number.max}.`;
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
      row.append(label, h("span", { class: "rule-ctl" }, num ? [sel, num] : [sel]), desc);
    }
    controls.set(spec.name, { spec, get, set, row, problem });
    return row;
  }

  function applyPreset() {
    for (const c of controls.values()) c.set(effectiveDefault(c.spec));
    const p = catalogue.presets[presetSel.value];
    presetDesc.textContent = p?.description ?? "";
    const players = p?.rules?.players;
    if (players) {
      seatsSel.value = String(players);
      renderBots();
    }
    updateChanged();
  }

  presetSel.addEventListener("change", applyPreset);
  seatsSel.addEventListener("change", renderBots);

  const form = h("form", { class: "panel create-form", novalidate: true }, [
    h("h2", {}, "New table"),
    h("label", { for: "player-name" }, "Your name"),
    nameInput,
    h("label", { for: "table-title" }, "Table name"),
    titleInput,
    h("div", { class: "two-col" }, [
      h("div", {}, [h("label", { for: "seats" }, "Seats"), seatsSel]),
      h("div", {}, [h("label", { for: "preset" }, "Preset"), presetSel]),
    ]),
    presetDesc,
    h("h3", {}, "Players"),
    botsBox,
    h("div", { class: "two-col table-settings" }, [
      h("div", {}, [h("label", { for: "turn-clock" }, "Turn clock"), clockSel,
        h("p", { class: "hint" }, "When it runs out, the computer plays that turn for the player.")]),
      h("div", { class: "checks" }, [
        h("label", { class: "check" }, [hintsBox, " Players may ask for hints"]),
        h("label", { class: "check" }, [publicBox, " List the finished game among the public replays"]),
      ]),
    ]),
    h("details", { class: "house-rules", dataset: { testid: "house-rules" } }, [
      h("summary", {}, ["House rules ", changedCount]),
      h("p", { class: "hint" }, "Starting from the preset. Changed options are highlighted."),
      rulesBox,
    ]),
    errorBox,
    createBtn,
  ]);

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    errorBox.hidden = true;
    const name = nameInput.value.trim();
    if (!name) {
      showError(errorBox, "Please pick a name first.");
      nameInput.focus();
      return;
    }
    storeName(name);
    const rules = {};
    for (const [optName, c] of controls) {
      const bad = c.problem();
      if (bad) {
        showError(errorBox, `House rules: ${bad}`);
        c.row.closest("details")?.setAttribute("open", "");
        (c.row.querySelector("[aria-invalid=true]") ?? c.row.querySelector("input:not([hidden])") ?? c.row.querySelector("select"))?.focus();
        return;
      }
      const v = c.get();
      if (JSON.stringify(v) !== JSON.stringify(effectiveDefault(c.spec))) rules[optName] = v;
    }
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
      showError(errorBox, e.message);
    } finally {
      createBtn.disabled = false;
    }
  });

  // One click to a game: two players, the standard rules, a medium computer opponent.
  const quickBtn = h("button", { type: "button", class: "primary big", dataset: { testid: "play-computer" } },
    "Play against the computer");
  quickBtn.addEventListener("click", async () => {
    const name = nameInput.value.trim() || storedName() || "Player";
    storeName(name);
    quickBtn.disabled = true;
    try {
      const res = await createTable({ name, seats: 2, preset: "standard", bots: { 1: defaultLevel } }, name);
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
      h("div", { class: "row quick" }, [quickBtn, h("span", {}, "or set up a table below to play with friends.")]),
      h("nav", { class: "row" }, [
        h("a", { href: "/#rules", dataset: { testid: "nav-rules" } }, "How to play"),
        h("a", { href: "/#replays", dataset: { testid: "nav-replays" } }, "Replays of finished games"),
      ]),
    ]),
    form,
    yourTables(),
  ]));

  renderBots();
  api("GET", "/api/rules").then((data) => {
    catalogue = normaliseCatalogue(data);
    if (catalogue.botLevels?.length) {
      BOT_LEVELS = catalogue.botLevels;
      if (data.default_bot_level) defaultLevel = data.default_bot_level;
      renderBots();
    }
    clear(presetSel);
    const names = Object.keys(catalogue.presets);
    for (const n of names.length ? names : ["standard"]) {
      presetSel.append(h("option", { value: n }, n.replace(/_/g, " ")));
    }
    presetSel.value = names.includes("standard") ? "standard" : names[0] ?? "standard";
    renderRules();
  }).catch((e) => {
    rulesBox.textContent = `Could not load the rules catalogue: ${e.message}`;
  }).finally(() => {
    // Without the catalogue the table still gets the standard rules (the server checks them).
    createBtn.disabled = false;
  });
}

/** Tables this browser holds a seat at (from localStorage). */
function yourTables() {
  const rows = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (!k.startsWith("rummy500.seat.")) continue;
    const id = k.slice("rummy500.seat.".length);
    let info = null;
    try { info = JSON.parse(localStorage.getItem(k)); } catch { /* an old entry */ }
    rows.push(h("li", {}, h("a", { href: `/t/${id}` }, info?.title || `Table ${id.slice(0, 6)}\u2026`)));
  }
  if (!rows.length) return h("span", { hidden: true });
  return h("section", { class: "panel your-tables" }, [h("h2", {}, "Your tables"), h("ul", {}, rows.slice(-8))]);
}
