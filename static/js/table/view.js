// @ts-check
// Drawing the table from the store's `state` (docs/protocol.md): seats, the cards in front of
// them, the trick, the hand and the decisions. Generic: whatever differs between the games comes
// from the game's renderer (games/*.js). The server decides what may be played: `view.legal` is
// the only source of playable cards.
import { SUIT_SYMBOL, cardBack, cardFace, cardName, sortHand } from "./cards.js";
import { jokerPanel } from "./decisions.js";
import { el, icon } from "./dom.js";
import { cardRects, glide, reducedMotion } from "./feel.js";
import { lastTimeoutReminder, oneTimeoutFromForfeit } from "./forfeits.js";
import { callText, clockText, displayName, fmt, seatName } from "./text.js";

/** @typedef {import("./protocol.js").StateFrame} StateFrame */
/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./protocol.js").Play} Play */
/** @typedef {import("./protocol.js").Action} Action */
/** @typedef {import("./protocol.js").CompletedTrick} CompletedTrick */
/** @typedef {import("./games/shared.js").GameRenderer} GameRenderer */
/**
 * @typedef {object} ViewHandlers
 * @property {(action: Action) => void} onAction
 * @property {(card: string) => void} onIllegal
 * @property {(name: string, button: HTMLButtonElement) => void} onTool
 */

// The narrowest a card's tap target may be, in CSS px (WCAG 2.5.5's 44 × 44).
const TAP = 44;
// A tap this soon after a move was sent is the second of a double tap (ms).
const DOUBLE_TAP_MS = 600;

/** @type {Record<number, string[]>} */
// Where each seat sits, from the viewer's (bottom) clockwise; classic Joker at three puts the
// two others at the sides (CJ-30).
const POSITIONS = {
  2: ["bottom", "top"],
  3: ["bottom", "left", "right"],
  4: ["bottom", "left", "top", "right"],
};

/** @param {Play} play */
function callBadge(play) {
  if (!play.call) return null;
  const badge = el("span", "call-badge");
  badge.setAttribute("aria-hidden", "true");
  if ((play.call === "want" || play.call === "take") && play.suit) {
    const word = play.call === "want" ? gettext("want") : gettext("take");
    badge.append(
      el("span", "", `${word} `),
      el("span", `suit-${play.suit}`, SUIT_SYMBOL[play.suit]),
    );
  } else {
    badge.textContent = play.call === "high" ? gettext("high") : gettext("low");
  }
  return badge;
}

