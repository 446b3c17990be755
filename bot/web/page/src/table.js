// The table from one seat's side (or the public side when watching): drawn anew from each state frame, with
// events animated and announced between them.
import { isCard, seatAfter, suitOf, symbol } from "./cards.js";
import { h } from "./dom.js";
import { callName, cardName, rankLetter, seatName, suitName, t } from "./texts.js";

const POSITIONS = ["bottom", "left", "top", "right"];
const GATHER_MS = 650;
const team = (seat) => ("NS".includes(seat) ? 0 : 1);

export class TablePage {
  constructor(root, send) {
    this.root = root;
    this.send = send; // frame -> bool
    this.welcome = null;
    this.view = null;
    this.version = null;
    this.status = "connecting";
    this.refused = null; // why the server would not seat or show us
    this.trick = []; // [{seat, card}] on the table now
    this.landed = new Set(); // the cards of the trick that were drawn already (no second slide-in)
    this.gathering = null; // {winner} while the gather animation runs
    this.held = []; // frames held back while it runs
    this.announcements = [];
    this.hint = null;
    this.hintAsked = null; // the version a hint was asked at
    this.focusCard = null;
    this.sheetOpen = false;
    this.menuOpen = false;
    this.options = loadOptions();
    this.sent = false; // an action went out for this version: no second click
    this.clock = setInterval(() => this.tick(), 250);
  }

  // ------------------------------------------------------------------ frames

  frame(frame) {
    if (this.gathering && (frame.type === "state" || frame.type === "event")) {
      this.held.push(frame);
      return;
    }
    switch (frame.type) {
      case "welcome":
        this.welcome = frame;
        this.render();
        break;
      case "state":
        this.state(frame);
        break;
      case "event":
        this.event(frame.event || {});
        break;
      case "hint":
        this.hint = { card: frame.card || null, text: frame.text || "" };
        if (frame.text) this.announce(frame.text, "hint");
        this.render();
        break;
      case "error":
        this.sent = false;
        // Refused before any welcome (a bad link, no table in this channel): that is all the page can show.
        if (!this.welcome && frame.message) this.refused = frame.message;
        if (frame.message) this.announce(frame.message, "error");
        this.render();
        break;
      default:
        break;
    }
  }

  state(frame) {
    const view = frame.view || {};
    this.view = view;
    this.version = frame.version;
    this.sent = false;
    this.trick = trickOf(view);
    if (this.hint && !me(view).legal_cards.includes(this.hint.card)) this.hint = null;
    this.render();
  }

  event(event) {
    const kind = String(event.kind || "");
    if (kind === "card") {
      if (event.seat && isCard(event.card) && !this.trick.some((p) => p.card === event.card)) {
        if (this.trick.length >= 4) this.trick = [];
        this.trick.push({ seat: event.seat, card: event.card });
        this.hint = null;
        this.render();
      }
    } else if (kind === "trick") {
      const winner = event.winner;
      if (winner && this.trick.length) {
        this.gathering = { winner };
        this.render();
        setTimeout(() => this.gathered(), GATHER_MS);
      }
    }
    const text = this.describe(kind, event);
    if (text) this.announce(text, kind);
  }

  // What the table is told of an event, in the catalog's words.
  describe(kind, event) {
    const name = event.seat ? this.name(event.seat) : "";
    switch (kind) {
      case "trick": {
        let text = t("web.trick_won", { name: this.name(event.winner), points: event.points });
        if (event.roem) text += ` ${t("web.roem")} +${event.roem}${roemParts(event.roem_parts)}`;
        return text;
      }
      case "claim":
        return `${name}: ${t("web.roem")} +${event.points}`;
      case "stuk":
        return `${name}: stuk +${event.points}`;
      case "decline":
        return `${name}: ${t("button.no_roem")}`;
      case "bid":
        return null;
      case "trump":
        return `${t("web.trump")}: ${suitName(event.trump)} (${this.name(event.player)})`;
      case "turned":
        return t("web.turned", { suit: suitName(event.suit) });
      case "settled": {
        const mine = this.seat ? team(this.seat) : 0;
        const score = event.score || [0, 0];
        let text = `${t("web.we")} ${score[mine]} – ${score[1 - mine]} ${t("web.they")}`;
        if (event.nat) text = `${t("web.nat")} ${text}`;
        if (event.pit) text = `${t("web.pit")} ${text}`;
        return text;
      }
      case "over": // said in the middle of the table
        return event.winner ? null : t("web.draw");
      case "away": // the seat's own page says it where the back button is
        return event.seat === this.seat ? null : `${name}: ${t("web.away")}`;
      case "stopped":
        return t("web.stopped");
      default:
        return null;
    }
  }

