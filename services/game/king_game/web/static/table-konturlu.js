// Konturlu King at the table (RULES-konturlu.md): what table.js draws differently for it.
//
// The match body's view for this ruleset is the engine's own JSON view (KonturluState.view):
// `adaptView` adds the few names the shared table reads (hands_in_match, legal_cards, the trick
// in play, the contract's code), and everything konturlu-only is drawn here: the contract
// choice (Koz names a suit, Dürt a rank), the two rounds of calls with their log and the pair
// table, the Dürt layout, each hand's settlement line by line, the score sheet from +122 with
// its check sums. The playback extension keeps the challenge and the Dürt layout in step with
// the events, so nothing is shown before its event has been played out. The history page
// replays a transcript's deals with the same pieces (`replayKonturlu` and the parts below it).

import { cardElement, suitIcon, suitName } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { fmt } from "./strings-lists.js";

export const RULESET = "konturlu";
const SEATS = [0, 1, 2, 3];
const RANKS = "23456789TJQKA";
const SUITS_SHOWN = ["S", "H", "C", "D"];
// Contract names stay Turkish in both languages, as players say them (RULES-konturlu.md §2.1).
export const NAMES = {
  el: "El almaz",
  kupa: "Kupa almaz",
  erkek: "Erkek almaz",
  kiz: "Kız almaz",
  rifki: "Rıfkı",
  soniki: "Son iki",
  koz: "Koz",
  durt: "Dürt",
};
export const CONTRACTS = Object.keys(NAMES);
const PENALTIES = ["el", "kupa", "erkek", "kiz", "rifki", "soniki"];
// What the four scores of one hand add up to (§6.1) and what one unit is worth (§2.5).
export const HAND_TOTALS = { el: -65, kupa: -39, erkek: -48, kiz: -40, rifki: -30, soniki: -30, koz: 65, durt: 65 };
const VALUES = { el: "−5", kupa: "−3", erkek: "−6", kiz: "−10", rifki: "−30", soniki: "−10 / −20", koz: "+5", durt: "+45 +20 +10 −10" };
export const STARTING_TOTAL = 122;
const isCard = (move) => /^[2-9TJQKA][CDHS]$/.test(move);
const rankText = (rank) => (rank === "T" ? "10" : rank);
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

export const isKonturlu = (view) => view?.ruleset === RULESET;

/** A contract with its trump suit or Dürt rank, as a label ("Koz ♥", "Dürt 7"). */
export function contractText(contract) {
  // A view's contract ({type, trump, rank}) or a sheet row / event ({contract, trump, rank}).
  if (contract && !contract.type && contract.contract) contract = { ...contract, type: contract.contract };
  if (!contract?.type) return "—";
  const name = NAMES[contract.type] || contract.type;
  if (contract.type === "koz" && contract.trump) return [`${name} `, suitIcon(contract.trump)];
  if (contract.type === "durt" && contract.rank) return `${name} ${rankText(contract.rank)}`;
  return name;
}

const plainContract = (contract) => {
  if (contract && !contract.type && contract.contract) contract = { ...contract, type: contract.contract };
  const text = contractText(contract);
  return Array.isArray(text) ? `${text[0]}${{ C: "♣", D: "♦", H: "♥", S: "♠" }[contract.trump]}` : text;
};

// ------------------------------------------------------------------ the view, adapted

/** The engine's view with the names the shared table reads added; other rulesets unchanged. */
export function adaptView(view) {
  if (!isKonturlu(view)) return view;
  const trick = view.trick;
  return {
    ...view,
    konturlu_contract: view.contract ?? null,
    contract: view.contract?.type ?? null,
    trump: view.contract?.trump ?? view.contract?.rank ?? null,
    hands_in_match: view.num_hands,
    legal_cards: (view.legal_moves || []).filter(isCard),
    allowed_contracts: [],
    current_trick: trick ? { leader: trick.leader, plays: trick.cards.map(([seat, card]) => ({ seat, card })) } : null,
    tricks: [],
    hand_points: view.points || [0, 0, 0, 0],
    score_sheet: [],
  };
}

// ------------------------------------------------------------------ the challenge, from its calls

/** Round-1 targets per seat (who konturred whom) from the calls. */
function konturOf(calls) {
  const kontur = SEATS.map(() => new Set());
  for (const c of calls) if (c.round === 1) for (const x of c.targets || []) kontur[c.seat].add(x);
  return kontur;
}

/**
 * The pair table of §3.6 from the calls: "a-b" -> "kontur" | "sur" | "sur_auto" (mutual round-1
 * konturs are sürülü by themselves, §3.4); pairs with no relation are left out.
 */
export function pairTable(calls) {
  const kontur = konturOf(calls);
  const round1Done = calls.filter((c) => c.round === 1).length === 3;
  const sur = new Set();
  for (const c of calls) {
    if (c.round !== 2) continue;
    for (const x of c.targets || []) sur.add(`${Math.min(c.seat, x)}-${Math.max(c.seat, x)}`);
  }
  const table = {};
  for (let a = 0; a < 4; a += 1) {
    for (let b = a + 1; b < 4; b += 1) {
      const ab = kontur[a].has(b);
      const ba = kontur[b].has(a);
      const key = `${a}-${b}`;
      if (ab && ba && round1Done) table[key] = "sur_auto";
      else if ((ab || ba) && sur.has(key)) table[key] = "sur";
      else if (ab || ba) table[key] = "kontur";
    }
  }
  return table;
}

/** A(s) of §3.5: the seats that konturred `seat` and that it did not kontur back. */
function answerable(calls, seat) {
  const kontur = konturOf(calls);
  return SEATS.filter((a) => kontur[a].has(seat) && !kontur[seat].has(a));
}

/** The challenge as it stands: round, the speaker, the seats still to speak (§8.3). */
export function challengeState(calls, declarer) {
  const r1 = calls.filter((c) => c.round === 1);
  if (r1.length < 3) {
    const order = [1, 2, 3].map((k) => (declarer + k) % 4);
    const left = order.slice(r1.length);
    return { round: 1, speakers: left, toMove: left[0] ?? null };
  }
  const spoke = new Set(calls.filter((c) => c.round === 2).map((c) => c.seat));
  const left = [0, 1, 2, 3].map((k) => (declarer + k) % 4).filter((s) => answerable(calls, s).length && !spoke.has(s));
  return { round: left.length ? 2 : 0, speakers: left, toMove: left[0] ?? null };
}

// ------------------------------------------------------------------ the playback's part

function freshState(hand, declarer) {
  return { hand, declarer, phase: "contract", contract: null, calls: [], redeals: [], durt: null, scored: null, note: null };
}

