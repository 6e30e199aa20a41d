// Modal dialogs of the table: the end of a hand, the score sheet, the last trick, the match result
// with its rematch, and "Leave and forfeit?". Native <dialog>: Escape closes, focus is trapped.
import { cardFace } from "./cards.js";
import { callText, el, fmt, seatName, trumpText } from "./view.js";

export class Dialogs {
  constructor(root) {
    this.root = root;
    this.open = null; // the <dialog> being shown
  }

  show(kind, title, body, buttons = []) {
    this.close();
    const dialog = el("dialog", `modal modal-${kind}`);
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
    dialog.append(heading, body, actions);
    dialog.addEventListener("close", () => {
      dialog.remove();
      if (this.open === dialog) this.open = null;
    });
    this.root.append(dialog);
    this.open = dialog;
    dialog.showModal();
    const first = actions.querySelector("button:not([disabled]), a");
    // The keyboard starts on the first action, but the reader starts at the title.
    if (first) first.focus({ preventScroll: true });
    dialog.scrollTop = 0;
    return dialog;
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

  button(label, onClick, { secondary = false, danger = false, closes = false } = {}) {
    const button = el(
      "button",
      `button${secondary ? " secondary" : ""}${danger ? " danger" : ""}`,
      label,
    );
    button.type = "button";
    if (closes) button.dataset.closes = "1";
    button.addEventListener("click", onClick);
    return button;
  }

  // --- the end of a hand ----------------------------------------------------------------------------

  handSummary(state, game) {
    const view = state.view;
    const hand = view.previous_hand;
    if (!hand) return;
    const body = el("div", "modal-body");
    const number = hand.deal_number || hand.hand_number;
    const title =
      game === "classic_joker"
        ? fmt(gettext("Deal %(number)s is over"), { number })
        : fmt(gettext("Hand %(number)s is over"), { number });
    const trumpLine = el(
      "p",
      "muted",
      trumpText({ trump: hand.trump, game: hand.contract ? "spel_pass" : "" }),
    );
    if (hand.contract) {
      trumpLine.append(
        ` · ${fmt(gettext("%(name)s declared %(contract)s"), {
          name: seatName(state, hand.forehand),
          contract: hand.contract === "spel" ? gettext("spel") : gettext("pass"),
        })}`,
      );
    }
    body.append(trumpLine);
    const table = el("table", "summary-table");
    const head = el("tr");
    head.append(el("th", "", gettext("Player")));
    if (game === "classic_joker") head.append(el("th", "num", gettext("Bid")));
    head.append(
      el("th", "num", gettext("Tricks")),
      el("th", "num", gettext("Points")),
      el("th", "num", gettext("Total")),
    );
    table.append(el("thead"), el("tbody"));
    table.tHead.append(head);
    hand.tricks.forEach((tricks, seat) => {
      const row = el("tr");
      row.append(el("th", "", seatName(state, seat)));
      if (game === "classic_joker") row.append(el("td", "num", String(hand.bids[seat])));
      const points = hand.points[seat];
      row.append(
        el("td", "num", String(tricks)),
        el(
          "td",
          `num ${points > 0 ? "plus" : points < 0 ? "minus" : ""}`,
          points > 0 ? `+${points}` : String(points),
        ),
        el("td", "num", String(view.scores[seat])),
      );
      table.tBodies[0].append(row);
    });
    body.append(table);
    if (game === "classic_joker") {
      if (hand.pulka_closed) {
        const names = (hand.premia || []).map((s) => seatName(state, s));
        body.append(
          el(
            "p",
            "",
            names.length
              ? fmt(gettext("Pulka %(pulka)s is complete. Premia: %(names)s."), {
                  pulka: hand.pulka + 1,
                  names: names.join(", "),
                })
              : fmt(gettext("Pulka %(pulka)s is complete. Nobody earned the premia."), {
                  pulka: hand.pulka + 1,
                }),
          ),
        );
      }
      body.append(sheetTable(state, hand.pulka));
    } else {
      body.append(
        el("p", "muted", fmt(gettext("Playing to %(target)s points."), { target: view.target })),
      );
    }
    const go = this.button(gettext("Continue"), () => this.close(), { closes: true });
    this.show("summary", title, body, [go]);
  }

  // --- scores at any time ----------------------------------------------------------------------------

  scores(state, game) {
    const view = state.view;
    if (!view) return;
    const body = el("div", "modal-body");
    if (game === "classic_joker") {
      body.append(sheetTable(state, null));
      this.show("sheet", gettext("Score sheet"), body);
      return;
    }
    const list = el("ul", "score-list");
    view.scores.forEach((score, seat) => {
      const item = el("li");
      item.append(el("span", "", seatName(state, seat)), " ", el("strong", "", String(score)));
      list.append(item);
    });
    body.append(
      list,
      el("p", "muted", fmt(gettext("Playing to %(target)s points."), { target: view.target })),
    );
    const hand = view.previous_hand;
    if (hand) {
      const tricks = hand.tricks.map((t, seat) => `${seatName(state, seat)} ${t}`).join(" – ");
      body.append(el("p", "", fmt(gettext("Last hand: tricks %(tricks)s."), { tricks })));
    }
    this.show("scores", gettext("Scores"), body);
  }

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

  confirmLeave(game, onLeave) {
    const body = el("div", "modal-body");
    body.append(
      el(
        "p",
        "",
        game === "classic_joker"
          ? gettext(
              "A computer player takes your seat, you are ranked last and your stake goes to the pot.",
            )
          : gettext("The match ends at once and your opponent wins it."),
      ),
    );
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

  result(state, game, onRematch) {
    const result = state.result;
    if (!result) return;
    const me = state.seat;
    const body = el("div", "modal-body");
    let title;
    if (result.reason === "cancelled") title = gettext("The match was cancelled");
    else if (me !== null && result.winners.includes(me)) title = gettext("You won!");
    else if (me !== null) title = gettext("You lost");
    else title = fmt(gettext("%(names)s won"), { names: (result.winner_names || []).join(", ") });
    const reasons = {
      finished: gettext("The match was played to the end."),
      forfeit: gettext("The match ended by forfeit."),
      cancelled: gettext("An administrator cancelled the match; every stake was refunded."),
    };
    body.append(el("p", "", reasons[result.reason] || ""));
    if (result.winner_names && result.winner_names.length && result.reason !== "cancelled") {
      body.append(
        el(
          "p",
          "winners",
          fmt(gettext("Winner: %(names)s"), { names: result.winner_names.join(", ") }),
        ),
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
        : winners.includes(b) - winners.includes(a) || scores[b] - scores[a],
    );
    const list = el("ol", "score-list");
    order.forEach((seat, index) => {
      const item = el("li");
      item.value = places ? places[seat] : index + 1;
      item.append(
        el("span", "", seatName(state, seat)),
        " ",
        el("strong", "", String(scores[seat])),
      );
      if ((result.forfeited || []).includes(seat))
        item.append(" ", el("span", "badge gone", gettext("left")));
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
    body.append(status);
    const buttons = [];
    const seated = me !== null && state.rematch && state.rematch.needed.includes(me);
    if (seated && result.reason !== "cancelled") {
      const rematch = this.button(gettext("Rematch"), () => onRematch(), {});
      rematch.id = "rematch-button";
      buttons.push(rematch);
    }
    const lobby = el("a", "button secondary", gettext("Back to the lobby"));
    lobby.href = "/";
    buttons.push(lobby);
    this.show("result", title, body, buttons);
    this.rematchStatus(state, state.rematch);
  }

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
    const button = this.open.querySelector("#rematch-button");
    if (button && state.seat !== null && rematch.accepted.includes(state.seat)) {
      button.disabled = true;
      button.textContent = gettext("Waiting for the others…");
    }
  }
}

// The classic Joker score sheet (CJ-25): one row per deal, each cell the points with its mark,
// and the pulka totals. `only` limits it to one pulka.
export function sheetTable(state, only) {
  const view = state.view;
  const sheet = view.sheet || { rows: [], pulkas: [] };
  const wrap = el("div", "sheet-wrap");
  const table = el("table", "sheet");
  const caption = el("caption", "visually-hidden", gettext("Score sheet"));
  table.append(caption);
  const head = el("tr");
  head.append(el("th", "", gettext("Deal")));
  for (let seat = 0; seat < 4; seat += 1) head.append(el("th", "num", seatName(state, seat)));
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  table.append(thead, tbody);
  const markText = {
    doubled: gettext("doubled (premia)"),
    cancelled: gettext("cancelled (moshla)"),
    khishti: gettext("khishti"),
  };
  for (const pulka of sheet.pulkas) {
    if (only !== null && only !== undefined && pulka.pulka !== only) continue;
    for (const row of sheet.rows.filter((r) => r.pulka === pulka.pulka)) {
      const tr = el("tr");
      const deal = el("th", "deal");
      deal.append(el("span", "", String(row.deal)), el("span", "muted small", ` (${row.cards})`));
      tr.append(deal);
      for (let seat = 0; seat < 4; seat += 1) {
        const mark = row.marks[seat];
        const td = el("td", `num${mark ? ` mark-${mark}` : ""}`);
        const points = el("span", "points", String(row.points[seat]));
        const detail = el("span", "detail", `${row.bids[seat]}/${row.taken[seat]}`);
        td.append(detail, points);
        if (mark) {
          const sign = el(
            "span",
            "mark",
            mark === "doubled" ? "×2" : mark === "cancelled" ? "✕" : "!",
          );
          sign.setAttribute("aria-hidden", "true");
          td.append(sign);
          td.append(el("span", "visually-hidden", ` ${markText[mark]}`));
          td.title = markText[mark];
        }
        tr.append(td);
      }
      tbody.append(tr);
    }
    const total = el("tr", "pulka-total");
    total.append(el("th", "", fmt(gettext("Pulka %(pulka)s"), { pulka: pulka.pulka + 1 })));
    for (let seat = 0; seat < 4; seat += 1) {
      const td = el("td", "num", String(pulka.totals[seat]));
      if (pulka.premia.includes(seat))
        td.append(" ", el("span", "badge premia", gettext("premia")));
      total.append(td);
    }
    tbody.append(total);
  }
  if (!tbody.children.length) {
    const tr = el("tr");
    const td = el("td", "muted", gettext("No deal has been scored yet."));
    td.colSpan = 5;
    tr.append(td);
    tbody.append(tr);
  }
  const foot = el("tfoot");
  const sum = el("tr");
  sum.append(el("th", "", gettext("Total")));
  for (let seat = 0; seat < 4; seat += 1) sum.append(el("td", "num", String(view.scores[seat])));
  foot.append(sum);
  table.append(foot);
  wrap.append(table);
  const legend = el("p", "sheet-legend small muted");
  legend.textContent = `${gettext("bid/took")} · ×2 ${markText.doubled} · ✕ ${markText.cancelled} · ! ${markText.khishti}`;
  wrap.append(legend);
  return wrap;
}
