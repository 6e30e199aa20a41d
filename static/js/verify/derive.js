// @ts-check
// docs/fairness.md § The derivation, in the browser: the words of SHA-256(`seed:label:k`) for
// k = 0, 1, 2, … (Web Crypto), a draw below m by rejection and Fisher–Yates from the end. The
// engines' Python (games/rules/cards.py) is the other implementation of the same text; CI
// checks that the two agree (tests/e2e/test_fairness_page.py).

export const SHA256_SEED_PREFIX = "sha256:";
export const SHA256_DEAL = "sha256-fisher-yates";
export const MT_DEAL = "python-mt19937";

const TWO_32 = 2 ** 32;
const encoder = new TextEncoder();

/** @param {string} text @returns {Promise<Uint8Array>} */
export async function sha256(text) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/** HMAC-SHA-256 of `message` keyed by `key`, both UTF-8 text, in hex (games/entropy.py).
 * @param {string} key @param {string} message */
export async function hmacHex(key, message) {
  const usable = await crypto.subtle.importKey(
    "raw",
    encoder.encode(key),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return hex(new Uint8Array(await crypto.subtle.sign("HMAC", usable, encoder.encode(message))));
}

/** @param {Uint8Array} bytes */
export function hex(bytes) {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Which derivation a seed deals with (the record's `deal_algorithm`). @param {string} seed */
export function dealAlgorithm(seed) {
  return seed.startsWith(SHA256_SEED_PREFIX) ? SHA256_DEAL : MT_DEAL;
}

/** One label's generator: a hand's number, or 0 for the draw of who deals first. */
export class DealStream {
  /** @param {string} seed @param {number} label */
  constructor(seed, label) {
    this.key = `${seed}:${label}:`;
    this.block = 0;
    /** @type {number[]} */
    this.words = [];
  }

  async word() {
    if (!this.words.length) {
      const digest = await sha256(`${this.key}${this.block}`);
      this.block += 1;
      const view = new DataView(digest.buffer);
      for (let i = 0; i < 32; i += 4) this.words.push(view.getUint32(i, false));
    }
    return /** @type {number} */ (this.words.shift());
  }

  /** A uniform draw from 0 … m − 1 (1 ≤ m ≤ 2³²). @param {number} m */
  async draw(m) {
    if (!(Number.isInteger(m) && m >= 1 && m <= TWO_32))
      throw new RangeError(`cannot draw below ${m}`);
    const limit = TWO_32 - (TWO_32 % m);
    let word = await this.word();
    while (word >= limit) word = await this.word();
    return word % m;
  }

  /** Fisher–Yates from the last card down, in place. @param {unknown[]} cards */
  async shuffle(cards) {
    for (let i = cards.length - 1; i > 0; i -= 1) {
      const j = await this.draw(i + 1);
      [cards[i], cards[j]] = [cards[j], cards[i]];
    }
    return cards;
  }
}

// --- Cards ------------------------------------------------------------------------------------

const SUITS = ["S", "H", "D", "C"];
const RANKS = "23456789TJQKA";

/** The 36-card deck in its fixed order: 6–A in ♥ ♦, 7–A in ♠ ♣, then the two jokers. */
export function jokerDeck() {
  const deck = [];
  for (const suit of SUITS)
    for (const rank of RANKS.slice(4))
      if (!(rank === "6" && (suit === "S" || suit === "C"))) deck.push(rank + suit);
  return [...deck, "X1", "X2"];
}

/** The 52-card deck: 2–A in ♠ ♥ ♦ ♣. */
export function fullDeck() {
  return SUITS.flatMap((suit) => [...RANKS].map((rank) => rank + suit));
}

/** How a hand is kept: jokers first, then by suit (♠ ♥ ♦ ♣), high rank first. @param {string[]} cards */
export function sortedCards(cards) {
  /** @param {string} card @returns {[number, number]} */
  const key = (card) =>
    card[0] === "X" ? [-1, Number(card[1])] : [SUITS.indexOf(card[1]), -RANKS.indexOf(card[0])];
  return [...cards].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1];
  });
}
