// The `international` ruleset at the table (RULES-international.md): the auction before each
// positive hand, the contract the declarer names, each hand's settlement explained, and the
// replay of its transcript on the history page.
//
// The match body's view for this ruleset is the engine's own (king_engine/international/view.py).
// `adaptView` adds the fields the shared table reads (hand, turn, legal_cards, the trick in
// progress, the score sheet), so table.js draws the felt, the hand and the sheet as for every
// ruleset; everything about the auction is drawn here from the view's public record. A button
// is made only for a move the view's `legal_moves` lists.

import { h, seatName } from "./dom.js";
import { contractLabel, t } from "./i18n.js";
import { fmt } from "./strings-lists.js";

/** The ten bids, lowest first (R3.2); the 32-card ladder is the first six (R5.2). */
export const LADDER = ["+1", "+2", "+3", "-1", "+4", "+5", "+6", "-2", "+7", "+8"];

/** What depends on the deck (R5.2): per-seat cards, the units, the hand totals, the ladder. */
export const DECKS = {
  52: { perSeat: 13, plus: 25, minus: 75, total: 325, annulDealer: 100, annulOther: 75, ladder: 10, trickH0: -20, lastTwo: -90 },
  32: { perSeat: 8, plus: 40, minus: 120, total: 320, annulDealer: 95, annulOther: 75, ladder: 6, trickH0: -40, lastTwo: -100 },
};

const AUCTION_PHASES = new Set(["bidding", "decision", "ultimatum", "contract"]);
const RANKS = "23456789TJQKA";
const NEGATIVE_HANDS = 6;

export const isInternational = (view) => view?.ruleset === "international";
const deckOf = (size) => DECKS[size] || DECKS[52];
/** A bid as people read it: the minus sign is a real one. */
export const bidText = (bid) => String(bid).replace("-", "−");
/** The points a bid moves from the buyer to the auctioneer (R4.1). */
export const bidValue = (bid, size) => (bid[0] === "-" ? deckOf(size).minus : deckOf(size).plus) * Number(bid.slice(1));

/** The winner of four plays [{seat, card}] (R1.5, R2.4): the highest trump, else the highest
 * card of the led suit. */
export function trickWinner(plays, trump) {
  let best = plays[0];
  for (const play of plays.slice(1)) {
    const same = play.card[1] === best.card[1];
    if (same ? RANKS.indexOf(play.card[0]) > RANKS.indexOf(best.card[0]) : trump && play.card[1] === trump) best = play;
  }
  return best.seat;
}

// The cards this seat has played in each hand, as far as views have shown them. The engine's view
// has only the trick in progress and the last one; a seat's card stays in one of them until its
// next play, so every view of the hand together shows all of them. The table needs them to know
// the hand as dealt (Verify deck) and what is still held while the playback catches up.
const playedByHand = new Map();

/** A new table page: forget the cards seen played at another match. */
export const forgetPlayed = () => playedByHand.clear();

function myPlayedCards(view, plays, last) {
  if (view.seat === null || view.seat === undefined) return [];
  const key = view.hand_index;
  // My whole hand in sight: nothing of this hand is played yet (a new hand, or a new match).
  if ((view.my_cards || []).length === deckOf(view.deck).perSeat || !playedByHand.has(key)) playedByHand.set(key, new Set());
  const played = playedByHand.get(key);
  for (const play of [...last, ...plays]) if (play.seat === view.seat) played.add(play.card);
  return [...played];
}

/** The view with the fields the shared table reads, the engine's own fields kept. `tricks` holds
 * my earlier plays (one list of them) and the last trick. */