export class TableView {
  /**
   * @param {HTMLElement} root
   * @param {GameRenderer} game
   * @param {ViewHandlers} handlers
   */
  constructor(root, game, handlers) {
    this.root = root;
    this.game = game;
    this.handlers = handlers;
    /** @type {StateFrame | null} */
    this.state = null;
    this.skew = 0; // server clock minus ours, in ms
    /** @type {string | null} the joker whose options are open in the action panel */
    this.jokerChoice = null;
    this.panelKind = "";
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.collectTimer = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.errorTimer = undefined;
    this.offline = false;
    /** a move sent and not yet answered: the cards do not take a second one meanwhile */
    this.inFlight = false;
    /** when the last move was sent: a tap soon after is the second of a double tap */
    this.sentAt = 0;
    /** @type {string | null} the card chosen by a first tap, with "Tap twice to play" on */
    this.selected = null;
    this.tapConfirm = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.noticeTimer = undefined;

    // --- the frame, built once ---------------------------------------------------------------
    root.replaceChildren();
    root.classList.add("play", `game-${root.dataset.game}`, `${this.game.layout}-layout`);

    const bar = el("div", "play-bar");
    this.facts = el("div", "play-facts");
    this.facts.id = "play-facts";
    const tools = el("div", "play-tools");
    tools.setAttribute("role", "toolbar");
    tools.setAttribute("aria-label", gettext("Table tools"));
    /**
     * @param {string} name
     * @param {string} label
     * @param {boolean} [pressed]
     * @param {"sound" | "colours" | "trick" | "sheet" | "more"} [symbol]
     */
    const tool = (name, label, pressed, symbol) => {
      const button = /** @type {HTMLButtonElement} */ (
        el("button", symbol ? "tool compact" : "tool")
      );
      if (symbol) button.append(icon(symbol, { className: "tool-icon" }));
      button.append(el("span", "tool-label", label));
      button.type = "button";
      button.id = `tool-${name}`;
      if (pressed !== undefined) button.setAttribute("aria-pressed", String(pressed));
      button.addEventListener("click", () => this.handlers.onTool(name, button));
      tools.append(button);
      return button;
    };
    this.tools = {
      lastTrick: tool("last-trick", gettext("Last trick"), undefined, "trick"),
      scores: tool("scores", this.game.scoresLabel, undefined, "sheet"),
      sound: tool("sound", gettext("Sound"), false, "sound"),
      colours: tool("colours", gettext("Four colours"), false, "colours"),
      // Touch settings: shown on touch screens (table.css), kept in localStorage (feel.js).
      tapConfirm: tool("tap-confirm", gettext("Tap twice to play"), false),
      vibrate: tool("vibrate", gettext("Vibration"), false),
      result: tool("result", gettext("Result")),
      leave: tool("leave", gettext("Leave")),
      // On a phone the table fills the screen; "More" brings back the page around it (the
      // title and options, the other tools, the chat, the site's menu).
      more: tool("more", gettext("More"), undefined, "more"),
    };
    this.tools.result.hidden = true;
    this.tools.leave.classList.add("danger");
    this.tools.tapConfirm.classList.add("touch-only");
    this.tools.vibrate.classList.add("touch-only");
    this.tools.more.classList.add("phone-only");
    this.tools.more.setAttribute("aria-expanded", "false");
    bar.append(this.facts, tools);

    this.status = el("p", "conn-status");
    this.status.id = "conn-status";
    this.status.setAttribute("role", "status");

    const felt = el("div", "felt");
    this.felt = felt;
    /** @type {Record<number, {zone: HTMLElement, box: HTMLElement, cards: HTMLElement}>} */
    this.zones = {};
    for (let seat = 0; seat < this.n; seat += 1) {
      const zone = el("div", "seat-zone");
      zone.dataset.seat = String(seat);
      const box = el("div", "seat-box");
      box.id = `seat-box-${seat}`;
      const cards = el("div", "seat-cards");
      zone.append(box, cards);
      this.zones[seat] = { zone, box, cards };
    }
    const trick = el("div", "trick-zone");
    trick.setAttribute("aria-label", gettext("The trick"));
    trick.setAttribute("role", "region");
    this.trickInfo = el("p", "trick-info");
    this.trickCards = el("div", "trick-cards");
    this.trickCollect = el("div", "trick-collect");
    this.trickCollect.setAttribute("aria-hidden", "true");
    trick.append(this.trickInfo, this.trickCards, this.trickCollect);
    this.trickZone = trick;
    felt.append(trick);

    // An automatic move (the turn clock ran out), said where the player looks.
    this.notice = el("p", "auto-move");
    this.notice.id = "auto-move";
    this.notice.setAttribute("role", "status");
    this.notice.hidden = true;

    this.panel = el("div", "action-panel");
    this.panel.id = "action-panel";
    this.turnLine = el("p", "turn-line");
    this.turnLine.id = "turn-line";
    this.error = el("p", "play-error");
    this.error.id = "play-error";
    this.error.setAttribute("role", "alert");
    this.handZone = el("div", "hand-zone");
    this.hand = el("div", "hand mine");
    this.hand.id = "my-hand";
    this.hand.setAttribute("role", "group");
    this.hand.setAttribute("aria-label", gettext("Your hand"));
    this.handNote = el("p", "hand-note");
    this.handZone.append(this.hand, this.handNote);
    this.announcer = el("div", "visually-hidden");
    this.announcer.id = "announcer";
    this.announcer.setAttribute("aria-live", "polite");
    this.announcer.setAttribute("aria-atomic", "true");

    // Whose turn it is, the server's refusals and the decision to make: beside the felt on a
    // wide screen (so the hand stays in the window), between the felt and the hand on a phone.
    this.side = el("div", "play-side");
    this.side.append(this.notice, this.turnLine, this.error, this.panel);
    root.append(bar, this.status, felt, this.side, this.handZone, this.announcer);
    root.addEventListener("keydown", (event) => this.arrowKeys(event));
    window.addEventListener("resize", () => this.refit());
    // A phone's browser widens its window while something on the page is wider than the screen
    // and narrows it back, without a resize event, once that is gone: the page's box says so.
    new ResizeObserver(() => this.refit()).observe(document.documentElement);
  }

  /** The state being drawn; only read once there is one. */
  get snapshot() {
    return /** @type {StateFrame} */ (this.state);
  }

  /** The engine's view; only read while a match is drawn. */
  get view() {
    return /** @type {View} */ (/** @type {StateFrame} */ (this.state).view);
  }

  /** The table's seats (classic Joker's may be 2, 3 or 4), else the game's. */
  get n() {
    return Number(this.root.dataset.seats) || this.game.seats;
  }

  /** @returns {number | null} */
  get me() {
    return this.state ? this.state.seat : null;
  }

  get viewpoint() {
    return this.me === null || this.me === undefined ? 0 : this.me;
  }

  /** @param {number} seat */
  position(seat) {
    return POSITIONS[this.n][(seat - this.viewpoint + this.n) % this.n];
  }

  placeZones() {
    /** @type {Record<string, number>} */
    const rank = { top: 0, left: 1, right: 2, bottom: 4 };
    for (let seat = 0; seat < this.n; seat += 1) {
      const { zone } = this.zones[seat];
      zone.className = `seat-zone pos-${this.position(seat)}${seat === this.me ? " me" : ""}`;
    }
    // Reading order: the others, the trick, then the viewer's own seat.
    const order = [...Array(this.n).keys()].sort(
      (a, b) => rank[this.position(a)] - rank[this.position(b)],
    );
    for (const seat of order) {
      if (this.position(seat) === "bottom") this.felt.append(this.trickZone);
      this.felt.append(this.zones[seat].zone);
    }
  }