function freshDurt(rank) {
  return { rank, layout: { C: null, D: null, H: null, S: null }, last: {}, places: [], counts: [13, 13, 13, 13] };
}

function place(layout, card, rank) {
  const suit = card[1];
  const r = RANKS.indexOf(card[0]);
  const run = layout[suit];
  if (!run) return { ...layout, [suit]: [rank, rank] };
  const lo = Math.min(RANKS.indexOf(run[0]), r);
  const hi = Math.max(RANKS.indexOf(run[1]), r);
  return { ...layout, [suit]: [RANKS[lo], RANKS[hi]] };
}

/**
 * The playback extension (table-playback.js): `sync` copies the konturlu facts of a view into
 * the model (`model.k`), `play` plays one event; it returns a promise when it played the event
 * itself, nothing when the shared playback should (the trick events, the hand's summary).
 */
export const playbackExtension = {
  sync(model, view) {
    const k = freshState(view.hand, view.declarer);
    k.phase = view.phase;
    k.contract = view.konturlu_contract ?? null;
    k.calls = [...(view.challenge?.calls || [])];
    k.redeals = [...(view.redeals || [])];
    if (view.durt) {
      k.durt = { rank: view.durt.rank, layout: { ...view.durt.layout }, last: { ...view.durt.last }, places: [...view.durt.places], counts: [...view.durt.counts] };
    }
    model.k = k;
  },

  play(m, event, { timing, step, sleep, seat }) {
    if (!m.k) m.k = freshState(m.hand, m.declarer);
    const k = m.k;
    const note = async (value, ms) => {
      k.note = value;
      step();
      await sleep(ms);
      k.note = null;
    };
    switch (event.type) {
      case "hand_started":
        m.k = freshState(event.hand, event.declarer);
        m.k.redeals = event.redeal ? k.redeals : [];
        return undefined;
      case "contract_chosen": {
        k.contract = { type: event.contract, trump: event.trump, rank: event.rank };
        Object.assign(m, { contract: event.contract, trump: event.trump ?? event.rank ?? null });
        k.phase = "kontur";
        return note({ kind: "contract", seat: event.seat, contract: k.contract }, event.seat === seat ? 0 : timing.note);
      }
      case "call": {
        k.calls.push({ round: event.round, seat: event.seat, call: event.call, targets: event.targets || [] });
        const now = challengeState(k.calls, k.declarer);
        k.phase = now.round === 1 ? "kontur" : now.round === 2 ? "sur" : k.phase;
        return note({ kind: "call", seat: event.seat, call: event.call, targets: event.targets || [] }, event.seat === seat ? 0 : timing.note);
      }
      case "sur_auto":
        return note({ kind: "auto", pairs: event.pairs || [] }, timing.note);
      case "play_started":
        k.phase = k.contract?.type === "durt" ? "durt" : "play";
        if (k.phase === "durt") k.durt = freshDurt(k.contract.rank);
        step();
        return Promise.resolve();
      case "card_played":
        if (k.phase !== "durt" || !k.durt) return undefined; // a trick card: the shared playback's
        k.durt.layout = place(k.durt.layout, event.card, k.durt.rank);
        k.durt.last[event.seat] = event.card;
        k.durt.counts[event.seat] -= 1;
        if (event.seat === seat) m.myPlayed.add(event.card);
        step();
        return sleep(event.seat === seat ? timing.own : timing.card);
      case "pass":
        if (k.durt) k.durt.last[event.seat] = "pas";
        step();
        return sleep(timing.card / 2);
      case "place":
        if (k.durt && !k.durt.places.includes(event.seat)) k.durt.places.push(event.seat);
        step();
        return Promise.resolve();
      case "redeal":
        // The cancelled deal's calls, as the view's `redeals` has them ([seat, text]).
        k.redeals.push({ deal: event.deal, seat: event.seat, card: event.card, calls: k.calls.map((c) => [c.seat, c.call]) });
        return note({ kind: "redeal", seat: event.seat, card: event.card }, timing.trick);
      case "hand_scored":
        // The shared playback shows the summary; the settlement is drawn from this event.
        k.scored = event;
        if (k.durt && event.places) {
          for (const s of event.places) if (!k.durt.places.includes(s)) k.durt.places.push(s);
        }
        return undefined;
      default:
        return undefined;
    }
  },
};

// ------------------------------------------------------------------ names and call words

const BOT_LEVEL = /\s*\((easy|medium|hard)\)$/;

/** A seat's short name (the bot level and tags left out), "you" for my own seat. */
function shortName(match, seat, me) {
  if (seat === me) return t("k_you");
  const name = match?.seats?.[seat]?.name;
  return name ? name.replace(BOT_LEVEL, "") : `${t("seat")} ${seat + 1}`;
}

const names = (match, me, seats) => seats.map((s) => shortName(match, s, me)).join(", ");

/** A call's word ("kontur", "söyleyen hariç") and what it means ("kontur on A, B"). */
export function callWords(call, targets, match, me) {
  const word = call.split(":")[0];
  const label = t(`k_call_${word}`);
  if (word === "iyi") return { label, expansion: t("k_expand_iyi") };
  if (word === "boz") return { label, expansion: t("k_expand_boz") };
  const who = names(match, me, targets);
  if (word === "sur") return { label, expansion: fmt(t("k_expand_sur"), { names: who }) };
  return { label, expansion: fmt(t("k_expand_kontur"), { names: who }) };
}

/** A legal call's button text: "kontur: Ayşe, Bot 2" / "masa" / "sür: Bot 3". */
function callButtonText(move, declarer, me, match) {
  const [word, arg] = move.split(":");
  const label = t(`k_call_${word}`);
  if (!arg) return label;
  const seats = arg.split(",").map(Number);
  return `${label}: ${names(match, me, seats)}${word === "kontur" && seats.includes(declarer) && seats.length === 1 ? ` (${t("declarer").toLowerCase()})` : ""}`;
}

// ------------------------------------------------------------------ the contract choice

function contractButton(move, content, send, extra = "") {
  return h("button", { type: "button", class: `contract ${extra}`.trim(), dataset: { move }, onclick: () => send(move) }, content);
}

