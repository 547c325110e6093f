// The guest / login form, the table-creation form and the lobby (#/).

import * as api from "./api.js";
import { app, h, fill, toast, errorText, guestMarked } from "./dom.js";
import { levelLabel, rulesetLabel, t } from "./i18n.js";
import { quickMatchPanel } from "./quickmatch.js";
import { beginRecord, lastMatch, loadRecord, loadSession, newClientSeed, saveRecord, saveSession, setLastMatch } from "./store.js";
import { route } from "./app.js";

// ------------------------------------------------------------------ guest / login and lobby

function signInForm() {
  const guestName = h("input", {
    id: "guest-name", name: "name", autocomplete: "nickname", maxlength: 24, placeholder: t("name_placeholder"),
  });
  const loginName = h("input", { id: "login-name", name: "name", autocomplete: "username", maxlength: 40 });
  const password = h("input", { id: "login-password", name: "password", type: "password", autocomplete: "current-password" });
  const guestError = h("p", { class: "form-error", id: "guest-error", role: "alert", hidden: true });
  const loginError = h("p", { class: "form-error", id: "login-error", role: "alert", hidden: true });
  const fields = { name: [guestName, loginName], password: [password] };
  // The service's own words, field by field (errorText translates the messages it knows).
  const showError = (box, error) => {
    for (const input of [guestName, loginName, password]) input.removeAttribute("aria-invalid");
    for (const field of Object.keys(error?.body?.errors || {})) {
      for (const input of fields[field] || []) input.setAttribute("aria-invalid", "true");
    }
    box.textContent = errorText(error);
    box.hidden = false;
  };
  const start = async (promise, box) => {
    guestError.hidden = loginError.hidden = true;
    try {
      const session = await promise;
      saveSession({
        token: session.token,
        player_id: session.account.id,
        name: session.account.name,
        guest: Boolean(session.account.is_guest),
      });
      route();
    } catch (error) {
      showError(box, error);
    }
  };
  return h(
    "section",
    { class: "signin" },
    h(
      "form",
      { class: "panel", id: "guest-form", onsubmit: (e) => (e.preventDefault(), start(api.guest(guestName.value.trim()), guestError)) },
      h("h2", {}, t("guest")),
      h("p", { class: "muted" }, t("guest_intro")),
      h("label", { for: "guest-name" }, t("name")),
      guestName,
      h("button", { type: "submit", id: "guest-button", class: "primary" }, t("guest")),
      guestError,
    ),
    h(
      "form",
      {
        class: "panel",
        id: "login-form",
        onsubmit: (e) => (e.preventDefault(), start(api.login(loginName.value.trim(), password.value), loginError)),
      },
      h("h2", {}, t("login")),
      h("p", { class: "muted" }, t("login_intro")),
      h("label", { for: "login-name" }, t("name")),
      loginName,
      h("label", { for: "login-password" }, t("password")),
      password,
      h(
        "div",
        { class: "buttons" },
        h("button", { type: "submit", id: "login-button", class: "primary" }, t("login")),
        h(
          "button",
          {
            type: "button",
            id: "signup-button",
            onclick: () => start(api.signup(loginName.value.trim(), password.value), loginError),
          },
          t("signup"),
        ),
      ),
      loginError,
    ),
  );
}

/** Join a live table: its commitment is stored before this device draws its seed. */
async function sitDown(table, seat) {
  const matchId = table.match_id || table.id;
  const record = beginRecord(matchId, table.server_commit, newClientSeed());
  const joined = await api.joinTable(matchId, record.seed, seat);
  const stored = loadRecord(matchId);
  stored.seat = joined.seat;
  saveRecord(matchId, stored);
  setLastMatch(matchId);
  location.hash = `#/match/${matchId}`;
}

