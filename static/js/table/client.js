// @ts-check
// The table socket's client side (docs/protocol.md) and the page's one store: the newest
// snapshot, moves with ids that are resent after a reconnect, `sync` on any version gap, and
// the close codes. Every frame goes through `apply(frame)`; the page listens with `subscribe`.
import { connect } from "../live.js";

/** @typedef {import("./protocol.js").Frame} Frame */
/** @typedef {import("./protocol.js").StateFrame} StateFrame */
/** @typedef {import("./protocol.js").Action} Action */
/**
 * A quick-play table was called off before its match started: everyone goes back to the lobby
 * (docs/protocol.md § Quick play).
 * @typedef {{type: "called_off", table: number, url: string}} CalledOffFrame
 */
/**
 * What a subscriber hears: the frame that changed something, the state after it and before it.
 * @typedef {{frame: Frame, state: StateFrame | null, previous: StateFrame | null}} Change
 */

const ACK_WAIT_MS = 2000; // an ack whose state has not come by then: ask for a snapshot
const AHEAD_WAIT_MS = 1000; // a pong or presence ahead of our state: the state may be on its way
const RESEND_MS = 5000; // an act with no answer at all while connected: send it again, same id
const BUSY_RESEND_MS = 1000; // the table was busy: the same act again, same id, after a moment
const SYNC_FIRST_MS = 500; // a second sync before a state came waits this long, then doubles…
const SYNC_MAX_MS = 10000; // …up to this, with jitter, so many clients never sync in step

/**
 * The version and `presence_version` of a frame that tells the seats and clocks. Frames published
 * by different transactions may arrive in either order; this pair orders them (docs/protocol.md
 * § presence).
 * @typedef {[number, number]} SeatsMark
 */

/** @param {{version: number, presence_version?: number}} frame @returns {SeatsMark} */
function seatsMark(frame) {
  return [frame.version, frame.presence_version || 0];
}

/** @param {SeatsMark} a @param {SeatsMark} b */
function earlier(a, b) {
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}

export class TableClient {
  /**
   * @param {number} tableId
   * @param {{onStatus?: (text: string) => void, onFatal?: (kind: string) => void,
   *   onCalledOff?: (frame: CalledOffFrame) => void}} [handlers]
   */
  constructor(tableId, { onStatus, onFatal, onCalledOff } = {}) {
    this.tableId = tableId;
    /** @type {StateFrame | null} the newest `state`, with later presence and rematch news */
    this.state = null;
    /** @type {{id: string, message: object, action: Action} | null} an act not yet answered */
    this.pending = null;
    this.handlers = { onStatus, onFatal, onCalledOff };
    /** @type {Set<(change: Change) => void>} */
    this.subscribers = new Set();
    this.counter = 0;
    /** @type {{version: number, timer: ReturnType<typeof setTimeout>} | null} */
    this.aheadTimer = null; // a frame showed a newer version than our state: wait for its state
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.resendTimer = undefined;
    /** @type {ReturnType<typeof connect> | null} */
    this.socket = null;
    this.syncWaiting = false; // a sync was sent and no state has come since
    this.syncDelay = SYNC_FIRST_MS;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.syncTimer = null;
    /** @type {SeatsMark} where the seats and clocks we show come from */
    this.seatsFrom = [-1, -1];
  }

  start() {
    this.socket = connect(`/ws/table/${this.tableId}/`, {
      pingSeconds: 25,
      maxDelay: 10000,
      onMessage: (/** @type {Frame} */ message) => this.apply(message),
      onOpen: () => {
        // A reconnect is a fresh connect: the server sends a snapshot. A move that was never
        // acknowledged goes again with the same id: it is applied at most once.
        if (this.pending && this.socket) this.socket.send(this.pending.message);
      },
      onStatus: (/** @type {string} */ text) =>
        this.handlers.onStatus && this.handlers.onStatus(text),
      onClose: (/** @type {CloseEvent} */ event) => this.closed(event),
    });
    return this;
  }

  /**
   * Listen to every change; returns the function that stops listening.
   * @param {(change: Change) => void} listener
   */
  subscribe(listener) {
    this.subscribers.add(listener);
    return () => this.subscribers.delete(listener);
  }

  /**
   * @param {Frame} frame
   * @param {StateFrame | null} previous
   */
  publish(frame, previous) {
    for (const listener of this.subscribers) listener({ frame, state: this.state, previous });
  }

  get connected() {
    return Boolean(this.socket && this.socket.connected);
  }

  get version() {
    return this.state ? this.state.version : -1;
  }

  /** @param {object} message */
  send(message) {
    return this.socket ? this.socket.send(message) : false;
  }

  // Ask for a snapshot. While one is awaited, further asks back off (exponential, with jitter)
  // instead of piling up on a busy server; any state resets the backoff.
  sync() {
    if (!this.syncWaiting) {
      this.syncWaiting = true;
      return this.send({ type: "sync" });
    }
    if (this.syncTimer) return false;
    const delay = this.syncDelay * (0.5 + Math.random());
    this.syncDelay = Math.min(SYNC_MAX_MS, this.syncDelay * 2);
    this.syncTimer = setTimeout(() => {
      this.syncTimer = null;
      this.send({ type: "sync" });
    }, delay);
    return false;
  }

  synced() {
    this.syncWaiting = false;
    this.syncDelay = SYNC_FIRST_MS;
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.syncTimer = null;
  }

