// Pieces of the table page that only draw: the hand's summary, the last trick, the final
// standings and the Verify deck panel (table.js owns the state and passes it in).

import { cardElement } from "./cards.js";
import { h, seatName } from "./dom.js";
import { contractLabel, t } from "./i18n.js";
import { fmt } from "./strings-lists.js";

const fill = (text, n) => text.replace("{n}", n);
export const POSITIONS = ["bottom", "left", "top", "right"];
// RULES-traditional.md §0.2: its play runs counter-clockwise on screen, seat v+1 on the right.
const COUNTER_CLOCKWISE = new Set(["traditional"]);
const POSITIONS_CCW = ["bottom", "right", "top", "left"];
export const positionOf = (seat, me, ruleset) =>
  (COUNTER_CLOCKWISE.has(ruleset) ? POSITIONS_CCW : POSITIONS)[(seat - me + 4) % 4];

/** A label by key, or `fallback` when the catalogue has none (`t` returns the key then). */
const labelOr = (key, fallback) => (t(key) === key ? fallback : t(key));
/** Why a deal was thrown away, in words (the reason code when it is a new one). */
export const reasonText = (code) => labelOr(`reason_${code}`, String(code));
/** çıkar / batar in the page's language. */
export const outcomeText = (code) => labelOr(`outcome_${code}`, String(code));

