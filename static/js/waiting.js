// The waiting room of an open table: follows seats live and moves to the match when it starts.
import { revealFor } from "./entropy.js";
import { connect, handlePlayerEvents } from "./live.js";

const root = document.getElementById("table-root");
const tableId = Number(root.dataset.tableId);
const notifications = document.getElementById("notifications");
const liveStatus = document.getElementById("live-status");

let connectedBefore = false;
let checked = false;

// News sent between this page's render and its socket's joining its groups would be lost (the
// table filled and asked for this tab's value; the match started once the last value came): once
// the socket's first frame has come (the server sends it after joining them, docs/protocol.md
// § The lobby socket), the page as the server has it now says where the table is. Asked at the
// socket's opening instead, the answer could come before a start whose news the socket then
// missed, and the page waited in an empty room while the match ran.
async function tableNow() {
  try {
    const page = await (
      await fetch(window.location.pathname, { credentials: "same-origin" })
    ).text();
    const asked = /id="table-root"[^>]*data-reveal-commitment="([0-9a-f]{64})"/.exec(page);
    return {
      open: /id="table-root"[^>]*data-status="open"/.test(page),
      commitment: asked ? asked[1] : "",
    };
  } catch {
    return { open: true, commitment: "" }; // offline: the socket's reconnection reloads the page
  }
}

/** The value for the deal this tab committed to, when the full table asks for it. */
function reveal(commitment) {
  const answer = commitment ? revealFor({ table: tableId, commitment }) : null;
  if (answer) live.send(answer);
}

const live = connect("/ws/lobby/", {
  onOpen() {
    // News sent while the socket was down (a seat taken, the match started) is lost: after a
    // reconnection the server page is fetched again.
    if (connectedBefore) window.location.reload();
    connectedBefore = true;
    reveal(root.dataset.revealCommitment || "");
  },
  onStatus(text) {
    liveStatus.textContent = text;
    liveStatus.dataset.connected = text ? "no" : "yes";
  },
  onMessage(message) {
    if (message.type === "lobby") {
      if (checked) return;
      checked = true;
      tableNow().then((now) => {
        if (!now.open) window.location.reload();
        else if (now.commitment !== root.dataset.revealCommitment) reveal(now.commitment);
      });
      return;
    }
    if (message.type === "reveal") {
      reveal(message.commitment); // the table is full: this tab's value, if it committed
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
