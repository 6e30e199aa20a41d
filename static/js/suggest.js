// "Suggest" at a table with a computer player (docs/protocol.md § suggest): one button, once a
// turn, and the strong computer's choice highlighted on the card (or said, for a bid or trump).
// Kept apart from table/*.js on purpose: table.js calls install() and forwards two things to it.

export function install(root, client) {
  const box = document.createElement("div");
  box.className = "suggest";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "button small secondary";
  button.id = "suggest";
  button.textContent = gettext("Suggest");
  const said = document.createElement("span");
  said.className = "suggestion";
  said.setAttribute("role", "status");
  box.append(button, said);
  box.hidden = true;
  // Beside whose turn it is and the decision (the side column on a wide screen).
  (root.querySelector(".play-side") || root).append(box);
  let askedAt = null;
  let shown = null;

  button.addEventListener("click", () => {
    const state = client.state;
    if (!state || askedAt === state.version) return;
    askedAt = state.version;
    button.disabled = true;
    client.send({ type: "suggest", version: state.version });
  });

  function mark() {
    for (const node of root.querySelectorAll(".suggested")) node.classList.remove("suggested");
    if (!shown || shown.type !== "play") return;
    const card = root.querySelector(`.card.legal[data-card="${shown.card}"]`);
    if (card) card.classList.add("suggested");
  }

  return {
    // Every new state: offered only on the player's own turn at a table with a computer.
    update(state) {
      const view = state && state.view;
      // A computer put at the table, not one playing a forfeited seat (docs/protocol.md).
      const seats = state.seats || [];
      const withComputer = seats.some((seat) => seat.bot && !seat.forfeited);
      const mine = view && view.seat !== null ? seats.find((s) => s.seat === view.seat) : null;
      // A seat that left is played by a computer: its player is only watching now.
      const myTurn = Boolean(mine && !mine.forfeited && view.to_act === view.seat);
      box.hidden = !(withComputer && myTurn && state.status === "playing");
      if (shown && shown.version !== state.version) {
        shown = null;
        said.textContent = "";
      }
      button.disabled = askedAt === state.version;
      mark();
    },
    // The server's answer, for this socket only.
    take(message) {
      if (!client.state || message.version !== client.state.version) return;
      shown = { ...message.action, version: message.version };
      const action = message.action;
      if (action.type === "play") said.textContent = "";
      else if (action.type === "bid") {
        said.textContent = interpolate(gettext("Suggested bid: %s"), [action.tricks]);
      } else if (action.type === "trump") {
        said.textContent = interpolate(gettext("Suggested trump: %s"), [
          action.suit === null ? gettext("no trump") : action.suit,
        ]);
      } else said.textContent = interpolate(gettext("Suggested: %s"), [action.contract]);
      mark();
    },
  };
}
