// The weekly board (#/weekly), the all-time ladder (#/ladder) and a profile (#/profile/<id>).
// Each board says what it is and how to get on it, also when it is empty; ratings with a `?`
// (provisional, fewer than 15 rated matches: docs/rating.md) are explained where they show.
// Every ruleset is rated apart: a picker chooses whose board, ladder and rating are shown.

import * as api from "./api.js";
import { app, h, fill, errorText, guestMarked } from "./dom.js";
import { lang, rulesetLabel, t } from "./i18n.js";
import { ratingChart } from "./chart.js";
import { loadSession } from "./store.js";
import { fmt } from "./strings-lists.js";

// ------------------------------------------------------------------ rating reads api.js lacks

let ratingBase = null;

/** GET on the rating service (its public URL or the page's proxy, as config.json says), for
 * the reads api.js has no function for: a player's archived matches, one archived match. */
export async function ratingGet(path) {
  ratingBase ??= (await api.loadConfig()).rating_api;
  let response;
  try {
    response = await fetch(ratingBase + path, { headers: { Accept: "application/json" }, cache: "no-store" });
  } catch (error) {
    throw new api.ApiError(0, { code: "network", detail: String(error.message || error) });
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new api.ApiError(response.status, data);
  return data;
}

const playerMatches = (id) => ratingGet(`/players/${encodeURIComponent(id)}/matches?page=1&page_size=10`);

// ------------------------------------------------------------------ the ruleset picker

/** The rated rulesets, as king_message.RATED_RULESETS lists them (tests/web/test_boards.py
 * compares the two); the rating service takes one with every read, `standard` by default. */
export const RATED_RULESETS = ["standard", "classic20", "traditional", "konturlu", "international"];

// The ruleset the boards and profiles show; the choice holds while the page is open.
let shownRuleset = "standard";

const withRuleset = (path) => `${path}${path.includes("?") ? "&" : "?"}ruleset=${encodeURIComponent(shownRuleset)}`;

/** A <select> of the rated rulesets; a change shows the page again for the chosen one. */
function rulesetPicker(redraw) {
  const select = h(
    "select",
    { id: "ruleset-picker", name: "ruleset" },
    RATED_RULESETS.map((name) => h("option", { value: name, selected: name === shownRuleset }, rulesetLabel(name))),
  );
  select.addEventListener("change", () => {
    shownRuleset = select.value;
    redraw();
  });
  return h("p", { class: "ruleset-pick" }, h("label", { for: "ruleset-picker" }, `${t("ruleset")}: `), select);
}

// ------------------------------------------------------------------ boards and profiles

function boardTable(items, columns) {
  return h(
    "div",
    { class: "scroll" },
    h(
      "table",
      { class: "board-table" },
      h("thead", {}, h("tr", {}, columns.map(([label]) => h("th", {}, label)))),
      h("tbody", {}, items.map((item) => h("tr", {}, columns.map(([, cell]) => h("td", {}, cell(item)))))),
    ),
  );
}

/** What an empty board shows instead of bare headers: that it is empty, and how to get on it. */
function emptyBoard(id, emptyKey, howKey) {
  return h(
    "div",
    { class: "panel empty-board", id },
    h("p", {}, h("strong", {}, t(emptyKey))),
    h("p", {}, t(howKey)),
    h("p", { class: "muted" }, t("computer_unrated")),
    h("p", {}, h("a", { href: "#/", class: "button-link" }, t("go_play"))),
  );
}

const playerLink = (item) =>
  h("a", { href: `#/profile/${encodeURIComponent(item.player_id)}` }, guestMarked(item.name || item.player_id, item.is_guest));

export async function weeklyPage() {
  fill(app, h("h1", {}, t("weekly")), h("p", {}, "…"));
  try {
    const [board, reset] = await Promise.all([
      ratingGet(withRuleset("/weekly/current?page=1")),
      api.weeklyReset().catch(() => null),
    ]);
    const items = board.items || [];
    fill(
      app,
      h("h1", {}, `${t("weekly")} ${board.week}`),
      rulesetPicker(weeklyPage),
      h("p", { class: "about", id: "weekly-about" }, t("weekly_about")),
      reset ? h("p", { class: "muted" }, `${t("week_resets")}: ${new Date(reset.resets_at).toLocaleString(lang())}`) : null,
      items.length
        ? [
            boardTable(items, [
              [t("rank"), (i) => i.rank],
              [t("player"), playerLink],
              [t("score"), (i) => Number(i.score).toFixed(3)],
              [t("matches"), (i) => i.matches],
            ]),
            h("p", { class: "muted note" }, t("weekly_how")),
          ]
        : emptyBoard("weekly-empty", "weekly_empty", "weekly_how"),
    );
  } catch (error) {
    fill(app, h("h1", {}, t("weekly")), h("p", { class: "error" }, `${t("unavailable")}: ${errorText(error)}`));
  }
}

export async function ladderPage() {
  fill(app, h("h1", {}, t("ladder")), h("p", {}, "…"));
  try {
    const page = await ratingGet(withRuleset("/ladder?page=1"));
    const items = page.items || [];
    fill(
      app,
      h("h1", {}, t("ladder")),
      rulesetPicker(ladderPage),
      h("p", { class: "about", id: "ladder-about" }, t("ladder_about")),
      items.length
        ? boardTable(items, [
            [t("rank"), (i) => i.rank],
            [t("player"), playerLink],
            [t("rating"), (i) => i.display ?? Math.round(i.rating)],
            [t("matches"), (i) => i.rated_matches],
          ])
        : emptyBoard("ladder-empty", "ladder_empty", "ladder_how"),
      h("p", { class: "muted note", id: "provisional-note" }, t("provisional_explained")),
    );
  } catch (error) {
    fill(app, h("h1", {}, t("ladder")), h("p", { class: "error" }, `${t("unavailable")}: ${errorText(error)}`));
  }
}

/** The rating line of a profile, and what its `?` means. */
function ratingPanel(player) {
  const explained = player.provisional
    ? [fmt(t("provisional_count"), { n: player.rated_matches }), " ", t("provisional_explained")]
    : [t("rating_settled"), " ", t("rating_start")];
  return h(
    "section",
    { class: "panel rating-panel" },
    h("p", { class: "rating-line" }, `${t("rating")}: `, h("strong", { id: "rating" }, player.display), ` · ${t("matches")}: ${player.rated_matches}`),
    h("p", { class: "muted", id: "rating-explained" }, explained),
    h("p", { class: "muted", id: "computer-unrated" }, t("computer_unrated")),
    (player.ratings || []).length
      ? h(
          "p",
          { class: "muted", id: "all-ratings" },
          `${t("ratings_by_ruleset")}: `,
          player.ratings.map((r) => `${rulesetLabel(r.ruleset)} ${r.display}`).join(" · "),
        )
      : null,
  );
}

/** One archived match of the player (the rating service's shape) with its replay link. */
function archivedRow(item, playerId) {
  const others = (item.players || [])
    .filter((p) => p.player_id !== playerId)
    .map((p) => guestMarked(p.name || `${t("seat")} ${p.seat + 1}`, p.is_guest));
  const level = item.mode === "computer" ? t("computer_table") : t("live_table");
  const result = [
    item.place ? fmt(t("place_n"), { n: item.place }) : null,
    item.total !== undefined && item.total !== null ? `${t("total")} ${item.total}` : null,
    item.forfeited ? t("you_forfeited_short") : null,
    item.rated === undefined ? null : item.rated ? t("rated_tag") : t("unrated_tag"),
    item.ended_at ? new Date(item.ended_at).toLocaleDateString(lang()) : null,
  ].filter(Boolean);
  return h(
    "li",
    { class: "match-row", dataset: { match: item.match_id } },
    h("span", { class: "row-main" }, h("span", { class: "row-who" }, others.join(", ") || "—")),
    h("span", { class: "row-what" }, `${level} · ${item.ruleset} · ${fmt(t("hands_n"), { n: item.hands })}`),
    h("span", { class: "row-state" }, result.join(" · ")),
    h("a", { href: `#/history/${item.match_id}`, class: "row-link replay-link" }, t("replay")),
  );
}

/** The player's finished matches: the rating service's archive; for one's own profile, the
 * game service's recent list when the archive has none (or cannot be reached). */
async function matchesPanel(playerId) {
  let items = await playerMatches(playerId).then((page) => page.items || [], () => []);
  const session = loadSession();
  if (!items.length && session?.player_id === playerId) {
    const mine = await api.myMatches().catch(() => null);
    items = (mine?.recent || []).map((m) => ({
      ...m,
      players: (m.seats || []).filter(Boolean),
      forfeited: m.seats?.[m.seat]?.forfeited,
    }));
  }
  return h(
    "section",
    { class: "panel", id: "profile-matches" },
    h("h2", {}, t("profile_matches")),
    items.length
      ? h("ul", { class: "match-rows" }, items.map((item) => archivedRow(item, playerId)))
      : h("p", { class: "empty" }, t("profile_no_matches")),
  );
}

export async function profilePage(playerId) {
  fill(app, h("h1", {}, t("profile")), h("p", {}, "…"));
  const matches = matchesPanel(playerId);
  try {
    const id = encodeURIComponent(playerId);
    const [player, history] = await Promise.all([
      ratingGet(withRuleset(`/players/${id}/rating`)),
      ratingGet(withRuleset(`/players/${id}/rating-history?page=1&page_size=100`)),
    ]);
    const items = history.items || [];
    fill(
      app,
      h("h1", {}, guestMarked(player.name || playerId, player.is_guest)),
      rulesetPicker(() => profilePage(playerId)),
      h(
        "div",
        { class: "profile-grid" },
        h(
          "div",
          {},
          ratingPanel(player),
          h("section", { class: "panel" }, h("h2", {}, t("rating_history")), items.length ? ratingChart(items) : h("p", {}, t("no_history"))),
        ),
        await matches,
      ),
    );
  } catch (error) {
    const session = loadSession();
    if (error.code === "player_not_found") {
      // Nobody has a rating row before their first finished match: say what they will start at.
      const name = session?.player_id === playerId ? guestMarked(session.name, session.guest) : playerId;
      fill(
        app,
        h("h1", {}, name),
        h(
          "div",
          { class: "profile-grid" },
          h(
            "section",
            { class: "panel rating-panel" },
            h("p", { id: "rating-explained" }, t("profile_new")),
            h("p", { class: "muted" }, t("provisional_explained")),
            h("p", { class: "muted", id: "computer-unrated" }, t("computer_unrated")),
          ),
          await matches,
        ),
      );
      return;
    }
    fill(app, h("h1", {}, t("profile")), h("p", { class: "error" }, `${t("unavailable")}: ${errorText(error)}`), await matches);
  }
}
