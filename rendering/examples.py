"""Example images of every kind in every theme, for people to look at (``klaverjas render --out DIR``)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from engine.actions import Call
from engine.cards import Card, Seat, Suit, Team
from engine.events import HandResult
from engine.game import Game, Phase, Trick
from engine.roem import RoemKind, RoemPart
from engine.settings import Rules
from engine.view import PublicView, SeatView, public_view, seat_view, seat_view_of
from rendering.images import render_hand, render_sheet, render_table, render_trick
from rendering.theme import FELTS, Labels, Theme

NAMES: dict[Seat, str] = {Seat.N: "Bert", Seat.E: "Evi", Seat.S: "Anna", Seat.W: "Wilhelmina-Sophie"}


def _step(game: Game, rng: random.Random) -> None:
    if game.phase is Phase.DEAL:
        game.deal_random(rng)
    elif game.phase is Phase.TURN_UP:
        game.turn_up_random(rng)
    else:
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])


def sample_game(seed: int = 3, hands: int = 2, extra_plays: int = 0) -> Game:
    """A game played at random until ``hands`` hands are settled, then ``extra_plays`` more actions."""
    game = Game()
    rng = random.Random(seed)
    game.deal_random(rng)
    while game.phase is not Phase.OVER and len(game.results) < hands:
        _step(game, rng)
    for _ in range(extra_plays):
        if game.phase is Phase.OVER:
            break
        _step(game, rng)
    return game


def playing_view(seed: int = 3, hands: int = 2) -> SeatView:
    """A view of the seat to play in the first trick of a hand, with two or three cards on the table
    and only some of its cards legal: every feature of the hand and trick images shows."""
    game = sample_game(seed, hands)
    rng = random.Random(seed + 1)
    for _ in range(2000):
        hand = game.hand
        if (game.phase is Phase.PLAY and hand is not None and game.to_act is not None
                and len(hand.trick_cards) >= 2):
            legal = len(game.legal_actions())
            if legal < len(game.cards_in_hand(game.to_act)) and (len(hand.tricks) >= 1 or legal > 1):
                return seat_view(game, game.to_act)
        if game.phase is Phase.OVER:
            break
        _step(game, rng)
    raise RuntimeError("no suitable example position")


def later_view(seed: int = 3) -> SeatView:
    """South's view after a few tricks of the third hand, with the next trick under way."""
    game = sample_game(seed, hands=2)
    rng = random.Random(seed + 2)
    while game.hand is None or len(game.hand.tricks) < 4 or len(game.hand.trick_cards) != 2:
        _step(game, rng)
    return seat_view(game, Seat.S)


def finished_game(seed: int = 5) -> Game:
    game = sample_game(seed, hands=99)
    return game


