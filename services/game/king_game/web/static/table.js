// The table (#/match/<id>): play, clocks, score sheet, standings, Verify deck.
//
// Two sources meet here. The match view (GET /v1/matches/<id>) is the truth: cards held, legal
// cards, allowed contracts, whose turn, clocks, the score sheet. The public events come from the
// long-poll and a move's answer and are played out at the chosen pace by the playback
// (table-playback.js), which owns what the felt shows. Moves are offered only once the playback
// has caught up with the view, so nothing can be clicked before it can be seen.

import * as api from "./api.js";
import { cardElement, sortHand } from "./cards.js";
import { app, h, fill, patch, toast, errorText, seatName, formatClock } from "./dom.js";
import { contractLabel, outcomeLabel, t } from "./i18n.js";
import { loadRecord, rememberHand, setLastMatch } from "./store.js";
import { PACES, Playback, pace, setPace } from "./table-playback.js";
import { contractPicker, loadRules, pickMarks } from "./table-picker.js";
import { callsOf, callsPanel, handSummary, lastTrickPanel, positionOf, standings, tableNotes, verifyPanel } from "./table-parts.js";
import { verifyTranscript } from "./verify.js";
import { actionPanel, adaptView as adaptInternational, auctionPanel, forgetPlayed, isInternational, scoresPanel, settlementSummary } from "./table-international.js";
import { adaptView as adaptKonturlu, konturluParts, playbackExtension } from "./table-konturlu.js";

const FOUR_COLOUR = "king.fourColour";
// A view newer than every event played out waits this long for its events, then is shown.
const EVENT_GRACE_MS = 1500;
// The move clock turns to a warning in its last seconds.
const WARN_MS = 10_000;

