// @ts-check
// Every page of a player in a running tournament (base.html names the event): their next match
// opens by itself as soon as it is paired, wherever they are (following.js).
import { follow } from "./following.js";

const tag = /** @type {HTMLElement | null} */ (
  document.querySelector("script[data-follow-tournament]")
);
if (tag && tag.dataset.followTournament) follow(tag.dataset.followTournament);
