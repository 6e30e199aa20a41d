// Drawing the table from a `state` snapshot (docs/protocol.md): seats, table cards (columns in
// Japanese Joker, the layout in Japanese Whist), the trick, the hand and the decisions.
// The server decides what may be played: `view.legal` is the only source of playable cards.
import {
  SUIT_SYMBOL,
  cardBack,
  cardFace,
  cardName,
  sortHand,
  suitName,
  suitTitle,
} from "./cards.js";
import { cardRects, glide, reducedMotion } from "./feel.js";

export const GAMES = {
  japanese_joker: { seats: 2, tricks: 18 },
  classic_joker: { seats: 4, tricks: null },
  japanese_whist: { seats: 2, tricks: 26 },
};

const POSITIONS = { 2: ["bottom", "top"], 4: ["bottom", "left", "top", "right"] };

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

export function fmt(format, values) {
  return interpolate(format, values, true);
}

export function seatName(state, seat) {
  const entry = state.seats && state.seats.find((s) => s.seat === seat);
  return entry && entry.name ? entry.name : fmt(gettext("Seat %(number)s"), { number: seat + 1 });
}

export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return `${minutes}:${seconds}`;
}

export function trumpText(view) {
  if (!view || !("trump" in view)) return gettext("Trump not chosen yet");
  if (view.trump === null) {
    return view.game === "spel_pass" ? gettext("No trump") : gettext("No trump (bezi)");
  }
  return fmt(gettext("Trump: %(suit)s"), { suit: suitName(view.trump) });
}

// A joker's declaration as words: "wants hearts", "takes spades", "high", "low".
export function callText(play) {
  if (!play.call) return "";
  const suit = play.suit ? suitName(play.suit) : "";
  switch (play.call) {
    case "want":
      return fmt(gettext("wants %(suit)s"), { suit });
    case "take":
      return fmt(gettext("takes %(suit)s"), { suit });
    case "high":
      return gettext("high");
    case "low":
      return gettext("low");
    default:
      return "";
  }
}