export function adaptView(view) {
  if (!isInternational(view)) return view;
  const plays = view.trick || [];
  const last = view.last_trick || [];
  const inSight = new Set([...plays, ...last].map((p) => p.card));
  const earlier = myPlayedCards(view, plays, last).filter((card) => !inSight.has(card));
  return {
    ...view,
    hand: view.hand_index,
    hands_in_match: view.num_hands,
    turn: view.to_act,
    cards_per_seat: deckOf(view.deck).perSeat,
    legal_cards: view.phase === "play" ? view.legal_moves || [] : [],
    allowed_contracts: [],
    current_trick: plays.length ? { leader: plays[0].seat, plays } : null,
    tricks: [
      ...(earlier.length ? [{ leader: view.seat, plays: earlier.map((card) => ({ seat: view.seat, card })), winner: null }] : []),
      ...(last.length === 4 ? [{ leader: last[0].seat, plays: last, winner: trickWinner(last, view.trump) }] : []),
    ],
    totals: view.scores?.totals || [0, 0, 0, 0],
    score_sheet: (view.scores?.sheet || []).map((row) => ({
      ...row,
      contract: row.outcome === "annulled" ? "annulled" : row.contract,
      positive: row.hand >= NEGATIVE_HANDS,
    })),
    declarer: view.declarer ?? view.dealer,
    // The header names the auction until the contract is named.
    contract: view.contract ?? (AUCTION_PHASES.has(view.phase) ? "auction" : null),
  };
}

// ------------------------------------------------------------------ the auction

/** A move of the log in words: "bids +3", "demands +8", "names Trumps ♠". */
function said(move) {
  const [kind, ...rest] = move.split(":");
  const arg = rest.join(":");
  if (kind === "bid") return fmt(t("intl_said_bid"), { bid: bidText(arg) });
  if (kind === "ultimatum") return fmt(t("intl_said_ultimatum"), { bid: bidText(arg) });
  if (kind === "contract") return fmt(t("intl_said_contract"), { contract: contractLabel(arg) });
  return t(`intl_said_${kind}`);
}

/** The auction of a positive hand as everyone sees it (R7.1): the auctioneer, the priority, the
 * ladder with the top bid marked, whose turn, the log (auto moves marked), the ultimatum and
 * how the auction ended. Null in a negative hand. */
export function auctionPanel(view, match, me) {
  if (!isInternational(view) || view.auctioneer === null || view.auctioneer === undefined || view.phase === "over") return null;
  const name = (s) => seatName(match, s, me);
  const deck = deckOf(view.deck);
  const ladder = LADDER.slice(0, deck.ladder);
  const auction = AUCTION_PHASES.has(view.phase);
  const passed = new Set(view.passed || []);
  const log = view.auction_log || [];
  const dealer = view.auctioneer;
  const lines = [];
  if (view.decision === "annul") lines.push(fmt(t("intl_annulled"), { name: name(dealer) }));
  else if (view.buyer !== null && view.buyer !== undefined) {
    lines.push(fmt(t("intl_bought"), { name: name(view.buyer), bid: bidText(view.price), n: bidValue(view.price, view.deck), dealer: name(dealer) }));
  } else if (view.decision) lines.push(fmt(t("intl_kept"), { name: name(dealer) }));
  // (the engine names the contract once play starts; before that the table's header says "auction")
  if (view.phase === "play" && view.contract) lines.push(fmt(t("intl_contract_is"), { contract: contractLabel(view.contract) }));
  else if (view.phase === "contract") lines.push(fmt(t("intl_declares"), { name: name(view.declarer) }));
  return h(
    "section",
    {
      class: "panel intl-auction",
      id: "auction",
      dataset: { phase: view.phase, hand: view.hand_index, auctioneer: dealer, top: view.top_bid ?? "", holder: view.top_holder ?? "", buyer: view.buyer ?? "", price: view.price ?? "" },
    },
    h("h3", {}, `${t("intl_auction")} · ${t("intl_auctioneer")}: `, h("span", { id: "auctioneer", dataset: { seat: dealer } }, name(dealer))),
    h("p", { class: "muted intl-deck", id: "intl-deck" }, fmt(t("intl_deck"), { n: view.deck, m: deck.perSeat })),
    h(
      "p",
      { class: "intl-priority", id: "priority", dataset: { order: (view.priority || []).join(",") } },
      `${t("intl_priority")}: `,
      (view.priority || []).map((s, i) =>
        h("span", { class: `prio${passed.has(s) ? " passed" : ""}${view.to_act === s && auction ? " turn" : ""}`, dataset: { seat: s } }, `${i ? " › " : ""}${name(s)}`),
      ),
    ),
    h(
      "ol",
      { class: "intl-ladder", id: "ladder", "aria-label": t("intl_ladder") },
      ladder.map((bid) =>
        h(
          "li",
          {
            class: [bid[0] === "-" ? "minus" : "plus", bid === view.top_bid ? "top" : ""].filter(Boolean).join(" "),
            dataset: { bid, value: bidValue(bid, view.deck) },
            title: fmt(t("intl_value"), { n: bidValue(bid, view.deck) }),
          },
          h("b", {}, bidText(bid)),
          h("small", {}, bidValue(bid, view.deck)),
        ),
      ),
    ),
    h("p", { class: "muted note" }, t("intl_ladder_note")),
    h(
      "p",
      { id: "top-bid" },
      view.top_bid ? fmt(t("intl_top"), { bid: bidText(view.top_bid), name: name(view.top_holder) }) : t("intl_no_bid"),
    ),
    auction && view.to_act !== null && view.to_act !== undefined
      ? h("p", { id: "to-act", dataset: { seat: view.to_act } }, fmt(t("intl_to_act"), { name: name(view.to_act) }))
      : null,
    h("h4", {}, t("intl_log")),
    h(
      "ol",
      { class: "intl-log", id: "auction-log" },
      log.map((entry) =>
        h(
          "li",
          { dataset: { seat: entry.seat, move: entry.move, auto: entry.auto ? "1" : "0" }, class: entry.auto ? "auto" : "" },
          `${name(entry.seat)}: ${said(entry.move)}`,
          entry.auto ? h("span", { class: "badge auto", title: t("intl_auto_title") }, t("intl_auto")) : null,
        ),
      ),
    ),
    view.ultimatum
      ? h(
          "p",
          { id: "ultimatum", dataset: { demand: view.ultimatum.demand } },
          h("strong", {}, fmt(t("intl_ultimatum"), { bid: bidText(view.ultimatum.demand) })),
          view.ultimatum.answers.length
            ? ` · ${t("intl_ultimatum_answers")}: ${view.ultimatum.answers.map((a) => `${name(a.seat)} ${said(a.answer)}`).join(", ")}`
            : "",
        )
      : null,
    lines.length ? h("p", { class: "intl-result", id: "auction-result" }, lines.join(" · ")) : null,
  );
}