  /** @param {string} text */
  setStatus(text) {
    this.status.textContent = text;
    const offline = Boolean(text);
    if (offline === this.offline) return;
    this.offline = offline;
    this.root.classList.toggle("offline", offline);
    // What may be played depends on the connection: the player's own cards are drawn again.
    if (this.state && this.state.view && this.me !== null) {
      this.renderSeatCards(this.me);
      this.renderHand();
    }
  }

  /** A move is on its way to the server: the cards wait for its answer. */
  sending() {
    this.inFlight = true;
    this.sentAt = performance.now();
    this.selected = null;
    this.root.classList.add("in-flight");
  }

  /** The server answered (a new state, or an error): the cards may be played again. */
  settle() {
    this.inFlight = false;
    this.root.classList.remove("in-flight");
  }

  /**
   * Said for a while above whose turn it is: what the server did for a seat whose clock ran out.
   * @param {string} text
   */
  showNotice(text) {
    this.notice.textContent = text;
    this.notice.hidden = !text;
    clearTimeout(this.noticeTimer);
    if (text) this.noticeTimer = setTimeout(() => this.showNotice(""), 15000);
  }

  /** @param {string} text */
  showError(text) {
    this.error.textContent = text;
    clearTimeout(this.errorTimer);
    if (text) this.errorTimer = setTimeout(() => (this.error.textContent = ""), 8000);
  }

  // --- drawing a snapshot --------------------------------------------------------------------

  /**
   * @param {StateFrame} state
   * @param {StateFrame | null} previous
   */
  render(state, previous) {
    const first = !this.state;
    const rects = first ? new Map() : cardRects(this.root);
    const focused = /** @type {HTMLElement | null} */ (document.activeElement);
    const focusCard = focused && focused.dataset ? focused.dataset.card : null;
    const focusInside = focused && this.root.contains(focused);
    this.state = state;
    this.skew = Date.parse(state.clocks.server_time) - Date.now() || 0;
    if (first) this.placeZones();
    if (this.inFlight && (!previous || state.version > previous.version)) this.settle();
    if (!previous || state.version !== previous.version) this.selected = null;
    const view = state.view;
    if (
      previous &&
      previous.view &&
      view &&
      (view.hand_number !== previous.view.hand_number || view.phase !== previous.view.phase)
    ) {
      this.jokerChoice = null;
    }
    if (this.jokerChoice && !this.legalFor(this.jokerChoice).length) this.jokerChoice = null;
    this.root.classList.toggle("my-turn", this.myTurn());
    this.root.classList.toggle("spectator", this.me === null);
    this.renderFacts();
    for (let seat = 0; seat < this.n; seat += 1) {
      this.renderSeatBox(seat);
      this.renderSeatCards(seat);
    }
    this.renderTrick(previous);
    this.renderHand();
    this.renderPanel();
    this.renderTurnLine();
    this.tick(); // the clocks' and absences' lines, before the felt is fitted around them
    this.fitFelt();
    this.tools.leave.hidden = this.me === null || state.status !== "playing" || this.myForfeit();
    this.tools.lastTrick.disabled = !(view && view.last_trick);
    this.tools.result.hidden = !state.result;
    // Keep the keyboard where it was: the same card, else the first playable one.
    if (focusInside && focusCard) {
      const again = this.root.querySelector(`.mine [data-card="${focusCard}"]`);
      const next = /** @type {HTMLElement | null} */ (
        again ||
          this.root.querySelector(".mine .card.legal") ||
          this.root.querySelector(".mine button.card")
      );
      if (next) next.focus({ preventScroll: true });
    }
    // Cards that moved since the last snapshot glide to their new place.
    if (!first) {
      for (const node of /** @type {NodeListOf<HTMLElement>} */ (
        this.root.querySelectorAll(".trick-cards [data-card], .trick-collect [data-card]")
      )) {
        if (node.dataset.fresh === "1")
          glide(node, rects.get(node.dataset.card) || this.handRect(Number(node.dataset.seat)));
      }
    }
    // What the browser tests wait for: this version is on the page.
    this.root.dataset.version = String(state.version);
    this.root.dataset.status = state.status;
    this.root.dataset.phase = view ? view.phase : "";
  }

  /** @param {StateFrame} state */
  renderPresence(state) {
    this.state = state;
    this.skew = Date.parse(state.clocks.server_time) - Date.now() || 0;
    for (let seat = 0; seat < this.n; seat += 1) this.renderSeatBox(seat);
    this.renderTurnLine();
    this.tick();
    this.fitFelt(); // a seat's absence or bank line may have come or gone
  }

  // Where a seat's hidden card comes from: its fan of backs, else its name box.
  /** @param {number} seat */
  handRect(seat) {
    const zone = this.zones[seat];
    const fan = zone && zone.cards.querySelector(".hand-backs");
    return fan ? fan.getBoundingClientRect() : this.seatRect(seat);
  }

  /** @param {number} seat */
  seatRect(seat) {
    const zone = this.zones[seat];
    return zone ? zone.box.getBoundingClientRect() : null;
  }

  myTurn() {
    const s = this.state;
    if (!s || !s.view || s.status !== "playing" || this.me === null || this.myForfeit())
      return false;
    return s.view.to_act === this.me;
  }

