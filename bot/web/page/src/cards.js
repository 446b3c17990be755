// Cards as the engine writes them: rank then suit, "JS" (jack of spades), "TH" (ten of hearts).
export const SUITS = ["C", "D", "H", "S"];
export const RANKS = ["7", "8", "9", "T", "J", "Q", "K", "A"];
export const SEATS = ["N", "E", "S", "W"];
const SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
// Strength order inside a suit: trump runs J 9 A 10 K Q 8 7, the others A 10 K Q J 9 8 7.
const PLAIN = ["A", "T", "K", "Q", "J", "9", "8", "7"];
const TRUMP = ["J", "9", "A", "T", "K", "Q", "8", "7"];

export function isCard(text) {
  return typeof text === "string" && /^[789TJQKA][CDHS]$/.test(text);
}

export const suitOf = (card) => card[1];
export const rankOf = (card) => card[0];
export const symbol = (suit) => SYMBOLS[suit] || suit;

// Seats in play order after `seat`.
export function seatAfter(seat, n) {
  return SEATS[(SEATS.indexOf(seat) + n) % 4];
}

// The hand as a player holds it: trump first, then the suits so that colours alternate, strongest first.
export function sortHand(cards, trump) {
  const order = ["S", "H", "C", "D"];
  const suits = trump ? [trump, ...order.filter((s) => s !== trump)] : order.slice();
  // Keep colours alternating after trump moved to the front.
  const red = (s) => s === "H" || s === "D";
  const rest = suits.slice(1);
  const arranged = [suits[0]];
  while (rest.length) {
    const last = arranged[arranged.length - 1];
    const i = rest.findIndex((s) => red(s) !== red(last));
    arranged.push(...rest.splice(i >= 0 ? i : 0, 1));
  }
  return cards.slice().sort((a, b) => {
    const sa = arranged.indexOf(suitOf(a));
    const sb = arranged.indexOf(suitOf(b));
    if (sa !== sb) return sa - sb;
    const ranks = suitOf(a) === trump ? TRUMP : PLAIN;
    return ranks.indexOf(rankOf(a)) - ranks.indexOf(rankOf(b));
  });
}