/** My moves of the auction or the contract choice, from `legal_moves` only; null when the view
 * offers me none of them. */
export function actionPanel(view, send, busy) {
  if (!isInternational(view) || !AUCTION_PHASES.has(view.phase)) return null;
  const moves = view.legal_moves || [];
  if (!moves.length) return null;
  const button = (move, label, primary = false) =>
    h("button", { type: "button", class: primary ? "primary" : "", dataset: { move }, disabled: busy, onclick: () => send(move) }, label);
  const phase = view.phase;
  let title;
  let explain;
  let rows;
  if (phase === "bidding") {
    title = t("intl_your_bid");
    explain = t("intl_bid_explain");
    rows = [
      moves.map((move) => {
        if (move === "pass") return button(move, t("intl_move_pass"));
        const bid = move.slice(4);
        const label = bid === view.top_bid ? fmt(t("intl_move_match"), { bid: bidText(bid) }) : bidText(bid);
        return h("span", { class: `bid ${bid[0] === "-" ? "minus" : "plus"}` }, button(move, label), h("small", {}, bidValue(bid, view.deck)));
      }),
    ];
  } else if (phase === "decision") {
    title = t("intl_decide");
    explain = t("intl_decide_explain");
    const words = moves.filter((m) => !m.startsWith("ultimatum:"));
    const demands = moves.filter((m) => m.startsWith("ultimatum:"));
    rows = [
      words.map((move) =>
        move === "accept"
          ? button(move, fmt(t("intl_move_accept"), { bid: bidText(view.top_bid) }), true)
          : button(move, t(move === "refuse" && !view.top_bid ? "intl_move_refuse_none" : `intl_move_${move}`)),
      ),
      demands.length
        ? h("span", { class: "demands" }, `${t("intl_move_ultimatum")}: `, demands.map((move) => button(move, bidText(move.slice(10)))))
        : null,
    ];
  } else if (phase === "ultimatum") {
    const demand = view.ultimatum?.demand || "";
    title = fmt(t("intl_answer"), { bid: bidText(demand), n: demand ? bidValue(demand, view.deck) : "" });
    explain = t("intl_answer_explain");
    rows = [moves.map((move) => button(move, t(`intl_move_${move}`), move === "take"))];
  } else {
    title = t("intl_name_contract");
    explain = "";
    rows = [moves.map((move) => button(move, contractLabel(move.slice(9))))];
  }
  return h(
    "section",
    { class: "intl-actions", id: "intl-actions", dataset: { phase } },
    h("h3", {}, title),
    explain ? h("p", { class: "what" }, explain) : null,
    rows.filter(Boolean).map((row) => h("div", { class: "buttons" }, row)),
  );
}

