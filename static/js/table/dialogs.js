// @ts-check
// Dialogs of the table: the end of a hand, the scores, the last trick, the match result with its
// coins and rematch, and "Leave and forfeit?". Native <dialog>: Escape closes. All but one are
// modal (focus trapped); the end of a hand is a sheet over the felt that blocks nothing, because
// the next hand's clock is already running and may be the viewer's (the turn line, the decision
// and the hand stay in sight and in reach). What differs between the games comes from the
// game's renderer (games/*.js).
import { cardFace } from "./cards.js";
import { el } from "./dom.js";
import { forfeitBadge, forfeitReason, forfeitSentence } from "./forfeits.js";
import { callText, coinsText, displayName, fmt, seatName } from "./text.js";

/** @typedef {import("./protocol.js").StateFrame} StateFrame */
/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./protocol.js").Rematch} Rematch */
/** @typedef {import("./games/shared.js").GameRenderer} GameRenderer */

export class Dialogs {
  /**
   * @param {HTMLElement} root
   * @param {GameRenderer} game
   */
  constructor(root, game) {
    this.root = root;
    this.game = game;
    /** @type {HTMLDialogElement | null} the <dialog> being shown */
    this.open = null;
  }

  /**
   * @param {string} kind
   * @param {string} title
   * @param {HTMLElement} body
   * @param {HTMLElement[]} [buttons]
   * @param {{docked?: boolean}} [options]  docked: over the felt, not modal
   */
  show(kind, title, body, buttons = [], { docked = false } = {}) {
    this.close();
    const dialog = /** @type {HTMLDialogElement} */ (
      el("dialog", `modal modal-${kind}${docked ? " docked" : ""}`)
    );
    dialog.id = `dialog-${kind}`;
    const heading = el("h2", "modal-title", title);
    heading.id = `dialog-${kind}-title`;
    dialog.setAttribute("aria-labelledby", heading.id);
    const actions = el("div", "modal-actions");
    for (const button of buttons) actions.append(button);
    if (!buttons.some((b) => b.dataset.closes === "1")) {
      actions.append(
        this.button(gettext("Close"), () => this.close(), { secondary: true, closes: true }),
      );
    }
    if (docked) {
      // Its one action beside its title: the felt's whole height is left for what it says.
      const head = el("div", "modal-head");
      head.append(heading, actions);
      dialog.append(head, body);
    } else {
      dialog.append(heading, body, actions);
    }
    dialog.addEventListener("close", () => {
      dialog.remove();
      if (this.open === dialog) this.open = null;
    });
    this.open = dialog;
    if (docked) {
      // Escape closes it as it closes a modal; the keyboard stays where it was.
      dialog.addEventListener("keydown", (event) => {
        if (event.key === "Escape") this.close();
      });
      const focused = /** @type {HTMLElement | null} */ (document.activeElement);
      (this.root.querySelector(".felt") || this.root).append(dialog);
      dialog.show(); // which moves the focus into it: back to where it was (the decision)
      if (focused && focused !== document.body) focused.focus({ preventScroll: true });
      this.toLatest(dialog);
      return dialog;
    }
    this.root.append(dialog);
    dialog.showModal();
    const first = /** @type {HTMLElement | null} */ (
      actions.querySelector("button:not([disabled]), a")
    );
    // The keyboard starts on the first action, but the reader starts at the title.
    if (first) first.focus({ preventScroll: true });
    this.toLatest(dialog);
    return dialog;
  }

  /**
   * The dialog read from its title; a score sheet in it that has more deals than room scrolls
   * on its own (its names and totals stay, table.css) and shows its latest deals first.
   * @param {HTMLDialogElement} dialog
   */
  toLatest(dialog) {
    dialog.scrollTop = 0;
    for (const wrap of dialog.querySelectorAll(".sheet-wrap")) {
      const end = () => {
        if (!wrap.dataset.read) wrap.scrollTop = wrap.scrollHeight;
      };
      // Until the reader scrolls it: the phone turned on its side keeps the latest in sight.
      for (const event of ["wheel", "touchstart", "keydown", "pointerdown"]) {
        wrap.addEventListener(event, () => (wrap.dataset.read = "1"), { passive: true });
      }
      new ResizeObserver(end).observe(wrap);
      end();
    }
  }

