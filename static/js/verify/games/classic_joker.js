// @ts-check
// Classic Joker's deal n from the seed at N seats (docs/fairness.md § Check a deal by hand, steps
// 4 and 6; docs/rules/classic_joker.md CJ-2 to CJ-6, CJ-27, CJ-29): the first dealer drawn from
// label 0, the deal passing left, a card at a time from the dealer's left.
import { DealStream, jokerDeck, sortedCards } from "../derive.js";

const NINES = [9, 9, 9, 9];
/** @type {Record<string, number[]>} cards a seat in each deal, by the option `pulkas` */
const SCHEDULES = {
  standard: [1, 2, 3, 4, 5, 6, 7, 8, ...NINES, 8, 7, 6, 5, 4, 3, 2, 1, ...NINES],
  nines: [...NINES, ...NINES, ...NINES, ...NINES],
  short: [...NINES, ...NINES],
};

/** @param {string} seed @param {Record<string, unknown>} options @param {number} hand */
export async function dealCards(seed, options, hand) {
  const seats = Number(options.seats ?? 4);
  const schedule = SCHEDULES[String(options.pulkas ?? "standard")];
  if (!schedule || ![2, 3, 4].includes(seats) || !(hand >= 1 && hand <= schedule.length))
    throw new RangeError(`no deal ${hand} with these options`);
  const cards = schedule[hand - 1];
  const firstDealer = await new DealStream(seed, 0).draw(seats);
  const dealer = (firstDealer + hand - 1) % seats;
  const deck = /** @type {string[]} */ (await new DealStream(seed, hand).shuffle(jokerDeck()));
  /** @type {string[][]} */
  const dealt = Array.from({ length: seats }, () => []);
  for (let k = 0; k < seats * cards; k += 1) dealt[(dealer + 1 + k) % seats].push(deck[k]);
  if (cards < 9)
    return {
      hands: dealt.map(sortedCards),
      undealt: deck.slice(seats * cards + 1),
      pending: null,
      trump_card: deck[seats * cards],
    };
  return {
    hands: dealt.map((h) => h.slice(0, 3)),
    undealt: deck.slice(seats * 9),
    pending: dealt.map((h) => h.slice(3)),
    trump_card: null,
  };
}
