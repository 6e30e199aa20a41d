// @ts-check
// The page /fairness/ (docs/fairness.md § Check a match in the browser): it reads a match record
// (docs/match-export.md) from a file, pasted text or this site's export, and checks in the browser
// alone that the seed hashes to the commitment every seat saw, that the record names the seed's
// derivation, and that every deal in it is the deal the seed gives, shown beside the record.
import { MT_DEAL, SHA256_SEED_PREFIX, dealAlgorithm, hex, hmacHex, sha256 } from "./derive.js";

/** @typedef {{module: string, title: string}} Checker */
/** @typedef {{ok: boolean, text: string}} Check */
/** @typedef {{hand: number, derived: Record<string, unknown> | null, stated: Record<string, unknown>, differs: string[]}} DealCheck */

/** @param {string} format @param {Record<string, unknown>} values */
const fmt = (format, values) => interpolate(format, values, true);

/** JSON with its keys sorted, so that two equal values read the same. @param {unknown} value @returns {string} */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map(
        (key) =>
          `${JSON.stringify(key)}:${canonical(/** @type {Record<string, unknown>} */ (value)[key])}`,
      )
      .join(",")}}`;
  return JSON.stringify(value === undefined ? null : value);
}

const SYMBOLS = /** @type {Record<string, string>} */ ({ S: "♠", H: "♥", D: "♦", C: "♣" });

/** A card as people read it: Q♥, 10♣, ★1 (a joker). @param {unknown} card */
function shown(card) {
  if (typeof card !== "string") return card === null || card === undefined ? "–" : String(card);
  if (card[0] === "X") return `★${card.slice(1)}`;
  return `${card[0] === "T" ? "10" : card[0]}${SYMBOLS[card[1]] || card.slice(1)}`;
}

/** Cards, or pairs of cards, as one line. @param {unknown} value @returns {string} */
function line(value) {
  if (!Array.isArray(value)) return shown(value);
  return value
    .map((item) => (Array.isArray(item) ? item.map(shown).join("/") : shown(item)))
    .join(" ");
}

// --- The check ---------------------------------------------------------------------------------

/**
 * Everything that holds or not in a record, in words, and each deal beside the seed's.
 * @param {Record<string, any>} record @param {Record<string, Checker>} checkers
 */
export async function checkRecord(record, checkers) {
  /** @type {Check[]} */
  const checks = [];
  /** @type {DealCheck[]} */
  const deals = [];
  const seed = record.seed;
  if (typeof seed !== "string" || !seed) {
    checks.push({
      ok: false,
      text: gettext("The record has no seed: a match still being played keeps it secret."),
    });
    return { checks, deals, problem: checks[0].text };
  }
  const hash = hex(await sha256(seed));
  checks.push(
    hash === record.seed_hash
      ? {
          ok: true,
          text: fmt(
            gettext("The seed's SHA-256 is %(hash)s, the commitment every seat saw at the start."),
            { hash },
          ),
        }
      : {
          ok: false,
          text: fmt(
            gettext("The seed's SHA-256 is %(hash)s, but the record commits to %(stated)s."),
            {
              hash,
              stated: String(record.seed_hash),
            },
          ),
        },
  );
  if (record.entropy && typeof record.entropy === "object" && Object.keys(record.entropy).length)
    checks.push(...(await entropyChecks(record.entropy, seed, record.players)));
  const algorithm = dealAlgorithm(seed);
  const named = record.deal_algorithm ?? algorithm;
  if (named !== algorithm)
    checks.push({
      ok: false,
      text: fmt(
        gettext(
          "The record says its deals come from %(named)s, but its seed deals with %(algorithm)s.",
        ),
        {
          named: String(named),
          algorithm,
        },
      ),
    });
  const checker = checkers[record.game];
  if (algorithm === MT_DEAL) {
    checks.push({
      ok: false,
      text: gettext(
        "This match was dealt before 5 December 2026, with Python's Mersenne Twister: this page cannot redo its deals. Check it with python manage.py verify_match --file.",
      ),
    });
  } else if (!checker) {
    checks.push({
      ok: false,
      text: fmt(gettext("This site cannot check the deals of the game %(game)s."), {
        game: String(record.game),
      }),
    });
  } else if (!Array.isArray(record.deals) || !record.deals.length) {
    checks.push({ ok: false, text: gettext("The record lists no deal.") });
  } else {
    const game = await import(checker.module);
    const options = record.options && typeof record.options === "object" ? record.options : {};
    for (const entry of record.deals) {
      const hand = Number(entry && entry.hand);
      const stated = entry && entry.cards && typeof entry.cards === "object" ? entry.cards : {};
      /** @type {Record<string, unknown> | null} */
      let derived = null;
      try {
        derived = await game.dealCards(seed, options, hand);
      } catch {
        derived = null;
      }
      const keys = derived
        ? [...new Set([...Object.keys(derived), ...Object.keys(stated)])]
        : ["hand"];
      const differs = derived
        ? keys
            .filter(
              (key) => canonical(/** @type {any} */ (derived)[key]) !== canonical(stated[key]),
            )
            .sort()
        : keys;
      deals.push({ hand, derived, stated, differs });
    }
    const wrong = deals.filter((deal) => deal.differs.length);
    checks.push(
      wrong.length
        ? {
            ok: false,
            text: fmt(
              gettext("The deal of hand %(hand)s differs from what the seed gives (%(keys)s)."),
              {
                hand: wrong[0].hand,
                keys: wrong[0].differs.join(", "),
              },
            ),
          }
        : {
            ok: true,
            text: fmt(
              ngettext(
                "The deal is the one the seed gives.",
                "All %(count)s deals are the ones the seed gives.",
                deals.length,
              ),
              {
                count: deals.length,
              },
            ),
          },
    );
  }
  const failed = checks.find((c) => !c.ok);
  return { checks, deals, problem: failed ? failed.text : "" };
}

/**
 * docs/fairness.md § Player entropy: the server's secret against its commitment, each seat's
 * value against its own, and the seed as the HMAC of the values under the secret.
 * @param {Record<string, any>} entropy @param {string} seed @param {unknown} players
 * @returns {Promise<Check[]>}
 */
async function entropyChecks(entropy, seed, players) {
  /** @type {Check[]} */
  const checks = [];
  const secret = String(entropy.server_secret || "");
  const seats = Array.isArray(entropy.seats) ? entropy.seats : [];
  const names = Array.isArray(players) ? players.map((p) => String(p && p.name)) : [];
  const bots = Array.isArray(players) ? players.map((p) => Boolean(p && p.bot)) : [];
  const secretHash = hex(await sha256(secret));
  checks.push(
    secretHash === entropy.server_commitment
      ? {
          ok: true,
          text: gettext(
            "The server's secret is the one it committed to before any player revealed a value.",
          ),
        }
      : {
          ok: false,
          text: gettext("The server's secret does not match the commitment it showed."),
        },
  );
  /** @type {string[]} */
  const values = [];
  for (const [index, entry] of seats.entries()) {
    const name = names[index] || fmt(gettext("Seat %(seat)s"), { seat: index + 1 });
    const commitment = entry && entry.commitment ? String(entry.commitment) : "";
    const revealed = entry && entry.revealed ? String(entry.revealed) : "";
    const matches = Boolean(commitment && revealed) && hex(await sha256(revealed)) === commitment;
    const value = matches ? revealed : await hmacHex(secret, `seat:${index}`);
    const source = matches ? "player" : commitment && revealed ? "refused" : "server";
    values.push(value);
    const ok = entry && entry.value === value && entry.source === source;
    const said = {
      player: gettext("%(name)s: the value their browser revealed matches its commitment."),
      refused: gettext(
        "%(name)s: the value revealed did not match the commitment; the server's value stood in.",
      ),
      server: bots[index]
        ? gettext("%(name)s: a computer; the server's value, fixed by its secret.")
        : gettext(
            "%(name)s: the server's value, fixed by its secret: their browser gave none (the match started at once, as quick play and tournaments start them, or the page was not open in time).",
          ),
    }[source];
    checks.push(
      ok
        ? { ok: true, text: fmt(said, { name }) }
        : {
            ok: false,
            text: fmt(
              gettext(
                "%(name)s: the record's value for this seat is not the one its commitment and the server's secret give.",
              ),
              { name },
            ),
          },
    );
  }
  const derived = SHA256_SEED_PREFIX + (await hmacHex(secret, values.join(":")));
  checks.push(
    derived === seed
      ? {
          ok: true,
          text: gettext(
            "The seed is the HMAC of every seat's value under the server's secret: no one could choose it.",
          ),
        }
      : {
          ok: false,
          text: gettext("The seed is not the HMAC of the seats' values under the server's secret."),
        },
  );
  return checks;
}

// --- The page ----------------------------------------------------------------------------------

const form = /** @type {HTMLFormElement | null} */ (document.getElementById("fc-form"));
if (form) start(form);

/** @param {HTMLFormElement} form */
function start(form) {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const checkers = JSON.parse($("fc-checkers").textContent || "{}");
  const matchInput = /** @type {HTMLInputElement} */ ($("fc-match"));
  const fileInput = /** @type {HTMLInputElement} */ ($("fc-file"));
  const textInput = /** @type {HTMLTextAreaElement} */ ($("fc-text"));
  const error = $("fc-error");
  const result = $("fc-result");

  /** @param {string} text */
  const say = (text) => {
    error.textContent = text;
    error.hidden = !text;
  };

  /** @returns {Promise<unknown>} */
  async function read() {
    const file = fileInput.files && fileInput.files[0];
    if (file) return JSON.parse(await file.text());
    if (textInput.value.trim()) return JSON.parse(textInput.value);
    const number = matchInput.value.trim();
    if (!/^[0-9]{1,18}$/.test(number))
      throw new Error(gettext("Give a match's number, its file or its text."));
    const response = await fetch(`/matches/${number}/export/`, { credentials: "same-origin" });
    if (!response.ok)
      throw new Error(
        fmt(gettext("There is no finished match #%(number)s that you may see."), { number }),
      );
    return response.json();
  }

  async function run() {
    say("");
    result.hidden = true;
    if (!window.crypto || !window.crypto.subtle) {
      say(
        gettext(
          "This browser offers no SHA-256 on this page: open the site over https to check here.",
        ),
      );
      return;
    }
    let record;
    try {
      record = await read();
    } catch (problem) {
      say(
        problem instanceof SyntaxError
          ? gettext("This is not JSON: choose the match file as you downloaded it.")
          : String(/** @type {Error} */ (problem).message || problem),
      );
      return;
    }
    if (
      !record ||
      typeof record !== "object" ||
      /** @type {any} */ (record).format !== "joker-match"
    ) {
      say(
        gettext(
          "This is not a match record: download one with “Download the match (JSON)” on a finished match's page.",
        ),
      );
      return;
    }
    show(
      /** @type {Record<string, any>} */ (record),
      await checkRecord(/** @type {Record<string, any>} */ (record), checkers),
    );
  }

  /** @param {Record<string, any>} record @param {Awaited<ReturnType<typeof checkRecord>>} outcome */
  function show(record, outcome) {
    const verdict = $("fc-verdict");
    const title = (checkers[record.game] && checkers[record.game].title) || String(record.game);
    verdict.textContent = outcome.problem
      ? fmt(gettext("Match #%(match)s does not check out: %(problem)s"), {
          match: record.match,
          problem: outcome.problem,
        })
      : fmt(
          gettext(
            "Match #%(match)s (%(game)s) checks out: its seed is the one committed to, and every deal is the one the seed gives.",
          ),
          {
            match: record.match,
            game: title,
          },
        );
    result.dataset.verdict = outcome.problem ? "fails" : "holds";
    $("fc-checks").replaceChildren(
      ...outcome.checks.map((check) => {
        const item = document.createElement("li");
        item.className = check.ok ? "fc-ok" : "fc-bad";
        item.textContent = `${check.ok ? "✓" : "✗"} ${check.text}`;
        return item;
      }),
    );
    const names = Array.isArray(record.players)
      ? record.players.map((/** @type {any} */ p) => String(p && p.name))
      : [];
    $("fc-deals").replaceChildren(...outcome.deals.map((deal) => dealBox(deal, names)));
    result.hidden = false;
    verdict.focus();
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    run();
  });
  form.addEventListener("dragover", (event) => event.preventDefault());
  form.addEventListener("drop", (event) => {
    event.preventDefault();
    const files = event.dataTransfer && event.dataTransfer.files;
    if (files && files.length) {
      fileInput.files = files;
      run();
    }
  });
  if (form.dataset.match) run();
}

const PER_SEAT = new Set(["hands", "pending", "columns", "layout"]);

/** @param {string} key */
function keyWords(key) {
  const words = /** @type {Record<string, string>} */ ({
    hands: gettext("hand"),
    pending: gettext("to come after the trump"),
    columns: gettext("columns (up/down)"),
    layout: gettext("layout (up/down)"),
    undealt: gettext("Not in a hand yet, or out of play"),
    trump_card: gettext("Turned up for the trump"),
  });
  return words[key] || key;
}

/** One deal, the seed's cards beside the record's. @param {DealCheck} deal @param {string[]} names */
function dealBox(deal, names) {
  const box = document.createElement("details");
  box.className = "fc-deal";
  box.dataset.hand = String(deal.hand);
  box.dataset.ok = deal.differs.length ? "no" : "yes";
  box.open = Boolean(deal.differs.length);
  const summary = document.createElement("summary");
  summary.textContent = deal.differs.length
    ? fmt(gettext("✗ Hand %(hand)s: differs (%(keys)s)"), {
        hand: deal.hand,
        keys: deal.differs.join(", "),
      })
    : fmt(gettext("✓ Hand %(hand)s"), { hand: deal.hand });
  const table = document.createElement("table");
  table.className = "board fc-cards";
  const head = table.createTHead().insertRow();
  for (const text of ["", gettext("From the seed"), gettext("In the record")]) {
    const cell = document.createElement("th");
    cell.scope = "col";
    cell.textContent = text;
    head.append(cell);
  }
  const body = table.createTBody();
  const derived = deal.derived || {};
  const keys = [...new Set([...Object.keys(derived), ...Object.keys(deal.stated)])];
  for (const key of keys) {
    const ours = /** @type {any} */ (derived)[key];
    const theirs = /** @type {any} */ (deal.stated[key]);
    const perSeat = PER_SEAT.has(key) && (Array.isArray(ours) || Array.isArray(theirs));
    const rows = perSeat ? Math.max((ours || []).length, (theirs || []).length) : 1;
    for (let seat = 0; seat < rows; seat += 1) {
      const row = body.insertRow();
      const a = perSeat ? (ours || [])[seat] : ours;
      const b = perSeat ? (theirs || [])[seat] : theirs;
      row.className = canonical(a) === canonical(b) ? "" : "differs";
      const label = document.createElement("th");
      label.scope = "row";
      label.textContent = perSeat
        ? `${names[seat] || fmt(gettext("Seat %(seat)s"), { seat: seat + 1 })}: ${keyWords(key)}`
        : keyWords(key);
      row.append(label);
      for (const [value, where] of /** @type {[unknown, string][]} */ ([
        [a, gettext("From the seed")],
        [b, gettext("In the record")],
      ])) {
        const cell = row.insertCell();
        cell.dataset.label = where; // a phone shows each cell under its row's name, labelled
        cell.textContent = line(value);
      }
    }
  }
  const scroll = document.createElement("div");
  scroll.className = "table-scroll";
  scroll.append(table);
  box.append(summary, scroll);
  return box;
}
