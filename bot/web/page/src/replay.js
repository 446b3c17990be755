// A finished match stepped trick by trick with every hand open, the review's costly decisions marked with
// the better card and what it would have saved.
import { isCard, seatAfter, sortHand, suitOf, symbol } from "./cards.js";
import { h } from "./dom.js";
import { cardName, rankLetter, seatName, setTexts, suitName, t } from "./texts.js";

const POSITIONS = { S: "bottom", W: "left", N: "top", E: "right" };

export async function showReplay(root, token) {
  const answer = await fetch(`./api/replay?t=${encodeURIComponent(token)}`, { headers: { Accept: "application/json" } });
  const data = await answer.json().catch(() => ({}));
  // A refusal (a running match, a sealed tournament, an old link) comes with its reason in the person's words.
  if (!answer.ok) throw new Error(data.message || data.error || `replay: ${answer.status}`);
  setTexts(data.texts || {});
  const names = data.names || {};
  document.documentElement.lang = data.lang || "en";
  const steps = replaySteps(data);
  let at = 0;
  const draw = () => {
    root.className = `table replay felt-${data.felt || "green"}${data.four_colour ? " four-colour" : ""}`;
    const step = steps[at] || { hands: {}, trick: [], marks: [] };
    root.replaceChildren(
      h("header.bar", {}, h("b", {}, "Klaverjas"),
        h("span", {}, step.title || ""),
        step.trump ? h(`span.suit.s-${step.trump}`, { "aria-label": `${t("web.trump")}: ${suitName(step.trump)}` },
          symbol(step.trump)) : null,
        h("span.spacer"),
        h("button.prev", { type: "button", "aria-label": t("button.previous", {}, "◀"), disabled: at === 0,
          onclick: () => { at -= 1; draw(); } }, "◀"),
        h("span.step", {}, `${at + 1} / ${steps.length}`),
        h("button.next", { type: "button", "aria-label": t("button.next", {}, "▶"), disabled: at >= steps.length - 1,
          onclick: () => { at += 1; draw(); } }, "▶")),
      h("main.felt.open", {},
        ...Object.entries(POSITIONS).map(([seat, pos]) => h(`section.seat.open.pos-${pos}`, { dataset: { seat } },
          h("div.name", {}, names[seat] || seatName(seat)),
          h("div.row", {}, ...sortHand(step.hands[seat] || [], step.trump).map((card) => face(card, step, seat))))),
        h("div.middle", {}, h("div.trick", {}, ...step.trick.map(({ seat, card }) => h(`div.slot.at-${POSITIONS[seat]}`, {},
          face(card, step, seat)))))),
      h("section.review", { "aria-live": "polite" }, ...step.marks.map((m) => h("p.mark", {},
        `${names[m.seat] || seatName(m.seat)}: `, markCard(m.card), " → ", markCard(m.better), ` (−${m.loss})`))),
    );
  };
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowRight" && at < steps.length - 1) { at += 1; draw(); }
    if (ev.key === "ArrowLeft" && at > 0) { at -= 1; draw(); }
  });
  draw();
}

function markCard(choice) {
  return isCard(choice) ? cardName(choice) : choice;
}

function face(card, step, seat) {
  const marked = step.marks.some((m) => m.card === card && m.seat === seat);
  const better = step.marks.some((m) => m.better === card && m.seat === seat);
  return h(`div.card.s-${suitOf(card)}${marked ? ".costly" : ""}${better ? ".better" : ""}`,
    { "aria-label": cardName(card), dataset: { card } },
    h("span.rank", { "aria-hidden": "true" }, rankLetter(card)), h("span.pip", { "aria-hidden": "true" }, symbol(suitOf(card))),
    h("span.big", { "aria-hidden": "true" }, symbol(suitOf(card))));
}

// The steps of the replay: per hand, the deal, then each trick (the hands as they were before it). The record
// holds the deal, the bids and the plays in order; the trick winners follow from trump, as the engine has it.
function replaySteps(data) {
  const steps = [];
  const decisions = data.review?.decisions || [];
  (data.record?.hands || []).forEach((hand, index) => {
    const hands = {};
    for (const seat of "NESW") hands[seat] = (hand.deal?.[seat] || []).slice();
    const trump = trumpOf(hand);
    const title = `#${index + 1}`;
    steps.push({ title, hands: copy(hands), trick: [], trump, marks: [] });
    let leader = seatAfter(hand.dealer || "N", 1);
    const plays = hand.plays || [];
    for (let ti = 0; ti * 4 < plays.length; ti += 1) {
      const trick = plays.slice(ti * 4, ti * 4 + 4).map((card, i) => ({ seat: seatAfter(leader, i), card }))
        .filter((p) => isCard(p.card));
      const marks = decisions.filter((d) => d.hand === index && d.trick === ti)
        .map((d) => ({ seat: d.seat, card: d.choice, better: d.best, loss: d.cost }));
      for (const { seat, card } of trick) hands[seat] = hands[seat].filter((c) => c !== card);
      // The hands as they are once the trick lies on the table; the better card stays marked where it was held.
      steps.push({ title: `${title} · ${ti + 1}`, hands: copy(hands), trick, trump, marks });
      if (trick.length === 4 && trump) leader = winnerOf(trick, trump);
    }
  });
  return steps;
}

// Trump: the suit named in the bidding, else the suit turned up (draaien: "play" takes the turned suit).
function trumpOf(hand) {
  const suits = (hand.bids || []).filter((b) => "CDHS".includes(b) && b.length === 1);
  if (suits.length) return suits[suits.length - 1];
  const turned = hand.turned || [];
  return turned.length ? turned[turned.length - 1] : null;
}

const TRUMP_POWER = ["7", "8", "Q", "K", "T", "A", "9", "J"];
const PLAIN_POWER = ["7", "8", "9", "J", "Q", "K", "T", "A"];

function winnerOf(trick, trump) {
  const led = suitOf(trick[0].card);
  const power = (card) => {
    if (suitOf(card) === trump) return 100 + TRUMP_POWER.indexOf(card[0]);
    if (suitOf(card) === led) return PLAIN_POWER.indexOf(card[0]);
    return -1;
  };
  return trick.reduce((best, p) => (power(p.card) > power(best.card) ? p : best)).seat;
}

const copy = (hands) => Object.fromEntries(Object.entries(hands).map(([s, cards]) => [s, cards.slice()]));
