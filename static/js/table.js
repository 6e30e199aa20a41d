// @ts-check
// The table page while a match is played or over: a client of docs/protocol.md and nothing else.
// table/client.js is the one store (the socket, versions, resends; `apply(frame)` and
// subscribers); table/view.js draws it with the game's renderer (the module its spec names, in
// `data-renderer`: table/games/*.js for the built-in games);
// table/dialogs.js, table/story.js (what screen readers hear), table/feel.js (sound, motion,
// preferences) and table/rating.js listen to it too.
import { newShare, revealFor } from "./entropy.js";
import { showFairness } from "./fairness.js";
import { TableChat } from "./table/chat.js";
import { TableClient } from "./table/client.js";
import { Dialogs } from "./table/dialogs.js";
import { Announcer, haptics, prefs, sound } from "./table/feel.js";
import { loadRenderer } from "./table/games/index.js";
import { RatingChanges } from "./table/rating.js";
import { story } from "./table/story.js";
import { timeoutText } from "./table/timeouts.js";
import { install as installSuggest } from "./suggest.js";
import { TableView } from "./table/view.js";
import { CALLED_OFF } from "./play_now.js";
import { holdFollowing } from "./following.js";

/** @typedef {import("./table/protocol.js").StateFrame} StateFrame */

// A tournament pairs the next match as soon as this one ends: its result stays on screen this
// long before the page follows, and a final state still on its way is waited for this long.
const RESULT_SEEN_MS = 1500;
const FINAL_STATE_MS = 2000;

// Refusals of this tab's share of the deal (too late, not asked): nothing for the player to do.
const ENTROPY_ERRORS = new Set(["entropy_late", "entropy_unasked", "bad_entropy"]);

const root = document.getElementById("match-area");
if (root && root.dataset.tableId) boot(root, await loadRenderer(root.dataset.renderer || ""));

/**
 * @param {HTMLElement} root
 * @param {import("./table/games/shared.js").GameRenderer} game
 */