  gathered() {
    this.gathering = null;
    this.trick = [];
    this.landed.clear();
    const held = this.held;
    this.held = [];
    this.render();
    for (const frame of held) this.frame(frame);
  }

  announce(text, kind) {
    const entry = { text, kind, at: Date.now() };
    this.announcements.push(entry);
    this.announcements = this.announcements.slice(-4);
    setTimeout(() => {
      this.announcements = this.announcements.filter((a) => a !== entry);
      this.renderAnnouncements();
    }, { error: 5000, hint: 9000 }[kind] ?? 4000);
    this.renderAnnouncements();
  }

  setStatus(status) {
    this.status = status;
    const pill = this.root.querySelector(".status");
    if (pill) this.renderStatus(pill);
    else this.render();
  }

  // ------------------------------------------------------------------ actions

  act(payload) {
    if (this.sent || this.version === null) return;
    if (this.send({ type: "act", version: this.version, ...payload })) {
      this.sent = true;
      this.render();
    }
  }

  plain(type) {
    if (type === "claim" || type === "decline") {
      if (this.sent) return;
      if (this.send({ type, version: this.version })) this.sent = true;
    } else {
      this.send({ type });
    }
    this.render();
  }

  askHint() {
    if (this.hintAsked === this.version) return;
    if (this.send({ type: "hint" })) {
      this.hintAsked = this.version; // one hint a turn; the server's cooldown answers the rest with its message
      this.render();
    }
  }

  // ------------------------------------------------------------------ drawing

  get seat() {
    return this.welcome?.seat ?? this.view?.seat ?? null;
  }

  position(seat) {
    const me = this.seat || "S";
    for (let i = 0; i < 4; i += 1) if (seatAfter(me, i) === seat) return POSITIONS[i];
    return "top";
  }

  name(seat) {
    const fromTable = this.view?.table?.seats?.[seat]?.name;
    return fromTable || this.welcome?.names?.[seat] || seatName(seat);
  }

  render() {
    const view = this.view;
    const felt = this.options.felt || view?.table?.felt || "green";
    const four = this.options.four_colour ?? view?.table?.four_colour ?? false;
    this.root.className = `table felt-${felt}${four ? " four-colour" : ""}${this.seat ? "" : " watching"}`;
    document.documentElement.lang = this.welcome?.lang || "en";
    if (this.version !== null) this.root.dataset.version = String(this.version); // the state shown (tests wait on it)
    const focused = document.activeElement?.dataset?.card || null;
    if (this.refused && !this.welcome) {
      this.root.replaceChildren(h("div.fatal", { role: "alert" }, this.refused));
      return;
    }
    const seats = this.seat ? ["top", "left", "right"] : ["top", "left", "right", "bottom"];
    this.root.replaceChildren(...[
      this.header(),
      h("main.felt", {}, ...seats.map((pos) => this.opponent(pos)), this.middle(),
        h("div.announcements", { role: "status", "aria-live": "polite" })),
      this.actions(),
      this.hand(),
      this.sheetOpen ? this.sheet() : null,
      this.menuOpen ? this.menu() : null,
    ].filter(Boolean));
    this.renderAnnouncements();
    this.tick();
    if (focused) this.root.querySelector(`.hand [data-card="${focused}"]`)?.focus();
  }

  header() {
    const view = this.view || {};
    const mine = this.seat ? team(this.seat) : 0;
    const totals = view.totals || [0, 0];
    const [we, they] = this.seat ? [t("web.we"), t("web.they")] : [pair("N", "S"), pair("E", "W")];
    return h(
      "header.bar",
      {},
      h("span.status", {}),
      h("span.score", { "aria-label": `${we} ${totals[mine]}, ${they} ${totals[1 - mine]}` },
        h("b", {}, we), ` ${totals[mine]} – ${totals[1 - mine]} `, h("b", {}, they)),
      h("span.spacer"),
      this.seat
        ? h("button.hint", {
          type: "button",
          disabled: this.hintAsked === this.version || !me(view).my_turn || view.phase === "claim",
          onclick: () => this.askHint(),
        }, t("web.hint"))
        : null,
      h("button.sheet-button", { type: "button", "aria-expanded": String(this.sheetOpen),
        onclick: () => { this.sheetOpen = !this.sheetOpen; this.render(); } }, t("web.score_sheet")),
      h("button.menu-button", { type: "button", "aria-expanded": String(this.menuOpen), "aria-label": "⚙",
        onclick: () => { this.menuOpen = !this.menuOpen; this.render(); } }, "⚙"),
    );
  }

