// @ts-check
// The renderer of each game, by the name the server uses (`state.game`).
import { classicJoker } from "./classic_joker.js";
import { japaneseJoker } from "./japanese_joker.js";
import { japaneseWhist } from "./japanese_whist.js";

/** @type {Record<string, import("./shared.js").GameRenderer>} */
export const RENDERERS = {
  japanese_joker: japaneseJoker,
  classic_joker: classicJoker,
  japanese_whist: japaneseWhist,
};
