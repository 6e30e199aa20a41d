// The lobby, live: tables appear, fill, start and vanish without a reload.
import { connect, handlePlayerEvents } from "./live.js";

const list = document.getElementById("tables");
const empty = document.getElementById("no-tables");
const friendsList = document.getElementById("friends-online");
const noFriends = document.getElementById("no-friends");
const notifications = document.getElementById("notifications");
const filters = new URLSearchParams(window.location.search);

function matchesFilters(table) {
  const game = filters.get("game");
  const stake = filters.get("stake");
  if (game && table.game !== game) return false;
  if (stake !== null && stake !== "" && String(table.stake) !== stake) return false;
  return true;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function render(table) {
  const item = el("li", "table-entry");
  item.dataset.tableId = table.id;
  const title = el("div", "table-title");
  title.append(el("strong", "", table.game_title));
  if (table.visibility === "password") {
    const lock = el("span", "vis", " 🔒");
    lock.title = gettext("Password table");
    lock.setAttribute("aria-label", gettext("Password table"));
    title.append(lock);
  } else if (table.visibility === "friends") {
    const friends = el("span", "vis", " 👥");
    friends.title = gettext("Friends only");
    friends.setAttribute("aria-label", gettext("Friends only"));
    title.append(friends);
  }
  title.append(
    " ",
    table.rated
      ? el("span", "badge rated", gettext("Rated"))
      : el("span", "badge casual", gettext("Casual")),
  );
  const stake = table.stake ? `◎ ${table.stake}` : gettext("Free");
  const meta = el("div", "table-meta");
  meta.append(
    el("span", "stake", stake),
    " · ",
    el(
      "span",
      "seats",
      interpolate(gettext("%(taken)s/%(total)s seats"), { taken: table.seats_taken, total: table.seats_total }, true),
    ),
    " · ",
    interpolate(gettext("by %(creator)s"), { creator: table.creator }, true),
  );
  const link = el(
    "a",
    "button small",
    table.visibility === "password" ? gettext("Join with password") : gettext("Open"),
  );
  link.href = table.url;
  item.append(title, el("div", "table-options", table.options.join(" · ")), meta, link);
  return item;
}

function upsert(table) {
  const existing = list.querySelector(`[data-table-id="${table.id}"]`);
  if (!matchesFilters(table)) {
    if (existing) existing.remove();
  } else if (existing) {
    existing.replaceWith(render(table));
  } else {
    list.prepend(render(table));
  }
  empty.hidden = list.children.length > 0;
}

function remove(id) {
  const existing = list.querySelector(`[data-table-id="${id}"]`);
  if (existing) existing.remove();
  empty.hidden = list.children.length > 0;
}

function showFriends(friends) {
  friendsList.replaceChildren(
    ...friends.map((friend) => {
      const li = el("li");
      const a = el("a", "", friend.name);
      a.href = `/players/${encodeURIComponent(friend.name)}/`;
      li.append(a);
      return li;
    }),
  );
  noFriends.hidden = friends.length > 0;
}

connect("/ws/lobby/", {
  onMessage(message) {
    if (handlePlayerEvents(message, notifications)) return;
    if (message.type === "lobby") {
      list.replaceChildren();
      message.tables.forEach(upsert);
      empty.hidden = list.children.length > 0;
      showFriends(message.friends_online);
    } else if (message.type === "table") {
      upsert(message.table);
    } else if (message.type === "table_removed") {
      remove(message.id);
    } else if (message.type === "pong") {
      showFriends(message.friends_online);
    }
  },
});