  renderStatus(pill) {
    pill.className = `status status-${this.status}`;
    // Before the welcome there are no texts yet: a plain sign says it is on its way.
    const words = { connecting: "…", reconnecting: t("web.reconnecting", {}, "…"), closed: "⚠" };
    pill.textContent = this.status === "live" ? "" : words[this.status] ?? "";
  }

  opponent(pos) {
    const seat = this.seatAt(pos);
    const view = this.view || {};
    const count = cardsLeft(view, seat);
    const away = isAway(view, seat);
    const bid = lastBid(view, seat);
    return h(
      `section.seat.pos-${pos}${view.to_act === seat ? ".to-act" : ""}${away ? ".away" : ""}`,
      { "aria-label": this.name(seat), dataset: { seat } },
      h("div.name", {}, this.name(seat), view.dealer === seat ? h("span.chip", { title: t("web.dealer") }, "D") : null),
      count !== null ? h("div.backs", { "aria-hidden": "true" }, ...Array.from({ length: count }, () => h("i"))) : null,
      away ? h("div.badge", {}, t("web.away")) : null,
      bid ? h("div.bubble", {}, callName(bid)) : null,
      view.to_act === seat && view.deadline ? h("span.clock", {}) : null,
    );
  }

  seatAt(pos) {
    const me = this.seat || "S";
    return seatAfter(me, POSITIONS.indexOf(pos));
  }

  middle() {
    const view = this.view || {};
    const gather = this.gathering ? ` gather-${this.position(this.gathering.winner)}` : "";
    const trick = h(`div.trick${gather}`, {},
      ...this.trick.map(({ seat, card }) => {
        // Only a card just played slides in; a card already on the table stays put through later redraws.
        const fresh = !this.landed.has(card);
        this.landed.add(card);
        return h(`div.slot.at-${this.position(seat)}${fresh ? ".fresh" : ""}`, {},
          this.face(card, { label: `${this.name(seat)}: ${cardName(card)}` }));
      }));
    const turned = (view.turned || []).length && !view.trump
      ? h("div.turned", {}, ...view.turned.slice(-1).map((suit) => h("span", {},
        h(`span.suit.big.s-${suit}`, { "aria-hidden": "true" }, symbol(suit)),
        h("span", {}, t("web.turned", { suit: suitName(suit) })))))
      : null;
    const over = view.phase === "over";
    const trump = view.trump
      ? h("div.trump", { "aria-label": `${t("web.trump")}: ${suitName(view.trump)}` }, `${t("web.trump")} `,
        h(`span.suit.s-${view.trump}`, { "aria-hidden": "true" }, symbol(view.trump)),
        view.player ? h("small", {}, ` · ${this.name(view.player)}`) : null)
      : null;
    return h("div.middle", {}, trump, trick, turned, over ? h("div.over", {}, t("web.match_over")) : null);
  }

  face(card, { label, tag = "div", attrs = {} } = {}) {
    const suit = suitOf(card);
    return h(`${tag}.card.s-${suit}`, { "aria-label": label || cardName(card), dataset: { card }, ...attrs },
      h("span.rank", { "aria-hidden": "true" }, rankLetter(card)),
      h("span.pip", { "aria-hidden": "true" }, symbol(suit)),
      h("span.big", { "aria-hidden": "true" }, symbol(suit)));
  }

  actions() {
    const view = this.view || {};
    const box = h("section.actions", {});
    const seat = this.seat;
    if (!seat || !this.view) return box;
    const mine = me(view);
    if (isAway(view, seat)) {
      box.append(h("p", {}, t("web.away")),
        h("button.primary.back", { type: "button", onclick: () => this.plain("back") }, t("button.back")));
      return box;
    }
    if (mine.may_claim || mine.may_decline) {
      box.append(...[h("p", {}, t("web.claim_question")),
        mine.may_claim ? h("button.primary.claim", { type: "button", disabled: this.sent,
          onclick: () => this.plain("claim") }, t("button.roem")) : null,
        mine.may_decline ? h("button.decline", { type: "button", disabled: this.sent,
          onclick: () => this.plain("decline") }, t("button.no_roem")) : null].filter(Boolean));
    } else if (mine.legal_calls.length) {
      box.append(h("p", {}, t("web.your_turn"), " ", h("span.clock", {})),
        ...mine.legal_calls.map((call) => h(`button.call.call-${call}`, {
          type: "button", disabled: this.sent, dataset: { call },
          onclick: () => this.act({ call }),
        }, call.length === 1 ? h(`span.suit.s-${call}`, { "aria-hidden": "true" }, symbol(call)) : null, callName(call))));
    } else if (mine.my_turn) {
      box.append(h("p.yours", {}, t("web.your_turn"), " ", h("span.clock", {})));
    } else if (view.to_act) {
      box.append(h("p.waiting", {}, t("web.waiting", { name: this.name(view.to_act) })));
    } else if (view.table?.status === "lobby") {
      box.append(h("p", {}, t("web.lobby")));
    }
    return box;
  }

