// The table page while a match is played or over: a client of docs/protocol.md and nothing else.
// Modules: table/client.js (socket, versions, resends), table/view.js (drawing), table/dialogs.js,
// table/story.js (what screen readers hear), table/feel.js (sound, motion, preferences).
import { Dialogs } from "./table/dialogs.js";
import { TableClient } from "./table/client.js";
import { Announcer, prefs, sound } from "./table/feel.js";
import { RatingChanges } from "./table/rating.js";
import { story } from "./table/story.js";
import { TableView } from "./table/view.js";
import { install as installSuggest } from "./suggest.js";

const root = document.getElementById("match-area");
if (root && root.dataset.tableId) boot(root);

function boot(root) {
  const tableId = Number(root.dataset.tableId);
  const game = root.dataset.game;
  let client = null;
  let resultShown = null;
  const ratings = new RatingChanges(root.dataset.rated === "1");

  const view = new TableView(root, {
    onAction(action) {
      if (!client || client.pending) return;
      view.jokerChoice = null;
      view.showError("");
      client.act(action);
    },
    onIllegal(card) {
      // Let the server explain: the `illegal` error carries the rules engine's reason.
      if (!client || client.pending) return;
      client.act({ type: "play", card });
    },
    onTool(name, button) {
      const state = client && client.state;
      if (name === "sound") {
        sound.on = !sound.on;
        button.setAttribute("aria-pressed", String(sound.on));
        if (sound.on) sound.play("turn");
      } else if (name === "colours") {
        prefs.set("fourColour", !prefs.get("fourColour"));
        applyPrefs();
      } else if (!state) {
        return;
      } else if (name === "last-trick") {
        dialogs.lastTrick(state);
      } else if (name === "scores") {
        dialogs.scores(state, game);
      } else if (name === "result") {
        dialogs.result(state, game, () => client.rematch(true));
        ratings.render(state);
      } else if (name === "leave") {
        dialogs.confirmLeave(game, () => client.leave());
      }
    },
  });
  view.build();
  const dialogs = new Dialogs(root);
  const announcer = new Announcer(view.announcer);

  function applyPrefs() {
    const four = prefs.get("fourColour");
    document.documentElement.classList.toggle("four-colour", four);
    view.tools.colours.setAttribute("aria-pressed", String(four));
    view.tools.sound.setAttribute("aria-pressed", String(sound.on));
  }
  applyPrefs();

  function showResult(state) {
    if (!state.result || state.status === "playing") return;
    if (resultShown === state.match) return;
    resultShown = state.match;
    dialogs.result(state, game, () => client.rematch(true));
    ratings.render(state);
    ratings.load(state.match).then((loaded) => loaded && ratings.render(client.state));
  }

  let suggest = null;
  client = new TableClient(tableId, {
    onState(state, previous) {
      view.render(state, previous);
      if (suggest) suggest.update(state);
      view.tools.result.hidden = !state.result;
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
        state.view.previous_hand &&
        JSON.stringify(state.view.previous_hand) !== JSON.stringify(previous.view.previous_hand)
      ) {
        dialogs.handSummary(state, game);
      }
      if (
        state.rematch &&
        state.rematch.url &&
        !(previous && previous.rematch && previous.rematch.url)
      ) {
        if (previous) window.location.assign(state.rematch.url);
      }
      if (dialogs.kind() === "result") dialogs.rematchStatus(state, state.rematch);
    },
    onPresence(state) {
      view.renderPresence(state);
    },
    onEvent(message) {
      if (message.type === "error") {
        view.showError(message.message || gettext("The server refused that."));
      } else if (message.type === "rematch") {
        if (client.state) {
          client.state = { ...client.state, rematch: message };
          dialogs.rematchStatus(client.state, message);
        }
        if (message.url) window.location.assign(message.url);
      } else if (message.type === "suggestion") {
        if (suggest) suggest.take(message);
      } else if (message.type === "rating") {
        ratings.take(message);
        ratings.render(client.state);
      }
    },
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
  }).start();
  suggest = installSuggest(root, client);

  // Count the clocks down between messages.
  setInterval(() => view.tick(), 500);
  // Back from the background or the network: do not wait for the next backoff step.
  const wake = () => {
    if (!client.connected) client.socket.reconnect();
    else client.send({ type: "ping" });
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") wake();
  });
  window.addEventListener("online", wake);
  // For people debugging in the console, and for the browser tests.
  window.jokerTable = { client, view, dialogs };
}