// ------------------------------------------------------------------ settlement

/**
 * A hand's score explained from its score-sheet row (R1.6, R2.7, R3.8, R4.2): per seat the
 * tricks, the base, the payment between buyer and auctioneer and the hand's score. The score is
 * the server's; base and payment are worked out here from the row's tricks, buyer and price.
 */
export function settlementOf(row, size) {
  const deck = deckOf(size);
  const tricks = row.tricks || [0, 0, 0, 0];
  const points = row.points;
  if (row.hand < NEGATIVE_HANDS) return { kind: "negative", base: points, payment: [0, 0, 0, 0], points };
  if (row.outcome === "annulled") {
    const base = [0, 1, 2, 3].map((s) => (s === row.dealer ? deck.annulDealer : deck.annulOther));
    return { kind: "annulled", base, payment: [0, 0, 0, 0], points };
  }
  const minus = row.contract === "minus";
  const base = tricks.map((n) => (minus ? deck.total - deck.minus * n : deck.plus * n));
  const payment = [0, 0, 0, 0];
  if (row.buyer !== null && row.buyer !== undefined && row.price) {
    const value = bidValue(row.price, size);
    payment[row.buyer] -= value;
    payment[row.dealer] += value;
  }
  return { kind: minus ? "minus" : "plus", base, payment, points };
}

function ruleLine(row, size, name) {
  const deck = deckOf(size);
  const s = settlementOf(row, size);
  if (s.kind === "negative") {
    const n = row.contract === "no_tricks" ? deck.trickH0 : deck.lastTwo;
    return fmt(t("intl_negative_rule"), { contract: contractLabel(row.contract), rule: fmt(t(`intl_rule_${row.contract}`), { n }) });
  }
  if (s.kind === "annulled") return fmt(t("intl_annul_rule"), { dealer: name(row.dealer), d: deck.annulDealer, o: deck.annulOther });
  const base = s.kind === "minus" ? fmt(t("intl_base_minus"), { total: deck.total, n: deck.minus }) : fmt(t("intl_base_plus"), { n: deck.plus });
  const paid =
    row.buyer !== null && row.buyer !== undefined
      ? fmt(t("intl_paid"), { buyer: name(row.buyer), bid: bidText(row.price), n: bidValue(row.price, size), dealer: name(row.dealer) })
      : fmt(t("intl_not_sold"), { dealer: name(row.dealer) });
  return `${base} ${paid}`;
}

/** The end of a hand (the playback's summary), its settlement explained from the view's score
 * sheet, and the running totals. */
