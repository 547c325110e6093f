// What the browser keeps (localStorage): the session, and per match the fairness record that
// "Verify deck" needs — the commitment published with the table, this device's own seed, the
// seat, and every hand this device was shown (reconstructed as cards held + cards played).

const SESSION = "king.session";
const MATCH = "king.match.";

export function loadSession() {
  try {
    return JSON.parse(localStorage.getItem(SESSION) || "null");
  } catch {
    return null;
  }
}

export function saveSession(session) {
  if (session) localStorage.setItem(SESSION, JSON.stringify(session));
  else localStorage.removeItem(SESSION);
}

export function newClientSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function loadRecord(matchId) {
  try {
    return JSON.parse(localStorage.getItem(MATCH + matchId) || "null");
  } catch {
    return null;
  }
}

export function saveRecord(matchId, record) {
  localStorage.setItem(MATCH + matchId, JSON.stringify(record));
}

/** Start (or keep) the record of a match this device is about to sit at. */
export function beginRecord(matchId, commitment, seed) {
  const existing = loadRecord(matchId);
  if (existing && existing.commitment) return existing;
  const record = { matchId, commitment, seed, seat: null, hands: {}, savedAt: Date.now() };
  saveRecord(matchId, record);
  return record;
}

/** Remember the 13 cards (`size`: 8 with a 32-card deck) this seat was dealt in hand `h` (from a
 * view of that hand), on deal number `deal` (the hand's number unless a traditional hand was
 * redealt or replayed). */
export function rememberHand(matchId, seat, h, cards, deal = h, size = 13) {
  const record = loadRecord(matchId);
  if (!record) return;
  if (record.seat === null || record.seat === undefined) record.seat = seat;
  const sorted = [...new Set(cards)].sort();
  if (sorted.length !== size) return;
  // The first complete sighting of each deal is kept: a later, different one is what
  // verification catches. `hands[h]` is the hand slot's latest deal (the one played).
  record.deals = record.deals || {};
  if (record.deals[deal]) return;
  record.deals[deal] = sorted;
  if (!record.hands[h] || deal !== h) record.hands[h] = sorted;
  saveRecord(matchId, record);
}

export function lastMatch() {
  return localStorage.getItem("king.current") || null;
}

export function setLastMatch(matchId) {
  if (matchId) localStorage.setItem("king.current", matchId);
  else localStorage.removeItem("king.current");
}
