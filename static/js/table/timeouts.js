// @ts-check
// What the server played for a seat whose turn clock ran out (docs/protocol.md § Clocks), found
// in the frames as they are: the `state` of the very next version counts one more timeout for the
// seat that was to act (`seats[i].timeouts`; a move of the seat's own sets it back to 0), so the
// difference between the two states is that automatic move.
import { cardName, cardShort, isJoker, suitTitle } from "./cards.js";
import { lastTimeoutWarning, oneTimeoutFromForfeit } from "./forfeits.js";
import { callText, fmt, seatName } from "./text.js";

/** @typedef {import("./protocol.js").StateFrame} StateFrame */
/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./protocol.js").Play} Play */

/** @param {Play} play */
function playWords(play) {
  const card = isJoker(play.card) ? cardName(play.card) : cardShort(play.card);
  const call = callText(play);
  return call ? `${card}, ${call}` : card;
}

/**
 * The move `seat` made between two views: its kind and its words.
 * @param {View} before
 * @param {View} after
 * @param {number} seat
 * @returns {{kind: string, words: string} | null}
 */
function moveOf(before, after, seat) {
  if (before.phase === "play") {
    const seen = new Set((before.trick || []).map((p) => p.card));
    const fresh = [...(after.trick || []), ...((after.last_trick && after.last_trick.plays) || [])];
    const play = fresh.find((p) => p.seat === seat && !seen.has(p.card));
    return play ? { kind: "card", words: playWords(play) } : null;
  }
  if (before.phase === "bid" && after.bids && typeof after.bids[seat] === "number") {
    return { kind: "bid", words: String(after.bids[seat]) };
  }
  if (before.phase === "trump" && "trump" in after) {
    return { kind: "trump", words: suitTitle(after.trump) };
  }
  if (before.phase === "declare" && after.contract) {
    return { kind: "declare", words: after.contract === "spel" ? gettext("Spel") : gettext("Pass") };
  }
  return null;
}

/**
 * "Time ran out: 7♣ was played for you.", or "" when the last move was not an automatic one.
 * @param {StateFrame | null} before  the previous `state` frame (not one a presence updated)
 * @param {StateFrame} after
 */
export function timeoutText(before, after) {
  if (!before || !before.view || !after.view || before.match !== after.match) return "";
  if (after.version !== before.version + 1) return "";
  const seat = before.view.to_act;
  if (seat === null || seat === undefined) return "";
  const was = (before.seats || []).find((s) => s.seat === seat);
  const now = (after.seats || []).find((s) => s.seat === seat);
  if (!was || !now || now.bot || now.timeouts !== was.timeouts + 1) return "";
  const move = moveOf(before.view, after.view, seat);
  const mine = seat === after.seat;
  const values = { name: seatName(after, seat), card: "", bid: "", choice: "" };
  if (move) values[move.kind === "card" ? "card" : move.kind === "bid" ? "bid" : "choice"] = move.words;
  /** @type {Record<string, string>} */
  const forMe = {
    card: gettext("Time ran out: %(card)s was played for you."),
    bid: gettext("Time ran out: you bid %(bid)s."),
    trump: gettext("Time ran out: the trump was chosen for you: %(choice)s."),
    declare: gettext("Time ran out: %(choice)s was declared for you."),
    none: gettext("Time ran out: a move was made for you."),
  };
  /** @type {Record<string, string>} */
  const forThem = {
    card: gettext("Time ran out for %(name)s: %(card)s was played."),
    bid: gettext("Time ran out for %(name)s: bid %(bid)s."),
    trump: gettext("Time ran out for %(name)s: the trump was chosen: %(choice)s."),
    declare: gettext("Time ran out for %(name)s: %(choice)s was declared."),
    none: gettext("Time ran out for %(name)s: a move was made for them."),
  };
  const said = fmt((mine ? forMe : forThem)[move ? move.kind : "none"], values);
  return mine && oneTimeoutFromForfeit(after) ? `${said} ${lastTimeoutWarning()}` : said;
}
