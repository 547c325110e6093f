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

async function request(base, method, path, body, extraHeaders = {}) {
  const headers = { Accept: "application/json", ...authHeaders(), ...extraHeaders };
  const init = { method, headers, cache: "no-store" };
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

const game = (method, path, body, headers) => request(config.game_api, method, path, body, headers);
const rating = (path) => request(config.rating_api, "GET", path);

function idempotencyKey() {
  return crypto.randomUUID();
}

// ------------------------------------------------------------------ players

export const guest = (name) => game("POST", "/guests", name ? { name } : {});
export const login = (name, password) => game("POST", "/login", { name, password });

// ------------------------------------------------------------------ tables and matches

export async function openTables() {
  const data = await game("GET", "/tables?status=waiting");
  return Array.isArray(data) ? data : data?.items || [];
}

/** {mode: "live"|"computer", level, hands, ruleset} -> the new table (with server_commit). */
export const createTable = (options) =>
  game("POST", "/tables", options, { "Idempotency-Key": idempotencyKey() });

export const joinTable = (matchId, clientSeed, seat) =>
  game(
    "POST",
    `/tables/${matchId}/seats`,
    seat === undefined || seat === null ? { client_seed: clientSeed } : { client_seed: clientSeed, seat },
    { "Idempotency-Key": idempotencyKey() },
  );

export const getTable = (matchId) => game("GET", `/tables/${matchId}`);

/** This player's view of the match: {match, view, clock, server_time_ms}. */
export const getGame = (matchId) => game("GET", `/matches/${matchId}/view`);

export const sendMove = (matchId, move, version) =>
  game("POST", `/matches/${matchId}/moves`, { move, expected_version: version }, {
    "Idempotency-Key": idempotencyKey(),
  });

export const transcript = (matchId) => game("GET", `/matches/${matchId}/transcript`);

/** The match's event stream URL (EventSource cannot send headers: the token rides along). */
export function eventsUrl(matchId, after) {
  const session = loadSession();
  const params = new URLSearchParams();
  if (session?.token) params.set("token", session.token);
  if (after) params.set("after", String(after));
  return `${config.game_api}/matches/${matchId}/events?${params}`;
}

// ------------------------------------------------------------------ rating service

export const weeklyBoard = (week = "current", page = 1) => rating(`/weekly/${week}?page=${page}`);
export const weeklyReset = () => rating("/weekly/current/reset");
export const ladder = (page = 1) => rating(`/ladder?page=${page}`);
export const playerRating = (id) => rating(`/players/${encodeURIComponent(id)}/rating`);
export const ratingHistory = (id, page = 1) =>
  rating(`/players/${encodeURIComponent(id)}/rating-history?page=${page}&page_size=100`);
