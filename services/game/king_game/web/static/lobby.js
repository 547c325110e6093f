// The guest / login form, the table-creation form and the lobby (#/).

import * as api from "./api.js";
import { app, h, fill, toast, errorText, guestMarked } from "./dom.js";
import { lang, levelLabel, rulesetLabel, t } from "./i18n.js";
import { fmt } from "./strings-lists.js";
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
  const optionBox = h("fieldset", { class: "options", id: "create-options", hidden: true });
  let lengths = {};
  let optionSpecs = {};
  // The lengths of the chosen ruleset; the chosen length stays when the new ruleset has it.
  const showLengths = () => {
    const keep = hands.value;
    const allowed = lengths[ruleset.value] || [];
    fill(hands, allowed.map((n) => h("option", { value: n }, n)));
    if (allowed.map(String).includes(keep)) hands.value = keep;
  };
  // The chosen ruleset's options (GET /v1/rules: each with its values and default), one select
  // each; a value is sent as the JSON value it stands for (true, 3, "2D").
  const showOptions = () => {
    const specs = optionSpecs[ruleset.value] || [];
    const label = (key, fallback) => (t(key) === key ? fallback : t(key));
    fill(
      optionBox,
      specs.length ? h("legend", {}, t("table_options")) : null,
      specs.map((spec) =>
        h(
          "label",
          { title: spec.description || "" },
          label(`option_${spec.name}`, spec.description || spec.name),
          h(
            "select",
            { id: `create-option-${spec.name}`, name: spec.name, dataset: { option: spec.name } },
            spec.values.map((value, i) =>
              h(
                "option",
                { value: String(i), selected: value === spec.default },
                label(`option_${spec.name}_${value}`, label(`option_${value}`, String(value))),
              ),
            ),
          ),
        ),
      ),
    );
    optionBox.hidden = !specs.length;
  };
  const chosenOptions = () => {
    const specs = optionSpecs[ruleset.value] || [];
    const chosen = {};
    for (const spec of specs) {
      const select = optionBox.querySelector(`[data-option="${spec.name}"]`);
      if (select) chosen[spec.name] = spec.values[Number(select.value)];
    }
    return chosen;
  };
  ruleset.addEventListener("change", showLengths);
  ruleset.addEventListener("change", showOptions);
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
      optionSpecs = Object.fromEntries((rules.rulesets || []).map((r) => [r.name, r.options || []]));
      fill(ruleset, (rules.rulesets || []).map((r) => h("option", { value: r.name }, rulesetLabel(r.name))));
      showLengths();
      showOptions();
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
    const chosen = chosenOptions();
    if (Object.keys(chosen).length) options.options = chosen;
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
    optionBox,
    note,
    button,
  );
}

// ------------------------------------------------------------------ play now, my matches, open tables

// The lobby re-reads the open tables and the caller's matches this often while it is shown.
// GET /v1/tables sends no ETag, so each answer is compared with the last and redrawn on change.
const POLL_MS = 3000;
const RECENT_SHOWN = 5;

/** "Play now": an 8-hand standard match against easy computer players, started at once. It
 * seats the caller the fair way (commitment stored, then the seed made and sent with the seat). */
async function playNow() {
  const table = await api.createTable({ mode: "computer", level: "easy", hands: 8, ruleset: "standard", seat: 0 });
  const matchId = table.match_id || table.id;
  const record = beginRecord(matchId, table.server_commit, newClientSeed());
  await api.joinTable(matchId, record.seed, 0);
  record.seat = 0;
  saveRecord(matchId, record);
  setLastMatch(matchId);
  location.hash = `#/match/${matchId}`;
}

function playNowPanel() {
  const button = h("button", { type: "button", id: "play-now", class: "primary" }, t("play_now_button"));
  button.addEventListener("click", () => {
    button.disabled = true;
    playNow().catch((error) => {
      button.disabled = false;
      toast(errorText(error));
    });
  });
  return h(
    "section",
    { class: "panel play-now", id: "play-now-panel" },
    h("h2", {}, t("play_now_title")),
    h("p", {}, t("play_now_text")),
    button,
    h("p", { class: "muted note", id: "computer-unrated" }, t("computer_unrated")),
  );
}

const seatLabel = (s) => guestMarked(s.name || `${t("seat")} ${s.seat + 1}`, s.is_guest);

function clockTime(ms) {
  return new Date(ms).toLocaleTimeString(lang(), { hour: "2-digit", minute: "2-digit" });
}

/** One match of GET /v1/me/matches as a readable row: who else plays, what kind of match,
 * whose turn (and the deadline) or how it ended, and a link to the table or the replay. */
