// The table page (/t/{id}): the waiting room before the start, then the game.
// Everything shown comes from the server's state messages; every move the
// player can make is an entry of `view.legal`, matched against the selection.

import {
  api, seatFor, storeSeat, forgetSeat, storedName, storeName, leaveSeat, removeSeat, noteLeaving, unnoteLeaving, leftHere,
  seatLink, seatFromLink,
} from "./api.js";
import { cardEl, cardText, cardLabel, suitedText, listWords, baseCard } from "./cards.js";
import {
  verbOf, selectionChoices, selectionCouldGrow, selectionProblem, legalTakes, legalRummies, describe, ordinal,
  claimedCard, discardInPickedOrder, discardSize,
} from "./actions.js";
import { Hand } from "./hand.js";
import { TableConnection } from "./connection.js";
import { h, clear, toast, setContent, goTo } from "./dom.js";
import { chooseAction } from "./chooser.js";
import { ScoreSheet } from "./scores.js";
import { rulesInWords, loadRuleCatalogue, ruleCatalogueLoaded, GAMBIT_WORDS, DEALER_JOKER_WORDS } from "./rules.js";
import { playTurnSound, isMuted, setMuted } from "./sound.js";
import { animateArrivals } from "./motion.js";
import { entryText, ownEntryText } from "./events.js";
import { distinctNames, plural, chatClean, chatLength } from "./names.js";

const SIDE_NAMES = ["A", "B", "C", "D"];
// The longest chat line the server keeps (docs/protocol.md), unless the table says otherwise.
const CHAT_LIMIT = 500;
// A chat line the server has not sent back after this long was dropped (too many messages at once).
const CHAT_ECHO_MS = 4000;
// Refusals of a chat line: the line goes back into the box, the reason under it.
const CHAT_REFUSALS = new Set(["rate_limited", "not_seated", "bad_message"]);
// A person who closed the waiting room's page is said to be "not here" once they have been gone
// this long (a reload, which closes the socket for a moment, is not news).
const GONE_SAID_AFTER_MS = 2500;
// The newest chat lines kept in the chat's live region, and for how long (they have been read out).
const CHAT_LIVE_LINES = 3;
const CHAT_LIVE_MS = 15000;

export function renderTable(root, tableId) {
  const page = new TablePage(root, tableId);
  page.start();
  return () => page.destroy();
}

/**
 * A table page opened by *Play again*: {tableId, focus}. The page it opens takes the focus where
 * a join from the form puts it (the waiting room's heading), as the pressed button is gone.
 */
let arrival = null;

/** The most of the window's height the pinned hand area may take; a taller one scrolls with the table. */
const HAND_MAX_SHARE = 0.5;

/** How to rearrange the hand: touch screens drag; keyboards also have Shift+arrows. */
const REARRANGE = window.matchMedia?.("(pointer: coarse)").matches ? "drag" : "drag, or Shift+arrows";

class TablePage {
  constructor(root, tableId) {
    this.root = root;
    this.tableId = tableId;
    // A seat brought from another device (its link's fragment, seatLink): kept as this table's seat
    // until the server refuses its token (onFatal: the seat this browser had before comes back).
    this.linked = null;         // {prev, bad}: the seat the link replaced; `bad`: the link held none
    const brought = seatFromLink();
    if (brought && brought.token !== seatFor(tableId)?.token) {
      this.linked = { prev: seatFor(tableId), bad: !brought.token };
      if (brought.token) storeSeat(tableId, { seat: brought.seat, token: brought.token, creator: brought.seat === 0, fromLink: true });
    }
    this.me = seatFor(tableId); // {seat, token, name, creator} or null
    this.table = null;          // table info (REST or state.table)
    this.view = null;
    this.log = [];
    this.drawnWith = new Map(); // the inputs each costly part was last drawn with (see changed())
    this.chat = [];
    this.chatOutbox = [];       // chat lines sent and not yet sent back by the server: {text, at}
    this.unread = 0;            // chat lines from others not seen yet (the chat panel out of view)
    this.pendingAction = false;
    this.pileDepth = null;      // depth of the pile card the player looks at
    this.socketTables = 0;      // table messages received over the socket
    this.endSeen = -1;          // version of the last round end shown
    this.banner = null;         // {round_over, game_over} events to show
    this.scores = new ScoreSheet();
    this.hand = new Hand(() => {
      this.renderSort();
      this.renderActions();
    });
    this.conn = null;
    this.pollTimer = null;
    this.pace = null;           // the table's timers ({call_window, clock, summary, hints, turn_clock})
    this.paceAt = 0;            // performance.now() when `pace` arrived (its seconds count from then)
    this.lastRound = null;      // the last scored round (melded and in-hand points per seat)
    this.tablePoints = null;    // points each seat has on the table this round
    this.hintShown = null;      // {version, reason, text, action}
    // going_out: unplayable_discard: log versions whose discard left its thrower floating, not out
    // ({seat, cards}); the log's own words ("discarded J♦") do not say it.
    this.floatNotes = new Map();
    // Cards claimed by calling Rummy!, as the log told them: {round, seat, card, meld} (meld: where
    // the card was laid, null until then; card null when the log does not say which card it was).
    // A summary marks them where they score (rummy_card_value: 15); see summaryClaims.
    this.claims = [];
    this.claimsSeen = -1;       // the newest log version read for claims
    this.readySent = -1;        // the round whose summary this page said Ready to
    this.wasMyTurn = false;
    this.announcedVersion = null;
    this.awaySaid = null;       // the seat whose away countdown was last said (timerLive)
    // The waiting room's news for screen readers (liveEl): who joined, left or went away, said once.
    this.seatsSeen = null;      // the seats as last drawn ({kind, name, connected} each), null before the first facts
    this.seenAt = null;         // the page's own seat then
    this.quietSeats = new Set(); // seats whose next change a note of this page says (the creator's Remove)
    this.goneSaid = new Set();  // seats said to be "not here" (their return is said too)
    this.goneTimers = new Map(); // seat -> the timer that says it is not here (a reload does not count)
    this.sayQueue = [];         // words for liveEl in this task, said together
    // The waiting room's seat buttons (kept across its re-renders: every table message redraws it).
    this.seatNote = null;       // {text, alert, openSeat}: what just happened to a seat (left, removed)
    this.removeAsk = null;      // {seat, name}: the creator pressed Remove once; the confirmation shows
    this.removing = null;       // the seat whose removal was sent and not yet answered
    this.removeError = null;    // why the server refused a removal (shown under the seats)
    this.leaving = false;       // Leave was sent and not yet answered
    this.leaveKilled = false;   // meanwhile the socket was closed for the seat given back (4401)
    this.leaveError = null;     // the server refused Leave: its words
    this.joinName = null;       // the name for the join form after a seat was given back
    this.focusNext = null;      // the data-testid to focus once the waiting room is drawn again
    if (arrival?.tableId === tableId) this.focusNext = arrival.focus;
    arrival = null;
    // Play again (the game-over banner): the request in flight, and what a refusal said.
    this.again = { busy: false, error: null, watch: null, watchText: null };
    this.nextHost = null;       // {id, name}: the next table and who opened it (its seat 0), once asked
    this.nextSaid = undefined;  // the next_table the page has told of (undefined: no table facts yet)
    this.build();
    this.ticker = setInterval(() => this.renderTimers(), 250);
    // The sticky hand's height, for the page's scroll padding (style.css): a
    // meld scrolled into view stops above the hand instead of under it.
    this.handObserver = typeof ResizeObserver === "function" ? new ResizeObserver(() => this.measureHand()) : null;
    this.handObserver?.observe(this.myArea);
    // The window's height changes the hand's share of it (a phone turned, a zoom) without resizing the hand.
    this.onResize = () => this.measureHand();
    window.addEventListener("resize", this.onResize);
  }

  /**
   * Publish the sticky hand area's height as --hand-h (0 while it does not stick). On a short
   * screen (a phone held sideways, a laptop zoomed to 200 %, a large default font) the hand
   * area would hide most of the table (the status line, the stock, the pile and its Take):
   * when it would take more than HAND_MAX_SHARE of the window, it is not pinned
   * (`hand-loose`) and scrolls with the board.
   */
  measureHand() {
    const open = !this.board.hidden && !this.myArea.hidden && !this.board.classList.contains("summary-open");
    const height = open ? this.myArea.getBoundingClientRect().height : 0;
    const loose = open && height > window.innerHeight * HAND_MAX_SHARE;
    this.board.classList.toggle("hand-loose", loose);
    const px = open && !loose ? Math.ceil(height) : 0;
    document.documentElement.style.setProperty("--hand-h", `${px}px`);
  }

  // ------------------------------------------------------------------ layout
  build() {
    clear(this.root);
    // New lines from the others while the chat is out of view: a count where the player looks
    // (over the hand in a game, at the top of the waiting room), cleared once the chat is seen.
    this.unreadBtns = [0, 1].map((i) => {
      const b = h("button", { type: "button", class: "unread", hidden: true, dataset: { testid: i ? "chat-unread-waiting" : "chat-unread" } });
      b.addEventListener("click", () => this.showChat());
      return b;
    });
    this.connBadge = h("span", { class: "conn", dataset: { testid: "conn-status" }, "aria-live": "polite" }, "connecting\u2026");
    this.titleEl = h("span", { class: "table-title" }, `Table ${this.tableId}`);
    // How many people watch the table without a seat (the table's `spectators`): players are told.
    this.watchEl = h("span", { class: "watching", hidden: true, dataset: { testid: "spectators" } });
    this.errorBanner = h("div", { class: "error-banner", role: "alert", hidden: true, dataset: { testid: "error-banner" } });
    this.waiting = h("section", { class: "waiting panel", hidden: true, dataset: { testid: "waiting-room" } });
    this.players = h("section", { class: "players", "aria-label": "Players", dataset: { testid: "players" } });
    // Not a live region: whose turn it is, the round's end and the game's end are spoken once, by
    // the hint line under the hand (which says what to do) and the moves' live region; the status
    // line saying them as well made a screen reader read each piece of news two or three times.
    this.statusLine = h("div", { class: "status-line", dataset: { testid: "status" } });
    this.stockEl = h("div", { class: "stock-area" });
    this.pileEl = h("div", { class: "pile", role: "group", "aria-label": "Discard pile, top card last", dataset: { testid: "discard-pile" } });
    this.pilePreview = h("div", { class: "pile-preview", dataset: { testid: "pile-preview" } });
    // Escape closes the pile's preview as Cancel does (as it clears a selection of the hand).
    for (const part of [this.pileEl, this.pilePreview]) {
      part.addEventListener("keydown", (e) => {
        if (e.key !== "Escape" || !this.pileDepth) return;
        e.preventDefault();
        this.cancelPileChoice();
      });
    }
    // The preview in words for screen readers (the focus stays on the pile card pressed).
    this.pileLive = h("p", { class: "sr-only", "aria-live": "polite", dataset: { testid: "pile-live" } });
    this.meldsEl = h("section", { class: "melds", "aria-label": "Melds on the table", dataset: { testid: "melds" } });
    this.actionsEl = h("div", { class: "actions", role: "toolbar", "aria-label": "Your moves", dataset: { testid: "actions" } });
    this.hintEl = h("p", { class: "hint action-hint", "aria-live": "polite", dataset: { testid: "action-hint" } });
    this.sortEl = h("div", { class: "sort-toggle", role: "group", "aria-label": "Sort hand" });
    // While a round summary holds the table, the hand below it is the next round's (already dealt).
    this.handNote = h("p", { class: "hand-note", hidden: true, dataset: { testid: "hand-note" } });
    this.myArea = h("section", { class: "my-area", "aria-label": "Your hand and moves" }, [
      h("div", { class: "my-head" }, [h("h2", { class: "sr-only" }, "Your hand"), this.handNote, this.sortEl, this.unreadBtns[0]]),
      this.hand.row,
      this.hintEl,
      this.actionsEl,
    ]);
    // Not a live region: the round's result is spoken once, from the log (announceMoves), and the
    // summary's countdown, written every second, must not make a screen reader read it all again.
    this.roundBanner = h("div", { class: "round-banner", hidden: true, dataset: { testid: "round-over" }, role: "region", "aria-label": "Round result" });
    this.timerEl = h("div", { class: "timers", dataset: { testid: "timers" } });
    // The timers are written every second, so they are no live region: what a screen reader needs to
    // hear of them (a player gone away, the computer about to play for them) is said here, once.
    this.timerLive = h("p", { class: "sr-only", "aria-live": "polite", dataset: { testid: "timer-live" } });
    this.rulesList = h("ul", { class: "rules-words", dataset: { testid: "table-rules" } });
    // Screen readers hear the other players' moves (the log itself is re-drawn, so it is not live).
    this.liveEl = h("p", { class: "sr-only", "aria-live": "polite", dataset: { testid: "live-moves" } });
    this.logEl = h("ol", { class: "log", dataset: { testid: "game-log" }, "aria-live": "off" });
    // Not a live region: each (re)connect fills it again with the last lines (chat_history), which
    // must not be read out again. New lines are said once, in chatLive.
    this.chatList = h("ul", { class: "chat-list", dataset: { testid: "chat-list" } });
    this.chatLive = h("div", { class: "sr-only", "aria-live": "polite", dataset: { testid: "chat-live" } });
    // No maxlength: a longer line is refused with words (and kept), never cut without a word.
    this.chatInput = h("input", {
      type: "text", placeholder: "Say something\u2026", "aria-label": "Chat message",
      "aria-describedby": "chat-note chat-count", dataset: { testid: "chat-input" }, autocomplete: "off",
    });
    // Under the box: why a line was not sent (it is back in the box), and the characters left near the limit.
    this.chatNote = h("p", { class: "chat-note", id: "chat-note", role: "status", dataset: { testid: "chat-note" } });
    this.chatCount = h("span", { class: "chat-count", id: "chat-count", hidden: true, dataset: { testid: "chat-count" } });
    this.chatInput.addEventListener("input", () => this.renderChatCount());
    this.chatSend = h("button", { type: "submit", dataset: { testid: "chat-send" } }, "Send");
    const chatForm = h("form", { class: "chat-form" }, [this.chatInput, this.chatSend]);
    chatForm.addEventListener("submit", (e) => {
      e.preventDefault();
      this.sendChat();
    });
    this.chatHead = h("h2", {}, "Chat");
    this.chatPanel = h("section", { class: "panel chat", dataset: { testid: "chat-panel" } },
      [this.chatHead, this.chatList, this.chatLive, chatForm, h("div", { class: "chat-foot" }, [this.chatNote, this.chatCount])]);
    this.chatInView = false;
    this.chatObserver = typeof IntersectionObserver === "function" ? new IntersectionObserver((entries) => {
      this.chatInView = entries[entries.length - 1].isIntersecting;
      if (this.chatInView) this.setUnread(0);
    }, { threshold: 0.5 }) : null;
    this.chatObserver?.observe(this.chatPanel);

    this.board = h("div", { class: "board", hidden: true }, [
      this.players,
      this.statusLine,
      this.timerEl,
      this.timerLive,
      h("div", { class: "center-row" }, [this.stockEl, h("div", { class: "pile-wrap" }, [
        h("h2", { class: "label" }, "Discard pile"), this.pileEl, this.pilePreview, this.pileLive])]),
      this.roundBanner,
      h("h2", { class: "label" }, "Melds"),
      this.meldsEl,
      this.myArea,
    ]);
    // The seat's link for another device (seatLink): closed until asked for, as it is a secret.
    this.deviceLink = h("input", { type: "text", readonly: true, id: "device-link", value: "", dataset: { testid: "device-link" } });
    this.deviceCopy = h("button", { type: "button", "aria-label": "Copy the link to your seat", dataset: { testid: "copy-device-link" } }, "Copy");
    this.deviceCopy.addEventListener("click", () => this.copyField(this.deviceLink, this.deviceCopy, "Link copied. Keep it to yourself."));
    // (Its content is hidden while it is closed: out of the Tab order, as a closed panel's should be.)
    const deviceBody = h("div", { hidden: true }, [
      h("p", { class: "hint" }, "Open this link on your phone, tablet or another computer to play your seat there too: this device keeps it as well."),
      h("p", { class: "secret", dataset: { testid: "device-secret" } }, "Keep it secret: anyone who opens it plays your seat. Send it only to yourself."),
      h("label", { for: "device-link" }, "Your seat's link"),
      h("div", { class: "row" }, [this.deviceLink, this.deviceCopy]),
    ]);
    this.devicePanel = h("details", { class: "panel device", hidden: true, dataset: { testid: "device-panel" } }, [
      h("summary", {}, h("h2", {}, "Play on another device")), deviceBody]);
    this.devicePanel.addEventListener("toggle", () => { deviceBody.hidden = !this.devicePanel.open; });
    this.side = h("aside", { class: "side" }, [
      h("section", { class: "panel" }, [h("h2", {}, "Scores"), this.scores.el]),
      this.chatPanel,
      this.devicePanel,
      h("section", { class: "panel" }, [
        h("details", { dataset: { testid: "rules-panel" } }, [h("summary", {}, h("h2", {}, "Rules at this table")), this.rulesList]),
        h("a", { href: "/#rules", target: "_blank" }, "How to play Rummy 500")]),
      h("details", { class: "panel", open: true }, [h("summary", {}, h("h2", {}, "Game log")), this.logEl]),
    ]);
    this.root.append(h("div", { class: "table-page" }, [
      h("header", { class: "topbar" }, [
        h("a", { href: "/", class: "brand" }, ["Rummy ", h("span", { class: "accent" }, "500")]),
        this.titleEl,
        this.connBadge,
        this.watchEl,
        h("a", { href: "/#rules", class: "nav", target: "_blank" }, "Rules"),
        this.muteBtn(),
        h("a", { href: "/#replays", class: "nav2" }, "Replays"),
      ]),
      this.errorBanner,
      this.liveEl,
      h("div", { class: "table-layout" }, [h("main", { class: "main-col" }, [this.waiting, this.board]), this.side]),
    ]));
  }

  start() {
    this.refreshTable();
    this.connect();
    // The rules panel says options it has no words of its own for in the catalogue's (labels, descriptions).
    loadRuleCatalogue().then((loaded) => { if (loaded) this.renderRules(); });
  }

  /** The sound toggle in the top bar (the "your turn" chime). */
  muteBtn() {
    const b = h("button", { type: "button", class: "mute", dataset: { testid: "mute" } });
    const show = () => {
      b.textContent = isMuted() ? "\u266A off" : "\u266A on"; // text, not an emoji: every font has it
      b.setAttribute("aria-label", isMuted() ? "Sound off (turn it on)" : "Sound on (turn it off)");
      b.setAttribute("aria-pressed", isMuted() ? "true" : "false");
    };
    b.addEventListener("click", () => {
      setMuted(!isMuted());
      show();
    });
    show();
    return b;
  }

