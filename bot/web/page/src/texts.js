// Every word the page shows comes from the server's welcome frame (the bot's one catalog, in the person's
// language); this module only looks them up and fills in {placeholders}. A text the server did not send shows
// as a symbol or the bare key, never as a second translation here.
import { rankOf, suitOf, symbol } from "./cards.js";

let TEXTS = {};
export function setTexts(texts) {
  TEXTS = texts && typeof texts === "object" ? texts : {};
}

export function has(key) {
  return typeof TEXTS[key] === "string";
}

export function t(key, params = {}, fallback = null) {
  const template = has(key) ? TEXTS[key] : fallback ?? key.split(".").pop().replace(/_/g, " ");
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// The card's face letter as the images show it ("B" for a Dutch jack), when the server sent the letters.
export function rankLetter(card) {
  const rank = rankOf(card);
  if (has(`rank.${rank}`)) return TEXTS[`rank.${rank}`];
  return rank === "T" ? "10" : rank;
}

// The card's accessible name: "Jack of spades" / "Schoppen boer". The catalog's label reads "J♠ — jack of
// spades"; the words after the dash are the name.
export function cardName(card) {
  if (has(`card.${card}`)) {
    const label = TEXTS[`card.${card}`];
    const words = label.includes(" — ") ? label.split(" — ").pop() : label;
    return words.charAt(0).toUpperCase() + words.slice(1);
  }
  return `${rankLetter(card)}${symbol(suitOf(card))}`;
}

export function suitName(suit) {
  return has(`suit.${suit}`) ? TEXTS[`suit.${suit}`] : symbol(suit);
}

export function seatName(seat) {
  return has(`seat.${seat}`) ? TEXTS[`seat.${seat}`] : seat;
}

// A bidding call's words: spelen/passen, or the suit's name.
export function callName(call) {
  if (call === "pass" || call === "play") return t(`button.${call}`);
  return call.length === 1 ? suitName(call) : call;
}
