// @ts-check
// Classic Georgian Joker for four (docs/rules/classic_joker.md): deals of 1 … 9 cards in four
// pulkas, bids with the dealer's forbidden bid, a turned trump card, the score sheet (CJ-25).
import { cardFace } from "../cards.js";
import { bidPanel, bidsSoFar, trumpPanel } from "../decisions.js";
import { el } from "../dom.js";
import { fmt, seatName, trumpWords } from "../text.js";
import { TRICKS_POINTS_TOTAL } from "./shared.js";

/** @typedef {import("../protocol.js").StateFrame} StateFrame */
/** @typedef {import("../protocol.js").View} View */

/** @type {import("./shared.js").GameRenderer} */
const classicJoker = {
  seats: 4,
  layout: "ring",
  scoresLabel: gettext("Score sheet"),
  trumpText: (view) => trumpWords("trump" in view ? view.trump : undefined, true),
  seatBadges: (view, seat) => (view.dealer === seat ? [gettext("dealer")] : []),
  seatStats: (view, seat) => {
    const bid = (view.bids || [])[seat];
    return [
      {
        className: "bid",
        text: fmt(gettext("bid %(bid)s"), { bid: bid === null || bid === undefined ? "–" : bid }),
      },
      { className: "took", text: fmt(gettext("took %(tricks)s"), { tricks: view.tricks[seat] }) },
      { className: "score", text: fmt(gettext("%(points)s pts"), { points: view.scores[seat] }) },
    ];
  },
  tableCards: () => [],
  facts: (view) => {
    const facts = [];
    if (view.trump_card) {
      const turned = el("span", "fact turned");
      turned.append(
        el("span", "muted", gettext("Turned card")),
        " ",
        cardFace(view.trump_card, { size: "small" }),
      );
      facts.push(turned);
    }
    facts.push(
      el(
        "span",
        "fact round",
        fmt(
          ngettext(
            "Deal %(deal)s of %(total)s · %(cards)s card each · pulka %(pulka)s",
            "Deal %(deal)s of %(total)s · %(cards)s cards each · pulka %(pulka)s",
            view.cards || 0,
          ),
          {
            deal: view.deal_number,
            total: (view.schedule || []).length,
            cards: view.cards,
            pulka: (view.pulka || 0) + 1,
          },
        ),
      ),
    );
    return facts;
  },
  trickTotal: (view) => view.cards || 0,
  decisions: {
    trump: (table) => trumpPanel(table, gettext("Choose the trump from your first three cards.")),
    bid: bidPanel,
  },
  watching: (table) => (table.view.phase === "bid" ? bidsSoFar(table) : null),
  handHidden: () => false,
  handNote: (view) =>
    view.phase === "trump"
      ? gettext("Your first cards: the rest are dealt after the trump is chosen.")
      : "",
  forfeitNote: gettext("You left this match: a computer player plays your seat."),
  jokerLeadText: gettext(
    "Want: the joker wins unless trumped, everybody plays their highest card of the suit. Take: the suit is led and the highest card takes.",
  ),
  summaryTitle: (hand) => fmt(gettext("Deal %(number)s is over"), { number: hand.deal_number }),
  summaryColumns: [
    { title: gettext("Bid"), cell: (hand, _view, seat) => String((hand.bids || [])[seat]) },
    ...TRICKS_POINTS_TOTAL,
  ],
  summaryExtra: (state, hand) => {
    const extra = [];
    if (hand.pulka_closed) {
      const names = (hand.premia || []).map((s) => seatName(state, s));
      const pulka = (hand.pulka || 0) + 1;
      extra.push(
        el(
          "p",
          "",
          names.length
            ? fmt(gettext("Pulka %(pulka)s is complete. Premia: %(names)s."), {
                pulka,
                names: names.join(", "),
              })
            : fmt(gettext("Pulka %(pulka)s is complete. Nobody earned the premia."), { pulka }),
        ),
      );
    }
    extra.push(...sheetTable(state, hand.pulka));
    return extra;
  },
  scores: (state) => ({
    kind: "sheet",
    title: gettext("Score sheet"),
    body: sheetTable(state, null),
  }),
  leaveText: gettext(
    "A computer player takes your seat, you are ranked last and your stake goes to the pot.",
  ),
};