  myForfeit() {
    const s = this.state;
    const entry = s && s.seats && s.seats.find((x) => x.seat === this.me);
    return Boolean(entry && entry.forfeited);
  }

  /** @returns {Action[]} */
  legal() {
    return (this.state && this.state.view && this.state.view.legal) || [];
  }

  /** @param {string} card */
  legalFor(card) {
    return this.legal().filter((a) => a.type === "play" && a.card === card);
  }

  renderFacts() {
    const view = /** @type {StateFrame} */ (this.state).view;
    const facts = this.facts;
    facts.replaceChildren();
    if (!view) {
      facts.append(el("span", "fact", gettext("Waiting for the match to start")));
      return;
    }
    const trump = el("span", "fact trump-badge");
    trump.id = "trump-badge";
    if ("trump" in view && view.trump) {
      trump.classList.add(`suit-${view.trump}`);
      const symbol = el("span", "trump-symbol", SUIT_SYMBOL[view.trump]);
      symbol.setAttribute("aria-hidden", "true");
      trump.append(symbol);
    } else if ("trump" in view) {
      trump.classList.add("no-trump");
    }
    trump.append(el("span", "trump-text", this.game.trumpText(view)));
    facts.append(trump, ...this.game.facts(view));
    for (const fact of /** @type {NodeListOf<HTMLElement>} */ (facts.querySelectorAll(".round")))
      fact.title = fact.textContent || ""; // whole where a phone cuts it short
    if (view.phase === "play") {
      const total = this.game.trickTotal(view);
      const number = view.tricks.reduce((a, b) => a + b, 0) + 1;
      facts.append(
        el(
          "span",
          "fact trick-count",
          fmt(gettext("Trick %(number)s of %(total)s"), { number, total }),
        ),
      );
    }
  }

  /** @param {number} seat */
  renderSeatBox(seat) {
    const state = /** @type {StateFrame} */ (this.state);
    const view = state.view;
    const entry = (state.seats || []).find((s) => s.seat === seat);
    const box = this.zones[seat].box;
    box.replaceChildren();
    box.className = "seat-box";
    const toAct = view && state.status === "playing" && view.to_act === seat;
    box.classList.toggle("to-act", Boolean(toAct));
    box.classList.toggle("absent", Boolean(entry && entry.connected === false && !entry.bot));
    const name = el("span", "seat-name", seatName(state, seat));
    name.title = seatName(state, seat);
    box.append(name);
    if (seat === this.me) box.append(el("span", "badge you", gettext("you")));
    if (view) {
      for (const badge of this.game.seatBadges(view, seat))
        box.append(el("span", "badge role", badge));
    }
    if (entry && entry.bot) box.append(el("span", "badge bot", gettext("computer")));
    else if (entry && entry.forfeited) box.append(el("span", "badge gone", gettext("left")));
    else if (entry && entry.connected === false)
      box.append(el("span", "badge gone", gettext("offline")));
    if (view) {
      const stats = el("span", "seat-stats");
      for (const stat of this.game.seatStats(view, seat))
        stats.append(el("span", `stat ${stat.className}`, stat.text));
      box.append(stats);
    }
    const clock = el("span", "seat-clock");
    clock.dataset.clockSeat = String(seat);
    // The seat's bank for the whole match: what is left once its turn clock runs out.
    const bank = el("span", "seat-bank");
    bank.dataset.bankSeat = String(seat);
    bank.title = gettext("Bank: the time this seat has left once its turn clock runs out");
    const absence = el("span", "seat-absence");
    absence.dataset.absenceSeat = String(seat);
    box.append(clock, bank, absence);
  }

  /**
   * The cards that lie in front of a seat: hand backs for the others, then the game's own
   * (columns, a layout).
   * @param {number} seat
   */
  renderSeatCards(seat) {
    const view = /** @type {StateFrame} */ (this.state).view;
    const holder = this.zones[seat].cards;
    holder.replaceChildren();
    if (!view) return;
    if (seat !== this.me) holder.append(this.handBacks(seat));
    holder.append(...this.game.tableCards(this, seat));
  }

  /** @param {number} seat */
  handBacks(seat) {
    const view = this.view;
    const count = view.hand_counts[seat];
    const known = (view.known_in_hand && view.known_in_hand[seat]) || [];
    const fan = el("div", "hand-backs");
    fan.style.setProperty("--count", String(Math.max(count, 1)));
    const label = fmt(ngettext("%(count)s card in hand", "%(count)s cards in hand", count), {
      count,
    });
    fan.setAttribute("role", "img");
    let full = label;
    if (known.length) {
      full += ` ${fmt(gettext("(known: %(cards)s)"), { cards: known.map(cardName).join(", ") })}`;
    }
    fan.setAttribute("aria-label", full);
    for (const code of known) {
      const face = cardFace(code, { size: "small" });
      face.removeAttribute("role");
      face.setAttribute("aria-hidden", "true");
      face.classList.add("known");
      fan.append(face);
    }
    for (let i = known.length; i < count; i += 1) fan.append(cardBack({ size: "small" }));
    const badge = el("span", "count-badge", String(count));
    badge.setAttribute("aria-hidden", "true");
    fan.append(badge);
    return fan;
  }

