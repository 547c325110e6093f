// The only module that knows the HTTP API's paths and shapes (game service under /v1, rating
// service through /web/rating or its public URL). Errors come back as ApiError carrying the
// problem+json body's stable `code` and human `detail`.

import { loadSession } from "./store.js";

let config = { game_api: "/v1", rating_api: "/web/rating" };

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.detail || body?.message || body?.title || `HTTP ${status}`);
    this.status = status;
    this.code = body?.code || "http_" + status;
    this.details = body?.details || body?.errors || {};
    this.body = body;
  }
}

export async function loadConfig() {
  try {
    const response = await fetch("/web/config.json", { cache: "no-store" });
    if (response.ok) config = { ...config, ...(await response.json()) };
  } catch {
    // keep the defaults: same-origin /v1
  }
  return config;
}

function authHeaders() {
  const session = loadSession();
  return session?.token ? { Authorization: `Bearer ${session.token}` } : {};
}

async function request(base, method, path, body, extraHeaders = {}, signal = undefined) {
  const headers = { Accept: "application/json", ...authHeaders(), ...extraHeaders };
  const init = { method, headers, cache: "no-store", signal };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(base + path, init);
  } catch (error) {
    throw new ApiError(0, { code: "network", detail: String(error.message || error) });
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: text.slice(0, 200) };
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

const game = (method, path, body, headers) =>
  request(config.game_api, method, path, body, headers);
const rating = (path) => request(config.rating_api, "GET", path);

function idempotencyKey() {
  return crypto.randomUUID();
}

// ------------------------------------------------------------------ players

/** A guest account (name only): {token, account: {id, name, is_guest}}. Without a name, a
 * numbered "Misafir": a registered player could hold the bare word, which guests may not take. */
export const guest = (name) =>
  game("POST", "/accounts", { name: name || `Misafir ${Math.floor(1000 + Math.random() * 9000)}` });
export const login = (name, password) => game("POST", "/tokens", { name, password });
export const signup = (name, password) => game("POST", "/accounts", { name, password });
export const logout = () => game("DELETE", "/tokens/current");

// ------------------------------------------------------------------ tables and matches

export async function openTables() {
  const data = await game("GET", "/tables");
  return data?.tables || [];
}

/**
 * {mode: "live"|"computer", level, hands, ruleset, seat} -> the new table, with its deal
 * commitment `server_commit`; nobody sits yet: the creator then sits with `joinTable`.
 */
export const createTable = (options) => game("POST", "/tables", options);

/** Take a seat (any free one when `seat` is null) -> {seat, table}. */
export const joinTable = (tableId, clientSeed, seat) =>
  game("POST", `/tables/${tableId}/seats`, { client_seed: clientSeed, seat: seat ?? null });

/** Leave a table before its match starts. */
export const leaveTable = (tableId) => game("DELETE", `/tables/${tableId}/seats/me`);

export const getTable = (tableId) => game("GET", `/tables/${tableId}`);

/** This seat's match: table fields, `version`, `seat`, `clock`, `view`, `places` when over. */
export const getMatch = (matchId) => game("GET", `/matches/${matchId}`);

/** Active and recent matches of the caller (what a reloaded client resumes). */
export const myMatches = () => game("GET", "/me/matches");

export const sendMove = (matchId, move, version) =>
  game(
    "POST",
    `/matches/${matchId}/moves`,
    { move, version },
    { "Idempotency-Key": idempotencyKey() },
  );

export const resign = (matchId, version) =>
  game("POST", `/matches/${matchId}/resign`, { version }, { "Idempotency-Key": idempotencyKey() });

/** Long-poll: the public events after `after`, waiting up to `wait` seconds for the first. */
export const events = (matchId, after, wait = 20, signal) =>
  request(config.game_api, "GET", `/matches/${matchId}/events?after=${after}&wait=${wait}`, undefined, {}, signal);

/** The KINGDEAL-v1 transcript of an ended match (public). */
export const transcript = (matchId) => game("GET", `/matches/${matchId}/fairness`);
export const rules = () => game("GET", "/rules"); // public: contracts, quotas, clocks

// ------------------------------------------------------------------ rating service

export const weeklyBoard = (week = "current", page = 1) => rating(`/weekly/${week}?page=${page}`);
export const weeklyReset = () => rating("/weekly/current/reset");
export const ladder = (page = 1) => rating(`/ladder?page=${page}`);
export const playerRating = (id) => rating(`/players/${encodeURIComponent(id)}/rating`);
export const ratingHistory = (id, page = 1) =>
  rating(`/players/${encodeURIComponent(id)}/rating-history?page=${page}&page_size=100`);

// ------------------------------------------------------------------ quick match

/** Join the pool of a ruleset and length -> the quick-match state (see quickmatch.js). */
export const quickJoin = (ruleset, hands) => game("POST", "/quickmatch", { ruleset, hands });
/** The state; while waiting, asking keeps the place (poll every few seconds). */
export const quickStatus = () => game("GET", "/quickmatch");
export const quickLeave = () => game("DELETE", "/quickmatch");
/** Take the held seat with this device's seed, made after the commitment was stored. */
export const quickConfirm = (clientSeed) =>
  game("POST", "/quickmatch/confirm", { client_seed: clientSeed });