  destroy() {
    this.destroyed = true;
    this.conn?.close();
    this.handObserver?.disconnect();
    window.removeEventListener("resize", this.onResize);
    this.hand.resizeObserver?.disconnect();
    this.chatObserver?.disconnect();
    clearTimeout(this.chatTimer);
    for (const t of this.goneTimers.values()) clearTimeout(t);
    this.scores.destroy();
    document.documentElement.style.removeProperty("--hand-h");
    clearInterval(this.pollTimer);
    clearInterval(this.ticker);
    document.title = "rummy500";
  }

  connect() {
    this.conn?.close();
    this.conn = new TableConnection(this.tableId, this.me?.token, {
      state: (m) => this.onState(m),
      error: (m) => this.onError(m),
      chat: (m) => this.onChat(m),
      other: (m) => this.onOther(m),
      status: (s, secs) => this.setConn(s, secs),
      fatal: (reason, code) => this.onFatal(reason, code),
      dropped: (code, text) => this.onDropped(code, text),
    });
    window.rummyConnection = this.conn; // handle for debugging and browser tests
    this.conn.open();
  }

  setConn(s, secs) {
    let text = {
      connecting: "connecting\u2026", connected: "connected",
      reconnecting: secs ? `reconnecting in ${secs}s\u2026` : "reconnecting\u2026",
    }[s] ?? s;
    if (s === "reconnecting" && this.dropCode === 4429) text = secs ? `too many tabs \u2014 retrying in ${secs}s` : "too many tabs \u2014 trying again\u2026";
    this.connBadge.textContent = text;
    this.connBadge.className = `conn ${s}`;
    if (s === "connected" && this.linked && this.me?.fromLink) {
      // The server took the token the link brought: the seat is on this device now.
      this.linked = null;
      const { fromLink, ...seat } = this.me;
      this.me = seat;
      storeSeat(this.tableId, seat);
      toast(`Your seat is on this device now${this.me.name ? ` (${this.me.name})` : ""}.`);
    }
    if (s === "connected" && this.dropCode) {
      // Back after the server dropped us: the message is no longer true.
      this.dropCode = null;
      this.hideBanner();
      toast("Connected again.");
    }
  }

  async refreshTable() {
    const socketTables = this.socketTables;
    try {
      const t = await api("GET", `/api/tables/${encodeURIComponent(this.tableId)}`);
      // The socket's table facts are newer than an answer that crossed them.
      if (this.socketTables === socketTables) this.setTable(t);
    } catch (e) {
      if (e.status === 404) {
        this.showBanner(`There is no table ${this.tableId}. ${e.message}`);
        this.conn?.close();
      } else if (!this.view) {
        this.showBanner(e.message);
      }
    }
  }

  setTable(t) {
    if (!t) return;
    this.table = { ...(this.table || {}), ...t };
    const name = this.table.title ?? this.table.name;
    if (name) this.titleEl.textContent = name;
    if (name && this.me && this.me.title !== name) {
      this.me = { ...this.me, title: name }; // "Your tables" in the lobby lists names, not ids
      storeSeat(this.tableId, this.me);
    }
    // A seat brought by a link has its name from the table.
    const myName = this.me && Array.isArray(this.table.seats) ? this.table.seats[this.me.seat]?.name : null;
    if (this.me && !this.me.name && myName) {
      this.me = { ...this.me, name: myName };
      storeSeat(this.tableId, this.me);
    }
    if (this.linked?.bad) this.linkRefused();
    this.seatNews();
    this.renderWatching();
    this.renderDevice();
    if (!this.view) this.renderWaiting();
    this.renderPlayers();
    this.renderRules(); // in the waiting room too: people see the house rules before they start
    this.scores.setNames(this.names(), this.sides());
    this.noteNextTable();
    this.renderChatCount(); // the table's chat limit (settings.chat_max_chars) may have come with it
  }

  /** "2 watching" in the top bar while anyone watches without a seat (this page too, when it has none). */
  renderWatching() {
    const n = Number(this.table?.spectators) || 0;
    this.watchEl.hidden = n < 1;
    if (n < 1) return;
    const people = n === 1 ? "1 person is" : `${n} people are`;
    this.watchEl.title = `${people} watching this table without a seat${this.mySeat() === null ? " (you too)" : ""}`;
    if (this.watchEl.textContent === `${n} watching`) return;
    // On a phone the word goes to screen readers only (style.css): the eye and the number show.
    setContent(this.watchEl, [String(n), h("span", { class: "w-words" }, " watching")]);
  }

  names() {
    // Two seats of one name are told apart everywhere a seat is named: "Bob (seat 2)".
    return distinctNames(this.seatNames());
  }

  /** Each seat's name as the server gives it (two seats may share one). */
  seatNames() {
    const v = this.view;
    const t = this.table || {};
    const n = this.seatCount();
    const out = [];
    for (let s = 0; s < n; s++) {
      out.push(pickName(v?.players, s) ?? pickName(t.names, s) ?? pickName(t.players, s)
        ?? pickName(t.seats, s) ?? `Seat ${s + 1}`);
    }
    return out;
  }

  /**
   * Say ``text`` in the page's live region (liveEl). Words said in one task are said together, so
   * a seat's news and a note that come with one table message are one announcement.
   */
  announce(text) {
    if (!text) return;
    this.sayQueue.push(text);
    if (this.sayQueue.length > 1) return;
    queueMicrotask(() => {
      const words = this.sayQueue.join(" ");
      this.sayQueue = [];
      // The same words again are read again only if the region changes: cleared first.
      if (this.liveEl.textContent === words) this.liveEl.textContent = "";
      this.liveEl.textContent = words;
    });
  }

  /** Whether the keyboard focus is nowhere in particular: on the page, or on #app after a route change (app.js). */
  focusLost(active = document.activeElement) {
    return !active || active === document.body || active === this.root;
  }

  /**
   * The waiting room's news, said once in liveEl: "Bob joined", "Bob left", "Bob is not here" (a
   * person who closed the page: said after a moment, so a reload is not news) and "Bob is back".
   * Compared with the seats as they were; the page's own seat, and a seat whose change a note on
   * this page says (its Leave, the creator's Remove), are not said.
   */
  seatNews() {
    const seats = Array.isArray(this.table?.seats) ? this.table.seats : null;
    if (!seats) return;
    const now = seats.map((x) => ({ kind: x?.kind ?? (x?.name ? "human" : "open"), name: x?.name ?? null, connected: x?.connected !== false }));
    const before = this.seatsSeen;
    const me = this.mySeat();
    const wasMe = this.seenAt;
    this.seatsSeen = now;
    this.seenAt = me;
    if (!before || this.isStarted()) {
      for (const t of this.goneTimers.values()) clearTimeout(t);
      this.goneTimers.clear();
      return;
    }
    const namesNow = distinctNames(now.map((x) => x.name));
    const namesBefore = distinctNames(before.map((x) => x.name));
    const said = [];
    for (let s = 0; s < Math.max(now.length, before.length); s++) {
      const a = before[s] ?? { kind: "open" };
      const b = now[s] ?? { kind: "open" };
      const same = a.kind === "human" && b.kind === "human" && a.name === b.name;
      if (!same || b.connected) {
        // Away no more (left, or back): the pending "not here" is not said.
        clearTimeout(this.goneTimers.get(s));
        this.goneTimers.delete(s);
      }
      if (!same) this.goneSaid.delete(s);
      if (!same && a.kind === b.kind && a.name === b.name) continue; // an open seat, or a bot, as it was
      if (!same && this.quietSeats.delete(s)) continue;
      // The page's own seat (then or now): its joining and leaving are said by the page itself.
      if (s === me || s === wasMe) continue;
      if (a.kind === "human" && !same) said.push(`${namesBefore[s]} left.`);
      // This page joining (its answer may come after the table message): the page says it itself.
      const joining = this.joiningName && String(b.name ?? "").trim().toLowerCase() === this.joiningName.toLowerCase();
      if (b.kind === "human" && !same && !joining) said.push(`${namesNow[s]} joined.`);
      if (same && a.connected && !b.connected) {
        this.goneTimers.set(s, setTimeout(() => {
          this.goneTimers.delete(s);
          if (this.destroyed || this.isStarted() || this.seatsSeen?.[s]?.connected !== false) return;
          this.goneSaid.add(s);
          this.announce(`${this.names()[s]} is not here.`);
        }, GONE_SAID_AFTER_MS));
      }
      if (same && !a.connected && b.connected && this.goneSaid.delete(s)) said.push(`${namesNow[s]} is back.`);
    }
    this.announce(said.join(" "));
  }

  seatCount() {
    const v = this.view;
    const t = this.table || {};
    if (v?.hand_sizes) return v.hand_sizes.length;
    if (Array.isArray(v?.players)) return v.players.length;
    if (typeof t.seats === "number") return t.seats;
    if (Array.isArray(t.seats)) return t.seats.length;
    if (Array.isArray(t.players)) return t.players.length;
    return t.rules?.players ?? 2;
  }

  /** Partnership sides as lists of seats, or null. */
  sides() {
    const t = this.table || {};
    if (Array.isArray(t.sides) && t.sides.length) return t.sides;
    if (t.rules?.partnership || t.partnership) return [[0, 2], [1, 3]];
    return null;
  }

  seatInfo(s) {
    const seats = this.table?.seats;
    const info = Array.isArray(seats) && seats[s] && typeof seats[s] === "object" ? { ...seats[s] } : {};
    const bots = this.table?.bots;
    if (bots && bots[String(s)]) info.bot_level = bots[String(s)];
    // A bot seat, or a person's seat a bot plays while they are away.
    info.bot = info.kind === "bot" || (info.kind === undefined && info.bot_level) ? (info.bot_level ?? "bot") : null;
    return info;
  }

  gameOver() {
    return this.table?.status === "finished" || String(this.view?.phase).toLowerCase() === "game_over";
  }

  mySeat() {
    if (this.view && typeof this.view.seat === "number") return this.view.seat;
    return this.me ? this.me.seat : null;
  }

  isStarted() {
    const st = this.table?.status;
    return !!this.view || st === "running" || st === "finished";
  }

