// Card codes ("QH": rank then suit), their spoken names, and card faces drawn as SVG.
//
// A face is drawn here, in code: corner indices (rank over suit) at the top left and, turned,
// at the bottom right; pips in the usual places for 2..10, a large suit for the ace, and a
// framed letter for J, Q, K. The suits are SVG paths (no font needs to hold ♠♥♦♣), filled with
// the card's colour class, so the four-colour preference is one class on the page.

import { SUIT_SYMBOLS, lang } from "./i18n.js";

const RANKS = "23456789TJQKA";
// Hands are shown by suit, alternating colours: ♠ ♥ ♣ ♦, high cards first within a suit.
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };
const SVG = "http://www.w3.org/2000/svg";

// Spoken names. Turkish: suit then the rank in its possessive form ("kupa onlusu", "maça ası");
// J is "vale", as in the seeds ("Onör: As, Papaz, Kız, Vale").
const NAMES = {
  en: {
    suits: { C: "clubs", D: "diamonds", H: "hearts", S: "spades" },
    ranks: { 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
      9: "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" }, // prettier-ignore
    name: (rank, suit) => `${rank} of ${suit}`,
  },
  tr: {
    suits: { C: "sinek", D: "karo", H: "kupa", S: "maça" },
    ranks: { 2: "ikilisi", 3: "üçlüsü", 4: "dörtlüsü", 5: "beşlisi", 6: "altılısı", 7: "yedilisi",
      8: "sekizlisi", 9: "dokuzlusu", T: "onlusu", J: "valesi", Q: "kızı", K: "papazı", A: "ası" }, // prettier-ignore
    name: (rank, suit) => `${suit} ${rank}`,
  },
};

// Suit shapes in a 100×100 box.
const circle = (x, y, r) => `M${x - r} ${y}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
const SUIT_PATHS = {
  H: "M50 92C22 68 2 50 2 29C2 13 14 3 28 3C39 3 46 10 50 19C54 10 61 3 72 3C86 3 98 13 98 29C98 50 78 68 50 92Z",
  D: "M50 2L86 50L50 98L14 50Z",
  S: "M50 2C36 24 4 40 4 62C4 77 15 86 28 86C37 86 43 82 47 76C46 86 42 93 33 98L67 98C58 93 54 86 53 76C57 82 63 86 72 86C85 86 96 77 96 62C96 40 64 24 50 2Z",
  C: `${circle(50, 27, 22)}${circle(26, 60, 22)}${circle(74, 60, 22)}M45 55C45 78 41 90 32 98L68 98C59 90 55 78 55 55Z`,
};

// Pip centres for 2..10 on a 60×84 face (x, y; pips below the middle are drawn upside down).
const L = 18;
const M = 30;
const R = 42;
const PIPS = {
  2: [[M, 18], [M, 66]],
  3: [[M, 18], [M, 42], [M, 66]],
  4: [[L, 18], [R, 18], [L, 66], [R, 66]],
  5: [[L, 18], [R, 18], [M, 42], [L, 66], [R, 66]],
  6: [[L, 18], [R, 18], [L, 42], [R, 42], [L, 66], [R, 66]],
  7: [[L, 18], [R, 18], [M, 30], [L, 42], [R, 42], [L, 66], [R, 66]],
  8: [[L, 18], [R, 18], [M, 30], [L, 42], [R, 42], [M, 54], [L, 66], [R, 66]],
  9: [[L, 16], [R, 16], [L, 32], [R, 32], [M, 42], [L, 52], [R, 52], [L, 68], [R, 68]],
  10: [[L, 16], [R, 16], [M, 26], [L, 32], [R, 32], [L, 52], [R, 52], [M, 58], [L, 68], [R, 68]],
}; // prettier-ignore

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

function rankText(code) {
  return code[0] === "T" ? "10" : code[0];
}

export function cardText(code) {
  return `${rankText(code)}${SUIT_SYMBOLS[suitOf(code)]}`;
}

/** The card's name as it is said, in the page's language: "ten of hearts", "kupa onlusu". */
export function cardName(code) {
  const names = NAMES[lang()] || NAMES.en;
  return names.name(names.ranks[code[0]], names.suits[suitOf(code)]);
}

/** A suit name in the page's language ("kupa", "hearts"). */
export function suitName(suit) {
  return (NAMES[lang()] || NAMES.en).suits[suit];
}

function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  return el;
}

/** A suit shape centred on (x, y), `size` wide; turned half a turn when `flip`. */
function suitShape(suit, x, y, size, flip = false) {
  const s = size / 100;
  const turn = flip ? ` rotate(180 ${x} ${y})` : "";
  return svg("path", {
    d: SUIT_PATHS[suit],
    transform: `${turn} translate(${x - size / 2} ${y - size / 2}) scale(${s})`.trim(),
    class: "pip",
  });
}

/** A small suit symbol as an inline SVG (for labels: Koz buttons, the score sheet). */
export function suitIcon(suit) {
  const el = svg("svg", { viewBox: "0 0 100 100", class: `suit-icon suit-${suit}`, "aria-hidden": "true" });
  el.append(svg("path", { d: SUIT_PATHS[suit], class: "pip" }));
  return el;
}

function corner(code, flip) {
  const g = svg("g", flip ? { transform: "rotate(180 30 42)" } : {});
  const ten = code[0] === "T";
  const text = svg("text", { x: 7.5, y: 13, class: `index${ten ? " ten" : ""}`, "text-anchor": "middle" });
  text.textContent = rankText(code);
  g.append(text, suitShape(suitOf(code), 7.5, 20.5, 8));
  return g;
}

/** The face of a card as an SVG element (60×84 units; the size comes from CSS). */
export function cardFace(code) {
  const suit = suitOf(code);
  const rank = code[0];
  const face = svg("svg", { viewBox: "0 0 60 84", class: "face", "aria-hidden": "true", focusable: "false" });
  face.append(svg("rect", { x: 0.5, y: 0.5, width: 59, height: 83, rx: 5, class: "paper" }));
  face.append(corner(code, false), corner(code, true));
  if (rank === "A") {
    face.append(suitShape(suit, 30, 42, 26));
  } else if ("JQK".includes(rank)) {
    face.append(svg("rect", { x: 14, y: 14, width: 32, height: 56, rx: 3, class: "frame" }));
    const letter = svg("text", { x: 30, y: 44, class: "court", "text-anchor": "middle" });
    letter.textContent = rank;
    face.append(letter, suitShape(suit, 30, 58, 11));
  } else {
    const count = rank === "T" ? 10 : Number(rank);
    for (const [x, y] of PIPS[count]) face.append(suitShape(suit, x, y, 11, y > 44));
  }
  return face;
}

/**
 * A card as an element: a <button> in the hand (disabled unless `playable`), a <span> on the
 * table. Its accessible name is the spoken name; `legal` marks a card that may be played now.
 */
export function cardElement(code, { button = false, legal = false, playable = false } = {}) {
  const el = document.createElement(button ? "button" : "span");
  el.className = `card suit-${suitOf(code)} ${isRed(code) ? "red" : "black"}${legal ? " legal" : ""}`;
  el.dataset.card = code;
  el.setAttribute(button ? "aria-label" : "title", cardName(code));
  if (!button) el.setAttribute("role", "img");
  if (!button) el.setAttribute("aria-label", cardName(code));
  if (button) {
    el.type = "button";
    el.disabled = !playable;
  }
  el.append(cardFace(code));
  return el;
}
