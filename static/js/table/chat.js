// The table chat panel (templates/social/_chat.html; docs/protocol.md § chat). It shares the table
// socket: table.js hands it every frame (`receive` returns true for the frames it takes) and a
// `send` function. Everything a person wrote is set with textContent, never parsed as HTML.

import { displayName } from "./text.js";

const MUTE_KEY = "joker.chatMuted";
const OWN_ERRORS = new Set([
  "chat_guest",
  "chat_rate",
  "chat_muted",
  "chat_anonymous",
  "no_message",
  "no_player",
  "self",
  "anonymous",
]);
const ANSWER_MS = 3000; // a bad_message this soon after a chat line or a report is about it

function readMuted() {
  try {
    return window.localStorage.getItem(MUTE_KEY) === "1";
  } catch {
    return false; // storage blocked: the mute lasts for this page only
  }
}

function writeMuted(muted) {
  try {
    window.localStorage.setItem(MUTE_KEY, muted ? "1" : "0");
  } catch {
    // storage blocked: nothing to persist
  }
}

export class TableChat {
  // The panel in `root` or null when the page has none (then nothing is hooked).
  static mount(root, send) {
    return root ? new TableChat(root, send) : null;
  }

  constructor(root, send) {
    this.root = root;
    this.send = send;
    this.log = root.querySelector("#chat-log");
    this.error = root.querySelector("#chat-error");
    this.muteButton = root.querySelector("#chat-mute");
    this.mutedNote = root.querySelector("#chat-muted-note");
    this.railNote = root.querySelector("#chat-rail-note");
    this.report = root.querySelector("#chat-report");
    this.reportForm = root.querySelector("#chat-report-form");
    this.myName = root.dataset.myName || "";
    this.seen = new Set();
    this.sentAt = 0;
    this.muted = readMuted();
    this.bind();
    this.applyMute();
  }

  bind() {
    this.muteButton.addEventListener("click", () => {
      this.muted = !this.muted;
      writeMuted(this.muted);
      this.applyMute();
    });
    for (const button of this.root.querySelectorAll("[data-phrase]")) {
      button.addEventListener("click", () => this.say({ phrase: button.dataset.phrase }));
    }
    const form = this.root.querySelector("#chat-form");
    if (form) {
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const input = form.elements.text;
        const text = input.value.trim();
        if (!text) return;
        if (this.say({ text })) input.value = "";
      });
    }
    if (this.reportForm) {
      this.reportForm.addEventListener("submit", (event) => {
        event.preventDefault();
        const fields = this.reportForm.elements;
        const message = Number(fields.message.value);
        const about = message ? { message } : { player: Number(fields.player.value) };
        this.sentAt = Date.now();
        this.send({ type: "report", ...about, reason: fields.reason.value.trim() });
      });
    }
  }

  applyMute() {
    this.muteButton.setAttribute("aria-pressed", String(this.muted));
    this.muteButton.textContent = this.muted ? gettext("Unmute chat") : gettext("Mute chat");
    this.log.hidden = this.muted;
    this.mutedNote.hidden = !this.muted;
  }

  say(line) {
    this.showError("");
    this.sentAt = Date.now();
    return this.send({ type: "chat", ...line });
  }

  showError(text) {
    this.error.textContent = text;
    this.error.hidden = !text;
  }

  // Every frame of the table socket passes here first; true: the chat took it.
  receive(message) {
    switch (message.type) {
      case "chat":
        this.add(message);
        return true;
      case "chat_history":
        for (const line of message.messages) this.add(line);
        return true;
      case "reported":
        this.reported();
        return true;
      case "state":
        // A spectator during the match: their lines reach the other spectators only.
        this.railNote.hidden = !(message.seat === null && message.status === "playing");
        return false;
      case "error":
        if (
          OWN_ERRORS.has(message.code) ||
          (message.code === "bad_message" && Date.now() - this.sentAt < ANSWER_MS)
        ) {
          this.showError(message.message);
          return true;
        }
        return false;
      default:
        return false;
    }
  }

  add(line) {
    if (this.seen.has(line.id)) return;
    this.seen.add(line.id);
    const item = document.createElement("li");
    item.dataset.messageId = String(line.id);
    if (line.channel === "spectators") item.classList.add("chat-rail");
    const name = document.createElement("span");
    name.className = "chat-name";
    name.textContent =
      line.channel === "spectators"
        ? interpolate(gettext("%(name)s (watching)"), { name: displayName(line.from.name) }, true)
        : displayName(line.from.name);
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = line.text;
    item.append(name, text);
    if (this.reportForm && line.from.name !== this.myName) {
      const flag = document.createElement("button");
      flag.type = "button";
      flag.className = "button small secondary chat-report";
      flag.textContent = "⚑";
      flag.title = gettext("Report this message");
      flag.setAttribute("aria-label", gettext("Report this message"));
      flag.addEventListener("click", () => this.reportLine(line));
      item.append(flag);
    }
    this.log.append(item);
    this.log.scrollTop = this.log.scrollHeight;
  }

  reportLine(line) {
    const fields = this.reportForm.elements;
    fields.message.value = String(line.id);
    const quoted = this.reportForm.querySelector("#chat-report-line");
    quoted.textContent = `${line.from.name}: ${line.text}`;
    quoted.hidden = false;
    this.reportForm.querySelector("#chat-report-player").disabled = true;
    this.reportForm.querySelector("#chat-report-done").hidden = true;
    this.report.open = true;
    fields.reason.focus();
  }

  reported() {
    const fields = this.reportForm.elements;
    fields.message.value = "";
    fields.reason.value = "";
    this.reportForm.querySelector("#chat-report-line").hidden = true;
    this.reportForm.querySelector("#chat-report-player").disabled = false;
    this.reportForm.querySelector("#chat-report-done").hidden = false;
  }
}
