// While a review of this match is being made (docs/review.md: about ten seconds), the match
// page asks for itself every few seconds and puts the finished review in place, with its marks
// for the replay (replay.js hears "review-ready"), so nobody has to reload to see it.
const POLL_MS = 3000;
const GIVE_UP_MS = 5 * 60 * 1000;

/** @param {Document} doc */
function pendingIn(doc) {
  return doc.querySelector('#review .review-seat[data-status="pending"]') !== null;
}

/** @param {ParentNode} node */
function doneIn(node) {
  return node.querySelectorAll('.review-seat[data-status="done"]').length;
}

if (pendingIn(document)) {
  const started = Date.now();
  const look = async () => {
    try {
      const response = await fetch(window.location.href, {
        credentials: "same-origin",
        headers: { Accept: "text/html" },
      });
      if (response.ok) {
        const doc = new DOMParser().parseFromString(await response.text(), "text/html");
        const fresh = doc.getElementById("review");
        const here = document.getElementById("review");
        if (fresh && here && doneIn(fresh) > doneIn(here)) {
          here.replaceWith(document.importNode(fresh, true));
          const marks = doc.getElementById("review-marks");
          const ours = document.getElementById("review-marks");
          if (marks && ours) ours.textContent = marks.textContent;
          document.dispatchEvent(new Event("review-ready"));
        }
        if (!pendingIn(doc)) return;
      }
    } catch {
      // Offline for a moment: ask again at the next turn.
    }
    if (Date.now() - started < GIVE_UP_MS) window.setTimeout(look, POLL_MS);
  };
  window.setTimeout(look, POLL_MS);
}
