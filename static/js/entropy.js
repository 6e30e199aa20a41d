// @ts-check
// Player entropy (docs/fairness.md § Player entropy; docs/protocol.md § Player entropy): this
// browser's share of a match's seed. When the player sits (the create, join and "play the
// computer" forms, or at a quick-play table the table socket), the page draws 32 random bytes,
// keeps them in this tab and sends only their SHA-256; when the full table asks (a `reveal`
// frame, naming that commitment) it sends the value. Without Web Crypto (a page not served over
// https or from localhost) it takes no part, and the server's value stands for the seat.

const KEY = "entropy:"; // sessionStorage: the value kept under its commitment
const FIELD = "entropy_commitment";

function store() {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** @param {Uint8Array} bytes */
const hex = (bytes) => [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");

/** A new value and its commitment, the value kept for the reveal; null without Web Crypto. */
export async function newShare() {
  if (!window.crypto || !window.crypto.subtle) return null;
  const value = hex(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  const commitment = hex(new Uint8Array(digest));
  const kept = store();
  if (!kept) return null;
  kept.setItem(KEY + commitment, value);
  return { value, commitment };
}

/** The value this tab committed to with `commitment`, or null. @param {unknown} commitment */
export function valueFor(commitment) {
  const kept = store();
  return kept && typeof commitment === "string" ? kept.getItem(KEY + commitment) : null;
}

/**
 * The answer to a `reveal` frame, or null when this tab did not make that commitment.
 * @param {{table: number, commitment: string}} frame
 */
export function revealFor(frame) {
  const value = valueFor(frame.commitment);
  return value ? { type: "entropy_reveal", table: frame.table, value } : null;
}

/**
 * A form that seats its player sends a commitment with it: the share is drawn when the page
 * loads (a digest takes well under a millisecond), so the submit is never held up; a form sent
 * before it is ready goes without one, and the server's value stands for the seat.
 */
function install() {
  for (const form of /** @type {NodeListOf<HTMLFormElement>} */ (
    document.querySelectorAll("form[data-entropy]")
  )) {
    const field = document.createElement("input");
    field.type = "hidden";
    field.name = FIELD;
    form.append(field);
    newShare().then(
      (share) => {
        if (share) field.value = share.commitment;
      },
      () => {},
    );
  }
}

install();
