// @ts-check
// Toy Tricks for two (tests/toy_game/RULES.md): three cards each, no trumps, first to the target.
// The table page loads it from the URL of the game's spec; it draws with the site's own parts.
import { el } from "../js/table/dom.js";
import { fmt, trumpWords } from "../js/table/text.js";
import {
  TRICKS_POINTS_TOTAL,
  targetLine,
  targetScores,
  twoPlayerStats,
} from "../js/table/games/shared.js";

/** @type {import("../js/table/games/shared.js").GameRenderer} */
const toyTricks = {
  seats: 2,
  scoresLabel: gettext("Scores"),
  trumpText: () => trumpWords(null, false),
  seatBadges: () => [],
  seatStats: twoPlayerStats,
  tableCards: () => [],
  facts: (view) => [
    el(
      "span",
      "fact round toy-facts",
      fmt(gettext("Hand %(hand)s · to %(target)s points"), {
        hand: view.hand_number,
        target: view.target,
      }),
    ),
  ],
  trickTotal: () => 3,
  decisions: {},
  handHidden: () => false,
  handNote: () => "",
  forfeitNote: gettext("You left this match."),
  jokerLeadText: "",
  summaryTitle: (hand) => fmt(gettext("Hand %(number)s is over"), { number: hand.hand_number }),
  summaryColumns: TRICKS_POINTS_TOTAL,
  summaryExtra: (state) => [targetLine(/** @type {any} */ (state.view))],
  scores: targetScores,
  leaveText: gettext("The match ends at once and your opponent wins it."),
};

export default toyTricks;
