// The replay on a match's page (/matches/<id>/): every step of an ended match, every card face
// up, stepped by card, by trick and by hand, with buttons, a slider and the keyboard. The server
// rebuilt the steps from the seed and the event log (games/replay.py); this only draws them.
// ?step=N in the address opens at step N and follows the step shown, so the address shares it.

const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };

const root = document.getElementById("replay");
if (root) boot(root);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function rankLabel(rank) {
  if (rank === "T") return "10";
  if ("AKQJ".includes(rank)) return pgettext("card rank", rank);
  return rank;
}

function cardText(code) {
  if (code[0] === "X") return code === "X1" ? "★" : "☆";
  return `${rankLabel(code[0])}${SUIT_SYMBOL[code[1]]}`;
}

function card(code, extra = "") {
  const node = el("span", `rcard${extra ? ` ${extra}` : ""}`, cardText(code));
  node.dataset.card = code;
  node.classList.add(code[0] === "X" ? "joker" : `suit-${code[1]}`);
  if (code[0] === "X") node.title = gettext("Joker");
  return node;
}

function suitText(suit) {
  return suit ? SUIT_SYMBOL[suit] : gettext("no trump");
}

// The review's marks (docs/review.md), from the page: at the step a marked decision was made,
// a line says it and the better choice is ringed in that seat's hand.
function readMarks() {
  const node = document.getElementById("review-marks");
  return node ? JSON.parse(node.textContent || "[]") : [];
}
let MARKS = readMarks();

function callWords(action) {
  const suit = suitText(action.suit);
  if (action.call === "want") return interpolate(gettext("wants %(suit)s"), { suit }, true);
  if (action.call === "take") return interpolate(gettext("takes %(suit)s"), { suit }, true);
  if (action.call === "high") return gettext("high");
  if (action.call === "low") return gettext("low");
  return "";
}

function actionText(action) {
  if (action.card) {
    const call = callWords(action);
    return call ? `${cardText(action.card)}, ${call}` : cardText(action.card);
  }
  if (action.type === "bid") return interpolate(gettext("bid %(n)s"), { n: action.tricks }, true);
  if (action.contract) return contractText(action.contract);
  if ("suit" in action) return interpolate(gettext("trumps: %(suit)s"), { suit: suitText(action.suit) }, true);
  return action.type;
}

function markLine(mark, names) {
  const words =
    mark.mark === "blunder"
      ? gettext("Blunder by %(name)s: %(taken)s; better %(best)s (−%(points)s points)")
      : gettext("Mistake by %(name)s: %(taken)s; better %(best)s (−%(points)s points)");
  const line = el("p", `rmark rmark-${mark.mark}`);
  line.textContent = interpolate(
    words,
    { name: names[mark.seat], taken: actionText(mark.taken), best: actionText(mark.best), points: mark.loss.toFixed(1) },
    true,
  );
  return line;
}

function contractText(contract) {
  return contract === "spel" ? gettext("spel") : gettext("pass");
}

function describe(step, names) {
  const event = step.event;
  if (!event) return gettext("The first deal.");
  const name = event.seat === null ? "" : names[event.seat];
  const action = event.action || {};
  let text;
  if (event.kind === "cancel") return gettext("An admin cancelled the match.");
  if (event.kind === "abort") {
    return interpolate(
      gettext("%(name)s left before every player had made a move: the match was aborted."),
      { name },
      true,
    );
  }
  if (event.kind === "forfeit") {
    text = interpolate(gettext("%(name)s forfeited."), { name }, true);
  } else if (action.type === "play") {
    text = interpolate(gettext("%(name)s plays %(card)s."), { name, card: cardText(action.card) }, true);
    if (action.call === "want") {
      text += " " + interpolate(gettext("Joker: wants %(suit)s."), { suit: suitText(action.suit) }, true);
    } else if (action.call === "take") {
      text += " " + interpolate(gettext("Joker: takes %(suit)s."), { suit: suitText(action.suit) }, true);
    } else if (action.call === "high") {
      text += " " + gettext("Joker: high.");
    } else if (action.call === "low") {
      text += " " + gettext("Joker: low.");
    }
  } else if (action.type === "trump") {
    text = interpolate(gettext("%(name)s chooses trumps: %(suit)s."), { name, suit: suitText(action.suit) }, true);
  } else if (action.type === "bid") {
    text = interpolate(gettext("%(name)s bids %(tricks)s."), { name, tricks: action.tricks }, true);
  } else if (action.type === "declare") {
    text = interpolate(gettext("%(name)s declares %(contract)s."), { name, contract: contractText(action.contract) }, true);
  } else {
    text = interpolate(gettext("%(name)s moves."), { name }, true);
  }
  if (event.kind === "timeout") text += " " + gettext("(the turn clock ran out)");
  if (event.kind === "bot") text += " " + gettext("(computer player)");
  return text;
}