/** The declarer's choice: its remaining contracts; Koz by suit, Dürt by rank (§2.1). */
export function contractPicker(view, send) {
  const legal = view.legal_moves || [];
  const penalties = legal.filter((m) => PENALTIES.includes(m) || m === "rifki:boz");
  const koz = legal.filter((m) => m.startsWith("koz:"));
  const durt = legal.filter((m) => m.startsWith("durt:"));
  return h(
    "section",
    { class: "picker k-picker", id: "contract-picker" },
    h("h3", {}, t("k_choose")),
    view.redeals?.length ? h("p", { class: "k-forced" }, t("k_forced_rifki")) : null,
    penalties.length
      ? h(
          "div",
          { class: "choices" },
          penalties.map((m) =>
            m === "rifki:boz"
              ? contractButton(m, [h("span", { class: "name" }, `${NAMES.rifki} · ${t("k_call_boz")}`), h("span", { class: "what" }, t("k_rifki_boz"))], send, "boz")
              : contractButton(m, [h("span", { class: "name" }, NAMES[m]), h("span", { class: "what" }, t(`k_about_${m}`)), h("span", { class: "value" }, `${VALUES[m]} · Σ ${HAND_TOTALS[m]}`)], send),
          ),
        )
      : null,
    koz.length
      ? h(
          "div",
          { class: "koz" },
          h("div", { class: "koz-head" }, h("strong", {}, NAMES.koz), ` · ${t("k_about_koz")} · `, h("span", { class: "value" }, `${VALUES.koz} · Σ +65`)),
          h(
            "div",
            { class: "choices suits" },
            koz.map((m) => contractButton(m, [suitIcon(m.slice(4)), h("span", { class: "name" }, suitName(m.slice(4)))], send, `suit-${m.slice(4)}`)),
          ),
        )
      : null,
    durt.length
      ? h(
          "div",
          { class: "koz k-durt-pick" },
          h("div", { class: "koz-head" }, h("strong", {}, NAMES.durt), ` · ${t("k_about_durt")} · `, h("span", { class: "value" }, VALUES.durt)),
          h(
            "div",
            { class: "k-ranks" },
            durt.map((m) => contractButton(m, rankText(m.slice(5)), send, "rank")),
          ),
        )
      : null,
  );
}

// ------------------------------------------------------------------ the challenge phase

/** The pair table drawn as players draw it: a grid of the four seats, each pair's cell
 * none (—), ×1 çakılı (with who konturred whom) or ×2 sürülü, "auto" marked. */
export function pairGrid(calls, match, me, { id = "k-pairs", voided = false } = {}) {
  const table = pairTable(calls);
  const kontur = konturOf(calls);
  const cell = (a, b) => {
    if (a === b) return h("td", { class: "self" }, "");
    const key = `${Math.min(a, b)}-${Math.max(a, b)}`;
    const rel = table[key] || "none";
    const arrow = kontur[a].has(b) && kontur[b].has(a) ? "⇄" : kontur[a].has(b) ? "→" : kontur[b].has(a) ? "←" : "";
    const text = rel === "none" ? "—" : rel === "kontur" ? `×1 ${arrow}` : `×2${rel === "sur_auto" ? ` ${t("k_auto")}` : ""}`;
    return h("td", { class: `rel ${rel}`, dataset: { pair: key, rel }, title: t(`k_rel_${rel}`) }, text);
  };
  return h(
    "table",
    { class: `k-pairs${voided ? " void" : ""}`, id },
    h("caption", {}, t("k_pairs"), h("span", { class: "legend" }, ` · ${t("k_rel_kontur")} · ${t("k_rel_sur")}`)),
    h("thead", {}, h("tr", {}, h("th", {}, ""), SEATS.map((s) => h("th", { scope: "col", title: shortName(match, s, me) }, shortName(match, s, me))))),
    h("tbody", {}, SEATS.map((a) => h("tr", {}, h("th", { scope: "row", title: shortName(match, a, me) }, shortName(match, a, me)), SEATS.map((b) => cell(a, b))))),
  );
}

/** The call log in order: round, seat, the canonical call and what it expands to. The calls
 * of a cancelled deal (`voided`, §2.7.3) are struck through: they no longer count. */
export function callLog(calls, match, me, declarer, { id = "k-calls", voided = false } = {}) {
  return h(
    "ol",
    { class: `k-calls${voided ? " void" : ""}`, id },
    calls.length
      ? calls.map((c) => {
          const words = callWords(c.call, c.targets || [], match, me);
          const line = [
            h("span", { class: "round" }, `${c.round}.`),
            h("strong", {}, `${shortName(match, c.seat, me)}${c.seat === declarer ? " ★" : ""}: `),
            h("span", { class: "word" }, words.label),
            h("span", { class: "expansion" }, ` → ${words.expansion}`),
          ];
          return h("li", { dataset: { round: c.round, seat: c.seat, call: c.call } }, voided ? h("s", {}, line) : line);
        })
      : h("li", { class: "none" }, t("k_no_calls")),
  );
}

/** The challenge box in the centre: the round, who speaks now and later, my calls when it is
 * my turn (only the view's legal moves), the call log and the pair table. */
function challengePanel(k, view, match, me, { mine, send, busy }) {
  const now = challengeState(k.calls, k.declarer);
  const legal = mine ? (view.legal_moves || []).filter((m) => !isCard(m)) : [];
  return h(
    "section",
    { class: "calls k-challenge", id: mine ? "calls" : "k-challenge", dataset: { round: now.round } },
    h("h3", {}, `${plainContract(k.contract)} · ${t(now.round === 2 ? "k_round2" : "k_round1")}`),
    h(
      "p",
      { class: "k-speakers", id: "k-speakers", dataset: { toMove: now.toMove ?? "", speakers: now.speakers.join(",") } },
      now.toMove === null ? "" : fmt(t("k_speaks"), { name: shortName(match, now.toMove, me) }),
      now.speakers.length > 1 ? ` · ${fmt(t("k_to_speak"), { names: names(match, me, now.speakers.slice(1)) })}` : "",
    ),
    mine ? h("p", { class: "what" }, t(now.round === 2 ? "k_help_2" : k.contract?.type === "koz" || k.contract?.type === "durt" ? "k_help_1_plus" : "k_help_1")) : null,
    legal.length
      ? h(
          "div",
          { class: "buttons" },
          legal.map((move) =>
            h(
              "button",
              {
                type: "button",
                class: move === "iyi" ? "" : "primary",
                dataset: { move },
                disabled: busy,
                onclick: () => send(move),
              },
              callButtonText(move, k.declarer, me, match),
            ),
          ),
        )
      : null,
    h("div", { class: "k-grid" }, callLog(k.calls, match, me, k.declarer), pairGrid(k.calls, match, me)),
  );
}

// ------------------------------------------------------------------ Dürt

/** The Dürt layout: four suit rows from 2 to A, the named rank's column marked, each open run
 * drawn as cards, the places a card may go next outlined, and the finishing order. */