function boot(root, game) {
  const tableId = Number(root.dataset.tableId);
  /** @type {number | null} */
  let resultShown = null;
  const ratings = new RatingChanges(root.dataset.rated === "1");

  const client = new TableClient(tableId, {
    onStatus(text) {
      view.setStatus(text);
    },
    onFatal(kind) {
      if (kind === "session") {
        window.location.assign(
          `/accounts/login/?next=${encodeURIComponent(window.location.pathname)}`,
        );
        return;
      }
      view.setStatus(
        kind === "no_table"
          ? gettext("There is no such table, or you may not see it.")
          : gettext("The server closed the connection. Reload the page to connect again."),
      );
    },
    onCalledOff(frame) {
      calledOff(frame.url);
    },
  });

  // A quick-play table not everyone came to: back to the lobby, which says so (and shows the
  // queue again when the player is back in it).
  let leaving = false;
  /** @param {string} [url] */
  function calledOff(url) {
    if (leaving) return;
    leaving = true;
    try {
      window.sessionStorage.setItem(CALLED_OFF, String(tableId));
    } catch {
      // no storage: the lobby shows the queue (or the form) without the notice
    }
    view.setStatus(gettext("Not everyone came; back to the lobby…"));
    window.location.assign(url || "/");
  }

  const view = new TableView(root, game, {
    onAction(action) {
      if (client.pending || view.inFlight) return;
      view.jokerChoice = null;
      view.showError("");
      if (client.act(action)) {
        view.sending();
        haptics.tap();
      }
    },
    onIllegal(card) {
      // Let the server explain: the `illegal` error carries the rules engine's reason.
      if (client.pending || view.inFlight) return;
      if (client.act({ type: "play", card })) view.sending();
    },
    onTool(name, button) {
      const state = client.state;
      if (name === "sound") {
        sound.on = !sound.on;
        button.setAttribute("aria-pressed", String(sound.on));
        if (sound.on) sound.play("turn");
      } else if (name === "colours") {
        prefs.set("fourColour", !prefs.get("fourColour"));
        applyPrefs();
      } else if (name === "tap-confirm") {
        prefs.set("tapConfirm", !prefs.get("tapConfirm"));
        view.select(null);
        applyPrefs();
      } else if (name === "vibrate") {
        haptics.on = !haptics.on;
        applyPrefs();
        haptics.tap();
      } else if (name === "more") {
        const more = !document.documentElement.classList.contains("table-more");
        document.documentElement.classList.toggle("table-more", more);
        button.setAttribute("aria-expanded", String(more));
        window.scrollTo(0, 0);
        view.fitHand();
        view.fitFelt();
      } else if (!state) {
        return;
      } else if (name === "last-trick") {
        dialogs.lastTrick(state);
      } else if (name === "scores") {
        dialogs.scores(state);
      } else if (name === "result") {
        dialogs.result(state, () => client.rematch(true));
        ratings.render(state);
      } else if (name === "leave") {
        dialogs.confirmLeave(() => client.leave());
      }
    },
  });
  const dialogs = new Dialogs(root, view.game);
  const announcer = new Announcer(view.announcer);

  function applyPrefs() {
    const four = prefs.get("fourColour");
    document.documentElement.classList.toggle("four-colour", four);
    view.tools.colours.setAttribute("aria-pressed", String(four));
    view.tools.sound.setAttribute("aria-pressed", String(sound.on));
    view.tapConfirm = prefs.get("tapConfirm");
    view.tools.tapConfirm.setAttribute("aria-pressed", String(view.tapConfirm));
    view.tools.vibrate.setAttribute("aria-pressed", String(haptics.on));
  }
  applyPrefs();

  /** @param {StateFrame} state */
  function showResult(state) {
    if (!state.result || state.status === "playing") return;
    if (resultShown === state.match) return;
    resultShown = state.match;
    resultAt = performance.now();
    dialogs.result(state, () => client.rematch(true));
    ratings.render(state);
    ratings.load(state.match).then((loaded) => loaded && ratings.render(client.state));
  }

  // When this page drew its match's result; the page leaves for the next match only once the
  // reader has seen it (following.js), or at once if they are not playing here.
  let resultAt = 0;
  holdFollowing(
    () =>
      new Promise((done) => {
        const asked = performance.now();
        const look = () => {
          const state = client.state;
          const playingHere = state && state.seat !== null && state.status === "playing";
          const now = performance.now();
          if (resultAt && now >= resultAt + RESULT_SEEN_MS) done(undefined);
          else if (!resultAt && (!playingHere || now >= asked + FINAL_STATE_MS)) done(undefined);
          else window.setTimeout(look, 100);
        };
        look();
      }),
  );

  /**
   * @param {StateFrame} state
   * @param {StateFrame | null} previous
   */
  function stateChanged(state, previous) {
    const timedOut = timeoutText(lastState, state);
    lastState = state;
    view.render(state, previous);
    if (timedOut) view.showNotice(timedOut);
    showFairness(state);
    suggest.update(state);
    const { lines, cues } = story(previous, state);
    for (const line of lines) announcer.say(line);
    // One sound per update, the most important one.
    const cue = ["turn", "trick", "card"].find((c) => cues.has(c));
    if (cue) sound.play(cue);
    const sameMatch = previous && previous.match === state.match && previous.view && state.view;
    if (state.result && state.status !== "playing") {
      showResult(state);
    } else if (
      sameMatch &&
      state.view &&
      state.view.previous_hand &&
      JSON.stringify(state.view.previous_hand) !==
        JSON.stringify(/** @type {any} */ (previous).view.previous_hand)
    ) {
      dialogs.handSummary(state);
    } else if (dialogs.kind() === "summary" && state.view && state.view.trick.length) {
      dialogs.close(); // the next hand's first card is down: the felt is needed again
    }
    const url = state.rematch && state.rematch.url;
    if (url && previous && !(previous.rematch && previous.rematch.url)) {
      window.location.assign(url);
    }
    if (dialogs.kind() === "result") dialogs.rematchStatus(state, state.rematch);
  }

  // The last `state` frame as it came (a presence frame updates the store's seats in between),
  // to tell an automatic move from the timeout count it adds.
  /** @type {StateFrame | null} */
  let lastState = null;
  // "Suggest" at a table with a computer player (issue 15): the strong computer's choice.
  const suggest = installSuggest(root, client);
  // The chat panel (issue 17) hears every frame first and keeps the ones that are its own.
  const chat = TableChat.mount(document.getElementById("chat"), (/** @type {object} */ message) =>
    client.send(message),
  );
  // Player entropy: at an open table (quick play's, before everyone came) commit once a tab.
  let committed = false;
  client.subscribe(({ frame, state }) => {
    const type = /** @type {{type: string}} */ (frame).type;
    if (type === "reveal") {
      const answer = revealFor(/** @type {any} */ (frame));
      if (answer) client.send(answer);
    } else if (type === "state" && state && state.status === "open" && state.seat !== null) {
      if (committed) return;
      committed = true;
      newShare().then((share) => {
        if (share) client.send({ type: "entropy_commit", commitment: share.commitment });
      });
    }
  });
  client.subscribe(({ frame, state, previous }) => {
    if (chat && chat.receive(frame)) return;
    if (!state) return;
    // A snapshot of a table called off before its match (the frame that said so was missed).
    if (state.status === "cancelled" && state.match === null) {
      calledOff("/");
      return;
    }
    switch (frame.type) {
      case "state":
        stateChanged(state, previous);
        break;
      case "presence":
        view.renderPresence(state);
        break;
      case "error":
        if (ENTROPY_ERRORS.has(frame.code || "")) break; // the deal goes on with the server's value
        if (!client.pending) view.settle(); // not an act still being resent (busy)
        view.showError(frame.message || gettext("The server refused that."));
        break;
      case "rematch":
        dialogs.rematchStatus(state, state.rematch);
        if (frame.url) window.location.assign(frame.url);
        break;
      case "suggestion":
        suggest.take(frame);
        break;
      case "rating":
        ratings.take(frame);
        ratings.render(state);
        break;
      default:
        break;
    }
  });
  client.start();

  // Count the clocks down between messages.
  setInterval(() => view.tick(), 500);
  // Back from the background or the network: do not wait for the next backoff step.
  const wake = () => {
    if (!client.connected && client.socket) client.socket.reconnect();
    else client.send({ type: "ping" });
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") wake();
  });
  window.addEventListener("online", wake);
  // For people debugging in the console, and for the browser tests.
  Object.assign(window, { jokerTable: { client, view, dialogs } });
}