function cardRow(codes, className = "") {
  const row = el("div", `rcards ${className}`);
  for (const code of codes) row.append(card(code));
  return row;
}

// Japanese Joker's columns and Japanese Whist's layout: a face-up card over the one that lay
// face down (shown here too, marked, since the match is over).
function piles(list, label) {
  const box = el("div", "rpiles");
  box.setAttribute("aria-label", label);
  for (const pile of list) {
    const slot = el("div", "rpile");
    if (pile && pile.up) slot.append(card(pile.up));
    if (pile && pile.down) slot.append(card(pile.down, "was-down"));
    if (!pile || (!pile.up && !pile.down)) slot.append(el("span", "rempty", "·"));
    box.append(slot);
  }
  return box;
}

function seatPanel(view, seat, names) {
  const panel = el("section", "rseat");
  panel.dataset.seat = String(seat);
  if (view.to_act === seat) panel.classList.add("to-act");
  const head = el("h3", "rseat-name", names[seat]);
  const roles = [];
  if (view.declarer === seat) roles.push(gettext("declarer"));
  if (view.dealer === seat) roles.push(gettext("dealer"));
  if (view.forehand === seat) roles.push(gettext("forehand"));
  if ((view.forfeited || []).includes(seat)) roles.push(gettext("forfeited"));
  for (const role of roles) head.append(" ", el("span", "badge", role));
  panel.append(head);
  const facts = [interpolate(gettext("tricks %(n)s"), { n: view.tricks[seat] }, true)];
  if (view.bids && view.bids[seat] !== null && view.bids[seat] !== undefined) {
    facts.push(interpolate(gettext("bid %(n)s"), { n: view.bids[seat] }, true));
  }
  facts.push(interpolate(gettext("score %(n)s"), { n: view.scores[seat] }, true));
  panel.append(el("p", "rseat-facts small", facts.join(" · ")));
  panel.append(cardRow(view.hands[seat], "rhand"));
  if (view.columns && view.columns[seat].some(Boolean)) {
    panel.append(piles(view.columns[seat], gettext("Columns")));
  }
  if (view.layout) panel.append(piles(view.layout[seat], gettext("Layout")));
  if (view.pending && view.pending[seat].length) {
    panel.append(el("p", "small muted", gettext("Still to be dealt after the trump:")));
    panel.append(cardRow(view.pending[seat], "rpending"));
  }
  return panel;
}

function trickPanel(step, names) {
  const view = step.view;
  const box = el("section", "rtrick");
  let plays = view.trick;
  let title = gettext("The trick");
  if (!plays.length && step.trick_done && view.last_trick) {
    plays = view.last_trick.plays;
    title = interpolate(gettext("Trick taken by %(name)s"), { name: names[view.last_trick.winner] }, true);
  }
  box.append(el("h3", "", title));
  const row = el("div", "rcards");
  for (const play of plays) {
    const item = el("figure", "rplay");
    item.append(card(play.card), el("figcaption", "small", names[play.seat]));
    row.append(item);
  }
  if (!plays.length) row.append(el("span", "muted small", gettext("No card on the table.")));
  box.append(row);
  return box;
}

function summary(step, names) {
  const hand = step.view.previous_hand;
  if (!hand) return null;
  const parts = hand.tricks.map((tricks, seat) =>
    interpolate(gettext("%(name)s %(tricks)s tricks, %(points)s points"), {
      name: names[seat],
      tricks,
      points: hand.points[seat],
    }, true),
  );
  const number = hand.hand_number || hand.deal_number;
  return el("p", "rsummary", interpolate(gettext("Hand %(n)s is over: %(who)s."), { n: number, who: parts.join("; ") }, true));
}

