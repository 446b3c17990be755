"""An independent referee for `klaverjas score`.

Written from ../shared/spec/rules.md and ../shared/spec/record-format.md only, deliberately simple and
sharing no code with engine/: cards are two-character strings ("JH"), seats are "N", "E", "S", "W",
teams "NS" and "EW". `score_line(text)` returns the dict that `klaverjas score` prints for one input
line; `score_record(obj)` does the same for an already-parsed JSON value.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

SEATS = "NESW"
SUITS = "CDHS"
RANKS = "789TJQKA"  # natural order, also the output sort order within a suit
TRUMP_ASC = "78QKTA9J"  # trump order, lowest first (rules.md section 2)
PLAIN_ASC = "789JQKTA"  # plain order, lowest first
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"J": 2, "9": 0, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}

DEFAULT_RULES = {"play": "rotterdam", "bidding": "vrij", "forced": "elder", "roem": "auto", "stuk": "trick"}
CHOICES = {
    "play": ("rotterdam", "amsterdam"),
    "undertrump": ("forced", "forbidden"),
    "bidding": ("vrij", "verplicht", "draaien"),
    "forced": ("elder", "dealer"),
    "roem": ("auto", "declared"),
    "stuk": ("trick", "held"),
}


class Invalid(Exception):
    def __init__(self, reason: str, **where: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.where = where


# ---------------------------------------------------------------- cards and seats


def next_seat(seat: str, n: int = 1) -> str:
    return SEATS[(SEATS.index(seat) + n) % 4]


def team(seat: str) -> str:
    return "NS" if seat in "NS" else "EW"


def other(team_name: str) -> str:
    return "EW" if team_name == "NS" else "NS"


def parse_card(text: Any) -> str | None:
    """Return the card as rank+suit ("TH") or None when the text is not a card."""
    if not isinstance(text, str):
        return None
    if len(text) == 3 and text[:2] == "10":
        text = "T" + text[2]
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        return None
    return text


def suit(card: str) -> str:
    return card[1]


def rank(card: str) -> str:
    return card[0]


def strength(card: str, trump: str) -> int:
    """A number for comparing cards of the same suit (trump or plain order)."""
    if suit(card) == trump:
        return TRUMP_ASC.index(rank(card))
    return PLAIN_ASC.index(rank(card))


def card_points(card: str, trump: str) -> int:
    if suit(card) == trump:
        return TRUMP_POINTS[rank(card)]
    return PLAIN_POINTS[rank(card)]


def sort_cards(cards: list[str]) -> list[str]:
    return sorted(cards, key=lambda c: (SUITS.index(suit(c)), RANKS.index(rank(c))))


# ---------------------------------------------------------------- tricks


def trick_winner_index(cards: list[str], trump: str) -> int:
    """Index (into cards) of the card heading the trick: highest trump, else highest of the led suit."""
    trumps = [i for i, c in enumerate(cards) if suit(c) == trump]
    if trumps:
        return max(trumps, key=lambda i: strength(cards[i], trump))
    led = suit(cards[0])
    same = [i for i, c in enumerate(cards) if suit(c) == led]
    return max(same, key=lambda i: strength(cards[i], trump))


def legal_cards(hand: list[str], trick: list[str], trump: str, play: str, undertrump: str) -> list[str]:
    """The pseudocode of rules.md section 4, literally."""
    if not trick:
        return list(hand)
    led = suit(trick[0])
    same = [c for c in hand if suit(c) == led]
    trick_trumps = [c for c in trick if suit(c) == trump]
    top = max((strength(c, trump) for c in trick_trumps), default=None)
    if led == trump:
        if not same:
            return list(hand)
        higher = [c for c in same if top is None or strength(c, trump) > top]
        return higher if higher else same
    if same:
        return same
    trumps = [c for c in hand if suit(c) == trump]
    if not trumps:
        return list(hand)
    partner_heads = len(trick) >= 2 and trick_winner_index(trick, trump) == len(trick) - 2
    if play == "amsterdam" and partner_heads:
        if len(trumps) == len(hand):
            return list(hand)  # only trumps: any of them
        return [c for c in hand if not (suit(c) == trump and top is not None and strength(c, trump) < top)]
    if top is None:
        return trumps
    higher = [c for c in trumps if strength(c, trump) > top]
    if higher:
        return higher
    others = [c for c in hand if suit(c) != trump]
    if undertrump == "forced" or not others:
        return trumps
    return others


def trick_roem(cards: list[str], trump: str, stuk_in_trick: bool) -> int:
    """Roem of four cards (rules.md section 6)."""
    ranks = [rank(c) for c in cards]
    if len(set(ranks)) == 1:
        return {"J": 200, "A": 100, "K": 100, "Q": 100, "T": 100}.get(ranks[0], 0)
    total = 0
    best_run = 0
    for s in SUITS:
        positions = sorted(RANKS.index(rank(c)) for c in cards if suit(c) == s)
        run = 1
        for a, b in itertools.pairwise(positions):
            run = run + 1 if b == a + 1 else 1
            best_run = max(best_run, run)
    if best_run == 3:
        total += 20
    elif best_run >= 4:
        total += 50
    if stuk_in_trick and ("K" + trump) in cards and ("Q" + trump) in cards:
        total += 20
    return total


# ---------------------------------------------------------------- rules


def read_rules(raw: Any) -> dict[str, Any]:
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise Invalid("rules must be an object")
    rules: dict[str, Any] = dict(DEFAULT_RULES)
    for key, value in raw.items():
        if key == "length":
            continue
        if key not in CHOICES:
            raise Invalid(f"unknown rule {key!r}")
        if value not in CHOICES[key]:
            raise Invalid(f"rule {key} must be one of {', '.join(CHOICES[key])}")
        rules[key] = value
    if "undertrump" not in raw:
        rules["undertrump"] = "forced" if rules["play"] == "rotterdam" else "forbidden"
    length = raw.get("length", {"hands": 16})
    if (
        not isinstance(length, dict)
        or len(length) != 1
        or next(iter(length)) not in ("hands", "target")
        or not isinstance(next(iter(length.values())), int)
        or isinstance(next(iter(length.values())), bool)
        or next(iter(length.values())) < 1
    ):
        raise Invalid('length must be {"hands": N} or {"target": N} with N >= 1')
    rules["length"] = dict(length)
    return rules


# ---------------------------------------------------------------- one hand


def bidding_state(rules: dict[str, Any], hand_no: int, dealer: str, bids: list[Any], turned: list[Any]) -> dict:
    """Replay the bids. Returns {"done": bool, "trump", "player"} or, when not done,
    {"done": False, "phase": "bidding"|"turn", "seat", "legal"}. Raises Invalid."""
    elder = next_seat(dealer)
    mode = rules["bidding"]
    if mode != "draaien" and turned:
        raise Invalid("turned suits are only used with draaien bidding", hand=hand_no)
    if mode == "draaien":
        for i, t in enumerate(turned):
            if t not in list(SUITS):
                raise Invalid(f"turned suit {t!r} is not a suit", hand=hand_no)
            if t in turned[:i]:
                raise Invalid("turned suits must differ", hand=hand_no)
        if hand_no == 0 and turned and turned[0] != "C":
            raise Invalid("the first turned suit of a match is clubs", hand=hand_no)
        if len(turned) > 3:
            raise Invalid("at most three suits are turned", hand=hand_no)
    i = 0
    while True:
        # what is expected at bid index i
        if mode == "verplicht":
            seat, legal = elder, list(SUITS)
        elif mode == "vrij":
            if i < 4:
                seat, legal = next_seat(elder, i), ["pass", *SUITS]
            else:
                seat = elder if rules["forced"] == "elder" else dealer
                legal = list(SUITS)
        else:
            rnd = i // 4
            if rnd == 2:
                if len(turned) < 3:
                    if i < len(bids):
                        raise Invalid("no more bids after eight passes", hand=hand_no, seat=elder)
                    return {"done": False, "phase": "turn"}
                if i < len(bids):
                    raise Invalid("no more bids after eight passes", hand=hand_no, seat=elder)
                return {"done": True, "trump": turned[2], "player": elder, "rest": []}
            if len(turned) < rnd + 1:
                if i < len(bids):
                    raise Invalid("a suit must be turned before this bid", hand=hand_no, seat=next_seat(elder, i))
                return {"done": False, "phase": "turn"}
            seat, legal = next_seat(elder, i % 4), ["pass", "play"]
        if i >= len(bids):
            return {"done": False, "phase": "bidding", "seat": seat, "legal": legal}
        bid = bids[i]
        if bid not in legal:
            raise Invalid(f"bid {bid!r} is not allowed here; allowed: {', '.join(legal)}", hand=hand_no, seat=seat)
        if bid != "pass":
            if i + 1 < len(bids):
                raise Invalid("bidding is over; no more bids", hand=hand_no, seat=next_seat(seat))
            if mode == "draaien":
                if len(turned) > i // 4 + 1:
                    raise Invalid("more suits turned than the bidding used", hand=hand_no)
                return {"done": True, "trump": turned[i // 4], "player": seat}
            return {"done": True, "trump": bid, "player": seat}
        i += 1


def replay_hand(rules: dict[str, Any], hand_no: int, raw: Any, expected_dealer: str | None) -> dict:
    """Replay one hand. Returns {"out": output dict, "complete": bool, "next": next dict or None,
    "score": {...} or None}."""
    if not isinstance(raw, dict):
        raise Invalid("a hand must be an object", hand=hand_no)
    dealer = raw.get("dealer")
    if dealer not in list(SEATS):
        raise Invalid("dealer must be one of N, E, S, W", hand=hand_no)
    if expected_dealer is not None and dealer != expected_dealer:
        raise Invalid(f"dealer must be {expected_dealer} (the next seat clockwise)", hand=hand_no, seat=dealer)
    deal_raw = raw.get("deal")
    if not isinstance(deal_raw, dict) or sorted(deal_raw) != sorted(SEATS):
        raise Invalid("deal must give cards for N, E, S and W", hand=hand_no)
    hands: dict[str, list[str]] = {}
    seen: list[str] = []
    for seat in SEATS:
        cards = deal_raw[seat]
        if not isinstance(cards, list) or len(cards) != 8:
            raise Invalid(f"deal: {seat} must get 8 cards", hand=hand_no, seat=seat)
        parsed = []
        for c in cards:
            p = parse_card(c)
            if p is None:
                raise Invalid(f"deal: {c!r} is not a card", hand=hand_no, seat=seat)
            if p in seen:
                raise Invalid(f"deal: {p} is dealt twice", hand=hand_no, seat=seat)
            seen.append(p)
            parsed.append(p)
        hands[seat] = parsed
    bids = raw.get("bids", [])
    turned = raw.get("turned", [])
    plays = raw.get("plays", [])
    claims = raw.get("claims", [])
    if not isinstance(bids, list) or not isinstance(turned, list) or not isinstance(plays, list):
        raise Invalid("bids, turned and plays must be lists", hand=hand_no)
    if not isinstance(claims, list):
        raise Invalid("claims must be a list", hand=hand_no)
    if claims and rules["roem"] == "auto":
        raise Invalid("roem is counted automatically at this table; claims are not allowed", hand=hand_no)

    out: dict[str, Any] = {"dealer": dealer}
    state = bidding_state(rules, hand_no, dealer, bids, turned)
    if not state["done"]:
        if plays:
            raise Invalid("cards played before the bidding ended", hand=hand_no, play=0)
        if claims:
            raise Invalid("claim before any trick", hand=hand_no)
        out["tricks"] = []
        nxt = {"hand": hand_no, "phase": state["phase"]}
        if state["phase"] == "bidding":
            nxt["seat"] = state["seat"]
            nxt["legal"] = state["legal"]
        return {"out": out, "complete": False, "next": nxt}
    trump, player = state["trump"], state["player"]
    playing = team(player)
    out["trump"] = trump
    out["player"] = player
    out["playing"] = playing

    # held stuk: the seat dealt both K and Q of trump
    stuk_holder = None
    if rules["stuk"] == "held":
        for seat in SEATS:
            if "K" + trump in hands[seat] and "Q" + trump in hands[seat]:
                stuk_holder = seat

    remaining = {s: list(hands[s]) for s in SEATS}
    tricks: list[dict] = []
    leader = next_seat(dealer)
    current: list[str] = []
    held_roem = {"NS": 0, "EW": 0}
    stuk_trick = None  # the trick in which the holder played the second of K and Q of trump
    if len(plays) > 32:
        raise Invalid("more than 32 cards played", hand=hand_no, play=32)
    for idx, text in enumerate(plays):
        seat = next_seat(leader, len(current))
        card = parse_card(text)
        if card is None:
            raise Invalid(f"{text!r} is not a card", hand=hand_no, play=idx, card=text, seat=seat)
        if card not in remaining[seat]:
            raise Invalid(f"{card} is not in {seat}'s hand", hand=hand_no, play=idx, card=card, seat=seat)
        legal = legal_cards(remaining[seat], current, trump, rules["play"], rules["undertrump"])
        if card not in legal:
            raise Invalid(f"{card} is not allowed here", hand=hand_no, play=idx, card=card, seat=seat)
        remaining[seat].remove(card)
        current.append(card)
        # held stuk: scored when the holder plays the second of K and Q of trump; with declared roem
        # only when the holder's team claims the trick in which that card falls (see the claims below)
        if (
            seat == stuk_holder
            and card in ("K" + trump, "Q" + trump)
            and "K" + trump not in remaining[seat]
            and "Q" + trump not in remaining[seat]
        ):
            stuk_trick = len(tricks)
            if rules["roem"] == "auto":
                held_roem[team(seat)] += 20
        if len(current) == 4:
            w = next_seat(leader, trick_winner_index(current, trump))
            pts = sum(card_points(c, trump) for c in current) + (10 if len(tricks) == 7 else 0)
            roem = trick_roem(current, trump, rules["stuk"] == "trick")
            tricks.append({"leader": leader, "cards": current, "winner": w, "points": pts, "roem": roem})
            leader = w
            current = []
    # claims (declared): validate, then decide which tricks' roem counts
    claimed = [False] * len(tricks)
    stuk_claimed = False
    for cl in claims:
        if not isinstance(cl, dict) or cl.get("seat") not in list(SEATS) or not isinstance(cl.get("trick"), int):
            raise Invalid('a claim is {"trick": 0..7, "seat": N|E|S|W}', hand=hand_no)
        t = cl["trick"]
        if isinstance(t, bool) or t < 0 or t >= len(tricks):
            raise Invalid(f"claim for trick {t}, which has not been played", hand=hand_no, seat=cl["seat"])
        if team(cl["seat"]) == team(tricks[t]["winner"]):
            claimed[t] = True
        # a held stuk is claimed by the holder's team for its trick, whoever won that trick
        if t == stuk_trick and stuk_holder is not None and team(cl["seat"]) == team(stuk_holder):
            stuk_claimed = True
    if stuk_claimed:
        held_roem[team(stuk_holder)] += 20
    if rules["roem"] == "declared":
        for t, tr in enumerate(tricks):
            if not claimed[t]:
                tr["roem"] = 0
    out["tricks"] = [dict(t) for t in tricks]
    if current:
        out["tricks"].append({"leader": leader, "cards": list(current)})
    if len(tricks) < 8:
        seat = next_seat(leader, len(current))
        legal = legal_cards(remaining[seat], current, trump, rules["play"], rules["undertrump"])
        nxt = {"hand": hand_no, "phase": "play", "seat": seat, "legal": sort_cards(legal)}
        return {"out": out, "complete": False, "next": nxt}

    points = {"NS": 0, "EW": 0}
    roem = dict(held_roem)
    won = {"NS": 0, "EW": 0}
    for tr in tricks:
        t = team(tr["winner"])
        points[t] += tr["points"]
        roem[t] += tr["roem"]
        won[t] += 1
    pit = False
    for t in ("NS", "EW"):
        if won[t] == 8:
            roem[t] += 100
            pit = True
    defending = other(playing)
    nat = not (points[playing] + roem[playing] > points[defending] + roem[defending])
    if nat:
        score = {playing: 0, defending: 162 + roem["NS"] + roem["EW"]}
    else:
        score = {t: points[t] + roem[t] for t in ("NS", "EW")}
    out["points"] = points
    out["roem"] = roem
    out["nat"] = nat
    out["pit"] = pit
    out["score"] = {"NS": score["NS"], "EW": score["EW"]}
    return {"out": out, "complete": True, "next": None}


# ---------------------------------------------------------------- a record


def match_result(rules: dict[str, Any], total: dict[str, int], hands_done: int) -> str | None:
    """Winner ("NS", "EW", "draw") when the match is over after hands_done complete hands, else None."""
    length = rules["length"]
    if "hands" in length:
        if hands_done < length["hands"]:
            return None
        if total["NS"] == total["EW"]:
            return "draw"
        return "NS" if total["NS"] > total["EW"] else "EW"
    target = length["target"]
    if total["NS"] < target and total["EW"] < target:
        return None
    if total["NS"] == total["EW"]:
        return None  # both at or over with equal totals: another hand
    return "NS" if total["NS"] > total["EW"] else "EW"


def score_record(obj: Any) -> dict:
    try:
        return _score(obj)
    except Invalid as e:
        err = {k: v for k, v in e.where.items() if v is not None}
        err["reason"] = e.reason
        return {"ok": False, "error": err}


def _score(obj: Any) -> dict:
    if not isinstance(obj, dict):
        raise Invalid("a record is a JSON object")
    if obj.get("format") != "klaverjas-record/1":
        raise Invalid("unknown format; expected klaverjas-record/1")
    rules = read_rules(obj.get("rules", {}))
    hands_raw = obj.get("hands", [])
    if not isinstance(hands_raw, list):
        raise Invalid("hands must be a list")
    total = {"NS": 0, "EW": 0}
    out_hands = []
    winner = None
    nxt: dict | None = {"hand": 0, "phase": "deal"}
    expected_dealer = None
    for h, raw in enumerate(hands_raw):
        if winner is not None:
            raise Invalid("the match was already over", hand=h)
        if nxt is not None and nxt["phase"] != "deal":
            raise Invalid("only the last hand may be unfinished", hand=h - 1)
        res = replay_hand(rules, h, raw, expected_dealer)
        out_hands.append(res["out"])
        expected_dealer = next_seat(res["out"]["dealer"])
        if res["complete"]:
            for t in ("NS", "EW"):
                total[t] += res["out"]["score"][t]
            winner = match_result(rules, total, h + 1)
            nxt = None if winner is not None else {"hand": h + 1, "phase": "deal"}
        else:
            nxt = res["next"]
    return {
        "ok": True,
        "hands": out_hands,
        "total": total,
        "finished": winner is not None,
        "winner": winner,
        "next": nxt,
    }


def score_line(line: str) -> dict:
    try:
        obj = json.loads(line)
    except ValueError as e:
        return {"ok": False, "error": {"reason": f"bad JSON: {e}"}}
    return score_record(obj)
