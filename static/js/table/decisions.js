// @ts-check
// The pieces of the action panel that every game builds its decisions from: a titled group,
// choice buttons that send a legal action, the trump, bid and spel-or-pass choices, the bids so
// far, and a joker's options. The game renderers (games/*.js) say which of them a phase shows.
import { SUIT_SYMBOL, suitName, suitTitle } from "./cards.js";
import { el } from "./dom.js";
import { fmt, seatName } from "./text.js";

/** @typedef {import("./protocol.js").Action} Action */
/** @typedef {import("./view.js").TableView} TableView */

/**
 * @param {string} titleText
 * @param {string} [describe]
 */
export function decision(titleText, describe) {
  const box = el("div", "decision");
  box.setAttribute("role", "group");
  const title = el("h2", "decision-title", titleText);
  title.id = "decision-title";
  box.setAttribute("aria-labelledby", title.id);
  box.append(title);
  if (describe) box.append(el("p", "decision-text", describe));
  return box;
}

/**
 * A button that sends `action`; disabled when there is none (a choice the rules forbid).
 * @param {TableView} table
 * @param {string} label
 * @param {Action | null} action
 * @param {{suit?: string | null, aria?: string}} [options]
 */
export function choiceButton(table, label, action, { suit = null, aria = "" } = {}) {
  const button = /** @type {HTMLButtonElement} */ (el("button", "button choice"));
  button.type = "button";
  if (suit) {
    const symbol = el("span", `choice-symbol suit-${suit}`, SUIT_SYMBOL[suit]);
    symbol.setAttribute("aria-hidden", "true");
    button.append(symbol, " ");
  }
  button.append(el("span", "", label));
  if (aria) button.setAttribute("aria-label", aria);
  if (action) button.addEventListener("click", () => table.handlers.onAction(action));
  else button.disabled = true;
  return button;
}

/**
 * Choose the trump: one button per legal suit (and bezi, where the game offers it).
 * @param {TableView} table
 * @param {string} describe
 */
export function trumpPanel(table, describe) {
  const legal = table.legal().filter((a) => a.type === "trump");
  const box = decision(gettext("Choose the trump"), describe);
  const row = el("div", "choices");
  for (const action of legal) {
    row.append(choiceButton(table, suitTitle(action.suit), action, { suit: action.suit }));
  }
  box.append(row);
  return box;
}

/**
 * Bid 0 … cards; the bid the rules forbid the dealer (CJ-8) is shown disabled, with why.
 * @param {TableView} table
 */
export function bidPanel(table) {
  const view = table.view;
  const cards = view.cards || 0;
  const legal = new Map(
    table
      .legal()
      .filter((a) => a.type === "bid")
      .map((a) => [a.tricks, a]),
  );
  const box = decision(
    gettext("Your bid"),
    fmt(gettext("How many of the %(cards)s tricks will you take?"), { cards }),
  );
  const row = el("div", "choices bids");
  let forbidden = null;
  for (let tricks = 0; tricks <= cards; tricks += 1) {
    const action = legal.get(tricks) || null;
    const label = tricks === 0 ? gettext("Pass (0)") : String(tricks);
    const button = choiceButton(table, label, action, {
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
        fmt(gettext("As the dealer you may not bid %(bid)s: the bids would add up to %(cards)s."), {
          bid: forbidden,
          cards,
        }),
      ),
    );
  }
  box.append(bidsList(table));
  return box;
}

/**
 * The bids so far, in bidding order (from the seat left of the dealer).
 * @param {TableView} table
 */
export function bidsList(table) {
  const view = table.view;
  const list = el("ul", "bids-list");
  list.setAttribute("aria-label", gettext("Bids so far"));
  for (let i = 1; i <= table.n; i += 1) {
    const seat = ((view.dealer || 0) + i) % table.n;
    const bid = (view.bids || [])[seat];
    const item = el("li", bid === null ? "pending" : "");
    item.append(
      el("span", "seat-name", seatName(table.snapshot, seat)),
      " ",
      el("strong", "", bid === null || bid === undefined ? "–" : String(bid)),
    );
    list.append(item);
  }
  return list;
}

/** @param {TableView} table */
export function bidsSoFar(table) {
  const box = el("div", "decision quiet");
  box.append(el("h2", "decision-title", gettext("Bidding")), bidsList(table));
  return box;
}

/** @param {TableView} table */
export function declarePanel(table) {
  const legal = table.legal().filter((a) => a.type === "declare");
  const box = decision(
    gettext("Spel or pass?"),
    gettext("Spel: you aim to take the most tricks. Pass: the fewest."),
  );
  const row = el("div", "choices");
  for (const action of legal) {
    const label = action.contract === "spel" ? gettext("Spel") : gettext("Pass");
    row.append(choiceButton(table, label, action));
  }
  box.append(row);
  return box;
}

/**
 * A joker with more than one legal way to play it: its calls (want or take a suit when led,
 * high or low after a lead). The suits are a compact grid so the panel stays short.
 * @param {TableView} table
 * @param {string} code
 * @param {string} leadText  how the game's joker lead works, in a sentence
 * @param {() => void} onCancel
 */
export function jokerPanel(table, code, leadText, onCancel) {
  const actions = table.legalFor(code);
  const led = actions.some((a) => a.call === "want" || a.call === "take");
  const box = decision(
    led ? gettext("Lead the joker: call a suit") : gettext("Play the joker high or low"),
    led ? leadText : gettext("High beats every card, low is the lowest card in the trick."),
  );
  box.classList.add("joker-decision");
  const groups = [
    ["want", gettext("Want")],
    ["take", gettext("Take")],
  ];
  for (const [call, word] of groups) {
    const options = actions.filter((a) => a.call === call);
    if (!options.length) continue;
    const row = el("div", "choices suits");
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", word);
    const label = el("span", "choices-label", word);
    label.setAttribute("aria-hidden", "true");
    row.append(label);
    for (const action of options) {
      const suit = action.suit || "";
      row.append(
        choiceButton(table, suitTitle(suit), action, {
          suit,
          aria:
            call === "want"
              ? fmt(gettext("Want %(suit)s"), { suit: suitName(suit) })
              : fmt(gettext("Take %(suit)s"), { suit: suitName(suit) }),
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
      row.append(choiceButton(table, label, action));
    }
    box.append(row);
  }
  const cancel = /** @type {HTMLButtonElement} */ (
    el("button", "button secondary small joker-cancel", gettext("Cancel"))
  );
  cancel.type = "button";
  cancel.addEventListener("click", onCancel);
  box.append(cancel);
  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape") onCancel();
  });
  return box;
}