export function settlementSummary(summary, view, match, me, { last, onContinue }) {
  const row = (view.scores?.sheet || []).find((r) => r.hand === summary.hand);
  const name = (s) => seatName(match, s, me);
  const size = view.deck;
  const s = row ? settlementOf(row, size) : { kind: "negative", base: summary.points, payment: [0, 0, 0, 0], points: summary.points };
  const positive = s.kind !== "negative";
  const seconds = Math.max(0, Math.ceil((summary.ends - Date.now()) / 1000));
  const signed = (n) => (n > 0 ? `+${n}` : String(n));
  const contract = row?.outcome === "annulled" ? "annulled" : row?.contract ?? summary.contract;
  const role = (seat) =>
    [row && positive && seat === row.dealer ? t("intl_auctioneer") : null, row && seat === row.buyer ? t("intl_buyer") : null].filter(Boolean).join(" ");
  return h(
    "section",
    { class: "hand-summary intl-summary", id: "hand-summary", role: "dialog", "aria-labelledby": "summary-title", dataset: { hand: summary.hand, kind: s.kind } },
    h("h3", { id: "summary-title" }, fmt(t("hand_summary"), { n: summary.hand + 1 }), " · ", h("span", { class: "contract-name" }, contractLabel(contract))),
    row ? h("p", { class: "by", id: "settlement-rule" }, ruleLine(row, size, name)) : null,
    h(
      "table",
      { class: "summary-table", id: "settlement" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}, t("player")),
          h("th", {}, t("tricks_taken")),
          positive ? h("th", {}, t("intl_base")) : null,
          positive ? h("th", {}, t("intl_payment")) : null,
          h("th", {}, t("intl_hand_score")),
          h("th", {}, t("total")),
        ),
      ),
      h(
        "tbody",
        {},
        [0, 1, 2, 3].map((seat) =>
          h(
            "tr",
            {
              class: seat === me ? "me" : "",
              dataset: { seat, base: s.base[seat], payment: s.payment[seat], points: s.points[seat], tricks: row?.tricks?.[seat] ?? summary.taken[seat], total: summary.totals[seat] },
            },
            h("td", { class: "who" }, h("span", { class: "nm" }, name(seat)), role(seat) ? h("span", { class: "tags" }, ` ${role(seat)}`) : null),
            h("td", { class: "tricks" }, row?.tricks?.[seat] ?? summary.taken[seat]),
            positive ? h("td", { class: "base" }, s.base[seat]) : null,
            positive ? h("td", { class: "pay" }, s.payment[seat] ? signed(s.payment[seat]) : "") : null,
            h("td", { class: `hp${s.points[seat] < 0 ? " neg" : s.points[seat] > 0 ? " pos" : ""}` }, s.points[seat]),
            h("td", { class: "tot" }, summary.totals[seat]),
          ),
        ),
      ),
      h(
        "tfoot",
        {},
        h(
          "tr",
          {},
          h("th", {}, ""),
          h("th", {}, ""),
          positive ? h("th", {}, s.base.reduce((a, b) => a + b, 0)) : null,
          positive ? h("th", {}, "0") : null,
          h("th", { id: "settlement-sum" }, s.points.reduce((a, b) => a + b, 0)),
          h("th", {}, ""),
        ),
      ),
    ),
    h(
      "div",
      { class: "summary-foot" },
      h("button", { type: "button", id: "summary-continue", class: "primary", onclick: onContinue }, last ? t("see_results") : t("continue")),
      h("span", { class: "countdown", id: "summary-countdown" }, `${last ? "" : `${t("continue_in")} `}${seconds} s`),
    ),
  );
}

const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
/** A card as text: "10♥". */
const cardText = (code) => `${code[0] === "T" ? "10" : code[0]}${SUIT_SYMBOL[code[1]]}`;

/** The opening draw that chose the first dealer (R1.2, FAIRNESS.md): each round's cards in the
 * order turned over, and who deals first. Null when the view has no draw. */
export function drawLine(view, match, me) {
  const draw = view.draw;
  if (!draw?.rounds?.length) return null;
  const name = (s) => seatName(match, s, me);
  const rounds = draw.rounds.map((round) => round.map(([s, card]) => `${name(s)} ${cardText(card)}`).join(", "));
  return h(
    "p",
    { class: "intl-draw", id: "intl-draw", dataset: { winner: draw.winner, cards: draw.rounds.map((round) => round.map(([s, card]) => `${s}:${card}`).join(",")).join("|") } },
    fmt(t("intl_draw"), { cards: rounds.join(" · "), name: name(draw.winner) }),
  );
}

/** The hand's scores beside the felt: tricks, the hand's running points, the match totals;
 * during the first hand, the opening draw above them. */
