// The lobby, live: tables appear, fill, start and vanish without a reload.
//
// The server sends one page of the newest tables of this page's filter with the count of all
// of them, then an event per table change; older pages come on "Show older tables". A change
// is drawn when its table falls inside the pages loaded so far (docs/protocol.md § The lobby
// socket), and the count follows tables opened and closed.
import "./entropy.js"; // the "play the computer" forms send this tab's share of the deal
import { connect, handlePlayerEvents } from "./live.js";
import { PlayNow } from "./play_now.js";
import { displayName } from "./table/text.js";

const list = document.getElementById("tables");
const empty = document.getElementById("no-tables");
const countLine = document.getElementById("table-count");
const moreLine = document.getElementById("more-tables-line");
const moreLink = document.getElementById("more-tables");
const friendsList = document.getElementById("friends-online");
const noFriends = document.getElementById("no-friends");
const notifications = document.getElementById("notifications");
const filters = new URLSearchParams(window.location.search);
// A page opened at "?before=<id>" shows only tables older than that one.
const before = filters.get("before") ? Number(filters.get("before")) : null;

let count = Number(countLine.dataset.count);
let more = !moreLine.hidden;
// Tables that left the lobby for good (started, cancelled): each event is sent after its own
// commit, so a `table` event published before the removal may arrive after it, and must not
// draw the table again (docs/protocol.md § The lobby socket).
const gone = new Set();

function query(extra) {
  const params = new URLSearchParams();
  for (const key of ["game", "stake", "speed", "seats"]) {
    if (filters.get(key)) params.set(key, filters.get(key));
  }
  for (const [key, value] of Object.entries(extra)) {
    if (value !== null) params.set(key, value);
  }
  return params.toString();
}

function matchesFilters(table) {
  const game = filters.get("game");
  const stake = filters.get("stake");
  const speed = filters.get("speed");
  const seats = filters.get("seats");
  if (game && table.game !== game) return false;
  // An entry names its seats_total, a removal its seats (none before seat counts: unknown).
  const total = table.seats_total ?? table.seats;
  if (seats && total !== undefined && total !== null && String(total) !== seats) return false;
  if (stake !== null && stake !== "" && String(table.stake) !== stake) return false;
  // An event from before speeds names none: such a table is Normal.
  if (speed && (table.speed || "normal") !== speed) return false;
  return true;
}

function shownIds() {
  return [...list.children].map((item) => Number(item.dataset.tableId));
}

function oldestShown() {
  const ids = shownIds();
  return ids.length ? Math.min(...ids) : null;
}

// Is a table with this id inside the pages loaded so far?
function inWindow(id) {
  if (before !== null && id >= before) return false;
  const oldest = oldestShown();
  return !more || oldest === null || id > oldest;
}

