// The contract picker and the declarers' picks, as on a paper score sheet.
//
// What is offered is exactly the view's `allowed_contracts`. The rest of what the picker says
// comes from data too: each contract's total from `GET /v1/rules` (the per-card or per-trick
// value is the total over the number of scoring cards or tricks), the quotas of the ruleset
// from the same answer, and the picks made so far from the view's score sheet (its rows name
// each hand's declarer and contract). Paper sheets mark a penalty pick ▲ (△ still to pick) and
// a Koz pick ● (○ still to pick); the page does the same.

import * as api from "./api.js";
import { suitIcon, suitName } from "./cards.js";
import { h } from "./dom.js";
import { CONTRACT_NAMES, t } from "./i18n.js";

const PENALTIES = ["tricks", "hearts", "queens", "boys", "last_two", "king_of_hearts"];
// How many tricks or cards a contract's total is spread over (RULES.md §1).
const UNITS = { tricks: 13, hearts: 13, queens: 4, boys: 8, last_two: 2, king_of_hearts: 1, trump: 13 };
// Used only until /v1/rules answers (the same numbers, RULES.md §1).
const TOTALS = { tricks: -650, hearts: -390, queens: -400, boys: -480, last_two: -360, king_of_hearts: -320, trump: 650 };

let rulesData = null;
let rulesAsked = null;

/** /v1/rules, read once per page load; `then` runs when it arrives. */
export function loadRules(then) {
  if (rulesData) return rulesData;
  if (!rulesAsked && typeof api.rules === "function") {
    rulesAsked = api.rules().then(
      (data) => {
        rulesData = data;
        then?.();
      },
      () => {},
    );
  }
  return null;
}

function total(contract) {
  const row = rulesData?.contracts?.find((c) => c.code === contract);
  return row ? row.total : TOTALS[contract];
}

/** "−100 a queen" / "kız başına −100": the value of one scoring card or trick. */
export function contractValue(contract) {
  const each = Math.round(total(contract) / UNITS[contract]);
  const sign = each > 0 ? "+" : "−";
  return `${sign}${Math.abs(each)} ${t(`per_${contract}`)}`;
}

function quotas(view) {
  const ruleset = rulesData?.rulesets?.find((r) => r.name === view.ruleset);
  return ruleset?.quotas?.[String(view.hands_in_match)] || null;
}

/** Picks made so far: per seat (penalties, Koz), per contract, per Koz suit. */
export function picksMade(view) {
  const seats = [0, 1, 2, 3].map(() => ({ penalties: 0, trump: 0 }));
  const counts = {};
  const suits = { C: 0, D: 0, H: 0, S: 0 };
  const rows = [...(view.score_sheet || [])];
  // The hand under way counts once its contract is chosen (it is not on the sheet yet).
  if (view.contract && view.phase !== "over" && !rows.some((r) => r.hand === view.hand)) {
    rows.push({ hand: view.hand, declarer: view.declarer, contract: view.contract, trump: view.trump });
  }
  for (const row of rows) {
    counts[row.contract] = (counts[row.contract] || 0) + 1;
    if (row.contract === "trump") {
      seats[row.declarer].trump += 1;
      if (row.trump) suits[row.trump] += 1;
    } else seats[row.declarer].penalties += 1;
  }
  return { seats, counts, suits };
}

/** A seat's marks: ▲ per penalty picked, △ per penalty left; ● / ○ for Koz. */
export function pickMarks(view, seat) {
  const q = quotas(view)?.per_player;
  let made = picksMade(view).seats[seat];
  let penaltiesLeft = q ? Math.max(0, q.penalties - made.penalties) : 0;
  let trumpLeft = q ? Math.max(0, q.trump - made.trump) : 0;
  // traditional's view counts the picks itself (a redealt deal uses none), so take them from it.
  const left = view.picks_left?.[seat];
  if (left && q) {
    penaltiesLeft = left.penalty;
    trumpLeft = left.trump;
    made = { penalties: Math.max(0, q.penalties - left.penalty), trump: Math.max(0, q.trump - left.trump) };
  }
  return h(
    "span",
    {
      class: "picks",
      dataset: { seat, penalties: made.penalties, trump: made.trump, penaltiesLeft, trumpLeft },
      title: t("picks_title"),
    },
    h("span", { class: "tri" }, "▲".repeat(made.penalties) + "△".repeat(penaltiesLeft)),
    h("span", { class: "dot" }, "●".repeat(made.trump) + "○".repeat(trumpLeft)),
  );
}