function durtPanel(k, match, me, mine) {
  const d = k.durt;
  const rank = RANKS.indexOf(d.rank);
  const rows = SUITS_SHOWN.map((suit) => {
    const run = d.layout[suit];
    const lo = run ? RANKS.indexOf(run[0]) : null;
    const hi = run ? RANKS.indexOf(run[1]) : null;
    const next = run ? [lo - 1, hi + 1].filter((r) => r >= 0 && r <= 12) : [rank];
    return h(
      "div",
      { class: `k-row${run ? "" : " closed"}`, dataset: { suit, lo: run?.[0] ?? "", hi: run?.[1] ?? "" } },
      h("span", { class: "k-suit", title: suitName(suit) }, suitIcon(suit)),
      RANKS.split("").map((r, i) => {
        const code = `${r}${suit}`;
        const on = run && i >= lo && i <= hi;
        const classes = ["k-pos", i === rank ? "named" : "", next.includes(i) ? "next" : "", mine.has(code) && next.includes(i) ? "mine" : ""];
        return h("span", { class: classes.filter(Boolean).join(" "), dataset: { rank: r } }, on ? cardElement(code) : h("span", { class: "gap" }, rankText(r)));
      }),
    );
  });
  return h(
    "section",
    { class: "k-durt", id: "k-durt", dataset: { rank: d.rank } },
    h("h3", {}, fmt(t("k_durt_title"), { rank: rankText(d.rank) })),
    h("div", { class: "k-layout", id: "k-layout" }, rows),
    h(
      "ol",
      { class: "k-places", id: "k-places", "aria-label": t("k_places") },
      d.places.map((s, i) => h("li", { dataset: { seat: s, place: i + 1 } }, `${i + 1}. ${shortName(match, s, me)} (${signed([45, 20, 10, -10][i])})`)),
    ),
  );
}

// ------------------------------------------------------------------ settlement

/**
 * A hand's settlement line by line (§5): the base points, each pair's transfer, who ate whose
 * penalty, the hand's score, and the check that the four scores add up to the contract total.
 */
export function settlementTable(row, match, me, { id } = {}) {
  const penalty = PENALTIES.includes(row.contract);
  const base = row.base || [];
  const lines = [];
  const cells = (values) => SEATS.map((s) => h("td", { class: values[s] > 0 ? "pos" : values[s] < 0 ? "neg" : "" }, values[s] ? signed(values[s]) : ""));
  lines.push(h("tr", { class: "base", dataset: { line: "base", values: base.join(",") } }, h("th", { scope: "row" }, t(penalty ? "k_line_base_penalty" : "k_line_base_gain")), cells(base)));
  const m = (a, b) => row.pairs?.[`${Math.min(a, b)}-${Math.max(a, b)}`];
  for (const tr of row.transfers || []) {
    const values = [0, 0, 0, 0];
    values[tr.to] += tr.amount;
    values[tr.from] -= tr.amount;
    const diff = tr.amount / tr.multiplier;
    const rel = m(tr.to, tr.from);
    lines.push(
      h(
        "tr",
        { class: "transfer", dataset: { line: "transfer", to: tr.to, from: tr.from, multiplier: tr.multiplier, amount: tr.amount } },
        h(
          "th",
          { scope: "row" },
          fmt(t("k_line_pair"), { a: shortName(match, tr.to, me), b: shortName(match, tr.from, me), m: tr.multiplier, diff, rel: t(`k_rel_${rel || "kontur"}`) }),
        ),
        cells(values),
      ),
    );
  }
  for (const e of row.eaten || []) {
    const values = [0, 0, 0, 0];
    values[e.eaten] += e.points;
    values[e.eater] -= e.points;
    lines.push(
      h(
        "tr",
        { class: "eat", dataset: { line: "eat", eaten: e.eaten, eater: e.eater, points: e.points } },
        h("th", { scope: "row" }, fmt(t("k_line_eat"), { eater: shortName(match, e.eater, me), eaten: shortName(match, e.eaten, me), p: e.points })),
        cells(values),
      ),
    );
  }
  const scores = row.scores || [];
  const sum = scores.reduce((a, b) => a + b, 0);
  const total = HAND_TOTALS[row.contract];
  return h(
    "table",
    { class: "k-settle", id, dataset: { hand: row.hand } },
    h("thead", {}, h("tr", {}, h("th", {}, ""), SEATS.map((s) => h("th", { title: shortName(match, s, me) }, shortName(match, s, me))))),
    h("tbody", {}, lines),
    h(
      "tfoot",
      {},
      h("tr", { class: "score", dataset: { line: "score", values: scores.join(",") } }, h("th", { scope: "row" }, t("k_line_score")), SEATS.map((s) => h("td", { class: scores[s] > 0 ? "pos" : scores[s] < 0 ? "neg" : "" }, signed(scores[s])))),
      h(
        "tr",
        { class: `sum ${sum === total ? "ok" : "bad"}`, dataset: { line: "sum", sum, total } },
        h("th", { scope: "row", colspan: 5 }, `${fmt(t("k_line_sum"), { sum: signed(sum), total: signed(total), name: NAMES[row.contract] })} ${sum === total ? "✓" : "✗"}`),
      ),
    ),
  );
}

/** What each seat took this hand, in words: tricks and points, or Dürt places. */
function pointsLine(row, match, me) {
  if (row.contract === "durt") {
    return h("p", { class: "k-took" }, (row.places || []).map((s, i) => `${i + 1}. ${shortName(match, s, me)}`).join(" · "));
  }
  const unit = PENALTIES.includes(row.contract) ? "k_penalty_points" : "k_gain_points";
  return h("p", { class: "k-took" }, `${t(unit)}: `, SEATS.map((s) => `${shortName(match, s, me)} ${row.points?.[s] ?? 0}`).join(" · "));
}

/** The hand's end: its settlement explained, the totals after it, and Continue. */
export function konturluSummary(summary, event, match, me, { last, onContinue }) {
  const seconds = Math.max(0, Math.ceil((summary.ends - Date.now()) / 1000));
  return h(
    "section",
    { class: "hand-summary k-summary", id: "hand-summary", role: "dialog", "aria-labelledby": "summary-title", dataset: { hand: event.hand } },
    h("h3", { id: "summary-title" }, fmt(t("hand_summary"), { n: event.hand + 1 }).replace("{n}", event.hand + 1), " · ", h("span", { class: "contract-name" }, contractText({ type: event.contract, trump: event.trump, rank: event.rank }))),
    h("p", { class: "by" }, `${t("declarer")}: ${shortName(match, event.declarer, me)}`),
    pointsLine(event, match, me),
    settlementTable(event, match, me, { id: "k-summary-settle" }),
    h("p", { class: "k-after" }, `${t("total")}: `, SEATS.map((s) => `${shortName(match, s, me)} ${event.totals[s]}`).join(" · ")),
    h(
      "div",
      { class: "summary-foot" },
      h("button", { type: "button", id: "summary-continue", class: "primary", onclick: onContinue }, last ? t("see_results") : t("continue")),
      h("span", { class: "countdown", id: "summary-countdown" }, `${last ? "" : `${t("continue_in")} `}${seconds} s`),
    ),
  );
}

