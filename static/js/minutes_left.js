// "5 minutes left" on a tournament's table counts down (it stayed at what the page was served
// with). The end is the event's (`data-ends`), read against the server's clock at render
// (`data-now`), so a phone whose clock is off still counts the event's minutes.
const REDRAW_MS = 5000;

for (const node of document.querySelectorAll(".minutes-left[data-ends]")) {
  const line = /** @type {HTMLElement} */ (node);
  const ends = Date.parse(line.dataset.ends || "");
  const served = Date.parse(line.dataset.now || "");
  if (Number.isNaN(ends) || Number.isNaN(served)) continue;
  const skew = served - Date.now(); // add to the phone's clock to read the server's
  const draw = () => {
    const minutes = Math.max(0, Math.ceil((ends - (Date.now() + skew)) / 60000));
    line.textContent = interpolate(
      ngettext("%(minutes)s minute left", "%(minutes)s minutes left", minutes),
      { minutes },
      true,
    );
    return minutes;
  };
  const tick = () => {
    if (draw() > 0) window.setTimeout(tick, REDRAW_MS);
  };
  tick();
}
