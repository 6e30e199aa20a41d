// The table socket's client side (docs/protocol.md): the newest snapshot, moves with ids that are
// resent after a reconnect, `sync` on any version gap, and the close codes.
import { connect } from "../live.js";

const ACK_WAIT_MS = 2000; // an ack whose state has not come by then: ask for a snapshot
const RESEND_MS = 5000; // an act with no answer at all while connected: send it again, same id
const BUSY_RESEND_MS = 1000; // the table was busy: the same act again, same id, after a moment
const SYNC_FIRST_MS = 500; // a second sync before a state came waits this long, then doubles…
const SYNC_MAX_MS = 10000; // …up to this, with jitter, so many clients never sync in step

export class TableClient {
  constructor(tableId, { onState, onPresence, onEvent, onStatus, onFatal } = {}) {
    this.tableId = tableId;
    this.state = null; // the newest `state` message
    this.pending = null; // {id, message, action}: an act sent and not yet answered
    this.handlers = { onState, onPresence, onEvent, onStatus, onFatal };
    this.counter = 0;
    this.ackTimer = null;
    this.resendTimer = null;
    this.socket = null;
    this.syncWaiting = false; // a sync was sent and no state has come since
    this.syncDelay = SYNC_FIRST_MS;
    this.syncTimer = null;
  }

  start() {
    this.socket = connect(`/ws/table/${this.tableId}/`, {
      pingSeconds: 25,
      maxDelay: 10000,
      onMessage: (message) => this.receive(message),
      onOpen: () => {
        // A reconnect is a fresh connect: the server sends a snapshot. A move that was never
        // acknowledged goes again with the same id: it is applied at most once.
        if (this.pending) this.socket.send(this.pending.message);
      },
      onStatus: (text) => this.emit("onStatus", text),
      onClose: (event) => this.closed(event),
    });
    return this;
  }

  get connected() {
    return Boolean(this.socket && this.socket.connected);
  }

  get version() {
    return this.state ? this.state.version : -1;
  }

  emit(name, ...args) {
    const handler = this.handlers[name];
    if (handler) handler(...args);
  }

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
    clearTimeout(this.syncTimer);
    this.syncTimer = null;
  }

  // A higher version anywhere means we missed a state: ask for a fresh one.
  checkVersion(version) {
    if (typeof version === "number" && this.state && version > this.state.version) this.sync();
  }

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

  receive(message) {
    switch (message.type) {
      case "state": {
        const current = this.state;
        const sameMatch = current && current.match === message.match;
        if (sameMatch && message.version < current.version) return; // older than ours
        this.synced();
        this.state = message;
        if (this.ackTimer && message.version >= this.ackTimer.version) {
          clearTimeout(this.ackTimer.timer);
          this.ackTimer = null;
        }
        this.emit("onState", message, current);
        return;
      }
      case "ack": {
        if (this.pending && message.id === this.pending.id) this.settle();
        if (this.state && message.version > this.state.version) {
          clearTimeout(this.ackTimer && this.ackTimer.timer);
          this.ackTimer = {
            version: message.version,
            timer: setTimeout(() => {
              this.ackTimer = null;
              this.checkVersion(message.version);
            }, ACK_WAIT_MS),
          };
        }
        this.emit("onEvent", message);
        return;
      }
      case "error":
        if (this.pending && message.id === this.pending.id) {
          if (message.code === "busy") {
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
        this.emit("onEvent", message);
        return;
      case "presence":
        if (this.state && message.version >= this.state.version) {
          this.state = { ...this.state, seats: message.seats, clocks: message.clocks };
          this.emit("onPresence", this.state);
        }
        this.checkVersion(message.version);
        return;
      case "pong":
        this.checkVersion(message.version);
        return;
      case "match_over":
        this.emit("onEvent", message);
        this.checkVersion(message.version);
        return;
      case "rematch":
        this.emit("onEvent", message);
        return;
      default:
        this.emit("onEvent", message);
    }
  }

  closed(event) {
    switch (event.code) {
      case 4008: // flood or too many bad messages: fix the client, do not hammer the server
        this.emit("onFatal", "policy");
        return false;
      case 4003: // the session ended
        this.emit("onFatal", "session");
        return false;
      case 4004: // no such table, or not for our eyes
        this.emit("onFatal", "no_table");
        return false;
      case 4009: // our frame was too big: never send it again
        this.settle();
        return true;
      default:
        return true;
    }
  }
}