// ------------------------------------------------------------------ the score sheet

/** The sheet rows as far as the playback has got (a hand's row once its summary is shown). */
function shownRows(view, model, over) {
  const rows = view.sheet || view.result?.score_sheet || [];
  if (over) return rows;
  return rows.filter((row) => row.hand < model.hand || (row.hand === model.hand && (model.summary || model.over)));
}

/** Per seat: the totals from +122 with the rows shown. */
function runningTotals(rows) {
  const totals = [STARTING_TOTAL, STARTING_TOTAL, STARTING_TOTAL, STARTING_TOTAL];
  for (const row of rows) for (const s of SEATS) totals[s] += row.scores[s];
  return totals;
}

/** The score sheet ("tabela"): start +122, one row per hand (its four scores and their sum
 * against the contract total), the totals, çıkar / batar at the end; a row opens its settlement. */
function sheetPanel(rows, match, me, over, outcomes, ui, redraw) {
  const totals = runningTotals(rows);
  const open = rows.find((r) => r.hand === ui.open) || rows.at(-1);
  return h(
    "section",
    { class: "sheet panel k-sheet" },
    h("h3", {}, t("k_sheet")),
    h(
      "div",
      { class: "scroll" },
      h(
        "table",
        { id: "k-sheet" },
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("contract")), SEATS.map((s) => h("th", { title: shortName(match, s, me) }, shortName(match, s, me))), h("th", { title: t("k_row_sum") }, "Σ"))),
        h(
          "tbody",
          {},
          h("tr", { class: "start", dataset: { line: "start" } }, h("td", {}, ""), h("td", {}, t("k_start")), SEATS.map(() => h("td", {}, `+${STARTING_TOTAL}`)), h("td", {}, "")),
          rows.map((row) => {
            const sum = row.scores.reduce((a, b) => a + b, 0);
            return h(
              "tr",
              {
                class: `${row.hand === open?.hand ? "open" : ""}`,
                dataset: { hand: row.hand, contract: row.contract, scores: row.scores.join(",") },
                tabindex: 0,
                title: t("k_open_row"),
                onclick: () => {
                  ui.open = row.hand;
                  redraw();
                },
              },
              h("td", {}, row.hand + 1),
              h("td", { class: "c" }, contractText(row)),
              SEATS.map((s) => h("td", { class: `${row.declarer === s ? "declared" : ""} ${row.scores[s] < 0 ? "neg" : ""}`.trim() }, row.scores[s])),
              h("td", { class: `sum ${sum === HAND_TOTALS[row.contract] ? "ok" : "bad"}`, title: `${NAMES[row.contract]} ${HAND_TOTALS[row.contract]}` }, sum),
            );
          }),
        ),
        h(
          "tfoot",
          {},
          h("tr", { class: "totals", id: "k-totals", dataset: { totals: totals.join(",") } }, h("th", {}, ""), h("th", {}, t("total")), totals.map((v) => h("th", {}, v)), h("th", {}, totals.reduce((a, b) => a + b, 0))),
          over && outcomes
            ? h(
                "tr",
                { class: "outcomes", id: "k-outcomes" },
                h("th", {}, ""),
                h("th", {}, ""),
                SEATS.map((s) => h("th", { class: `outcome ${outcomes[s]}`, dataset: { seat: s, outcome: outcomes[s] } }, t(`outcome_${outcomes[s]}`))),
                h("th", {}, ""),
              )
            : null,
        ),
      ),
    ),
    open ? h("div", { class: "k-open" }, h("h4", {}, fmt(t("k_settlement"), { n: open.hand + 1 }), " · ", contractText(open)), pointsLine(open, match, me), settlementTable(open, match, me, { id: "k-settle" })) : null,
    checkSums(rows, match, me),
  );
}

/** The paper's checks (§6): each contract's column of hands adds up to its total per hand
 * played; each declarer's section to the sum of its contracts (−122 when complete); and the
 * totals to 4 × 122 plus every row (0 above the start once the match is complete). */
function checkSums(rows, match, me) {
  const byContract = CONTRACTS.map((c) => {
    const played = rows.filter((r) => r.contract === c);
    const sum = played.reduce((acc, r) => acc + r.scores.reduce((a, b) => a + b, 0), 0);
    return { c, n: played.length, sum, expected: played.length * HAND_TOTALS[c] };
  });
  const bySection = SEATS.map((s) => {
    const mine = rows.filter((r) => r.declarer === s);
    const sum = mine.reduce((acc, r) => acc + r.scores.reduce((a, b) => a + b, 0), 0);
    return { s, n: mine.length, sum, expected: mine.reduce((acc, r) => acc + HAND_TOTALS[r.contract], 0) };
  });
  const totals = runningTotals(rows);
  const all = totals.reduce((a, b) => a + b, 0);
  const expectedAll = 4 * STARTING_TOTAL + byContract.reduce((a, x) => a + x.expected, 0);
  const mark = (ok) => (ok ? "✓" : "✗");
  return h(
    "details",
    { class: "k-checks", id: "k-checks" },
    h("summary", {}, `${t("k_checks")} ${mark(byContract.every((x) => x.sum === x.expected) && all === expectedAll)}`),
    h(
      "table",
      { class: "k-check-contracts" },
      h("thead", {}, h("tr", {}, h("th", {}, t("contract")), h("th", {}, t("k_played")), h("th", {}, "Σ"), h("th", {}, t("k_expected")), h("th", {}, ""))),
      h(
        "tbody",
        {},
        byContract.map((x) =>
          h(
            "tr",
            { dataset: { contract: x.c, n: x.n, sum: x.sum, expected: x.expected } },
            h("td", {}, NAMES[x.c]),
            h("td", {}, `${x.n}/4`),
            h("td", {}, x.sum),
            h("td", {}, `${x.n} × ${HAND_TOTALS[x.c]} = ${x.expected}`),
            h("td", {}, mark(x.sum === x.expected)),
          ),
        ),
      ),
    ),
    h(
      "table",
      { class: "k-check-sections" },
      h("thead", {}, h("tr", {}, h("th", {}, t("k_section")), h("th", {}, t("k_played")), h("th", {}, "Σ"), h("th", {}, t("k_expected")), h("th", {}, ""))),
      h(
        "tbody",
        {},
        bySection.map((x) =>
          h(
            "tr",
            { dataset: { seat: x.s, n: x.n, sum: x.sum, expected: x.expected } },
            h("td", {}, shortName(match, x.s, me)),
            h("td", {}, `${x.n}/8`),
            h("td", {}, x.sum),
            h("td", {}, x.expected),
            h("td", {}, mark(x.sum === x.expected)),
          ),
        ),
      ),
    ),
    h("p", { class: "k-check-all", id: "k-check-all", dataset: { all, expected: expectedAll } }, `${fmt(t("k_check_all"), { all, expected: expectedAll })} ${mark(all === expectedAll)}`),
  );
}

