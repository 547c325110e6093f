// The table's playback: the match's public events, queued and played out at a readable pace.
//
// The service answers in milliseconds, so without this the bots' cards, the end of a trick and
// the end of a hand would all pass between two redraws. The events (card_played, trick_won,
// hand_scored, ...; docs/game-api.md) go into a queue, and a model of the table — the trick on
// the felt, its leader and winner, the last trick, tricks and penalty cards taken, points — is
// changed one event at a time, with a pause after each. The model starts from (and, once the
// queue is empty, is set back to) a view of the match: the view is the truth, the events only
// say how it got there. No DOM here: `onStep` redraws.

const PACE_KEY = "king.pace";

// Milliseconds: after another seat's card, after our own, the winner shown before the trick is
// taken away, the trick on its way to the winner, and the hand's summary unless pressed on.
export const PACES = {
  slow: { card: 1100, own: 600, trick: 1400, collect: 550, summary: 12000, note: 1200 },
  normal: { card: 650, own: 400, trick: 900, collect: 450, summary: 8000, note: 800 },
  fast: { card: 150, own: 100, trick: 250, collect: 150, summary: 4000, note: 200 },
  // No pauses: each move is drawn as it comes (the summary still waits for Continue a moment).
  instant: { card: 0, own: 0, trick: 0, collect: 0, summary: 1500, note: 0 },
};

export function pace() {
  const name = localStorage.getItem(PACE_KEY);
  return PACES[name] ? name : "normal";
}