function showCount() {
  countLine.dataset.count = String(count);
  countLine.textContent = interpolate(
    ngettext("%(count)s open table", "%(count)s open tables", count),
    { count },
    true,
  );
  moreLine.hidden = !more;
  const oldest = oldestShown();
  if (oldest !== null) moreLink.href = `?${query({ before: oldest })}`;
  empty.hidden = list.children.length > 0;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const rowTemplate = document.getElementById("table-row");

// A row like the page's own (templates/games/_table_row.html): the <template>'s clone, its slots
// filled and only the parts that hold for this table kept.
function render(table) {
  const item = rowTemplate.content.firstElementChild.cloneNode(true);
  item.dataset.tableId = table.id;
  const holds = {
    password: table.visibility === "password",
    friends: table.visibility === "friends",
    open: table.visibility !== "password",
    rated: table.rated,
    casual: !table.rated,
    // A guest cannot sit at a coin table: said on the row rather than after a click.
    guest_coins: Boolean(table.stake) && list.dataset.guest === "yes",
    // The creator finishes few of the matches they start (issue 17's reputation badge).
    low_completion: (table.low_completion || []).includes(table.creator),
  };
  for (const part of item.querySelectorAll("[data-when]")) {
    if (!holds[part.dataset.when]) part.remove();
  }
  const slots = {
    game_title: table.game_title,
    options: table.options.join(" · "),
    stake: table.stake ? `◎ ${table.stake}` : gettext("Free"),
    seats: interpolate(
      ngettext("%(taken)s/%(total)s seat", "%(taken)s/%(total)s seats", table.seats_total),
      { taken: table.seats_taken, total: table.seats_total },
      true,
    ),
    creator: interpolate(gettext("by %(creator)s"), { creator: displayName(table.creator) }, true),
    speed_title: table.speed_title || "",
    speed_clocks: table.speed_clocks || "",
  };
  for (const [name, text] of Object.entries(slots)) {
    item.querySelector(`[data-slot="${name}"]`).textContent = text;
  }
  const speed = item.querySelector('[data-slot="speed_title"]');
  speed.dataset.speed = table.speed || "normal";
  speed.title = table.speed_clocks || "";
  item.querySelector('[data-slot="url"]').href = table.url;
  return item;
}

// Put a table in its place, newest (highest id) first; true when it was not shown before.
function place(table) {
  const existing = list.querySelector(`[data-table-id="${table.id}"]`);
  if (existing) {
    existing.replaceWith(render(table));
    return false;
  }
  const next = [...list.children].find((item) => Number(item.dataset.tableId) < table.id);
  list.insertBefore(render(table), next || null);
  return true;
}

function tableChanged(table) {
  if (gone.has(table.id) || !matchesFilters(table) || !inWindow(table.id)) return;
  if (place(table)) count += 1;
  showCount();
}

function tableRemoved(message) {
  if (message.status !== "open") gone.add(message.id); // "open": hidden from you, may come back
  const existing = list.querySelector(`[data-table-id="${message.id}"]`);
  if (existing) {
    existing.remove();
    count -= 1;
  } else {
    const oldest = oldestShown();
    // One of the older tables, counted but not loaded yet.
    if (more && oldest !== null && message.id < oldest && matchesFilters(message)) count -= 1;
  }
  count = Math.max(count, 0);
  showCount();
}

function showFriends(friends) {
  friendsList.replaceChildren(
    ...friends.map((friend) => {
      const li = el("li");
      const a = el("a", "name", friend.name);
      a.href = `/players/${encodeURIComponent(friend.name)}/`;
      li.append(a);
      return li;
    }),
  );
  noFriends.hidden = friends.length > 0;
}

// "Play now" (static/js/play_now.js): quick play's panel, over this page's lobby socket.
const playNowPanel = document.getElementById("play-now");
/** @type {PlayNow | null} */
let playNow = null;

const lobby = connect(`/ws/lobby/?${query({ before })}`, {
  onMessage(message) {
    if (playNow && playNow.receive(message)) return;
    if (handlePlayerEvents(message, notifications)) return;
    if (message.type === "lobby") {
      list.replaceChildren(...message.tables.map(render));
      list.dataset.live = "yes"; // the list now follows the server (tests wait for this)
      count = message.count;
      more = message.more;
      showCount();
      showFriends(message.friends_online);
    } else if (message.type === "tables") {
      message.tables.forEach(place);
      more = message.more;
      showCount();
    } else if (message.type === "table") {
      tableChanged(message.table);
    } else if (message.type === "table_removed") {
      tableRemoved(message);
    } else if (message.type === "pong") {
      showFriends(message.friends_online);
    }
  },
});

if (playNowPanel) playNow = new PlayNow(playNowPanel, (message) => lobby.send(message));

// With the socket open, older tables are added in place; without it the link opens the page.
moreLink.addEventListener("click", (event) => {
  const oldest = oldestShown();
  if (oldest !== null && lobby.send({ type: "more", before: oldest })) event.preventDefault();
});