const CARD_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
/** A card as text: "10♥". */
export const cardText = (code) => `${rankText(code[0])}${CARD_SYMBOL[code[1]]}`;

/** The opening draw (§1.3): each round's cards and who declares first. */
function drawLine(view, match, me) {
  const draw = view.draw;
  if (!draw?.rounds?.length) return null;
  const rounds = draw.rounds.map((round) => round.map(([s, card]) => `${shortName(match, s, me)} ${cardText(card)}`).join(", "));
  return h("p", { class: "k-draw", id: "k-draw", dataset: { winner: draw.winner } }, fmt(t("k_draw"), { cards: rounds.join(" · "), name: shortName(match, draw.winner, me) }));
}

/** The challenge calls among a cancelled deal's moves ([seat, text]: its contract move, the
 * round-1 calls before the `boz`), as the call log takes them. */
export function voidedCalls(moves, declarer) {
  return callsOfMoves(moves, declarer);
}

/** A cancelled Rıfkı deal of this hand (§2.7): who, with the singleton heart that proves it,
 * and the calls made on it struck through. */
export function redealLine(r, match, me, declarer, { id } = {}) {
  const calls = voidedCalls(r.calls || [], declarer);
  return h(
    "div",
    { class: "k-redealt", id, dataset: { deal: r.deal, seat: r.seat } },
    h("p", {}, fmt(t("k_redealt"), { name: shortName(match, r.seat, me), n: r.deal + 1, card: r.card ? cardText(r.card) : "" })),
    // null, not undefined: the live log owns the id `k-calls`, a cancelled deal's log has none of its own.
    calls.length ? [h("p", { class: "k-void-note" }, t("k_void_calls")), callLog(calls, match, me, declarer, { id: id ? `${id}-calls` : null, voided: true })] : null,
  );
}

/** The hand's cancelled deals as the playback has them. Their calls come from the view when
 * it has the deal: the long-poll's log starts again at the write that cancelled a deal, so a
 * reader that was behind never sees the last calls' events. */
function redealLines(k, view, match, me) {
  return k.redeals.map((r) => {
    const known = (view.redeals || []).find((x) => x.deal === r.deal);
    return redealLine(known ? { ...r, calls: known.calls } : r, match, me, k.declarer);
  });
}

/** Each seat's totals and the contracts it still has to declare (public, §8.1). */
function seatsPanel(view, model, match, me, rows) {
  const totals = runningTotals(rows);
  const left = view.to_declare || [];
  return h(
    "aside",
    { class: "side panel k-side" },
    model.hand === 0 && !model.over ? drawLine(view, match, me) : null,
    model.k?.redeals?.length ? redealLines(model.k, view, match, me) : null,
    h(
      "table",
      { id: "k-seats" },
      h("thead", {}, h("tr", {}, h("th", {}, t("player")), h("th", {}, t("k_to_declare")), h("th", {}, model.k?.phase === "durt" ? t("k_cards") : t("points")), h("th", {}, t("total")))),
      h(
        "tbody",
        {},
        SEATS.map((s) =>
          h(
            "tr",
            { class: s === me ? "me" : "", dataset: { seat: s, total: totals[s] } },
            h("td", { class: "who" }, h("span", { class: "nm", title: shortName(match, s, me) }, shortName(match, s, me), s === model.declarer && !model.over ? " ★" : "")),
            h("td", { class: "k-left" }, (left[s] || []).map((c) => h("span", { class: "k-chip", dataset: { contract: c }, title: NAMES[c] }, NAMES[c].split(" ")[0]))),
            h("td", {}, model.k?.phase === "durt" ? (model.k.durt?.counts?.[s] ?? "") : model.points?.[s] ?? 0),
            h("td", {}, totals[s]),
          ),
        ),
      ),
    ),
  );
}

// ------------------------------------------------------------------ the table's parts

/** The status line while a konturlu event is shown (a contract named, a call, a redeal). */
function noteText(note, match, me) {
  if (!note) return null;
  const name = (s) => shortName(match, s, me);
  if (note.kind === "contract") return fmt(t("k_chose"), { name: name(note.seat), contract: plainContract(note.contract) });
  if (note.kind === "call") {
    const words = callWords(note.call, note.targets, match, me);
    return `${name(note.seat)}: ${words.label} → ${words.expansion}`;
  }
  if (note.kind === "auto") return fmt(t("k_auto_note"), { pairs: note.pairs.map(([a, b]) => `${name(a)}–${name(b)}`).join(", ") });
  if (note.kind === "redeal") return fmt(t("k_redeal_note"), { name: name(note.seat), card: note.card });
  return null;
}

/**
 * The konturlu pieces of one drawing of the table, or null for another ruleset. `ctx`: the
 * (adapted) view, the match body, my seat, the playback's model, whether the table has caught
 * up (`live`) and is over, `send`, `busy`, `ui` (this page's choices) and `redraw`.
 */