export function setPace(name) {
  localStorage.setItem(PACE_KEY, PACES[name] ? name : "normal");
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The cards of a contract that carry its penalty (what the table lists under "taken"). */
export function penaltyCards(contract, cards) {
  const test = {
    hearts: (c) => c[1] === "H",
    queens: (c) => c[0] === "Q",
    boys: (c) => c[0] === "K" || c[0] === "J",
    king_of_hearts: (c) => c === "KH",
    // international's negative hands (RULES-international.md R1.6)
    no_hearts: (c) => c[1] === "H",
    no_queens: (c) => c[0] === "Q",
    no_kings_jacks: (c) => c[0] === "K" || c[0] === "J",
    no_king_of_hearts: (c) => c === "KH",
  }[{ kupa: "hearts", kiz: "queens", erkek: "boys", rifki: "king_of_hearts" }[contract] ?? contract];
  return test ? cards.filter(test) : [];
}

function emptyTrick() {
  return { leader: null, plays: [], winner: null, collecting: false };
}

/** The model of the table as a view shows it. */
export function modelOfView(view, version) {
  const current = view.current_trick;
  const last = (view.tricks || []).at(-1) || null;
  const mine = new Set();
  for (const trick of [...(view.tricks || []), ...(current ? [current] : [])]) {
    for (const play of trick.plays || []) if (play.seat === view.seat) mine.add(play.card);
  }
  return {
    v: version,
    hand: view.hand,
    declarer: view.declarer,
    contract: view.contract ?? null,
    trump: view.trump ?? null,
    trick: current ? { ...emptyTrick(), leader: current.leader, plays: [...current.plays] } : emptyTrick(),
    last: last ? { leader: last.leader, plays: [...last.plays], winner: last.winner } : null,
    taken: [...(view.tricks_taken || [0, 0, 0, 0])],
    // Tricks in a row up to the last one, by seat (traditional's King feat counts them).
    runs: [...(view.runs || [0, 0, 0, 0])],
    penalties: (view.penalty_cards_taken || [[], [], [], []]).map((cards) => [...cards]),
    points: [...(view.hand_points || [0, 0, 0, 0])],
    totals: [...(view.totals || [0, 0, 0, 0])],
    myPlayed: mine,
    note: null,
    summary: null,
    over: view.phase === "over",
  };
}

export class Playback {
  constructor(seat, onStep) {
    this.seat = seat;
    this.onStep = onStep;
    this.model = null;
    this.queue = [];
    this.lastSeq = 0;
    this.running = false;
    this.closed = false;
    this.release = null;
    // A ruleset's own events and facts (table-konturlu.js): { sync(model, view), play(...) }.
    this.extension = null;
  }

  /** True when every queued event has been played out. */
  idle() {
    return !this.running && this.queue.length === 0;
  }

  /** Set the model to a view (`version` is the match's); queued events it covers are dropped. */
  sync(view, version) {
    this.model = modelOfView(view, version);
    this.extension?.sync(this.model, view);
    this.queue = this.queue.filter((e) => e.v === undefined || e.v > version);
  }

  /**
   * Queue events. A long-poll page is contiguous from its `after` and always taken; the events
   * of a move's answer only when they follow the last one queued (else the poll brings them).
   */
  push(events, { page = false } = {}) {
    for (const event of events) {
      if (event.seq !== undefined) {
        if (event.seq <= this.lastSeq) continue;
        if (!page && this.lastSeq && event.seq !== this.lastSeq + 1) return;
        this.lastSeq = event.seq;
      }
      if (this.model && event.v !== undefined && event.v <= this.model.v) continue;
      this.queue.push(event);
    }
    this.run();
  }

  /** Press on from the hand's summary before its time is up. */
  proceed() {
    this.release?.();
  }

  async run() {
    if (this.running || !this.model) return;
    this.running = true;
    try {
      while (this.queue.length && !this.closed) {
        const event = this.queue.shift();
        await this.play(event);
        if (event.v !== undefined && this.model) this.model.v = Math.max(this.model.v, event.v);
      }
    } finally {
      this.running = false;
      if (!this.closed) this.onStep(this.model, "idle");
    }
  }

  async play(event) {
    const m = this.model;
    const timing = PACES[pace()];
    const step = () => this.onStep(m, event.type);
    // The ruleset's extension plays the events it knows (it answers a promise), else we do.
    const own = this.extension?.play(m, event, { timing, step, sleep, seat: this.seat });
    if (own) return own;
    switch (event.type) {
      case "hand_started":
        Object.assign(m, modelOfView({ ...event, seat: this.seat, phase: "contract" }, m.v), {
          totals: m.totals,
          last: null,
        });
        step();
        return;
      case "contract_chosen":
        m.contract = event.contract;
        m.trump = event.trump;
        m.note = { kind: "contract", seat: event.seat, contract: event.contract, trump: event.trump };
        step();
        await sleep(event.seat === this.seat ? 0 : timing.note);
        m.note = null;
        return;
      case "card_played": {
        // A new trick, or (after a gap in the log) a trick whose start was never seen.
        const other = m.trick.index !== undefined && event.trick !== undefined && m.trick.index !== event.trick;
        if (m.trick.winner !== null || m.trick.plays.length >= 4 || other) m.trick = emptyTrick();
        if (!m.trick.plays.length) m.trick.leader = event.seat;
        m.trick.index = event.trick;
        m.trick.plays.push({ seat: event.seat, card: event.card });
        if (event.seat === this.seat) m.myPlayed.add(event.card);
        step();
        await sleep(event.seat === this.seat ? timing.own : timing.card);
        return;
      }
      case "trick_won": {
        const cards = event.cards || [];
        if (cards.length === 4 && m.trick.plays.length && m.trick.plays.length < 4) {
          // Some plays of this trick were trimmed from the log: the event has its four cards
          // in order, and the last play seen was its fourth, so every seat is known.
          const leader = (m.trick.plays.at(-1).seat + 1) % 4;
          m.trick.leader = leader;
          m.trick.plays = cards.map((card, i) => ({ seat: (leader + i) % 4, card }));
        }
        m.trick.winner = event.seat;
        step();
        await sleep(timing.trick);
        m.trick.collecting = true;
        step();
        await sleep(timing.collect);
        m.taken[event.seat] += 1;
        m.runs = m.runs.map((run, seat) => (seat === event.seat ? run + 1 : 0));
        m.penalties[event.seat].push(...penaltyCards(m.contract, cards));
        m.points[event.seat] += event.points || 0;
        m.last = { leader: m.trick.leader, plays: [...m.trick.plays], winner: event.seat };
        m.trick = emptyTrick();
        step();
        await sleep(timing.card / 2); // an empty felt for a moment before the next lead
        return;
      }
      case "hand_scored": {
        m.points = [...event.points];
        m.summary = {
          hand: event.hand,
          declarer: event.declarer,
          contract: event.contract,
          trump: event.trump,
          points: [...event.points],
          totals: [...event.totals],
          taken: [...m.taken],
          penalties: m.penalties.map((cards) => [...cards]),
          ends: Date.now() + timing.summary,
        };
        m.totals = [...event.totals];
        step();
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, timing.summary);
          this.release = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.release = null;
        m.summary = null;
        step();
        return;
      }
      case "call":
        // traditional: a redeal round's or a King announcement's answer, said for a moment.
        m.note = { kind: "call", seat: event.seat, call: event.call };
        step();
        await sleep(event.seat === this.seat ? 0 : timing.note);
        m.note = null;
        return;
      case "redealt":
      case "replayed":
        // traditional: this deal is thrown away and the hand slot starts on a new one (the
        // Kız replay keeps its contract); the view says who asked and why.
        Object.assign(m, {
          trick: emptyTrick(),
          last: null,
          taken: [0, 0, 0, 0],
          runs: [0, 0, 0, 0],
          penalties: [[], [], [], []],
          points: [0, 0, 0, 0],
          myPlayed: new Set(),
          note: { kind: event.type, seat: event.seat ?? null, reason: event.reason, deal: event.deal },
        });
        if (event.type === "redealt") Object.assign(m, { contract: null, trump: null });
        step();
        await sleep(timing.trick);
        m.note = null;
        return;
      case "match_over":
        m.over = true;
        m.totals = [...event.totals];
        step();
        return;
      default:
        // Seats, clocks, forfeits: the view that follows shows what they changed.
        return;
    }
  }

  close() {
    this.closed = true;
    this.release?.();
  }
}
