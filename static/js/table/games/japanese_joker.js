// @ts-check
// Japanese Joker for two (docs/rules/japanese_joker.md): the declarer's trump from three cards,
// five columns per player, 18 tricks, played to a target.
import { trumpPanel } from "../decisions.js";
import { el } from "../dom.js";
import { fmt, trumpWords } from "../text.js";
import { TRICKS_POINTS_TOTAL, spots, targetLine, targetScores, twoPlayerStats } from "./shared.js";

/** @type {import("./shared.js").GameRenderer} */
const japaneseJoker = {
  seats: 2,
  layout: "pair",
  scoresLabel: gettext("Scores"),
  trumpText: (view) => trumpWords("trump" in view ? view.trump : undefined, true),
  seatBadges: (view, seat) => (view.declarer === seat ? [gettext("declarer")] : []),
  seatStats: twoPlayerStats,
  tableCards: (table, seat) => [
    spots(table, seat, (table.view.columns || [])[seat] || [], {
      className: "columns",
      from: "column",
      mine: gettext("Your columns"),
      theirs: gettext("%(name)s’s columns"),
    }),
  ],
  facts: (view) => [
    el(
      "span",
      "fact round",
      fmt(gettext("Hand %(hand)s · to %(target)s points"), {
        hand: view.hand_number,
        target: view.target,
      }),
    ),
  ],
  trickTotal: () => 18,
  decisions: {
    trump: (table) => trumpPanel(table, gettext("Choose the trump from your first three cards.")),
  },
  handHidden: () => false,
  handNote: (view) =>
    view.phase === "trump"
      ? gettext("Your first cards: the rest are dealt after the trump is chosen.")
      : "",
  forfeitNote: gettext("You left this match."),
  jokerLeadText: gettext(
    "The joker wants the suit you call: your opponent must play their highest card of it.",
  ),
  summaryTitle: (hand) => fmt(gettext("Hand %(number)s is over"), { number: hand.hand_number }),
  summaryColumns: TRICKS_POINTS_TOTAL,
  summaryExtra: (state) => [targetLine(/** @type {any} */ (state.view))],
  scores: targetScores,
  leaveText: gettext("The match ends at once and your opponent wins it."),
};

export default japaneseJoker;