  close() {
    if (this.open) {
      const dialog = this.open;
      this.open = null;
      if (dialog.open) dialog.close();
      dialog.remove();
    }
  }

  kind() {
    return this.open ? this.open.id.replace("dialog-", "") : "";
  }

  /**
   * @param {string} label
   * @param {() => void} onClick
   * @param {{secondary?: boolean, danger?: boolean, closes?: boolean}} [options]
   */
  button(label, onClick, { secondary = false, danger = false, closes = false } = {}) {
    const button = /** @type {HTMLButtonElement} */ (
      el("button", `button${secondary ? " secondary" : ""}${danger ? " danger" : ""}`, label)
    );
    button.type = "button";
    if (closes) button.dataset.closes = "1";
    button.addEventListener("click", onClick);
    return button;
  }

  // --- the end of a hand ----------------------------------------------------------------------------

  /** @param {StateFrame} state */
  handSummary(state) {
    const view = /** @type {View} */ (state.view);
    const hand = view.previous_hand;
    if (!hand) return;
    const game = this.game;
    const body = el("div", "modal-body");
    body.append(el("p", "muted", game.trumpText(hand)));
    const table = /** @type {HTMLTableElement} */ (el("table", "summary-table"));
    const head = el("tr");
    head.append(el("th", "", gettext("Player")));
    for (const column of game.summaryColumns) head.append(el("th", "num", column.title));
    table.append(el("thead"), el("tbody"));
    /** @type {HTMLTableSectionElement} */ (table.tHead).append(head);
    hand.tricks.forEach((_tricks, seat) => {
      const row = el("tr");
      const name = el("th", "seat-name", seatName(state, seat));
      name.title = seatName(state, seat); // cut with "…" on a narrow screen
      row.append(name);
      for (const column of game.summaryColumns) {
        const extra = column.className ? column.className(hand, view, seat) : "";
        row.append(el("td", `num${extra ? ` ${extra}` : ""}`, column.cell(hand, view, seat)));
      }
      table.tBodies[0].append(row);
    });
    body.append(table, ...game.summaryExtra(state, hand));
    const go = this.button(gettext("Continue"), () => this.close(), { closes: true });
    this.show("summary", game.summaryTitle(hand), body, [go], { docked: true });
  }

  // --- scores at any time ----------------------------------------------------------------------------

  /** @param {StateFrame} state */
  scores(state) {
    if (!state.view) return;
    const { kind, title, body } = this.game.scores(state);
    const box = el("div", "modal-body");
    box.append(...body);
    this.show(kind, title, box);
  }

  /** @param {StateFrame} state */
  lastTrick(state) {
    const last = state.view && state.view.last_trick;
    if (!last) return;
    const body = el("div", "modal-body");
    const row = el("ol", "last-trick");
    for (const play of last.plays) {
      const item = el("li");
      const face = cardFace(play.card, { size: "small" });
      const call = callText(play);
      item.append(face, el("span", "", `${seatName(state, play.seat)}${call ? ` (${call})` : ""}`));
      row.append(item);
    }
    body.append(
      row,
      el("p", "", fmt(gettext("%(name)s took it."), { name: seatName(state, last.winner) })),
    );
    this.show("last-trick", gettext("Last trick"), body);
  }

  // --- leaving -------------------------------------------------------------------------------------

  /** @param {() => void} onLeave */
  confirmLeave(onLeave) {
    const body = el("div", "modal-body");
    body.append(el("p", "", this.game.leaveText));
    const leave = this.button(
      gettext("Leave and forfeit"),
      () => {
        this.close();
        onLeave();
      },
      { danger: true },
    );
    const stay = this.button(gettext("Stay"), () => this.close(), {
      secondary: true,
      closes: true,
    });
    this.show("leave", gettext("Leave and forfeit?"), body, [stay, leave]);
  }