  // ---------------------------------------------------------- waiting room
  renderWaiting() {
    const w = this.waiting;
    // No open seat (the creator filled the others with bots, the lobby's default, or people took
    // them): nobody else can join, and the room says so instead of offering a join that fails.
    const taken = (s) => {
      const info = this.seatInfo(s);
      return info.kind ? info.kind !== "open" : !!(info.bot || info.name);
    };
    const seats = this.seatCount();
    const full = Array.isArray(this.table?.seats) && [...Array(seats).keys()].every(taken);
    // The join form survives a re-render (every table message re-renders the
    // room): a name being typed, or a click on "Join", is never lost to one.
    const keep = !this.me && !this.isStarted() && !full && this.joinBox?.parentNode === w ? this.joinBox : null;
    // A control focused in the room gets the focus back once the room is drawn again (by its test id).
    const active = document.activeElement;
    const inRoom = !!active && w.contains(active) && !keep?.contains(active);
    const focusId = this.focusNext ?? (inRoom ? active.dataset?.testid : null);
    const lostFocus = this.focusLost(active) || w.contains(active);
    // Arrived from another page of the app (#app focused, app.js): the room's heading takes the focus.
    const arrived = active === this.root;
    this.focusNext = null;
    for (const child of [...w.childNodes]) if (child !== keep) child.remove();
    w.hidden = false;
    this.board.hidden = true;
    // People seated here talk while they wait; a visitor joins a seat first.
    const seated = this.mySeat() !== null;
    this.chatOpen(seated, seated ? "Say something\u2026" : "Join a seat to chat");
    const title = this.table?.title ?? this.table?.name;
    if (this.isStarted()) {
      this.joinBox = null;
      this.seatNote = null;
      this.removeAsk = null;
      // The first state is on its way.
      w.append(h("p", {}, this.table?.status === "finished" ? "This game is over. Loading the final position\u2026" : "The game is on. Loading the table\u2026"));
      return;
    }
    // The tab says where the person is (in a game, renderTitle says whose turn it is).
    document.title = `Waiting room: ${title ?? `Table ${this.tableId}`} \u2014 rummy500`;
    const n = this.seatCount();
    const names = this.names();
    const me = this.mySeat();
    // The creator frees another person's seat (never a bot's, never an open one); a second press confirms.
    const creator = !!this.me && me === 0;
    const removable = (s) => creator && s !== 0 && this.seatInfo(s).kind === "human";
    // ... and turns a bot's seat into an open one, for a person to take (no confirmation: the seat
    // gets a bot again at the start if nobody takes it).
    const openable = (s) => creator && s !== 0 && this.seatInfo(s).kind === "bot";
    if (this.removeAsk && !(removable(this.removeAsk.seat) && names[this.removeAsk.seat] === this.removeAsk.name)) this.removeAsk = null;
    // "Bob's seat is open again" is said until someone takes that seat.
    if (this.seatNote?.openSeat !== undefined && this.seatInfo(this.seatNote.openSeat).kind !== "open") this.seatNote = null;
    const list = h("ol", { class: "seat-list", dataset: { testid: "seat-list" } });
    for (let s = 0; s < n; s++) {
      const info = this.seatInfo(s);
      const bot = info.bot;
      const label = bot ? `${names[s]} (bot \u2014 ${bot})` : taken(s) ? names[s] : "open seat";
      // Who is here now (the server's `connected`): a person who closed the page is "not here".
      const here = s === me || info.connected !== false;
      const presence = info.kind === "human" ? h("span", {
        class: `presence ${here ? "here" : "gone"}`, dataset: { testid: `presence-${s}` },
      }, [h("span", { class: "sr-only" }, ", "), here ? "here" : "not here"]) : null;
      list.append(h("li", { class: taken(s) ? "taken" : "open" }, [
        label, s === me ? h("span", { class: "you" }, " (you)") : null, presence,
        removable(s) ? this.removeControls(s, names[s]) : openable(s) ? this.openSeatControl(s, names[s]) : null]));
    }
    const removeError = this.removeError ? h("p", {
      class: "field-error", role: "alert", tabindex: "-1", dataset: { testid: "remove-error" },
    }, this.removeError) : null;
    // The creator (seat 0) alone starts the game: whether they are still here is said plainly.
    const hostInfo = this.seatInfo(0);
    const host = names[0];
    const hostGone = me !== 0 && hostInfo.kind === "human" && hostInfo.connected === false;
    const hostWords = () => (hostGone
      ? h("p", { class: "host-gone", role: "status", dataset: { testid: "host-gone" } },
        `${host}, who starts the game, has left the table: the game cannot start until ${host} comes back. Ask ${host} to open the invite link again.`)
      : null);
    const invite = new URL(this.table?.invite_url ?? this.table?.invite_path ?? `/t/${this.tableId}`, location.href).href;
    // Named by the words over it (its label), which say what the link is for.
    const inviteInput = h("input", { type: "text", readonly: true, value: invite, id: "invite-link", dataset: { testid: "invite-link" } });
    const copy = h("button", { type: "button", dataset: { testid: "copy-invite" } }, "Copy");
    copy.addEventListener("click", () => this.copyField(inviteInput, copy, "Invite link copied."));
    const inviteBox = (words) => h("div", { class: "invite" }, [h("label", { for: "invite-link" }, words), h("div", { class: "row" }, [inviteInput, copy])]);
    // The table is full: the link only lets people watch, and the room says how a seat opens.
    const bots = [...Array(n).keys()].filter((s) => s !== 0 && this.seatInfo(s).kind === "bot").length;
    const fullWords = !full ? null : h("p", { class: "table-full", dataset: { testid: "table-full" } }, creator
      ? `The table is full: every seat has a player${bots ? " or a bot" : ""}, so nobody else can join. ${bots
        ? "To let someone in, press Open seat beside a bot: its seat opens for the next person to join with the invite link."
        : "To let someone in, remove a player."}`
      : this.me
        ? "The table is full: every seat is taken, so nobody else can join. Anyone who opens the link can watch."
        : `This table is full: every seat has a player${bots ? " or a bot" : ""}, so you cannot join. You can watch here: the game shows on this page once ${host} starts it.`);
    // Before the join form (kept across re-renders) and after it: a visitor (who came by the
    // link) reads whose table it is and takes a seat first; the invite link comes last for them.
    const before = [this.unreadBtns[1]];
    const after = [];
    // What just happened to a seat, said once as it happens: focused when the focus was lost with
    // the button pressed (the words are then read out), else in the page's live region (liveEl).
    // The note itself is no live region: the room is drawn again at every table message.
    const noteFocus = !!this.seatNote?.focus && lostFocus;
    if (this.seatNote) {
      before.push(h("p", {
        class: `seat-note${this.seatNote.alert ? " alert" : ""}`, tabindex: "-1", dataset: { testid: "seat-note" },
      }, this.seatNote.text));
      if (!this.seatNote.said && !noteFocus) this.announce(this.seatNote.text);
      this.seatNote = { ...this.seatNote, focus: false, said: true };
    }
    if (this.me) {
      this.joinBox = null;
      before.push(h("h2", { tabindex: "-1", dataset: { testid: "waiting-heading" } }, full ? "Ready to start: the table is full" : "Waiting for players"),
        list, removeError, fullWords);
      before.push(inviteBox(full ? "Link to watch \u2014 the table is full: whoever opens it can watch the game"
        : me === 0 ? "Invite link \u2014 send it to the people you want to play with"
          : "Invite link \u2014 send it to anyone else you want to bring along"));
      const startBtn = h("button", { type: "button", class: "primary", dataset: { testid: "start-game" } }, "Start the game");
      startBtn.addEventListener("click", () => this.startGame(startBtn));
      if (this.me.seat === 0) {
        before.push(full ? null : h("p", { class: "hint" }, "Open seats are filled with bots when you start."), startBtn);
      } else {
        before.push(hostGone ? h("p", { class: "hint" }, `You sit at seat ${this.me.seat + 1}.`)
          : h("p", { class: "hint", dataset: { testid: "host-line" } }, `You sit at seat ${this.me.seat + 1}. ${host} (who created the table) starts the game.`),
        hostWords(), this.leaveControls());
      }
    } else {
      before.push(h("h2", { tabindex: "-1", dataset: { testid: "visitor-heading" } }, title ? `You are invited: ${title}` : "You are invited to a game of Rummy 500"),
        h("p", { dataset: { testid: "visitor-intro" } }, `${host} set up this table and starts the game once everyone is here. Seats:`),
        list, hostWords(), fullWords);
      if (full) {
        // No join form to fail with "the table is full": the visitor watches.
        this.joinBox = null;
        before.push(h("p", { class: "hint" }, "Have a seat here already? It is on the device and browser you joined from: "
          + "its Play on another device link brings it here."));
      }
      after.push(inviteBox(full ? "Link to watch \u2014 to bring someone else along to watch" : "Invite link \u2014 to bring someone else along too"));
    }
    for (const node of before) if (node) w.insertBefore(node, keep);
    if (!this.me && !keep && !full) {
      const nameIn = h("input", {
        type: "text", maxlength: "24", value: this.joinName ?? storedName(), placeholder: "Your name", "aria-label": "Your name",
        "aria-describedby": "join-error", autocomplete: "nickname", dataset: { testid: "join-name" },
      });
      this.joinName = null;
      const joinBtn = h("button", { type: "submit", class: "primary", dataset: { testid: "join-table" } }, "Join this table");
      // A refused join (a name someone here has, a full table) is said next to the name, which stays for editing.
      const joinError = h("p", { class: "field-error", id: "join-error", role: "alert", hidden: true, dataset: { testid: "join-error" } });
      const form = h("form", { class: "join-form" }, [nameIn, joinError, joinBtn]);
      nameIn.addEventListener("input", () => {
        if (joinError.hidden) return;
        joinError.hidden = true;
        joinError.textContent = "";
        nameIn.removeAttribute("aria-invalid");
      });
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        this.join(nameIn.value.trim(), joinBtn, nameIn, joinError);
      });
      this.joinBox = h("div", { class: "join-box" }, [h("p", {}, "Take a seat: type your name and join. Until then you are watching."), form,
        h("p", { class: "hint" }, "Joined already on another device or browser? Your seat is there: joining here takes another seat.")]);
      w.append(this.joinBox);
    }
    for (const node of after) w.append(node);
    const found = (noteFocus && w.querySelector("[data-testid=seat-note]"))
      || (focusId && w.querySelector(`[data-testid="${focusId}"]`));
    const target = found && !found.disabled ? found : null;
    if (target) target.focus();
    else if (arrived || ((focusId || inRoom) && this.focusLost())) {
      // The control that had the focus is gone (Remove beside a seat whose person left meanwhile)
      // or disabled: the focus goes to what just happened, else the room's heading, else its list.
      (w.querySelector("[data-testid=seat-note]") ?? w.querySelector("[data-testid=waiting-heading], [data-testid=visitor-heading]")
        ?? this.focusList(list))?.focus();
    }
  }

  /** Copy a link field's text (Copy beside the invite link, the seat's link); ``done``: the toast's words. */
  async copyField(input, button, done) {
    let copied = false;
    try {
      await navigator.clipboard.writeText(input.value);
      copied = true;
    } catch {
      // No clipboard API (a page not served over HTTPS, an older browser): the selection is copied.
      input.select();
      try {
        copied = !!document.execCommand?.("copy");
      } catch {
        copied = false;
      }
    }
    toast(copied ? done : "Select the link and copy it.", copied ? "info" : "error");
    // Copied: the keyboard stays on Copy (the copy command needed the link selected, focused);
    // not copied: the link stays selected, focused, for the player to copy.
    if (!copied) return;
    if (document.activeElement === input) button.focus();
    button.textContent = "Copied";
    clearTimeout(button.copiedTimer);
    button.copiedTimer = setTimeout(() => { button.textContent = "Copy"; }, 2500);
  }

  /** The seat's link for another device, while this browser holds a seat here (none for a visitor). */
  renderDevice() {
    const me = this.me?.token ? this.me : null;
    this.devicePanel.hidden = !me;
    const link = me ? seatLink(this.tableId, me) : "";
    if (this.deviceLink.value !== link) this.deviceLink.value = link;
  }

  /**
   * The seat a link brought (seatFromLink) was refused: the token is wrong, old, or its seat was
   * given back or freed. The seat this browser had before comes back (else it watches), and the
   * page says so plainly (a note in the waiting room, the banner in a game).
   */
  linkRefused() {
    const prev = this.linked?.prev ?? null;
    this.linked = null;
    if (this.me?.fromLink) forgetSeat(this.tableId);
    if (prev) storeSeat(this.tableId, prev);
    this.me = prev;
    const text = `The link you opened holds no seat at this table: it is not whole, or it is old (its seat was given back or freed). ${
      prev ? "This browser keeps the seat it had." : this.isStarted() ? "You are watching." : "You are watching: join with your name, or ask for a new link."}`;
    this.renderDevice();
    if (this.isStarted()) {
      this.showBanner(text, true);
    } else {
      this.seatNote = { text, alert: true, focus: true };
      this.joinBox = null;
      if (this.table) this.renderWaiting();
    }
  }

  /** The seat list, made focusable (tabindex -1) to take the focus when nothing better is left. */
  focusList(list) {
    if (list && !list.hasAttribute("tabindex")) list.tabIndex = -1;
    return list;
  }

  /** The chat box and its Send button, both open or both closed (a visitor, a spectator). */
  chatOpen(open, placeholder) {
    this.chatInput.disabled = !open;
    this.chatSend.disabled = !open;
    this.chatInput.placeholder = placeholder;
  }

  /** The creator's Remove beside another person's seat: pressed once, it asks "Remove Bob?" there. */
  removeControls(s, name) {
    const ask = this.removeAsk?.seat === s;
    if (!ask) {
      return h("button", {
        type: "button", class: "chip seat-remove", "aria-label": `Remove ${name}`, dataset: { testid: `remove-seat-${s}` },
        onclick: () => {
          this.removeAsk = { seat: s, name };
          this.removeError = null;
          this.seatNote = null;
          this.focusNext = `confirm-remove-${s}`;
          this.renderWaiting();
        },
      }, "Remove");
    }
    const busy = this.removing === s;
    const cancel = () => {
      if (busy) return;
      this.removeAsk = null;
      this.focusNext = `remove-seat-${s}`;
      this.renderWaiting();
    };
    const box = h("span", { class: "remove-confirm", role: "group", "aria-label": `Remove ${name}?` }, [
      h("span", { class: "ask" }, `Free ${name}'s seat?`),
      h("button", {
        type: "button", class: "chip danger", disabled: busy, dataset: { testid: `confirm-remove-${s}` },
        "aria-label": `Yes, remove ${name}`, onclick: () => this.removeSeat(s, name),
      }, busy ? "Removing\u2026" : "Yes, remove"),
      h("button", {
        type: "button", class: "chip", disabled: busy, dataset: { testid: `cancel-remove-${s}` },
        "aria-label": `Keep ${name}`, onclick: cancel,
      }, "Keep"),
    ]);
    box.addEventListener("keydown", (e) => {
      if (e.key !== "Escape") return;
      e.preventDefault();
      cancel();
    });
    return box;
  }

  /** The creator's Open seat beside a bot: its seat becomes open for a person (POST .../seats/N/remove). */
  openSeatControl(s, name) {
    const busy = this.removing === s;
    return h("button", {
      type: "button", class: "chip seat-open", disabled: busy, dataset: { testid: `open-seat-${s}` },
      "aria-label": `Open seat ${s + 1} (${name} leaves it) for a person to join`,
      onclick: () => {
        this.removeError = null;
        this.seatNote = null;
        this.removeSeat(s, name, { bot: true });
      },
    }, busy ? "Opening\u2026" : "Open seat");
  }

  async removeSeat(s, name, { bot = false } = {}) {
    if (this.removing !== null || !this.me) return;
    this.removing = s;
    this.quietSeats.add(s); // the note says it (the table message may come before the answer)
    this.renderWaiting();
    try {
      const t = await removeSeat(this.tableId, s, this.me.token);
      this.removeAsk = null;
      this.removeError = null;
      this.seatNote = {
        text: bot
          ? `Seat ${s + 1} is open (${name} left it): the next person to join with the invite link takes it. Seats still open when you start get bots.`
          : `${name}'s seat is open again: the next person to join with the invite link takes it.`,
        openSeat: s, focus: true,
      };
      this.focusNext = null;
      this.removing = null;
      if (t && typeof t === "object" && !this.view) this.setTable(t);
      else this.renderWaiting();
    } catch (e) {
      this.removing = null;
      this.quietSeats.delete(s);
      this.removeAsk = null;
      this.removeError = e.message;
      if (this.view) {
        this.showBanner(e.message); // the game started meanwhile: the waiting room is gone
        return;
      }
      this.renderWaiting();
      (this.waiting.querySelector(`[data-testid=${bot ? "open" : "remove"}-seat-${s}]`) ?? this.waiting.querySelector("[data-testid=remove-error]"))?.focus();
    }
  }

  /** "Leave this seat" for a person seated here who did not create the table, and why it was refused. */
  leaveControls() {
    if (!this.me || this.me.seat === 0) return null;
    const btn = h("button", {
      type: "button", class: "leave", disabled: this.leaving, dataset: { testid: "leave-seat" },
      "aria-describedby": this.leaveError ? "leave-error" : null, onclick: () => this.leaveSeat(),
    }, this.leaving ? "Leaving\u2026" : "Leave this seat");
    return h("div", { class: "leave-row" }, [btn, this.leaveError
      ? h("p", { class: "field-error", id: "leave-error", role: "alert", dataset: { testid: "leave-error" } }, this.leaveError) : null]);
  }

  async leaveSeat() {
    if (!this.me || this.leaving) return;
    this.leaving = true;
    this.leaveKilled = false;
    this.leaveError = null;
    this.focusNext = "leave-seat";
    this.renderWaiting();
    const left = { text: "You left your seat. You can join again with the link.", focus: true };
    // Before the request: the server closes another tab's socket for this seat as it answers.
    const token = this.me.token;
    noteLeaving(this.tableId, token);
    try {
      const t = await leaveSeat(this.tableId, token);
      this.leaving = false;
      this.becomeVisitor(left, t);
    } catch (e) {
      this.leaving = false;
      // The socket was closed for the seat given back meanwhile: it is given back, only the answer was lost.
      if (this.leaveKilled) {
        this.becomeVisitor(left);
        return;
      }
      unnoteLeaving(this.tableId, token);
      this.leaveError = e.message;
      this.focusNext = "leave-seat";
      if (!this.view) this.renderWaiting();
      else this.showBanner(e.message); // the game started meanwhile: the waiting room is gone
    }
  }

  /**
   * This page's seat was given back (left here, or freed by the creator): forget its token, say
   * what happened (``note``), and watch as a visitor with the join form; ``table``: the facts now.
   */
  becomeVisitor(note, table) {
    const had = this.me;
    this.conn?.close();
    // Another tab of this browser may have joined again meanwhile: its seat is kept.
    if (had && seatFor(this.tableId)?.token === had.token) forgetSeat(this.tableId);
    this.me = null;
    this.renderDevice();
    this.joinName = had?.name ?? null;
    this.removeAsk = null;
    this.removeError = null;
    this.leaveError = null;
    this.seatNote = note;
    this.joinBox = null;
    this.hideBanner();
    if (table && typeof table === "object") this.setTable(table);
    else this.renderWaiting();
    this.connect();
  }

  async join(name, btn, input, errorEl) {
    const refused = (text) => {
      if (!input || !errorEl) {
        this.showBanner(text);
        return;
      }
      errorEl.textContent = text;
      errorEl.hidden = false;
      input.setAttribute("aria-invalid", "true");
      // The name stays as typed, the caret at its end, ready to be changed.
      input.focus();
      input.setSelectionRange?.(input.value.length, input.value.length);
    };
    if (!name) {
      refused("Please type your name first.");
      return;
    }
    storeName(name);
    // Pressed from the form: once seated, the focus goes to the room's heading (the form is gone).
    const fromForm = document.activeElement === input || document.activeElement === btn;
    btn.disabled = true;
    this.joiningName = name.trim();
    try {
      const res = await api("POST", `/api/tables/${encodeURIComponent(this.tableId)}/join`, { name });
      this.me = { seat: res.seat, token: res.token, name, creator: false };
      storeSeat(this.tableId, this.me);
      this.hideBanner();
      this.seatNote = null;
      if (fromForm) this.focusNext = "waiting-heading";
      this.connect();
      await this.refreshTable();
    } catch (e) {
      refused(e.message);
    } finally {
      btn.disabled = false;
      this.joiningName = null;
    }
  }

  async startGame(btn) {
    btn.disabled = true;
    try {
      const res = await api("POST", `/api/tables/${encodeURIComponent(this.tableId)}/start`, {}, this.me?.token);
      this.hideBanner();
      if (res && typeof res === "object") this.setTable(res.table ?? res);
      this.conn?.sync();
    } catch (e) {
      this.showBanner(e.message);
    } finally {
      btn.disabled = false;
    }
  }

  // ---------------------------------------------------------- messages
  onState(msg) {
    this.pendingAction = false;
    if (msg.table) {
      this.socketTables += 1;
      this.setTable(msg.table);
    }
    if (Array.isArray(msg.log)) this.log = msg.log;
    else if (msg.log) this.log.push(msg.log);
    if (!msg.view) {
      if (!this.view) this.renderWaiting();
      return;
    }
    const first = !this.view;
    const before = this.view;
    this.view = msg.view;
    if (msg.pace) {
      this.pace = msg.pace;
      this.paceAt = performance.now();
    }
    if (msg.last_round !== undefined) this.lastRound = msg.last_round;
    if (msg.table_points !== undefined) this.tablePoints = msg.table_points;
    if (this.hintShown && this.hintShown.version !== msg.version) this.hintShown = null;
    // The game has just started (the Start button went with the waiting room) or the page was
    // just loaded: the focus goes to the first move button when the player's turn comes, as it
    // does on every later turn (renderActions' kept focus), not 20 Tabs away behind the hand.
    if (first && this.focusLost()) this.keptFocus = "btn-draw";
    this.noteFloats(msg.version);
    this.noteClaims(before);
    this.announceMoves(first, before);
    this.waiting.hidden = true;
    this.board.hidden = false;
    this.scores.setNames(this.names(), this.sides()); // the view counts the seats
    // The whole score sheet comes with every state (the log only has recent rounds).
    if (Array.isArray(msg.rounds)) this.scores.setRounds(msg.rounds);
    this.trackEvents(first);
    this.scores.update(this.view);
    this.render();
    if (!first) animateArrivals(before, this.view, this.root);
    this.turnCue();
  }

  /**
   * Say the new moves in the live region (screen readers), once each: the other players' moves,
   * the player's own (a take, a meld, a discard: what the press did), and which card the player
   * drew (the public log does not say; the hand does).
   */
  announceMoves(first, before) {
    const versions = this.log.map((e) => e?.version ?? -1);
    const newest = versions.length ? Math.max(...versions) : -1;
    if (first || this.announcedVersion === null) {
      this.announcedVersion = newest;
      return;
    }
    const names = this.names();
    const me = this.mySeat();
    const fresh = this.log.filter((e) => (e?.version ?? -1) > this.announcedVersion);
    this.announcedVersion = Math.max(this.announcedVersion, newest);
    const said = [];
    for (const e of fresh) {
      if (e?.seat !== me || e.auto) said.push(entryText(e, names, this.people(), { spoken: true }));
      else if (Array.isArray(e.events) ? e.events.some((ev) => ev?.event === "drew") : verbOf(e.action ?? {}) === "draw") {
        const drawn = e.events?.find((ev) => ev?.event === "drew")?.cards ?? newCards(before?.hand, this.view.hand);
        said.push(drawn.length ? `You drew ${listWords(drawn.map(cardLabel))}` : "You drew a card");
      } else said.push(ownEntryText(e, names));
      said.push(this.floatNote(e, names, { spoken: true, own: e?.seat === me }));
    }
    const text = said.filter(Boolean).join(". ");
    if (text) this.liveEl.textContent = text;
  }

  /**
   * `going_out: unplayable_discard`: a discard that left its thrower with no cards but not out (the
   * card could be played on a table meld, so the thrower floats) is noted by its log version, so the
   * log and the live region say why the round goes on. Seen from the state right after it (its
   * version): the thrower floating with an empty hand and the round not over.
   */
  noteFloats(version) {
    const v = this.view;
    if (this.table?.rules?.going_out !== "unplayable_discard" || !v || isOver(v)) return;
    const e = this.log.find((x) => x?.kind === "action" && x.version === version);
    const events = Array.isArray(e?.events) ? e.events : [];
    const thrown = events.find((ev) => ev?.event === "discarded");
    if (!thrown || events.some((ev) => ev?.event === "left_rummy")) return;
    const seat = thrown.seat ?? e.seat;
    if (v.floating?.[seat] && v.hand_sizes?.[seat] === 0) this.floatNotes.set(version, { seat, cards: thrown.cards || [] });
  }

  /**
   * Note the Rummy! calls of the log's new entries, and where each claimed card was laid: a call
   * takes the pile down to the claimed card (the `called_rummy` event's first card), which its
   * caller then melds or lays off (the next `melded` / `laid_off` event of that seat holding it).
   * A steal lays it at once (`on` / `meld`); a stolen meld's event does not say which of its cards
   * was the one called, so it is read from the pile the page showed just before (when it did).
   */
  noteClaims(before) {
    const fresh = this.log.filter((e) => e?.kind === "action" && (e.version ?? -1) > this.claimsSeen)
      .sort((a, b) => a.version - b.version);
    for (const e of fresh) {
      this.claimsSeen = Math.max(this.claimsSeen, e.version);
      const round = e.round ?? null;
      for (const ev of Array.isArray(e.events) ? e.events : []) {
        const seat = ev?.seat ?? e.seat;
        if (ev?.event === "called_rummy") {
          const cards = (ev.cards || []).map(baseCard);
          let card = cards[0] ?? null;
          let meld = ev.on ?? null;
          if (ev.meld !== null && ev.meld !== undefined) {
            meld = ev.meld;
            const pile = before?.discard;
            const fromPile = this.conn?.version === e.version && Array.isArray(pile) ? pile[pile.length - (ev.depth ?? 1)] : null;
            card = fromPile && cards.includes(baseCard(fromPile)) ? baseCard(fromPile) : null;
          }
          this.claims.push({ round, seat, card, meld });
        } else if (ev?.event === "melded" || ev?.event === "laid_off") {
          const laid = (ev.cards || []).map(baseCard);
          const claim = this.claims.find((c) => c.round === round && c.seat === seat && c.meld === null && laid.includes(c.card));
          if (claim) claim.meld = ev.event === "melded" ? ev.meld : ev.on;
        }
      }
    }
    if (this.claims.length > 40) this.claims.splice(0, this.claims.length - 40);
  }

  /** The words of a float noted for log entry `e` (noteFloats), or "": "Not out: J♦ could be laid off — Ann floats". */
  floatNote(e, names, { spoken = false, own = false } = {}) {
    const n = this.floatNotes.get(e?.version);
    if (!n) return "";
    const cards = spoken ? listWords(n.cards.map(cardLabel)) : n.cards.map(cardText).join(" ");
    const who = own ? "you float" : `${names[n.seat] ?? `Seat ${n.seat + 1}`} floats`;
    return `Not out: ${cards} could be laid off on a meld \u2014 ${who}`;
  }

  /** A chime (unless muted) and the title when the player's turn begins. */
  turnCue() {
    const v = this.view;
    const mine = !!(v && v.to_move === this.mySeat() && (v.legal || []).length && !isOver(v));
    if (mine && !this.wasMyTurn) playTurnSound();
    this.wasMyTurn = mine;
  }

  /** Seconds left of a timer of `pace`, counted down since it arrived. */
  left(seconds) {
    return Math.max(0, seconds - (performance.now() - this.paceAt) / 1000);
  }

  /** Countdowns: the Rummy! call window, the turn clock, an away player's grace, the round summary. */
  renderTimers() {
    const el = this.timerEl;
    if (!el || !this.view) return;
    const p = this.pace || {};
    const names = this.names();
    const me = this.mySeat();
    const parts = [];
    const w = p.call_window;
    if (w && this.left(w.left) > 0) {
      const secs = this.left(w.left);
      const calls = !this.summaryHolds() && legalRummies(this.view.legal || []).length > 0;
      // The seat to move waits while the window is open (the server refuses it, "wait N s"): the
      // others call first, and its own call, if it has one, comes once the window closes.
      const toMove = this.view.to_move === me;
      const canCall = calls && !toMove;
      const words = canCall ? "Rummy! You may call now \u2014 "
        : toMove && calls ? "Rummy! The others may call first; you can call Rummy! when this window closes \u2014 "
          : toMove ? "Rummy! window \u2014 the others may call first: "
            : "Rummy! window \u2014 anyone may call: ";
      // Set through the CSSOM: the page's Content-Security-Policy refuses style attributes.
      const bar = h("span");
      bar.style.width = `${Math.round((100 * secs) / (w.seconds || 1))}%`;
      parts.push(h("div", { class: `timer call${canCall ? " mine" : ""}`, dataset: { testid: "call-window" }, role: "timer" }, [
        h("span", {}, words),
        h("b", {}, `${Math.ceil(secs)} s`),
        h("span", { class: "bar", "aria-hidden": "true" }, bar),
      ]));
    }
    const c = p.clock;
    // A player gone away is said once when their countdown starts (not at each second it shows).
    const away = c?.kind === "away" ? c.seat : null;
    if (away !== this.awaySaid) {
      this.awaySaid = away;
      this.timerLive.textContent = away === null ? ""
        : `${names[away]} is away: the computer plays for them in ${Math.ceil(this.left(c.left))} seconds.`;
    }
    if (c) {
      const secs = this.left(c.left);
      const who = c.seat === me ? "You have" : `${names[c.seat]} has`;
      const text = c.kind === "away"
        ? `${names[c.seat]} is away: the computer plays for them in ${Math.ceil(secs)} s`
        : `${who} ${Math.ceil(secs)} s for this turn${c.seat === me ? " \u2014 then the computer plays it for you" : ""}`;
      parts.push(h("div", { class: `timer clock${secs <= 10 ? " low" : ""}`, dataset: { testid: "turn-clock" }, role: "timer" }, text));
    }
    clear(el);
    el.append(...parts);
    el.hidden = !parts.length;
    const s = p.summary;
    const cd = this.roundBanner.querySelector("[data-testid=summary-countdown]");
    const next = s ? `Next round in ${Math.ceil(this.left(s.left))} s at most.` : "";
    if (cd && cd.textContent !== next) cd.textContent = next;
    // While the call window is open, the player to move waits (the server would refuse).
    const waiting = !!(w && this.left(w.left) > 0 && this.view.to_move === me);
    if (waiting !== !!this.windowWait) {
      this.windowWait = waiting;
      this.renderActions();
      this.renderPile();
    }
  }

  onError(msg) {
    // The server closes the socket right after these; the close code says it to the player.
    if (["too_many_sockets", "no_table", "bad_token", "bad_origin"].includes(msg.code)) return;
    // Ready pressed just as the round summary ran out: the next round is already on, nothing to say.
    if (msg.code === "nothing_to_ready") return;
    const text = msg.message || msg.code || "The server refused that.";
    // A chat line refused (too many messages at once, say): it goes back into the box and the
    // reason shows under it, where the player is looking (a toast would cover the box on a phone).
    // The server answers in order: the lines sent back before this error were said, so the
    // refused one is the oldest still waiting (any later ones are judged as they come back).
    const chatLost = this.chatOutbox.length > 0 && CHAT_REFUSALS.has(msg.code) && this.chatRefused(text, this.chatOutbox.slice(0, 1));
    const acted = this.pendingAction;
    this.pendingAction = false;
    this.hintAskedFor = null; // a refused hint (say, too many messages) may be asked again
    if (chatLost && !acted) {
      this.renderActions();
      return;
    }
    this.showBanner(text);
    toast(text, "error", { quiet: true }); // the banner is the alert screen readers hear
    this.renderActions();
  }

  onChat(msg, { history = false } = {}) {
    const from = this.chatFrom(msg);
    this.chatList.append(h("li", {}, [h("b", {}, `${from ?? "?"}: `), msg.text]));
    this.chatList.scrollTop = this.chatList.scrollHeight;
    // The history (sent again at each connection) is drawn, not read out: new lines only.
    if (history) return;
    // Each line is a new paragraph (lines coming together are all read); gone once read, so the
    // page read from top to bottom does not meet the lines twice.
    const said = h("p", {}, `${from ?? "?"}: ${msg.text}`);
    this.chatLive.append(said);
    setTimeout(() => said.remove(), CHAT_LIVE_MS);
    while (this.chatLive.childElementCount > CHAT_LIVE_LINES) this.chatLive.firstElementChild.remove();
    if (msg.seat === this.mySeat()) this.chatEchoed(msg.text);
    else if (!this.chatInView) this.setUnread(this.unread + 1);
  }

  /**
   * Who said a chat line: the name it was said under (the server's `from`), not whoever holds
   * that seat now (Bob said it, left, and Cal took his seat). When that is the seat's name now and
   * another seat has it too, the seat tells them apart: "Bob (seat 2)".
   */
  chatFrom(msg) {
    const s = msg.seat;
    const seated = typeof s === "number" && s >= 0 && s < this.seatCount() && !!this.table;
    if (!msg.from) return seated ? this.names()[s] : null;
    const key = (n) => String(n ?? "").trim().toLowerCase();
    if (seated && key(this.seatNames()[s]) === key(msg.from)) return this.names()[s];
    return msg.from;
  }

  /** The longest chat line the server keeps at this table. */
  chatLimit() {
    const t = this.table || {};
    return Number(t.settings?.chat_max_chars ?? t.chat_max_chars) || CHAT_LIMIT;
  }

  /** Send the line in the box; it stays there (with the reason under it) when it cannot go. */
  sendChat() {
    const text = this.chatInput.value.trim();
    if (!text) return;
    const limit = this.chatLimit();
    const n = chatLength(text);
    if (n > limit) {
      this.chatSay(`Too long to send: ${n} characters, at most ${limit}. Shorten it, then send it.`, "long");
      this.chatInput.focus();
      return;
    }
    if (!this.conn?.chat(text)) {
      this.chatSay("Not connected \u2014 not sent. Your message is kept: send it again once connected.", "error");
      return;
    }
    this.chatOutbox.push({ text, at: performance.now() });
    this.chatInput.value = "";
    this.chatRestored = null;
    this.chatKept = [];
    this.chatSay("");
    this.renderChatCount();
    this.watchChat();
  }

  /** After a while, the lines the server has not sent back were dropped: they go back in the box. */
  watchChat() {
    clearTimeout(this.chatTimer);
    if (!this.chatOutbox.length) return;
    const wait = Math.max(0, this.chatOutbox[0].at + CHAT_ECHO_MS - performance.now());
    this.chatTimer = setTimeout(() => {
      const now = performance.now();
      const late = this.chatOutbox.filter((x) => now - x.at >= CHAT_ECHO_MS);
      if (late.length) this.chatRefused("the table did not get it (too many messages at once?)", late);
      this.watchChat();
    }, wait + 20);
  }

  /** The server sent back one of this seat's lines: it was said; lines sent before it and not sent back were dropped. */
  chatEchoed(text) {
    const i = this.chatOutbox.findIndex((x) => x.text === text || chatClean(x.text) === text);
    if (i < 0) {
      // A line restored as lost and then said after all (it was late): it leaves the box.
      if (this.chatRestored && this.chatInput.value === this.chatRestored && chatClean(this.chatRestored) === text) {
        this.chatInput.value = "";
        this.chatRestored = null;
        this.chatSay("");
        this.renderChatCount();
      }
      return;
    }
    const dropped = this.chatOutbox.slice(0, i);
    this.chatOutbox.splice(0, i + 1);
    if (dropped.length) this.chatRefused("too many messages at once", dropped);
    this.watchChat();
  }

  /**
   * Lines the server refused (`lines`: all those not sent back yet) go back into the box, before
   * anything typed since, and the reason shows under it. Returns whether any line was refused.
   */
  chatRefused(reason, lines = null) {
    const lost = lines ?? [...this.chatOutbox];
    if (!lost.length) return false;
    this.chatOutbox = this.chatOutbox.filter((x) => !lost.includes(x));
    // The lines go back in the order they were typed: with those put back before, if the box was
    // left as it was; before what was typed since, if not.
    const typed = this.chatInput.value.trim();
    const untouched = !!this.chatRestored && typed === this.chatRestored;
    this.chatKept = [...(untouched ? this.chatKept ?? [] : []), ...lost].sort((a, b) => a.at - b.at);
    this.chatInput.value = [...this.chatKept.map((x) => x.text), untouched ? "" : typed].filter(Boolean).join(" ");
    this.chatRestored = this.chatInput.value;
    this.renderChatCount();
    const what = lost.length === 1 ? "Your message is" : `Your ${lost.length} messages are`;
    const why = String(reason).replace(/[.\s]+$/, "");
    this.chatSay(`Not sent: ${why}. ${what} back in the box: send again in a moment.`, "error");
    this.watchChat();
    return true;
  }

  /** The note under the chat box ("" clears it); `kind` "error" or "long" (cleared once the line fits). */
  chatSay(text, kind = "") {
    this.chatNoteKind = text ? kind : "";
    this.chatNote.className = `chat-note${kind ? ` ${kind}` : ""}`;
    if (this.chatNote.textContent !== text) this.chatNote.textContent = text;
  }

  /** The characters typed against the limit, shown from 100 short of it (red beyond it). */
  renderChatCount() {
    const limit = this.chatLimit();
    const n = chatLength(this.chatInput.value);
    const el = this.chatCount;
    // Shown near the limit: its last 100 characters (a fifth of a short limit).
    el.hidden = n <= limit - Math.min(100, Math.ceil(limit / 5));
    el.classList.toggle("over", n > limit);
    const text = n > limit ? `${n}/${limit}: ${n - limit} too many` : `${n}/${limit}`;
    if (el.textContent !== text) el.textContent = text;
    if (this.chatNoteKind === "long" && n <= limit) this.chatSay("");
  }

  /** The unread count, on its buttons and on the chat's heading. */
  setUnread(n) {
    this.unread = n;
    const words = `Chat: ${n} new`;
    for (const b of this.unreadBtns) {
      b.hidden = !n;
      b.textContent = n ? `\u2709 ${words}` : "";
      // The name starts with the words shown ("Chat: 2 new"), as a voice command would say them.
      if (n) b.setAttribute("aria-label", `${words} ${n === 1 ? "message" : "messages"}, show the chat`);
    }
    this.chatHead.textContent = n ? `Chat (${n} new)` : "Chat";
  }

  /** Bring the chat into view (the unread count clears as it shows). */
  showChat() {
    this.chatPanel.scrollIntoView({ block: "center" });
    this.chatList.tabIndex = -1;
    this.chatList.focus({ preventScroll: true });
  }

  onOther(msg) {
    if (msg.type === "table") {
      this.socketTables += 1;
      this.setTable(msg.table);
    }
    else if (msg.type === "chat_history" && Array.isArray(msg.messages)) {
      clear(this.chatList); // a reconnect sends the history again
      msg.messages.forEach((m) => this.onChat(m, { history: true }));
    } else if (msg.type === "hint") {
      if (msg.version !== this.conn?.version) return; // the game moved on meanwhile
      this.hintShown = msg;
      this.hintAskedFor = null;
      this.thinking?.remove(); // the answer is here: "Thinking..." goes
      this.thinking = null;
      this.renderActions();
    }
  }

  /** The server closed the socket for a reason the player should know (4408, 4429); the connection tries again. */
  onDropped(code, text) {
    this.dropCode = code;
    this.showBanner(text, true);
  }

  onFatal(reason, code) {
    this.dropCode = null;
    this.setConn("offline");
    if (code === 4401 && this.linked && this.me?.fromLink) {
      // The seat a link brought does not exist: say so, and watch (or take back this browser's seat).
      this.linkRefused();
      this.connect();
      return;
    }
    if (this.me && code === 4401 && this.leaving) {
      // The seat given back by this page's Leave: its answer says the rest.
      this.leaveKilled = true;
      return;
    }
    if (this.me && code === 4401 && this.table && !this.isStarted()) {
      // In the waiting room: the creator freed the seat, or another tab of this browser gave it
      // back (its Leave noted the token). The page becomes a visitor's, with the join form, and
      // watches: no retry with the dead token.
      this.becomeVisitor(leftHere(this.tableId, this.me.token)
        ? { text: "You left this table in another tab: you can join again with your name.", focus: true }
        : { text: "The table's creator freed your seat: you can join again with your name.", alert: true, focus: true });
      return;
    }
    if (this.me && code === 4401) {
      // The stored seat token is no longer valid: watch instead.
      forgetSeat(this.tableId);
      this.me = null;
      this.renderDevice();
      this.renderAgain(); // no Play again without a seat
      this.showBanner(`${reason} You are now watching.`);
      this.connect();
      return;
    }
    // A game this server cannot open (4410) stays so: the reason stays up.
    this.showBanner(reason, code === 4410);
  }

  /** Show a message above the table (for 10 s, or until hidden when `sticky`). */
  showBanner(text, sticky = false) {
    this.errorBanner.textContent = text;
    this.errorBanner.hidden = false;
    clearTimeout(this.bannerTimer);
    if (!sticky) this.bannerTimer = setTimeout(() => this.hideBanner(), 10000);
  }

  hideBanner() {
    this.errorBanner.hidden = true;
  }

  send(action) {
    if (this.pendingAction) return;
    this.hideBanner();
    // A move pressed outside the move buttons (the stock, Take, a meld as a lay-off target) is
    // drawn again when the answer comes: the focus then goes to the move buttons, as after Draw.
    const moveFocus = !this.actionsEl.contains(document.activeElement);
    if (!this.conn?.action(action)) {
      toast("Not connected \u2014 reconnecting.", "error");
      return;
    }
    this.pendingAction = true;
    this.moveFocus = moveFocus;
    this.pileDepth = null;
    if (["meld", "layoff", "discard", "swap"].includes(verbOf(action))) {
      this.hand.forgetSelection(`sent ${verbOf(action)}: selection cleared`);
    }
    this.renderActions();
  }

  // ---------------------------------------------------------- rounds
  /**
   * The server deals the next round as soon as one ends, so a round's end is
   * known from the log's `round_over` / `game_over` events (the last result
   * stays at the head of the next round's log).
   */
  trackEvents(first) {
    const log = this.log;
    for (const ev of log) if (ev?.kind === "round_over") this.scores.addRound(ev);
    let lastEnd = null;
    for (const ev of log) if (ev?.kind === "round_over" || ev?.kind === "game_over") lastEnd = ev;
    if (!lastEnd || (lastEnd.version ?? 0) <= this.endSeen) return;
    this.endSeen = lastEnd.version ?? 0;
    const tail = log[log.length - 1];
    // On a fresh load, only show a result nobody has played past yet.
    if (first && tail !== lastEnd && tail?.kind !== "game_over") return;
    this.banner = {
      round_over: log.filter((e) => e?.kind === "round_over" && e.version === lastEnd.version).pop() ?? null,
      game_over: log.filter((e) => e?.kind === "game_over").pop() ?? null,
    };
    this.bannerNew = true; // bring it into view once (on a phone it may be off screen)
  }

  // ---------------------------------------------------------- rendering
  /**
   * Whether a part of the page must be drawn again: true when `inputs` (everything the part
   * shows) differ from those it was last drawn with, which are then remembered. Parts whose
   * drawing costs (the card faces are pictures, costly to paint) skip states that leave them as
   * they were.
   */
  changed(part, inputs) {
    const key = JSON.stringify(inputs);
    if (this.drawnWith.get(part) === key) return false;
    this.drawnWith.set(part, key);
    return true;
  }

  render() {
    this.renderPlayers();
    this.renderStatus();
    this.renderPile();
    this.renderMelds();
    this.renderRoundBanner();
    this.renderMine();
    this.renderLog();
    this.renderTitle();
    this.renderRules();
    this.renderTimers();
  }

  /** The table's house rules in words (the side panel). */
  renderRules() {
    const players = this.seatCount();
    if (!this.changed("rules", [this.table?.rules, this.table?.settings, players, ruleCatalogueLoaded()])) return;
    clear(this.rulesList);
    for (const line of rulesInWords(this.table?.rules || {}, this.table?.settings || {}, players)) {
      this.rulesList.append(h("li", {}, line));
    }
  }

  renderTitle() {
    const v = this.view;
    // A read-only handle for browser tests and debugging.
    window.rummy = {
      view: v, version: this.conn?.version ?? null, pending: this.pendingAction, table: this.table,
      pace: this.pace, lastRound: this.lastRound, waiting: !!this.windowWait,
    };
    const me = this.mySeat();
    let title = `rummy500 \u2014 ${this.titleEl.textContent}`;
    if (v && v.legal?.length && v.to_move === me && !isOver(v)) title = "\u25B6 Your turn \u2014 rummy500";
    else if (v && legalRummies(v.legal || []).length) title = "\u2605 Rummy! \u2014 rummy500";
    document.title = title;
  }

  renderPlayers() {
    const el = this.players;
    clear(el);
    const v = this.view;
    const names = this.names();
    const sides = this.sides();
    const n = this.seatCount();
    el.className = `players count-${n}`; // phones lay the chips out in even rows
    const totals = v?.scores ?? [];
    // While a round's summary holds the table, nobody is to move: the next deal's first player waits too.
    const held = this.summaryHolds();
    // The game's final bonus is in its seat's total: a tag beside it says so (the sum checks out).
    const fb = this.gameOver() ? this.finalBonus() : null;
    // The points each seat has on the table this round, in the game's own points as the totals beside
    // them are (the quick game divides card points by 5: 45 card points are +9, not "+45").
    for (let s = 0; s < n; s++) {
      const onTable = this.tablePointsInGame(s);
      const side = sides ? sides.findIndex((x) => x.includes(s)) : -1;
      const info = this.seatInfo(s);
      const bot = info.bot;
      const turn = v && v.to_move === s && !isOver(v) && !held;
      // In a partnership the side's total decides the game: each partner's chip shows it.
      const sideTotal = side >= 0 && v ? sides[side].reduce((t, x) => t + (totals[x] ?? 0), 0) : null;
      const chip = h("div", {
        class: `player${turn ? " turn" : ""}${s === this.mySeat() ? " me" : ""}${side >= 0 ? ` side-${side}` : ""}`,
        dataset: { testid: `player-${s}`, seat: String(s) },
        "aria-current": turn ? "true" : false,
      }, [
        h("div", { class: "pname" }, [
          // The mark and the name stay together; on a phone "(you)" wraps under them rather than
          // cutting a short name to "B…" (style.css).
          h("span", { class: "who" }, [
            turn ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "\u25B6 ") : null,
            h("span", { class: "pn", title: names[s] }, names[s])]), // a long name is cut short on a phone (style.css)
          s === this.mySeat() ? h("span", { class: "you" }, " (you)") : null,
          turn ? h("span", { class: "turn-words" }, ", to move") : null, // spoken only (style.css)
        ]),
        h("div", { class: "pmeta" }, [
          bot ? h("span", { class: "tag" }, `bot ${bot}`) : null,
          v && v.dealer === s ? h("span", { class: "tag dealer", title: "Dealer" }, "dealer") : null,
          side >= 0 ? h("span", {
            class: `tag side side-${side}`, dataset: { testid: `side-tag-${s}` },
            title: sideTotal === null ? false : `Side ${SIDE_NAMES[side]}'s total: ${sideTotal} points`,
          }, sideTotal === null ? `side ${SIDE_NAMES[side]}` : `side ${SIDE_NAMES[side]}: ${sideTotal}`) : null,
          fb && fb.seat === s ? h("span", {
            class: "tag bonus", dataset: { testid: `final-bonus-tag-${s}` },
            title: `${totals[s] ?? 0} points, the +${fb.points} final bonus included`,
          }, `incl. +${fb.points} final bonus`) : null,
          v?.floating?.[s] ? h("span", { class: "tag float", title: "Emptied the hand without going out: goes out by discarding at a later turn" }, "floating") : null,
          info.kind === "human" && info.autoplay ? h("span", { class: "tag off" }, "away — bot plays") : null,
          info.kind === "human" && info.connected === false && !info.autoplay ? h("span", { class: "tag off" }, "away") : null,
        ]),
        v ? h("div", { class: "pstats" }, [
          // Read as "7 cards in hand, total 120 points, 45 on the table this round" (not "×7 0 pts"),
          // both in the game's points.
          h("span", { class: "sr-only" }, `${plural(v.hand_sizes?.[s] ?? 0, "card")} in hand, total ${plural(totals[s] ?? 0, "point")}`
            + (onTable ? `, ${onTable} on the table this round` : "")),
          h("span", { class: "mini-backs", "aria-hidden": "true" },
            [h("span", { class: "mini-back" }), `\u00D7${v.hand_sizes?.[s] ?? 0}`]),
          h("span", { class: "score", "aria-hidden": "true", dataset: { testid: `score-${s}` } }, [`${totals[s] ?? 0} pts`,
            onTable ? h("span", { class: "on-table", title: "points on the table this round" }, ` +${onTable}`) : null]),
        ]) : null,
        // What was seen taken from the pile, while hands are hidden: once the round is over its
        // summary shows every hand whole, and a stale "known: A♠ 4♠" would contradict it.
        v?.known?.[s]?.length && s !== this.mySeat() && !isOver(v) && !this.gameOver()
          ? h("div", { class: "known", "aria-label": `Known cards in ${names[s]}'s hand: ${v.known[s].map(cardLabel).join(", ")}` },
            ["known: ", suitedText(v.known[s].map(cardText).join(" "))])
          : null,
      ]);
      el.append(chip);
    }
  }

  /**
   * Seat ``s``'s points on the table this round (the server counts card points) in the game's own
   * points: divided by the rules' score_divisor and rounded as a round's score is, so they add to
   * the total beside them. 0 when none.
   */
  tablePointsInGame(s) {
    const points = Number(this.tablePoints?.[s] ?? 0);
    if (!points) return 0;
    const divisor = Number(this.table?.rules?.score_divisor ?? 1);
    if (!(divisor > 1)) return points;
    const q = Math.floor(Math.abs(points) / divisor) + (2 * (Math.abs(points) % divisor) >= divisor ? 1 : 0); // half away from zero
    return points < 0 ? -q : q;
  }

  renderStatus() {
    const v = this.view;
    const me = this.mySeat();
    const names = this.names();
    if (!v) {
      clear(this.statusLine);
      return;
    }
    // Drawn aside and written only when what it says changes.
    const el = document.createElement("div");
    let text;
    if (this.gameOver()) {
      const go = this.gameOverEvent();
      const won = go ? this.standings(go, names).filter((g) => g.won) : [];
      text = won.length ? `Game over: ${won.map((g) => g.label).join(" & ")} won.` : "Game over.";
    }
    else if (this.pace?.summary) text = `Round ${this.pace.summary.round + 1} is over: the next round starts when everyone is ready.`;
    else if (isOver(v)) text = "Round over.";
    else if (v.phase === "nominate") text = v.to_move === me ? "You are the dealer: nominate what jokers do this hand." : `${names[v.to_move]} is nominating what jokers do.`;
    else if (v.to_move === me && v.phase === "draw") text = `Your turn: ${this.drawWords() ?? "draw from the stock or take from the pile."}`;
    else if (v.to_move === me) text = "Your turn: meld, lay off, then discard.";
    else text = `${names[v.to_move]} to ${v.phase === "draw" ? "draw" : "play"}.`;
    if (me === null || me === undefined || v.hand === null) text = `Watching. ${text}`;
    el.append(h("span", {}, text));
    if (v.gambit || v.dealer_joker) {
      // Dealer's Gambit: what the dealer nominated, and where the dealer's joker is.
      const mode = GAMBIT_WORDS[v.gambit];
      const dj = DEALER_JOKER_WORDS[v.dealer_joker];
      el.append(h("span", { class: "gambit", dataset: { testid: "gambit" }, title: mode?.[1] ?? "" }, [
        v.gambit ? `${names[v.dealer]} nominated: jokers ${v.gambit}` : "Dealer's Gambit",
        dj ? h("span", { class: "dj" }, ` \u00B7 dealer's joker ${dj}`) : null,
      ]));
    }
    if (v.obligation) {
      const who = v.to_move === me ? "You must" : `${names[v.to_move]} must`;
      el.append(h("span", { class: "obligation", dataset: { testid: "obligation" } },
        [`${who} use `, cardEl(v.obligation, { small: true }), " this turn (taken from the pile)."]));
    }
    setContent(this.statusLine, [...el.childNodes]);
  }

  /**
   * What the player to draw may do when the stock is empty, from the legal list (a sentence in a
   * player's words), or null while the stock has cards: a pass ends the round (`stock_out:
   * end_round`), and under `play_on` the player must take from the pile while a card may be taken.
   */
  drawWords() {
    const v = this.view;
    if (!v || v.stock_count > 0) return null;
    const legal = v.legal || [];
    const takes = legal.some((a) => verbOf(a) === "take");
    const pass = legal.some((a) => verbOf(a) === "pass");
    if (takes && pass) return "the stock is empty: take from the pile, or pass to end the round.";
    if (takes) return "the stock is empty: you must take from the pile.";
    if (pass) return "the stock is empty and no card of the pile may be taken: pass to end the round.";
    return "the stock is empty.";
  }

  /** Whether a round summary holds the table: nobody may move until it goes (the server refuses). */
  summaryHolds() {
    return !!this.pace?.summary;
  }

  /** The moves this seat may make now: the view's `legal`, none while a round summary holds the table. */
  legalNow() {
    return this.summaryHolds() ? [] : (this.view?.legal || []);
  }

  renderPile() {
    const v = this.view;
    if (this.pileDepth && this.pileDepth > (v.discard || []).length) this.pileDepth = null;
    // Most states (a card selected, an opponent's meld) leave the pile as it was.
    const held = this.summaryHolds(); // nothing may be taken
    if (held) this.pileDepth = null;
    if (!this.changed("pile", [v.discard, v.stock_count, v.legal, !!this.windowWait, held, this.pendingAction, this.pileDepth])) return;
    // The buttons are drawn again: the focused one (a pile card pressed to see what comes with
    // it, Cancel) keeps the focus. After a move made here it goes to the move buttons instead.
    const active = document.activeElement;
    const kept = !this.moveFocus && [this.stockEl, this.pileEl, this.pilePreview].some((x) => x.contains(active))
      ? active.dataset.testid : null;
    clear(this.stockEl);
    clear(this.pileEl);
    const legal = this.windowWait ? [] : this.legalNow();
    const takes = legalTakes(legal);
    const rummies = legalRummies(legal);
    const canDraw = legal.find((a) => verbOf(a) === "draw");
    const stockBtn = h("button", {
      type: "button", class: "stock card back", dataset: { testid: "stock" },
      "aria-label": `Stock, ${plural(v.stock_count, "card")}${canDraw ? ", draw a card" : ""}`,
      disabled: !canDraw || this.pendingAction,
    });
    stockBtn.addEventListener("click", () => canDraw && this.send(canDraw));
    this.stockEl.append(h("h2", { class: "label" }, "Stock"), stockBtn,
      h("div", { class: "count", dataset: { testid: "stock-count" } }, plural(v.stock_count, "card")));

    const pile = v.discard || [];
    this.pileEl.classList.toggle("choosing", takes.size > 0 || rummies.length > 0);
    pile.forEach((c, i) => {
      const depth = pile.length - i; // 1 = top card
      const usable = takes.has(depth) || rummies.some((r) => r.rummy === depth);
      const el = cardEl(c, { tag: "button", testid: `pile-card-${depth}`, extraLabel: depth === 1 ? "top of the pile" : `${ordinal(depth)} from the top` });
      el.type = "button";
      el.classList.add("pile-card");
      if (usable) el.classList.add("usable");
      if (rummies.some((r) => r.rummy === depth)) el.classList.add("callable");
      if (this.pileDepth && depth <= this.pileDepth) el.classList.add("coming");
      if (this.pileDepth === depth) el.classList.add("chosen");
      // Not takeable now: looks it (dimmed), and a tap says why instead of doing nothing.
      if (!usable) el.setAttribute("aria-disabled", "true");
      else el.setAttribute("aria-pressed", this.pileDepth === depth ? "true" : "false");
      el.addEventListener("click", () => {
        if (!usable) {
          this.say(this.whyNotTake(depth, takes));
          return;
        }
        this.pileDepth = this.pileDepth === depth ? null : depth;
        this.renderPile();
        this.renderActions();
        // Take and Cancel come into view, above the pinned hand (the page's scroll padding).
        if (this.pileDepth) this.showPilePreview();
      });
      this.pileEl.append(el);
    });
    if (!pile.length) this.pileEl.append(h("p", { class: "hint" }, "The discard pile is empty."));
    // keep the top of a long pile in view
    requestAnimationFrame(() => { this.pileEl.scrollLeft = this.pileEl.scrollWidth; });
    this.renderPilePreview();
    if (kept) this.focusPileButton(kept);
  }

  /**
   * Bring the pile's preview (what comes with the card, Take, Cancel) into view: the page's
   * scroll padding (--hand-h) keeps it above the pinned hand. Scrolled only as far as needed.
   */
  showPilePreview() {
    const row = this.pilePreview.querySelector(".row") ?? this.pilePreview;
    const box = row.getBoundingClientRect();
    const handTop = this.board.classList.contains("hand-loose") || this.board.classList.contains("summary-open")
      ? window.innerHeight : this.myArea.getBoundingClientRect().top;
    if (box.bottom > Math.min(handTop, window.innerHeight) || box.top < 0) this.pilePreview.scrollIntoView({ block: "nearest" });
  }

  /** Focus the stock's, the pile's or the preview's button ``testid``, where it is enabled. */
  focusPileButton(testid) {
    const b = this.board.querySelector(`.center-row [data-testid="${CSS.escape(testid)}"]`);
    if (b && !b.disabled) b.focus({ preventScroll: true });
  }

  /** Why the pile card at ``depth`` cannot be taken now, in a player's words. */
  whyNotTake(depth, takes) {
    const v = this.view;
    const me = this.mySeat();
    if (v.hand === null || v.hand === undefined) return "You are watching: only players take cards.";
    if (isOver(v)) return "The round is over.";
    if (this.summaryHolds()) return "The round is over: the next deal starts when everyone is ready.";
    if (v.to_move !== me) return `It is ${this.names()[v.to_move]}'s turn: wait for yours to take from the pile.`;
    if (v.phase !== "draw") return "You have already drawn this turn: meld, lay off, then discard.";
    // The Rummy! call window: the seat to move waits for the others (the server would refuse it).
    if (this.windowWait) return "Wait a moment: the other players may call Rummy! first; then the pile is yours to take from.";
    if (takes.size === 1 && takes.has(1)) return "Only the top card of the discard pile may be taken in this game.";
    return `You could not use the ${cardText(v.discard[v.discard.length - depth])} this turn, so you may not take it.`;
  }

  /** Tell the player something at once (the hint line is a live region; the toast is only seen). */
  say(text) {
    this.hintEl.textContent = text;
    return toast(text, "info", { quiet: true });
  }

  /**
   * The pile preview in words, in its live region (written when it changes, or it is read again):
   * ``parts`` are [id, sentence]; the Take buttons are described by theirs.
   */
  sayPile(parts) {
    setContent(this.pileLive, parts.map(([id, text]) => h("span", { id }, `${text} `)));
  }

  renderPilePreview() {
    const el = this.pilePreview;
    clear(el);
    const v = this.view;
    const d = this.pileDepth;
    if (!d) {
      this.sayPile([]);
      return;
    }
    const pile = v.discard || [];
    const cards = pile.slice(pile.length - d); // bottom-first: chosen card first
    const takes = (v.legal || []).filter((a) => verbOf(a) === "take" && a.take === d);
    const takeAct = takes.find((a) => !a.split);
    const splitAct = takes.find((a) => a.split); // Dealer's Gambit "split": spend a joker
    const rummyActs = legalRummies(v.legal || []).filter((a) => a.rummy === d);
    // calling_rummy: steal: a call takes only the claimed card and lays it at once (no cards above it).
    const steal = !!v.calls_steal && rummyActs.length > 0;
    const spoken = [];
    if (takeAct || (!splitAct && !steal)) {
      spoken.push(["pile-say-take", d === 1 ? `Take the top card, ${cardLabel(cards[0])}.`
        : `Take ${d} cards: ${listWords(cards.map(cardLabel))}. You must use the ${cardLabel(cards[0])} this turn.`]);
      el.append(h("p", {}, d === 1
        ? ["Take the top card ", cardEl(cards[0], { small: true })]
        : [`Take ${d} cards: `, ...cards.map((c) => cardEl(c, { small: true })),
          h("span", { class: "hint" }, ` \u2014 you must use the ${cardText(cards[0])} this turn.`)]));
    }
    if (splitAct) {
      spoken.push(["pile-say-split", `Split: spend a joker to take only the ${cardLabel(cards[0])}; the ${d - 1} card${d > 2 ? "s" : ""} above it leave play for this hand.`]);
      el.append(h("p", { dataset: { testid: "split-preview" } }, [
        "Split: spend a joker to take only the ", cardEl(cards[0], { small: true }),
        h("span", { class: "hint" }, ` \u2014 the ${d - 1} card${d > 2 ? "s" : ""} above it leave play for this hand; you must use the ${cardText(cards[0])} this turn.`)]));
    }
    if (steal) {
      spoken.push(["pile-say-rummy", `Rummy!: claim only the ${cardLabel(cards[0])}; it goes on the table in front of you at once, and play goes on as before.`]);
      el.append(h("p", { dataset: { testid: "rummy-preview" } }, [
        "Rummy! Claim only the ", cardEl(cards[0], { small: true }),
        h("span", { class: "hint" }, " \u2014 it goes on the table in front of you at once; play goes on as before.")]));
    }
    const row = h("div", { class: "row" });
    if (takeAct) {
      const b = h("button", { type: "button", class: "primary", "aria-describedby": "pile-say-take", dataset: { testid: "btn-take" } }, d === 1 ? "Take it" : `Take ${d} cards`);
      b.addEventListener("click", () => this.send(takeAct));
      row.append(b);
    }
    if (splitAct) {
      const b = h("button", { type: "button", class: takeAct ? "" : "primary", "aria-describedby": "pile-say-split", dataset: { testid: "btn-take-split" } }, `Split: take the ${cardText(cards[0])}`);
      b.addEventListener("click", () => this.send(splitAct));
      row.append(b);
    }
    rummyActs.forEach((a, i) => {
      const b = h("button", {
        type: "button", class: "rummy", "aria-describedby": steal ? "pile-say-rummy" : false,
        dataset: { testid: i ? `btn-rummy-pile-${i}` : "btn-rummy-pile" },
      }, suitedText(describe(a, pile)));
      b.addEventListener("click", () => this.send(a));
      row.append(b);
    });
    const cancel = h("button", { type: "button", dataset: { testid: "btn-take-cancel" } }, "Cancel");
    cancel.addEventListener("click", () => this.cancelPileChoice());
    row.append(cancel);
    el.append(row);
    this.sayPile(spoken);
  }

  /** Close the pile's preview (Cancel, Escape): the focus goes back to the card the player had chosen. */
  cancelPileChoice() {
    const d = this.pileDepth;
    if (!d) return;
    this.pileDepth = null;
    this.renderPile();
    this.renderActions();
    this.focusPileButton(`pile-card-${d}`);
  }

  renderMelds() {
    const v = this.view;
    const el = this.meldsEl;
    const names = this.names();
    const melds = v.melds || [];
    const sel = this.hand.selectedCards();
    const legal = this.legalNow(); // nothing is laid off behind a round summary
    const layoffs = sel.length && melds.length ? selectionChoices(legal, sel).layoffs : new Map();
    const sides = this.sides();
    // A tap on a card of the hand changes the melds only when it makes one a lay-off target, or no longer one.
    if (!this.changed("melds", [melds, names, sides, this.mySeat(), [...layoffs]])) return;
    clear(el);
    if (!melds.length) {
      el.append(h("p", { class: "hint" }, "No melds yet."));
      return;
    }
    const byOwner = new Map();
    for (const m of melds) {
      const owner = m.owner; // the seat that laid the meld down (the server says)
      if (!byOwner.has(owner)) byOwner.set(owner, []);
      byOwner.get(owner).push(m);
    }
    for (const owner of [...byOwner.keys()].sort((a, b) => a - b)) {
      const side = sides ? sides.findIndex((x) => x.includes(owner)) : -1;
      const group = h("div", { class: `meld-group${side >= 0 ? ` side-${side}` : ""}`, dataset: { testid: `melds-of-${owner}` } },
        [h("h3", {}, `${names[owner] ?? `Seat ${owner + 1}`}${owner === this.mySeat() ? " (you)" : ""}`)]);
      const row = h("div", { class: "meld-row" });
      for (const m of byOwner.get(owner)) {
        const target = layoffs.get(m.id);
        const meld = h(target ? "button" : "div", {
          class: `meld${target ? " target" : ""}`,
          dataset: { testid: `meld-${m.id}`, meld: String(m.id) },
          "aria-label": `Meld ${m.id + 1}${m.kind ? `, a ${m.kind}` : ""}${target ? ". Lay off the selected cards here" : ""}`,
          type: target ? "button" : false,
          role: target ? false : "group",
        });
        meld.append(h("span", { class: "meld-id", "aria-hidden": "true" }, `#${m.id + 1}`));
        const cards = h("div", { class: "meld-cards" });
        m.cards.forEach((c, i) => {
          const by = m.laid_by?.[i];
          const other = by !== undefined && by !== owner;
          const ce = cardEl(c, { small: true, extraLabel: `laid by ${names[by] ?? `seat ${by + 1}`}` });
          if (other) {
            ce.classList.add("laid-off");
            ce.append(h("span", { class: "by", "aria-hidden": "true", title: `laid off by ${names[by]}` }, initials(names[by], by)));
          }
          cards.append(ce);
        });
        meld.append(cards);
        if (target) meld.addEventListener("click", () => this.playChoice(target, "Lay off: what does the joker stand for?"));
        row.append(meld);
      }
      group.append(row);
      el.append(group);
    }
  }

  renderRoundBanner() {
    const el = this.roundBanner;
    const held = this.pace?.summary ?? null;
    // Everyone is ready: play on. A watcher (no hand, no Ready to press) keeps the result until
    // they close it (Continue): the players' Ready must not take it from under their eyes.
    const watching = this.view?.hand === null || this.view?.hand === undefined;
    if (this.heldBefore && !held && !this.banner?.game_over && !watching) this.banner = null;
    this.heldBefore = !!held;
    const b = this.banner;
    // While a result shows, the hand stops sticking to the screen's bottom so it never covers the result.
    const showing = !!held || !!(b && (b.round_over || b.game_over));
    this.board.classList.toggle("summary-open", showing);
    this.measureHand();
    if (!showing) {
      el.hidden = true;
      clear(el);
      this.drawnWith.delete("banner");
      return;
    }
    el.hidden = false;
    if (this.bannerNew) {
      this.bannerNew = false;
      const over = !!b?.game_over;
      requestAnimationFrame(() => {
        // The game's end: its heading, the winner and the final totals come first, so the banner's
        // start is shown (on a phone "nearest" lined up its bottom: the last round's rows of cards,
        // with the result a screen above). A round's summary: brought into view, its Ready focused.
        el.scrollIntoView({ block: over ? "start" : "nearest" });
        if (!over) return;
        // The keyboard's place: the result's heading (the move buttons are gone), read from the top.
        const active = document.activeElement;
        if (this.focusLost(active) || this.actionsEl.contains(active)) {
          el.querySelector("h2")?.focus({ preventScroll: true });
        }
      });
    }
    const names = this.names();
    const me = this.mySeat();
    // The summary's card faces are pictures: drawn again only when what it shows changes (not
    // at every state while it is held; the countdown is written into it by renderTimers).
    const inputs = [held && { ...held, left: null }, b, this.lastRound, names, this.sides(), me,
      this.readySent, this.view?.hand != null, this.view?.scores, this.tableId, this.table?.rules, this.claims.length];
    if (!this.changed("banner", inputs)) return;
    // Play again's controls are kept across redraws: one of them focused keeps the focus.
    const againFocus = [this.againBtn, this.watchNextLink].find((x) => x && x === document.activeElement) ?? null;
    clear(el);
    const ro = b?.round_over ?? null;
    const go = b?.game_over ?? null;
    const summary = held ?? (this.lastRound && (!ro || this.lastRound.round === ro.round) ? this.lastRound : null);
    const round = summary?.round ?? ro?.round ?? 0;
    el.append(h("h2", { tabindex: "-1", dataset: { testid: "round-over-heading" } }, go ? `Game over \u2014 round ${round + 1} scored` : `Round ${round + 1} over`));
    // At the game's end the winner and the final totals come first (on a phone the last round's
    // rows of cards fill screens), then the last round.
    if (go) {
      this.renderGameOver(el, go, names, summary);
      // What to do next comes with the result, not below the last round's rows of cards.
      const id = encodeURIComponent(this.tableId);
      // A seated player's first choice is Play again (the same people, rules and bots); a
      // spectator's is the replay, and Watch the next game once one is opened.
      const again = this.againControls();
      el.append(h("div", { class: "row game-over-links" }, [
        again.button, again.watch,
        this.replayLink = h("a", { href: `/#replay/${id}`, class: "button", dataset: { testid: "game-over-replay" } }, "Replay this game"),
        // The review of the game's moves (for a player: its panel on the replay page, brought into view).
        this.mySeat() !== null && this.mySeat() !== undefined && this.view?.hand != null
          ? h("a", { href: `/#replay/${id}/review`, class: "button", dataset: { testid: "game-over-review" } }, "Review your moves") : null,
        h("a", { href: `/api/games/${id}/record`, download: `rummy500-${this.tableId}.json`, class: "button", dataset: { testid: "game-over-download" } }, "Download record"),
        h("a", { href: "/", class: "button", dataset: { testid: "game-over-new" } }, "New game"),
      ]), again.notes);
      this.renderAgain();
      againFocus?.focus({ preventScroll: true });
      el.append(h("h3", { class: "final-head" }, `Round ${round + 1}`));
    }
    const out = summary ? summary.went_out : ro?.went_out;
    el.append(h("p", {}, out !== null && out !== undefined ? `${names[out]} went out.` : "Nobody went out: the stock ran out."));
    if (summary) el.append(this.summaryTable(summary, names));
    else if (ro?.round_scores) {
      el.append(h("ul", { class: "round-scores", dataset: { testid: "round-scores" } }, ro.round_scores.map((sc, i) =>
        h("li", {}, [h("span", {}, names[i]), h("b", {}, `${sc > 0 ? "+" : ""}${sc}`),
          h("span", { class: "hint" }, `(total ${ro.totals?.[i] ?? "?"})`)]))));
    }
    const row = h("div", { class: "row" });
    if (held && !go) {
      const mineReady = held.ready.includes(me) || this.readySent === held.round;
      const seated = me !== null && me !== undefined && this.view?.hand != null;
      if (seated && !mineReady) {
        const ok = h("button", { type: "button", class: "primary", dataset: { testid: "round-over-ok" } }, "Ready for the next round");
        ok.addEventListener("click", () => {
          this.readySent = held.round;
          this.conn?.send({ type: "ready" });
          const focused = document.activeElement === ok;
          this.renderRoundBanner();
          // The button is gone: the focus waits on the moves (Draw once the next round lets you move).
          if (focused) {
            this.keptFocus = "btn-draw";
            this.parkFocus();
          }
        });
        row.append(ok);
        // The keyboard goes to Ready unless the player is elsewhere (typing a chat message, say):
        // from the page, or from the moves' toolbar, where it waits while no move can be pressed.
        requestAnimationFrame(() => {
          const active = document.activeElement;
          if (this.focusLost(active) || active === this.actionsEl) ok.focus();
        });
      }
      // "Waiting for you and Bob." (you first, never by your own name; "you" only while your Ready is to press).
      const others = held.waiting.filter((s) => s !== me).map((s) => names[s] ?? `Seat ${s + 1}`);
      const waiting = [...(seated && !mineReady && held.waiting.includes(me) ? ["you"] : []), ...others];
      row.append(h("span", { class: "hint", dataset: { testid: "summary-waiting" } },
        waiting.length ? `Waiting for ${listWords(waiting)}.` : "Starting the next round\u2026"));
      row.append(h("span", { class: "hint", dataset: { testid: "summary-countdown" } }, ""));
    } else if (!go) {
      const ok = h("button", { type: "button", class: "primary", dataset: { testid: "round-over-ok" } }, "Continue");
      ok.addEventListener("click", () => {
        this.banner = null;
        this.renderRoundBanner();
      });
      row.append(ok, h("span", { class: "hint" }, "The next round has been dealt."));
    }
    if (row.childElementCount) el.append(row);
  }

  /**
   * Each seat's melded points against the points left in hand, any bonus for going out, the
   * round's score and the total. In a partnership the partners sit together under their side's
   * row: the side's round score and total (what decides the game).
   */
  summaryTable(summary, names) {
    const sign = (x) => `${x > 0 ? "+" : ""}${x}`;
    const bonusCol = summary.seats.some((x) => x.bonus);
    const sides = this.sides();
    // The round that decided the game with a final bonus: the seats' totals as sent include it. Each
    // row shows its total before it, and a row of its own adds it, as the score sheet does: every row
    // adds up (total before + Round), and the bonus row (+50) gives the total with it.
    const fb = summary.final_bonus && summary.final_bonus.points ? summary.final_bonus : null;
    const before = (x) => x.total - (fb && x.seat === fb.seat ? fb.points : 0);
    const claims = this.summaryClaims(summary);
    const bonusRow = (who, total) => h("tr", { class: "final-bonus-row", dataset: { testid: "summary-final-bonus" } }, [
      h("th", { scope: "row" }, ["Final bonus", h("span", { class: "sub" }, ` (${who}: total incl. bonus)`)]),
      h("td", { colspan: bonusCol ? "3" : "2" }, ""),
      h("td", { class: "num", dataset: { testid: "final-bonus-points" } }, h("b", {}, `+${fb.points}`)),
      h("td", { class: "num", dataset: { testid: "final-bonus-total" } }, h("b", {}, String(total))),
    ]);
    const seatRow = (x) => h("tr", { dataset: { testid: `summary-${x.seat}` } }, [
      h("th", { scope: "row" }, [
        // The name and its marks on one line; on a phone a long name is cut short ("…", all of it
        // in its title and in what a screen reader reads), so the figures beside it always show.
        h("span", { class: "sum-who" }, [
          h("span", { class: "sum-name", title: names[x.seat] }, names[x.seat]),
          x.seat === this.mySeat() && this.view?.hand != null ? h("span", { class: "you" }, " (you)") : null,
          x.seat === summary.went_out ? h("span", { class: "out" }, " \u2605 out") : null,
          x.seat === summary.masters ? h("span", { class: "out", dataset: { testid: "summary-masters-tag" } }, " \u00B7 Master's Hand") : null]),
        // Each row of cards says what it is: the cards left in hand (they count against), the melds (for).
        x.hand.length ? h("div", { class: "left-cards", role: "group", "aria-label": `left in hand: ${x.hand.map(cardLabel).join(", ")}` },
          [h("span", { class: "what", "aria-hidden": "true" }, "left in hand"), ...x.hand.map((c) => cardEl(c, { small: true }))]) : null,
        // The cards this seat laid as the round ended, meld by meld (its melds and its lay-offs on
        // anyone's): what its "Melded" points count. Cards others laid off on its melds are theirs.
        this.summaryMelds(summary, x.seat, names, claims)]),
      h("td", { class: "num", dataset: { testid: "melded" } }, `+${x.melded}`),
      h("td", { class: "num", dataset: { testid: "in-hand" } }, String(x.in_hand)),
      bonusCol ? h("td", { class: "num", dataset: { testid: "bonus" }, title: x.bonus ? "for going out" : false },
        x.bonus ? [`+${x.bonus}`, h("span", { class: "sr-only" }, " for going out")] : "") : null,
      h("td", { class: "num" }, h("b", {}, sign(x.round_score))),
      h("td", { class: "num", dataset: { testid: "total" } }, String(before(x))),
    ]);
    const groups = sides
      ? sides.map((seats, i) => {
        const mine = summary.seats.filter((x) => seats.includes(x.seat));
        const sum = (f) => mine.reduce((t, x) => t + (f(x) ?? 0), 0);
        const theirs = fb && seats.includes(fb.seat);
        return h("tbody", { class: `side-group side-${i}` }, [
          h("tr", { class: "side-row", dataset: { testid: `summary-side-${i}` } }, [
            h("th", { scope: "row" }, [`Side ${SIDE_NAMES[i]}`, h("span", { class: "sub" }, ` (${seats.map((s) => names[s]).join(" & ")})`)]),
            h("td", { colspan: bonusCol ? "3" : "2" }, ""),
            h("td", { class: "num", dataset: { testid: "side-round" } }, h("b", {}, sign(sum((x) => x.round_score)))),
            h("td", { class: "num", dataset: { testid: "side-total" } }, h("b", {}, String(sum(before)))),
          ]),
          ...mine.map(seatRow),
          theirs ? bonusRow(`Side ${SIDE_NAMES[i]}`, sum((x) => x.total)) : null,
        ]);
      })
      : [h("tbody", {}, summary.seats.flatMap((x) => [seatRow(x),
        fb && x.seat === fb.seat ? bonusRow(names[x.seat] ?? `Seat ${x.seat + 1}`, x.total) : null]))];
    const table = h("table", { class: `summary${sides ? " by-side" : ""}`, dataset: { testid: "round-summary" } }, [
      h("thead", {}, h("tr", {}, [h("th", { scope: "col" }, sides ? "Side / player" : "Player"), h("th", { scope: "col" }, "Melded"),
        h("th", { scope: "col" }, "Left in hand"), bonusCol ? h("th", { scope: "col" }, "Bonus") : null,
        h("th", { scope: "col" }, "Round"), h("th", { scope: "col" }, "Total")])),
      ...groups,
    ]);
    // Where "Round" is not Melded minus Left in hand, a line under the table says how it comes.
    const notes = this.summaryNotes(summary, names, bonusCol, claims);
    return notes.length ? h("div", { class: "summary-wrap" }, [table, ...notes]) : table;
  }

  /**
   * The lines under a round's summary that say how "Round" comes from the points where it is not
   * Melded minus Left in hand: a Master's Hand (`masters`: 500 for the round), the house rules'
   * `hand_penalty: to_goer` (the hands left score for the player who went out), `stock_out_penalty:
   * false` (no hand counts when the stock ran out), and a score divisor (the quick game).
   */
  summaryNotes(summary, names, bonusCol, claims = null) {
    const rules = this.table?.rules || {};
    const divisor = Number(rules.score_divisor ?? 1);
    const note = (testid, text) => h("p", { class: "hint summary-note", dataset: { testid } }, text);
    const out = [];
    const masters = summary.masters;
    const goer = summary.went_out;
    const named = (s) => names[s] ?? `Seat ${s + 1}`;
    if (masters !== null && masters !== undefined) {
      const divided = divisor > 1 ? ` \u00F7 ${divisor}` : "";
      out.push(note("summary-masters", `Master's Hand: 500 for ${named(masters)}, who laid down a run of 7 or more cards and went out`
        + ` by discarding in the same turn: ${named(masters)}'s Round = 500${divided}, whatever the cards; the others score as usual.`));
    }
    const sides = this.sides();
    if (goer === null || goer === undefined) {
      if (rules.stock_out_penalty === false) {
        out.push(note("summary-hands", "The stock ran out: at this table cards left in hand then count for nobody, so Round = Melded."));
      } else if (rules.hand_penalty === "to_goer") {
        const count = sides ? sides.length : summary.seats.length;
        out.push(note("summary-hands", count === 2
          ? `Nobody went out: cards left in hand count for the other ${sides ? "side" : "player"}, so Round = Melded + the other ${sides ? "side's" : "player's"} Left in hand.`
          : "Nobody went out: cards left in hand count for nobody at this table, so Round = Melded."));
      }
    } else if (rules.hand_penalty === "to_goer" && goer !== masters) {
      const others = sides ? "the other side's" : "the others'";
      out.push(note("summary-hands", `Cards left in hand count for the player who went out, not against their holders: `
        + `${named(goer)}'s Round = Melded + ${others} Left in hand${bonusCol ? " + Bonus" : ""}; everyone else's Round = Melded.`));
    }
    // rummy_card_value: 15: a claimed card counts 15 in its claimer's Melded, whatever its face says.
    if (claims?.value) {
      const marked = claims.marked.map((c) => `${named(c.seat)}'s ${cardText(c.card)}`);
      const which = marked.length ? ` (here ${listWords(marked)})` : "";
      out.push(note("summary-rummy", `Rummy!: at this table a card claimed by calling Rummy! scores ${claims.value} in its claimer's Melded,`
        + ` whatever its face value${which}.`));
    }
    // With a score divisor (the quick game) "Round" is not melded minus in hand: say how it comes.
    if (divisor > 1) {
      const points = rules.hand_penalty === "to_goer" ? "the card points" : `(Melded \u2212 Left in hand${bonusCol ? " + Bonus" : ""})`;
      out.push(note("summary-divisor", `Round = ${points} \u00F7 ${divisor}, rounded: scores at this table are divided by ${divisor}.`));
    }
    return out;
  }

  /**
   * Where the round's claimed cards lie in ``summary``'s melds, when they score a value of their own
   * (rummy_card_value: 15; else null): {value, at: Set of "meldId:index", marked: [{seat, card}],
   * known}. A meld's `claimed` flags (one a card) say it where the server sends them; else the
   * calls the page read in the log (noteClaims) are looked for among the cards their caller laid.
   */
  summaryClaims(summary) {
    const value = Number(this.table?.rules?.rummy_card_value);
    if (!Number.isFinite(value)) return null;
    const at = new Set();
    const marked = [];
    const melds = summary.melds || [];
    const by = (m, i) => (m.laid_by ? m.laid_by[i] : m.owner);
    const flagged = melds.some((m) => Array.isArray(m.claimed));
    if (flagged) {
      for (const m of melds) {
        (m.claimed || []).forEach((f, i) => {
          if (!f) return;
          at.add(`${m.id}:${i}`);
          marked.push({ seat: by(m, i), card: m.cards[i] });
        });
      }
    }
    const calls = this.claims.filter((c) => c.round === summary.round);
    if (!flagged) {
      for (const c of calls) {
        const m = melds.find((x) => x.id === c.meld);
        if (!m || !c.card) continue;
        const i = m.cards.findIndex((card, k) => baseCard(card) === c.card && by(m, k) === c.seat && !at.has(`${m.id}:${k}`));
        if (i < 0) continue;
        at.add(`${m.id}:${i}`);
        marked.push({ seat: c.seat, card: m.cards[i] });
      }
    }
    // Nothing to say about a round without a call (or one the page did not see).
    if (!marked.length && !calls.length) return null;
    return { value, at, marked };
  }

  /**
   * The cards ``seat`` laid this round, meld by meld, each group named: its own melds whole (a
   * card another player laid off on one is shown dimmed with that player's tag: it counts for
   * them), and its lay-offs on the others' melds, "laid off on meld N (owner)".
   */
  summaryMelds(summary, seat, names, claims = null) {
    const groups = [];
    for (const m of summary.melds || []) {
      const by = (i) => (m.laid_by ? m.laid_by[i] : m.owner);
      const mine = m.cards.filter((_, i) => by(i) === seat);
      if (!mine.length) continue;
      const own = m.owner === undefined || m.owner === seat;
      const n = m.id !== undefined ? m.id + 1 : null;
      const title = own ? (n !== null ? `meld ${n}` : "meld")
        : `laid off on meld ${n ?? "?"} (${names[m.owner] ?? `seat ${m.owner + 1}`})`;
      // A card claimed by calling Rummy! that scores its own value here (rummy_card_value: 15).
      const claimed = (i) => !!claims?.value && by(i) === seat && claims.at.has(`${m.id}:${i}`);
      const scored = `claimed by calling Rummy!, scores ${claims?.value}`;
      const mineCard = (c, i) => {
        if (!claimed(i)) return cardEl(c, { small: true });
        const el = cardEl(c, { small: true, extraLabel: scored });
        el.classList.add("claimed");
        el.dataset.testid = "summary-claimed";
        return el;
      };
      const cards = own
        ? m.cards.map((c, i) => {
          if (by(i) === seat) return mineCard(c, i);
          const who = names[by(i)] ?? `seat ${by(i) + 1}`;
          const el = cardEl(c, { small: true, extraLabel: `laid off by ${who}, counts for ${who}` });
          el.classList.add("other-layer");
          el.append(h("span", { class: "by", "aria-hidden": "true", title: `laid off by ${who}` }, initials(who, by(i))));
          return el;
        })
        : m.cards.map((c, i) => (by(i) === seat ? mineCard(c, i) : null)).filter(Boolean);
      // "6♦ (Rummy! 15)" under the cards: what the card scored, against its face.
      const notes = m.cards.map((c, i) => (claimed(i) ? `${cardText(c)} (Rummy! ${claims.value})` : null)).filter(Boolean);
      groups.push(h("span", { class: `summary-meld${own ? "" : " layoff"}` }, [
        h("span", { class: "meld-tag", "aria-hidden": "true" }, title),
        h("span", { class: "meld-cards", role: "group", "aria-label": `${title}: ${mine.map(cardLabel).join(", ")}` }, cards),
        notes.length ? h("span", { class: "claim-tag", "aria-hidden": "true", dataset: { testid: "summary-claim-tag" } }, notes.join(" ")) : null]));
    }
    return h("div", { class: "summary-melds", dataset: { testid: `summary-melds-${seat}` } },
      groups.length ? [h("span", { class: "what", "aria-hidden": "true" }, "melded"), ...groups] : []);
  }

  /** The game's end: the log's `game_over` event (the banner's, or the log's after a reload), or null. */
  gameOverEvent() {
    return this.banner?.game_over ?? [...this.log].reverse().find((e) => e?.kind === "game_over") ?? null;
  }

  /** The players (the sides in a partnership) with their totals and whether they won (`go`: the `game_over` event). */
  standings(go, names) {
    const sides = this.sides();
    const totals = go.totals ?? this.view?.scores ?? [];
    const groups = sides
      ? sides.map((seats, i) => ({ label: `Side ${SIDE_NAMES[i]} (${seats.map((s) => names[s]).join(" & ")})`, seats }))
      : names.map((n, s) => ({ label: n, seats: [s] }));
    const winners = go.winner === null || go.winner === undefined ? [] : [].concat(go.winner);
    for (const g of groups) {
      g.total = g.seats.reduce((t, s) => t + (totals[s] ?? 0), 0);
      g.won = winners.length > 0 && g.seats.every((s) => winners.includes(s));
    }
    return groups;
  }

  /** The winner and the final totals (per side in a partnership), best first, with any final bonus named. */
  // ---------------------------------------------------------- play again
  /**
   * The game-over banner's Play again controls, made once (the banner is drawn again at times:
   * a pressed button keeps the keyboard focus): the button, the Watch link, and the lines under
   * them (who opened the next game; a refusal in words).
   */
  againControls() {
    if (!this.againBtn) {
      this.againBtn = h("button", {
        type: "button", class: "primary", dataset: { testid: "play-again" }, "aria-describedby": "again-news again-error",
      }, "Play again");
      this.againBtn.addEventListener("click", () => this.playAgain());
      this.watchNextLink = h("a", { class: "button", hidden: true, dataset: { testid: "watch-next" } }, "Watch the next game");
      // Not a live region: the news is said once in the moves' live region (noteNextTable).
      this.againNews = h("p", { class: "hint", id: "again-news", hidden: true, dataset: { testid: "again-news" } });
      this.againError = h("p", { class: "field-error", id: "again-error", role: "alert", hidden: true, dataset: { testid: "again-error" } });
      this.againNotes = h("div", { class: "again-notes" }, [this.againNews, this.againError]);
    }
    return { button: this.againBtn, watch: this.watchNextLink, notes: this.againNotes };
  }

  /** Play again's controls as things stand: the table's `next_table`, the request in flight, a refusal. */
  renderAgain() {
    if (!this.againBtn) return;
    const next = this.table?.next_table ?? null;
    const seated = !!this.me?.token;
    const { busy, error, watch, watchText } = this.again;
    const btn = this.againBtn;
    btn.hidden = !seated;
    const label = busy ? (next ? "Joining…" : "Starting…") : next ? "Join the next game" : "Play again";
    if (btn.textContent !== label) btn.textContent = label;
    // While the request runs the button stays focusable (aria-disabled, not disabled), as Hint does:
    // the focus stays on it, and a second press sends nothing.
    if (busy) {
      btn.setAttribute("aria-disabled", "true");
      btn.setAttribute("aria-busy", "true");
    } else {
      btn.removeAttribute("aria-disabled");
      btn.removeAttribute("aria-busy");
    }
    // A spectator watches the next game; a player the next table refused (full, started) too.
    const watchId = watch ?? (!seated ? next : null);
    this.watchNextLink.hidden = !watchId;
    if (watchId) this.watchNextLink.href = `/t/${encodeURIComponent(watchId)}`;
    else this.watchNextLink.removeAttribute("href");
    const watchLabel = watch ? (watchText ?? "Watch the next game") : "Watch the next game";
    if (this.watchNextLink.textContent !== watchLabel) this.watchNextLink.textContent = watchLabel;
    this.watchNextLink.classList.toggle("primary", !seated);
    // One primary choice: Play again for a player; for a spectator Watch, else the replay.
    this.replayLink?.classList.toggle("primary", !seated && !watchId);
    const news = next ? this.nextNews(next) : "";
    if (this.againNews.textContent !== news) this.againNews.textContent = news;
    this.againNews.hidden = !news;
    if (this.againError.textContent !== (error ?? "")) this.againError.textContent = error ?? "";
    this.againError.hidden = !error;
  }

  /** "Ann started the next game with the same rules." (who, once the next table's facts have come). */
  nextNews(next) {
    if (seatFor(next)?.seat === 0) return "You started the next game with the same rules.";
    const name = this.nextHost?.id === next ? this.nextHost.name : null;
    return name ? `${name} started the next game with the same rules.` : "The next game has been started with the same rules.";
  }

  /**
   * The table's `next_table` came or changed: ask who opened it (the next table's seat 0), draw
   * the controls, and say it once in the moves' live region when it came while the page was open.
   */
  noteNextTable() {
    const next = this.table?.next_table ?? null;
    // A page opened after the next game was started shows it in the banner; it is not news.
    if (this.nextSaid === undefined) this.nextSaid = next;
    if (!next) {
      this.nextHost = null;
      this.nextSaid = null;
    } else if (this.nextHost?.id !== next) {
      this.nextHost = { id: next, name: null };
      api("GET", `/api/tables/${encodeURIComponent(next)}`).then((t) => {
        const seats = Array.isArray(t?.seats) ? t.seats : [];
        return (seats.find((x) => x?.seat === 0) ?? seats[0])?.name ?? null;
      }, () => null).then((name) => {
        if (this.destroyed || this.nextHost?.id !== next) return;
        this.nextHost = { id: next, name };
        this.renderAgain();
        this.sayNext(next);
      });
    }
    this.renderAgain();
  }

  /** Tell a screen reader the next game has been opened, once (a page that opened it itself moves on). */
  sayNext(next) {
    if (this.nextSaid === next) return;
    this.nextSaid = next;
    if (this.again.busy || !this.gameOver()) return;
    this.liveEl.textContent = this.nextNews(next);
  }

  /**
   * Play again: the finished table's seat token asks for a seat at the next table (making it, the
   * first time: the caller is its creator). The seat is stored as a join's, and the page opens it.
   */
  async playAgain() {
    if (!this.me?.token || this.again.busy) return;
    const next = this.table?.next_table ?? null;
    // This browser holds a seat there already (pressed in another tab): go there.
    if (next && seatFor(next)?.token) {
      this.openTable(next);
      return;
    }
    const path = `/api/tables/${encodeURIComponent(this.tableId)}/again`;
    this.again = { busy: true, error: null, watch: null, watchText: null };
    this.renderAgain();
    let res;
    try {
      try {
        res = await api("POST", path, undefined, this.me.token);
      } catch (e) {
        if (e.code !== "already_joined") throw e;
        // Seated there already: with its token, just go; without (the answer was lost), ask once for a new one.
        const there = e.detail?.table_id ?? this.table?.next_table ?? null;
        if (there && seatFor(there)?.token) {
          this.openTable(there);
          return;
        }
        res = await api("POST", path, { reissue: true }, this.me.token);
      }
    } catch (e) {
      if (this.destroyed) return;
      this.again = { busy: false, ...this.againRefusal(e) };
      this.renderAgain();
      return;
    }
    if (this.destroyed) return;
    const seats = Array.isArray(res.table?.seats) ? res.table.seats : [];
    const name = seats.find((x) => x?.seat === res.seat)?.name ?? this.me.name ?? storedName();
    storeSeat(res.table_id, {
      seat: res.seat, token: res.token, name, creator: res.seat === 0, invite_url: res.invite_url,
      title: res.table?.title ?? this.table?.title,
    });
    this.openTable(res.table_id);
  }

  /** A refused Play again in words (and the next table to watch when it cannot be joined). */
  againRefusal(e) {
    const there = e.detail?.table_id ?? this.table?.next_table ?? null;
    if (e.code === "cannot_join") return { error: "The next game is full or has started.", watch: there };
    if (e.code === "name_taken") return { error: e.message, watch: there, watchText: "Open the next game" };
    if (e.status === 429) return { error: "Too many new tables from here just now: try again shortly." };
    if (e.code === "bad_token") {
      return { error: "This browser no longer holds a seat at this table, so it cannot join the next game from here.", watch: there };
    }
    if (e.status === 0) return { error: "Cannot reach the server: check the connection and try again." };
    return { error: e.message || "The next game could not be opened: try again." };
  }

  /** Open another table's page in this one (as the lobby does), its focus where a join puts it. */
  openTable(id) {
    arrival = { tableId: id, focus: "waiting-heading" };
    goTo(`/t/${encodeURIComponent(id)}`);
  }

  /** The game's final bonus ({seat, points}: in that seat's total), or null: none, or the game goes on. */
  finalBonus() {
    const fb = this.pace?.summary?.final_bonus ?? this.lastRound?.final_bonus
      ?? [...this.scores.rounds.values()].find((r) => r.bonus)?.bonus ?? null;
    return fb && fb.points ? fb : null;
  }

  renderGameOver(el, go, names, summary) {
    const groups = this.standings(go, names);
    const bonus = summary?.final_bonus ?? this.finalBonus();
    const won = groups.filter((g) => g.won);
    if (won.length) {
      el.append(h("p", { class: "winner", dataset: { testid: "winner" } }, `${won.map((g) => g.label).join(" & ")} won the game!`));
    }
    el.append(h("h3", { class: "final-head" }, "Final totals"));
    el.append(h("ol", { class: "final-totals", dataset: { testid: "final-totals" } },
      [...groups].sort((a, b) => b.total - a.total).map((g, i) =>
        h("li", { class: g.won ? "won" : "" }, [
          h("span", { class: "rank", "aria-hidden": "true" }, `${i + 1}.`),
          h("span", { class: "who" }, [g.label, g.seats.includes(this.mySeat()) ? h("span", { class: "you" }, " (you)") : null,
            bonus && g.seats.includes(bonus.seat)
            ? h("span", { class: "hint", dataset: { testid: "final-bonus" } }, ` (with the +${bonus.points} final bonus)`) : null]),
          h("b", { class: "num" }, String(g.total))]))));
  }

  renderMine() {
    const v = this.view;
    const spectating = v.hand === null || v.hand === undefined;
    this.chatOpen(!spectating, spectating ? "Only players can chat" : "Say something\u2026");
    this.myArea.hidden = false;
    const held = this.pace?.summary;
    const note = held && !spectating ? `Your hand for round ${held.round + 2}, already dealt: play starts when everyone is ready.` : "";
    if (this.handNote.textContent !== note) this.handNote.textContent = note;
    this.handNote.hidden = !note;
    if (spectating) {
      this.hand.el.hidden = true;
      this.hand.row.hidden = true;
      this.sortEl.hidden = true;
      clear(this.actionsEl);
      // No seat token for this table in this browser (api.js keeps them per browser): a player who
      // opened the link on another device or browser watches here; their seat is where they joined.
      setContent(this.hintEl, this.me ? ["You are watching this game (no hand)."] : [
        "You are watching this game (no hand). If you have a seat at this table, it is on the device and browser you joined from: play there. ",
        h("a", { href: "/" }, "Start your own table")]);
      return;
    }
    this.hand.el.hidden = false;
    this.hand.row.hidden = false;
    this.sortEl.hidden = false;
    // Dealer's Gambit: until the dealer nominates, every hand lies face down (the view holds none).
    // The free dealer's joker lies beside the dealer's hand once the hand is looked at, selectable
    // as a card (the legal melds that use it list a joker the hand does not hold).
    const nominating = v.phase === "nominate";
    const dealerJoker = !nominating && !isOver(v) && v.dealer === v.seat && v.dealer_joker === "available";
    this.hand.update(v.hand, nominating ? (v.hand_sizes?.[v.seat] ?? 0) : 0, dealerJoker);
    this.renderSort();
    this.renderActions();
  }

  /** The sort toggle: pressed only while the hand is in that order (a drag makes it "your order"). */
  renderSort() {
    // The buttons are made once (a pressed one keeps the keyboard focus); only their state changes.
    if (!this.sortButtons) {
      this.sortButtons = new Map();
      for (const [mode, label] of [["suit", "By suit"], ["rank", "By rank"]]) {
        const b = h("button", { type: "button", class: "chip", dataset: { testid: `sort-${mode}` } }, label);
        b.addEventListener("click", () => {
          this.hand.sortBy(mode);
          this.renderSort();
          this.renderActions();
        });
        this.sortButtons.set(mode, b);
      }
      this.sortState = h("span", { class: "hint", dataset: { testid: "sort-state" } });
      this.sortEl.append(...this.sortButtons.values(), this.sortState);
    }
    for (const [mode, b] of this.sortButtons) b.setAttribute("aria-pressed", this.hand.mode === mode ? "true" : "false");
    const state = this.hand.mode === "custom" ? `your order (${REARRANGE})` : `${REARRANGE} to rearrange`;
    if (this.sortState.textContent !== state) this.sortState.textContent = state;
  }

  /** The move buttons: each enabled only when it is one of `legal`. */
  renderActions() {
    const v = this.view;
    if (!v || v.hand === null || v.hand === undefined) return;
    const el = this.actionsEl;
    // Keep the keyboard where it was: the buttons are re-drawn after every change.
    // While no move button is enabled (a move in flight, the others' turns, a round's summary) the
    // focus waits on the moves' toolbar itself ("parked"), not on the page: a screen reader's
    // reading place stays here, and the button comes back when it is enabled again.
    const active = document.activeElement;
    const parked = active === el;
    const lost = this.focusLost(active) || parked;
    const onMoves = parked || (!!active && el.contains(active));
    let focused = !parked && onMoves ? active.dataset.testid : (lost ? this.keptFocus : null);
    if (this.moveFocus && !this.pendingAction) {
      // A move made from the stock, the pile or a meld has been answered (send()): its button was
      // drawn again, so the focus comes here, to the first button the move leaves enabled.
      this.moveFocus = false;
      if (lost) focused = focused ?? "btn-draw";
    }
    clear(el);
    // While a round summary holds the table nobody may move (legalNow): the buttons wait too.
    const legal = this.pendingAction || this.windowWait ? [] : this.legalNow();
    const sel = this.hand.selectedCards();
    const { melds, layoffs, swaps, discards: listed } = selectionChoices(legal, sel);
    // Several cards discarded at once (`discard_count: match_drawn`) go on the pile in the order the
    // player picked them, the last one on top (the legal list names each choice once, ascending).
    const picked = this.hand.pickedCards();
    const discards = listed.map((a) => discardInPickedOrder(a, picked) ?? a);
    const names = this.names();
    const rules = this.table?.rules || {};
    const me = this.mySeat();
    const hand = v.hand || [];
    // Going out by discarding a card that could be played (`going_out: unplayable_discard`) floats
    // the player instead: said before the discard, on the button and in the hint.
    const floatsIfDiscarded = rules.going_out === "unplayable_discard" && hand.length === 1 && discards.length > 0
      && layoffs.size > 0 && v.to_move === me;

    const btn = (testid, label, actions, opts = {}) => {
      const b = h("button", {
        type: "button", class: opts.cls ?? "", dataset: { testid },
        disabled: !actions.length, title: opts.title,
      }, label);
      b.addEventListener("click", () => this.playChoice(actions, opts.chooseTitle));
      el.append(b);
      return b;
    };

    // While the dealer nominates (Dealer's Gambit) no card can be played yet.
    if (v.phase !== "nominate") {
      const draw = legal.filter((a) => verbOf(a) === "draw");
      btn("btn-draw", "Draw", draw, { cls: draw.length ? "primary" : "" });
      btn("btn-meld", "Meld", melds, { chooseTitle: "Meld: what does the joker stand for?", cls: melds.length ? "primary" : "" });
      if (layoffs.size) {
        for (const [id, acts] of layoffs) {
          const owner = (v.melds || []).find((m) => m.id === id)?.owner;
          btn(`btn-layoff-${id}`, `Lay off on meld ${id + 1}${owner !== undefined ? ` (${names[owner]})` : ""}`, acts,
            { cls: "primary", chooseTitle: "Lay off: what does the joker stand for?" });
        }
      } else {
        // A house rule that keeps this player from laying off (on some melds, or yet) is said here too.
        const rule = this.layoffRule();
        btn("btn-layoff", "Lay off", [], { title: rule ? `${rule} Select cards that extend such a meld.` : "Select cards that extend a meld on the table" });
      }
      for (const a of swaps) btn(`btn-swap-${a.on}`, `Swap for joker on meld ${a.on + 1}`, [a]);
      btn("btn-discard", "Discard", discards, {
        cls: discards.length ? "danger" : "",
        title: floatsIfDiscarded ? "This card could be laid off: discarding it does not take you out (you would float)" : undefined,
      });
    }

    // Moves that need no selection.
    const extra = [
      ["pass", "btn-pass"], ["float", "btn-float"], ["block", "btn-block"],
    ];
    for (const [verb, testid] of extra) {
      const acts = legal.filter((a) => verbOf(a) === verb);
      if (acts.length) btn(testid, describe(acts[0]), acts);
    }
    for (const a of legal.filter((x) => verbOf(x) === "nominate")) {
      const [word, meaning] = GAMBIT_WORDS[a.nominate] ?? [a.nominate, ""];
      btn(`btn-nominate-${a.nominate}`, `Jokers ${word.toLowerCase()}`, [a], { cls: "primary", title: meaning });
    }
    const rummies = legalRummies(legal);
    if (rummies.length) btn("btn-rummy", "Rummy!", rummies, { cls: "rummy", chooseTitle: "Call Rummy! \u2014 which call?" });
    // Moves the buttons above cannot reach: offer them by name so nothing legal is hidden. (The
    // dealer's joker, beside the hand, is selected as a card of it.)
    const inHand = this.hand.dealerJoker ? [...hand, "JK"] : hand;
    const unreachable = legal.filter((a) => ["meld", "layoff"].includes(verbOf(a)) && !coverable(a, inHand));
    if (unreachable.length) btn("btn-other", `Other moves (${unreachable.length})`, unreachable, { chooseTitle: "Other legal moves" });
    if (sel.length) {
      const c = h("button", { type: "button", class: "ghost", dataset: { testid: "btn-clear" } }, "Clear selection");
      c.addEventListener("click", () => this.hand.clearSelection());
      el.append(c);
    }
    // One hint at a time: the button waits while the bots think about this position.
    const thinking = this.hintAskedFor === this.conn?.version && this.hintShown?.version !== this.conn?.version;
    if (this.pace?.hints !== false && legal.length && v.phase !== "nominate") {
      // While it waits it stays focusable (aria-disabled, not disabled): the focus stays on it
      // instead of jumping to Draw, where a second Enter would draw a card.
      const hb = h("button", {
        type: "button", class: "ghost hint-btn", dataset: { testid: "btn-hint" },
        "aria-disabled": thinking ? "true" : false, "aria-busy": thinking ? "true" : false,
      }, thinking ? "Thinking\u2026" : "Hint");
      hb.addEventListener("click", () => {
        if (hb.getAttribute("aria-disabled") === "true") return;
        if (!this.conn?.send({ type: "hint" })) {
          toast("Not connected \u2014 reconnecting.", "error");
          return;
        }
        // "Thinking…" is said once, by the hint line (drawn below); the toast is only seen.
        this.thinking = toast("Thinking\u2026", "info", { quiet: true });
        this.hintAskedFor = this.conn.version;
        this.renderActions();
      });
      el.append(hb);
    }
    this.keptFocus = null;
    if (focused) {
      const again = el.querySelector(`[data-testid="${CSS.escape(focused)}"]`);
      const target = again && !again.disabled ? again : el.querySelector("button:not(:disabled)");
      // (preventScroll: the buttons sit in the hand area pinned to the bottom of the screen, and
      // focusing one would scroll the page by that area's height, hiding the pile and the status line)
      if (target) target.focus({ preventScroll: true });
      else {
        this.keptFocus = focused;
        if (onMoves && !parked) this.parkFocus();
      }
    }

    // Say why the buttons are as they are (drawn aside, then written to the live region only if it changed).
    const hint = document.createElement("p");
    const cardsText = (list) => list.map(cardText).join(" ");
    if (this.pendingAction) hint.textContent = "Sending\u2026";
    else if (this.windowWait) {
      hint.textContent = legalRummies(this.legalNow()).length
        ? "Wait a moment: the other players may call Rummy! first; you can call Rummy! when this window closes."
        : "Wait a moment: the other players may call Rummy! first.";
    }
    else if (this.hintShown) hint.append(...this.hintWords(this.hintShown));
    else if (thinking && legal.length) hint.textContent = "Thinking\u2026";
    // The round's and the game's end are spoken from the log ("Round 3 over. Ann went out. ...",
    // "Game over: Ann won."): the hint line adds only what comes next.
    else if (this.gameOver()) hint.textContent = "";
    else if (this.pace?.summary) hint.textContent = "The next deal starts when everyone is ready.";
    else if (isOver(v)) hint.textContent = "";
    else if (!legal.length) hint.textContent = v.to_move === me ? "Waiting\u2026" : `Waiting for ${names[v.to_move]}.`;
    else if (v.phase === "nominate" && v.to_move === me) {
      hint.append("You deal: choose what jokers do this hand.",
        ...Object.values(GAMBIT_WORDS).map(([w, m]) => h("span", { class: "gambit-help" }, [h("b", {}, `${w}: `), m])));
    }
    else if (v.to_move !== me && rummies.length) {
      const pile = v.discard || [];
      const cards = [...new Set(rummies.map((a) => a.rummy))].map((d) => `${cardText(pile[pile.length - d])} (${ordinal(d)} from the top)`);
      hint.textContent = `Rummy! You may claim ${cards.join(" or ")} from the pile before ${names[v.to_move]} plays: press Rummy! or tap the card.`;
    }
    else if (v.phase === "draw" && v.to_move === me) {
      const takes = legalTakes(legal);
      const pass = legal.some((a) => verbOf(a) === "pass");
      const tap = [...takes].every((d) => d === 1) ? "take the top card of the discard pile"
        : "tap a lit card of the discard pile to take it (and all the cards above it)";
      // An empty stock: what is left is the pile, or a pass, which ends the round.
      if (v.stock_count === 0) {
        hint.textContent = takes.size && pass ? `The stock is empty: ${tap}, or press Pass to end the round.`
          : takes.size ? `The stock is empty, so you must take from the pile: ${tap}.`
            : "The stock is empty and no card of the pile may be taken: press Pass to end the round.";
      }
      else hint.textContent = !takes.size ? "Draw from the stock." : `Draw from the stock, or ${tap}.`;
    }
    else if (!hand.length && legal.some((a) => verbOf(a) === "float")) {
      hint.textContent = "You have melded every card: press Float; you go out by discarding on a later turn.";
    }
    else if (!sel.length) {
      if (v.to_move === me) {
        hint.textContent = "Tap cards to select them, then Meld, Lay off or Discard.";
        const opening = this.openingWords();
        if (opening) hint.append(` ${opening}`);
        const k = discardSize(legal);
        if (k > 1) hint.append(` This turn you discard ${k} cards: the last one you pick goes on top.`);
      } else {
        // meld_out_of_turn: the others' turn, and this player may meld or lay off now.
        const outOfTurn = legal.some((a) => ["meld", "layoff", "swap"].includes(verbOf(a)));
        hint.textContent = outOfTurn ? "You may meld or lay off now, out of turn." : "";
      }
    }
    else if (sel.length === 1 && v.taken_top && baseCard(sel[0]) === baseCard(v.taken_top) && !discards.length
      && v.to_move === me && !this.table?.rules?.discard_back) {
      // The single top card taken from the pile may not go back on it this turn (the rules' discard_back).
      hint.textContent = `You took the ${cardText(v.taken_top)} from the top of the pile this turn: you may not discard it again (meld it, lay it off, or keep it).`;
    }
    else if (melds.length || discards.length || layoffs.size || swaps.length) {
      hint.textContent = `${sel.length} selected. `;
      if (floatsIfDiscarded) {
        const ids = [...layoffs.keys()].map((id) => id + 1).join(" or ");
        hint.append(h("span", { class: "warn", dataset: { testid: "hint-floats" } },
          `The ${cardText(hand[0])} could be laid off (meld ${ids}): discarding it does not take you out at this table. You would float, and go out only by discarding a card that fits no meld.`));
      } else if (discards.length && Array.isArray(discards[0].discard) && discards[0].discard.length > 1) {
        const order = discards[0].discard;
        hint.append(`Discard puts ${order.map(cardText).join(", then ")} on the pile: the ${cardText(order[order.length - 1])} on top (the last one you picked).`);
      } else if (!layoffs.size) {
        const rule = this.layoffRule();
        if (rule) hint.append(rule);
      }
      // Dealer's Gambit: a meld or lay-off with a joker spends the free dealer's joker first (the engine's rule).
      if ((melds.length || layoffs.size) && this.hand.dealerJoker && !this.hand.dealerJokerSelected() && sel.includes("JK")) {
        hint.append(" The dealer's joker is played first: your own joker stays in your hand.");
      }
    }
    else if (selectionCouldGrow(legal, sel)) {
      const k = discardSize(legal);
      hint.textContent = k > sel.length
        ? `${sel.length} selected \u2014 select ${k} cards to discard (the last one you pick goes on top), or more to make a meld or a lay-off.`
        : `${sel.length} selected \u2014 add more cards to make a meld or a lay-off.`;
      const rule = this.layoffRule();
      if (rule) hint.append(` ${rule}`);
    }
    else {
      // What is wrong, where the cards alone say it (mixed suits and ranks, too few cards, a gap),
      // else the house rule that forbids it (named from the view and the table's rules).
      const why = selectionProblem(sel, { minRun: Number(rules.min_run) || 3, aroundCorner: !!rules.around_the_corner })
        ?? this.ruleRefusal(sel);
      hint.textContent = why ? `${cardsText(sel)}: ${why}.`
        : `${cardsText(sel)}: no legal meld, lay-off or discard with ${sel.length === 1 ? "this card" : "these cards"} now.`;
    }
    if (v.obligation && v.to_move === me && !isOver(v)) {
      // A sentence of its own after the hint (a space outside the inline-flex span, which would drop
      // one inside it: "(the expert bot)You must use ...").
      if (hint.childNodes.length) hint.append(" ");
      hint.append(h("span", { class: "obligation", dataset: { testid: "hint-obligation" } }, `You must use ${cardText(v.obligation)} before you can discard.`));
    }
    setContent(this.hintEl, [...hint.childNodes]);
    // Once the game is over there is nothing left to press.
    el.hidden = this.gameOver();
    this.renderTitle();
    // Melds become lay-off targets as the selection changes.
    this.renderMelds();
  }

  /**
   * `first_meld_min` partway through an opening (this turn's melds short of the minimum: no lay-off
   * and no discard until they reach it), in words from the view (`opened`, `turn_points`); else null.
   */
  openingWords() {
    const v = this.view;
    const me = this.mySeat();
    const min = Number(this.table?.rules?.first_meld_min) || 0;
    if (!min || v.to_move !== me || v.phase !== "play" || v.opened?.[me] !== false || !(v.turn_points > 0)) return null;
    return `Your first melds must reach ${min} points this turn (${v.turn_points} so far) before you may lay off or discard.`;
  }

  /**
   * The house rule that keeps this player from laying off now, or on some of the melds on the table,
   * as a sentence (`first_meld_min` before the opening, `layoff_needs_own_meld`, `layoff_onto`), read
   * from the view (`may_lay_off_now`, `opened`, `has_melded`, `lay_off_onto`); null when none does.
   */
  layoffRule() {
    const v = this.view;
    const me = this.mySeat();
    const rules = this.table?.rules || {};
    const melds = v?.melds || [];
    if (!melds.length || me === null || me === undefined) return null;
    if (v.may_lay_off_now === false) {
      const min = Number(rules.first_meld_min) || 0;
      if (min && v.opened?.[me] === false) return `At this table you may lay off only once your first melds have reached ${min} points.`;
      if (rules.layoff_needs_own_meld && v.has_melded?.[me] === false) return "At this table you may lay off only once you have laid down a meld of your own this round.";
      return null;
    }
    if (!Array.isArray(v.lay_off_onto) || melds.every((m) => v.lay_off_onto.includes(m.id))) return null;
    if (rules.layoff_onto === "own") return "At this table you may lay off only on your own melds.";
    if (rules.layoff_onto === "own_and_partner") return "At this table you may lay off only on your own and your partner's melds.";
    return null;
  }

  /**
   * Why the selected cards, which look like a meld or a lay-off, are no legal move: the house rule
   * that forbids it, in words (no capital, no full stop: it follows the cards), or null when no rule
   * the view shows explains it. The server's `legal` list decides; this only names the rule.
   */
  ruleRefusal(sel) {
    const v = this.view;
    const me = this.mySeat();
    const rules = this.table?.rules || {};
    const hand = v.hand || [];
    const lower = (text) => text[0].toLowerCase() + text.slice(1, -1);
    if (v.to_move === me && v.phase === "play") {
      // Boathouse: the last cards may not be melded or laid off; a card must be left to discard.
      if (rules.going_out === "discard_required" && hand.length && sel.length - (this.hand.dealerJokerSelected() ? 1 : 0) >= hand.length) {
        return "at this table you must keep a card to discard: you go out only by discarding your last card";
      }
      const min = Number(rules.first_meld_min) || 0;
      if (min && v.opened?.[me] === false) {
        const opening = this.openingWords();
        if (opening) return lower(opening);
        // (With a card taken from the pile still to use, that may be the reason instead: said after the hint.)
        if (sel.length >= 3 && !v.obligation) {
          return `your first melds must total at least ${min} points in one turn, and with these cards your hand cannot reach that this turn`;
        }
      }
    }
    const rule = this.layoffRule();
    return rule ? lower(rule) : null;
  }

  /** The hint in words: "Hint: Discard 5♦. It fits nothing you hold ... (the expert bot)". */
  hintWords(shown) {
    // A hint to let an out-of-turn chance pass has no action (nothing is sent): its text says so.
    const pass = String(shown.text || "let the chance pass");
    const move = shown.action ? describe(shown.action, this.view?.discard) : pass[0].toUpperCase() + pass.slice(1);
    let reason = String(shown.reason ?? "").trim();
    // The server's reason does not repeat the move; it begins a sentence of its own.
    if (reason) reason = reason[0].toUpperCase() + reason.slice(1);
    if (reason && !/[.!?]$/.test(reason)) reason += ".";
    return [h("b", {}, "Hint: "), ...suitedText(`${move}.`), ...(reason ? [" "] : []),
      h("span", { dataset: { testid: "hint-reason" } }, suitedText(reason)),
      ...(shown.level ? [` (the ${shown.level} bot)`] : [])];
  }

  /**
   * Keep the keyboard focus on the moves' toolbar while none of its buttons can be pressed (no
   * scroll: the toolbar sits in the hand area), so it neither falls to the page nor lands elsewhere.
   */
  parkFocus() {
    if (this.actionsEl.hidden) return;
    this.actionsEl.tabIndex = -1;
    this.actionsEl.focus({ preventScroll: true });
  }

  async playChoice(actions, title) {
    if (!actions.length) return;
    // The pile names the card each Rummy! call claims (several calls may meld the same cards).
    const a = actions.length === 1 ? actions[0] : await chooseAction(title || "Choose", actions, { pile: this.view?.discard });
    if (a) this.send(a);
  }

  /** Seats played by people (not bot seats). */
  people() {
    const seats = Array.isArray(this.table?.seats) ? this.table.seats : [];
    return new Set(seats.filter((x) => x && x.kind === "human").map((x) => x.seat));
  }

  renderLog() {
    const el = this.logEl;
    clear(el);
    const names = this.names();
    for (const entry of this.log.slice(-200)) {
      const note = this.floatNote(entry, names);
      el.append(h("li", { class: entry?.kind && entry.kind !== "action" ? "log-end" : "" },
        suitedText(`${entryText(entry, names, this.people())}${note ? `. ${note}` : ""}`)));
    }
    el.scrollTop = el.scrollHeight;
  }
}

