// @ts-check
// The countdowns of the tournament pages (templates/tournaments/_when.html): each
// <time data-countdown datetime="…"> counts down to its moment every second, by the server's
// clock (the page says what time it was there when it was drawn). Without this module the page
// keeps the server's words ("2 hours, 5 minutes"); at zero a countdown shows its data-done.
// Nothing else: the buttons are forms and the standings are drawn by the server.

/** @param {number} n */
function pad(n) {
  return String(n).padStart(2, "0");
}

/** How long is left, as "1:02:03", "2:03" or "3 days 1:02:03". @param {number} ms */
function left(ms) {
  const total = Math.floor(ms / 1000);
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const clock = hours || days
    ? `${hours}:${pad(minutes)}:${pad(total % 60)}`
    : `${minutes}:${pad(total % 60)}`;
  if (!days) return clock;
  const format = ngettext("%(days)s day %(clock)s", "%(days)s days %(clock)s", days);
  return interpolate(format, { days, clock }, true);
}

const root = document.querySelector("[data-server-now]");
const serverNow = root instanceof HTMLElement ? Date.parse(root.dataset.serverNow ?? "") : NaN;
// The server's clock less this browser's, so a wrong clock on the phone does not shift the start.
const skew = Number.isNaN(serverNow) ? 0 : serverNow - Date.now();
/** @type {HTMLTimeElement[]} */
const clocks = Array.from(document.querySelectorAll("time[data-countdown]")).filter(
  (element) => element instanceof HTMLTimeElement,
);

function tick() {
  const now = Date.now() + skew;
  for (const element of clocks) {
    const ms = Date.parse(element.dateTime) - now;
    if (Number.isNaN(ms)) continue;
    element.textContent = ms > 0 ? left(ms) : (element.dataset.done ?? "");
  }
}

if (clocks.length) {
  tick();
  setInterval(tick, 1000);
}
