// "Verify deck": KINGDEAL-v1 recomputed on the player's own device (docs/fairness.md).
//
// Everything here runs in the browser with WebCrypto (crypto.subtle SHA-256 and HMAC-SHA256);
// nothing is asked of the server but the transcript itself. The module has no DOM code, so the
// same file also runs under Node 20+ (globalThis.crypto.subtle).
//
//   server_commit = SHA256("KINGDEAL-v1/server\0" ‖ M ‖ S)
//   match_key     = HMAC(S, "KINGDEAL-v1/match\0" ‖ M ‖ C0 ‖ C1 ‖ C2 ‖ C3)
//   hand_key_d    = HMAC(match_key, "KINGDEAL-v1/hand\0" ‖ u32be(d))  (d: deal number; d = h
//                   without redeals, a redealt hand takes the next number)
//   stream        = HMAC(hand_key_d, u32be(0)) ‖ HMAC(hand_key_d, u32be(1)) ‖ …  (u32be draws)
//   uniform(n)    = rejection sampling below 2^32 − (2^32 mod n), then x mod n
//   shuffle       = Fisher–Yates of the deck's n ascending card ids (52, or 32: 7..A) from
//                   position n − 1 down to 1; seat s gets deck[(n/4)s … (n/4)s + n/4 − 1]
//   draw_key      = HMAC(match_key, "KINGDEAL-v1/draw\0"): shuffles the 52 cards into the
//                   opening draw's deck D; high card wins, tied seats alone draw again

export const SPEC = "KINGDEAL-v1";
const SERVER_TAG = "KINGDEAL-v1/server\0";
const MATCH_TAG = "KINGDEAL-v1/match\0";
const HAND_TAG = "KINGDEAL-v1/hand\0";
const DRAW_TAG = "KINGDEAL-v1/draw\0";
const TWO_32 = 2 ** 32;
const RANKS = "23456789TJQKA";
const SUITS = "CDHS";

const subtle = globalThis.crypto.subtle;

/** The decks, card ids ascending: all 52 cards, and the 32 cards 7..A (rank index 5 or more). */
export const DECK_52 = Object.freeze(Array.from({ length: 52 }, (_, i) => i));
export const DECK_32 = Object.freeze(DECK_52.filter((card) => card % 13 >= 5));

// ------------------------------------------------------------------ bytes and cards