// ---------------------------------------------------------------- helpers

function isOver(v) {
  const p = String(v?.phase ?? "").toLowerCase();
  return p === "round_over" || p === "game_over";
}

function pickName(list, s) {
  if (!list) return null;
  const x = Array.isArray(list) ? list[s] : list[String(s)];
  if (x === null || x === undefined) return null;
  if (typeof x === "string") return x;
  if (typeof x === "object") return x.name ?? null;
  return null;
}

/** A short tag for a player: initial and seat number, "A1" for Ann at seat 1 (never "Al", read as "AI"). */
function initials(name, seat) {
  const first = String(name ?? "?").trim()[0] ?? "?";
  return `${first.toUpperCase()}${seat + 1}`;
}

/** The cards of ``after`` that ``before`` did not hold (as multisets): what a draw brought. */
function newCards(before, after) {
  const pool = [...(before || [])];
  return (after || []).filter((c) => {
    const i = pool.indexOf(c);
    if (i < 0) return true;
    pool.splice(i, 1);
    return false;
  });
}

/** Can the player's hand supply this action's cards (jokers counted as "JK")? */
function coverable(action, hand) {
  const pool = [...hand];
  const cards = action.meld ?? action.layoff ?? [];
  return cards.every((c) => {
    const base = c.startsWith("JK") ? "JK" : c;
    const i = pool.indexOf(base);
    if (i < 0) return false;
    pool.splice(i, 1);
    return true;
  });
}
