// The waiting room of an open table: follows seats live and moves to the match when it starts.
import { revealFor } from "./entropy.js";
import { connect, handlePlayerEvents } from "./live.js";

const root = document.getElementById("table-root");
const tableId = Number(root.dataset.tableId);
const notifications = document.getElementById("notifications");
const liveStatus = document.getElementById("live-status");

let connectedBefore = false;

// Whether the table still waits: news sent between this page's render and its socket's opening
// (the match started once the last value came) would be lost. The page itself says it.
async function stillOpen() {
  try {
    const page = await (
      await fetch(window.location.pathname, { credentials: "same-origin" })
    ).text();
    return /id="table-root"[^>]*data-status="open"/.test(page);
  } catch {
    return true; // offline: the socket's reconnection reloads the page
  }
}

const live = connect("/ws/lobby/", {
  onOpen() {
    if (!connectedBefore) {
      stillOpen().then((open) => {
        if (!open) window.location.reload();
      });
    }
    // The table was full before this page opened: the value it asks for goes at once.
    if (root.dataset.revealCommitment) {
      const answer = revealFor({ table: tableId, commitment: root.dataset.revealCommitment });
      if (answer) live.send(answer);
    }
    // News sent while the socket was down (a seat taken, the match started) is lost: after a
    // reconnection the server page is fetched again.
    if (connectedBefore) window.location.reload();
    connectedBefore = true;
  },
  onStatus(text) {
    liveStatus.textContent = text;
    liveStatus.dataset.connected = text ? "no" : "yes";
  },
  onMessage(message) {
    if (message.type === "reveal") {
      // The table is full: this tab's value for the deal, if it made the commitment.
      const answer = revealFor(message);
      if (answer) live.send(answer);
      return;
    }
    if (handlePlayerEvents(message, notifications)) return;
    const about = message.type === "table" ? message.table.id : message.id;
    if ((message.type === "table" || message.type === "table_removed") && about === tableId) {
      // The server page is the truth for seats, buttons and notices: fetch it again.
      window.location.reload();
    }
  },
});
