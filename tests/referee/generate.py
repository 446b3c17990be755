"""Random `klaverjas-record/1` records, valid and invalid, for comparing the engine with the referee.

Built on the referee's own rule functions (never on engine/). Everything is driven by a seeded
random.Random, so a (count, seed) pair always yields the same lines.
"""

from __future__ import annotations

import json
import random
from typing import Any

from tests.referee import referee as R

ALL_CARDS = [r + s for s in R.SUITS for r in R.RANKS]


def random_rules(rng: random.Random) -> dict[str, Any]:
    rules: dict[str, Any] = {}
    for key, choices in R.CHOICES.items():
        if rng.random() < 0.8:  # sometimes leave a key out to exercise the defaults
            rules[key] = rng.choice(choices)
    roll = rng.random()
    if roll < 0.45:
        rules["length"] = {"hands": rng.choice([1, 1, 2, 3, 4])}
    elif roll < 0.85:
        rules["length"] = {"target": rng.choice([50, 150, 300, 500, 1001])}
    elif roll < 0.9:
        rules["length"] = {"hands": 8}
    # else: default length (16 hands); such records usually stop early
    return rules


def _fmt(rng: random.Random, card: str, ten_rate: float) -> str:
    if card[0] == "T" and rng.random() < ten_rate:
        return "10" + card[1]
    return card


class _Match:
    """Plays a random match with the referee's rules, recording what happened."""

    def __init__(self, rng: random.Random, rules: dict[str, Any]) -> None:
        self.rng = rng
        self.raw_rules = rules
        self.rules = R.read_rules(rules)
        self.ten_rate = 0.3 if rng.random() < 0.2 else 0.0
        self.pass_rate = rng.choice([0.3, 0.6, 0.85, 0.97])

    def play_hand(self, hand_no: int, dealer: str, stop: str | None) -> tuple[dict[str, Any], bool]:
        """Return (hand record, complete). `stop` is None (play it out), "bidding", "turn" or "play"."""
        rng = self.rng
        rules = self.rules
        deck = list(ALL_CARDS)
        rng.shuffle(deck)
        deal = {s: deck[i * 8 : i * 8 + 8] for i, s in enumerate(R.SEATS)}
        hand: dict[str, Any] = {
            "dealer": dealer,
            "deal": {s: [_fmt(rng, c, self.ten_rate) for c in deal[s]] for s in R.SEATS},
        }
        bids: list[str] = []
        turned: list[str] = []
        if rules["bidding"] == "draaien":
            hand["turned"] = turned
        hand["bids"] = bids
        # bidding
        stop_bid_at = rng.randrange(0, 9) if stop == "bidding" else None
        while True:
            st = R.bidding_state(rules, hand_no, dealer, bids, turned)
            if st["done"]:
                break
            if st["phase"] == "turn":
                if stop == "turn":
                    return hand, False
                options = [s for s in R.SUITS if s not in turned]
                turned.append("C" if hand_no == 0 and not turned else rng.choice(options))
                continue
            if stop_bid_at is not None and len(bids) >= stop_bid_at:
                return hand, False
            legal = st["legal"]
            if "pass" in legal and (stop_bid_at is not None or rng.random() < self.pass_rate):
                bids.append("pass")
            else:
                bids.append(rng.choice([b for b in legal if b != "pass"]))
        if stop in ("bidding", "turn"):
            stop = "play"  # the bidding ended before the chosen stop: stop in the play instead
        trump = st["trump"]
        plays: list[str] = []
        hand["plays"] = plays
        claims: list[dict[str, Any]] = []
        if rules["roem"] == "declared":
            hand["claims"] = claims
        stop_play_at = rng.randrange(0, 32) if stop == "play" else 32
        remaining = {s: list(deal[s]) for s in R.SEATS}
        leader = R.next_seat(dealer)
        current: list[str] = []
        tricks = 0
        stuk = ("K" + trump, "Q" + trump)
        holder = next((s for s in R.SEATS if set(stuk) <= set(deal[s])), None) if rules["stuk"] == "held" else None
        stuk_trick = None
        while len(plays) < stop_play_at:
            seat = R.next_seat(leader, len(current))
            legal = R.legal_cards(remaining[seat], current, trump, rules["play"], rules["undertrump"])
            card = rng.choice(legal)
            remaining[seat].remove(card)
            current.append(card)
            plays.append(_fmt(rng, card, self.ten_rate))
            if seat == holder and card in stuk and not set(stuk) & set(remaining[seat]):
                stuk_trick = tricks
            if len(current) == 4:
                winner = R.next_seat(leader, R.trick_winner_index(current, trump))
                roem = R.trick_roem(current, trump, rules["stuk"] == "trick")
                if rules["roem"] == "declared":
                    if roem and rng.random() < 0.7:
                        claims.append({"trick": tricks, "seat": rng.choice([winner, R.next_seat(winner, 2)])})
                    if rng.random() < 0.15:  # a claim for nothing, or by the other team
                        claims.append({"trick": tricks, "seat": rng.choice(R.SEATS)})
                    if stuk_trick == tricks and holder is not None and rng.random() < 0.7:  # held stuk
                        claims.append({"trick": tricks, "seat": rng.choice([holder, R.next_seat(holder, 2)])})
                leader = winner
                current = []
                tricks += 1
        if claims and rng.random() < 0.3:
            rng.shuffle(claims)
        return hand, len(plays) == 32