  // --- the end of the match ----------------------------------------------------------------------------

  /**
   * @param {StateFrame} state
   * @param {() => void} onRematch
   */
  result(state, onRematch) {
    const result = state.result;
    if (!result) return;
    const me = state.seat;
    const body = el("div", "modal-body");
    let title;
    // An abort (a seat left before every seat had moved) and an admin's cancel: no winner.
    const nobodyWon = result.reason === "cancelled" || result.reason === "aborted";
    const winnerNames = (result.winner_names || []).map(displayName);
    if (result.reason === "cancelled") title = gettext("The match was cancelled");
    else if (result.reason === "aborted") title = gettext("The match was aborted");
    else if (me !== null && result.winners.includes(me)) title = gettext("You won!");
    else if (me !== null) title = gettext("You lost");
    else title = fmt(gettext("%(names)s won"), { names: winnerNames.join(", ") });
    const reasons = {
      finished: gettext("The match was played to the end."),
      forfeit: gettext("The match ended by forfeit."),
      cancelled: gettext("An administrator cancelled the match; every stake was refunded."),
      aborted: fmt(
        gettext(
          "The match was aborted: %(name)s forfeited before every player had made a move. Nobody wins, no rating changes and every stake was refunded.",
        ),
        { name: seatName(state, (result.forfeited || [])[0]) },
      ),
    };
    body.append(el("p", "", reasons[result.reason] || ""));
    // Why each seat forfeited: "three turns in a row played by the clock" is not "left".
    for (const seat of result.forfeited || []) {
      const why = forfeitSentence(state, seat);
      if (why) body.append(Object.assign(el("p", "forfeit-why", why), { id: `forfeit-why-${seat}` }));
    }
    // What the match did to the viewer's coins (docs/protocol.md § Match end and rematch).
    const coins = result.coins;
    if (coins && me !== null && typeof coins[me] === "number") {
      const delta = coins[me];
      const line = el("p", `coins-result ${delta > 0 ? "plus" : delta < 0 ? "minus" : ""}`);
      line.id = "coins-result";
      line.textContent = coinsText(delta);
      body.append(line);
    }
    if (winnerNames.length && !nobodyWon) {
      body.append(
        el("p", "winners", fmt(gettext("Winner: %(names)s"), { names: winnerNames.join(", ") })),
      );
    }
    // Places: classic Joker's view ranks the seats (1, 1, 3, 4; leavers last); in the two-player
    // games the winner comes first, then by score.
    const scores = result.scores || [];
    const places = state.view && state.view.ranking;
    const winners = result.winners || [];
    const order = [...scores.keys()].sort((a, b) =>
      places
        ? places[a] - places[b] || a - b
        : Number(winners.includes(b)) - Number(winners.includes(a)) || scores[b] - scores[a],
    );
    const list = el("ol", "score-list");
    order.forEach((seat, index) => {
      const item = /** @type {HTMLLIElement} */ (el("li"));
      item.value = places ? places[seat] : index + 1;
      item.append(
        el("span", "seat-name", seatName(state, seat)),
        " ",
        el("strong", "", String(scores[seat])),
      );
      if (coins && typeof coins[seat] === "number" && coins[seat] !== 0) {
        const delta = coins[seat];
        item.append(
          " ",
          el(
            "span",
            `coins ${delta > 0 ? "plus" : "minus"}`,
            `${delta > 0 ? "+" : "−"}◎${Math.abs(delta)}`,
          ),
        );
      }
      if ((result.forfeited || []).includes(seat))
        item.append(" ", el("span", "badge gone", forfeitBadge(forfeitReason(state, seat))));
      list.append(item);
    });
    body.append(list);
    const rating = el("div", "rating-change");
    rating.id = "rating-change"; // filled by table/rating.js
    body.append(rating);
    if (result.seed) {
      const fair = el("details", "fair");
      fair.append(
        el("summary", "", gettext("Check the deal")),
        el("p", "small", fmt(gettext("Seed: %(seed)s"), { seed: result.seed })),
        el(
          "p",
          "small",
          fmt(gettext("Its SHA-256, published at the start: %(hash)s"), { hash: result.seed_hash }),
        ),
      );
      body.append(fair);
    }
    const status = el("p", "rematch-status");
    status.id = "rematch-status";
    status.setAttribute("role", "status");
    const confirm = el("div", "rematch-confirm");
    confirm.id = "rematch-confirm";
    confirm.hidden = true;
    body.append(status, confirm);
    // Where the page says this table's matches lead (a tournament's table: its next match,
    // which opens by itself, and its page), instead of a rematch and the lobby.
    const after = /** @type {HTMLElement | null} */ (document.getElementById("match-after"));
    if (after && after.dataset.waiting) {
      const next = el("p", "next-match", after.dataset.waiting);
      next.id = "next-match";
      next.setAttribute("role", "status");
      if (after.dataset.waitingDetail) {
        next.append(" ", el("span", "small muted", after.dataset.waitingDetail));
      }
      body.prepend(next);
    }
    const buttons = [];
    const seated = me !== null && state.rematch && state.rematch.needed.includes(me);
    if (seated && !nobodyWon && !(after && after.dataset.rematch === "no")) {
      const stake = state.stake || 0; // the rematch keeps the table's stake
      const rematch = this.button(gettext("Rematch"), () => {
        if (stake) this.confirmStake(confirm, rematch, stake, onRematch);
        else onRematch();
      });
      rematch.id = "rematch-button";
      buttons.push(rematch);
    }
    const back = /** @type {HTMLAnchorElement} */ (
      el("a", "button secondary", after?.dataset.label || gettext("Back to the lobby"))
    );
    back.href = after?.dataset.href || "/";
    back.id = "result-back";
    buttons.push(back);
    this.show("result", title, body, buttons);
    this.rematchStatus(state, state.rematch);
  }

