// A finished match replayed trick by trick (#/history/<match id>), from its public fairness
// transcript (GET /v1/matches/{id}/fairness: the seeds and every hand's contract and plays in
// order). Trick winners and points are worked out here with the rules every ruleset shares
// (shared/king_engine: the led suit's highest card wins unless a trump is played; a contract's
// points per trick, per penalty card and for the last two tricks). The deck is re-dealt with
// verify.js as Verify deck does; without this device's record of the match only the deal's
// consistency can be checked, and the page says so. A transcript lists every deal, so a
// traditional match's thrown deals (redealt, or the Kız replay) appear too, marked, and count
// towards no total; their calls (redeal answers, King announcements) are not tricks. The
// rulesets with their own state class replay their deals with their table module's parts:
// international its auctions and settlements, konturlu its calls, pair tables, Dürt layouts
// and settlements (from +122), a cancelled Rıfkı deal's calls struck through.

import * as api from "./api.js";
import { ratingGet } from "./boards.js";
import { cardElement } from "./cards.js";
import { app, h, fill, errorText, seatName } from "./dom.js";
import { contractLabel, rulesetLabel, t } from "./i18n.js";
import { loadRecord, loadSession } from "./store.js";
import { fmt } from "./strings-lists.js";
import { outcomeText, reasonText } from "./table-parts.js";
import { verifyTranscript } from "./verify.js";
import { auctionLine, replayInternational } from "./table-international.js";
import { STARTING_TOTAL, cardText, durtReplay, durtSlot, replayCalls, replayKonturlu, replaySettlement } from "./table-konturlu.js";

// ------------------------------------------------------------------ the rules of a trick

const RANKS = "23456789TJQKA";
const rank = (card) => RANKS.indexOf(card[0]);
const suit = (card) => card[1];

/** What the winner of trick `n` (0..12) scores under `contract` (contracts.py's table). */
function trickPoints(contract, cards, n) {
  const count = (test) => cards.filter(test).length;
  switch (contract) {
    case "tricks":
      return -50;
    case "hearts":
      return -30 * count((c) => suit(c) === "H");
    case "queens":
      return -100 * count((c) => c[0] === "Q");
    case "boys":
      return -60 * count((c) => c[0] === "K" || c[0] === "J");
    case "last_two":
      return n >= 11 ? -180 : 0;
    case "king_of_hearts":
      return cards.includes("KH") ? -320 : 0;
    case "trump":
      return 50;
    default:
      return 0;
  }
}

/** One hand of the transcript as tricks: [{n, plays: [{seat, card}], leader, winner, points}],
 * plus the hand's points and tricks per seat. A trick cut short by the match's end has no winner. */
export function replayHand(entry) {
  const plays = (entry.plays || []).map((p) => (Array.isArray(p) ? { seat: p[0], card: p[1] } : p));
  const points = [0, 0, 0, 0];
  const taken = [0, 0, 0, 0];
  const tricks = [];
  for (let i = 0; i < plays.length; i += 4) {
    const trick = { n: i / 4, plays: plays.slice(i, i + 4), winner: null, points: 0 };
    trick.leader = trick.plays[0].seat;
    if (trick.plays.length === 4) {
      let best = trick.plays[0];
      for (const play of trick.plays.slice(1)) {
        if (suit(play.card) === suit(best.card)) {
          if (rank(play.card) > rank(best.card)) best = play;
        } else if (entry.trump && suit(play.card) === entry.trump) {
          best = play;
        }
      }
      trick.winner = best.seat;
      trick.points = trickPoints(entry.contract, trick.plays.map((p) => p.card), trick.n);
      points[best.seat] += trick.points;
      taken[best.seat] += 1;
    }
    tricks.push(trick);
  }
  // A deal that was thrown away (traditional: redealt or replayed) scores nothing.
  const thrown = entry.ended === "redealt" || entry.ended === "replayed" ? entry.ended : null;
  return {
    hand: entry.hand,
    deal: entry.deal ?? entry.hand,
    declarer: entry.declarer,
    contract: entry.contract,
    trump: entry.trump,
    tricks,
    points,
    taken,
    thrown,
    askedBy: entry.asked_by ?? null,
    reason: entry.reason ?? null,
    counted: thrown ? [0, 0, 0, 0] : points,
  };
}