  /**
   * One of the viewer's own face-up cards, as a button; raised when it may be played now.
   * @param {string} code
   * @param {string} from  "hand", "column", "layout"
   */
  playable(code, from) {
    const actions = this.legalFor(code);
    const button = cardFace(code, { button: true });
    button.dataset.from = from;
    const turn = this.myTurn() && !this.offline;
    if (turn && actions.length) {
      button.classList.add("legal");
    } else {
      button.setAttribute("aria-disabled", "true");
      if (turn) button.classList.add("not-legal");
    }
    if (this.jokerChoice === code) button.classList.add("choosing");
    if (this.selected === code && button.classList.contains("legal")) {
      button.classList.add("selected");
      button.setAttribute("aria-pressed", "true");
    }
    button.tabIndex = -1;
    button.addEventListener("click", () => this.clickCard(code, button));
    return button;
  }

  renderHand() {
    const state = /** @type {StateFrame} */ (this.state);
    const view = state.view;
    this.hand.replaceChildren();
    this.handNote.textContent = "";
    this.handZone.hidden = !view;
    if (!view) return;
    if (this.me === null) {
      this.hand.setAttribute("aria-label", gettext("Spectating"));
      this.handNote.textContent = gettext("You are watching this match.");
      return;
    }
    const note = this.game.handNote(view);
    if (this.game.handHidden(view)) {
      const count = view.hand_counts[this.me];
      for (let i = 0; i < count; i += 1) this.hand.append(cardBack());
      this.hand.setAttribute(
        "aria-label",
        fmt(gettext("Your hand: %(count)s face-down cards"), { count }),
      );
    } else {
      this.hand.setAttribute("aria-label", gettext("Your hand"));
      for (const code of sortHand(view.hand || [], view.trump))
        this.hand.append(this.playable(code, "hand"));
    }
    this.handNote.textContent =
      this.myForfeit() && state.status === "playing" ? this.game.forfeitNote : note;
    this.fitHand();
    this.rovingFocus();
  }

  /** Fit the hand and the felt again where the window is no longer the one they were fitted to. */
  refit() {
    const hand = this.hand;
    if (hand && hand.dataset.fit !== String(window.innerWidth)) this.fitHand();
    if (this.felt.dataset.fit !== `${window.innerWidth}x${window.innerHeight}`) this.fitFelt();
  }

  // Fan the hand to fit its width. A card's tap target (the part the next card leaves
  // uncovered) stays TAP px wide: the cards overlap first, then get smaller, then take two rows
  // (the second over the lower part of the first, so the hand stays short on a phone).
  fitHand() {
    const hand = this.hand;
    if (!hand) return;
    hand.classList.remove("two-rows");
    hand.style.removeProperty("--card");
    for (const gap of hand.querySelectorAll(".row-break")) gap.remove();
    const cards = /** @type {HTMLElement[]} */ ([...hand.children]);
    // Overlapped while measured: a phone's browser widens its window to show a hand wider
    // than the screen, and the window's width is what the fit is for.
    cards.forEach((card, index) => {
      card.style.marginLeft = index ? "calc(var(--cw) * -.9)" : "";
    });
    if (cards.length < 2) {
      hand.dataset.fit = String(window.innerWidth);
      return;
    }
    const style = getComputedStyle(hand);
    const width =
      hand.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 2;
    let cardWidth = cards[0].getBoundingClientRect().width || 60;
    const fit = (/** @type {number} */ count) => (width - cardWidth) / (count - 1);
    let perRow = cards.length;
    if (fit(perRow) < TAP) {
      const smaller = width - TAP * (perRow - 1);
      if (smaller < TAP || smaller < cardWidth * 0.7) {
        perRow = Math.ceil(cards.length / 2);
        hand.classList.add("two-rows");
        const gap = el("span", "row-break");
        gap.setAttribute("aria-hidden", "true");
        hand.insertBefore(gap, cards[perRow]);
      }
      if (fit(perRow) < TAP) {
        cardWidth = Math.max(TAP, width - TAP * (perRow - 1));
        hand.style.setProperty("--card", `${cardWidth}px`);
      }
    }
    const step = Math.min(cardWidth + 6, fit(perRow));
    const overlap = step - cardWidth;
    cards.forEach((card, index) => {
      card.style.marginLeft = index % perRow !== 0 ? `${overlap}px` : "";
    });
    hand.dataset.fit = String(window.innerWidth);
  }

  // On a phone the felt gets the room the rest of the screen leaves and sizes its cards from it
  // (table.css); where its content still does not fit (longer words, a taller decision), the
  // cards take a smaller part of that room (--fit) until it does.
  fitFelt() {
    const felt = this.felt;
    // The window the felt was last fitted to (as the hand's), so a test can wait for it.
    felt.dataset.fit = `${window.innerWidth}x${window.innerHeight}`;
    felt.style.removeProperty("--fit");
    if (getComputedStyle(felt).containerType !== "size") return;
    const over = () =>
      felt.scrollHeight > felt.clientHeight + 1 || felt.scrollWidth > felt.clientWidth + 1;
    for (let fit = 0.95; fit >= 0.5 && over(); fit -= 0.05) {
      felt.style.setProperty("--fit", fit.toFixed(2));
    }
  }

