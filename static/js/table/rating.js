// @ts-check
// The rating change on the end-of-match screen (docs/protocol.md § rating). The `rating`
// message arrives once the rating task has run; a page opened after that asks the ladder
// (/ladder/matches/<id>/ratings/) instead.
import { el } from "./dom.js";
import { displayName, fmt } from "./text.js";

/** @typedef {import("./protocol.js").StateFrame} StateFrame */
/** @typedef {import("./protocol.js").RatingFrame} RatingFrame */
/** @typedef {import("./protocol.js").RatingChange} RatingChange */

/** @param {number} delta */
function signed(delta) {
  if (delta > 0) return `+${delta}`;
  if (delta < 0) return `−${-delta}`;
  return "±0";
}

/**
 * @param {number} value
 * @param {boolean} provisional
 */
function shown(value, provisional) {
  return provisional ? `${value}?` : String(value);
}

export class RatingChanges {
  /** @param {boolean} rated */
  constructor(rated) {
    this.rated = rated; // the table page says whether this table counts for the ladder
    /** @type {Map<number, RatingChange[]>} match id → the changes of its `rating` message */
    this.changes = new Map();
    /** @type {Set<number>} */
    this.asked = new Set();
  }

  /** @param {RatingFrame} message */
  take(message) {
    this.changes.set(message.match, message.changes);
  }

  // For a page opened after the message went out: the ladder knows.
  /** @param {number | null} matchId */
  async load(matchId) {
    if (matchId === null || !this.rated || this.changes.has(matchId) || this.asked.has(matchId))
      return false;
    this.asked.add(matchId);
    try {
      const answer = await fetch(`/ladder/matches/${matchId}/ratings/`, {
        headers: { Accept: "application/json" },
      });
      if (!answer.ok) return false;
      const data = await answer.json();
      if (data.status !== "rated") return false;
      this.changes.set(matchId, data.changes);
      return true;
    } catch {
      return false; // the message over the socket may still come
    }
  }

  // Fill the result dialog's box, if that dialog is open.
  /** @param {StateFrame | null} state */
  render(state) {
    const box = document.getElementById("rating-change");
    if (!box || !state || state.match === null || !state.result) return;
    if (state.result.reason === "cancelled" || state.result.reason === "aborted") return;
    const changes = this.changes.get(state.match);
    box.replaceChildren();
    if (!this.rated) {
      box.append(el("p", "muted small", gettext("A casual match: ratings do not change.")));
      return;
    }
    if (!changes) {
      box.append(el("p", "muted small", gettext("Updating the ratings…")));
      return;
    }
    const mine = changes.find((change) => change.seat === state.seat);
    if (mine) {
      const line = el("p", "rating-mine");
      line.append(
        fmt(gettext("Your rating: %(before)s → %(after)s"), {
          before: shown(mine.before, mine.provisional),
          after: shown(mine.after, mine.provisional),
        }),
        " ",
        el("strong", mine.delta < 0 ? "minus" : "plus", `(${signed(mine.delta)})`),
      );
      box.append(line);
    }
    const others = changes.filter((change) => change !== mine);
    if (others.length) {
      const list = el("ul", "rating-others small");
      for (const change of others) {
        list.append(
          el(
            "li",
            "",
            fmt(gettext("%(name)s: %(before)s → %(after)s (%(delta)s)"), {
              name: displayName(change.name),
              before: shown(change.before, change.provisional),
              after: shown(change.after, change.provisional),
              delta: signed(change.delta),
            }),
          ),
        );
      }
      box.append(list);
    }
  }
}