/** The table-creation form; its modes, rulesets and lengths are those of `GET /v1/rules`. */
function createForm() {
  const mode = h("select", { id: "create-mode", name: "mode", disabled: true });
  const ruleset = h("select", { id: "create-ruleset", name: "ruleset", disabled: true });
  const hands = h("select", { id: "create-hands", name: "hands", disabled: true });
  const button = h("button", { type: "submit", id: "create-button", class: "primary", disabled: true }, t("create"));
  const note = h("p", { class: "muted", id: "create-note" }, t("loading"));
  let lengths = {};
  // The lengths of the chosen ruleset; the chosen length stays when the new ruleset has it.
  const showLengths = () => {
    const keep = hands.value;
    const allowed = lengths[ruleset.value] || [];
    fill(hands, allowed.map((n) => h("option", { value: n }, n)));
    if (allowed.map(String).includes(keep)) hands.value = keep;
  };
  ruleset.addEventListener("change", showLengths);
  api.rules().then(
    (rules) => {
      const modes = (rules.modes || []).map((m) => m.mode);
      const options = [];
      if (modes.includes("computer")) {
        for (const level of rules.bot_levels || []) {
          options.push(h("option", { value: `computer:${level}` }, `${t("computer")} · ${levelLabel(level)}`));
        }
      }
      if (modes.includes("live")) options.push(h("option", { value: "live" }, t("live")));
      fill(mode, options);
      lengths = Object.fromEntries((rules.rulesets || []).map((r) => [r.name, r.hands || []]));
      fill(ruleset, (rules.rulesets || []).map((r) => h("option", { value: r.name }, rulesetLabel(r.name))));
      showLengths();
      for (const el of [mode, ruleset, hands, button]) el.disabled = false;
      note.remove();
    },
    (error) => (note.textContent = `${t("rules_unavailable")} ${errorText(error)}`),
  );
  const submit = async (event) => {
    event.preventDefault();
    const [kind, level] = mode.value.split(":");
    // Two steps, as KINGDEAL-v1 wants (creation seats nobody): create the table, store its
    // commitment, and only then make our seed and take the seat with it.
    const options = { mode: kind, hands: Number(hands.value), ruleset: ruleset.value, seat: 0 };
    if (level) options.level = level;
    try {
      const table = await api.createTable(options);
      const matchId = table.match_id || table.id;
      const seed = newClientSeed();
      const record = beginRecord(matchId, table.server_commit, seed);
      saveRecord(matchId, record);
      await api.joinTable(matchId, seed, 0);
      record.seat = 0;
      saveRecord(matchId, record);
      setLastMatch(matchId);
      location.hash = `#/match/${matchId}`;
    } catch (error) {
      toast(errorText(error));
    }
  };
  return h(
    "form",
    { class: "panel create", id: "create-form", onsubmit: submit },
    h("h2", {}, t("create_table")),
    h("label", {}, t("mode"), mode),
    h("label", {}, t("ruleset"), ruleset),
    h("label", {}, t("hands"), hands),
    note,
    button,
  );
}

export async function lobbyPage() {
  const session = loadSession();
  if (!session) {
    fill(app, h("h1", {}, t("title")), signInForm());
    return;
  }
  const list = h("div", { class: "tables", id: "tables" }, "…");
  const mine = h("div", { id: "my-matches" });
  const resume = lastMatch();
  fill(app, 
    h("p", { class: "who" }, `${t("signed_in_as")} `, h("strong", {}, guestMarked(session.name || session.player_id, session.guest))),
    mine,
    h("div", { class: "lobby" }, quickMatchPanel(h, toast), createForm(), h("section", { class: "panel" }, h("h2", {}, t("open_tables")), list)),
  );
  api
    .myMatches()
    .then((data) => {
      const active = data?.active || [];
      fill(
        mine,
        active.length
          ? h(
              "section",
              { class: "panel" },
              h("h2", {}, t("my_matches")),
              h(
                "ul",
                {},
                active.map((m) =>
                  h(
                    "li",
                    {},
                    h(
                      "a",
                      { href: `#/match/${m.match_id}`, class: m.my_turn ? "my-turn" : "" },
                      `${m.mode === "computer" ? t("computer_table") : t("live_table")} · ${m.hands} · ${m.status}${m.my_turn ? ` · ${t("your_turn")}` : ""}`,
                    ),
                  ),
                ),
              ),
            )
          : resume
            ? h("p", {}, h("a", { href: `#/match/${resume}`, id: "resume" }, `▶ ${resume.slice(0, 8)}`))
            : null,
      );
    })
    .catch((error) => {
      if (error.status === 401) {
        saveSession(null);
        route();
      }
    });
  try {
    const tables = await api.openTables();
    fill(list, 
      tables.length
        ? h(
            "ul",
            {},
            tables.map((table) => {
              const taken = (table.seats || []).filter(Boolean).length;
              return h(
                "li",
                { dataset: { match: table.match_id || table.id } },
                `${table.ruleset} · ${table.hands} ${t("hands").toLowerCase()} · ${taken}/4 `,
                h(
                  "button",
                  {
                    type: "button",
                    onclick: () => sitDown(table, null).catch((e) => toast(errorText(e))),
                  },
                  t("join"),
                ),
              );
            }),
          )
        : t("no_tables"),
    );
  } catch (error) {
    fill(list, `${t("unavailable")}: ${errorText(error)}`);
  }
}