  rovingFocus() {
    const buttons = /** @type {HTMLElement[]} */ ([
      ...this.root.querySelectorAll(".mine button.card"),
    ]);
    if (!buttons.length) return;
    const start = buttons.find((b) => b.classList.contains("legal")) || buttons[0];
    for (const button of buttons) button.tabIndex = button === start ? 0 : -1;
  }

  /** @param {KeyboardEvent} event */
  arrowKeys(event) {
    const target = /** @type {HTMLElement} */ (event.target);
    if (!target.matches || !target.matches(".mine button.card")) return;
    /** @type {Record<string, number | string>} */
    const keys = {
      ArrowLeft: -1,
      ArrowUp: -1,
      ArrowRight: 1,
      ArrowDown: 1,
      Home: "first",
      End: "last",
    };
    if (!(event.key in keys)) return;
    const buttons = /** @type {HTMLElement[]} */ ([
      ...this.root.querySelectorAll(".mine button.card"),
    ]);
    const index = buttons.indexOf(target);
    let next;
    const step = keys[event.key];
    if (step === "first") next = buttons[0];
    else if (step === "last") next = buttons[buttons.length - 1];
    else next = buttons[(index + Number(step) + buttons.length) % buttons.length];
    if (!next) return;
    event.preventDefault();
    for (const button of buttons) button.tabIndex = button === next ? 0 : -1;
    next.focus();
  }

  /**
   * @param {string} code
   * @param {HTMLElement} button
   */
  clickCard(code, button) {
    if (this.offline || this.inFlight) return;
    if (!this.myTurn()) {
      // A quick second tap that lands once the move's answer came is no attempt to play out
      // of turn: nothing to say.
      const doubleTap = performance.now() - this.sentAt < DOUBLE_TAP_MS;
      if (!doubleTap && this.state && this.state.status === "playing" && !this.myForfeit()) {
        this.showError(gettext("Wait for your turn."));
      }
      return;
    }
    const actions = this.legalFor(code);
    if (!actions.length) {
      // Not legal: the server says why, in its own words (docs/protocol.md § act, `illegal`).
      this.handlers.onIllegal(code);
      return;
    }
    // "Tap twice to play": the first tap raises the card, a second tap on it plays it.
    if (this.tapConfirm && this.selected !== code && this.jokerChoice !== code) {
      this.select(code);
      return;
    }
    if (actions.length === 1) {
      this.jokerChoice = null;
      this.selected = null;
      this.handlers.onAction(actions[0]);
      return;
    }
    this.jokerChoice = code;
    this.renderPanel(true);
    this.fitFelt();
    button.classList.add("choosing");
  }

  /** @param {string | null} code */
  select(code) {
    this.selected = code;
    for (const card of /** @type {NodeListOf<HTMLElement>} */ (
      this.root.querySelectorAll(".mine .card.selected")
    )) {
      card.classList.remove("selected");
      card.removeAttribute("aria-pressed");
    }
    const card = code && this.root.querySelector(`.mine .card.legal[data-card="${code}"]`);
    if (card) {
      card.classList.add("selected");
      card.setAttribute("aria-pressed", "true");
    }
  }

  renderTurnLine() {
    const state = /** @type {StateFrame} */ (this.state);
    const view = state.view;
    const line = this.turnLine;
    line.replaceChildren();
    line.className = "turn-line";
    if (!view) return;
    if (state.status !== "playing") {
      const reason = state.result && state.result.reason;
      line.textContent =
        reason === "aborted"
          ? gettext("The match was aborted.")
          : state.status === "aborted"
            ? gettext("The match was cancelled.")
            : gettext("The match is over.");
      return;
    }
    const seat = view.to_act;
    if (seat === null || seat === undefined) return;
    const name = seatName(state, seat);
    /** @type {string} */
    let text;
    if (seat === this.me) {
      line.classList.add("mine");
      /** @type {Record<string, string>} */
      const mine = {
        trump: gettext("Your turn: choose the trump."),
        bid: gettext("Your turn: bid."),
        declare: gettext("Your turn: spel or pass."),
        play: gettext("Your turn: play a card."),
      };
      text = mine[view.phase] || gettext("Your turn");
    } else {
      /** @type {Record<string, string>} */
      const theirs = {
        trump: fmt(gettext("%(name)s is choosing the trump."), { name }),
        bid: fmt(gettext("%(name)s is bidding."), { name }),
        declare: fmt(gettext("%(name)s is choosing spel or pass."), { name }),
        play: fmt(gettext("Waiting for %(name)s to play."), { name }),
      };
      text = theirs[view.phase] || fmt(gettext("Waiting for %(name)s."), { name });
    }
    // The seat to act is away: its absence bank drains meanwhile, so it is counted here too.
    const away = el("span", "turn-absence");
    away.id = "turn-absence";
    line.append(
      el("span", "", text),
      " ",
      Object.assign(el("span", "turn-clock"), { id: "turn-clock" }),
      away,
    );
    if (seat === this.me && oneTimeoutFromForfeit(state)) {
      line.append(
        " ",
        Object.assign(el("strong", "turn-warning", lastTimeoutReminder()), { id: "turn-warning" }),
      );
    }
  }

