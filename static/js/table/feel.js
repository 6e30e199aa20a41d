// @ts-check
// How the table feels: saved preferences, short tones made with WebAudio (off by default),
// motion that respects prefers-reduced-motion, a buzz on a tap, and what screen readers are told.

const PREFIX = "joker.table.";

export const prefs = {
  /** @param {string} name */
  get(name, fallback = false) {
    try {
      const value = window.localStorage.getItem(PREFIX + name);
      return value === null ? fallback : value === "1";
    } catch {
      return fallback;
    }
  },
  /**
   * @param {string} name
   * @param {boolean} on
   */
  set(name, on) {
    try {
      window.localStorage.setItem(PREFIX + name, on ? "1" : "0");
    } catch {
      // private mode: the choice lasts for this page only
    }
  },
};

// --- Sound: no audio files, a short tone from an oscillator -------------------------------------

/** @type {AudioContext | null} */
let audio = null;

function context() {
  if (!audio) {
    const Context = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Context) return null;
    audio = new Context();
  }
  if (audio.state === "suspended") audio.resume();
  return audio;
}

/**
 * @param {number} frequency
 * @param {number} start
 * @param {number} duration
 */
function tone(frequency, start, duration, volume = 0.08) {
  const ctx = context();
  if (!ctx) return;
  const when = ctx.currentTime + start;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = "sine";
  osc.frequency.setValueAtTime(frequency, when);
  gain.gain.setValueAtTime(0.0001, when);
  gain.gain.exponentialRampToValueAtTime(volume, when + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, when + duration);
  osc.connect(gain).connect(ctx.destination);
  osc.start(when);
  osc.stop(when + duration + 0.02);
}

export const sound = {
  get on() {
    return prefs.get("sound", false);
  },
  set on(value) {
    prefs.set("sound", value);
    if (value) context(); // created inside the click that turned it on, as browsers require
  },
  /** @param {string} kind */
  play(kind) {
    if (!this.on) return;
    if (kind === "turn") {
      tone(660, 0, 0.12);
      tone(880, 0.13, 0.16);
    } else if (kind === "card") {
      tone(320, 0, 0.06, 0.05);
    } else if (kind === "trick") {
      tone(520, 0, 0.08, 0.05);
      tone(390, 0.09, 0.1, 0.05);
    }
  },
};

// --- Motion -------------------------------------------------------------------------------------

const reducedQuery = window.matchMedia
  ? window.matchMedia("(prefers-reduced-motion: reduce)")
  : null;

export function reducedMotion() {
  return Boolean(reducedQuery && reducedQuery.matches);
}

// Where every visible card is now, so that after a redraw a card that moved can glide from its
// old place to its new one (FLIP, with a CSS transition).
/** @param {HTMLElement} root */
export function cardRects(root) {
  const rects = new Map();
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (
    root.querySelectorAll("[data-card]")
  )) {
    if (node.closest(".trick-collect")) continue;
    rects.set(node.dataset.card, node.getBoundingClientRect());
  }
  return rects;
}

/**
 * @param {HTMLElement} node
 * @param {DOMRect | null | undefined} from
 */
export function glide(node, from) {
  if (reducedMotion() || !from) return;
  const to = node.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return;
  node.style.transition = "none";
  node.style.transform = `translate(${dx}px, ${dy}px)`;
  node.getBoundingClientRect(); // commit the start position before the transition
  node.style.transition = "";
  node.classList.add("gliding");
  node.style.transform = "";
  node.addEventListener("transitionend", () => node.classList.remove("gliding"), { once: true });
}

// --- Touch: a short buzz where the browser offers one (on by default, off with reduced motion) --

export const haptics = {
  get on() {
    return prefs.get("vibrate", true);
  },
  set on(value) {
    prefs.set("vibrate", value);
  },
  /** A tap that did something: a card played, a choice made. */
  tap() {
    if (!this.on || reducedMotion() || typeof navigator.vibrate !== "function") return;
    navigator.vibrate(15);
  },
};

// --- Screen readers -----------------------------------------------------------------------------

export class Announcer {
  /** @param {HTMLElement} node */
  constructor(node) {
    this.node = node;
    /** @type {string[]} */
    this.queue = [];
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
  }

  /** @param {string} text */
  say(text) {
    if (!text) return;
    this.queue.push(text);
    if (!this.timer) this.timer = setTimeout(() => this.flush(), 50);
  }

  flush() {
    this.timer = null;
    // One update per batch: a live region reads a changed text node once.
    this.node.textContent = this.queue.join(" ");
    this.queue = [];
  }
}
