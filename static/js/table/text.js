// @ts-check
// The table's words: formats through the JavaScript catalogue (/jsi18n/), names of seats,
// clocks, a joker's declaration and Domino Coin amounts.
import { suitName } from "./cards.js";

/** @typedef {import("./protocol.js").StateFrame} StateFrame */
/** @typedef {import("./protocol.js").Play} Play */

/**
 * @param {string} format
 * @param {Record<string, unknown>} values
 * @returns {string}
 */
export function fmt(format, values) {
  return interpolate(format, values, true);
}

/**
 * A player's name as the reader should see it. Frames carry the stored name, the same for every
 * socket at the table; the names the site makes ("Computer 7", "Guest-1234") are words of the
 * reader's language (accounts/names.py does the same for the pages).
 * @param {string} name
 */
export function displayName(name) {
  const computer = /^Computer (\d+)$/.exec(name);
  if (computer) return fmt(gettext("Computer %(number)s"), { number: computer[1] });
  const guest = /^Guest-(\d+)$/.exec(name);
  if (guest) return fmt(gettext("Guest-%(number)s"), { number: guest[1] });
  return name;
}

/**
 * @param {StateFrame} state
 * @param {number} seat
 */
export function seatName(state, seat) {
  const entry = state.seats && state.seats.find((s) => s.seat === seat);
  return entry && entry.name
    ? displayName(entry.name)
    : fmt(gettext("Seat %(number)s"), { number: seat + 1 });
}

/** @param {number} ms */
export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return `${minutes}:${seconds}`;
}

/**
 * A joker's declaration as words: "wants hearts", "takes spades", "high", "low".
 * @param {Play} play
 */
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

/**
 * The trump in words. `bezi` says whether "no trump" is the bezi choice (Japanese and classic
 * Joker) or simply a game without trumps (spel or pass).
 * @param {string | null | undefined} trump  undefined: not chosen yet
 * @param {boolean} bezi
 */
export function trumpWords(trump, bezi) {
  if (trump === undefined) return gettext("Trump not chosen yet");
  if (trump === null) return bezi ? gettext("No trump (bezi)") : gettext("No trump");
  return fmt(gettext("Trump: %(suit)s"), { suit: suitName(trump) });
}

/**
 * What the match did to the viewer's coins: "You won 30 Domino Coin", "You lost 10 Domino Coin".
 * @param {number} delta
 */
export function coinsText(delta) {
  if (delta > 0)
    return fmt(
      ngettext("You won %(count)s Domino Coin.", "You won %(count)s Domino Coin.", delta),
      {
        count: delta,
      },
    );
  if (delta < 0)
    return fmt(
      ngettext("You lost %(count)s Domino Coin.", "You lost %(count)s Domino Coin.", -delta),
      { count: -delta },
    );
  return gettext("Your Domino Coin balance is as before the match.");
}