/** The end of a hand: who took what, each seat's points for the hand, the running totals. */
export function handSummary(summary, match, me, { last, onContinue }) {
  // Only the contracts that score cards (Kupa, Kız, Erkek, Rıfkı) have cards to list.
  const cards = ["hearts", "queens", "boys", "king_of_hearts"].includes(summary.contract);
  const seconds = Math.max(0, Math.ceil((summary.ends - Date.now()) / 1000));
  return h(
    "section",
    { class: "hand-summary", id: "hand-summary", role: "dialog", "aria-labelledby": "summary-title", dataset: { hand: summary.hand } },
    h(
      "h3",
      { id: "summary-title" },
      fill(t("hand_summary"), summary.hand + 1),
      " · ",
      h("span", { class: "contract-name" }, contractLabel(summary.contract, summary.trump)),
    ),
    h("p", { class: "by" }, `${t("declarer")}: ${seatName(match, summary.declarer, me)}`),
    h(
      "table",
      { class: "summary-table" },
      h("thead", {}, h("tr", {}, h("th", {}, t("player")), h("th", {}, t("tricks_taken")), cards ? h("th", {}, t("penalty_cards")) : null, h("th", {}, t("hand_points")), h("th", {}, t("total")))),
      h(
        "tbody",
        {},
        [0, 1, 2, 3].map((s) =>
          h(
            "tr",
            { class: s === me ? "me" : "", dataset: { seat: s } },
            h("td", { class: "who" }, h("span", { class: "nm" }, seatName(match, s, me))),
            h("td", { class: "tricks" }, summary.taken[s]),
            cards ? h("td", { class: "cards" }, summary.penalties[s].map((c) => cardElement(c))) : null,
            h("td", { class: `hp${summary.points[s] < 0 ? " neg" : summary.points[s] > 0 ? " pos" : ""}` }, summary.points[s]),
            h("td", { class: "tot" }, summary.totals[s]),
          ),
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

/** The trick taken last, laid out by seat, its leader and winner marked. */
export function lastTrickPanel(last, match, me) {
  return h(
    "section",
    { class: "last-trick", id: "last-trick", "aria-label": t("last_trick") },
    h("h3", {}, t("last_trick")),
    last
      ? h(
          "ol",
          {},
          last.plays.map((p) =>
            h(
              "li",
              { class: [p.seat === last.winner ? "winner" : "", p.seat === last.leader ? "leader" : ""].join(" ").trim(), dataset: { seat: p.seat, card: p.card } },
              cardElement(p.card),
              h("span", { class: "nm" }, seatName(match, p.seat, me)),
              p.seat === last.leader ? h("span", { class: "badge lead" }, t("leads")) : null,
              p.seat === last.winner ? h("span", { class: "badge win" }, t("takes")) : null,
            ),
          ),
        )
      : h("p", {}, t("no_last_trick")),
  );
}

export function standings(view, match, me) {
  const totals = view.totals || [0, 0, 0, 0];
  // Places and winners come from the server: a player who forfeited is last and never wins,
  // whatever their total.
  const places = match.places || [];
  const winners = new Set(match.winners || []);
  const forfeits = new Set(match.forfeits || []);
  const placeOf = (s) => places[s] ?? 1 + totals.filter((x) => x > totals[s]).length;
  const order = [0, 1, 2, 3].sort((a, b) => placeOf(a) - placeOf(b) || totals[b] - totals[a]);
  // traditional: çıkar / batar per seat, and the King feat (or its announced failure) said.
  const outcomes = match.seat_outcomes || null;
  const king = ["king", "king_failed"].includes(match.end_reason) && match.king_seat !== null && match.king_seat !== undefined;
  return h(
    "section",
    { class: "panel standings", id: "standings" },
    h("h2", {}, t("standings")),
    king
      ? h(
          "p",
          { class: `king-banner ${match.end_reason}`, id: "king-banner", dataset: { seat: match.king_seat } },
          `♛ ${fmt(t(`end_${match.end_reason}`), { name: seatName(match, match.king_seat, me) })}`,
        )
      : null,
    h(
      "ol",
      {},
      order.map((s) =>
        h(
          "li",
          {
            class: [s === me ? "me" : "", winners.has(s) ? "winner" : "", outcomes?.[s] || ""].join(" ").trim(),
            dataset: { place: placeOf(s), seat: s, outcome: outcomes?.[s] || "" },
          },
          `${placeOf(s)}. ${seatName(match, s, me)} — ${totals[s]}`,
          outcomes?.[s] ? h("span", { class: `outcome ${outcomes[s]}` }, ` · ${outcomeText(outcomes[s])}`) : null,
          winners.has(s) ? ` · ${t("winner")}` : forfeits.has(s) ? ` · ${t("forfeited")}` : "",
        ),
      ),
    ),
    h("a", { href: "#/" }, t("back_to_lobby")),
  );
}

/** The Verify deck panel for a verification state (see table.js's `runVerify`). */
export function verifyPanel(verify, run) {
  const out = h("div", { id: "verify-result", "aria-live": "polite" });
  if (verify?.running) out.append(h("p", {}, t("verifying")));
  else if (verify?.message) out.append(h("p", { class: "fail" }, verify.message));
  else if (verify?.result) {
    const result = verify.result;
    out.append(
      result.ok
        ? h("p", { class: "pass", id: "verify-pass" }, `✔ ${t("verify_pass")}`)
        : h(
            "div",
            { class: "fail", id: "verify-fail" },
            h("p", {}, h("strong", {}, `✘ ${t("verify_fail")}`)),
            h("ul", {}, result.problems.map((p) => h("li", { dataset: { check: p.check, hand: p.hand ?? "" } }, p.message))),
          ),
      h(
        "ul",
        { class: "checks" },
        result.checks.map((c) => h("li", { class: c.ok ? "ok" : "bad" }, `${c.ok ? "✔" : "✘"} ${c.label ?? c.check}: ${c.detail}`)),
      ),
      h("h3", {}, t("seeds_made_by")),
      h(
        "ul",
        { class: "seeds", id: "verify-seeds" },
        (result.seeds || []).map((m) =>
          h(
            "li",
            { dataset: { seat: m.seat, source: m.source } },
            `${t("seat")} ${m.seat}: ${t(`seed_${m.source}`)}${m.mine ? ` (${t("seed_mine")})` : ""}`,
          ),
        ),
      ),
    );
  }
  return h(
    "section",
    { class: "panel verify" },
    h("button", { type: "button", id: "verify-button", onclick: run, disabled: Boolean(verify?.running) }, t("verify")),
    out,
  );
}

// ------------------------------------------------------------------ traditional's calls and notes

const CALLS = ["redeal", "keep", "king", "pass"];
const CALL_LABELS = { redeal: "call_redeal", keep: "call_keep", king: "call_king", pass: "call_pass" };
const cardText = (code) => (code ? `${{ C: "♣", D: "♦", H: "♥", S: "♠" }[code[1]] || code[1]}${code[0] === "T" ? "10" : code[0]}` : "");

/** The calls the view offers me now (redeal, keep, king, pass). */
export const callsOf = (view) => (view.legal_moves || []).filter((m) => CALLS.includes(m));

/** A redeal round's or a King announcement's question, its rule in a line, and its buttons.
 * A Kupa declarer holding 13 hearts gets it in the play phase, beside the cards. */
export function callsPanel(view, send, busy) {
  const calls = callsOf(view);
  const announce = view.phase === "announce";
  const kupa = view.phase === "play";
  const title = announce ? "announce_title" : kupa ? "redeal_title_kupa" : "redeal_title";
  const explain = announce ? "announce_explain" : kupa ? "redeal_explain_kupa" : "redeal_explain";
  return h(
    "section",
    { class: "calls", id: "calls", dataset: { phase: view.phase } },
    h("h3", {}, t(title)),
    h("p", { class: "what" }, t(explain)),
    !announce && !calls.includes("redeal") ? h("p", { class: "muted" }, t("redeal_keep_only")) : null,
    h(
      "div",
      { class: "buttons" },
      calls.map((call) =>
        h(
          "button",
          {
            type: "button",
            id: `call-${call}`,
            class: call === "redeal" || call === "king" ? "primary" : "",
            dataset: { move: call },
            disabled: busy,
            onclick: () => send(call),
          },
          t(CALL_LABELS[call]),
        ),
      ),
    ),
  );
}

/** Who was asked what in a round, in order, and who is asked now. */
function roundLine(round, match, me, heading) {
  const name = (s) => seatName(match, s, me);
  const answers = (round.answers || []).map((a, i) => `${name(round.ask_order[i])}: ${t(`answered_${a}`) === `answered_${a}` ? a : t(`answered_${a}`)}`);
  return h(
    "p",
    { class: "round", id: "round" },
    h("strong", {}, t(heading)),
    ` · ${fmt(t("round_order"), { names: (round.ask_order || []).map(name).join(", ") })}`,
    answers.length ? ` · ${answers.join(", ")}` : "",
    round.asked !== null && round.asked !== undefined ? ` · ${fmt(t("round_now"), { name: name(round.asked) })}` : "",
  );
}

/** The notes a traditional table shows everyone (RULES-traditional.md §8): the first declarer
 * and why, a deal of this hand thrown away and the new deal's number, the round under way, and
 * the King announcer's counts. Nothing for the other rulesets. */
export function tableNotes(view, match, me, model) {
  const hand = model.hand;
  if (!view.first_declarer_reason && !(view.deals || []).length) return null;
  const name = (s) => seatName(match, s, me);
  const lines = [];
  if (hand === 0 && view.first_declarer_reason) {
    lines.push(
      h(
        "p",
        { class: "opener", id: "opener", dataset: { seat: view.first_declarer } },
        `♦ ${fmt(t("opener"), { name: name(view.first_declarer), card: cardText(view.options?.first_declarer_card) })}`,
      ),
    );
  }
  const thrown = (view.deals || []).filter((d) => d.hand === view.hand && d.ended !== "played").at(-1);
  if (thrown && view.phase !== "over") {
    const text =
      thrown.ended === "redealt"
        ? fmt(t("asked_redeal"), { name: name(thrown.asked_by), why: reasonText(thrown.reason), n: view.deal + 1 })
        : fmt(t("replayed_note"), { why: reasonText(thrown.reason), n: view.deal + 1 });
    lines.push(h("p", { class: "thrown", id: "thrown", dataset: { ended: thrown.ended, reason: thrown.reason || "", deal: view.deal } }, `↻ ${text}`));
  }
  if (view.redeal_round) lines.push(roundLine(view.redeal_round, match, me, "redeal_title"));
  if (view.announce) lines.push(roundLine(view.announce, match, me, "announce_round"));
  if (view.announcer) {
    const a = view.announcer;
    // The counts as far as the playback has got (the view's may be a trick ahead).
    const counts = { name: name(a.seat), won: model.taken[a.seat], run: model.runs[a.seat] };
    lines.push(h("p", { class: "announcer", id: "announcer", dataset: { seat: a.seat, ...counts } }, `♛ ${fmt(t("announcer"), counts)}`));
  }
  return lines.length ? h("div", { class: "table-notes", id: "table-notes", "aria-live": "polite" }, lines) : null;
}
