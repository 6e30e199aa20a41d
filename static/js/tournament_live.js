// A running or upcoming tournament's page, kept live from its socket (docs/protocol.md § The
// tournament socket): when the standings change (a result, a player in or out, a table
// paired), the page's standings, tables, prizes and player count are drawn again from the server
// (the server page is the truth); when the event starts or ends, the whole
// page; when the reader's next match is ready, the page goes there. Without this module the page
// is the server's as it was drawn, and the buttons still work.
import { connect } from "./live.js";

const root = document.getElementById("tournament");
const live = document.getElementById("tournament-live");
// Set when the start reloads the page: the reader's "match_started" may have come while the page
// was away, so the reloaded page looks for the reader's table once it listens (see redraw).
const started = `tournament-started:${root?.dataset.tournamentId}`;

async function redraw() {
  const response = await fetch(window.location.href, { headers: { Accept: "text/html" } });
  if (!response.ok) return;
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
  for (const id of ["tournament-standings", "tournament-tables", "tournament-prizes", "tournament-rules"]) {
    const now = document.getElementById(id);
    const next = fresh.getElementById(id);
    if (now && next) now.replaceWith(next);
    else if (now && id === "tournament-tables") now.remove(); // the last table was counted
    else if (next && id === "tournament-tables") document.getElementById("tournament-standings")?.after(next);
  }
  if (sessionStorage.getItem(started)) {
    sessionStorage.removeItem(started);
    const mine = document.querySelector("#tournament-tables [data-mine] a");
    if (mine instanceof HTMLAnchorElement) window.location.assign(mine.href);
  }
}

if (root && (root.dataset.status === "scheduled" || root.dataset.status === "running")) {
  let version = null;
  let leaving = false; // on the way to the reader's match: nothing else to do here
  connect(`/ws/tournament/${root.dataset.tournamentId}/`, {
    onStatus(text) {
      if (live) live.textContent = text;
    },
    onClose(event) {
      return event.code !== 4004; // the event is gone (or hidden from the reader): stop trying
    },
    onMessage(message) {
      if (leaving) return;
      if (message.type === "match_started") {
        leaving = true;
        sessionStorage.removeItem(started);
        window.location.assign(message.url);
        return;
      }
      if (message.type !== "standings" || message.version === version) return;
      version = message.version;
      if (message.status !== root.dataset.status) {
        if (message.status === "running") sessionStorage.setItem(started, "1");
        window.location.reload(); // started, ended or cancelled: every part of the page changes
        return;
      }
      // The first frame may be newer than the page (a change while it loaded): draw it again.
      redraw();
    },
  });
}
