// @ts-check
// Cards drawn by the page: faces, jokers and backs in HTML + CSS (static/css/table.css), and
// their names for people and screen readers. A card is a code as in the protocol: "QH", "TS",
// "X1" (docs/rules/README.md § 0.1). Every word goes through the JavaScript catalogue (/jsi18n/).

export const SUITS = ["S", "H", "D", "C"];
/** @type {Record<string, string>} */
export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** @param {string} code */
export function isJoker(code) {
  return code[0] === "X";
}

/** @param {string | null | undefined} suit */
export function suitName(suit) {
  switch (suit) {
    case "S":
      return gettext("spades");
    case "H":
      return gettext("hearts");
    case "D":
      return gettext("diamonds");
    case "C":
      return gettext("clubs");
    default:
      return "";
  }
}

// "Spades" as a button or badge label (capitalised in languages that capitalise).
/** @param {string | null | undefined} suit */
export function suitTitle(suit) {
  switch (suit) {
    case "S":
      return gettext("Spades");
    case "H":
      return gettext("Hearts");
    case "D":
      return gettext("Diamonds");
    case "C":
      return gettext("Clubs");
    default:
      return gettext("No trump (bezi)");
  }
}

/** @param {string} rank */
function rankName(rank) {
  switch (rank) {
    case "A":
      return gettext("ace");
    case "K":
      return gettext("king");
    case "Q":
      return gettext("queen");
    case "J":
      return gettext("jack");
    case "T":
      return gettext("ten");
    case "9":
      return gettext("nine");
    case "8":
      return gettext("eight");
    case "7":
      return gettext("seven");
    case "6":
      return gettext("six");
    case "5":
      return gettext("five");
    case "4":
      return gettext("four");
    case "3":
      return gettext("three");
    case "2":
      return gettext("two");
    default:
      return rank;
  }
}

// The index printed in the card's corners (Russian players may prefer В Д К Т: translatable).
/** @param {string} rank */
export function rankLabel(rank) {
  switch (rank) {
    case "A":
      return pgettext("card rank", "A");
    case "K":
      return pgettext("card rank", "K");
    case "Q":
      return pgettext("card rank", "Q");
    case "J":
      return pgettext("card rank", "J");
    case "T":
      return "10";
    default:
      return rank;
  }
}

// "queen of hearts", "red joker": what a screen reader says and what announcements use.
/** @param {string} code */
export function cardName(code) {
  if (code === "X1") return gettext("red joker");
  if (code === "X2") return gettext("black joker");
  return interpolate(
    gettext("%(rank)s of %(suit)s"),
    { rank: rankName(code[0]), suit: suitName(code[1]) },
    true,
  );
}

// The short form for tight places: "Q♥", "10♠", "🃏1".
/** @param {string} code */
export function cardShort(code) {
  if (isJoker(code)) return code === "X1" ? "★" : "☆";
  return `${rankLabel(code[0])}${SUIT_SYMBOL[code[1]]}`;
}

/**
 * @param {string} className
 * @param {string} [text]
 */
function span(className, text) {
  const node = document.createElement("span");
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// A face-up card. `button: true` makes it a <button> (the viewer's own playable cards);
// otherwise a labelled image (role="img") so it still reads as "queen of hearts".
/**
 * @param {string} code
 * @param {{button?: boolean, size?: string}} [options]
 * @returns {HTMLElement}
 */
export function cardFace(code, { button = false, size = "" } = {}) {
  const node = document.createElement(button ? "button" : "span");
  if (node instanceof HTMLButtonElement) node.type = "button";
  else node.setAttribute("role", "img");
  node.className = `card face${size ? ` ${size}` : ""}`;
  node.dataset.card = code;
  node.setAttribute("aria-label", cardName(code));
  if (isJoker(code)) {
    node.classList.add("joker", code === "X1" ? "joker-1" : "joker-2");
    const corner = span("corner tl", code === "X1" ? "★" : "☆");
    const word = span("joker-word", gettext("Joker"));
    const pip = span("pip", code === "X1" ? "★" : "☆");
    const bottom = span("corner br", code === "X1" ? "★" : "☆");
    for (const part of [corner, word, pip, bottom]) part.setAttribute("aria-hidden", "true");
    node.append(corner, pip, word, bottom);
    return node;
  }
  const suit = code[1];
  node.classList.add(`suit-${suit}`);
  const corner = (/** @type {string} */ where) => {
    const box = span(`corner ${where}`);
    box.append(span("rank", rankLabel(code[0])), span("suit", SUIT_SYMBOL[suit]));
    box.setAttribute("aria-hidden", "true");
    return box;
  };
  const pip = span("pip", SUIT_SYMBOL[suit]);
  pip.setAttribute("aria-hidden", "true");
  node.append(corner("tl"), pip, corner("br"));
  return node;
}

// A face-down card (a back). Decorative unless given a label.
/** @param {{size?: string, label?: string}} [options] */
export function cardBack({ size = "", label = "" } = {}) {
  const node = span(`card back${size ? ` ${size}` : ""}`);
  if (label) {
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", label);
  } else {
    node.setAttribute("aria-hidden", "true");
  }
  return node;
}

const RANK_ORDER = "23456789TJQKA";

// The viewer's hand, sorted for reading: jokers first, then the suits with the trump first and
// the colours alternating (♠ ♥ ♣ ♦ when there is no trump), each suit from the ace down.
/**
 * @param {string[]} cards
 * @param {string | null | undefined} trump
 */
export function sortHand(cards, trump) {
  let order = ["S", "H", "C", "D"];
  if (trump === "H" || trump === "D") order = [trump, "S", trump === "H" ? "D" : "H", "C"];
  if (trump === "S" || trump === "C") order = [trump, "H", trump === "S" ? "C" : "S", "D"];
  const key = (/** @type {string} */ code) =>
    isJoker(code) ? [-1, Number(code[1])] : [order.indexOf(code[1]), -RANK_ORDER.indexOf(code[0])];
  return [...cards].sort((a, b) => {
    const [x1, y1] = key(a);
    const [x2, y2] = key(b);
    return x1 - x2 || y1 - y2;
  });
}
