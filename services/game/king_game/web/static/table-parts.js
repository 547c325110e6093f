// Pieces of the table page that only draw: the hand's summary, the last trick, the final
// standings and the Verify deck panel (table.js owns the state and passes it in).

import { cardElement } from "./cards.js";
import { h, seatName } from "./dom.js";
import { contractLabel, t } from "./i18n.js";

const fill = (text, n) => text.replace("{n}", n);
export const POSITIONS = ["bottom", "left", "top", "right"];
export const positionOf = (seat, me) => POSITIONS[(seat - me + 4) % 4];

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
  return h(
    "section",
    { class: "panel standings", id: "standings" },
    h("h2", {}, t("standings")),
    h(
      "ol",
      {},
      order.map((s) =>
        h(
          "li",
          { class: [s === me ? "me" : "", winners.has(s) ? "winner" : ""].join(" ").trim(), dataset: { place: placeOf(s) } },
          `${placeOf(s)}. ${seatName(match, s, me)} — ${totals[s]}`,
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