export function konturluParts(ctx) {
  const { view, match, me, model, live, over, send, busy, ui, redraw } = ctx;
  if (!isKonturlu(view)) return null;
  const k = model.k || freshState(model.hand, model.declarer);
  const rows = shownRows(view, model, over);
  const mine = live && !over && match.my_turn === true;
  // The big parts (the sheet, the Dürt layout) are built again only when what they show
  // changed: the table is drawn after every event, and a whole sheet of cards is not cheap.
  // The same element is given to every draw, so `patch` must take it whole (`whole`).
  const memo = (name, key, build) => {
    ui.memo = ui.memo || {};
    const text = JSON.stringify([key, t("k_sheet")]);
    if (ui.memo[name]?.key !== text) ui.memo[name] = { key: text, el: Object.assign(build(), { whole: true }) };
    return ui.memo[name].el;
  };
  const outcomes = match.seat_outcomes || view.result?.outcome || null;
  return {
    contractText: () => contractText(k.contract),
    status: () => noteText(k.note, match, me),
    /** Cards are played in trick play and in Dürt. */
    cardPhase: (phase) => phase === "play" || phase === "durt",
    centre() {
      if (over) return null;
      if (mine && view.phase === "contract" && (view.legal_moves || []).length) return contractPicker(view, send);
      if (k.phase === "kontur" || k.phase === "sur") return challengePanel(k, view, match, me, { mine: mine && (view.phase === "kontur" || view.phase === "sur"), send, busy });
      if (k.phase === "durt" && k.durt) {
        const playable = mine && view.phase === "durt" ? view.legal_cards || [] : [];
        return memo("durt", [k.durt, playable], () => durtPanel(k, match, me, new Set(playable)));
      }
      return null;
    },
    /** In Dürt a seat's spot shows its last action (a card or pas) instead of a trick card. */
    slot(seat) {
      if (k.phase !== "durt" || !k.durt) return undefined;
      return durtSlot(k.durt, seat);
    },
    summary(summary, onContinue) {
      if (!k.scored) return null;
      return konturluSummary(summary, k.scored, match, me, { last: k.scored.hand + 1 >= view.num_hands, onContinue });
    },
    side() {
      const showPairs = !over && (k.phase === "play" || k.phase === "durt") && k.calls.length;
      const playing = !over && k.phase === "play" && view.if_ended_now && live;
      return [
        seatsPanel(view, model, match, me, rows),
        showPairs
          ? h(
              "section",
              { class: "panel k-hand-pairs" },
              h("h3", {}, `${plainContract(k.contract)} · ${t("k_calls")}`),
              callLog(k.calls, match, me, k.declarer, { id: "k-calls-play" }),
              pairGrid(k.calls, match, me, { id: "k-pairs-play" }),
              playing ? h("details", { class: "k-if-now", id: "k-if-now" }, h("summary", {}, t("k_if_now")), settlementTable({ ...view.if_ended_now, hand: view.hand, contract: view.contract, pairs: pairTable(k.calls), transfers: view.if_ended_now.transfers, eaten: view.if_ended_now.eaten }, match, me)) : null,
            )
          : null,
        memo("sheet", [rows.map((r) => r.hand), ui.open, over, outcomes], () => sheetPanel(rows, match, me, over, outcomes, ui, redraw)),
      ];
    },
  };
}

// ------------------------------------------------------------------ the replay of a transcript

// A transcript lists each deal's moves as [seat, text] (king_engine/konturlu: `deal_log`): the
// declarer's contract move, the calls, then cards (and the server's Dürt passes). The history
// page replays them with what the table draws; the settlement is worked out here as §5 says
// (the engine's settle.py), and the history test compares it with the service's score sheet.

const CALL_WORDS = new Set(["iyi", "kontur", "masa", "haric", "sur"]);
const PAIRS = [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]];
const TRICK_VALUES = { el: 5, koz: 5, kupa: 3, erkek: 6, kiz: 10, rifki: 30 };

/** A call's targets from its canonical text (§3.3): masa is the three others, söyleyen hariç
 * the two non-declarers, kontur and sür name theirs. */
export function callTargets(call, seat, declarer) {
  const [word, arg] = call.split(":");
  if (word === "masa") return SEATS.filter((s) => s !== seat);
  if (word === "haric") return SEATS.filter((s) => s !== seat && s !== declarer);
  return arg ? arg.split(",").map(Number) : [];
}

/** The challenge calls of a deal's moves with their rounds: the first three are round 1
 * (d+1, d+2, d+3, §3.3), any after them round 2 (§3.5). */
function callsOfMoves(moves, declarer) {
  const calls = [];
  for (const [seat, text] of moves) {
    if (!CALL_WORDS.has(String(text).split(":")[0])) continue;
    const round = calls.length < 3 ? 1 : 2;
    calls.push({ round, seat, call: text, targets: callTargets(text, seat, declarer) });
  }
  return calls;
}

/** A contract move as the view names a contract: {type, trump, rank}. */
function contractOfMove(text) {
  const [word, arg] = String(text).split(":");
  if (word === "koz") return { type: "koz", trump: arg };
  if (word === "durt") return { type: "durt", rank: arg };
  return NAMES[word] ? { type: word } : null;
}

function trickValue(contract, cards, n) {
  if (contract === "soniki") return n === 11 ? 10 : n === 12 ? 20 : 0;
  const value = TRICK_VALUES[contract] || 0;
  if (contract === "kupa") return value * cards.filter((c) => c[1] === "H").length;
  if (contract === "erkek") return value * cards.filter((c) => c[0] === "K" || c[0] === "J").length;
  if (contract === "kiz") return value * cards.filter((c) => c[0] === "Q").length;
  if (contract === "rifki") return cards.includes("KH") ? value : 0;
  return value;
}

/** The trick's winner (§2.2): the highest trump in Koz, else the led suit's highest card. */
function trickWinner(plays, trump) {
  let best = plays[0];
  for (const play of plays.slice(1)) {
    const same = play.card[1] === best.card[1];
    if (same ? RANKS.indexOf(play.card[0]) > RANKS.indexOf(best.card[0]) : trump && play.card[1] === trump) best = play;
  }
  return best.seat;
}

/**
 * §5: a hand's scores from its points (penalties P, or gains G in Koz and Dürt) and its pair
 * table ("a-b" -> kontur ×1, sur / sur_auto ×2): each pair's difference moves to the one that
 * did better, then in a penalty contract each seat's own P goes to the partner that took the
 * most more than it, sürülü ones first (ties: the first after it in play order).
 */
export function settle(points, pairs, penalty) {
  const m = SEATS.map(() => [0, 0, 0, 0]);
  for (const [key, rel] of Object.entries(pairs)) {
    const [a, b] = key.split("-").map(Number);
    m[a][b] = m[b][a] = rel === "kontur" ? 1 : 2;
  }
  const base = points.map((p) => (penalty ? -p || 0 : p));
  const scores = [...base];
  const transfers = [];
  for (const [a, b] of PAIRS) {
    const multiplier = m[a][b];
    if (!multiplier || base[a] === base[b]) continue;
    const [to, from] = base[a] > base[b] ? [a, b] : [b, a];
    const amount = multiplier * (base[to] - base[from]);
    scores[to] += amount;
    scores[from] -= amount;
    transfers.push({ to, from, multiplier, amount });
  }
  const eaten = [];
  for (const seat of penalty ? SEATS : []) {
    const own = points[seat];
    if (own <= 0) continue;
    for (const tier of [2, 1]) {
      let eater = null;
      for (const step of [1, 2, 3]) {
        const other = (seat + step) % 4;
        if (m[seat][other] === tier && points[other] > own && (eater === null || points[other] > points[eater])) eater = other;
      }
      if (eater === null) continue;
      scores[seat] += own;
      scores[eater] -= own;
      eaten.push({ eaten: seat, eater, points: own });
      break;
    }
  }
  return { base, transfers, eaten, scores };
}

