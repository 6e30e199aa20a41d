// @ts-check
// What more than one game draws the same way: the summary's usual columns, the scores of a game
// played to a target, a face-up card at a spot on the table, and the renderer's type.
import { cardBack, cardFace } from "../cards.js";
import { el } from "../dom.js";
import { fmt, seatName } from "../text.js";

/** @typedef {import("../protocol.js").View} View */
/** @typedef {import("../protocol.js").StateFrame} StateFrame */
/** @typedef {import("../protocol.js").PreviousHand} PreviousHand */
/** @typedef {import("../view.js").TableView} TableView */

/**
 * A column of the end-of-hand summary: its heading and each seat's cell.
 * @typedef {object} SummaryColumn
 * @property {string} title
 * @property {(hand: PreviousHand, view: View, seat: number) => string} cell
 * @property {(hand: PreviousHand, view: View, seat: number) => string} [className]
 */

/**
 * One game's drawing: everything the generic TableView and the dialogs ask of a game. None of
 * them asks which game it is.
 * @typedef {object} GameRenderer
 * @property {number} seats  the most seats (the page's data-seats says the table's)
 * @property {"pair" | "ring"} layout  two seats face to face, or seats round the felt
 * @property {string} scoresLabel  the label of the scores tool
 * @property {(view: View | PreviousHand) => string} trumpText
 * @property {(view: View, seat: number) => string[]} seatBadges  role badges: dealer, declarer…
 * @property {(view: View, seat: number) => {className: string, text: string}[]} seatStats
 * @property {(table: TableView, seat: number) => HTMLElement[]} tableCards  besides hand backs
 * @property {(view: View) => (HTMLElement | string)[]} facts  after the trump badge
 * @property {(view: View) => number} trickTotal  tricks in this hand or deal
 * @property {Record<string, (table: TableView) => HTMLElement>} decisions  by phase, on your turn
 * @property {(table: TableView) => HTMLElement | null} [watching]  a panel while others decide
 * @property {(view: View) => boolean} handHidden  the hand lies face down (JW-4)
 * @property {(view: View) => string} handNote
 * @property {string} forfeitNote  under the hand of a seat that left
 * @property {string} jokerLeadText
 * @property {(hand: PreviousHand) => string} summaryTitle
 * @property {SummaryColumn[]} summaryColumns
 * @property {(state: StateFrame, hand: PreviousHand) => HTMLElement[]} summaryExtra
 * @property {(state: StateFrame) => {kind: string, title: string, body: HTMLElement[]}} scores
 * @property {string} leaveText  what leaving costs, in the "Leave and forfeit?" dialog
 */

/** @param {number} points */
function signedPoints(points) {
  return points > 0 ? `+${points}` : String(points);
}

/** @type {SummaryColumn[]} */
export const TRICKS_POINTS_TOTAL = [
  { title: gettext("Tricks"), cell: (hand, _view, seat) => String(hand.tricks[seat]) },
  {
    title: gettext("Points"),
    cell: (hand, _view, seat) => signedPoints(hand.points[seat]),
    className: (hand, _view, seat) =>
      hand.points[seat] > 0 ? "plus" : hand.points[seat] < 0 ? "minus" : "",
  },
  { title: gettext("Total"), cell: (_hand, view, seat) => String(view.scores[seat]) },
];

/** @param {View} view */
export function targetLine(view) {
  return el("p", "muted", fmt(gettext("Playing to %(target)s points."), { target: view.target }));
}

/**
 * The scores of a game played to a target: one line per seat and the last hand's tricks.
 * @param {StateFrame} state
 */
export function targetScores(state) {
  const view = /** @type {View} */ (state.view);
  const list = el("ul", "score-list");
  view.scores.forEach((score, seat) => {
    const item = el("li");
    item.append(
      el("span", "seat-name", seatName(state, seat)),
      " ",
      el("strong", "", String(score)),
    );
    list.append(item);
  });
  const body = [list, targetLine(view)];
  const hand = view.previous_hand;
  if (hand) {
    const tricks = hand.tricks.map((t, seat) => `${seatName(state, seat)} ${t}`).join(" – ");
    body.push(el("p", "", fmt(gettext("Last hand: tricks %(tricks)s."), { tricks })));
  }
  return { kind: "scores", title: gettext("Scores"), body };
}

/** @param {View} view */
export function twoPlayerStats(view, /** @type {number} */ seat) {
  return [
    { className: "took", text: fmt(gettext("tricks %(tricks)s"), { tricks: view.tricks[seat] }) },
    { className: "score", text: fmt(gettext("score %(points)s"), { points: view.scores[seat] }) },
  ];
}

/**
 * Five spots a row, each a face-down card with a face-up one on it (or empty): Japanese
 * Joker's columns and Japanese Whist's layout. The viewer's own face-up cards are playable.
 * @param {TableView} table
 * @param {number} seat
 * @param {({up?: string | null, down?: boolean} | null)[]} spots
 * @param {{className: string, from: string, mine: string, theirs: string, downLabel?: string}} words
 */
export function spots(table, seat, spots, words) {
  const mine = seat === table.me;
  const grid = el("div", `${words.className}${mine ? " mine" : ""}`);
  grid.setAttribute("role", "group");
  grid.setAttribute(
    "aria-label",
    mine ? words.mine : fmt(words.theirs, { name: seatName(table.snapshot, seat) }),
  );
  spots.forEach((spot, index) => {
    const column = el("div", "column");
    column.dataset.index = String(index);
    if (!spot) {
      column.classList.add("empty");
    } else {
      if (spot.down !== false)
        column.append(cardBack({ label: spot.up || !words.downLabel ? "" : words.downLabel }));
      if (spot.up) {
        const up = mine ? table.playable(spot.up, words.from) : cardFace(spot.up);
        up.classList.add("on-top");
        column.append(up);
      }
    }
    grid.append(column);
  });
  return grid;
}