/** Places 1..4 by seat, as the engine's `placements`: equal totals share a place; seats in
 * `forfeits` (in the order they left) are placed below everyone else, the first to leave last. */
export function placements(totals, forfeits = []) {
  const staying = [0, 1, 2, 3].filter((s) => !forfeits.includes(s));
  const places = [0, 0, 0, 0];
  for (const s of staying) places[s] = 1 + staying.filter((o) => totals[o] > totals[s]).length;
  forfeits.forEach((s, order) => (places[s] = 4 - order));
  return places;
}

// ------------------------------------------------------------------ the page

/** Who sat where and who left when, from whatever of the match this caller may read. */
async function matchFacts(matchId, archiveRead) {
  const signedIn = Boolean(loadSession());
  const [match, table, archive] = await Promise.all([
    signedIn ? api.getMatch(matchId).catch(() => null) : null,
    signedIn ? api.getTable(matchId).catch(() => null) : null,
    archiveRead,
  ]);
  const archived = (archive?.players || []).map((p) => ({ ...p, played_by: p.is_bot ? "computer" : "player" }));
  const seats = match?.seats || table?.seats || (archived.length ? archived : []);
  let forfeits = match?.forfeits;
  if (!forfeits && archived.length) {
    forfeits = archived
      .filter((p) => p.forfeited)
      .sort((a, b) => (a.forfeit_order ?? 9) - (b.forfeit_order ?? 9))
      .map((p) => p.seat);
  }
  if (!forfeits) forfeits = (seats || []).filter((s) => s?.forfeited).map((s) => s.seat);
  const level = match?.level || table?.level || null;
  // traditional's result when this caller may read the match: çıkar / batar, and after a King
  // end the service's places (the totals do not decide them then).
  const king = ["king", "king_failed"].includes(match?.end_reason);
  const result = match?.seat_outcomes
    ? { places: king ? match.places : null, outcomes: match.seat_outcomes, endReason: match.end_reason, kingSeat: match.king_seat ?? null }
    : null;
  return { seats, forfeits, level, me: match?.seat ?? null, result };
}