/** Why a contract (or a Koz suit) is not offered to `seat` now. */
function reasonFor(view, seat, contract, suit) {
  const made = picksMade(view);
  const q = quotas(view);
  const fill = (text, n) => text.replace("{n}", n);
  const left = view.picks_left?.[seat];
  if (left && q?.per_player) {
    // traditional (RULES-traditional.md §1.8): the view's own counts say which rule holds.
    if (contract === "trump") {
      if (left.trump <= 0) return fill(t("why_trump_quota"), q.per_player.trump);
      if ((view.deals || []).some((d) => d.hand === view.hand && d.ended === "redealt")) {
        return t("why_penalty_after_redeal");
      }
      return fill(t("why_koz_not_yet"), q.first_hands_penalties ?? 4);
    }
    if (left.penalty <= 0) return fill(t("why_penalty_quota"), q.per_player.penalties);
    return fill(t("why_cap_n"), view.contract_counts?.[contract] ?? q.cap_per_penalty_contract);
  }
  if (q?.per_player) {
    if (contract === "trump") return fill(t("why_trump_quota"), q.per_player.trump);
    if (made.seats[seat].penalties >= q.per_player.penalties) {
      return fill(t("why_penalty_quota"), q.per_player.penalties);
    }
    return fill(t("why_cap"), q.cap_per_penalty_contract);
  }
  if (q?.per_match) {
    if (contract === "trump") return fill(t("why_suit_quota"), q.per_match.trump_per_suit);
    return fill(t("why_match_quota"), q.per_match.each_penalty);
  }
  const count = contract === "trump" ? made.suits[suit] : made.counts[contract] || 0;
  return fill(t("why_played"), count);
}

function choice(c, send) {
  const koz = c.contract === "trump";
  return h(
    "button",
    {
      type: "button",
      class: `contract${koz ? ` suit-${c.trump}` : ""}`,
      dataset: { move: c.move },
      "aria-label": koz ? `${CONTRACT_NAMES.trump} ${suitName(c.trump)}` : undefined,
      onclick: () => send(c.move),
    },
    koz ? [suitIcon(c.trump), h("span", { class: "name" }, suitName(c.trump))] : h("span", { class: "name" }, CONTRACT_NAMES[c.contract]),
    koz ? null : h("span", { class: "what" }, t(`about_${c.contract}`)),
    koz ? null : h("span", { class: "value" }, contractValue(c.contract)),
  );
}

/** The picker: the allowed contracts explained, Koz by suit, and why the others are not offered. */
export function contractPicker(view, me, send) {
  const allowed = view.allowed_contracts || [];
  const penalty = allowed.filter((c) => c.contract !== "trump");
  const koz = allowed.filter((c) => c.contract === "trump");
  const offered = new Set(penalty.map((c) => c.contract));
  const kozSuits = new Set(koz.map((c) => c.trump));
  const missing = PENALTIES.filter((c) => !offered.has(c)).map((c) => ({ contract: c, suit: null }));
  for (const suit of ["S", "H", "C", "D"]) if (!kozSuits.has(suit)) missing.push({ contract: "trump", suit });
  // All four Koz suits missing for the same reason: one line, not four.
  const kozGone = koz.length === 0;
  const lines = missing.filter((m) => !(kozGone && m.contract === "trump" && m.suit !== "S"));
  return h(
    "section",
    { class: "picker", id: "contract-picker" },
    h("h3", {}, t("choose_contract")),
    h("p", { class: "my-picks", title: t("picks_title") }, `${t("your_picks")}: `, pickMarks(view, me)),
    penalty.length ? h("div", { class: "choices" }, penalty.map((c) => choice(c, send))) : null,
    koz.length
      ? h(
          "div",
          { class: "koz" },
          h("div", { class: "koz-head" }, h("strong", {}, CONTRACT_NAMES.trump), ` · ${t("about_trump")} · `, h("span", { class: "value" }, contractValue("trump"))),
          h("div", { class: "choices suits" }, koz.map((c) => choice(c, send))),
        )
      : null,
    lines.length
      ? h(
          "ul",
          { class: "unavailable", "aria-label": t("not_offered") },
          lines.map((m) =>
            h(
              "li",
              { dataset: { contract: m.contract, suit: m.suit || "" } },
              h("span", { class: "name" }, m.contract === "trump" ? (kozGone ? CONTRACT_NAMES.trump : [CONTRACT_NAMES.trump, " ", suitIcon(m.suit)]) : CONTRACT_NAMES[m.contract]),
              " — ",
              reasonFor(view, me, m.contract, m.suit),
            ),
          ),
        )
      : null,
  );
}
