// The weekly board (#/weekly), the all-time ladder (#/ladder) and a profile (#/profile/<id>).

import * as api from "./api.js";
import { app, h, fill, errorText, guestMarked } from "./dom.js";
import { lang, t } from "./i18n.js";
import { ratingChart } from "./chart.js";

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

const playerLink = (item) =>
  h("a", { href: `#/profile/${encodeURIComponent(item.player_id)}` }, guestMarked(item.name || item.player_id, item.is_guest));

export async function weeklyPage() {
  fill(app, h("h1", {}, t("weekly")), h("p", {}, "…"));
  try {
    const [board, reset] = await Promise.all([api.weeklyBoard(), api.weeklyReset().catch(() => null)]);
    fill(app, 
      h("h1", {}, `${t("weekly")} ${board.week}`),
      reset ? h("p", {}, `${t("week_resets")}: ${new Date(reset.resets_at).toLocaleString(lang())}`) : null,
      boardTable(board.items || [], [
        [t("rank"), (i) => i.rank],
        [t("player"), playerLink],
        [t("score"), (i) => Number(i.score).toFixed(3)],
        [t("matches"), (i) => i.matches],
      ]),
    );
  } catch (error) {
    fill(app, h("h1", {}, t("weekly")), h("p", { class: "error" }, `${t("unavailable")}: ${errorText(error)}`));
  }
}

export async function ladderPage() {
  fill(app, h("h1", {}, t("ladder")), h("p", {}, "…"));
  try {
    const page = await api.ladder();
    fill(app, 
      h("h1", {}, t("ladder")),
      boardTable(page.items || [], [
        [t("rank"), (i) => i.rank],
        [t("player"), playerLink],
        [t("rating"), (i) => i.display ?? Math.round(i.rating)],
        [t("matches"), (i) => i.rated_matches],
      ]),
    );
  } catch (error) {
    fill(app, h("h1", {}, t("ladder")), h("p", { class: "error" }, `${t("unavailable")}: ${errorText(error)}`));
  }
}

export async function profilePage(playerId) {
  fill(app, h("h1", {}, t("profile")), h("p", {}, "…"));
  try {
    const [player, history] = await Promise.all([api.playerRating(playerId), api.ratingHistory(playerId)]);
    const items = history.items || [];
    fill(app, 
      h("h1", {}, guestMarked(player.name || playerId, player.is_guest)),
      h("p", {}, `${t("rating")}: `, h("strong", { id: "rating" }, player.display), ` · ${t("matches")}: ${player.rated_matches}`),
      h("h2", {}, t("rating_history")),
      items.length ? ratingChart(items) : h("p", {}, t("no_history")),
    );
  } catch (error) {
    fill(app, h("h1", {}, t("profile")), h("p", { class: "error" }, `${t("unavailable")}: ${errorText(error)}`));
  }
}