  // --- the trick ---------------------------------------------------------------------------------

  /** @param {StateFrame | null} previous */
  renderTrick(previous) {
    const view = /** @type {StateFrame} */ (this.state).view;
    const box = this.trickCards;
    box.replaceChildren();
    this.trickInfo.textContent = "";
    if (!view) return;
    // The trump again, beside the trick, so it stays in sight while the page is scrolled.
    const words = this.game.trumpText(view);
    const trump = el("span", "trick-trump");
    trump.setAttribute("role", "img");
    trump.setAttribute("aria-label", words);
    trump.title = words;
    if (view.trump) {
      trump.classList.add(`suit-${view.trump}`);
      trump.textContent = SUIT_SYMBOL[view.trump];
    } else {
      trump.textContent = "trump" in view ? "∅" : "?";
    }
    box.append(trump);
    const before = previous && previous.view ? previous.view : null;
    const prevTrick = before ? before.trick : [];
    const seen = new Set(prevTrick.map((p) => p.card));
    const trick = view.trick || [];
    for (const [index, play] of trick.entries()) {
      box.append(this.trickSlot(play, index === 0, !seen.has(play.card)));
    }
    if (!trick.length && view.phase === "play" && view.to_act !== null) {
      const leader = view.to_act;
      this.trickInfo.textContent =
        leader === this.me
          ? gettext("Your lead")
          : fmt(gettext("%(name)s leads"), {
              name: seatName(/** @type {StateFrame} */ (this.state), leader),
            });
    }
    // A trick that was completed by the last move: show it whole, then send it to its winner.
    const last = view.last_trick;
    const changed = last && (!before || JSON.stringify(before.last_trick) !== JSON.stringify(last));
    if (trick.length) {
      this.clearCollect();
    } else if (changed && before && last) {
      this.collect(last, seen);
    }
  }

  /**
   * @param {Play} play
   * @param {boolean} leads
   * @param {boolean} fresh
   */
  trickSlot(play, leads, fresh) {
    const state = /** @type {StateFrame} */ (this.state);
    const slot = el("div", `trick-slot pos-${this.position(play.seat)}`);
    const face = cardFace(play.card);
    face.dataset.seat = String(play.seat);
    if (fresh) face.dataset.fresh = "1";
    let label = fmt(gettext("%(name)s: %(card)s"), {
      name: seatName(state, play.seat),
      card: cardName(play.card),
    });
    const call = callText(play);
    if (call) label += `, ${call}`;
    if (leads) label += `, ${gettext("led")}`;
    face.setAttribute("aria-label", label);
    slot.append(face);
    const badge = callBadge(play);
    if (badge) slot.append(badge);
    if (leads) {
      const tag = el("span", "lead-tag", gettext("led"));
      tag.setAttribute("aria-hidden", "true");
      slot.append(tag);
      slot.classList.add("leader");
    }
    return slot;
  }

  clearCollect() {
    if (this.collectTimer) clearTimeout(this.collectTimer);
    this.collectTimer = null;
    this.trickCollect.replaceChildren();
    this.trickCollect.className = "trick-collect";
    this.trickZone.classList.remove("collecting");
  }

  /**
   * @param {CompletedTrick} last
   * @param {Set<string>} seen
   */
  collect(last, seen) {
    this.clearCollect();
    const layer = this.trickCollect;
    this.trickZone.classList.add("collecting");
    last.plays.forEach((play, index) =>
      layer.append(this.trickSlot(play, index === 0, !seen.has(play.card))),
    );
    const caption = el(
      "p",
      "collect-caption",
      fmt(gettext("%(name)s takes the trick"), {
        name: seatName(/** @type {StateFrame} */ (this.state), last.winner),
      }),
    );
    layer.append(caption);
    const winner = last.winner;
    this.collectTimer = setTimeout(() => {
      if (reducedMotion()) {
        this.clearCollect();
        return;
      }
      const target = this.seatRect(winner);
      const from = layer.getBoundingClientRect();
      if (target) {
        layer.style.setProperty(
          "--to-x",
          `${target.left + target.width / 2 - (from.left + from.width / 2)}px`,
        );
        layer.style.setProperty(
          "--to-y",
          `${target.top + target.height / 2 - (from.top + from.height / 2)}px`,
        );
      }
      layer.classList.add("to-winner");
      this.collectTimer = setTimeout(() => this.clearCollect(), 600);
    }, 1100);
  }

  // --- decisions ---------------------------------------------------------------------------------

