// @ts-check
// Quick play's panel on the lobby page, "Play now" (docs/protocol.md § Quick play), over the
// lobby socket that static/js/lobby.js holds. The page draws the panel (templates/games/
// _play_now.html); this module sends `pool_join` and `pool_leave`, follows the counts, the
// ratings and the player's ticket, and on `paired` plays a sound and takes the player to the
// table.
//
// A paired table starts when every player has a socket open on it. The lobby opens that socket
// itself the moment it is paired (and again after a reload), and goes to the table once its
// match is playing: a player who waits on the lobby page arrives with no page of their own to
// load, and the table's page shows a match, never a table that may still be called off. A table
// called off brings the player back here with a notice.
import { connect } from "./live.js";
import { haptics, sound } from "./table/feel.js";

const SAVED = "joker.playNow"; // localStorage: the last choice, ticked again on the next visit
const AFTER_GUEST = "joker.playNow.afterGuest"; // sessionStorage: a visitor pressed Play now
// sessionStorage: the table page was called off (static/js/table.js), the lobby says so.
export const CALLED_OFF = "joker.calledOff";

/**
 * @typedef {{pools: string[], joined_at: string, fill_after_seconds: number | null,
 *   bot_strength: string, table: number | null, url: string | null}} Ticket
 * @typedef {Record<string, {waiting: number, playing: number}>} Counts
 * @typedef {{games: string[], speeds: string[], stakes: string[], kinds: string[],
 *   fill: string, strength: string}} Choice
 */

/** @param {string} format @param {Record<string, unknown>} values */
function fmt(format, values) {
  return interpolate(format, values, true);
}

/** @param {number} seconds */
function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** @param {Storage | null} store @param {string} key */
function read(store, key) {
  try {
    return store ? store.getItem(key) : null;
  } catch {
    return null; // storage refused (private mode): nothing remembered
  }
}

/** @param {Storage | null} store @param {string} key @param {string | null} value */
function write(store, key, value) {
  try {
    if (!store) return;
    if (value === null) store.removeItem(key);
    else store.setItem(key, value);
  } catch {
    // storage refused: the choice lasts for this page only
  }
}

