// @ts-check
// Japanese Whist's deal of hand n from the seed (docs/fairness.md § Check a deal by hand, step 6):
// each seat's ten layout positions, [face up, face down], and its six hand cards, kept sorted.
import { DealStream, fullDeck, sortedCards } from "../derive.js";

/** @param {string} seed @param {Record<string, unknown>} _options @param {number} hand */
export async function dealCards(seed, _options, hand) {
  const deck = /** @type {string[]} */ (await new DealStream(seed, hand).shuffle(fullDeck()));
  /** @param {number} up @param {number} down */
  const layout = (up, down) => Array.from({ length: 10 }, (_, i) => [deck[up + i], deck[down + i]]);
  return {
    hands: [sortedCards(deck.slice(40, 46)), sortedCards(deck.slice(46, 52))],
    layout: [layout(20, 0), layout(30, 10)],
  };
}