  renderPanel(force = false) {
    const view = /** @type {StateFrame} */ (this.state).view;
    const panel = this.panel;
    let kind = "";
    /** @type {HTMLElement | null} */
    let content = null;
    if (view && this.myTurn()) {
      const make = this.game.decisions[view.phase];
      if (this.jokerChoice) {
        kind = `joker-${this.jokerChoice}`;
        content = jokerPanel(this, this.jokerChoice, this.game.jokerLeadText, () =>
          this.cancelJoker(),
        );
      } else if (make) {
        kind = view.phase;
        content = make(this);
      }
    }
    if (!content && view && this.game.watching) {
      content = this.game.watching(this);
      if (content) kind = "watching";
    }
    const fresh = kind !== this.panelKind || force;
    this.panelKind = kind;
    panel.replaceChildren();
    panel.hidden = !content;
    this.root.classList.toggle("deciding", Boolean(content) && kind !== "watching");
    this.root.classList.toggle("choosing-joker", kind.startsWith("joker-"));
    if (!content) return;
    panel.append(content);
    // A new decision takes the keyboard focus, unless the person is busy elsewhere on the page.
    const active = document.activeElement;
    const free = !active || active === document.body || this.root.contains(active);
    if (fresh && free && kind !== "watching") {
      const first = /** @type {HTMLElement | null} */ (
        panel.querySelector("button:not([disabled])")
      );
      if (first) first.focus({ preventScroll: true });
    }
  }

  cancelJoker() {
    const code = this.jokerChoice;
    this.jokerChoice = null;
    this.renderPanel();
    this.fitFelt();
    this.root.querySelectorAll(".card.choosing").forEach((c) => c.classList.remove("choosing"));
    const card = /** @type {HTMLElement | null} */ (
      code && this.root.querySelector(`.mine [data-card="${code}"]`)
    );
    if (card) card.focus();
  }

  // --- clocks --------------------------------------------------------------------------------------

  now() {
    return Date.now() + this.skew;
  }

  /**
   * What is left of a seat's bank now: counted down from `bank_deadline` while it drains, else
   * as the frame said (`bank_ms`); null when the frame names no bank (a server before banks).
   * @param {import("./protocol.js").SeatEntry} entry
   * @param {number} now
   */
  bankLeft(entry, now) {
    if (entry.bank_deadline) return Math.max(0, Date.parse(entry.bank_deadline) - now);
    return typeof entry.bank_ms === "number" ? entry.bank_ms : null;
  }

  /**
   * The turn clock's words: "0:12", or once it has run out and the bank runs, "bank 0:24".
   * @param {number} ms
   */
  turnClockText(ms) {
    const time = clockText(ms);
    const state = /** @type {StateFrame} */ (this.state);
    return state.clocks.turn_on_bank ? fmt(gettext("bank %(time)s"), { time }) : time;
  }

  tick() {
    const state = this.state;
    if (!state) return;
    const clocks = state.clocks;
    const now = this.now();
    const playing = state.status === "playing";
    for (let seat = 0; seat < this.n; seat += 1) {
      const box = this.zones[seat].box;
      const clock = box.querySelector("[data-clock-seat]");
      const absence = box.querySelector("[data-absence-seat]");
      const bank = box.querySelector("[data-bank-seat]");
      const turn = playing && clocks.turn_seat === seat && Boolean(clocks.turn_deadline);
      let text = "";
      if (turn && clocks.turn_deadline) {
        text = this.turnClockText(Date.parse(clocks.turn_deadline) - now);
      }
      if (clock) {
        clock.textContent = text;
        const left = clocks.turn_deadline ? Date.parse(clocks.turn_deadline) - now : Infinity;
        clock.classList.toggle("low", left < 10000);
        clock.classList.toggle("on-bank", turn && Boolean(clocks.turn_on_bank));
      }
      const entry = (state.seats || []).find((s) => s.seat === seat);
      // Every player's bank, counted down while it drains; the turn clock says it already for
      // the seat whose turn is on its bank. A computer never needs one.
      let banked = "";
      const counted = entry && playing && !entry.bot && !entry.forfeited;
      const left = entry && counted ? this.bankLeft(entry, now) : null;
      if (entry && left !== null && !(turn && clocks.turn_on_bank)) {
        banked = fmt(gettext("bank %(time)s"), { time: clockText(left) });
      }
      if (bank) {
        bank.textContent = banked;
        bank.classList.toggle("draining", Boolean(entry && entry.bank_deadline));
        bank.classList.toggle("low", left !== null && left < 10000);
      }
      let away = "";
      if (entry && entry.absence_deadline && playing) {
        away = fmt(gettext("%(name)s disconnected — forfeits in %(time)s"), {
          name: displayName(entry.name),
          time: clockText(Date.parse(entry.absence_deadline) - now),
        });
      }
      if (absence) absence.textContent = away;
    }
    const turnClock = this.root.querySelector("#turn-clock");
    if (turnClock) {
      turnClock.textContent =
        clocks.turn_deadline && playing
          ? this.turnClockText(Date.parse(clocks.turn_deadline) - now)
          : "";
      turnClock.classList.toggle("on-bank", playing && Boolean(clocks.turn_on_bank));
    }
    const turnAway = this.root.querySelector("#turn-absence");
    if (turnAway) {
      const toAct = state.view ? state.view.to_act : null;
      const box =
        toAct === null ? null : this.zones[toAct].box.querySelector("[data-absence-seat]");
      turnAway.textContent = box ? box.textContent || "" : "";
    }
  }
}