export function hexToBytes(hex) {
  if (typeof hex !== "string" || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new Error(`not hexadecimal: ${String(hex).slice(0, 80)}`);
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The 16 bytes of a UUID in RFC 4122 order (the hex digits in the order they are written). */
export function uuidBytes(matchId) {
  const hex = String(matchId).replace(/-/g, "").toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new Error(`not a UUID: ${matchId}`);
  return hexToBytes(hex);
}

/** A 32-byte seed from its 64 hex characters. */
export function seedBytes(hex, what = "seed") {
  if (typeof hex !== "string" || !/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new Error(`${what} is not 64 hexadecimal characters`);
  }
  return hexToBytes(hex);
}

function ascii(text) {
  return new TextEncoder().encode(text);
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function u32be(x) {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, x >>> 0, false);
  return out;
}

export function cardCode(card) {
  return RANKS[card % 13] + SUITS[Math.floor(card / 13)];
}

export function parseCard(code) {
  const text = String(code).toUpperCase();
  const rank = RANKS.indexOf(text[0]);
  const suit = SUITS.indexOf(text[1]);
  if (text.length !== 2 || rank < 0 || suit < 0) throw new Error(`not a card: ${code}`);
  return suit * 13 + rank;
}

// ------------------------------------------------------------------ primitives

export async function sha256(bytes) {
  return new Uint8Array(await subtle.digest("SHA-256", bytes));
}

async function hmacKey(keyBytes) {
  return subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

export async function hmac(keyBytes, message) {
  return new Uint8Array(await subtle.sign("HMAC", await hmacKey(keyBytes), message));
}

// ------------------------------------------------------------------ KINGDEAL-v1

/** server_commit as lowercase hex. */
export async function serverCommit(matchId, serverSeed) {
  return bytesToHex(await sha256(concat(ascii(SERVER_TAG), uuidBytes(matchId), serverSeed)));
}

/** The 32-byte match key from the server seed and the four client seeds (byte arrays). */
export async function matchKey(matchId, serverSeed, clientSeeds) {
  if (serverSeed.length !== 32) throw new Error("the server seed must be 32 bytes");
  if (clientSeeds.length !== 4 || clientSeeds.some((c) => c.length !== 32)) {
    throw new Error("four client seeds of 32 bytes each are needed");
  }
  return hmac(serverSeed, concat(ascii(MATCH_TAG), uuidBytes(matchId), ...clientSeeds));
}

/** The key of deal number `dealNo`. */
export async function handKey(key, dealNo) {
  return hmac(key, concat(ascii(HAND_TAG), u32be(dealNo)));
}

/** The key of the opening draw's deck. */
export async function drawKey(key) {
  return hmac(key, ascii(DRAW_TAG));
}

/**
 * The u32 stream of a hand key: returns an async `next()` that yields the big-endian u32
 * numbers of HMAC(key, u32be(0)) ‖ HMAC(key, u32be(1)) ‖ … one after another.
 */
export async function u32Stream(handKeyBytes) {
  const key = await hmacKey(handKeyBytes);
  let block = 0;
  let words = [];
  let at = 0;
  return async function nextU32() {
    if (at >= words.length) {
      const digest = await subtle.sign("HMAC", key, u32be(block));
      block += 1;
      const view = new DataView(digest);
      words = [];
      for (let i = 0; i < 32; i += 4) words.push(view.getUint32(i, false));
      at = 0;
    }
    return words[at++];
  };
}

/** A uniform number in 0..n-1 by rejection sampling; `nextU32` may be sync or async. */
export async function uniform(n, nextU32) {
  const limit = TWO_32 - (TWO_32 % n);
  for (;;) {
    const x = await nextU32();
    if (x < limit) return x % n;
  }
}

/** `cards` shuffled by the u32 stream of `streamKey`: for i from n − 1 down to 1, swap
 * cards[i] and cards[uniform(i + 1)]. */
export async function shuffle(streamKey, cards) {
  const next = await u32Stream(streamKey);
  const deck = [...cards];
  for (let i = deck.length - 1; i >= 1; i--) {
    const j = await uniform(i + 1, next);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

function checkedDeck(deck) {
  const ok =
    Array.isArray(deck) &&
    deck.length > 0 &&
    deck.length % 4 === 0 &&
    deck.every((c, i) => Number.isInteger(c) && c >= 0 && c < 52 && (i === 0 || deck[i - 1] < c));
  if (!ok) throw new Error("a deck is ascending card ids 0..51, a multiple of 4");
  return deck;
}

/** The deck of deal number `dealNo` after the Fisher–Yates shuffle (card ids of `deck`). */
export async function shuffledDeck(key, dealNo, deck = DECK_52) {
  return shuffle(await handKey(key, dealNo), checkedDeck(deck));
}

/** The four hands of deal number `dealNo`, each a list of n/4 card ids sorted ascending. */
export async function dealHand(key, dealNo, deck = DECK_52) {
  const shuffled = await shuffledDeck(key, dealNo, deck);
  const perSeat = shuffled.length / 4;
  return [0, 1, 2, 3].map((s) =>
    shuffled.slice(perSeat * s, perSeat * (s + 1)).sort((a, b) => a - b),
  );
}

// ------------------------------------------------------------------ the opening draw

/** The opening draw's deck D: the 52 cards shuffled by draw_key. */
export async function drawDeck(key) {
  return shuffle(await drawKey(key), DECK_52);
}

/**
 * A high-card draw from `cards` (card ids, in the order turned over): seats 0..3 each turn
 * over the next card in seat order; the highest rank wins (suits do not rank) and the seats
 * tied on it alone draw again, until one remains. If the cards run out, the lowest seat still
 * drawing wins. Returns {rounds: [[[seat, "JD"], …], …], winner}, the transcript's form.
 */
export function highCardDraw(cards) {
  let candidates = [0, 1, 2, 3];
  const rounds = [];
  let at = 0;
  while (candidates.length > 1 && at < cards.length) {
    const drawn = [];
    for (const seat of candidates) {
      if (at >= cards.length) break;
      drawn.push([seat, cards[at++]]);
    }
    rounds.push(drawn.map(([seat, card]) => [seat, cardCode(card)]));
    if (drawn.length < candidates.length) break; // ran out in the middle of a round
    const top = Math.max(...drawn.map(([, card]) => card % 13));
    candidates = drawn.filter(([, card]) => card % 13 === top).map(([seat]) => seat);
  }
  return { rounds, winner: candidates[0] };
}

/** A draw's rounds as people read them: "0 JD, 1 9D, 2 7D, 3 9C | 0 TD, 1 KD". */
function drawText(rounds) {
  const words = (x) => (Array.isArray(x) ? x.join(" ") : JSON.stringify(x ?? null));
  if (!Array.isArray(rounds)) return words(rounds);
  return rounds.map((round) => (Array.isArray(round) ? round.map(words).join(", ") : words(round))).join(" | ");
}

/** The opening draw of the match with key `key`: {rounds, winner}. */
export async function openingDraw(key) {
  return highCardDraw(await drawDeck(key));
}

// ------------------------------------------------------------------ verification

// The check list's words, English and Turkish. The language is the caller's `lang` option, else
// the page's <html lang> (the client's shell sets it), else English (Node).
const MESSAGES = {
  en: {
    check_spec: "deal specification",
    check_commitment: "commitment",
    check_own_seed: "this device's seed",
    check_seeds: "who made the seeds",
    check_own_hands: "this device's hands",
    check_plays: "plays",
    hand: (h) => `hand ${h + 1}`,
    seat: (s) => `seat ${s}`,
    unknown_spec: (spec) => `unknown deal specification ${spec}`,
    other_match: (got, want) => `the transcript is for match ${got}, not ${want}`,
    four_seeds: "the transcript must list four client seeds",
    spec_ok: (spec, id) => `${spec}, match ${id}`,
    no_commitment: "this device has no stored commitment for this match",
    commit_differs: (got, want) => `SHA-256 of the revealed server seed is ${got}, but the table published ${want}`,
    commit_field: "the transcript's server_commit differs from the one published",
    seed_not_mine: (s) => `seat ${s}'s seed in the transcript is not the one this device sent`,
    no_seed: "this device has no stored seed for this match",
    bot_not_zero: (s) => `seat ${s}'s seed is marked bot but is not 32 zero bytes`,
    mine_marked: (s, source) => `this device made seat ${s}'s seed, but the transcript says: ${source}`,
    maker_client: "made by its player's client",
    maker_server: "made by the server (the player sent none)",
    maker_bot: "a server bot's (32 zero bytes)",
    this_device: " (this device)",
    hand_differs: (hand, s, mine, seen, missing, extra) =>
      `${hand}: the deal gives seat ${s} [${mine}] but this device was shown [${seen}] ` +
      `(shown only: ${missing}; dealt only: ${extra})`,
    bad_play: (hand, message) => `${hand}: ${message}`,
    played_twice: (hand, card) => `${hand}: ${card} was played twice`,
    not_dealt: (hand, who, card, owner) => `${hand}: seat ${who} played ${card}, which was dealt to seat ${owner}`,
    hands_ok: (n) => `${n} hand(s) shown to this device re-dealt`,
    plays_ok: (n) => `every play of ${n} hand(s) checked against the deal`,
    deal_numbers: (list) => `the deals are not numbered 0, 1, 2, … in order: ${list}`,
    deal_missing: (n) => `deal ${n + 1}, shown to this device, is missing from the transcript`,
    check_first_dealer: "first dealer",
    check_first_declarer: "first declarer",
    first_dealer_ok: (s) => `the opening draw gives seat ${s}`,
    first_dealer_differs: (got, said) => `the opening draw gives seat ${got}, but the transcript says seat ${said}`,
    check_draw: "opening draw",
    draw_ok: (cards) => `the drawn cards re-drawn: ${cards}`,
    draw_differs: (got, said) => `the opening draw turns over ${got}, but the transcript says ${said}`,
  },
  tr: {
    check_spec: "dağıtım tanımı",
    check_commitment: "taahhüt",
    check_own_seed: "bu cihazın tohumu",
    check_seeds: "tohumları kim üretti",
    check_own_hands: "bu cihazın elleri",
    check_plays: "oynanan kartlar",
    hand: (h) => `${h + 1}. el`,
    seat: (s) => `${s}. koltuk`,
    unknown_spec: (spec) => `bilinmeyen dağıtım tanımı ${spec}`,
    other_match: (got, want) => `döküm ${got} maçının, ${want} maçının değil`,
    four_seeds: "dökümde dört oyuncu tohumu olmalı",
    spec_ok: (spec, id) => `${spec}, maç ${id}`,
    no_commitment: "bu cihazda bu maçın taahhüdü saklı değil",
    commit_differs: (got, want) => `açıklanan sunucu tohumunun SHA-256'sı ${got}, ama masa ${want} yayımlamıştı`,
    commit_field: "dökümdeki server_commit yayımlanandan farklı",
    seed_not_mine: (s) => `dökümde ${s}. koltuğun tohumu bu cihazın gönderdiği değil`,
    no_seed: "bu cihazda bu maçın tohumu saklı değil",
    bot_not_zero: (s) => `${s}. koltuğun tohumu bot diye işaretli ama 32 sıfır bayt değil`,
    mine_marked: (s, source) => `${s}. koltuğun tohumunu bu cihaz üretti, ama döküm başka diyor: ${source}`,
    maker_client: "oyuncunun cihazı üretti",
    maker_server: "sunucu üretti (oyuncu göndermedi)",
    maker_bot: "sunucu botu (32 sıfır bayt)",
    this_device: " (bu cihaz)",
    hand_differs: (hand, s, mine, seen, missing, extra) =>
      `${hand}: dağıtım ${s}. koltuğa [${mine}] veriyor ama bu cihaza [${seen}] gösterildi ` +
      `(yalnız gösterilen: ${missing}; yalnız dağıtılan: ${extra})`,
    bad_play: (hand, message) => `${hand}: ${message}`,
    played_twice: (hand, card) => `${hand}: ${card} iki kez oynandı`,
    not_dealt: (hand, who, card, owner) => `${hand}: ${who}. koltuk ${card} oynadı, ama o kart ${owner}. koltuğa dağıtılmıştı`,
    hands_ok: (n) => `bu cihaza gösterilen ${n} el yeniden dağıtıldı`,
    plays_ok: (n) => `${n} elin her kartı dağıtımla karşılaştırıldı`,
    deal_numbers: (list) => `dağıtımlar sırayla 0, 1, 2, … diye numaralanmamış: ${list}`,
    deal_missing: (n) => `bu cihaza gösterilen ${n + 1}. dağıtım dökümde yok`,
    check_first_dealer: "ilk dağıtıcı",
    check_first_declarer: "ilk söyleyen",
    first_dealer_ok: (s) => `açılış çekilişi ${s}. koltuğu veriyor`,
    first_dealer_differs: (got, said) => `açılış çekilişi ${got}. koltuğu veriyor, ama döküm ${said}. koltuk diyor`,
    check_draw: "açılış çekilişi",
    draw_ok: (cards) => `çekilen kartlar yeniden çekildi: ${cards}`,
    draw_differs: (got, said) => `açılış çekilişinde ${got} açılıyor, ama döküm ${said} diyor`,
  },
};

/** The keys of the check list (the English words are the `en` values above). */
export const VERIFY_MESSAGES = MESSAGES;

function wordsFor(language) {
  const code = language ?? globalThis.document?.documentElement?.lang ?? "en";
  return String(code).toLowerCase().startsWith("tr") ? MESSAGES.tr : MESSAGES.en;
}

/**
 * Verify an ended match's transcript against what this device stored when it sat down.
 *
 * `transcript`: the game service's fairness transcript (spec, match_id, server_commit,
 * server_seed, client_seeds[4], seed_sources[4], first_declarer, draw: [[[seat, "JD"], …], …]
 * (rulesets with an opening draw), hands: [{hand, declarer, contract, trump,
 * plays: [[seat, "QH"], …]}]). `stored`: {matchId, commitment, seat, seed, hands: {"<h>": ["QH", …]}} kept by
 * this client. Returns {ok, checks: [{check, ok, detail}], problems: [{check, hand, message}],
 * seeds: [{seat, source, mine}]} where `hand` is the 0-based hand index of a failed check (null
 * when not about one hand) and `source` says who made each seed (client, server or bot). Each
 * check also has a `label` for people; labels, details and messages are in `options.lang`
 * ("en" or "tr", default: the page's language).
 */
export async function verifyTranscript(transcript, stored, options = {}) {
  const say = wordsFor(options.lang);
  const handLabel = say.hand;
  const problems = [];
  const checks = [];
  const fail = (check, hand, message) => problems.push({ check, hand, message });
  const record = (check, detail) => {
    const ok = !problems.some((p) => p.check === check);
    checks.push({ check, label: say[`check_${check}`], ok, detail });
    return ok;
  };

  // 0. The transcript is one this verifier understands, for the match we sat at.
  if (!transcript || transcript.spec !== SPEC) {
    fail("spec", null, say.unknown_spec(JSON.stringify(transcript?.spec)));
    record("spec", "");
    return { ok: false, checks, problems };
  }
  if (stored?.matchId && transcript.match_id !== stored.matchId) {
    fail("spec", null, say.other_match(transcript.match_id, stored.matchId));
  }
  let serverSeed;
  let clientSeeds;
  try {
    serverSeed = seedBytes(transcript.server_seed, "the server seed");
    clientSeeds = (transcript.client_seeds || []).map((c, s) => seedBytes(c, `seat ${s}'s seed`));
    if (clientSeeds.length !== 4) throw new Error(say.four_seeds);
  } catch (error) {
    fail("spec", null, error.message);
  }
  if (!record("spec", say.spec_ok(SPEC, transcript.match_id))) {
    return { ok: false, checks, problems };
  }

  // 1. The revealed server seed hashes to the commitment we saw when the table was created.
  const commit = await serverCommit(transcript.match_id, serverSeed);
  const expected = (stored?.commitment || "").toLowerCase();
  if (!expected) {
    fail("commitment", null, say.no_commitment);
  } else if (commit !== expected) {
    fail("commitment", null, say.commit_differs(commit, expected));
  } else if ((transcript.server_commit || "").toLowerCase() !== expected) {
    fail("commitment", null, say.commit_field);
  }
  record("commitment", commit);

  // 2. Our own seed went into the deal, on our seat.
  const seat = stored?.seat;
  if (stored?.seed && Number.isInteger(seat)) {
    if ((transcript.client_seeds[seat] || "").toLowerCase() !== stored.seed.toLowerCase()) {
      fail("own_seed", null, say.seed_not_mine(seat));
    }
  } else {
    fail("own_seed", null, say.no_seed);
  }
  record("own_seed", Number.isInteger(seat) ? say.seat(seat) : "");

  // Who made each seed (the transcript's seed_sources): shown, and checked where it can be.
  const sources = Array.isArray(transcript.seed_sources) ? transcript.seed_sources : [];
  const seeds = clientSeeds.map((bytes, s) => {
    const source = typeof sources[s] === "string" ? sources[s] : "unknown";
    if (source === "bot" && bytes.some((b) => b !== 0)) {
      fail("seeds", null, say.bot_not_zero(s));
    }
    if (s === seat && stored?.seed && source !== "client") {
      fail("seeds", null, say.mine_marked(s, source));
    }
    return { seat: s, source, mine: s === seat };
  });
  record(
    "seeds",
    seeds
      .map((m) => `${say.seat(m.seat)}: ${say[`maker_${m.source}`] || m.source}${m.mine ? say.this_device : ""}`)
      .join("; "),
  );

  // 3 and 4. Re-deal every hand; our cards are the ones shown; every play was dealt, once.
  const key = await matchKey(transcript.match_id, serverSeed, clientSeeds);
  // The opening draw's winner deals first in international (RULES-international.md R1.2) and
  // declares first in konturlu (RULES-konturlu.md §1.3).
  const drawn = { international: "first_dealer", konturlu: "first_declarer" }[transcript.ruleset];
  if (drawn) {
    const draw = await openingDraw(key);
    if (draw.winner !== transcript.first_declarer) {
      fail(drawn, null, say.first_dealer_differs(draw.winner, transcript.first_declarer));
    }
    record(drawn, say.first_dealer_ok(draw.winner));
    // The drawn cards the transcript records (the ones the table showed at the start) are the
    // ones the seeds give. A transcript made before draws were recorded has no `draw` at all
    // and gets no such check; `null` says this ruleset draws nobody, which is false.
    if (transcript.draw !== undefined) {
      if (JSON.stringify(transcript.draw) !== JSON.stringify(draw.rounds)) {
        fail("draw", null, say.draw_differs(drawText(draw.rounds), drawText(transcript.draw)));
      }
      record("draw", say.draw_ok(drawText(draw.rounds)));
    }
  }
  const hands = Array.isArray(transcript.hands) ? transcript.hands : [];
  const shown = stored?.hands || {};
  // Each hand's deal that was played (the last listed for it); the deals thrown away by a
  // redeal or a replay are re-derived too, by their own deal numbers.
  const byIndex = new Map();
  const thrown = [];
  hands.forEach((entry, position) => {
    const h = Number.isInteger(entry?.hand) ? entry.hand : position;
    if (entry?.ended === "redealt" || entry?.ended === "replayed") thrown.push([h, entry]);
    else byIndex.set(h, entry);
  });
  // A hand this device was shown is re-dealt even if the transcript leaves it out.
  for (const h of Object.keys(shown).map(Number)) if (!byIndex.has(h)) byIndex.set(h, null);
  const order = [...byIndex.keys()].sort((a, b) => a - b).map((h) => [h, byIndex.get(h), true]);
  // Deals are numbered 0, 1, 2, … in the order they were dealt (a redeal takes the next
  // number): a transcript that skips or repeats one could have picked its deals.
  const numbers = hands.map((entry) => entry?.deal);
  if (numbers.every(Number.isInteger) && numbers.some((n, i) => n !== i)) {
    fail("plays", null, say.deal_numbers(numbers.join(", ")));
  }
  // Every deal this device was shown is in the transcript, thrown ones included, or is a hand
  // it left out (the one under way when a match was aborted), which is re-dealt below.
  const listed = new Set(numbers);
  for (const [h, entry] of byIndex) if (entry === null) listed.add(h);
  for (const dealNo of Object.keys(stored?.deals || {}).map(Number)) {
    if (numbers.every(Number.isInteger) && !listed.has(dealNo)) fail("own_hands", null, say.deal_missing(dealNo));
  }
  for (const [h, entry, wasPlayed] of [...thrown.map(([h, e]) => [h, e, false]), ...order]) {
    const dealNo = Number.isInteger(entry?.deal) ? entry.deal : h;
    // A 32-card deal (international's deck option) says so; the match's options cover a hand
    // the transcript leaves out.
    const size = entry?.deck_size ?? transcript.options?.deck;
    const dealt = await dealHand(key, dealNo, size === 32 ? DECK_32 : DECK_52);
    // A deal played is checked against the hand this device held in its slot; a thrown one
    // against what it was shown of that deal, if anything.
    const sighting = wasPlayed ? shown[h] : stored?.deals?.[dealNo];
    if (Number.isInteger(seat) && sighting) {
      const mine = dealt[seat].map(cardCode).sort();
      const seen = [...sighting].map((c) => String(c).toUpperCase()).sort();
      if (mine.join(" ") !== seen.join(" ")) {
        const missing = seen.filter((c) => !mine.includes(c));
        const extra = mine.filter((c) => !seen.includes(c));
        fail(
          "own_hands",
          h,
          say.hand_differs(handLabel(h), seat, mine.join(" "), seen.join(" "), missing.join(" ") || "-",
            extra.join(" ") || "-"),
        );
      }
    }
    const owner = new Map();
    dealt.forEach((cards, s) => cards.forEach((c) => owner.set(c, s)));
    const played = new Set();
    // A ruleset with bids among its moves (international) lists them all as `moves`: the
    // card codes among them are the plays.
    const plays = entry?.plays || (entry?.moves || []).filter((m) => /^[2-9TJQKA][CDHS]$/.test(String(m?.[1])));
    for (const play of plays) {
      const [who, code] = Array.isArray(play) ? play : [play?.seat, play?.card];
      let card;
      try {
        card = parseCard(code);
      } catch (error) {
        fail("plays", h, say.bad_play(handLabel(h), error.message));
        continue;
      }
      if (played.has(card)) {
        fail("plays", h, say.played_twice(handLabel(h), cardCode(card)));
      } else if (owner.get(card) !== who) {
        fail(
          "plays",
          h,
          say.not_dealt(handLabel(h), who, cardCode(card), owner.get(card)),
        );
      }
      played.add(card);
    }
  }
  const shownCount = Object.keys(shown).length;
  record("own_hands", say.hands_ok(shownCount));
  record("plays", say.plays_ok(hands.length));
  return { ok: problems.length === 0, checks, problems, seeds };
}