export function scoresPanel(view, match, me, model, nameBlock) {
  return h(
    "aside",
    { class: "side panel" },
    model.hand === 0 && !model.over ? drawLine(view, match, me) : null,
    h(
      "table",
      { id: "hand-scores" },
      h("thead", {}, h("tr", {}, h("th", {}, t("player")), h("th", {}, t("tricks_taken")), h("th", {}, t("points")), h("th", {}, t("total")))),
      h(
        "tbody",
        {},
        [0, 1, 2, 3].map((s) =>
          h(
            "tr",
            { class: s === me ? "me" : "", dataset: { seat: s } },
            h("td", { class: "who" }, nameBlock(match, s, me)),
            h("td", {}, model.taken[s]),
            h("td", {}, model.points[s]),
            h("td", {}, model.totals[s]),
          ),
        ),
      ),
    ),
  );
}

// ------------------------------------------------------------------ history replay

/** The points the winner of trick `n` scores in a negative hand (R1.6, R5.2). */
function negativeTrickPoints(contract, cards, n, deck) {
  const count = (test) => cards.filter(test).length;
  switch (contract) {
    case "no_tricks":
      return deck.trickH0;
    case "no_hearts":
      return -20 * count((c) => c[1] === "H");
    case "no_queens":
      return -50 * count((c) => c[0] === "Q");
    case "no_kings_jacks":
      return -30 * count((c) => c[0] === "K" || c[0] === "J");
    case "no_king_of_hearts":
      return cards.includes("KH") ? -160 : 0;
    case "no_last_two":
      return n >= deck.perSeat - 2 ? deck.lastTwo : 0;
    default:
      return 0;
  }
}

/** One deal of an international transcript as the history page's hand: its tricks worked out
 * from the card moves, and its score by R1.6 or, for a positive hand, by R4.2. */
export function replayInternational(entry, transcript) {
  const size = entry.deck_size || transcript?.options?.deck || 52;
  const deck = deckOf(size);
  const contract = entry.ended === "annulled" ? "annulled" : entry.contract;
  const trump = contract?.startsWith("trump:") ? contract[6] : null;
  const plays = (entry.moves || [])
    .filter(([, text]) => /^[2-9TJQKA][CDHS]$/.test(text))
    .map(([seat, card]) => ({ seat, card }));
  const positive = entry.hand >= NEGATIVE_HANDS;
  const taken = [0, 0, 0, 0];
  let points = [0, 0, 0, 0];
  const tricks = [];
  for (let i = 0; i < plays.length; i += 4) {
    const trick = { n: i / 4, plays: plays.slice(i, i + 4), winner: null, points: 0 };
    trick.leader = trick.plays[0].seat;
    if (trick.plays.length === 4) {
      trick.winner = trickWinner(trick.plays, trump);
      const cards = trick.plays.map((p) => p.card);
      trick.points = positive ? (contract === "minus" ? -deck.minus : deck.plus) : negativeTrickPoints(contract, cards, trick.n, deck);
      taken[trick.winner] += 1;
      points[trick.winner] += trick.points;
    }
    tricks.push(trick);
  }
  if (positive && entry.ended) {
    const row = { hand: entry.hand, dealer: entry.dealer, contract, outcome: contract === "annulled" ? "annulled" : "played", buyer: entry.buyer, price: entry.price, tricks: taken, points };
    const s = settlementOf(row, size);
    points = s.base.map((b, seat) => b + s.payment[seat]);
  }
  return {
    hand: entry.hand,
    deal: entry.deal ?? entry.hand,
    declarer: positive ? entry.buyer ?? entry.dealer : entry.dealer,
    contract,
    trump,
    tricks,
    points,
    taken,
    thrown: null,
    counted: points,
  };
}

/** A transcript deal's auction in one line, for the history page (the log in words). */
export function auctionLine(entry, name) {
  const log = entry.auction_log || [];
  if (!log.length) return null;
  return h(
    "p",
    { class: "muted intl-log-line", id: "replay-auction" },
    `${t("intl_auction")}: `,
    log.map((e, i) => h("span", { dataset: { seat: e.seat, move: e.move } }, `${i ? " · " : ""}${name(e.seat)} ${said(e.move)}${e.auto ? ` (${t("intl_auto")})` : ""}`)),
  );
}

