"""Bidding modes, dealer rotation, pit, claims, held stuk, match end and illegal actions, through the
public Game API and the record replay (expected values worked out from rules.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from klaverjas_test_helpers import first_hand_game, notation, one_suit_each_hand, record

from engine.actions import Call, Claim, Deal, TurnUp
from engine.cards import Card, Seat, Suit
from engine.errors import IllegalActionError, NotYourTurnError
from engine.game import Game, Phase
from engine.record import export_record, game_from_record, score_record
from engine.settings import Bidding, ForcedSeat, MatchLength, PlayRules, RoemMode, Rules, StukMode
from engine.view import seat_view

DEAL_FOLLOW = {
    "N": ["AC", "7C", "8C", "9C", "7D", "8D", "9D", "TD"],
    "E": ["KC", "JD", "QD", "KD", "AD", "7S", "8S", "9S"],
    "S": ["TC", "JC", "QC", "TS", "JS", "QS", "KS", "AS"],
    "W": ["7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
}
DEAL_TRUMP = {
    "N": ["AC", "7C", "8C", "9C", "7D", "8D", "9D", "TD"],
    "E": ["7H", "8H", "JD", "QD", "KD", "AD", "7S", "8S"],
    "S": ["TC", "JC", "QC", "KC", "TS", "JS", "QS", "KS"],
    "W": ["9H", "TH", "JH", "QH", "KH", "AH", "AS", "9S"],
}


def snapshot(game: Game) -> Any:
    return (export_record(game), game.phase, game.to_act, game.totals[:], game.winner,
            [seat_view(game, seat) for seat in Seat], [notation(game.cards_in_hand(s)) for s in Seat])


def assert_rejected(game: Game, action: Any, seat: Seat | None, *words: str,
                    error: type[Exception] = IllegalActionError) -> IllegalActionError:
    before = snapshot(game)
    with pytest.raises(error) as info:
        game.apply(action, seat)
    assert snapshot(game) == before, "an illegal action changed the game"
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    return info.value


# ------------------------------------------------------------------ illegal actions


def test_follow_suit_error_names_the_suit_and_changes_nothing() -> None:
    game = first_hand_game(Rules(), DEAL_FOLLOW, "W", ["H"], ["AC"])
    assert game.to_act is Seat.E
    assert notation(game.legal_actions()) == ["KC"]
    err = assert_rejected(game, Card.parse("JD"), Seat.E, "follow suit", "C")
    assert err.seat == "E"
    assert_rejected(game, Card.parse("AS"), Seat.E, "AS")  # not in E's hand
    assert_rejected(game, Card.parse("KC"), Seat.S, error=NotYourTurnError)
    assert_rejected(game, Call.PASS, Seat.E)  # bidding is over
    assert_rejected(game, Deal.from_cards(Seat.N, {}), None)
    assert_rejected(game, Claim(Seat.N), None, "automatic")
    assert_rejected(game, TurnUp(Suit.C), None)
    game.apply(Card.parse("KC"), Seat.E)
    assert notation(game.legal_actions()) == ["TC", "JC", "QC"]  # sorted by rank 7 8 9 T J Q K A


@pytest.mark.parametrize("play", [PlayRules.ROTTERDAM, PlayRules.AMSTERDAM])
def test_must_trump_error(play: PlayRules) -> None:
    game = first_hand_game(Rules(play=play), DEAL_TRUMP, "W", ["H"], ["AC"])
    assert sorted(notation(game.legal_actions())) == ["7H", "8H"]
    assert_rejected(game, Card.parse("JD"), Seat.E, "trump")


def test_only_trumps_must_trump_on_a_plain_lead() -> None:
    game = first_hand_game(Rules(), DEAL_FOLLOW, "W", ["H"], ["AC", "KC", "TC"])
    assert game.to_act is Seat.W
    assert sorted(notation(game.legal_actions())) == sorted(DEAL_FOLLOW["W"])


def test_must_overtrump_error() -> None:
    # N (elder) leads AC, E (void) trumps with 8H, S follows; W, void in clubs, can overtrump so must.
    game = first_hand_game(Rules.from_dict({"undertrump": "forbidden"}), DEAL_TRUMP, "W", ["H"], ["AC", "8H", "KC"])
    assert game.to_act is Seat.W
    assert "AS" not in notation(game.legal_actions())  # W can overtrump, so it must
    assert set(notation(game.legal_actions())) == {"9H", "TH", "JH", "QH", "KH", "AH"}
    assert_rejected(game, Card.parse("AS"), Seat.W, "overtrump")


# ------------------------------------------------------------------ bidding


def new_game(**rules: Any) -> Game:
    game = Game(Rules.from_dict(rules))
    game.deal_random(random.Random(3), Seat.W)
    return game


def test_vrij_first_seat_to_name_a_suit_plays_and_elder_leads() -> None:
    game = new_game()
    assert game.phase is Phase.BIDDING and game.to_act is Seat.N
    assert notation(game.legal_actions()) == ["pass", "C", "D", "H", "S"]
    game.apply(Call.PASS, Seat.N)
    assert game.to_act is Seat.E
    assert_rejected(game, Call.PLAY, Seat.E)
    game.apply(Call.D, Seat.E)
    hand = game.hand
    assert hand is not None and hand.trump is Suit.D and hand.player is Seat.E
    assert game.phase is Phase.PLAY and game.to_act is Seat.N  # the elder hand leads


@pytest.mark.parametrize(("forced", "seat"), [("elder", Seat.N), ("dealer", Seat.W)])
def test_vrij_four_passes_forced_seat(forced: str, seat: Seat) -> None:
    game = new_game(forced=forced)
    for s in (Seat.N, Seat.E, Seat.S, Seat.W):
        game.apply(Call.PASS, s)
    assert game.phase is Phase.BIDDING and game.to_act is seat
    assert notation(game.legal_actions()) == ["C", "D", "H", "S"]
    assert_rejected(game, Call.PASS, seat, "pass")
    game.apply(Call.S, seat)
    hand = game.hand
    assert hand is not None and hand.player is seat and hand.trump is Suit.S
    assert game.to_act is Seat.N  # elder leads, whoever chose trump
    assert export_record(game)["hands"][0]["bids"] == ["pass", "pass", "pass", "pass", "S"]


def test_verplicht_elder_must_name_trump() -> None:
    game = new_game(bidding="verplicht")
    assert game.to_act is Seat.N
    assert notation(game.legal_actions()) == ["C", "D", "H", "S"]
    assert_rejected(game, Call.PASS, Seat.N)
    game.apply(Call.H, Seat.N)
    hand = game.hand
    assert hand is not None and hand.player is Seat.N and game.phase is Phase.PLAY


def test_draaien_turned_suits() -> None:
    game = new_game(bidding="draaien")
    assert game.phase is Phase.TURN_UP and game.to_act is None
    assert game.turnable_suits() == [Suit.C]  # first hand of a match: clubs
    assert_rejected(game, TurnUp(Suit.D), None, "clubs")
    game.apply(TurnUp(Suit.C))
    assert game.phase is Phase.BIDDING and game.to_act is Seat.N
    assert notation(game.legal_actions()) == ["pass", "play"]
    assert_rejected(game, Call.C, Seat.N)
    for s in (Seat.N, Seat.E, Seat.S, Seat.W):
        game.apply(Call.PASS, s)
    assert game.phase is Phase.TURN_UP
    assert Suit.C not in game.turnable_suits() and len(game.turnable_suits()) == 3
    assert_rejected(game, TurnUp(Suit.C), None)
    game.apply(TurnUp(Suit.H))
    for s in (Seat.N, Seat.E, Seat.S, Seat.W):
        game.apply(Call.PASS, s)
    assert sorted(game.turnable_suits()) == [Suit.D, Suit.S]
    assert_rejected(game, TurnUp(Suit.H), None)
    game.apply(TurnUp(Suit.S))
    hand = game.hand
    assert hand is not None and hand.trump is Suit.S and hand.player is Seat.N  # forced on the elder hand
    assert game.phase is Phase.PLAY and game.to_act is Seat.N
    assert export_record(game)["hands"][0]["turned"] == ["C", "H", "S"]
    assert len(export_record(game)["hands"][0]["bids"]) == 8  # no entry for the forced third suit


def test_draaien_play_on_turned_suit() -> None:
    game = new_game(bidding="draaien")
    game.apply(TurnUp(Suit.C))
    game.apply(Call.PASS, Seat.N)
    game.apply(Call.PLAY, Seat.E)
    hand = game.hand
    assert hand is not None and hand.trump is Suit.C and hand.player is Seat.E and game.to_act is Seat.N


def test_draaien_later_hands_any_first_suit_and_distinct() -> None:
    rng = random.Random(11)
    game = Game(Rules(bidding=Bidding.DRAAIEN, length=MatchLength(hands=6)))
    while not game.finished:
        if game.phase is Phase.DEAL:
            game.deal_random(rng)
        elif game.phase is Phase.TURN_UP:
            if game.hand and game.hand.index > 0 and not game.hand.turned:
                assert len(game.turnable_suits()) == 4
            game.turn_up_random(rng)
        else:
            legal = game.legal_actions()
            game.apply(Call.PASS if Call.PASS in legal and rng.random() < 0.8 else rng.choice(legal), game.to_act)
    for hand in export_record(game)["hands"]:
        assert len(set(hand["turned"])) == len(hand["turned"])
    assert export_record(game)["hands"][0]["turned"][0] == "C"


# ------------------------------------------------------------------ dealer rotation


def test_dealer_moves_clockwise_and_elder_leads() -> None:
    rng = random.Random(5)
    game = Game(Rules(length=MatchLength(hands=5)))
    game.deal_random(rng, Seat.S)
    dealers = []
    while not game.finished:
        if game.phase is Phase.DEAL:
            wrong = Deal(game.hands[-1].dealer, game.hands[-1].deal)  # the same dealer again
            assert_rejected(game, wrong, None, "dealer")
            game.deal_random(rng)
        hand = game.hand
        assert hand is not None
        if hand.dealer not in dealers[-1:]:
            dealers.append(hand.dealer)
        legal = game.legal_actions()
        game.apply(rng.choice(legal), game.to_act)
        if len(hand.plays) == 1:
            assert hand.tricks == [] and hand.leader is hand.dealer.next
    assert dealers == [Seat.S, Seat.W, Seat.N, Seat.E, Seat.S]
    for hand in game.hands:
        assert hand.tricks[0].leader is hand.dealer.next


def test_bad_deals_rejected() -> None:
    game = Game()
    hands = [[Card(i) for i in range(s * 8, s * 8 + 8)] for s in range(4)]
    dup = [h[:] for h in hands]
    dup[1][0] = dup[0][0]
    assert_rejected(game, Deal.from_cards(Seat.N, dup), None, "twice")
    short = [h[:] for h in hands]
    short[2].pop()
    assert_rejected(game, Deal.from_cards(Seat.N, short), None, "8")


# ------------------------------------------------------------------ pit, nat, roem in whole hands


PIT_NS = {"N": "C", "E": "D", "S": "H", "W": "S"}  # S holds every trump
PIT_EW = {"N": "C", "E": "H", "S": "D", "W": "S"}  # E holds every trump


def scored_hand(hand: dict[str, Any], **rules: Any) -> dict[str, Any]:
    out = score_record(record([hand], **rules))
    assert out["ok"], out
    return out["hands"][0]


def test_pit_playing_team() -> None:
    h = scored_hand(one_suit_each_hand(PIT_NS, "W", ["pass", "pass", "H"], "S"))
    assert (h["player"], h["playing"], h["trump"]) == ("S", "NS", "H")
    assert all(t["winner"] == "S" for t in h["tricks"])
    assert h["tricks"][0]["leader"] == "N" and h["tricks"][7]["points"] >= 10
    assert h["points"] == {"NS": 162, "EW": 0}
    assert h["roem"] == {"NS": 100, "EW": 0}
    assert (h["pit"], h["nat"]) == (True, False)
    assert h["score"] == {"NS": 262, "EW": 0}


def test_pit_defending_team_makes_players_nat() -> None:
    h = scored_hand(one_suit_each_hand(PIT_EW, "W", ["H"], "E"))
    assert h["playing"] == "NS"
    assert h["points"] == {"NS": 0, "EW": 162} and h["roem"] == {"NS": 0, "EW": 100}
    assert (h["pit"], h["nat"]) == (True, True)
    assert h["score"] == {"NS": 0, "EW": 262}


def test_four_of_a_kind_roem_goes_to_trick_winner() -> None:
    h = scored_hand(one_suit_each_hand(PIT_NS, "W", ["pass", "pass", "H"], "S", same_rank=True))
    # tricks of 7s, 8s, 9s, tens, jacks, queens, kings, aces: 0 0 0 100 200 100 100 100
    assert [t["roem"] for t in h["tricks"]] == [0, 0, 0, 100, 200, 100, 100, 100]
    assert h["roem"] == {"NS": 600 + 100, "EW": 0}
    assert h["score"] == {"NS": 162 + 700, "EW": 0}


def test_held_stuk_scores_for_holder() -> None:
    trick_mode = scored_hand(one_suit_each_hand(PIT_EW, "W", ["H"], "E"), stuk="held")
    # E holds K and Q of trump: 20 roem for EW, not in any trick's roem
    assert trick_mode["roem"] == {"NS": 0, "EW": 120}
    assert all(t["roem"] == 0 for t in trick_mode["tricks"])
    assert trick_mode["score"] == {"NS": 0, "EW": 162 + 120}


def test_held_stuk_event_when_second_card_played() -> None:
    hand = one_suit_each_hand(PIT_NS, "W", ["pass", "pass", "H"], "S")
    game = game_from_record(record([{**hand, "plays": []}], stuk="held"))
    events_per_play = [game.apply(Card.parse(text), game.to_act) for text in hand["plays"]]
    stuk_at = [i for i, evs in enumerate(events_per_play) if any(type(e).__name__ == "StukScored" for e in evs)]
    second = max(hand["plays"].index("KH"), hand["plays"].index("QH"))
    assert stuk_at == [second]


def test_declared_claims() -> None:
    hand = one_suit_each_hand(PIT_NS, "W", ["pass", "pass", "H"], "S", same_rank=True)
    hand["claims"] = [
        {"trick": 4, "seat": "N"},  # jacks, by the winning team: 200
        {"trick": 3, "seat": "E"},  # tens, by the other team: nothing
        {"trick": 0, "seat": "S"},  # sevens, no roem: nothing
        {"trick": 7, "seat": "S"},  # last trick (aces): 100
        {"trick": 4, "seat": "S"},  # a second claim for the same trick counts once
    ]
    h = scored_hand(hand, roem="declared")
    assert [t["roem"] for t in h["tricks"]] == [0, 0, 0, 0, 200, 0, 0, 100]
    assert h["roem"] == {"NS": 200 + 100 + 100, "EW": 0}  # pit needs no claim
    assert h["score"] == {"NS": 162 + 400, "EW": 0}
    exported = export_record(game_from_record(record([hand], roem="declared")))["hands"][0]["claims"]
    key = lambda c: (c["trick"], c["seat"])  # noqa: E731
    assert sorted(exported, key=key) == sorted(hand["claims"], key=key)


def test_claims_in_auto_mode_and_out_of_time() -> None:
    hand = one_suit_each_hand(PIT_NS, "W", ["pass", "pass", "H"], "S", same_rank=True)
    out = score_record(record([{**hand, "claims": [{"trick": 4, "seat": "N"}]}]))
    assert out["ok"] is False and out["error"]["hand"] == 0
    game = game_from_record(record([{**hand, "plays": hand["plays"][:17]}], roem="declared"))
    assert not game.can_claim()  # a trick is in progress
    assert_rejected(game, Claim(Seat.N), None)


# ------------------------------------------------------------------ match end


def play_out(hands: list[dict[str, Any]], **rules: Any) -> dict[str, Any]:
    out = score_record(record(hands, **rules))
    assert out["ok"], out
    return out


def test_match_by_hands_draw_and_winner() -> None:
    h1 = one_suit_each_hand(PIT_NS, "W", ["pass", "pass", "H"], "S")  # NS 262
    h2 = one_suit_each_hand({"N": "C", "E": "H", "S": "D", "W": "S"}, "N", ["H"], "E")  # E elder: EW 262
    out = play_out([h1], length={"hands": 2})
    assert (out["finished"], out["winner"], out["next"]) == (False, None, {"hand": 1, "phase": "deal"})
    out = play_out([h1, h2], length={"hands": 2})
    assert out["total"] == {"NS": 262, "EW": 262}
    assert (out["finished"], out["winner"], out["next"]) == (True, "draw", None)
    out = play_out([h1], length={"hands": 1})
    assert (out["finished"], out["winner"]) == (True, "NS")
    bad = score_record(record([h1, h2], length={"hands": 1}))
    assert bad["ok"] is False and bad["error"]["hand"] == 1


def test_match_by_target() -> None:
    h1 = one_suit_each_hand(PIT_NS, "W", ["pass", "pass", "H"], "S")  # NS 262
    out = play_out([h1], length={"target": 262})
    assert (out["finished"], out["winner"]) == (True, "NS")  # at the target is enough
    out = play_out([h1], length={"target": 263})
    assert (out["finished"], out["winner"]) == (False, None)


def _mirrored_hands() -> tuple[dict[str, Any], dict[str, Any], int]:
    """Two hands (dealers W then N) scoring (a, b) and (b, a), both non-zero: equal totals a + b."""
    from tests.referee import generate, referee

    rng = random.Random(2024)
    rules = {"play": "rotterdam", "bidding": "vrij"}
    match = generate._Match(rng, rules)
    for _ in range(2000):
        h1, _ = match.play_hand(0, "W", None)
        s1 = referee.score_record(record([h1], **rules))["hands"][0]["score"]
        if s1["NS"] and s1["EW"]:
            break
    for _ in range(20000):
        h2, _ = match.play_hand(1, "N", None)
        s2 = referee.score_record(record([{**h2}], **rules))["hands"][0]["score"]
        if (s2["NS"], s2["EW"]) == (s1["EW"], s1["NS"]):
            return h1, h2, s1["NS"] + s1["EW"]
    raise AssertionError("no mirrored hand found")


def test_target_equal_totals_play_another_hand() -> None:
    h1, h2, total = _mirrored_hands()
    out = play_out([h1, h2], length={"target": total})
    assert out["total"] == {"NS": total, "EW": total}
    assert (out["finished"], out["winner"], out["next"]) == (False, None, {"hand": 2, "phase": "deal"})
    h3 = one_suit_each_hand({"N": "H", "E": "C", "S": "D", "W": "S"}, "E", ["pass", "pass", "pass", "H"], "N")
    out = play_out([h1, h2, h3], length={"target": total})
    assert out["total"] == {"NS": total + 262, "EW": total}
    assert (out["finished"], out["winner"], out["next"]) == (True, "NS", None)
    game = game_from_record(record([h1, h2], length={"target": total}))
    assert game.phase is Phase.DEAL and not game.finished


def test_rules_defaults_follow_play() -> None:
    assert Rules.from_dict({}).undertrump_forced
    assert not Rules.from_dict({"play": "amsterdam"}).undertrump_forced
    assert Rules.from_dict({"play": "amsterdam", "undertrump": "forced"}).undertrump_forced
    r = Rules.from_dict({})
    assert (r.bidding, r.forced, r.roem, r.stuk, r.length) == (
        Bidding.VRIJ, ForcedSeat.ELDER, RoemMode.AUTO, StukMode.TRICK, MatchLength(hands=16))