/** One Dürt move on a copy of the layout's state (a card, or the server's pass). */
function durtStep(d, seat, text) {
  const next = { ...d, layout: { ...d.layout }, last: { ...d.last }, places: [...d.places], counts: [...d.counts] };
  next.last[seat] = text;
  if (text === "pas") return next;
  next.layout = place(next.layout, text, d.rank);
  next.counts[seat] -= 1;
  if (!next.counts[seat]) next.places.push(seat);
  // Once three are out the hand ends and the last seat is 4th (D24).
  if (next.places.length === 3) next.places.push(SEATS.find((s) => !next.places.includes(s)));
  return next;
}

/**
 * One deal of a konturlu transcript replayed, in the history page's shape: `tricks` are the
 * tricks, or in Dürt one step per card played (the layout after it); `counted` are the hand's
 * scores (none for a cancelled deal); `k` holds the contract, the calls, the pair table and
 * the settlement row the table's parts draw.
 */
export function replayKonturlu(entry, transcript) {
  const declarer = ((transcript?.first_declarer ?? 0) + entry.hand) % 4;
  const moves = (entry.moves || []).map((m) => (Array.isArray(m) ? m : [m.seat, m.move]));
  const first = moves.find(([seat, text]) => seat === declarer && contractOfMove(text));
  // A hand dealt again after a cancelled Rıfkı stays Rıfkı before its contract move (§2.7.3).
  const again = (transcript?.hands || []).some((e) => e.hand === entry.hand && e.deal < entry.deal && e.ended === "redealt");
  const contract = first ? contractOfMove(first[1]) : again ? { type: "rifki" } : null;
  const type = contract?.type ?? null;
  const calls = callsOfMoves(moves, declarer);
  const pairs = pairTable(calls);
  const cards = moves.filter(([, text]) => isCard(text)).map(([seat, card]) => ({ seat, card }));
  const points = [0, 0, 0, 0];
  const taken = [0, 0, 0, 0];
  const tricks = [];
  let places = null;
  if (type === "durt") {
    let d = freshDurt(contract.rank);
    for (const [seat, text] of moves) {
      if (text !== "pas" && !isCard(text)) continue;
      d = durtStep(d, seat, text);
      if (text !== "pas") tricks.push({ n: tricks.length, plays: [{ seat, card: text }], leader: seat, winner: null, points: 0, durt: d });
    }
    places = d.places.length === 4 ? d.places : null;
    places?.forEach((s, i) => (points[s] = [45, 20, 10, -10][i]));
  } else {
    for (let i = 0; i < cards.length; i += 4) {
      const trick = { n: i / 4, plays: cards.slice(i, i + 4), winner: null, points: 0 };
      trick.leader = trick.plays[0].seat;
      if (trick.plays.length === 4) {
        trick.winner = trickWinner(trick.plays, contract?.trump);
        const value = trickValue(type, trick.plays.map((p) => p.card), trick.n);
        // The trick's points as the felt says them: a penalty's are negative.
        trick.points = PENALTIES.includes(type) ? -value : value;
        points[trick.winner] += value;
        taken[trick.winner] += 1;
      }
      tricks.push(trick);
    }
  }
  const played = entry.ended === "played" && type !== null;
  const row = played
    ? { hand: entry.hand, deal: entry.deal, declarer, contract: type, trump: contract.trump, rank: contract.rank, points, pairs, places, ...settle(points, pairs, PENALTIES.includes(type)) }
    : null;
  const thrown = entry.ended === "redealt" ? "redealt" : null;
  return {
    hand: entry.hand,
    deal: entry.deal ?? entry.hand,
    declarer,
    contract: type,
    trump: contract?.trump ?? contract?.rank ?? null,
    label: contract ? plainContract(contract) : "—",
    tricks,
    points,
    taken,
    thrown,
    askedBy: entry.asked_by ?? null,
    reason: entry.reason ?? null,
    counted: row ? row.scores : [0, 0, 0, 0],
    k: { contract, calls, pairs, row, card: entry.card ?? null, durt: type === "durt" },
  };
}

/** The seat's spot in Dürt: its place once out, else its last card or pas (`empty`: the class
 * of the empty place, the table's or the replay's). */
export function durtSlot(d, seat, empty = "card empty") {
  const placed = d.places.indexOf(seat);
  if (placed >= 0) return h("span", { class: "k-out", dataset: { place: placed + 1 } }, `${placed + 1}.`);
  const last = d.last[seat];
  if (!last) return h("span", { class: empty });
  if (last === "pas") return h("span", { class: "k-pas", dataset: { last: "pas" } }, t("k_pas"));
  return cardElement(last);
}

/** A replayed Dürt step's layout, as the table draws it. */
export function durtReplay(d, match, me) {
  return durtPanel({ durt: d }, match, me, new Set());
}

/** What the history page shows of one replayed deal above its board: the calls (struck
 * through on a cancelled deal) and the pair table. */
export function replayCalls(hand, match, me) {
  const { calls, card } = hand.k;
  if (hand.thrown) {
    return redealLine({ deal: hand.deal, seat: hand.askedBy, card, calls: calls.map((c) => [c.seat, c.call]) }, match, me, hand.declarer, { id: "k-replay-redealt" });
  }
  return h(
    "section",
    { class: "k-replay-calls", id: "k-replay-calls" },
    h("h3", {}, t("k_calls")),
    h("div", { class: "k-grid" }, callLog(calls, match, me, hand.declarer, { id: "k-replay-log" }), pairGrid(calls, match, me, { id: "k-replay-pairs" })),
  );
}

/** Below the board: the hand's settlement line by line and the totals after it (from +122). */
export function replaySettlement(hand, totals, match, me) {
  const row = hand.k.row;
  return h(
    "section",
    { class: "k-replay-settle", id: "hand-points" },
    row ? [pointsLine(row, match, me), settlementTable(row, match, me, { id: "k-replay-settle" })] : null,
    h("p", { class: "k-after", id: "k-replay-totals", dataset: { totals: totals.join(",") } }, `${t("total")}: `, SEATS.map((s) => `${shortName(match, s, me)} ${totals[s]}`).join(" · ")),
  );
}