function boot(root) {
  const board = document.getElementById("replay-board");
  const range = document.getElementById("replay-range");
  const counter = document.getElementById("replay-counter");
  const link = document.getElementById("replay-link");
  const eventLine = document.getElementById("replay-event");
  let steps = [];
  let names = [];
  let at = Number(root.dataset.step) || 0;

  function handStart(i) {
    return i === 0 || steps[i].hand !== steps[i - 1].hand;
  }

  function target(go) {
    const last = steps.length - 1;
    if (go === "back") return Math.max(at - 1, 0);
    if (go === "forward") return Math.min(at + 1, last);
    if (go === "start") return 0;
    if (go === "end") return last;
    if (go === "trick-forward") {
      for (let i = at + 1; i <= last; i++) if (steps[i].trick_done || handStart(i)) return i;
      return last;
    }
    if (go === "trick-back") {
      for (let i = at - 1; i > 0; i--) if (steps[i].trick_done || handStart(i)) return i;
      return 0;
    }
    if (go === "hand-forward") {
      for (let i = at + 1; i <= last; i++) if (handStart(i)) return i;
      return last;
    }
    if (go === "hand-back") {
      let i = at;
      while (i > 0 && !handStart(i)) i--;
      if (i < at) return i;
      i = Math.max(at - 1, 0);
      while (i > 0 && !handStart(i)) i--;
      return i;
    }
    return at;
  }

  function show(i) {
    at = i;
    const step = steps[i];
    const view = step.view;
    board.replaceChildren();
    const facts = [interpolate(gettext("Hand %(n)s"), { n: view.hand_number }, true)];
    if ("trump" in view) facts.push(interpolate(gettext("trumps: %(suit)s"), { suit: suitText(view.trump) }, true));
    if (view.cards) facts.push(interpolate(gettext("%(n)s cards each"), { n: view.cards }, true));
    if (view.contract) facts.push(contractText(view.contract));
    board.append(el("p", "rfacts", facts.join(" · ")));
    if (handStart(i) && i > 0) {
      const over = summary(step, names);
      if (over) board.append(over);
    }
    const seats = el("div", `rseats seats-${names.length}`);
    for (let seat = 0; seat < names.length; seat++) seats.append(seatPanel(view, seat, names));
    board.append(trickPanel(step, names), seats);
    for (const mark of MARKS.filter((m) => m.step === i)) {
      board.prepend(markLine(mark, names));
      const panel = seats.querySelector(`.rseat[data-seat="${mark.seat}"]`);
      if (panel && mark.best.card) {
        const better = panel.querySelector(`[data-card="${mark.best.card}"]`);
        if (better) better.classList.add("review-better");
      }
    }
    eventLine.textContent = describe(step, names);
    const lastIndex = steps.length - 1;
    counter.textContent = interpolate(gettext("Step %(step)s of %(last)s"), { step: i, last: lastIndex }, true);
    range.value = String(i);
    link.href = `?step=${i}`;
    root.dataset.shown = String(i);
    const url = new URL(window.location.href);
    url.searchParams.set("step", String(i));
    window.history.replaceState(null, "", url);
  }

  root.querySelectorAll("[data-go]").forEach((button) => {
    button.addEventListener("click", () => steps.length && show(target(button.dataset.go)));
  });
  range.addEventListener("input", () => steps.length && show(Number(range.value)));
  document.addEventListener("keydown", (event) => {
    if (!steps.length || event.altKey || event.ctrlKey || event.metaKey) return;
    const tag = event.target && event.target.tagName;
    if ((tag === "INPUT" && event.target !== range) || tag === "SELECT" || tag === "TEXTAREA") return;
    const keys = {
      ArrowLeft: event.shiftKey ? "trick-back" : "back",
      ArrowRight: event.shiftKey ? "trick-forward" : "forward",
      PageUp: "hand-back",
      PageDown: "hand-forward",
      Home: "start",
      End: "end",
    };
    const go = keys[event.key];
    if (!go) return;
    event.preventDefault();
    show(target(go));
  });

  // A review finished while the page was open (review_wait.js): its marks join the replay.
  document.addEventListener("review-ready", () => {
    MARKS = readMarks();
    if (steps.length) show(at);
  });

  fetch(root.dataset.replayUrl, { credentials: "same-origin" })
    .then((response) => {
      if (!response.ok) throw new Error(String(response.status));
      return response.json();
    })
    .then((data) => {
      steps = data.steps;
      names = data.names;
      show(Math.min(Math.max(at, 0), steps.length - 1));
      root.classList.add("ready");
    })
    .catch(() => {
      board.replaceChildren(el("p", "message error", gettext("The replay could not be loaded. Reload the page to try again.")));
    });
}