function callBadge(play) {
  if (!play.call) return null;
  const badge = el("span", "call-badge");
  badge.setAttribute("aria-hidden", "true");
  if (play.call === "want" || play.call === "take") {
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
  constructor(root, handlers) {
    this.root = root;
    this.handlers = handlers; // onAction(action), onTool(name), onIllegal(card)
    this.state = null;
    this.skew = 0; // server clock minus ours, in ms
    this.jokerChoice = null; // the joker whose options are open in the action panel
    this.panelKind = "";
    this.collectTimer = null;
    this.offline = false;
  }

  get game() {
    return this.state ? this.state.game : this.root.dataset.game;
  }

  get n() {
    return (GAMES[this.game] || { seats: 2 }).seats;
  }

  get me() {
    return this.state ? this.state.seat : null;
  }

  get viewpoint() {
    return this.me === null || this.me === undefined ? 0 : this.me;
  }

  position(seat) {
    return POSITIONS[this.n][(seat - this.viewpoint + this.n) % this.n];
  }

  // --- the frame, built once -------------------------------------------------------------------

  build() {
    const root = this.root;
    root.replaceChildren();
    root.classList.add("play", `game-${this.game}`, `seats-${this.n}`);

    const bar = el("div", "play-bar");
    this.facts = el("div", "play-facts");
    this.facts.id = "play-facts";
    const tools = el("div", "play-tools");
    tools.setAttribute("role", "toolbar");
    tools.setAttribute("aria-label", gettext("Table tools"));
    const tool = (name, label, pressed, icon) => {
      const button = el("button", icon ? "tool compact" : "tool");
      if (icon) {
        const symbol = el("span", "tool-icon", icon);
        symbol.setAttribute("aria-hidden", "true");
        button.append(symbol);
      }
      button.append(el("span", "tool-label", label));
      button.type = "button";
      button.id = `tool-${name}`;
      if (pressed !== undefined) button.setAttribute("aria-pressed", String(pressed));
      button.addEventListener("click", () => this.handlers.onTool(name, button));
      tools.append(button);
      return button;
    };
    this.tools = {
      lastTrick: tool("last-trick", gettext("Last trick")),
      scores: tool(
        "scores",
        this.game === "classic_joker" ? gettext("Score sheet") : gettext("Scores"),
      ),
      sound: tool("sound", gettext("Sound"), false, "♪"),
      colours: tool("colours", gettext("Four colours"), false, "♣♦"),
      result: tool("result", gettext("Result")),
      leave: tool("leave", gettext("Leave")),
    };
    this.tools.result.hidden = true;
    this.tools.leave.classList.add("danger");
    bar.append(this.facts, tools);

    this.status = el("p", "conn-status");
    this.status.id = "conn-status";
    this.status.setAttribute("role", "status");

    const felt = el("div", "felt");
    this.felt = felt;
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

    root.append(
      bar,
      this.status,
      felt,
      this.turnLine,
      this.error,
      this.panel,
      this.handZone,
      this.announcer,
    );
    root.addEventListener("keydown", (event) => this.arrowKeys(event));
    window.addEventListener("resize", () => this.fitHand());
    this.built = true;
  }

  placeZones() {
    for (let seat = 0; seat < this.n; seat += 1) {
      const { zone } = this.zones[seat];
      const position = this.position(seat);
      zone.className = `seat-zone pos-${position}${seat === this.me ? " me" : ""}`;
      if (!zone.parentNode) this.felt.append(zone);
    }
    // Reading order: the others, the trick, then the viewer's own seat.
    const order = [...Array(this.n).keys()].sort((a, b) => {
      const rank = { top: 0, left: 1, right: 2, bottom: 4 };
      return rank[this.position(a)] - rank[this.position(b)];
    });
    for (const seat of order) {
      if (this.position(seat) === "bottom") this.felt.append(this.trickZone);
      this.felt.append(this.zones[seat].zone);
    }
  }

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

  showError(text) {
    this.error.textContent = text;
    clearTimeout(this.errorTimer);
    if (text) this.errorTimer = setTimeout(() => (this.error.textContent = ""), 8000);
  }

  // --- drawing a snapshot --------------------------------------------------------------------

  render(state, previous) {
    const first = !this.state;
    const rects = first ? new Map() : cardRects(this.root);
    const focused = document.activeElement;
    const focusCard = focused && focused.dataset ? focused.dataset.card : null;
    const focusInside = focused && this.root.contains(focused);
    this.state = state;
    this.skew = Date.parse(state.clocks.server_time) - Date.now() || 0;
    if (!this.built) this.build();
    if (first) this.placeZones();
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
    this.tools.leave.hidden = this.me === null || state.status !== "playing" || this.myForfeit();
    this.tools.lastTrick.disabled = !(view && view.last_trick);
    this.tick();
    // Keep the keyboard where it was: the same card, else the first playable one.
    if (focusInside && focusCard) {
      const again = this.root.querySelector(`.mine [data-card="${focusCard}"]`);
      const next =
        again ||
        this.root.querySelector(".mine .card.legal") ||
        this.root.querySelector(".mine button.card");
      if (next) next.focus({ preventScroll: true });
    }
    // Cards that moved since the last snapshot glide to their new place.
    if (!first) {
      for (const node of this.root.querySelectorAll(
        ".trick-cards [data-card], .trick-collect [data-card]",
      )) {
        if (node.dataset.fresh === "1")
          glide(node, rects.get(node.dataset.card) || this.seatRect(Number(node.dataset.seat)));
      }
    }
  }

  renderPresence(state) {
    this.state = state;
    this.skew = Date.parse(state.clocks.server_time) - Date.now() || 0;
    for (let seat = 0; seat < this.n; seat += 1) this.renderSeatBox(seat);
    this.renderTurnLine();
    this.tick();
  }

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

  legal() {
    return (this.state && this.state.view && this.state.view.legal) || [];
  }

  legalFor(card) {
    return this.legal().filter((a) => a.type === "play" && a.card === card);
  }

  renderFacts() {
    const { view } = this.state;
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
      trump.append(el("span", "trump-symbol", SUIT_SYMBOL[view.trump]));
      trump.firstChild.setAttribute("aria-hidden", "true");
    } else if ("trump" in view) {
      trump.classList.add("no-trump");
    }
    trump.append(el("span", "trump-text", trumpText(view)));
    facts.append(trump);
    if (this.game === "classic_joker" && view.trump_card) {
      const turned = el("span", "fact turned");
      turned.append(
        el("span", "muted", gettext("Turned card")),
        " ",
        cardFace(view.trump_card, { size: "small" }),
      );
      facts.append(turned);
    }
    let round = "";
    if (this.game === "classic_joker") {
      round = fmt(gettext("Deal %(deal)s of %(total)s · %(cards)s cards each · pulka %(pulka)s"), {
        deal: view.deal_number,
        total: view.schedule.length,
        cards: view.cards,
        pulka: view.pulka + 1,
      });
    } else if (this.game === "japanese_whist") {
      round = fmt(gettext("Deal %(deal)s · to %(target)s points"), {
        deal: view.hand_number,
        target: view.target,
      });
      if (view.contract) {
        round += ` · ${view.contract === "spel" ? gettext("Spel") : gettext("Pass")}`;
      }
    } else {
      round = fmt(gettext("Hand %(hand)s · to %(target)s points"), {
        hand: view.hand_number,
        target: view.target,
      });
    }
    facts.append(el("span", "fact round", round));
    if (view.phase === "play") {
      const total = this.game === "classic_joker" ? view.cards : GAMES[this.game].tricks;
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

  renderSeatBox(seat) {
    const state = this.state;
    const view = state.view;
    const entry = (state.seats || []).find((s) => s.seat === seat) || {};
    const box = this.zones[seat].box;
    box.replaceChildren();
    box.className = "seat-box";
    const toAct = view && state.status === "playing" && view.to_act === seat;
    box.classList.toggle("to-act", Boolean(toAct));
    box.classList.toggle("absent", entry.connected === false && !entry.bot);
    const name = el("span", "seat-name", seatName(state, seat));
    box.append(name);
    if (seat === this.me) box.append(el("span", "badge you", gettext("you")));
    if (view) {
      if (this.game === "japanese_joker" && view.declarer === seat)
        box.append(el("span", "badge role", gettext("declarer")));
      if (this.game === "classic_joker" && view.dealer === seat)
        box.append(el("span", "badge role", gettext("dealer")));
      if (this.game === "japanese_whist") {
        box.append(
          el(
            "span",
            "badge role",
            view.forehand === seat ? gettext("forehand") : gettext("dealer"),
          ),
        );
      }
    }
    if (entry.bot) box.append(el("span", "badge bot", gettext("computer")));
    else if (entry.forfeited) box.append(el("span", "badge gone", gettext("left")));
    else if (entry.connected === false) box.append(el("span", "badge gone", gettext("offline")));
    if (view) {
      const stats = el("span", "seat-stats");
      if (this.game === "classic_joker") {
        const bid = view.bids[seat];
        stats.append(
          el(
            "span",
            "stat bid",
            bid === null
              ? fmt(gettext("bid %(bid)s"), { bid: "–" })
              : fmt(gettext("bid %(bid)s"), { bid }),
          ),
          el("span", "stat took", fmt(gettext("took %(tricks)s"), { tricks: view.tricks[seat] })),
          el("span", "stat score", fmt(gettext("%(points)s pts"), { points: view.scores[seat] })),
        );
      } else {
        stats.append(
          el("span", "stat took", fmt(gettext("tricks %(tricks)s"), { tricks: view.tricks[seat] })),
          el("span", "stat score", fmt(gettext("score %(points)s"), { points: view.scores[seat] })),
        );
      }
      box.append(stats);
    }
    const clock = el("span", "seat-clock");
    clock.dataset.clockSeat = String(seat);
    const absence = el("span", "seat-absence");
    absence.dataset.absenceSeat = String(seat);
    box.append(clock, absence);
  }

  // The cards that lie in front of a seat: hand backs for the others, columns or layout for all.
  renderSeatCards(seat) {
    const view = this.state.view;
    const holder = this.zones[seat].cards;
    holder.replaceChildren();
    if (!view) return;
    const mine = seat === this.me;
    if (!mine) holder.append(this.handBacks(seat));
    if (this.game === "japanese_joker") holder.append(this.columns(seat));
    if (this.game === "japanese_whist") holder.append(this.layout(seat));
  }

  handBacks(seat) {
    const view = this.state.view;
    const count = view.hand_counts[seat];
    const known = (view.known_in_hand && view.known_in_hand[seat]) || [];
    const fan = el("div", "hand-backs");
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
    button.tabIndex = -1;
    button.addEventListener("click", () => this.clickCard(code, button));
    return button;
  }

  columns(seat) {
    const view = this.state.view;
    const row = el("div", `columns${seat === this.me ? " mine" : ""}`);
    row.setAttribute("role", "group");
    row.setAttribute(
      "aria-label",
      seat === this.me
        ? gettext("Your columns")
        : fmt(gettext("%(name)s’s columns"), { name: seatName(this.state, seat) }),
    );
    view.columns[seat].forEach((slot, index) => {
      const column = el("div", "column");
      column.dataset.index = String(index);
      if (!slot) {
        column.classList.add("empty");
        row.append(column);
        return;
      }
      column.append(cardBack({ size: "" }));
      if (slot.up) {
        const up = seat === this.me ? this.playable(slot.up, "column") : cardFace(slot.up);
        up.classList.add("on-top");
        column.append(up);
      }
      row.append(column);
    });
    return row;
  }

  layout(seat) {
    const view = this.state.view;
    const grid = el("div", `layout${seat === this.me ? " mine" : ""}`);
    grid.setAttribute("role", "group");
    grid.setAttribute(
      "aria-label",
      seat === this.me
        ? gettext("Your layout")
        : fmt(gettext("%(name)s’s layout"), { name: seatName(this.state, seat) }),
    );
    view.layout[seat].forEach((position, index) => {
      const spot = el("div", "column");
      spot.dataset.index = String(index);
      if (!position) {
        spot.classList.add("empty");
      } else {
        if (position.down)
          spot.append(cardBack({ label: position.up ? "" : gettext("face-down card") }));
        if (position.up) {
          const up =
            seat === this.me ? this.playable(position.up, "layout") : cardFace(position.up);
          up.classList.add("on-top");
          spot.append(up);
        }
      }
      grid.append(spot);
    });
    return grid;
  }

  renderHand() {
    const view = this.state.view;
    this.hand.replaceChildren();
    this.handNote.textContent = "";
    this.handZone.hidden = !view;
    if (!view) return;
    if (this.me === null) {
      this.hand.setAttribute("aria-label", gettext("Spectating"));
      this.handNote.textContent = gettext("You are watching this match.");
      return;
    }
    if (this.myForfeit() && this.state.status === "playing") {
      this.handNote.textContent =
        this.game === "classic_joker"
          ? gettext("You left this match: a computer player plays your seat.")
          : gettext("You left this match.");
    }
    const cards = view.hand || [];
    if (this.game === "japanese_whist" && view.hand_locked) {
      const count = view.hand_counts[this.me];
      for (let i = 0; i < count; i += 1) this.hand.append(cardBack());
      this.handNote.textContent = gettext(
        "Your hand cards stay face down until the first trick is complete.",
      );
      this.hand.setAttribute(
        "aria-label",
        fmt(gettext("Your hand: %(count)s face-down cards"), { count }),
      );
    } else {
      this.hand.setAttribute("aria-label", gettext("Your hand"));
      for (const code of sortHand(cards, view.trump)) this.hand.append(this.playable(code, "hand"));
      if (view.phase === "trump" && this.game !== "japanese_whist") {
        this.handNote.textContent = gettext(
          "Your first cards: the rest are dealt after the trump is chosen.",
        );
      }
    }
    this.fitHand();
    this.rovingFocus();
  }

  // Fan the hand: overlap the cards just enough to fit the width; two rows when too tight.
  fitHand() {
    const hand = this.hand;
    hand.classList.remove("two-rows");
    for (const gap of hand.querySelectorAll(".row-break")) gap.remove();
    const cards = [...hand.children];
    for (const card of cards) card.style.marginLeft = "";
    if (cards.length < 2) return;
    const width = hand.clientWidth - 8;
    const cardWidth = cards[0].getBoundingClientRect().width || 60;
    const fit = (count) => (width - cardWidth) / (count - 1);
    let perRow = cards.length;
    if (fit(perRow) < Math.min(30, cardWidth * 0.6) && cards.length > 6) {
      perRow = Math.ceil(cards.length / 2);
      hand.classList.add("two-rows");
      const gap = el("span", "row-break");
      gap.setAttribute("aria-hidden", "true");
      hand.insertBefore(gap, cards[perRow]);
    }
    const step = Math.min(cardWidth + 6, fit(perRow));
    const overlap = step - cardWidth;
    cards.forEach((card, index) => {
      if (index % perRow !== 0) card.style.marginLeft = `${overlap}px`;
    });
  }

  rovingFocus() {
    const buttons = [...this.root.querySelectorAll(".mine button.card")];
    if (!buttons.length) return;
    const start = buttons.find((b) => b.classList.contains("legal")) || buttons[0];
    for (const button of buttons) button.tabIndex = button === start ? 0 : -1;
  }

  arrowKeys(event) {
    const target = event.target;
    if (!target.matches || !target.matches(".mine button.card")) return;
    const keys = {
      ArrowLeft: -1,
      ArrowUp: -1,
      ArrowRight: 1,
      ArrowDown: 1,
      Home: "first",
      End: "last",
    };
    if (!(event.key in keys)) return;
    const buttons = [...this.root.querySelectorAll(".mine button.card")];
    const index = buttons.indexOf(target);
    let next;
    const step = keys[event.key];
    if (step === "first") next = buttons[0];
    else if (step === "last") next = buttons[buttons.length - 1];
    else next = buttons[(index + step + buttons.length) % buttons.length];
    if (!next) return;
    event.preventDefault();
    for (const button of buttons) button.tabIndex = button === next ? 0 : -1;
    next.focus();
  }

  clickCard(code, button) {
    if (this.offline) return;
    if (!this.myTurn()) {
      if (this.state && this.state.status === "playing" && !this.myForfeit()) {
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
    if (actions.length === 1) {
      this.jokerChoice = null;
      this.handlers.onAction(actions[0]);
      return;
    }
    this.jokerChoice = code;
    this.renderPanel(true);
    button.classList.add("choosing");
  }

  renderTurnLine() {
    const state = this.state;
    const view = state.view;
    const line = this.turnLine;
    line.replaceChildren();
    line.className = "turn-line";
    if (!view) return;
    if (state.status !== "playing") {
      line.textContent =
        state.status === "aborted"
          ? gettext("The match was cancelled.")
          : gettext("The match is over.");
      return;
    }
    const seat = view.to_act;
    if (seat === null || seat === undefined) return;
    const name = seatName(state, seat);
    let text;
    if (seat === this.me) {
      line.classList.add("mine");
      text =
        {
          trump: gettext("Your turn: choose the trump."),
          bid: gettext("Your turn: bid."),
          declare: gettext("Your turn: spel or pass."),
          play: gettext("Your turn: play a card."),
        }[view.phase] || gettext("Your turn");
    } else {
      text =
        {
          trump: fmt(gettext("%(name)s is choosing the trump."), { name }),
          bid: fmt(gettext("%(name)s is bidding."), { name }),
          declare: fmt(gettext("%(name)s is choosing spel or pass."), { name }),
          play: fmt(gettext("Waiting for %(name)s to play."), { name }),
        }[view.phase] || fmt(gettext("Waiting for %(name)s."), { name });
    }
    line.append(
      el("span", "", text),
      " ",
      Object.assign(el("span", "turn-clock"), { id: "turn-clock" }),
    );
  }

  // --- the trick ---------------------------------------------------------------------------------

  renderTrick(previous) {
    const view = this.state.view;
    const box = this.trickCards;
    box.replaceChildren();
    this.trickInfo.textContent = "";
    if (!view) return;
    // The trump again, beside the trick, so it stays in sight while the page is scrolled.
    const trump = el("span", "trick-trump");
    trump.setAttribute("role", "img");
    trump.setAttribute("aria-label", trumpText(view));
    trump.title = trumpText(view);
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
          : fmt(gettext("%(name)s leads"), { name: seatName(this.state, leader) });
    }
    // A trick that was completed by the last move: show it whole, then send it to its winner.
    const last = view.last_trick;
    const changed = last && (!before || JSON.stringify(before.last_trick) !== JSON.stringify(last));
    if (trick.length) {
      this.clearCollect();
    } else if (changed && before) {
      this.collect(last, seen);
    }
  }

  trickSlot(play, leads, fresh) {
    const slot = el("div", `trick-slot pos-${this.position(play.seat)}`);
    const face = cardFace(play.card);
    face.dataset.seat = String(play.seat);
    if (fresh) face.dataset.fresh = "1";
    let label = fmt(gettext("%(name)s: %(card)s"), {
      name: seatName(this.state, play.seat),
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
    clearTimeout(this.collectTimer);
    this.collectTimer = null;
    this.trickCollect.replaceChildren();
    this.trickCollect.className = "trick-collect";
    this.trickZone.classList.remove("collecting");
  }

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
      fmt(gettext("%(name)s takes the trick"), { name: seatName(this.state, last.winner) }),
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
    const view = this.state.view;
    const panel = this.panel;
    let kind = "";
    let content = null;
    if (view && this.myTurn() && !this.myForfeit()) {
      if (this.jokerChoice) {
        kind = `joker-${this.jokerChoice}`;
        content = this.jokerPanel(this.jokerChoice);
      } else if (view.phase === "trump") {
        kind = "trump";
        content = this.trumpPanel();
      } else if (view.phase === "bid") {
        kind = "bid";
        content = this.bidPanel();
      } else if (view.phase === "declare") {
        kind = "declare";
        content = this.declarePanel();
      }
    }
    if (!content && view && this.game === "classic_joker" && view.phase === "bid") {
      kind = "bids";
      content = this.bidsSoFar();
    }
    const fresh = kind !== this.panelKind || force;
    this.panelKind = kind;
    panel.replaceChildren();
    panel.hidden = !content;
    if (!content) return;
    panel.append(content);
    // A new decision takes the keyboard focus, unless the person is busy elsewhere on the page.
    const active = document.activeElement;
    const free = !active || active === document.body || this.root.contains(active);
    if (fresh && free && kind !== "bids") {
      const first = panel.querySelector("button:not([disabled])");
      if (first) first.focus({ preventScroll: true });
    }
  }

  decision(titleText, describe) {
    const box = el("div", "decision");
    box.setAttribute("role", "group");
    const title = el("h2", "decision-title", titleText);
    title.id = "decision-title";
    box.setAttribute("aria-labelledby", title.id);
    box.append(title);
    if (describe) box.append(el("p", "decision-text", describe));
    return box;
  }

  choiceButton(label, action, { suit = null, aria = "" } = {}) {
    const button = el("button", "button choice");
    button.type = "button";
    if (suit) {
      const symbol = el("span", `choice-symbol suit-${suit}`, SUIT_SYMBOL[suit]);
      symbol.setAttribute("aria-hidden", "true");
      button.append(symbol, " ");
    }
    button.append(el("span", "", label));
    if (aria) button.setAttribute("aria-label", aria);
    if (action) button.addEventListener("click", () => this.handlers.onAction(action));
    else button.disabled = true;
    return button;
  }

  trumpPanel() {
    const legal = this.legal().filter((a) => a.type === "trump");
    const text =
      this.game === "japanese_whist"
        ? gettext("You see the twenty face-up cards. Name the trump suit for this deal.")
        : gettext("Choose the trump from your first three cards.");
    const box = this.decision(gettext("Choose the trump"), text);
    const row = el("div", "choices");
    for (const action of legal) {
      row.append(this.choiceButton(suitTitle(action.suit), action, { suit: action.suit }));
    }
    box.append(row);
    return box;
  }

  bidPanel() {
    const view = this.state.view;
    const legal = new Map(
      this.legal()
        .filter((a) => a.type === "bid")
        .map((a) => [a.tricks, a]),
    );
    const box = this.decision(
      gettext("Your bid"),
      fmt(gettext("How many of the %(cards)s tricks will you take?"), { cards: view.cards }),
    );
    const row = el("div", "choices bids");
    let forbidden = null;
    for (let tricks = 0; tricks <= view.cards; tricks += 1) {
      const action = legal.get(tricks) || null;
      const label = tricks === 0 ? gettext("Pass (0)") : String(tricks);
      const button = this.choiceButton(label, action, {
        aria: tricks === 0 ? gettext("Pass, bid 0") : fmt(gettext("Bid %(tricks)s"), { tricks }),
      });
      button.dataset.bid = String(tricks);
      if (!action) {
        forbidden = tricks;
        button.title = gettext("The dealer may not make the bids add up to the number of cards.");
      }
      row.append(button);
    }
    box.append(row);
    if (forbidden !== null) {
      box.append(
        el(
          "p",
          "decision-text muted",
          fmt(
            gettext("As the dealer you may not bid %(bid)s: the bids would add up to %(cards)s."),
            {
              bid: forbidden,
              cards: view.cards,
            },
          ),
        ),
      );
    }
    box.append(this.bidsList());
    return box;
  }

  bidsList() {
    const view = this.state.view;
    const list = el("ul", "bids-list");
    list.setAttribute("aria-label", gettext("Bids so far"));
    for (let i = 1; i <= this.n; i += 1) {
      const seat = (view.dealer + i) % this.n; // bidding starts left of the dealer
      const bid = view.bids[seat];
      const item = el("li", bid === null ? "pending" : "");
      item.append(
        el("span", "", seatName(this.state, seat)),
        " ",
        el("strong", "", bid === null ? "–" : String(bid)),
      );
      list.append(item);
    }
    return list;
  }

  bidsSoFar() {
    const box = el("div", "decision quiet");
    box.append(el("h2", "decision-title", gettext("Bidding")), this.bidsList());
    return box;
  }

  declarePanel() {
    const legal = this.legal().filter((a) => a.type === "declare");
    const box = this.decision(
      gettext("Spel or pass?"),
      gettext("Spel: you aim to take the most tricks. Pass: the fewest."),
    );
    const row = el("div", "choices");
    for (const action of legal) {
      const label = action.contract === "spel" ? gettext("Spel") : gettext("Pass");
      row.append(this.choiceButton(label, action));
    }
    box.append(row);
    return box;
  }

  jokerPanel(code) {
    const actions = this.legalFor(code);
    const led = actions.some((a) => a.call === "want" || a.call === "take");
    const box = this.decision(
      led ? gettext("Lead the joker: call a suit") : gettext("Play the joker high or low"),
      led
        ? this.game === "classic_joker"
          ? gettext(
              "Want: the joker wins unless trumped, everybody plays their highest card of the suit. Take: the suit is led and the highest card takes.",
            )
          : gettext(
              "The joker wants the suit you call: your opponent must play their highest card of it.",
            )
        : gettext("High beats every card, low is the lowest card in the trick."),
    );
    const groups = [
      ["want", gettext("Want")],
      ["take", gettext("Take")],
    ];
    for (const [call, word] of groups) {
      const options = actions.filter((a) => a.call === call);
      if (!options.length) continue;
      const row = el("div", "choices");
      row.setAttribute("role", "group");
      row.setAttribute("aria-label", word);
      for (const action of options) {
        row.append(
          this.choiceButton(`${word} ${suitTitle(action.suit)}`, action, {
            suit: action.suit,
            aria:
              call === "want"
                ? fmt(gettext("Want %(suit)s"), { suit: suitName(action.suit) })
                : fmt(gettext("Take %(suit)s"), { suit: suitName(action.suit) }),
          }),
        );
      }
      box.append(row);
    }
    const plain = actions.filter((a) => a.call === "high" || a.call === "low" || !a.call);
    if (plain.length) {
      const row = el("div", "choices");
      for (const action of plain) {
        const label =
          action.call === "high"
            ? gettext("High")
            : action.call === "low"
              ? gettext("Low")
              : gettext("Play it");
        row.append(this.choiceButton(label, action));
      }
      box.append(row);
    }
    const cancel = el("button", "button secondary small", gettext("Cancel"));
    cancel.type = "button";
    cancel.addEventListener("click", () => this.cancelJoker());
    box.append(cancel);
    box.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this.cancelJoker();
    });
    return box;
  }

  cancelJoker() {
    const code = this.jokerChoice;
    this.jokerChoice = null;
    this.renderPanel();
    this.root.querySelectorAll(".card.choosing").forEach((c) => c.classList.remove("choosing"));
    const card = code && this.root.querySelector(`.mine [data-card="${code}"]`);
    if (card) card.focus();
  }

  // --- clocks --------------------------------------------------------------------------------------

  now() {
    return Date.now() + this.skew;
  }

  tick() {
    const state = this.state;
    if (!state || !this.built) return;
    const clocks = state.clocks || {};
    const now = this.now();
    for (let seat = 0; seat < this.n; seat += 1) {
      const box = this.zones[seat].box;
      const clock = box.querySelector("[data-clock-seat]");
      const absence = box.querySelector("[data-absence-seat]");
      let text = "";
      if (state.status === "playing" && clocks.turn_seat === seat && clocks.turn_deadline) {
        text = clockText(Date.parse(clocks.turn_deadline) - now);
      }
      if (clock) {
        clock.textContent = text;
        const left = clocks.turn_deadline ? Date.parse(clocks.turn_deadline) - now : Infinity;
        clock.classList.toggle("low", left < 10000);
      }
      const entry = (state.seats || []).find((s) => s.seat === seat);
      let away = "";
      if (entry && entry.absence_deadline && state.status === "playing") {
        away = fmt(gettext("%(name)s disconnected — forfeits in %(time)s"), {
          name: entry.name,
          time: clockText(Date.parse(entry.absence_deadline) - now),
        });
      }
      if (absence) absence.textContent = away;
    }
    const turnClock = this.root.querySelector("#turn-clock");
    if (turnClock) {
      turnClock.textContent =
        clocks.turn_deadline && state.status === "playing"
          ? clockText(Date.parse(clocks.turn_deadline) - now)
          : "";
    }
  }
}
