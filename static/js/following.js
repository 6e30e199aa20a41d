// @ts-check
// Taking a player in a running tournament to each of their matches as it is paired
// (docs/tournaments.md § Taken to your match). The pages' entry scripts use it: follow.js on
// every page of such a player (the event's socket in its follow mode), tournament_live.js on the
// event's page, table.js to keep its match's result on screen a moment first. (A library with
// no effect of its own: imported by its one address, so every page has one copy of it.)
import { connect } from "./live.js";
import { haptics, sound } from "./table/feel.js";

const CUE_MS = 300; // the cue is heard before the page goes

let going = false;
/** @type {() => Promise<void>} */
let hold = () => Promise.resolve();

/**
 * What the page waits for before it leaves for the next match (the table: its own result seen).
 * @param {() => Promise<void>} wait
 */
export function holdFollowing(wait) {
  hold = wait;
}

/**
 * Go to the table a "match_started" names, with the cue; false if this page is that table's.
 * @param {{url: string}} message
 */
export function takeToMatch(message) {
  const url = new URL(message.url, window.location.href);
  if (url.pathname === window.location.pathname) return false;
  if (going) return true;
  going = true;
  haptics.tap();
  sound.play("turn");
  const cue = new Promise((done) => window.setTimeout(done, sound.on ? CUE_MS : 0));
  Promise.all([hold(), cue]).then(() => window.location.assign(url.href));
  return true;
}

/**
 * Listen for the reader's matches in the event ``tournamentId`` (its socket's follow mode): each
 * one that starts, and at once the one being played as the socket opens.
 * @param {string} tournamentId
 */
export function follow(tournamentId) {
  connect(`/ws/tournament/${tournamentId}/?follow=1`, {
    onClose(event) {
      return event.code !== 4004; // the event is gone (or hidden from the reader): stop trying
    },
    onMessage(message) {
      if (message.type === "match_started") takeToMatch(message);
    },
  });
}