  hand() {
    const view = this.view || {};
    const cards = me(view).hand; // sorted by the server, as the chat shows it
    const legal = new Set(me(view).legal_cards);
    if (!cards.length) return h("section.hand.empty", {});
    const n = cards.length;
    const focus = legal.has(this.focusCard) ? this.focusCard : cards.find((c) => legal.has(c)) || cards[0];
    const fan = h(`div.fan${legal.size ? ".choosing" : ""}`, { role: "toolbar", "aria-label": this.name(this.seat), "aria-orientation": "horizontal" },
      ...cards.map((card, i) => {
        const playable = legal.has(card) && !this.sent;
        const angle = n > 1 ? (i - (n - 1) / 2) * Math.min(4, 24 / n) : 0;
        const el = this.face(card, {
          tag: "button",
          attrs: {
            type: "button",
            tabindex: card === focus ? "0" : "-1",
            "aria-disabled": playable ? null : "true",
            style: { "--angle": `${angle}deg`, "--i": i },
          },
        });
        if (playable) el.classList.add("legal");
        if (this.hint?.card === card) el.classList.add("hinted");
        el.addEventListener("click", () => playable && this.act({ card }));
        el.addEventListener("keydown", (ev) => this.handKey(ev, cards, i));
        el.addEventListener("focus", () => { this.focusCard = card; });
        return el;
      }));
    return h("section.hand", {}, fan);
  }

  handKey(ev, cards, i) {
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: 1, ArrowDown: -1, Home: -i, End: cards.length - 1 - i }[ev.key];
    if (step === undefined) return;
    ev.preventDefault();
    const next = Math.max(0, Math.min(cards.length - 1, i + step));
    const buttons = this.root.querySelectorAll(".hand .card");
    buttons.forEach((b, j) => b.setAttribute("tabindex", j === next ? "0" : "-1"));
    buttons[next]?.focus();
  }

  sheet() {
    const view = this.view || {};
    const mine = this.seat ? team(this.seat) : 0;
    const rows = (view.sheet || []).map((row, i) => {
      const [ours, theirs] = sheetRow(row, mine);
      return h("tr", {}, h("td", {}, String(i + 1)), h("td", {}, ours), h("td", {}, theirs));
    });
    const totals = view.totals || [0, 0];
    if (["play", "claim"].includes(view.phase)) {
      // The hand under way: its card points (and roem) so far, in grey under the settled hands.
      const points = view.points || [0, 0];
      const roem = view.roem || [0, 0];
      const cell = (side) => `${points[side]}${roem[side] ? ` (${t("web.roem")} ${roem[side]})` : ""}`;
      rows.push(h("tr.current", { title: t("web.points") }, h("td", {}, "…"), h("td", {}, cell(mine)),
        h("td", {}, cell(1 - mine))));
    }
    return h("aside.sheet", { "aria-label": t("web.score_sheet") },
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("web.we")), h("th", {}, t("web.they")))),
        h("tbody", {}, ...rows),
        h("tfoot", {}, h("tr", {}, h("td", {}, "Σ"), h("td", {}, String(totals[mine])),
          h("td", {}, String(totals[1 - mine]))))),
      h("button.close", { type: "button", "aria-label": "✕", onclick: () => { this.sheetOpen = false; this.render(); } },
        "✕"));
  }

  // The person's own felt and deck, shown without words (the catalog has none for them): felt swatches and the
  // four suits in the deck's colours; a word only where the catalog has one.
  menu() {
    const felts = ["green", "navy", "burgundy"];
    const current = this.options.felt || this.view?.table?.felt || "green";
    const suits = ["C", "D", "H", "S"].map((s) => h(`span.suit.s-${s}`, { "aria-hidden": "true" }, symbol(s)));
    return h("aside.menu", { "aria-label": t("web.options", {}, "⚙") },
      h("div.felts", { role: "radiogroup" },
        ...felts.map((felt) => h("label", { title: felt }, h("input", {
          type: "radio", name: "felt", value: felt, checked: felt === current, "aria-label": felt,
          onchange: () => this.option("felt", felt),
        }), h(`span.swatch.felt-${felt}`, {})))),
      h("label.deck", {}, h("input", {
        type: "checkbox", checked: this.root.classList.contains("four-colour"), "aria-label": "♣♦♥♠",
        onchange: (ev) => this.option("four_colour", ev.target.checked),
      }), h("span.sample", {}, ...suits)),
      h("button.close", { type: "button", "aria-label": "✕",
        onclick: () => { this.menuOpen = false; this.render(); } }, "✕"));
  }

  option(name, value) {
    this.options[name] = value;
    try {
      localStorage.setItem("klaverjas.options", JSON.stringify(this.options));
    } catch {
      // Storage may be off (a private window, the Activity's iframe): the choice lasts this page.
    }
    this.render();
  }

  renderAnnouncements() {
    const box = this.root.querySelector(".announcements");
    if (!box) return;
    box.replaceChildren(...this.announcements.map((a) => {
      const fresh = !a.shown;
      a.shown = true;
      return h(`p.note.note-${a.kind}${fresh ? ".fresh" : ""}`, {}, a.text);
    }));
    const pill = this.root.querySelector(".status");
    if (pill) this.renderStatus(pill);
  }

  tick() {
    const left = secondsLeft(this.view);
    for (const clock of this.root.querySelectorAll(".clock")) {
      clock.textContent = left === null ? "" : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
      clock.classList.toggle("urgent", left !== null && left <= 10);
    }
  }
}