  /**
   * A frame says the match is at `version`, past our state. Its `state` may still be on the way
   * (frames to different groups can overtake each other, and a pong is answered directly), so
   * ask for a snapshot only if it has not come within `wait` ms.
   * @param {unknown} version
   * @param {number} wait
   */
  expect(version, wait) {
    if (typeof version !== "number" || !this.state || version <= this.state.version) return;
    if (this.aheadTimer && this.aheadTimer.version >= version) return;
    if (this.aheadTimer) clearTimeout(this.aheadTimer.timer);
    this.aheadTimer = {
      version,
      timer: setTimeout(() => {
        this.aheadTimer = null;
        this.checkVersion(version);
      }, wait),
    };
  }

  /**
   * A higher version anywhere means we missed a state: ask for a fresh one.
   * @param {number} version
   */
  checkVersion(version) {
    if (typeof version === "number" && this.state && version > this.state.version) this.sync();
  }

  /**
   * Send a move once; it is resent with the same id until it is answered.
   * @param {Action} action
   */
  act(action) {
    if (this.pending || !this.state) return false;
    this.counter += 1;
    const id = `c-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${this.counter}`;
    const message = { type: "act", version: this.state.version, id, action };
    this.pending = { id, message, action };
    this.send(message);
    this.armResend();
    return true;
  }

  armResend() {
    clearTimeout(this.resendTimer);
    this.resendTimer = setTimeout(() => {
      if (!this.pending) return;
      if (this.connected) this.send(this.pending.message);
      this.armResend();
    }, RESEND_MS);
  }

  settle() {
    this.pending = null;
    clearTimeout(this.resendTimer);
  }

  leave() {
    return this.send({ type: "leave" });
  }

  rematch(accept = true) {
    return this.send({ type: "rematch", accept });
  }

  /**
   * The one way a frame changes the store: a newer `state` replaces it, `presence` and
   * `rematch` update its seats, clocks and rematch offer; then every subscriber hears of it.
   * @param {Frame} frame
   */
  apply(frame) {
    const previous = this.state;
    if (/** @type {{type: string}} */ (frame).type === "called_off") {
      // The table will never play: stop here (no reconnecting to it) and let the page go.
      if (this.socket) this.socket.close();
      const off = /** @type {CalledOffFrame} */ (/** @type {unknown} */ (frame));
      if (this.handlers.onCalledOff) this.handlers.onCalledOff(off);
      return;
    }
    switch (frame.type) {
      case "state": {
        const sameMatch = previous && previous.match === frame.match;
        if (sameMatch && frame.version < previous.version) return; // older than ours
        this.synced();
        const from = seatsMark(frame);
        if (previous && sameMatch && earlier(from, this.seatsFrom)) {
          // A presence told after this state was built came first: its seats and clocks stay.
          this.state = { ...frame, seats: previous.seats, clocks: previous.clocks };
        } else {
          this.state = frame;
          this.seatsFrom = from;
        }
        if (this.aheadTimer && frame.version >= this.aheadTimer.version) {
          clearTimeout(this.aheadTimer.timer);
          this.aheadTimer = null;
        }
        break;
      }
      case "ack": {
        if (this.pending && frame.id === this.pending.id) this.settle();
        this.expect(frame.version, ACK_WAIT_MS);
        break;
      }
      case "error":
        if (this.pending && frame.id === this.pending.id) {
          if (frame.code === "busy") {
            // The move was not applied (a lock did not come in time): the same id once more.
            clearTimeout(this.resendTimer);
            this.resendTimer = setTimeout(() => {
              if (this.pending && this.connected) this.send(this.pending.message);
              this.armResend();
            }, BUSY_RESEND_MS);
            return;
          }
          this.settle();
        }
        break;
      case "presence": {
        this.expect(frame.version, AHEAD_WAIT_MS);
        const from = seatsMark(frame);
        if (!this.state || frame.version < this.state.version) return;
        if (earlier(from, this.seatsFrom)) return; // told before the seats we show: overtaken
        this.state = { ...this.state, seats: frame.seats, clocks: frame.clocks };
        this.seatsFrom = from;
        break;
      }
      case "rematch": {
        if (this.state) {
          const { type, ...offer } = frame;
          this.state = { ...this.state, rematch: { ...this.state.rematch, ...offer } };
        }
        break;
      }
      case "synced":
        // The answer to a sync when our state is current, or its state is on the way.
        this.synced();
        this.expect(frame.version, AHEAD_WAIT_MS);
        return;
      case "match_over":
      case "pong":
        this.expect(frame.version, AHEAD_WAIT_MS);
        if (frame.type === "pong") return;
        break;
      default:
        break;
    }
    this.publish(frame, previous);
  }

  /** @param {CloseEvent} event */
  closed(event) {
    const fatal = (/** @type {string} */ kind) =>
      this.handlers.onFatal && this.handlers.onFatal(kind);
    switch (event.code) {
      case 4008: // flood or too many bad messages: fix the client, do not hammer the server
        fatal("policy");
        return false;
      case 4003: // the session ended
        fatal("session");
        return false;
      case 4004: // no such table, or not for our eyes
        fatal("no_table");
        return false;
      case 4009: // our frame was too big: never send it again
        this.settle();
        return true;
      default:
        return true;
    }
  }
}