  /**
   * A rematch for coins is only asked for once the stake is confirmed (issue 12 § 2).
   * @param {HTMLElement} box
   * @param {HTMLButtonElement} rematch
   * @param {number} stake
   * @param {() => void} onRematch
   */
  confirmStake(box, rematch, stake, onRematch) {
    box.replaceChildren(
      el(
        "p",
        "",
        fmt(
          ngettext(
            "The rematch is played for %(stake)s Domino Coin per seat: your stake is taken when it starts.",
            "The rematch is played for %(stake)s Domino Coin per seat: your stake is taken when it starts.",
            stake,
          ),
          { stake },
        ),
      ),
    );
    const yes = this.button(
      fmt(ngettext("Stake %(stake)s coin", "Stake %(stake)s coins", stake), { stake }),
      () => {
        box.hidden = true;
        rematch.hidden = false;
        onRematch();
      },
    );
    yes.id = "rematch-confirm-button";
    const no = this.button(
      gettext("Not now"),
      () => {
        box.hidden = true;
        rematch.hidden = false;
        rematch.focus();
      },
      { secondary: true },
    );
    const row = el("div", "modal-actions");
    row.append(no, yes);
    box.append(row);
    box.hidden = false;
    rematch.hidden = true;
    yes.focus();
  }

  /**
   * @param {StateFrame} state
   * @param {Rematch | null} rematch
   */
  rematchStatus(state, rematch) {
    const status = this.open && this.open.querySelector("#rematch-status");
    if (!status || !rematch) return;
    const names = rematch.accepted.map((seat) => seatName(state, seat));
    status.textContent = rematch.accepted.length
      ? fmt(gettext("Rematch: %(names)s accepted (%(count)s of %(needed)s)."), {
          names: names.join(", "),
          count: rematch.accepted.length,
          needed: rematch.needed.length,
        })
      : "";
    const button = /** @type {HTMLButtonElement | null} */ (
      /** @type {HTMLDialogElement} */ (this.open).querySelector("#rematch-button")
    );
    if (button && state.seat !== null && rematch.accepted.includes(state.seat)) {
      button.disabled = true;
      button.textContent = gettext("Waiting for the others…");
    }
  }
}