def write_examples(out_dir: str, english: Labels, dutch: Labels) -> list[str]:
    """Every image kind in every felt, four colours, and Dutch; the caller gives the words of both languages."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    themes = ([Theme(english, felt=f) for f in FELTS]
              + [Theme(english, four_colour=True), Theme(dutch, four_colour=True)])
    view = playing_view()
    later = later_view()
    waiting = replace(view, legal=())
    done = finished_game()
    paths: list[str] = []

    def write(name: str, data: bytes) -> None:
        path = out / name
        path.write_bytes(data)
        paths.append(str(path))

    for theme in themes:
        tag = theme.felt + ("-4c" if theme.four_colour else "") + ("-nl" if theme.labels is dutch else "")
        write(f"hand-{tag}.png", render_hand(view, theme=theme))
        write(f"hand-waiting-{tag}.png", render_hand(waiting, theme=theme))
        write(f"trick-{tag}.png", render_trick(view, NAMES, seat=view.seat, theme=theme))
        write(f"trick-done-{tag}.png", render_trick(later, NAMES, seat=later.seat, trick=later.tricks[-1],
                                                    theme=theme))
        write(f"table-{tag}.png", render_table(later, NAMES, seat=later.seat, theme=theme))
        write(f"sheet-{tag}.png", render_sheet(done.results, viewer_team=Team.NS, names=NAMES,
                                               hands_total=done.rules.length.hands, finished=True,
                                               winner=_winner(done), theme=theme))
    write("sheet-partial-neutral.png", render_sheet(view.results, viewer_team=None, names=NAMES, hands_total=16,
                                                     finished=False, winner=None, theme=Theme(english)))
    write("table-neutral.png", render_table(public_view(done), NAMES, seat=None,
                                            theme=Theme(english, neutral_teams=True)))
    return paths


def _winner(game: Game) -> Team | None:
    ns, ew = game.totals[0], game.totals[1]
    return None if ns == ew else (Team.NS if ns > ew else Team.EW)


# --- fixed positions for golden images and tests ------------------------------------------------
# Written out card by card rather than played at random, so the golden images change only when
# the drawing changes, not when the engine's random dealing does.

def fixed_results(hands: int = 3) -> list[HandResult]:
    """``hands`` settled hands with a nat, a pit and roem on both sides, dealer moving round."""
    base = [
        HandResult(0, Seat.E, Suit.C, Seat.W, (70, 92), (0, 20), None, False, (70, 112)),
        HandResult(1, Seat.S, Suit.S, Seat.E, (100, 62), (0, 20), None, True, (182, 0)),
        HandResult(2, Seat.W, Suit.H, Seat.N, (162, 0), (120, 0), Team.NS, False, (282, 0)),
        HandResult(3, Seat.N, Suit.D, Seat.S, (81, 81), (20, 0), None, False, (101, 81)),
        HandResult(4, Seat.E, Suit.H, Seat.N, (58, 104), (50, 0), None, True, (0, 212)),
    ]
    out = []
    for i in range(hands):
        r = base[i % len(base)]
        out.append(replace(r, hand=i, dealer=Seat((i + 1) % 4)))
    return out


def fixed_public_view() -> PublicView:
    """Hand 3, West dealt, Bert (North) plays hearts; two tricks done, North led spades, East followed."""
    tricks = (
        Trick(0, Seat.N, (Card.HJ, Card.H7, Card.H8, Card.HQ), Seat.N, 23, 0, ()),
        Trick(1, Seat.N, (Card.DA, Card.DK, Card.DQ, Card.D7), Seat.N, 18, 20,
              (RoemPart(RoemKind.DRIEKAART, 20, suit=Suit.D),)),
    )
    results = tuple(fixed_results(2))
    return PublicView(
        rules=Rules(), phase=Phase.PLAY, hand_number=2, to_act=Seat.S, dealer=Seat.W,
        turned=(), bids=((Seat.N, Call.H),), trump=Suit.H, player=Seat.N, tricks=tricks,
        trick_leader=Seat.N, trick=(Card.SA, Card.S9), points=(41, 0), roem=(20, 0), held_stuk=(), claims=(),
        totals=(sum(r.score[0] for r in results), sum(r.score[1] for r in results)), results=results,
        can_claim=False, claim_values=(0, 0), claimed=(False, False))


def fixed_view(seat: Seat = Seat.S, *, legal: bool = True) -> SeatView:
    """``fixed_public_view`` from ``seat``'s side: South, to play, holds six cards, two of them legal."""
    hand = (Card.C9, Card.CJ, Card.H9, Card.HA, Card.S8, Card.ST)
    public = fixed_public_view()
    return seat_view_of(public, seat, hand if seat is Seat.S else (),
                        (Card.S8, Card.ST) if legal and seat is public.to_act else ())


def golden_images(english: Labels, dutch: Labels) -> dict[str, bytes]:
    """The images kept in tests/golden/images (see tests/golden/regen_images.py), in the caller's words."""
    view = fixed_view()
    public = fixed_public_view()
    en = Theme(english)
    nl4 = Theme(dutch, felt="navy", four_colour=True)
    return {
        "hand.png": render_hand(view, theme=en),
        "hand-navy-4c-nl.png": render_hand(view, theme=nl4),
        "trick.png": render_trick(public, NAMES, seat=Seat.S, theme=en),
        "trick-done.png": render_trick(public, NAMES, seat=Seat.S, trick=public.tricks[1],
                                       theme=Theme(english, felt="burgundy")),
        "table.png": render_table(public, NAMES, seat=Seat.S, theme=en),
        "table-neutral-nl.png": render_table(public, NAMES, seat=Seat.E, theme=Theme(dutch, neutral_teams=True)),
        "sheet.png": render_sheet(fixed_results(16), viewer_team=Team.NS, names=NAMES, hands_total=16,
                                  finished=True, winner=Team.NS, theme=en),
        "sheet-partial.png": render_sheet(fixed_results(3), viewer_team=None, names=NAMES, hands_total=16,
                                          finished=False, winner=None, theme=nl4),
    }
