// @ts-check
// Why a seat forfeited, in the reader's words: the result's `forfeit_reasons` (docs/protocol.md
// § Match end and rematch), and the warning before the clock's last automatic move.
import { fmt, seatName } from "./text.js";

/** @typedef {import("./protocol.js").StateFrame} StateFrame */

/**
 * How many automatic moves in a row forfeit (`clocks.timeouts_to_forfeit`).
 * @param {StateFrame} state
 */
export function timeoutsToForfeit(state) {
  const limit = state.clocks && state.clocks.timeouts_to_forfeit;
  return typeof limit === "number" ? limit : 3;
}

/**
 * True when one more automatic move for the reader's own seat would forfeit the match.
 * @param {StateFrame} state
 */
export function oneTimeoutFromForfeit(state) {
  if (state.status !== "playing" || state.seat === null || state.seat === undefined) return false;
  const mine = (state.seats || []).find((s) => s.seat === state.seat);
  return Boolean(mine && !mine.bot && mine.timeouts === timeoutsToForfeit(state) - 1);
}

/** The warning said with the automatic move. */
export function lastTimeoutWarning() {
  return gettext("One more and the match is forfeited: make your next move yourself.");
}

/** The same, shorter, kept in the turn line while it holds. */
export function lastTimeoutReminder() {
  return gettext("One more timeout forfeits the match.");
}

/**
 * @param {StateFrame} state
 * @param {number} seat
 * @returns {string} "left", "absent", "abandoned", "banned" or "" (a match from before reasons)
 */
export function forfeitReason(state, seat) {
  const reasons = (state.result && state.result.forfeit_reasons) || {};
  return reasons[String(seat)] || "";
}

/**
 * The badge beside a forfeited seat in the result's list: "left" only for one who left.
 * @param {string} reason
 */
export function forfeitBadge(reason) {
  /** @type {Record<string, string>} */
  const badges = {
    left: gettext("left"),
    absent: gettext("away"),
    abandoned: gettext("timed out"),
    banned: gettext("removed"),
  };
  return badges[reason] || gettext("forfeited");
}

/**
 * Why the seat forfeited, as a sentence ("" when the match does not say).
 * @param {StateFrame} state
 * @param {number} seat
 */
export function forfeitSentence(state, seat) {
  const reason = forfeitReason(state, seat);
  const values = { name: seatName(state, seat), count: timeoutsToForfeit(state) };
  if (seat === state.seat) {
    /** @type {Record<string, string>} */
    const mine = {
      left: gettext("You left the match, which forfeits it."),
      absent: gettext("You forfeited: you were away from the table until your bank ran out."),
      abandoned: ngettext(
        "You forfeited: %(count)s turn in a row was played by the clock.",
        "You forfeited: %(count)s turns in a row were played by the clock.",
        values.count,
      ),
    };
    return mine[reason] ? fmt(mine[reason], values) : "";
  }
  /** @type {Record<string, string>} */
  const theirs = {
    left: gettext("%(name)s left the match, which forfeits it."),
    absent: gettext("%(name)s forfeited: away from the table until their bank ran out."),
    abandoned: ngettext(
      "%(name)s forfeited: %(count)s turn in a row was played by the clock.",
      "%(name)s forfeited: %(count)s turns in a row were played by the clock.",
      values.count,
    ),
  };
  return theirs[reason] ? fmt(theirs[reason], values) : "";
}
