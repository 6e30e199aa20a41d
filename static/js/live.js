// A websocket that reconnects with backoff and says honestly when it is not connected.
// Used by the lobby, the waiting room and the table page.

export function socketUrl(path) {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${window.location.host}${path}`;
}

export function connect(path, { onMessage, onOpen, onStatus, pingSeconds = 30 } = {}) {
  let socket = null;
  let attempt = 0;
  let pingTimer = null;
  let closedOnPurpose = false;

  function status(text) {
    if (onStatus) onStatus(text);
  }

  function open() {
    status(attempt ? "reconnecting…" : "connecting…");
    socket = new WebSocket(socketUrl(path));
    socket.addEventListener("open", () => {
      attempt = 0;
      status("");
      if (onOpen) onOpen(socket);
      clearInterval(pingTimer);
      pingTimer = setInterval(() => send({ type: "ping" }), pingSeconds * 1000);
    });
    socket.addEventListener("message", (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      onMessage(data);
    });
    socket.addEventListener("close", () => {
      clearInterval(pingTimer);
      if (closedOnPurpose) return;
      attempt += 1;
      // 0.5 s, 1 s, 2 s … capped at 15 s, with jitter so a restarted server is not stampeded.
      const delay = Math.min(15000, 500 * 2 ** (attempt - 1)) * (0.75 + Math.random() / 2);
      status("reconnecting…");
      setTimeout(open, delay);
    });
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  open();
  return {
    send,
    close() {
      closedOnPurpose = true;
      if (socket) socket.close();
    },
  };
}

export function notify(container, text, link) {
  const box = document.createElement("div");
  box.className = "notification";
  box.setAttribute("role", "status");
  const span = document.createElement("span");
  span.textContent = text;
  box.append(span);
  if (link) {
    const a = document.createElement("a");
    a.href = link.href;
    a.className = "button small";
    a.textContent = link.text;
    box.append(" ", a);
  }
  const dismiss = document.createElement("button");
  dismiss.type = "button";
  dismiss.className = "link";
  dismiss.setAttribute("aria-label", "Dismiss");
  dismiss.textContent = "×";
  dismiss.addEventListener("click", () => box.remove());
  box.append(" ", dismiss);
  container.append(box);
}

export function handlePlayerEvents(message, container) {
  if (message.type === "match_started") {
    window.location.assign(message.url);
    return true;
  }
  if (message.type === "invitation") {
    const stake = message.stake ? ` for ${message.stake} coins` : "";
    notify(container, `${message.from} invites you to ${message.game_title}${stake}.`, {
      href: message.url,
      text: "Go to the table",
    });
    return true;
  }
  return false;
}