export function historyPage(matchId) {
  const state = { closed: false, hand: 0, trick: 0 };
  const root = h("div", { class: "history", id: "history" }, h("p", {}, "…"));
  fill(app, h("h1", {}, t("history")), root);

  const onKey = (event) => {
    if (!state.replay || ["INPUT", "SELECT", "TEXTAREA"].includes(event.target?.tagName)) return;
    if (event.key === "ArrowLeft") step(-1);
    else if (event.key === "ArrowRight") step(1);
  };
  document.addEventListener("keydown", onKey);

  function step(delta) {
    const hands = state.replay;
    let { hand, trick } = state;
    trick += delta;
    if (trick < 0 && hand > 0) {
      hand -= 1;
      trick = hands[hand].tricks.length - 1;
    } else if (trick >= hands[hand].tricks.length && hand < hands.length - 1) {
      hand += 1;
      trick = 0;
    }
    trick = Math.max(0, Math.min(trick, hands[hand].tricks.length - 1));
    Object.assign(state, { hand, trick });
    draw();
  }

  // A seat nobody here can name (a reader who may not see the match) is numbered.
  const name = (s) =>
    state.facts.seats?.[s] ? seatName({ seats: state.facts.seats, level: state.facts.level }, s, state.facts.me) : `${t("seat")} ${s + 1}`;
  const transcriptEntry = (i) => (state.transcript.ruleset === "international" ? state.transcript.hands[i] : null);
  // konturlu: its deals are drawn with the table's parts (table-konturlu.js), which read the
  // seats' names from a match body; its totals start at +122.
  const konturlu = () => state.transcript.ruleset === "konturlu";
  const seatsOnly = () => ({ seats: state.facts.seats });
  const start = () => (konturlu() ? STARTING_TOTAL : 0);
  const label = (hand) => hand.label ?? contractLabel(hand.contract, hand.trump);

  function handTabs() {
    return h(
      "div",
      { class: "hand-tabs", role: "group", "aria-label": t("hand_of") },
      state.replay.map((hand, i) =>
        h(
          "button",
          {
            type: "button",
            id: `hand-${i + 1}`,
            class: [i === state.hand ? "current" : "", hand.thrown ? "thrown" : ""].filter(Boolean).join(" "),
            dataset: { hand: hand.hand, deal: hand.deal, thrown: hand.thrown || "" },
            "aria-pressed": i === state.hand ? "true" : "false",
            onclick: () => (Object.assign(state, { hand: i, trick: 0 }), draw()),
          },
          h("span", { class: "tab-n" }, hand.hand + 1),
          h("span", { class: "tab-c" }, label(hand)),
          hand.thrown ? h("span", { class: "tab-t" }, ` · ${t("thrown_tab")}`) : null,
        ),
      ),
    );
  }

  function trickView(hand, trick) {
    if (trick.durt) return durtView(trick);
    const bottom = state.facts.me ?? 0;
    // As the table draws them: traditional runs counter-clockwise (RULES-traditional.md §0.2).
    const positions = state.transcript.ruleset === "traditional" ? ["bottom", "right", "top", "left"] : ["bottom", "left", "top", "right"];
    const spots = [0, 1, 2, 3].map((offset) => {
      const seat = (bottom + offset) % 4;
      const play = trick.plays.find((p) => p.seat === seat);
      const tags = [seat === trick.leader ? t("replay_leads") : null, seat === trick.winner ? t("replay_takes") : null].filter(Boolean);
      return h(
        "div",
        {
          class: `rspot ${positions[offset]}${seat === trick.winner ? " winner" : ""}`,
          dataset: { seat, card: play?.card || "" },
        },
        h("span", { class: "rspot-name" }, name(seat)),
        play ? cardElement(play.card) : h("span", { class: "card slot" }),
        h("span", { class: "rspot-tag" }, tags.join(" · ")),
      );
    });
    const centre =
      hand.thrown && !trick.plays.length
        ? ""
        : trick.winner === null
        ? t("unfinished_trick")
        : trick.points
          ? fmt(t("trick_points"), { points: trick.points > 0 ? `+${trick.points}` : trick.points, name: name(trick.winner) })
          : `${name(trick.winner)} ${t("replay_takes")}`;
    return h(
      "div",
      {
        class: "replay-trick",
        id: "trick",
        dataset: { hand: hand.hand, trick: trick.n, winner: trick.winner ?? "" },
      },
      spots,
      h("div", { class: "rcentre", id: "trick-summary" }, centre),
    );
  }

  /** A Dürt step (konturlu): each seat's last card, pas or place, then the layout after it. */
  function durtView(trick) {
    const bottom = state.facts.me ?? 0;
    const positions = ["bottom", "left", "top", "right"];
    const [play] = trick.plays;
    const out = trick.durt.places.indexOf(play.seat);
    const spots = [0, 1, 2, 3].map((offset) => {
      const seat = (bottom + offset) % 4;
      return h(
        "div",
        { class: `rspot ${positions[offset]}${seat === play.seat ? " winner" : ""}`, dataset: { seat, card: trick.durt.last[seat] || "" } },
        h("span", { class: "rspot-name" }, name(seat)),
        durtSlot(trick.durt, seat, "card slot"),
        h("span", { class: "rspot-tag" }, ""),
      );
    });
    const centre = out >= 0 && trick.durt.counts[play.seat] === 0 ? fmt(t("k_out"), { name: name(play.seat), n: out + 1 }) : fmt(t("k_plays"), { name: name(play.seat), card: cardText(play.card) });
    return [
      h("div", { class: "replay-trick", id: "trick", dataset: { trick: trick.n, seat: play.seat, card: play.card } }, spots, h("div", { class: "rcentre", id: "trick-summary" }, centre)),
      durtReplay(trick.durt, seatsOnly(), state.facts.me),
    ];
  }

  function handTable(hand) {
    // Totals after this hand: every hand up to and including it.
    const totals = [0, 1, 2, 3].map((s) => state.replay.slice(0, state.hand + 1).reduce((sum, x) => sum + x.counted[s], start()));
    if (konturlu()) return replaySettlement(hand, totals, seatsOnly(), state.facts.me);
    return h(
      "div",
      { class: "scroll" },
      h(
        "table",
        { class: "hand-table", id: "hand-points" },
        h("thead", {}, h("tr", {}, h("th", {}, t("player")), h("th", {}, t("tricks_taken")), h("th", {}, t("replay_hand_points")), h("th", {}, t("total")))),
        h(
          "tbody",
          {},
          [0, 1, 2, 3].map((s) =>
            h("tr", { dataset: { seat: s } }, h("td", {}, name(s)), h("td", {}, hand.taken[s]), h("td", {}, hand.points[s]), h("td", {}, totals[s])),
          ),
        ),
      ),
    );
  }

  function standingsPanel() {
    const totals = [0, 1, 2, 3].map((s) => state.replay.reduce((sum, x) => sum + x.counted[s], start()));
    const forfeits = state.facts.forfeits;
    const result = state.facts.result;
    const places = result?.places || placements(totals, forfeits);
    const order = [0, 1, 2, 3].sort((a, b) => places[a] - places[b] || totals[b] - totals[a]);
    return h(
      "section",
      { class: "panel replay-standings", id: "replay-standings" },
      h("h2", {}, t("standings")),
      h(
        "ol",
        {},
        order.map((s) => {
          const left = forfeits.indexOf(s);
          return h(
            "li",
            { dataset: { seat: s, place: places[s] }, class: left >= 0 ? "forfeited" : "" },
            `${places[s]}. ${name(s)} — ${totals[s]}`,
            result?.outcomes?.[s] ? ` · ${outcomeText(result.outcomes[s])}` : "",
            left >= 0 ? ` · ${fmt(t("left_nth"), { n: left + 1 })}` : "",
          );
        }),
      ),
      ["king", "king_failed"].includes(result?.endReason) && result.kingSeat !== null
        ? h("p", { class: "king-banner", id: "replay-king" }, `♛ ${fmt(t(`end_${result.endReason}`), { name: name(result.kingSeat) })}`)
        : null,
      h("p", { class: "muted note", id: "standings-rule" }, t("standings_rule")),
    );
  }

  function verifyPanel() {
    const out = h("div", { id: "replay-verify", "aria-live": "polite" });
    const v = state.verify;
    if (!v) fill(out, h("p", {}, t("verifying")));
    else if (v.error) fill(out, h("p", { class: "fail" }, v.error));
    else if (v.passed) fill(out, h("p", { class: "pass", id: "replay-verify-pass", dataset: { scope: v.scope } }, `✔ ${t(v.scope === "full" ? "verify_pass" : "verify_public")}`));
    else
      fill(
        out,
        h(
          "div",
          { class: "fail", id: "replay-verify-fail" },
          h("p", {}, h("strong", {}, `✘ ${t("verify_fail")}`)),
          h("ul", {}, v.problems.map((p) => h("li", {}, p.message))),
        ),
      );
    return h("section", { class: "panel verify" }, h("h2", {}, t("verify")), out);
  }

  function draw() {
    if (state.closed) return;
    const hands = state.replay;
    const info = h(
      "p",
      { class: "muted", id: "replay-meta" },
      [rulesetLabel(state.transcript.ruleset), fmt(t("hands_n"), { n: state.transcript.num_hands ?? hands.length }), t(`ended_${state.transcript.outcome || "finished"}`)]
        .filter(Boolean)
        .join(" · "),
    );
    if (!hands.length) {
      fill(root, info, h("p", { class: "empty" }, t("no_hands")), standingsPanel(), verifyPanel());
      return;
    }
    const hand = hands[state.hand];
    const trick = hand.tricks[state.trick] || { n: 0, plays: [], winner: null, leader: null, points: 0 };
    const first = state.hand === 0 && state.trick === 0;
    const last = state.hand === hands.length - 1 && state.trick >= hand.tricks.length - 1;
    const focused = document.activeElement?.id;
    fill(
      root,
      info,
      h(
        "div",
        { class: "replay-grid" },
        h(
          "section",
          { class: "panel replay-main" },
          handTabs(),
          h(
            "h2",
            { id: "hand-title" },
            `${fmt(t("hand_n"), { n: state.hand + 1 })} · ${label(hand)}`,
            h("span", { class: "muted" }, ` · ${t("declarer")}: ${name(hand.declarer)}`),
            hand.deal !== hand.hand ? h("span", { class: "muted" }, ` · ${fmt(t("deal_no"), { n: hand.deal + 1 })}`) : null,
          ),
          // international: the hand's auction, as said at the table.
          transcriptEntry(state.hand) ? auctionLine(transcriptEntry(state.hand), name) : null,
          // konturlu: the calls and pairs, or a cancelled deal with its calls struck through.
          konturlu() ? replayCalls(hand, seatsOnly(), state.facts.me) : null,
          hand.thrown && !konturlu()
            ? h(
                "p",
                { class: "thrown", id: "thrown", dataset: { ended: hand.thrown, reason: hand.reason || "" } },
                hand.thrown === "redealt"
                  ? fmt(t("thrown_redealt"), { name: hand.askedBy === null ? "?" : name(hand.askedBy), why: reasonText(hand.reason) })
                  : fmt(t("thrown_replayed"), { why: reasonText(hand.reason) }),
              )
            : null,
          h(
            "div",
            { class: "stepper" },
            h("button", { type: "button", id: "trick-prev", disabled: first, onclick: () => step(-1) }, `‹ ${t("prev")}`),
            h("span", { id: "trick-label" }, hand.tricks.length ? fmt(t(hand.k?.durt ? "k_move_n" : "trick_n"), { n: state.trick + 1, m: hand.tricks.length }) : "—"),
            h("button", { type: "button", id: "trick-next", disabled: last, onclick: () => step(1) }, `${t("next")} ›`),
          ),
          // A cancelled konturlu deal had no card played: no felt to show.
          konturlu() && hand.thrown && !hand.tricks.length ? null : trickView(hand, trick),
          handTable(hand),
        ),
        h("div", { class: "replay-side" }, standingsPanel(), verifyPanel()),
      ),
    );
    if (focused) document.getElementById(focused)?.focus();
  }

  async function load() {
    // The rating service's archive (seats, places, forfeit order) also keeps the transcript,
    // which serves once the game service has let the match go.
    const archived = ratingGet(`/matches/${encodeURIComponent(matchId)}`).catch(() => null);
    let transcript;
    try {
      transcript = await api.transcript(matchId).catch(async (error) => {
        const kept = error.status === 404 ? (await archived)?.fairness : null;
        if (kept?.server_seed) return kept;
        throw error;
      });
    } catch (error) {
      if (state.closed) return;
      const text = error.code === "match_not_over" ? t("not_over") : `${t("unavailable")}: ${errorText(error)}`;
      fill(root, h("p", { class: "error", id: "replay-error" }, text), h("a", { href: `#/match/${matchId}` }, t("open_table")));
      return;
    }
    const facts = await matchFacts(matchId, archived);
    if (state.closed) return;
    const replayOf = {
      international: (entry) => replayInternational(entry, transcript),
      konturlu: (entry) => replayKonturlu(entry, transcript),
    }[transcript.ruleset] ?? replayHand;
    Object.assign(state, { transcript, facts, replay: (transcript.hands || []).map(replayOf) });
    draw();
    // The deck check: with this device's record (it sat at this match) the full Verify deck;
    // without one, the transcript against itself, minus what only the record can prove.
    const record = loadRecord(matchId);
    const full = Boolean(record?.commitment && record?.seed);
    const stored = full ? record : { matchId, commitment: transcript.server_commit, seat: null, hands: {} };
    try {
      const result = await verifyTranscript(transcript, stored);
      const problems = full ? result.problems : result.problems.filter((p) => p.check !== "own_seed");
      state.verify = { passed: problems.length === 0, problems, scope: full ? "full" : "public" };
    } catch (error) {
      state.verify = { error: String(error.message || error) };
    }
    draw();
  }

  load();
  return () => {
    state.closed = true;
    document.removeEventListener("keydown", onKey);
  };
}
