// Provably fair deals on the table page (docs/protocol.md § state, `seed_hash`): the seed's
// commitment from the first frame, and the link to the match's page (its replay and the
// revealed seed) once the match is over. The table page calls this with every `state`.
export function showFairness(state) {
  const hash = document.getElementById("seed-commitment-hash");
  if (hash && state.seed_hash) hash.textContent = state.seed_hash;
  const link = document.getElementById("match-record-link");
  if (link && state.match && state.status !== "playing") {
    link.querySelector("a").href = `/matches/${state.match}/`;
    link.hidden = false;
  }
}
