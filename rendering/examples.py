"""Example images of every kind in every theme, for people to look at (``klaverjas render --out DIR``)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from engine.cards import Seat, Team
from engine.game import Game, Phase
from engine.view import SeatView, seat_view
from rendering.images import render_hand, render_sheet, render_table, render_trick
from rendering.theme import FELTS, Theme

NAMES: dict[Seat, str] = {Seat.N: "Bert", Seat.E: "AI East", Seat.S: "Anna", Seat.W: "Wilhelmina-Sophie"}


def _step(game: Game, rng: random.Random) -> None:
    if game.phase is Phase.DEAL:
        game.deal_random(rng)
    elif game.phase is Phase.TURN:
        game.turn_random(rng)
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


def write_examples(out_dir: str) -> list[str]:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    themes = [Theme(felt=f) for f in FELTS] + [Theme(four_colour=True), Theme(language="nl", four_colour=True)]
    view = playing_view()
    later = later_view()
    waiting = replace(view, legal=())
    done = finished_game()
    last = seat_view(done, Seat.S)
    paths: list[str] = []

    def write(name: str, data: bytes) -> None:
        path = out / name
        path.write_bytes(data)
        paths.append(str(path))

    for theme in themes:
        tag = theme.felt + ("-4c" if theme.four_colour else "") + ("-nl" if theme.language == "nl" else "")
        write(f"hand-{tag}.png", render_hand(view, theme=theme))
        write(f"hand-waiting-{tag}.png", render_hand(waiting, theme=theme))
        write(f"trick-{tag}.png", render_trick(view, NAMES, theme=theme))
        write(f"trick-done-{tag}.png", render_trick(later, NAMES, trick=later.tricks[-1], theme=theme))
        write(f"table-{tag}.png", render_table(later, NAMES, theme=theme))
        write(f"sheet-{tag}.png", render_sheet(done.results, viewer_team=Team.NS, names=NAMES,
                                               hands_total=done.rules.length.hands, finished=True,
                                               winner=_winner(done), theme=theme))
    write("sheet-partial-neutral.png", render_sheet(view.results, viewer_team=None, names=NAMES, hands_total=16,
                                                     finished=False, winner=None))
    write("table-neutral.png", render_table(last, NAMES, theme=Theme(neutral_teams=True)))
    return paths


def _winner(game: Game) -> Team | None:
    ns, ew = game.totals[0], game.totals[1]
    return None if ns == ew else (Team.NS if ns > ew else Team.EW)
