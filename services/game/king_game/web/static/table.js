// The table (#/match/<id>): play, clocks, score sheet, standings, Verify deck.

import * as api from "./api.js";
import { cardElement, sortHand } from "./cards.js";
import { app, h, fill, toast, errorText, seatName, formatClock } from "./dom.js";
import { CONTRACT_NAMES, SUIT_SYMBOLS, contractLabel, t } from "./i18n.js";
import { loadRecord, rememberHand, setLastMatch } from "./store.js";
import { verifyTranscript } from "./verify.js";

// ------------------------------------------------------------------ the table

/** Pull the pieces the table needs out of the game service's match answer. */
function normalize(data) {
  const view = data.view || null;
  const clock = data.clock || {};
  const serverNow = clock.server_time_ms ?? Date.now();
  return { view, match: data, clock, serverNow, version: data.version };
}

function seatsList(match) {
  return h(
    "ul",
    { class: "seats" },
    [0, 1, 2, 3].map((s) => h("li", {}, `${t("seat")} ${s + 1}: ${seatName(match, s, match.seat)}`)),
  );
}

function myOriginalHand(view) {
  const cards = [...(view.my_cards || [])];
  const tricks = [...(view.tricks || []), ...(view.current_trick ? [view.current_trick] : [])];
  for (const trick of tricks) {
    for (const play of trick.plays || []) if (play.seat === view.seat) cards.push(play.card);
  }
  return cards;
}

