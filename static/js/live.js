// A websocket that reconnects with backoff and says honestly when it is not connected.
// Used by the lobby, the waiting room and the table page.

// The JavaScript catalogue (/jsi18n/, loaded by base.html) defines gettext and interpolate;
// without it the page stays in English.
const gettext = typeof window.gettext === "function" ? window.gettext : (text) => text;
const ngettext =
  typeof window.ngettext === "function"
    ? window.ngettext
    : (singular, plural, count) => (count === 1 ? singular : plural);
const interpolate =
  typeof window.interpolate === "function"
    ? window.interpolate
    : (format, values) => format.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));

export function socketUrl(path) {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${window.location.host}${path}`;
}

// Options:
//   onMessage(data)      every JSON frame;
//   onOpen(socket)       after each (re)connection;
//   onStatus(text)       "connecting…", "reconnecting…" or "" (connected);
//   onClose(event)       after each close; return false to stop reconnecting (e.g. 1008, 4004);
//   pingSeconds          a {"type": "ping"} this often while open;
//   maxDelay             the longest wait between attempts, in ms (0.5 s, 1 s, 2 s … then this).
/**
 * @param {string} path
 * @param {{onMessage: (data: any) => void, onOpen?: (socket: WebSocket) => void,
 *   onStatus?: (text: string) => void, onClose?: (event: CloseEvent) => boolean | void,
 *   pingSeconds?: number, maxDelay?: number}} options
 */
export function connect(
  path,
  { onMessage, onOpen, onStatus, onClose, pingSeconds = 30, maxDelay = 15000 } = {},
) {
  let socket = null;
  let attempt = 0;
  let pingTimer = null;
  let retryTimer = null;
  let closedOnPurpose = false;

  function status(text) {
    if (onStatus) onStatus(text);
  }

  function open() {
    retryTimer = null;
    status(attempt ? gettext("reconnecting…") : gettext("connecting…"));
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
    socket.addEventListener("close", (event) => {
      clearInterval(pingTimer);
      if (closedOnPurpose) return;
      if (onClose && onClose(event) === false) {
        closedOnPurpose = true;
        return;
      }
      attempt += 1;
      // 0.5 s, 1 s, 2 s … capped, with jitter so a restarted server is not stampeded.
      const delay = Math.min(maxDelay, 500 * 2 ** (attempt - 1)) * (0.75 + Math.random() / 2);
      status(gettext("reconnecting…"));
      retryTimer = setTimeout(open, delay);
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
    get connected() {
      return Boolean(socket && socket.readyState === WebSocket.OPEN);
    },
    // Drop the current socket and connect again at once (e.g. the network came back).
    reconnect() {
      if (closedOnPurpose) return;
      if (retryTimer) {
        clearTimeout(retryTimer);
        open();
      } else if (socket && socket.readyState === WebSocket.OPEN) {
        socket.close();
      }
    },
    close() {
      closedOnPurpose = true;
      clearTimeout(retryTimer);
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
  dismiss.setAttribute("aria-label", gettext("Dismiss"));
  dismiss.textContent = "×";
  dismiss.addEventListener("click", () => box.remove());
  box.append(" ", dismiss);
  container.append(box);
}

// The navigation's count of friend requests waiting (base.html), kept right from the socket.
function showFriendRequests(pending) {
  const badge = document.getElementById("nav-friend-requests");
  if (!badge) return;
  badge.querySelector(".nav-count-number").textContent = String(pending);
  badge.hidden = pending < 1;
}

export function handlePlayerEvents(message, container) {
  if (message.type === "match_started") {
    window.location.assign(message.url);
    return true;
  }
  if (message.type === "invitation") {
    const values = { from: message.from, game: message.game_title, stake: message.stake };
    const text = message.stake
      ? interpolate(
          ngettext(
            "%(from)s invites you to %(game)s for %(stake)s coin.",
            "%(from)s invites you to %(game)s for %(stake)s coins.",
            message.stake,
          ),
          values,
          true,
        )
      : interpolate(gettext("%(from)s invites you to %(game)s."), values, true);
    notify(container, text, { href: message.url, text: gettext("Go to the table") });
    return true;
  }
  if (message.type === "friend_requests") {
    showFriendRequests(message.pending);
    if (message.sender) {
      const text = interpolate(
        gettext("%(name)s wants to be your friend."),
        { name: message.sender },
        true,
      );
      notify(container, text, { href: "/friends/", text: gettext("See the request") });
    }
    return true;
  }
  return false;
}
