// Card codes ("QH": rank then suit) and how the client shows and sorts them.

import { SUIT_SYMBOLS } from "./i18n.js";

const RANKS = "23456789TJQKA";
// Hands are shown by suit, alternating colours: ♠ ♥ ♣ ♦, high cards first within a suit.
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };

export function rankOf(code) {
  return RANKS.indexOf(code[0]);
}

export function suitOf(code) {
  return code[1];
}

export function sortHand(codes) {
  return [...codes].sort(
    (a, b) => SUIT_ORDER[suitOf(a)] - SUIT_ORDER[suitOf(b)] || rankOf(b) - rankOf(a),
  );
}

export function isRed(code) {
  return suitOf(code) === "H" || suitOf(code) === "D";
}

export function cardText(code) {
  const rank = code[0] === "T" ? "10" : code[0];
  return `${rank}${SUIT_SYMBOLS[suitOf(code)]}`;
}

/** A card as an element: a <button> when it can be played, a <span> otherwise. */
export function cardElement(code, { button = false, legal = false } = {}) {
  const el = document.createElement(button ? "button" : "span");
  el.className = `card ${isRed(code) ? "red" : "black"}${legal ? " legal" : ""}`;
  el.dataset.card = code;
  el.textContent = cardText(code);
  el.setAttribute("aria-label", code);
  if (button) el.type = "button";
  return el;
}
