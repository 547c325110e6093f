// Small DOM helpers shared by the pages: building elements, the toast, names and clocks.

import { errorMessage, levelLabel, t } from "./i18n.js";

export const app = document.getElementById("app");

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) {
      el.addEventListener(key.slice(2), value);
      el.whole = true;
    } else if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replace an element's children, skipping the null/false of conditional parts. */
export function fill(el, ...children) {
  el.replaceChildren(...parts(children));
}

/** The parts given to `fill` or `patch`, without the null/false of conditional ones. */
const parts = (children) => children.flat().filter((c) => c !== null && c !== undefined && c !== false);

/**
 * Like `fill`, for a view drawn again and again: an old child equal to its replacement (tag,
 * attributes and text, all the way down) stays, keeping the browser's work on it (style,
 * layout, scroll position, focus). A child whose own tag and attributes are unchanged is
 * patched the same way, `depth` levels down, unless it is marked `whole` (it has a handler of
 * its own, or the caller gives the same element to every draw); anything else is replaced
 * whole. The children of a patched child move into the page, so an element given to more than
 * one draw must be marked `whole`.
 */
export function patch(el, children, depth = 4) {
  const next = parts(children).map((c) => (c instanceof Node ? c : document.createTextNode(String(c))));
  const old = [...el.childNodes];
  if (depth === 0 || old.length !== next.length) {
    el.replaceChildren(...next);
    return;
  }
  next.forEach((node, i) => {
    const prev = old[i];
    if (prev.isEqualNode(node)) return;
    if (depth > 1 && sameShell(prev, node)) patch(prev, [...node.childNodes], depth - 1);
    else prev.replaceWith(node);
  });
}

const sameShell = (a, b) =>
  a instanceof Element && b instanceof Element && !a.whole && !b.whole && a.cloneNode(false).isEqualNode(b.cloneNode(false));

/** A message at the top of the page (it never covers the hand at the bottom); 6 s. */
export function toast(message, kind = "error") {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.className = `toast ${kind}`;
  box.hidden = false;
  box.onclick = () => (box.hidden = true);
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (box.hidden = true), 6000);
}

/** An API error for people: the message in the player's language, then the stable code. */
export function errorText(error) {
  const message = errorMessage(error);
  return error?.code && error.code !== "network" ? `${message} (${error.code})` : message;
}

// The service names its bots "Bot 2 (medium)": the level is shown in the player's language,
// and the name already says it is a bot.
const BOT_NAME = /^(.*?)\s*\((easy|medium|hard)\)$/;

export function seatName(match, seat, me) {
  const info = match?.seats?.[seat];
  let name = info?.name || (info ? `${t("seat")} ${seat + 1}` : t("empty_seat"));
  const tags = [];
  if (seat === me) tags.push(t("you"));
  if (info?.is_guest) tags.push(t("guest_tag"));
  if (info?.is_bot) {
    const named = BOT_NAME.exec(name);
    const level = named ? named[2] : match?.level;
    if (named) name = named[1];
    if (!/\bbot\b/i.test(name)) tags.push(t("bot"));
    if (level) tags.push(levelLabel(level));
  }
  if (info?.played_by === "computer_after_forfeit") tags.push(t("computer_after_forfeit"));
  return tags.length ? `${name} (${tags.join(", ")})` : name;
}

/** A name with the guest mark when it belongs to a guest account (guests may share names). */
export function guestMarked(name, isGuest) {
  return isGuest ? `${name} (${t("guest_tag")})` : name;
}

export function formatClock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}
