// @ts-check
// Japanese Joker's deal of hand n from the seed (docs/fairness.md § Check a deal by hand, step 6),
// as the match export's `deals` writes it: the first three cards of each seat, the columns not
// laid yet, the 30 cards to come after the trump.
import { DealStream, jokerDeck } from "../derive.js";

/** @param {string} seed @param {Record<string, unknown>} _options @param {number} hand */
export async function dealCards(seed, _options, hand) {
  const rng = new DealStream(seed, hand);
  if (hand === 1) await rng.draw(2); // JJ-3: hand 1's declarer, drawn before the shuffle
  const deck = /** @type {string[]} */ (await rng.shuffle(jokerDeck()));
  const unlaid = () => Array(5).fill(null);
  return {
    hands: [deck.slice(0, 3), deck.slice(3, 6)],
    columns: [unlaid(), unlaid()],
    undealt: deck.slice(6),
  };
}
