// @ts-check
// The table's game renderer: the ES module the game's spec names (`GameSpec.renderer`), whose
// static URL the page gives in `data-renderer`, so that a game's drawing lives with its game.
// Its default export is the GameRenderer of ./shared.js.

/**
 * @param {string} url
 * @returns {Promise<import("./shared.js").GameRenderer>}
 */
export async function loadRenderer(url) {
  const module = await import(url);
  return module.default;
}