export default classicJoker;

/**
 * The classic Joker score sheet (CJ-25): one row per deal, each cell the points with its mark,
 * and the pulka totals; then its legend. `only` limits it to one pulka. The table scrolls on its
 * own when it has more deals than room (the legend stays under it); the deal scored last is
 * marked (on a phone the end of a deal shows it instead of the summary's own table).
 * @param {StateFrame} state
 * @param {number | null | undefined} only
 * @returns {HTMLElement[]}
 */
export function sheetTable(state, only) {
  const view = /** @type {View} */ (state.view);
  const sheet = view.sheet || { rows: [], pulkas: [] };
  const seats = view.players; // 2, 3 or 4 (CJ-2)
  const wrap = el("div", "sheet-wrap");
  const table = el("table", "sheet");
  const caption = el("caption", "visually-hidden", gettext("Score sheet"));
  table.append(caption);
  const head = el("tr");
  head.append(el("th", "", gettext("Deal")));
  for (let seat = 0; seat < seats; seat += 1) {
    const name = el("th", "num seat-head", seatName(state, seat));
    head.append(name); // whole: on a narrow screen over two lines (table.css)
  }
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  table.append(thead, tbody);
  /** @type {Record<string, string>} */
  const markText = {
    doubled: gettext("doubled (premia)"),
    cancelled: gettext("cancelled (moshla)"),
    khishti: gettext("khishti"),
  };
  const latest = Math.max(0, ...sheet.rows.map((r) => r.deal));
  for (const pulka of sheet.pulkas) {
    if (only !== null && only !== undefined && pulka.pulka !== only) continue;
    for (const row of sheet.rows.filter((r) => r.pulka === pulka.pulka)) {
      const tr = el("tr", row.deal === latest ? "latest" : "");
      const deal = el("th", "deal");
      deal.append(el("span", "", String(row.deal)), el("span", "muted small", ` (${row.cards})`));
      tr.append(deal);
      for (let seat = 0; seat < seats; seat += 1) {
        const mark = row.marks[seat];
        const td = el("td", `num${mark ? ` mark-${mark}` : ""}`);
        const points = el("span", "points", String(row.points[seat]));
        const detail = el("span", "detail", `${row.bids[seat]}/${row.taken[seat]}`);
        td.append(detail, points);
        if (mark) {
          const sign = el(
            "span",
            "mark",
            mark === "doubled" ? "×2" : mark === "cancelled" ? "✕" : "!",
          );
          sign.setAttribute("aria-hidden", "true");
          td.append(sign);
          td.append(el("span", "visually-hidden", ` ${markText[mark]}`));
          td.title = markText[mark];
        }
        tr.append(td);
      }
      tbody.append(tr);
    }
    const total = el("tr", "pulka-total");
    total.append(el("th", "", fmt(gettext("Pulka %(pulka)s"), { pulka: pulka.pulka + 1 })));
    for (let seat = 0; seat < seats; seat += 1) {
      const td = el("td", "num", String(pulka.totals[seat]));
      if (pulka.premia.includes(seat))
        td.append(" ", el("span", "badge premia", gettext("premia")));
      total.append(td);
    }
    tbody.append(total);
  }
  if (!tbody.children.length) {
    const tr = el("tr");
    const td = /** @type {HTMLTableCellElement} */ (
      el("td", "muted", gettext("No deal has been scored yet."))
    );
    td.colSpan = seats + 1;
    tr.append(td);
    tbody.append(tr);
  }
  const foot = el("tfoot");
  const sum = el("tr");
  sum.append(el("th", "", gettext("Total")));
  for (let seat = 0; seat < seats; seat += 1) sum.append(el("td", "num", String(view.scores[seat])));
  foot.append(sum);
  table.append(foot);
  wrap.append(table);
  const legend = el("p", "sheet-legend small muted");
  legend.textContent = `${gettext("bid/took")} · ×2 ${markText.doubled} · ✕ ${markText.cancelled} · ! ${markText.khishti}`;
  return [wrap, legend];
}