// An onlooker's team words: the first letters of the partners' seats ("NS" / "NZ").
function pair(a, b) {
  return `${seatName(a).charAt(0)}${seatName(b).charAt(0)}`;
}

function loadOptions() {
  try {
    return JSON.parse(localStorage.getItem("klaverjas.options") || "{}") || {};
  } catch {
    return {};
  }
}

const NOBODY = { seat: null, hand: [], legal_cards: [], legal_calls: [], may_claim: false, may_decline: false,
  my_turn: false };

// The seat's private side of the view (an onlooker has none).
function me(view) {
  return { ...NOBODY, ...(view?.me || {}) };
}

// The trick in progress as [{seat, card}].
function trickOf(view) {
  return (view.trick?.plays || []).map(([seat, card]) => ({ seat, card }));
}

function isAway(view, seat) {
  return Boolean(view?.table?.seats?.[seat]?.away);
}

// How many cards a seat still holds: eight less what it played this hand (nobody holds any between hands).
function cardsLeft(view, seat) {
  if (!["turn", "bidding", "play", "claim"].includes(view.phase)) return null;
  let played = (view.trick?.plays || []).filter(([s]) => s === seat).length;
  for (const trick of view.tricks || []) {
    const at = (SEAT_ORDER.indexOf(seat) - SEAT_ORDER.indexOf(trick.leader) + 4) % 4;
    if (trick.cards && trick.cards[at]) played += 1;
  }
  return 8 - played;
}
const SEAT_ORDER = ["N", "E", "S", "W"];

function roemParts(parts) {
  if (!Array.isArray(parts) || parts.length < 2) return "";
  return ` (${parts.map((p) => p.points).join(" + ")})`;
}

function lastBid(view, seat) {
  if (view.trump || view.phase === "play") return null;
  const bids = (view.bids || []).filter((b) => (Array.isArray(b) ? b[0] : b.seat) === seat);
  const last = bids[bids.length - 1];
  if (!last) return null;
  return Array.isArray(last) ? last[1] : last.call;
}

function secondsLeft(view) {
  if (!view) return null;
  if (typeof view.deadline === "number") {
    const ms = view.deadline > 1e12 ? view.deadline : view.deadline * 1000;
    return Math.max(0, Math.round((ms - Date.now()) / 1000));
  }
  return null;
}

// One row of the boompje, from our side: the points (and roem) of each team, nat and pit marked.
function sheetRow(row, mine) {
  const score = row.score || row.points || [0, 0];
  const roem = row.roem || [0, 0];
  const playing = row.player ? team(row.player) : null;
  const cell = (side) => {
    let text = String(score[side]);
    if (roem[side]) text += ` (${t("web.roem")} ${roem[side]})`;
    if (row.pit && team(row.pit) === side) text += ` ${t("web.pit")}`;
    if (row.nat && playing === side) text += ` ${t("web.nat")}`;
    return text;
  };
  return [cell(mine), cell(1 - mine)];
}
