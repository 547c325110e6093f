// Quick match in the lobby: a "play now" button per ruleset, then the waiting time, the rating
// window and a cancel; a found table shows its seat and commitment and an Accept button.
// Accepting stores the commitment first, then draws this device's seed and confirms with it
// (KINGDEAL-v1: the seed is made after the server's inputs are fixed). Self-contained: the
// lobby mounts it with quickMatchPanel(); it stops polling once it leaves the page.

import * as api from "./api.js";
import { errorMessage, rulesetLabel, t } from "./i18n.js";
import { beginRecord, newClientSeed, saveRecord, setLastMatch } from "./store.js";

const POLL_MS = 2000;

// The panel's labels are i18n.js's qm_* entries.
const label = (key) => t(`qm_${key}`);

function seconds(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The panel; `h` is the lobby's element helper, `toast(message)` its error display. */
export function quickMatchPanel(h, toast) {
  const body = h("div", { id: "qm-body" });
  const panel = h("section", { class: "panel quickmatch", id: "quickmatch" }, h("h2", {}, label("title")), body);
  let timer = null;
  let accepting = false;
  let notice = "";

  const fail = (error) => toast(error?.code ? `${errorMessage(error)} (${error.code})` : errorMessage(error));
  let rulesets = [];

  // One "Play now" per ruleset of GET /v1/rules, with a choice of its lengths when it has several.
  function buttons() {
    const rows = rulesets.map((ruleset) => {
      const lengths = ruleset.hands || [];
      const choice =
        lengths.length > 1
          ? h("select", { id: `qm-hands-${ruleset.name}` }, lengths.map((n) => h("option", { value: n }, n)))
          : null;
      const length = () => Number(choice ? choice.value : lengths[0]);
      const play = () => api.quickJoin(ruleset.name, length()).then(show).catch(fail);
      return h(
        "p",
        {},
        h("button", { type: "button", id: `qm-play-${ruleset.name}`, onclick: play },
          `${label("play_now")} · ${rulesetLabel(ruleset.name)}`),
        " ",
        choice || `(${lengths[0]}`,
        choice ? ` ${label("hands")}` : ` ${label("hands")})`,
      );
    });
    return [notice ? h("p", { class: "qm-notice", id: "qm-notice" }, notice) : null, ...rows];
  }

  function accept(state) {
    if (accepting) return;
    accepting = true;
    // The commitment is stored before the seed exists; the seed goes out with the seat.
    const seed = newClientSeed();
    const record = beginRecord(state.table_id, state.server_commit, seed);
    record.seat = state.seat;
    saveRecord(state.table_id, record);
    api
      .quickConfirm(record.seed)
      .then(show)
      .catch(fail)
      .finally(() => (accepting = false));
  }

  function render(state) {
    const parts = [];
    if (state.state === "waiting") {
      parts.push(
        h("p", { id: "qm-waiting" }, `${label("waiting")} · ${rulesetLabel(state.ruleset)} · ${state.hands} ${label("hands")}`),
        h(
          "p",
          { class: "qm-figures" },
          h("span", { id: "qm-time" }, seconds(state.waited_ms)),
          ` · ${label("window")} `,
          h("span", { id: "qm-window" }, `±${state.window}`),
          ` (${state.rating}) · ${state.waiting} ${label("in_pool")}`,
        ),
        state.guest ? h("p", { class: "muted" }, label("guest_note")) : null,
        h("button", { type: "button", id: "qm-cancel", onclick: () => api.quickLeave().then(show).catch(fail) }, label("cancel")),
      );
    } else if (state.state === "found") {
      const left = state.confirm_by_ms - state.server_time_ms;
      parts.push(
        h("p", { id: "qm-found" }, `${label("found")} · ${label("seat")} ${state.seat + 1}`),
        h("p", { class: "muted" }, `${label("commitment")}: `, h("code", { id: "qm-commit" }, state.server_commit.slice(0, 16) + "…")),
        state.confirmed
          ? h("p", { id: "qm-others" }, `${label("others")} (${state.confirmed_seats}/4)`)
          : h("p", {}, h("button", { type: "button", id: "qm-accept", onclick: () => accept(state) }, label("accept")),
              ` ${label("accept_by")} ${seconds(left)}`),
        h("button", { type: "button", id: "qm-cancel", onclick: () => api.quickLeave().then(show).catch(fail) }, label("cancel")),
      );
    } else {
      parts.push(...buttons());
    }
    body.replaceChildren(...parts.filter(Boolean));
  }

  function show(state) {
    clearTimeout(timer);
    if (!panel.isConnected && panel.dataset.mounted) return; // the lobby was left
    if (state.state === "matched") {
      setLastMatch(state.match_id);
      location.hash = `#/match/${state.match_id}`;
      return;
    }
    notice = state.state === "missed" ? label("missed") : state.state === "dropped" ? label("dropped") : "";
    render(state);
    if (state.state === "waiting" || state.state === "found") {
      timer = setTimeout(() => api.quickStatus().then(show).catch(fail), POLL_MS);
    }
  }

  render({ state: "idle" });
  api.rules().then((rules) => {
    rulesets = rules.rulesets || [];
    if (!body.querySelector("#qm-waiting, #qm-found")) render({ state: "idle" });
  }, fail);
  api
    .quickStatus()
    .then((state) => {
      panel.dataset.mounted = "1";
      show(state);
    })
    .catch(() => {});
  return panel;
}