function local() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function session() {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

// A pool id is game/speed/stake/kind, and /seats after it for a table smaller than the game's
// default (classic Joker at 3 or 2); the panel's game boxes say `game` or `game:seats` (variant).
/** @param {string} pool */
function parts(pool) {
  const [game, speed, stake, kind, seats] = pool.split("/");
  return { game, speed, stake, kind, variant: seats ? `${game}:${seats}` : game };
}

/** @param {string} variant @param {string} speed @param {string} stake @param {string} kind */
function poolId(variant, speed, stake, kind) {
  const [game, seats] = variant.split(":");
  return `${game}/${speed}/${stake}/${kind}${seats ? `/${seats}` : ""}`;
}

export class PlayNow {
  /**
   * @param {HTMLElement} root  the panel, section#play-now
   * @param {(message: object) => boolean} send  a frame over the lobby socket; false if closed
   */
  constructor(root, send) {
    this.root = root;
    this.send = send;
    const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (root.querySelector(id));
    this.form = /** @type {HTMLFormElement} */ ($("#pn-form"));
    this.waiting = $("#pn-waiting");
    this.stateText = $("#pn-state");
    this.elapsed = $("#pn-elapsed");
    this.poolList = $("#pn-pools");
    this.fillNote = $("#pn-fill-note");
    this.others = $("#pn-others");
    this.peopleOnly = $("#pn-people-only");
    this.widenButton = /** @type {HTMLButtonElement} */ ($("#pn-widen"));
    this.fillBox = $("#pn-fill");
    this.error = $("#pn-error");
    this.notice = $("#pn-notice");
    this.summary = $("#pn-summary");
    this.go = /** @type {HTMLButtonElement} */ ($("#pn-go"));
    this.leaveButton = /** @type {HTMLButtonElement} */ ($("#pn-leave"));
    this.soundBox = /** @type {HTMLInputElement} */ ($("#pn-sound"));
    this.fillSelect = /** @type {HTMLSelectElement} */ ($("#pn-fill-after"));
    this.strengthSelect = /** @type {HTMLSelectElement} */ ($("#pn-strength"));
    this.limited = root.dataset.limited === "yes"; // free casual pools only
    this.visitor = root.dataset.visitor === "yes";
    // The server's clock minus ours, so "0:12" counts from the server's joined_at.
    this.skew = Date.parse(root.dataset.serverNow || "") - Date.now() || 0;
    /** @type {Counts} */
    this.counts = {};
    for (const item of (root.dataset.counts || "").split(" ").filter(Boolean)) {
      const [pool, waiting, playing] = item.split(":");
      this.counts[pool] = { waiting: Number(waiting), playing: Number(playing) };
    }
    /** @type {Ticket | null} */
    this.ticket = root.dataset.ticketPools
      ? {
          pools: root.dataset.ticketPools.split(" ").filter(Boolean),
          joined_at: root.dataset.joinedAt || "",
          fill_after_seconds: root.dataset.fill ? Number(root.dataset.fill) : null,
          bot_strength: root.dataset.strength || "easy",
          table: root.dataset.table ? Number(root.dataset.table) : null,
          url: root.dataset.table ? `/tables/${root.dataset.table}/` : null,
        }
      : null;
    this.joining = false; // a pool_join or pool_leave sent, its answer not come yet
    this.widening = false; // the leave asked for is to widen the choice: the form gets focus
    /** @type {{table: number, socket: ReturnType<typeof connect>, go: () => void} | null} */
    this.arrival = null; // our socket on the paired table, and the way there
    /** @type {number | null} */
    this.calledOff = null; // the table whose calling off was said already
    /** @type {ReturnType<typeof setInterval> | null} */
    this.timer = null;

    this.restore();
    this.form.addEventListener("change", () => this.changed());
    this.form.addEventListener("submit", (event) => this.submit(event));
    this.leaveButton.addEventListener("click", () => this.leave());
    // Widening is leaving the queue with the form back, as chosen, to tick more.
    this.widenButton.addEventListener("click", () => {
      this.widening = true;
      this.leave();
    });
    this.soundBox.checked = sound.on;
    this.soundBox.addEventListener("change", () => {
      sound.on = this.soundBox.checked; // made in this tap, so the browser lets it play later
      if (sound.on) sound.play("turn");
    });
    this.changed();
    this.showTicket();
    // The table page sent us back: its table was called off.
    const off = read(session(), CALLED_OFF);
    if (off !== null) {
      write(session(), CALLED_OFF, null);
      this.sayCalledOff(Number(off), Boolean(this.ticket));
    }
  }

  // --- The choice -----------------------------------------------------------------------------

  /** @param {string} name */
  boxes(name) {
    return /** @type {HTMLInputElement[]} */ ([
      ...this.form.querySelectorAll(`input[type=checkbox][name="${name}"]`),
    ]);
  }

  /** @param {string} name */
  ticked(name) {
    return this.boxes(name)
      .filter((box) => box.checked)
      .map((box) => box.value);
  }

  /** @returns {Choice} */
  choice() {
    return {
      games: this.ticked("pn_game"),
      speeds: this.ticked("pn_speed"),
      stakes: this.limited ? ["0"] : this.ticked("pn_stake"),
      kinds: this.limited ? ["casual"] : this.ticked("pn_kind"),
      fill: this.fillSelect.value,
      strength: this.strengthSelect.value,
    };
  }

  /** @param {Choice} choice */
  poolsOf(choice) {
    const pools = [];
    for (const game of choice.games)
      for (const speed of choice.speeds)
        for (const stake of choice.stakes)
          for (const kind of choice.kinds) pools.push(poolId(game, speed, stake, kind));
    return pools;
  }

  // The last choice, ticked again (what this page offers of it).
  restore() {
    let saved = null;
    try {
      saved = JSON.parse(read(local(), SAVED) || "null");
    } catch {
      saved = null;
    }
    if (!saved || typeof saved !== "object") return;
    /** @type {[string, unknown][]} */
    const groups = [
      ["pn_game", saved.games],
      ["pn_speed", saved.speeds],
      ["pn_stake", saved.stakes],
      ["pn_kind", saved.kinds],
    ];
    for (const [name, values] of groups) {
      const boxes = this.boxes(name);
      if (!Array.isArray(values) || !boxes.length) continue;
      if (!boxes.some((box) => values.includes(box.value))) continue; // nothing of it is here
      for (const box of boxes) box.checked = values.includes(box.value);
    }
    for (const [select, value] of /** @type {[HTMLSelectElement, unknown][]} */ ([
      [this.fillSelect, saved.fill],
      [this.strengthSelect, saved.strength],
    ])) {
      if ([...select.options].some((option) => option.value === value))
        select.value = /** @type {string} */ (value);
    }
  }

  changed() {
    const choice = this.choice();
    write(local(), SAVED, JSON.stringify(choice));
    this.fillBox.hidden = !choice.kinds.includes("casual");
    this.showCounts();
    if (!this.error.hidden && !this.problem(choice)) this.showError("");
  }

  /** @param {Choice} choice */
  problem(choice) {
    if (!choice.games.length) return gettext("Choose at least one game.");
    if (!choice.speeds.length) return gettext("Choose at least one speed.");
    if (!choice.stakes.length) return gettext("Choose at least one stake.");
    if (!choice.kinds.length) return gettext("Choose rated, casual or both.");
    return "";
  }

  /** @param {string} text */
  showError(text) {
    this.error.textContent = text;
    this.error.hidden = !text;
  }

  /** @param {SubmitEvent} event */
  submit(event) {
    const choice = this.choice();
    const problem = this.problem(choice);
    if (problem) {
      event.preventDefault();
      this.showError(problem);
      return;
    }
    if (sound.on) sound.on = true; // wake the sound in this tap: the browser allows it now
    if (this.visitor) {
      // The form goes to the guest page, which brings the new guest back here to join.
      write(session(), AFTER_GUEST, "1");
      return;
    }
    event.preventDefault();
    this.join(choice);
  }

  /** @param {Choice} choice */
  join(choice) {
    if (this.joining) return;
    this.showError("");
    this.notice.hidden = true;
    const message = {
      type: "pool_join",
      pools: this.poolsOf(choice),
      // Computers fill casual tables only.
      fill_after: choice.kinds.includes("casual") && choice.fill ? Number(choice.fill) : null,
      strength: choice.strength || "easy",
    };
    if (!this.send(message)) {
      this.showError(gettext("Not connected yet: try again in a moment."));
      return;
    }
    this.joining = true;
    this.go.disabled = true;
  }

  leave() {
    if (this.send({ type: "pool_leave" })) {
      this.joining = true;
      this.leaveButton.disabled = true;
    } else {
      this.showError(gettext("Not connected yet: try again in a moment."));
    }
  }

  // --- What the server says -------------------------------------------------------------------

  /**
   * Take a lobby frame; true if it was quick play's alone (the lobby reads the rest).
   * @param {any} message
   */
  receive(message) {
    switch (message.type) {
      case "lobby":
        this.counts = message.pool_counts || {};
        this.showRatings(message.ratings || {});
        this.setTicket(message.pool_ticket || null);
        this.showCounts();
        this.root.dataset.live = "yes"; // the panel follows the server now (tests wait for it)
        if (read(session(), AFTER_GUEST) !== null) {
          // A visitor pressed Play now and came back a guest: join as they chose.
          write(session(), AFTER_GUEST, null);
          if (!this.ticket && !this.visitor) this.join(this.choice());
        }
        return false;
      case "pool_ticket":
        // The answer to our own join or leave: the button pressed is gone, focus its opposite.
        this.joining = false;
        this.go.disabled = false;
        this.leaveButton.disabled = false;
        this.setTicket(message.ticket);
        if (!message.ticket && this.widening) {
          this.widening = false;
          const first = /** @type {HTMLElement | null} */ (this.form.querySelector("input"));
          (first || this.go).focus();
          return true;
        }
        (message.ticket ? this.leaveButton : this.go).focus({ preventScroll: true });
        return true;
      case "pool_ticket_changed":
        // A join or leave on another of our pages (or the answer to ours, again): show it.
        if (!this.joining) this.setTicket(message.ticket);
        return true;
      case "pools":
        this.counts = message.counts || {};
        this.showCounts();
        this.showOthers();
        return true;
      case "paired":
        this.paired(message.table, message.url);
        return true;
      case "match_started":
        // Our paired table started (its state says so too): go there once.
        if (!this.arrival || this.arrival.table !== message.table) return false;
        this.arrival.go();
        return true;
      case "pool_called_off":
        this.closeArrival();
        if (message.back && !this.ticket) this.send({ type: "sync" }); // the snapshot has it
        this.setTicket(
          message.back && this.ticket ? { ...this.ticket, table: null, url: null } : null,
        );
        this.sayCalledOff(message.table, Boolean(message.back));
        return true;
      case "error":
        if (!this.joining) return false;
        this.joining = false;
        this.go.disabled = false;
        this.leaveButton.disabled = false;
        this.showError(message.message || gettext("The server refused that."));
        if (message.code === "paired") this.send({ type: "sync" }); // our table: the snapshot has it
        return true;
      default:
        return false;
    }
  }

  /** @param {Ticket | null} ticket */
  setTicket(ticket) {
    this.ticket = ticket;
    if (ticket && ticket.table && ticket.url) this.arrive(ticket.table, ticket.url);
    if (!ticket || !ticket.table) this.closeArrival();
    this.showTicket();
  }

  /** @param {number} table @param {string} url */
  paired(table, url) {
    haptics.tap();
    sound.play("turn");
    const ticket = this.ticket || {
      pools: [],
      joined_at: new Date(Date.now() + this.skew).toISOString(),
      fill_after_seconds: null,
      bot_strength: "easy",
      table: null,
      url: null,
    };
    this.setTicket({ ...ticket, table, url });
  }

  // Open the paired table: our socket there is our arrival; once its match plays, go there.
  /** @param {number} table @param {string} url */
  arrive(table, url) {
    if (this.arrival && this.arrival.table === table) return;
    this.closeArrival();
    // Our socket stays open until the page goes, so we never leave the table meanwhile; the
    // states that follow the first (every move) do not start the navigation again.
    let going = false;
    const go = () => {
      if (going) return;
      going = true;
      window.location.assign(url);
    };
    const socket = connect(`/ws/table/${table}/`, {
      pingSeconds: 25,
      maxDelay: 5000,
      onMessage: (/** @type {any} */ frame) => {
        if (frame.type === "state" && frame.status === "playing") go();
        // Called off: the lobby socket says so too, with whether we wait again.
        else if (frame.type === "called_off" || frame.status === "cancelled") this.closeArrival();
      },
      // No such table (or not ours to see), or our session ended: ask the lobby what holds.
      onClose: (/** @type {CloseEvent} */ event) => {
        if (event.code === 4004 || event.code === 4003 || event.code === 4008) {
          this.arrival = null;
          this.send({ type: "sync" });
          return false;
        }
        return true;
      },
    });
    this.arrival = { table, socket, go };
  }

  closeArrival() {
    if (!this.arrival) return;
    this.arrival.socket.close();
    this.arrival = null;
  }

  /** @param {number} table @param {boolean} back */
  sayCalledOff(table, back) {
    if (this.calledOff === table) return;
    this.calledOff = table;
    this.notice.textContent = back
      ? gettext("Not everyone came; you are back in the queue.")
      : gettext("Not everyone came; the game is called off.");
    this.notice.hidden = false;
  }

  /** @param {Record<string, number>} ratings */
  showRatings(ratings) {
    for (const node of /** @type {NodeListOf<HTMLElement>} */ (
      this.root.querySelectorAll("[data-rating-for]")
    )) {
      const rating = ratings[node.dataset.ratingFor || ""];
      node.hidden = rating === undefined;
      node.textContent = rating === undefined ? "" : fmt(gettext("Rating %(rating)s"), { rating });
    }
  }

  // Beside each game, who waits and plays in the pools this page may join; under the button,
  // in the pools ticked.
  showCounts() {
    /** @param {(pool: ReturnType<typeof parts>) => boolean} keep */
    const sum = (keep) => {
      let waiting = 0;
      let playing = 0;
      for (const [pool, count] of Object.entries(this.counts)) {
        if (!keep(parts(pool))) continue;
        waiting += count.waiting;
        playing += count.playing;
      }
      return { waiting, playing };
    };
    const allowed = (/** @type {ReturnType<typeof parts>} */ p) =>
      !this.limited || (p.stake === "0" && p.kind === "casual");
    for (const node of /** @type {NodeListOf<HTMLElement>} */ (
      this.root.querySelectorAll("[data-count-for]")
    )) {
      const game = node.dataset.countFor;
      node.textContent = fmt(
        gettext("%(waiting)s waiting · %(playing)s playing"),
        sum((p) => p.variant === game && allowed(p)),
      );
    }
    const chosen = new Set(this.poolsOf(this.choice()));
    this.summary.textContent = chosen.size
      ? fmt(
          gettext("Your choice: %(waiting)s waiting · %(playing)s playing"),
          sum((p) => chosen.has(poolId(p.variant, p.speed, p.stake, p.kind))),
        )
      : "";
  }

  // --- Waiting --------------------------------------------------------------------------------

  showTicket() {
    const ticket = this.ticket;
    const shrinks = Boolean(ticket) && !this.form.hidden; // the form goes: keep the panel in view
    this.form.hidden = Boolean(ticket);
    this.waiting.hidden = !ticket;
    if (shrinks && this.root.getBoundingClientRect().top < 0) this.root.scrollIntoView();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (!ticket) return;
    this.notice.hidden = this.notice.hidden || Boolean(ticket.table); // a new table: old news
    this.stateText.textContent = ticket.table
      ? gettext("Game found! Waiting for everyone to arrive…")
      : gettext("Looking for a game…");
    this.poolList.replaceChildren(...this.describe(ticket.pools));
    const casual = ticket.pools.some((pool) => parts(pool).kind === "casual");
    const fill = ticket.fill_after_seconds;
    this.fillNote.hidden = !(casual && fill);
    this.fillNote.textContent =
      casual && fill
        ? fmt(gettext("Computers fill a casual table after %(seconds)s s."), { seconds: fill })
        : "";
    // Waiting for people only (a rated pool, or "never fill with computers"): say so, say who
    // else waits, and offer a wider choice.
    const rated = ticket.pools.some((pool) => parts(pool).kind === "rated");
    const peopleOnly = !ticket.table && (rated || (casual && !fill));
    this.peopleOnly.hidden = !peopleOnly;
    this.peopleOnly.textContent = !peopleOnly
      ? ""
      : rated
        ? gettext("Rated games are played by people only: no computer ever takes a rated seat.")
        : gettext("You chose to wait for people only: no computer fills your table.");
    this.widenButton.hidden = Boolean(ticket.table);
    this.showOthers();
    this.tick();
    this.timer = setInterval(() => this.tick(), 1000);
  }

  // How many others wait in the pools the ticket is in (the lobby's counts include us).
  showOthers() {
    const ticket = this.ticket;
    if (!ticket || ticket.table) {
      this.others.textContent = "";
      return;
    }
    let others = 0;
    for (const pool of ticket.pools) {
      const count = this.counts[pool];
      if (count) others = Math.max(others, count.waiting - 1);
    }
    this.others.textContent =
      others > 0
        ? fmt(
            ngettext(
              "%(count)s other player is waiting in your choice.",
              "%(count)s other players are waiting in your choice.",
              others,
            ),
            { count: others },
          )
        : gettext("Nobody else is waiting in your choice right now.");
  }

  tick() {
    if (!this.ticket) return;
    const since = Date.parse(this.ticket.joined_at);
    this.elapsed.textContent = Number.isNaN(since)
      ? ""
      : clock((Date.now() + this.skew - since) / 1000);
  }

  // The pools, a line a game (and seats): "Japanese Joker: Fast, Normal · Free · Casual".
  /** @param {string[]} pools */
  describe(pools) {
    /** @type {Map<string, {speeds: Set<string>, stakes: Set<string>, kinds: Set<string>}>} */
    const games = new Map();
    for (const pool of pools) {
      const p = parts(pool);
      if (!games.has(p.variant))
        games.set(p.variant, { speeds: new Set(), stakes: new Set(), kinds: new Set() });
      const entry = /** @type {{speeds: Set<string>, stakes: Set<string>, kinds: Set<string>}} */ (
        games.get(p.variant)
      );
      entry.speeds.add(p.speed);
      entry.stakes.add(p.stake);
      entry.kinds.add(p.kind);
    }
    const title = (/** @type {string} */ name, /** @type {string} */ value) => {
      const box = /** @type {HTMLInputElement | null} */ (
        this.root.querySelector(`input[name="${name}"][value="${CSS.escape(value)}"]`)
      );
      return (box && box.dataset.title) || value;
    };
    const words = this.root.dataset;
    return [...games].map(([game, entry]) => {
      const item = document.createElement("li");
      const name = document.createElement("strong");
      name.textContent = title("pn_game", game);
      const speeds = [...entry.speeds].map((speed) => title("pn_speed", speed)).join(", ");
      const stakes = [...entry.stakes]
        .sort((a, b) => Number(a) - Number(b))
        .map((stake) => (stake === "0" ? words.wordFree || stake : `◎ ${stake}`))
        .join(", ");
      const kinds = [...entry.kinds]
        .sort()
        .map((kind) => (kind === "rated" ? words.wordRated : words.wordCasual) || kind)
        .join(", ");
      item.append(name, `: ${speeds} · ${stakes} · ${kinds}`);
      return item;
    });
  }
}
