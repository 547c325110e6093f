// The reference web client: a single page with hash routes.
//   #/            lobby (or the guest / login form)
//   #/match/<id>  the table: play, clocks, score sheet, standings, Verify deck
//   #/weekly      the weekly board      #/ladder  the all-time ladder
//   #/profile/<player id>               rating and rating-history chart
//   #/history/<match id>                a finished match replayed trick by trick

import * as api from "./api.js";
import { ladderPage, profilePage, weeklyPage } from "./boards.js";
import { fill, h } from "./dom.js";
import { historyPage } from "./history.js";
import { lang, setLang, t } from "./i18n.js";
import { lobbyPage } from "./lobby.js";
import { loadSession, saveSession, setLastMatch } from "./store.js";
import { matchPage } from "./table.js";

let teardown = () => {};

// ------------------------------------------------------------------ shell and routing

function renderNav() {
  const session = loadSession();
  const nav = document.getElementById("nav");
  const links = [
    h("a", { href: "#/" }, t("lobby")),
    h("a", { href: "#/weekly" }, t("weekly")),
    h("a", { href: "#/ladder" }, t("ladder")),
    session ? h("a", { href: `#/profile/${encodeURIComponent(session.player_id)}` }, t("profile")) : null,
    h(
      "button",
      { type: "button", class: "link", id: "lang", onclick: () => (setLang(lang() === "tr" ? "en" : "tr"), route()) },
      t("language"),
    ),
    session ? h("button", { type: "button", class: "link", id: "logout", onclick: logout }, t("logout")) : null,
  ];
  fill(nav, links);
  document.title = t("title");
}

/**
 * Log out from any page: the current page stops first (a table's polls would otherwise ask
 * again without a token), the token is revoked (its request already carries it), and the
 * landing page opens.
 */
function logout() {
  api.logout().catch(() => {});
  teardown();
  teardown = () => {};
  saveSession(null);
  setLastMatch(null);
  if ((location.hash || "#/") === "#/") route();
  else location.hash = "#/";
}

export function route() {
  teardown();
  teardown = () => {};
  document.getElementById("toast").hidden = true; // a message belongs to the page it came from
  document.documentElement.lang = lang();
  renderNav();
  const [, page, arg] = (location.hash || "#/").split("/");
  // A table needs a session: without one, the landing page (and its sign-in form).
  if (page === "match" && !loadSession()) {
    history.replaceState(null, "", "#/");
    lobbyPage();
  } else if (page === "match" && arg) teardown = matchPage(arg) || (() => {});
  else if (page === "weekly") weeklyPage();
  else if (page === "ladder") ladderPage();
  else if (page === "profile" && arg) profilePage(decodeURIComponent(arg));
  else if (page === "history" && arg) teardown = historyPage(arg) || (() => {});
  else teardown = lobbyPage() || (() => {});
}

// ------------------------------------------------------------------ start

window.addEventListener("hashchange", route);
await api.loadConfig();
route();