function normalize(data) {
  // international and konturlu: the engine's own view, with the fields the table reads added.
  const view = adaptKonturlu(adaptInternational(data.view || null));
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

/** A seat's name and its tags ("bot · easy", "you") apart, so a narrow place can drop the tags. */
function splitName(match, seat, full) {
  const name = match?.seats?.[seat]?.name;
  if (!name || !full.startsWith(`${name} (`)) return [full, ""];
  return [name, full.slice(name.length + 2, -1)];
}

/** The view as far as the playback has got: the sheet and the contract do not run ahead of it. */
function shownView(view, model, over) {
  if (over) return view;
  const shown = (row) => row.hand < model.hand || (row.hand === model.hand && (model.summary || model.over));
  return {
    ...view,
    score_sheet: (view.score_sheet || []).filter(shown),
    hand: model.hand,
    declarer: model.declarer,
    contract: model.contract,
    trump: model.trump,
  };
}

/** A name over its tags, both cut short with an ellipsis (the full name is the title). */
function nameBlock(match, seat, me) {
  const full = seatName(match, seat, me);
  const [name, tags] = splitName(match, seat, full);
  return h("span", { class: "nm", title: full }, name, tags ? h("span", { class: "tags" }, tags) : null);
}

const ended = (data) => data?.view?.phase === "over" || ["finished", "aborted"].includes(data?.match?.status);

export function matchPage(matchId) {
  const state = { data: null, busy: false, closed: false, abort: null, poll: null, tick: null, offset: 0, originals: {}, showLast: false, ui: {} };
  const root = h("div", { class: "table-page", id: "table" }, "…");
  fill(app, root);
  setLastMatch(matchId);
  forgetPlayed();
  // Without pauses (the instant pace) the playback's steps are drawn at most once a frame:
  // many events pass between two frames, and drawing each would only cost the player's CPU.
  // With pauses every step is drawn at once, when its pause starts.
  let frame = null;
  const drawSoon = () => {
    if (PACES[pace()].card > 0) render();
    else if (frame === null) frame = requestAnimationFrame(() => ((frame = null), render()));
  };
  const playback = new Playback(0, (model, kind) => (kind === "idle" ? reconcile() : drawSoon()));
  let graceTimer = null;

  // Moves are offered once every event up to the view's version has been played out.
  const caughtUp = () =>
    Boolean(state.data?.view && playback.model) && playback.idle() && playback.model.v === state.data.version && !playback.model.summary;

  function reconcile() {
    if (state.closed || !state.data?.view) return;
    const model = playback.model;
    // A hand's summary explains itself from the view's score sheet: once the view with the
    // hand's row arrives, draw the summary again (the playback still waits on it).
    if (model?.summary) drawSoon();
    if (!model || !playback.idle()) return;
    clearTimeout(graceTimer);
    if (state.data.version === model.v) playback.sync(state.data.view, state.data.version);
    else if (state.data.version < model.v) soon();
    else {
      // The view is ahead: its events are on their way (or the change had none).
      graceTimer = setTimeout(() => {
        if (playback.idle() && state.data.version > playback.model.v) {
          playback.sync(state.data.view, state.data.version);
          drawSoon();
        }
      }, EVENT_GRACE_MS);
    }
    drawSoon();
  }

  const refresh = async () => {
    if (state.closed) return;
    try {
      const data = normalize(await api.getMatch(matchId));
      state.offset = data.serverNow - Date.now();
      // Reads may answer out of order: an older one must not take the table back.
      if (state.data && data.version < state.data.version) return;
      state.data = data;
      const { view } = data;
      if (!view) {
        waitingRoom(data.match);
        return;
      }
      playback.seat = view.seat;
      playback.extension = view.ruleset === "konturlu" ? playbackExtension : null;
      const cards = myOriginalHand(view);
      if (cards.length === (view.cards_per_seat ?? 13) && view.phase !== "over") {
        state.originals[view.hand] = cards;
        rememberHand(matchId, view.seat, view.hand, cards, view.deal ?? view.hand, view.cards_per_seat ?? 13);
      }
      if (!playback.model) playback.sync(view, data.version);
      reconcile();
    } catch (error) {
      if (!state.data) fill(root, h("p", { class: "error" }, errorText(error)));
    }
  };
  let pending = null;
  const soon = () => {
    clearTimeout(pending);
    pending = setTimeout(refresh, 60);
  };

  function waitingRoom(match) {
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
      seatsList(match),
      h("button", { type: "button", id: "leave", onclick: leave }, t("leave")),
    );
  }

  // Follow the match: long-poll the public events into the playback, and read the view again
  // after each page. A dropped connection shows a banner and retries with a growing pause; the
  // poll of the view below keeps the table right meanwhile.
  const follow = async () => {
    let after = 0;
    let pause = 500;
    const controller = new AbortController();
    state.abort = controller;
    while (!state.closed) {
      try {
        const page = await api.events(matchId, after, 20, controller.signal);
        document.getElementById("conn")?.setAttribute("hidden", "");
        pause = 500;
        if (page.reset && after > 0 && page.events[0]?.hand !== playback.model?.hand) {
          // Events of more than this hand were trimmed: the view shows where the table is;
          // play on from there. (A gap within the hand, the usual case when the bots finish
          // it at once, is played through: the write that ends a hand is always kept.)
          await refresh();
          if (state.data?.view) playback.sync(state.data.view, state.data.version);
        }
        playback.push(page.events || [], { page: true });
        if (page.events.length || page.reset) soon();
        after = page.last_seq;
        if (page.finished) return;
      } catch (error) {
        if (state.closed) return;
        if (error.status === 401 || error.status === 403 || error.status === 404) return;
        document.getElementById("conn")?.removeAttribute("hidden");
        await new Promise((resolve) => setTimeout(resolve, pause));
        pause = Math.min(pause * 2, 8000);
      }
    }
  };

  // A move is made on the table as drawn: it carries the version the page shows, so a click
  // that lands while newer news is being played out is refused by the service as stale
  // (and the table reads the match again) rather than lost in the page.
  const send = async (move) => {
    const shown = Number(root.dataset.version);
    if (state.busy || root.dataset.phase === "replay" || !Number.isInteger(shown)) return;
    state.busy = true;
    render();
    try {
      const answer = await api.sendMove(matchId, move, shown);
      playback.push(answer?.events || []);
      await refresh();
    } catch (error) {
      if (error.code === "stale_version") await refresh();
      else toast(`${t("illegal")}: ${errorText(error)}`);
    } finally {
      state.busy = false;
      render();
    }
  };

  function render() {
    if (state.closed || !state.data?.view || !playback.model) return;
    const { view, match } = state.data;
    const model = playback.model;
    const me = view.seat;
    const live = caughtUp();
    // The standings wait for a read that says the match ended (its places, çıkar / batar):
    // the events that end it are played out before that read arrives.
    const over = ended(state.data) && (live || (model.over && !model.summary));
    const focusCard = document.activeElement?.dataset?.card;
    const focusId = document.activeElement?.id;
    root.dataset.version = state.data.version;
    root.dataset.phase = over ? "over" : live ? view.phase : "replay";
    root.classList.toggle("four-colour", localStorage.getItem(FOUR_COLOUR) === "1");
    // konturlu draws its own centre, Dürt spots, summary and side column (table-konturlu.js).
    const k = konturluParts({ view, match, me, model, live, over, send, busy: state.busy, ui: state.ui, redraw: render });
    state.k = k;
    patch(root, [
      h("div", { id: "conn", class: "banner", hidden: true }, t("connection_lost")),
      header(view, match, model, over),
      over ? null : tableNotes(view, match, me, model),
      h(
        "div",
        { class: "board" },
        h("div", { class: "play" }, trickArea(view, match, me, model, live, over), over ? null : hand(view, model, me, live)),
        h(
          "div",
          { class: "side-col" },
          // (one level of list: h() flattens no deeper)
          k
            ? k.side()
            : [
                ...(isInternational(view) ? [scoresPanel(view, match, me, model, nameBlock), model.hand === view.hand ? auctionPanel(view, match, me) : null] : [sidePanel(shownView(view, model, over), match, me, model)]),
                scoreSheet(shownView(view, model, over), match, me, model),
              ],
        ),
      ),
      over ? standings(view, match, me) : null,
      over ? verifyPanel(state.verify, runVerify) : null,
    ]);
    updateClocks();
    const again = focusCard ? root.querySelector(`[data-card="${focusCard}"]`) : focusId ? document.getElementById(focusId) : null;
    again?.focus();
  }

  function header(view, match, model, over) {
    const record = loadRecord(matchId);
    const settings = h(
      "details",
      { class: "table-settings" },
      h("summary", { "aria-label": t("settings"), title: t("settings") }, "⚙"),
      h(
        "div",
        { class: "box" },
        h(
        "label",
        {},
        `${t("pace")} `,
        h(
          "select",
          { id: "pace", onchange: (e) => setPace(e.target.value) },
          Object.keys(PACES).map((name) => h("option", { value: name, selected: name === pace() }, t(`pace_${name}`))),
        ),
      ),
      h(
        "label",
        {},
        h("input", {
          type: "checkbox",
          id: "four-colour",
          checked: localStorage.getItem(FOUR_COLOUR) === "1",
          onchange: (e) => {
            localStorage.setItem(FOUR_COLOUR, e.target.checked ? "1" : "0");
            root.classList.toggle("four-colour", e.target.checked);
          },
        }),
        ` ${t("four_colour")}`,
      ),
      ),
    );
    if (state.settingsOpen) settings.open = true;
    settings.addEventListener("toggle", () => (state.settingsOpen = settings.open));
    return h(
      "header",
      { class: "match-head" },
      h(
        "div",
        { class: "what" },
        h("strong", {}, `${t("hand_of")} ${Math.min(model.hand + 1, view.hands_in_match)}/${view.hands_in_match}`),
        over
          ? ` · ${t("match_over")}${match.outcome && match.outcome !== "finished" ? ` (${outcomeLabel(match.outcome)})` : ""}`
          : [
              " · ",
              h("span", { id: "contract", class: "contract-name" }, state.k ? state.k.contractText() : contractLabel(model.contract, model.trump)),
              " · ",
              h("span", { class: "declarer" }, `${t("declarer")}: ${seatName(match, model.declarer, view.seat)}`),
              // traditional: a hand slot may take several deals (redeals, the Kız replay).
              view.redeal_cap && (view.redeals || view.deal !== view.hand)
                ? h("span", { class: "deal-no", id: "deal-no" }, ` · ${t("deal_no").replace("{n}", view.deal + 1)} · ${t("redeals_used").replace("{n}", view.redeals).replace("{m}", view.redeal_cap)}`)
                : null,
            ],
      ),
      h(
        "div",
        { class: "tools" },
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
        settings,
      ),
      h(
        "div",
        { class: "commit", title: t("commitment") },
        `${t("commitment")}: `,
        h("code", {}, (match.server_commit || record?.commitment || "").slice(0, 16) + "…"),
      ),
    );
  }

  function statusText(view, match, me, model, live) {
    const noted = state.k?.status();
    if (noted) return noted;
    if (model.note?.kind === "contract") {
      return `${seatName(match, model.note.seat, me)} ${t("chose")} ${contractLabel(model.note.contract, model.note.trump)}`;
    }
    if (model.note?.kind === "call") {
      const word = t(`answered_${model.note.call}`);
      return `${seatName(match, model.note.seat, me)}: ${word.startsWith("answered_") ? t(`call_${model.note.call}`) : word}`;
    }
    if (ended(state.data) && live) return t("match_over");
    if (match.played_by === "computer_after_forfeit") return t("you_forfeited");
    const turn = turnOf(view, model, live);
    if (turn === null || turn === undefined) return live ? t("waiting_players") : "";
    if (live && match.my_turn) return t("your_turn");
    return `${t("waiting_for")} ${seatName(match, turn, me)}`;
  }

  // Whose turn the felt shows: the view's once caught up, else the next seat of the trick.
  function turnOf(view, model, live) {
    if (live) return view.turn;
    const trick = model.trick;
    if (trick.winner !== null || model.summary) return null;
    if (trick.plays.length) return (trick.plays.at(-1).seat + 1) % 4;
    return null;
  }

  function trickArea(view, match, me, model, live, over) {
    const trick = model.trick;
    const played = new Map(trick.plays.map((p) => [p.seat, p.card]));
    const turn = over ? null : turnOf(view, model, live);
    const collect = trick.collecting && trick.winner !== null ? ` collect to-${positionOf(trick.winner, me, view.ruleset)}` : "";
    const choosing = live && !over && view.phase === "contract" && match.my_turn && (view.allowed_contracts || []).length;
    // traditional's calls: a redeal round, a King announcement, or the Kupa declarer's request.
    const intl = isInternational(view);
    const k = state.k;
    const calling = !intl && !k && live && !over && match.my_turn && callsOf(view).length > 0;
    const summaryOptions = { last: model.summary?.hand + 1 >= view.hands_in_match, onContinue: () => playback.proceed() };
    // international: the auction's and the contract's moves (legal_moves only).
    const bidding = intl && live && !over && match.my_turn ? actionPanel(view, send, state.busy) : null;
    const centre = model.summary
      ? intl
        ? settlementSummary(model.summary, view, match, me, summaryOptions)
        : (k?.summary(model.summary, () => playback.proceed()) ?? handSummary(model.summary, match, me, summaryOptions))
      : bidding
        ? bidding
        : k
          ? (k.centre() ?? (state.showLast ? lastTrickPanel(model.last, match, me) : null))
          : choosing
        ? contractPicker(view, me, send)
        : calling
          ? callsPanel(view, send, state.busy)
          : state.showLast
          ? lastTrickPanel(model.last, match, me)
          : null;
    return h(
      "section",
      {
        class: `trick${collect}${centre ? " has-centre" : ""}${choosing ? " choosing" : ""}`,
        id: "trick",
        "aria-label": t("trick"),
        style: `--collect: ${PACES[pace()].collect}ms`,
      },
      [0, 1, 2, 3].map((seat) => {
        const pos = positionOf(seat, me, view.ruleset);
        const name = seatName(match, seat, me);
        const [short, tags] = splitName(match, seat, name);
        const announcer = !over && view.announcer?.seat === seat;
        const classes = ["spot", pos, turn === seat ? "turn" : "", trick.leader === seat && played.size ? "leader" : "", trick.winner === seat ? "winner" : "", announcer ? "announcer" : ""];
        return h(
          "div",
          { class: classes.filter(Boolean).join(" "), dataset: { seat } },
          h("div", { class: "seat-name", title: name }, short, tags ? h("span", { class: "tags" }, tags) : null),
          h("div", { class: "clock", dataset: { clockSeat: seat } }),
          h("div", { class: "slot" }, k?.slot(seat) ?? (played.has(seat) ? cardElement(played.get(seat)) : h("span", { class: "card empty" }))),
          trick.leader === seat && played.size ? h("span", { class: "badge lead" }, t("leads")) : null,
          trick.winner === seat ? h("span", { class: "badge win" }, t("takes")) : null,
          announcer ? h("span", { class: "badge king", title: t("call_king") }, `♛ ${model.taken[seat]}/${model.runs[seat]}`) : null,
          h(
            "div",
            { class: "taken", dataset: { tricks: model.taken[seat] } },
            `${t("tricks_taken")}: ${model.taken[seat]}`,
            model.penalties[seat].length ? h("span", { class: "penalties" }, model.penalties[seat].map((c) => cardElement(c))) : null,
          ),
        );
      }),
      centre ? h("div", { class: "centre" }, centre) : null,
      h(
        "div",
        { class: "status", id: "status", "aria-live": "polite" },
        h("span", {}, statusText(view, match, me, model, live)),
        h("span", { class: "clock-warning", id: "clock-warning", hidden: true }),
        over || model.summary || !model.last ? null : lastTrickButton(model),
      ),
    );
  }

  function lastTrickButton(model) {
    return h(
      "button",
      {
        type: "button",
        id: "last-trick-button",
        class: "last-trick-button",
        "aria-pressed": state.showLast ? "true" : "false",
        disabled: !model.last,
        onclick: () => {
          state.showLast = !state.showLast;
          render();
        },
      },
      state.showLast ? t("hide_last_trick") : t("last_trick"),
    );
  }

  function hand(view, model, me, live) {
    // The server's rule: my turn only when I may move (not while a bot plays my seat).
    const playing = live && !state.busy && state.data.match.my_turn === true && (state.k ? state.k.cardPhase(view.phase) : view.phase === "play");
    const legal = new Set(playing ? view.legal_cards || [] : []);
    const held = state.originals[model.hand] || (view.hand === model.hand ? myOriginalHand(view) : []);
    const cards = live ? view.my_cards || [] : held.filter((c) => !model.myPlayed.has(c));
    const el = h(
      "section",
      { class: `hand${playing ? " active" : ""}`, id: "hand", "aria-label": t("your_hand"), dataset: { count: cards.length } },
      sortHand(cards).map((code) => {
        const ok = legal.has(code);
        const card = cardElement(code, { button: true, legal: ok, playable: true });
        // Cards that cannot be played now stay focusable (arrow keys walk the hand) but do nothing.
        if (!ok) card.setAttribute("aria-disabled", "true");
        if (playing && !ok) card.classList.add("illegal");
        card.addEventListener("click", () => {
          if (card.getAttribute("aria-disabled") !== "true") send(code);
        });
        return card;
      }),
    );
    el.addEventListener("keydown", (event) => {
      const buttons = [...el.querySelectorAll("button")];
      const index = buttons.indexOf(document.activeElement);
      if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
        event.preventDefault();
        const step = event.key === "ArrowRight" ? 1 : -1;
        buttons[(index + step + buttons.length) % buttons.length]?.focus();
      }
    });
    return h("div", { class: "controls" }, el, playing ? h("p", { class: "hint" }, t("legal_hint")) : null);
  }

  function sidePanel(view, match, me, model) {
    return h(
      "aside",
      { class: "side panel" },
      h(
        "table",
        { id: "hand-scores" },
        h("thead", {}, h("tr", {}, h("th", {}, t("player")), h("th", { title: t("picks_title") }, t("picks")), h("th", {}, t("tricks_taken")), h("th", {}, t("points")), h("th", {}, t("total")))),
        h(
          "tbody",
          {},
          [0, 1, 2, 3].map((s) =>
            h(
              "tr",
              { class: s === me ? "me" : "" },
              h("td", { class: "who" }, nameBlock(match, s, me)),
              h("td", {}, pickMarks(view, s)),
              h("td", {}, model.taken[s]),
              h("td", {}, model.points[s]),
              h("td", {}, model.totals[s]),
            ),
          ),
        ),
      ),
    );
  }

  function scoreSheet(view, match, me, model) {
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
          h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("contract")), [0, 1, 2, 3].map((s) => h("th", {}, nameBlock(match, s, me))))),
          h(
            "tbody",
            {},
            rows.map((row) =>
              h(
                "tr",
                { dataset: { hand: row.hand } },
                h("td", {}, row.hand + 1),
                h(
                  "td",
                  {},
                  row.contract === "trump" || row.positive ? "● " : "▲ ",
                  contractLabel(row.contract, row.trump),
                  // traditional: the hand the King feat cut short.
                  row.partial ? h("span", { class: "partial", title: t("partial_row") }, " ♛") : null,
                ),
                row.points.map((p, s) => h("td", { class: row.declarer === s ? "declared" : "" }, p)),
              ),
            ),
          ),
          h("tfoot", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("total")), model.totals.map((p) => h("th", {}, p)))),
        ),
      ),
    );
  }

  // The verification's outcome lives in `state.verify`, so a redraw of the table (an event
  // arriving late, a poll) shows it again instead of wiping it.
  async function runVerify() {
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
  }

  // The clocks count down locally from the server's times (shifted by the measured offset
  // between the server's clock and this device's). The last WARN_MS of the move time, and the
  // reserve once it drains, are marked; on my turn the status says so in words.
  function updateClocks() {
    if (!state.data?.view) return;
    const { clock, serverNow, match } = state.data;
    const now = Date.now() + state.offset;
    const reserves = clock.reserve_ms || [];
    let mine = null;
    for (const el of root.querySelectorAll("[data-clock-seat]")) {
      const seat = Number(el.dataset.clockSeat);
      const parts = [];
      let warn = false;
      let draining = false;
      if (clock.turn === seat && clock.turn_started_ms) {
        const moveEnd = clock.turn_started_ms + (clock.move_ms || 0);
        const moveLeft = clock.move_ms ? moveEnd - now : (clock.deadline_ms ?? now) - now;
        parts.push(`${t("move_clock")} ${formatClock(moveLeft)}`);
        warn = moveLeft <= WARN_MS && moveLeft > 0;
        if (reserves[seat]) {
          const overNow = Math.max(0, now - moveEnd);
          const overThen = Math.max(0, serverNow - moveEnd);
          parts.push(`${t("reserve")} ${formatClock(reserves[seat] - (overNow - overThen))}`);
          draining = moveLeft <= 0;
        } else warn = warn || moveLeft <= 0;
        if (seat === state.data.view.seat && match.my_turn) mine = { warn, draining, moveLeft };
      } else if (reserves[seat]) {
        parts.push(`${t("reserve")} ${formatClock(reserves[seat])}`);
      }
      el.textContent = parts.join(" · ");
      el.classList.toggle("warn", warn);
      el.classList.toggle("draining", draining);
      el.classList.toggle("low", warn || draining);
    }
    const banner = document.getElementById("clock-warning");
    if (banner) {
      const text = !mine ? "" : mine.draining ? t("reserve_running") : mine.warn ? t("time_low").replace("{n}", Math.max(0, Math.ceil(mine.moveLeft / 1000))) : "";
      banner.textContent = text;
      banner.hidden = !text;
    }
    const countdown = document.getElementById("summary-countdown");
    const summary = playback.model?.summary;
    if (countdown && summary) {
      const seconds = Math.max(0, Math.ceil((summary.ends - Date.now()) / 1000));
      countdown.textContent = countdown.textContent.replace(/\d+ s$/, `${seconds} s`);
    }
  }

  loadRules(() => render());
  refresh().finally(follow);
  state.poll = setInterval(() => {
    if (!ended(state.data)) refresh();
  }, 5000);
  state.tick = setInterval(updateClocks, 250);
  return () => {
    state.closed = true;
    playback.close();
    state.abort?.abort();
    clearInterval(state.poll);
    clearInterval(state.tick);
    clearTimeout(pending);
    clearTimeout(graceTimer);
  };
}

