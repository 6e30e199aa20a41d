// @ts-check
// Japanese Whist for two (docs/rules/japanese_whist.md): twenty layout cards each, the hand face
// down until trick 1 is complete, the forehand's trump (or, in the spel-or-pass variant, the
// contract and no trump at all), 26 tricks, played to a target.
import { declarePanel, trumpPanel } from "../decisions.js";
import { el } from "../dom.js";
import { fmt, seatName, trumpWords } from "../text.js";
import { TRICKS_POINTS_TOTAL, spots, targetLine, targetScores, twoPlayerStats } from "./shared.js";

/** @param {string | null | undefined} contract */
function contractWord(contract) {
  return contract === "spel" ? gettext("Spel") : gettext("Pass");
}

/** @type {import("./shared.js").GameRenderer} */
const japaneseWhist = {
  seats: 2,
  layout: "pair",
  scoresLabel: gettext("Scores"),
  // No bezi in Japanese Whist: a null trump is the spel-or-pass variant, which has no trump.
  trumpText: (view) => trumpWords("trump" in view ? view.trump : undefined, false),
  seatBadges: (view, seat) => [view.forehand === seat ? gettext("forehand") : gettext("dealer")],
  seatStats: twoPlayerStats,
  tableCards: (table, seat) => [
    spots(table, seat, (table.view.layout || [])[seat] || [], {
      className: "layout",
      from: "layout",
      mine: gettext("Your layout"),
      theirs: gettext("%(name)s’s layout"),
      downLabel: gettext("face-down card"),
    }),
  ],
  facts: (view) => {
    let round = fmt(gettext("Deal %(deal)s · to %(target)s points"), {
      deal: view.hand_number,
      target: view.target,
    });
    if (view.contract) round += ` · ${contractWord(view.contract)}`;
    return [el("span", "fact round", round)];
  },
  trickTotal: () => 26,
  decisions: {
    trump: (table) =>
      trumpPanel(
        table,
        gettext("You see the twenty face-up cards. Name the trump suit for this deal."),
      ),
    declare: declarePanel,
  },
  handHidden: (view) => Boolean(view.hand_locked),
  handNote: (view) =>
    view.hand_locked
      ? gettext("Your hand cards stay face down until the first trick is complete.")
      : "",
  forfeitNote: gettext("You left this match."),
  jokerLeadText: "",
  summaryTitle: (hand) => fmt(gettext("Hand %(number)s is over"), { number: hand.hand_number }),
  summaryColumns: TRICKS_POINTS_TOTAL,
  summaryExtra: (state, hand) => {
    const extra = [targetLine(/** @type {any} */ (state.view))];
    if (hand.contract) {
      extra.unshift(
        el(
          "p",
          "muted",
          fmt(gettext("%(name)s declared %(contract)s"), {
            name: seatName(state, hand.forehand || 0),
            contract: hand.contract === "spel" ? gettext("spel") : gettext("pass"),
          }),
        ),
      );
    }
    return extra;
  },
  scores: targetScores,
  leaveText: gettext("The match ends at once and your opponent wins it."),
};

export default japaneseWhist;