function matchRow(m, ended) {
  const seats = (m.seats || []).filter(Boolean);
  const others = seats.filter((s) => s.seat !== m.seat).map(seatLabel);
  const level = m.mode === "computer" && m.level ? ` · ${t(`level_${m.level}`)}` : "";
  const kind = `${m.mode === "computer" ? t("computer_table") : t("live_table")}${level}`;
  let state;
  if (ended) {
    const mine = seats.find((s) => s.seat === m.seat);
    state = `${t(`ended_${m.outcome || "finished"}`)}${mine?.forfeited ? ` · ${t("you_forfeited_short")}` : ""}`;
  } else if (m.status === "waiting") {
    state = fmt(t("waiting_seated"), { taken: seats.length });
  } else if (m.my_turn) {
    state = `${t("your_turn")}${m.deadline_ms ? ` · ${fmt(t("move_by"), { time: clockTime(m.deadline_ms) })}` : ""}`;
  } else {
    state = t("their_turn");
  }
  const link = ended
    ? h("a", { href: `#/history/${m.match_id}`, class: "row-link replay-link" }, t("replay"))
    : h("a", { href: `#/match/${m.match_id}`, class: "row-link" }, t("open_table"));
  return h(
    "li",
    { class: `match-row${m.my_turn ? " my-turn" : ""}`, dataset: { match: m.match_id } },
    h("span", { class: "row-main" }, h("span", { class: "row-who" }, others.length ? others.join(", ") : t("nobody_yet"))),
    h("span", { class: "row-what" }, `${kind} · ${m.ruleset} · ${fmt(t("hands_n"), { n: m.hands })}`),
    h("span", { class: `row-state${m.my_turn ? " turn" : ""}` }, state),
    link,
  );
}

function myMatchesPanel(data) {
  const active = data?.active || [];
  const recent = (data?.recent || []).slice(0, RECENT_SHOWN);
  const resume = lastMatch();
  return h(
    "section",
    { class: "panel my-matches" },
    h("h2", {}, t("my_matches")),
    active.length ? h("ul", { class: "match-rows", id: "active-matches" }, active.map((m) => matchRow(m, false))) : null,
    !active.length && !recent.length
      ? h(
          "p",
          { class: "empty" },
          t("my_matches_none"),
          resume ? [" ", h("a", { href: `#/match/${resume}`, id: "resume" }, `▶ ${resume.slice(0, 8)}`)] : null,
        )
      : null,
    recent.length
      ? [h("h3", {}, t("recent_matches")), h("ul", { class: "match-rows", id: "recent-matches" }, recent.map((m) => matchRow(m, true)))]
      : null,
  );
}

function tablesList(tables) {
  if (!tables.length) return h("p", { class: "empty" }, t("no_tables"));
  return h(
    "ul",
    { class: "match-rows" },
    tables.map((table) => {
      const seated = (table.seats || []).filter(Boolean);
      return h(
        "li",
        { class: "match-row open-table", dataset: { match: table.match_id || table.id } },
        h("span", { class: "row-who" }, fmt(t("table_row"), { ruleset: table.ruleset, hands: table.hands, taken: seated.length })),
        seated.length ? h("span", { class: "row-what" }, fmt(t("table_by"), { names: seated.map(seatLabel).join(", ") })) : null,
        h("button", { type: "button", class: "row-link", onclick: () => sitDown(table, null).catch((e) => toast(errorText(e))) }, t("join")),
      );
    }),
  );
}

/** The lobby (#/). Returns the teardown that stops its polling when the route changes. */
export function lobbyPage() {
  const session = loadSession();
  if (!session) {
    fill(app, h("h1", {}, t("title")), signInForm());
    return () => {};
  }
  const list = h("div", { class: "tables", id: "tables" }, "…");
  const mine = h("div", { id: "my-matches" });
  // Phone: one column, in the order play now, my matches, open tables, quick match, create.
  // Desktop: the ways to start a match on the left, the lists on the right.
  fill(
    app,
    h("p", { class: "who" }, `${t("signed_in_as")} `, h("strong", {}, guestMarked(session.name || session.player_id, session.guest))),
    h(
      "div",
      { class: "lobby-grid" },
      h("div", { class: "lobby-col start" }, playNowPanel(), quickMatchPanel(h, toast), createForm()),
      h(
        "div",
        { class: "lobby-col lists" },
        mine,
        h("section", { class: "panel open-tables" }, h("h2", {}, t("open_tables")), h("p", { class: "muted note" }, t("lobby_auto")), list),
      ),
    ),
  );

  let closed = false;
  let timer = null;
  const last = { tables: null, mine: null };
  // Redraw a part only when its answer changed, so a poll does not take the focus away.
  const redraw = (part, el, data, draw) => {
    const key = JSON.stringify(data);
    if (key === last[part]) return;
    last[part] = key;
    fill(el, draw(data));
  };
  const loadTables = () =>
    api.openTables().then(
      (tables) => redraw("tables", list, tables, tablesList),
      (error) => redraw("tables", list, { error: errorText(error) }, (e) => h("p", { class: "error" }, `${t("unavailable")}: ${e.error}`)),
    );
  const loadMine = () =>
    api.myMatches().then(
      (data) => redraw("mine", mine, data, myMatchesPanel),
      (error) => {
        if (error.status === 401) {
          saveSession(null);
          route();
        }
      },
    );
  const tick = async () => {
    if (closed) return;
    if (!document.hidden) await Promise.all([loadTables(), loadMine()]);
    if (!closed) timer = setTimeout(tick, POLL_MS);
  };
  tick();
  return () => {
    closed = true;
    clearTimeout(timer);
  };
}
