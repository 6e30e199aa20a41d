// @ts-check
// What happened between two snapshots, in sentences for the screen-reader live region
// ("bob played the queen of hearts", "Your turn") and cues for the sounds.
import { cardName, suitName } from "./cards.js";
import { callText, fmt, seatName } from "./text.js";

/** @typedef {import("./protocol.js").StateFrame} StateFrame */
/** @typedef {import("./protocol.js").Play} Play */

/**
 * @param {unknown} a
 * @param {unknown} b
 */
function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * @param {StateFrame} state
 * @param {Play} play
 */
function played(state, play) {
  const call = callText(play);
  const card = cardName(play.card);
  const name = seatName(state, play.seat);
  return call
    ? fmt(gettext("%(name)s played the %(card)s, %(call)s."), { name, card, call })
    : fmt(gettext("%(name)s played the %(card)s."), { name, card });
}

/**
 * @param {StateFrame | null} previous
 * @param {StateFrame} state
 * @returns {{lines: string[], cues: Set<string>}}
 */
export function story(previous, state) {
  /** @type {string[]} */
  const lines = [];
  /** @type {Set<string>} */
  const cues = new Set();
  const view = state.view;
  const me = state.seat;
  if (!view) return { lines, cues };
  const before = previous && previous.view && previous.match === state.match ? previous.view : null;
  const myTurn = state.status === "playing" && me !== null && view.to_act === me;
  if (!before) {
    if (myTurn) {
      lines.push(gettext("Your turn."));
      cues.add("turn");
    }
    return { lines, cues };
  }

  // A hand or deal ended: its score first.
  if (view.previous_hand && !same(view.previous_hand, before.previous_hand)) {
    const hand = view.previous_hand;
    const points = hand.points
      .map((p, seat) => `${seatName(state, seat)} ${p > 0 ? "+" : ""}${p}`)
      .join(", ");
    lines.push(fmt(gettext("The hand is over: %(points)s."), { points }));
  }

  // The trump, once it is known.
  if ("trump" in view && (!("trump" in before) || view.hand_number !== before.hand_number)) {
    lines.push(
      view.trump
        ? fmt(gettext("Trump: %(suit)s."), { suit: suitName(view.trump) })
        : gettext("No trump."),
    );
  }

  // Bids (classic Joker) and the spel/pass contract (Japanese Whist).
  const bidsBefore = before.bids;
  if (view.bids && bidsBefore && view.hand_number === before.hand_number) {
    view.bids.forEach((bid, seat) => {
      if (bid !== null && bidsBefore[seat] === null) {
        lines.push(fmt(gettext("%(name)s bid %(bid)s."), { name: seatName(state, seat), bid }));
      }
    });
  }
  if (view.contract && view.contract !== before.contract) {
    lines.push(
      fmt(gettext("%(name)s declared %(contract)s."), {
        name: seatName(state, view.forehand || 0),
        contract: view.contract === "spel" ? gettext("spel") : gettext("pass"),
      }),
    );
  }

  // Cards played, the trick won, and the cards that started the next trick.
  const seen = new Set((before.trick || []).map((p) => p.card));
  const last = view.last_trick;
  let fresh = [];
  const trickDone = Boolean(last && !same(last, before.last_trick));
  if (trickDone && last) {
    const done = last.plays.filter((p) => !seen.has(p.card));
    for (const play of done) lines.push(played(state, play));
    lines.push(fmt(gettext("%(name)s won the trick."), { name: seatName(state, last.winner) }));
    cues.add("trick");
    fresh = done;
    for (const play of view.trick || []) lines.push(played(state, play));
    fresh = fresh.concat(view.trick || []);
  } else {
    fresh = (view.trick || []).filter((p) => !seen.has(p.card));
    for (const play of fresh) lines.push(played(state, play));
  }
  if (fresh.some((p) => p.seat !== me)) cues.add("card");

  // Hidden column cards that joined a hand (Japanese Joker, JJ-9/10).
  if (view.revealed && !same(view.revealed, before.revealed)) {
    view.revealed.forEach((count, seat) => {
      if (count > 0 && seat !== me) {
        lines.push(
          fmt(
            ngettext(
              "%(count)s hidden card moved to %(name)s’s hand.",
              "%(count)s hidden cards moved to %(name)s’s hand.",
              count,
            ),
            {
              count,
              name: seatName(state, seat),
            },
          ),
        );
      }
    });
  }

  const was = /** @type {StateFrame} */ (previous);
  const wasMyTurn = was.status === "playing" && me !== null && before.to_act === me;
  const moved = trickDone || view.phase !== before.phase || view.hand_number !== before.hand_number;
  if (myTurn && (!wasMyTurn || moved)) {
    lines.push(gettext("Your turn."));
    cues.add("turn");
  }
  if (state.status !== "playing" && was.status === "playing") {
    lines.push(gettext("The match is over."));
  }
  return { lines, cues };
}
