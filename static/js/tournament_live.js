// A running or upcoming tournament's page, kept live from its socket (docs/protocol.md § The
// tournament socket): when the standings change (a result, a player in or out, a table
// paired), the page's standings, tables, prizes and player count are drawn again from the server
// (the server page is the truth); when the event starts or ends, the whole page; when the
// reader's next match is ready, the page goes there with following.js's cue (the socket says so at
// once too when it opens while the reader's match is being played: a page reloaded at the start,
// or opened from the table mid-match). Without this module the page is the server's as it was
// drawn, and the buttons still work.
import { takeToMatch } from "./following.js";
import { connect } from "./live.js";

const root = document.getElementById("tournament");
const live = document.getElementById("tournament-live");

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
}

if (root && (root.dataset.status === "scheduled" || root.dataset.status === "running")) {
  // The standings' version the page was drawn at: a first frame of the same version draws
  // nothing again (each reader's opening cost the server a second page before).
  let version = root.dataset.version || null;
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
        takeToMatch(message);
        return;
      }
      if (message.type !== "standings" || message.version === version) return;
      version = message.version;
      if (message.status !== root.dataset.status) {
        window.location.reload(); // started, ended or cancelled: every part of the page changes
        return;
      }
      // The first frame may be newer than the page (a change while it loaded): draw it again.
      // The page says which version it shows once it is drawn (tests wait on it).
      const drawing = message.version;
      redraw().then(() => {
        if (version === drawing) root.dataset.version = drawing;
      });
    },
  });
}