def random_record(rng: random.Random, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """A valid record: a whole match, or one stopped between hands, mid-bidding, at a turn or mid-trick."""
    if rules is None:
        rules = random_rules(rng)
    m = _Match(rng, rules)
    record: dict[str, Any] = {"format": "klaverjas-record/1", "rules": rules, "hands": []}
    if not rules and rng.random() < 0.5:
        del record["rules"]  # no rules at all: every default
    max_hands = rng.choice([1, 2, 3, 5, 40])
    dealer = rng.choice(R.SEATS)
    for h in range(max_hands):
        stop = None
        if h == max_hands - 1 and max_hands != 40:
            stop = rng.choice([None, None, "bidding", "turn", "play", "play"])
        hand, complete = m.play_hand(h, dealer, stop)
        record["hands"].append(hand)
        if not complete:
            break
        if R.score_record(record)["finished"]:
            break
        dealer = R.next_seat(dealer)
    return record


# ---------------------------------------------------------------- invalid records


def _find_play_error(rng: random.Random, record: dict[str, Any], kind: str) -> dict[str, Any] | None:
    """Replace one card of `plays` with an illegal card (kind "illegal") or one not in hand ("absent")."""
    rules = R.read_rules(record.get("rules", {}))
    candidates = []
    for h, hand in enumerate(record["hands"]):
        plays = hand.get("plays", [])
        if not plays:
            continue
        st = R.bidding_state(rules, h, hand["dealer"], hand["bids"], hand.get("turned", []))
        trump = st["trump"]
        remaining = {s: [R.parse_card(c) for c in hand["deal"][s]] for s in R.SEATS}
        played: list[str] = []
        leader = R.next_seat(hand["dealer"])
        current: list[str] = []
        for i, text in enumerate(plays):
            card = R.parse_card(text)
            seat = R.next_seat(leader, len(current))
            legal = R.legal_cards(remaining[seat], current, trump, rules["play"], rules["undertrump"])
            if kind == "illegal":
                bad = [c for c in remaining[seat] if c not in legal]
            else:
                bad = [c for c in ALL_CARDS if c not in remaining[seat]]
            if bad:
                candidates.append((h, i, bad))
            remaining[seat].remove(card)
            played.append(card)
            current.append(card)
            if len(current) == 4:
                leader = R.next_seat(leader, R.trick_winner_index(current, trump))
                current = []
    if not candidates:
        return None
    h, i, bad = rng.choice(candidates)
    record["hands"][h]["plays"][i] = rng.choice(bad)
    if rng.random() < 0.5:  # drop what follows (and later hands) half of the time
        del record["hands"][h]["plays"][i + 1 :]
        del record["hands"][h + 1 :]
    return record


def invalid_line(rng: random.Random) -> str:
    """One invalid JSON line, of a randomly chosen kind."""
    kind = rng.choice(
        ["illegal", "illegal", "illegal", "absent", "absent", "bid", "dealer", "deal", "claim", "json", "format",
         "future_claim", "turned", "unfinished", "after_end", "rules"]
    )
    for _ in range(50):
        record = random_record(rng)
        if kind in ("illegal", "absent"):
            if _find_play_error(rng, record, kind) is None:
                continue
        elif kind == "bid":
            if not _bad_bid(rng, record):
                continue
        elif kind == "dealer":
            if len(record["hands"]) < 2:
                continue
            h = rng.randrange(1, len(record["hands"]))
            expected = R.next_seat(record["hands"][h - 1]["dealer"])
            record["hands"][h]["dealer"] = rng.choice([s for s in R.SEATS if s != expected])
        elif kind == "deal":
            if not record["hands"]:
                continue
            _bad_deal(rng, record["hands"][rng.randrange(len(record["hands"]))])
        elif kind == "claim":
            rules = R.read_rules(record.get("rules", {}))
            if rules["roem"] != "auto":
                continue
            full = [h for h in record["hands"] if len(h.get("plays", [])) >= 4]
            if not full:
                continue
            hand = rng.choice(full)
            hand["claims"] = [{"trick": rng.randrange(len(hand["plays"]) // 4), "seat": rng.choice(R.SEATS)}]
        elif kind == "future_claim":
            rules = R.read_rules(record.get("rules", {}))
            hand = record["hands"][-1] if record["hands"] else None
            if rules["roem"] != "declared" or hand is None or len(hand.get("plays", [])) >= 32:
                continue
            trick = len(hand.get("plays", [])) // 4
            hand.setdefault("claims", []).append({"trick": trick, "seat": rng.choice(R.SEATS)})
        elif kind == "turned":
            rules = R.read_rules(record.get("rules", {}))
            if rules["bidding"] != "draaien" or not record["hands"] or not record["hands"][0]["turned"]:
                continue
            if rng.random() < 0.5:
                record["hands"][0]["turned"][0] = rng.choice("DHS")
            else:
                hand = rng.choice(record["hands"])
                if len(hand["turned"]) < 2:
                    continue
                hand["turned"][1] = hand["turned"][0]
        elif kind == "unfinished":
            if len(record["hands"]) < 2:
                continue
            h = rng.randrange(len(record["hands"]) - 1)
            del record["hands"][h]["plays"][rng.randrange(32) :]
        elif kind == "after_end":
            if not R.score_record(record).get("finished"):
                continue
            extra = _Match(rng, record.get("rules", {})).play_hand(
                len(record["hands"]), R.next_seat(record["hands"][-1]["dealer"]), None
            )[0]
            record["hands"].append(extra)
        elif kind == "rules":
            record.setdefault("rules", {})[rng.choice(list(R.CHOICES))] = rng.choice(["", "x", 3, None])
            if rng.random() < 0.3:
                record["rules"] = {"length": rng.choice([{"hands": 0}, {"target": -5}, {}, 16, {"hands": "8"}])}
        elif kind == "json":
            text = json.dumps(record)
            cut = rng.randrange(1, len(text) - 1)
            return text[:cut]
        elif kind == "format":
            record["format"] = rng.choice(["klaverjas-record/2", "klaverjas", "", "jass-record/1"])
        return json.dumps(record)
    return json.dumps({"format": "nope"})


def _bad_bid(rng: random.Random, record: dict[str, Any]) -> bool:
    rules = R.read_rules(record.get("rules", {}))
    hands = [h for h in record["hands"] if h["bids"]]
    if not hands:
        return False
    hand = rng.choice(hands)
    i = rng.randrange(len(hand["bids"]))
    mode = rules["bidding"]
    if mode == "verplicht":
        bad = ["pass", "play", "X"]
    elif mode == "vrij":
        bad = ["play", "X", "pas"] + (["pass"] if i == 4 else [])
    else:
        bad = ["C", "D", "H", "S", "X"]
    if rng.random() < 0.3 and hand.get("plays") is not None:
        hand["bids"].append(rng.choice(["pass", "C", "play"]))  # a bid after the bidding ended
    else:
        hand["bids"][i] = rng.choice(bad)
    return True


def _bad_deal(rng: random.Random, hand: dict[str, Any]) -> None:
    seat = rng.choice(R.SEATS)
    how = rng.choice(["dup", "short", "junk"])
    if how == "dup":
        other = rng.choice([s for s in R.SEATS if s != seat])
        hand["deal"][seat][rng.randrange(8)] = hand["deal"][other][rng.randrange(8)]
    elif how == "short":
        hand["deal"][seat].pop()
    else:
        hand["deal"][seat][rng.randrange(8)] = rng.choice(["1H", "ZZ", "JX", ""])


def lines(count: int, seed: int, invalid_rate: float = 0.3) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        if rng.random() < invalid_rate:
            out.append(invalid_line(rng))
        else:
            out.append(json.dumps(random_record(rng)))
    return out