export function matchPage(matchId) {
  const state = { data: null, offset: 0, busy: false, closed: false, abort: null, poll: null, tick: null };
  const root = h("div", { class: "table-page", id: "table" }, "…");
  fill(app, root);
  setLastMatch(matchId);

  const refresh = async () => {
    if (state.closed) return;
    try {
      const raw = await api.getMatch(matchId);
      const data = normalize(raw);
      state.offset = data.serverNow - Date.now();
      state.data = data;
      state.error = null;
      const { view } = data;
      if (!view) {
        const leave = () =>
          api.leaveTable(matchId).then(
            () => {
              setLastMatch(null);
              location.hash = "#/";
            },
            (error) => toast(errorText(error)),
          );
        fill(
          root,
          h("p", { class: "status" }, t("waiting_players")),
          seatsList(data.match),
          h("button", { type: "button", id: "leave", onclick: leave }, t("leave")),
        );
        return;
      }
      if (view.phase !== "over") {
        const cards = myOriginalHand(view);
        if (cards.length === 13) rememberHand(matchId, view.seat, view.hand, cards);
      }
      render();
    } catch (error) {
      state.error = error;
      if (!state.data) fill(root, h("p", { class: "error" }, errorText(error)));
    }
  };
  let pending = null;
  const soon = () => {
    clearTimeout(pending);
    pending = setTimeout(refresh, 60);
  };

  // Follow the match: long-poll the public events; any event means "read the match again".
  // A dropped connection shows a banner and retries with a growing pause; the poll of the
  // view below keeps the table right meanwhile.
  const follow = async () => {
    let after = 0;
    let pause = 500;
    const controller = new AbortController();
    state.abort = controller;
    const ended = () =>
      state.data?.view?.phase === "over" || ["finished", "aborted"].includes(state.data?.match?.status);
    while (!state.closed && !ended()) {
      try {
        const page = await api.events(matchId, after, 20, controller.signal);
        document.getElementById("conn")?.setAttribute("hidden", "");
        pause = 500;
        if (page.events.length || page.reset) soon();
        after = page.last_seq;
        if (page.finished) {
          soon();
          return;
        }
      } catch (error) {
        if (state.closed) return;
        if (error.status === 401 || error.status === 403 || error.status === 404) return;
        document.getElementById("conn")?.removeAttribute("hidden");
        await new Promise((resolve) => setTimeout(resolve, pause));
        pause = Math.min(pause * 2, 8000);
      }
    }
  };

  const send = async (move) => {
    if (state.busy || !state.data) return;
    state.busy = true;
    try {
      await api.sendMove(matchId, move, state.data.version);
      await refresh();
    } catch (error) {
      if (error.code === "stale_version") await refresh();
      else toast(`${t("illegal")}: ${errorText(error)}`);
    } finally {
      state.busy = false;
    }
  };

  function render() {
    const { view, match } = state.data;
    const me = view.seat;
    const over = view.phase === "over" || ["finished", "aborted"].includes(match.status);
    const focusCard = document.activeElement?.dataset?.card;
    root.dataset.version = state.data.version;
    root.dataset.phase = over ? "over" : view.phase;
    const parts = [
      h("div", { id: "conn", class: "banner", hidden: true }, t("connection_lost")),
      header(view, match),
      h(
        "div",
        { class: "board" },
        h("div", { class: "play" }, trickArea(view, match, me), over ? null : controls(view, match, me)),
        sidePanel(view, match, me),
      ),
      scoreSheet(view, match, me),
      over ? standings(view, match, me) : null,
      over ? verifyPanel() : null,
    ];
    fill(root, parts);
    updateClocks();
    if (focusCard) root.querySelector(`[data-card="${focusCard}"]`)?.focus();
  }

  function header(view, match) {
    const record = loadRecord(matchId);
    const over = view.phase === "over" || ["finished", "aborted"].includes(match.status);
    return h(
      "header",
      { class: "match-head" },
      h(
        "div",
        {},
        h("strong", {}, `${t("hand_of")} ${Math.min(view.hand + 1, view.hands_in_match)}/${view.hands_in_match}`),
        over
          ? ` · ${t("match_over")}${match.outcome && match.outcome !== "finished" ? ` (${match.outcome})` : ""}`
          : [
              " · ",
              `${t("contract")}: `,
              h("span", { id: "contract" }, contractLabel(view.contract, view.trump)),
              " · ",
              `${t("declarer")}: ${seatName(match, view.declarer, view.seat)}`,
            ],
      ),
      over || match.played_by === "computer_after_forfeit"
        ? null
        : h(
            "button",
            {
              type: "button",
              id: "resign",
              class: "resign",
              onclick: () => {
                // Two clicks: the first one asks (the state survives redraws), the second resigns.
                if (!state.resignArmed) {
                  state.resignArmed = true;
                  document.getElementById("resign").textContent = t("resign_confirm");
                  return;
                }
                state.resignArmed = false;
                api.resign(matchId, state.data.version).then(refresh, (error) => toast(errorText(error)));
              },
            },
            state.resignArmed ? t("resign_confirm") : t("resign"),
          ),
      h(
        "div",
        { class: "commit", title: t("commitment") },
        `${t("commitment")}: `,
        h("code", {}, (match.server_commit || record?.commitment || "").slice(0, 16) + "…"),
      ),
    );
  }

  function trickArea(view, match, me) {
    const positions = ["bottom", "left", "top", "right"];
    const trick = view.current_trick || (view.tricks || []).at(-1) || null;
    const finished = !view.current_trick && trick;
    const played = new Map((trick?.plays || []).map((p) => [p.seat, p.card]));
    return h(
      "section",
      { class: `trick${finished ? " done" : ""}`, id: "trick", "aria-label": t("trick") },
      [0, 1, 2, 3].map((seat) => {
        const pos = positions[(seat - me + 4) % 4];
        const turn = view.turn === seat;
        return h(
          "div",
          { class: `spot ${pos}${turn ? " turn" : ""}`, dataset: { seat } },
          h("div", { class: "seat-name" }, seatName(match, seat, me)),
          h("div", { class: "clock", dataset: { clockSeat: seat } }),
          played.has(seat) ? cardElement(played.get(seat)) : h("span", { class: "card slot" }),
          h(
            "div",
            { class: "taken" },
            `${t("tricks_taken")}: ${view.tricks_taken?.[seat] ?? 0}`,
            (view.penalty_cards_taken?.[seat] || []).length
              ? h("span", { class: "penalties" }, " · ", (view.penalty_cards_taken[seat] || []).map((c) => cardElement(c)))
              : null,
          ),
        );
      }),
      h(
        "div",
        { class: "status", id: "status", "aria-live": "polite" },
        view.phase === "over" || ["finished", "aborted"].includes(match.status)
          ? t("match_over")
          : match.played_by === "computer_after_forfeit"
            ? t("you_forfeited")
          : view.turn === null || view.turn === undefined
            ? t("waiting_players")
          : match.my_turn
            ? t("your_turn")
            : `${t("waiting_for")} ${seatName(match, view.turn, me)}`,
      ),
    );
  }

  function sidePanel(view, match, me) {
    return h(
      "aside",
      { class: "side panel" },
      h(
        "table",
        { id: "hand-scores" },
        h("thead", {}, h("tr", {}, h("th", {}, t("player")), h("th", {}, t("tricks_taken")), h("th", {}, t("points")), h("th", {}, t("total")))),
        h(
          "tbody",
          {},
          [0, 1, 2, 3].map((s) =>
            h(
              "tr",
              { class: s === me ? "me" : "" },
              h("td", {}, seatName(match, s, me)),
              h("td", {}, view.tricks_taken?.[s] ?? 0),
              h("td", {}, view.hand_points?.[s] ?? 0),
              h("td", {}, view.totals?.[s] ?? 0),
            ),
          ),
        ),
      ),
    );
  }

  function controls(view, match, me) {
    // The server's rule: my turn only when I may move (not while a bot plays my seat).
    const myTurn = match.my_turn === true;
    const legal = new Set(view.legal_cards || []);
    const choosing = view.phase === "contract" && myTurn && (view.allowed_contracts || []).length;
    let picker = null;
    if (choosing) {
      const penalty = view.allowed_contracts.filter((c) => c.contract !== "trump");
      const koz = view.allowed_contracts.filter((c) => c.contract === "trump");
      picker = h(
        "section",
        { class: "picker", id: "contract-picker" },
        h("h3", {}, t("choose_contract")),
        h(
          "div",
          { class: "choices" },
          penalty.map((c) =>
            h("button", { type: "button", class: "contract", dataset: { move: c.move }, onclick: () => send(c.move) }, CONTRACT_NAMES[c.contract] || c.contract),
          ),
        ),
        koz.length
          ? h(
              "div",
              { class: "choices koz" },
              h("span", {}, t("choose_trump")),
              koz.map((c) =>
                h(
                  "button",
                  { type: "button", class: `contract suit-${c.trump}`, dataset: { move: c.move }, onclick: () => send(c.move) },
                  `${CONTRACT_NAMES.trump} ${SUIT_SYMBOLS[c.trump]}`,
                ),
              ),
            )
          : null,
      );
    }
    const hand = h(
      "section",
      { class: `hand${myTurn && view.phase === "play" ? " active" : ""}`, id: "hand", "aria-label": t("your_hand") },
      sortHand(view.my_cards || []).map((code) => {
        const el = cardElement(code, { button: true, legal: myTurn && legal.has(code) });
        if (myTurn && view.phase === "play" && !legal.has(code)) el.classList.add("illegal");
        el.addEventListener("click", () => send(code));
        return el;
      }),
    );
    hand.addEventListener("keydown", (event) => {
      const buttons = [...hand.querySelectorAll("button")];
      const index = buttons.indexOf(document.activeElement);
      if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
        event.preventDefault();
        const step = event.key === "ArrowRight" ? 1 : -1;
        buttons[(index + step + buttons.length) % buttons.length]?.focus();
      }
    });
    return h("div", { class: "controls" }, picker, hand, myTurn && view.phase === "play" ? h("p", { class: "hint" }, t("legal_hint")) : null);
  }

  function scoreSheet(view, match, me) {
    const rows = view.score_sheet || [];
    return h(
      "section",
      { class: "sheet panel" },
      h("h3", {}, t("score_sheet")),
      h(
        "div",
        { class: "scroll" },
        h(
          "table",
          { id: "score-sheet" },
          h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("contract")), [0, 1, 2, 3].map((s) => h("th", {}, seatName(match, s, me))))),
          h(
            "tbody",
            {},
            rows.map((row) =>
              h(
                "tr",
                {},
                h("td", {}, row.hand + 1),
                h("td", {}, contractLabel(row.contract, row.trump)),
                row.points.map((p) => h("td", {}, p)),
              ),
            ),
          ),
          h("tfoot", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("total")), (view.totals || []).map((p) => h("th", {}, p)))),
        ),
      ),
    );
  }

  function standings(view, match, me) {
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

  // The verification's outcome lives in `state.verify`, so a redraw of the table (an event
  // arriving late, a poll) shows it again instead of wiping it.
  function verifyPanel() {
    const run = async () => {
      const record = loadRecord(matchId);
      if (!record) {
        state.verify = { message: t("verify_no_record") };
        render();
        return;
      }
      state.verify = { running: true };
      render();
      try {
        const raw = await api.transcript(matchId);
        const transcript = raw.transcript || raw.fairness || raw;
        state.verify = { result: await verifyTranscript(transcript, record) };
      } catch (error) {
        state.verify = { message: errorText(error) };
      }
      render();
    };
    const out = h("div", { id: "verify-result", "aria-live": "polite" });
    const verify = state.verify;
    if (verify?.running) fill(out, h("p", {}, t("verifying")));
    else if (verify?.message) fill(out, h("p", { class: "fail" }, verify.message));
    else if (verify?.result) {
      const result = verify.result;
      fill(
        out,
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
          result.checks.map((c) => h("li", { class: c.ok ? "ok" : "bad" }, `${c.ok ? "✔" : "✘"} ${c.check}: ${c.detail}`)),
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

  // The clocks count down locally from the server's times (shifted by the measured offset
  // between the server's clock and this device's).
  function updateClocks() {
    if (!state.data?.view) return;
    const { clock, serverNow } = state.data;
    const now = Date.now() + state.offset;
    const reserves = clock.reserve_ms || [];
    for (const el of root.querySelectorAll("[data-clock-seat]")) {
      const seat = Number(el.dataset.clockSeat);
      const parts = [];
      if (clock.turn === seat && clock.turn_started_ms) {
        const moveEnd = clock.turn_started_ms + (clock.move_ms || 0);
        const moveLeft = clock.move_ms ? moveEnd - now : (clock.deadline_ms ?? now) - now;
        parts.push(`${t("move_clock")} ${formatClock(moveLeft)}`);
        if (reserves[seat]) {
          const overNow = Math.max(0, now - moveEnd);
          const overThen = Math.max(0, serverNow - moveEnd);
          parts.push(`${t("reserve")} ${formatClock(reserves[seat] - (overNow - overThen))}`);
        }
      } else if (reserves[seat]) {
        parts.push(`${t("reserve")} ${formatClock(reserves[seat])}`);
      }
      el.textContent = parts.join(" · ");
      el.classList.toggle("low", clock.turn === seat && parts.length > 0 && /^\S+ 0:0\d/.test(parts[0]));
    }
  }

  refresh();
  follow();
  state.poll = setInterval(() => {
    const over = state.data?.view?.phase === "over" || ["finished", "aborted"].includes(state.data?.match?.status);
    if (!over) refresh();
  }, 5000);
  state.tick = setInterval(updateClocks, 250);
  return () => {
    state.closed = true;
    state.abort?.abort();
    clearInterval(state.poll);
    clearInterval(state.tick);
    clearTimeout(pending);
  };
}
