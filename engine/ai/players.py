"""The simple players and ``PLAYER_KINDS``: every kind of AI player, declared once, and ``make_player``, which
turns a kind's name into a ``Player``.

Kinds: ``random`` (any legal action), ``heuristic`` (rule-based), ``pimc`` (the strong player, ``engine.ai.pimc``),
``mc`` (a Monte Carlo sparring partner with random-ish roll-outs, ``engine.ai.mc``), and the table levels
(``engine.settings.Level``) ``easy`` (the heuristic with people's mistakes,
``engine.ai.easy``), ``normal`` (heuristic) and ``hard`` (pimc).

A variant of a kind changes some of its settings: ``pimc:prune=off,stop_from=0`` is the strong player without
its pruning and its sequential stop. A setting is any field the player's class is made with (but its seed and
name), its value of the field's type; ``klaverjas duel A B --paired-with V`` thus compares settings without code.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass

from engine.actions import Choice
from engine.ai.base import Player
from engine.ai.easy import EasyPlayer
from engine.ai.heuristic import HeuristicPlayer
from engine.errors import KlaverjasError
from engine.randomness import RandomSource, make_rng
from engine.settings import Level
from engine.view import SeatView

__all__ = ["LEVELS", "PLAYER_KINDS", "Level", "PlayerKind", "PlayerOptions", "RandomPlayer", "UnknownPlayerError",
           "find_player_kind", "make_player", "parse_variant", "situation_seed"]


class UnknownPlayerError(KlaverjasError):
    """A player kind or level that does not exist."""


class RandomPlayer:
    """Any legal action, uniformly: a baseline and a fuzzer for the engine."""

    def __init__(self, seed: int | RandomSource = 0) -> None:
        self.name = "random"
        self._rng = make_rng(seed)

    def choose(self, view: SeatView) -> Choice:
        if not view.legal:
            raise ValueError(f"{view.seat.letter} has nothing to choose: it is not its turn")
        return view.legal[self._rng.randrange(len(view.legal))]


def situation_seed(seed: int, view: SeatView) -> int:
    """A decision's seed from ``seed`` and what the seat sees of the hand being played: the rules, the hand's
    number, the seat and its cards, the dealer, turned suits, bids, trump, tricks, the trick in progress and the
    claims. Two seats that see the same (at two tables with one seed, however the earlier hands went) get the
    same seed, so a seeded player gives them the same answer. The match's score is left out: no player reads it.
    """
    situation = [seed, view.rules.to_dict(), view.phase.value, view.hand_number, int(view.seat),
                 sorted(int(c) for c in view.hand), None if view.dealer is None else int(view.dealer),
                 [int(s) for s in view.turned], [[int(s), c.value] for s, c in view.bids],
                 None if view.trump is None else int(view.trump), None if view.player is None else int(view.player),
                 [[int(t.leader), [int(c) for c in t.cards]] for t in view.tricks],
                 None if view.trick_leader is None else int(view.trick_leader), [int(c) for c in view.trick],
                 [[i, int(s)] for i, s in view.claims]]
    digest = hashlib.blake2b(json.dumps(situation, sort_keys=True).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 2  # positive, and within the 62 bits every player's generator takes


@dataclass(frozen=True, slots=True)
class PlayerOptions:
    """What a player kind may be told besides its seed. ``timed``: the strong player keeps its time cap (see
    ``make_player``); ``rollouts``: mc's roll-outs a card (None: its default)."""

    timed: bool = True
    rollouts: int | None = None


def _strong_player(seed: int, options: PlayerOptions) -> Player:
    # Imported when a strong player is made: it pulls in numba and the solver, which the text catalog, the
    # command line's other commands and the bot's front end never need.
    from engine.ai.pimc import PimcPlayer

    return PimcPlayer(seed=seed, timed=options.timed)


def _mc_player(seed: int, options: PlayerOptions) -> Player:
    from engine.ai.mc import MonteCarloPlayer  # numba, as the strong player

    if options.rollouts is None:
        return MonteCarloPlayer(seed=seed)
    return MonteCarloPlayer(seed=seed, rollouts=options.rollouts)


@dataclass(frozen=True, slots=True)
class PlayerKind:
    """One kind of AI player: its name, how it is made (``build(seed, options)``), and what it does (for the
    command line's help). ``level``: a table offers it under this name (its words are the catalog's)."""

    name: str
    build: Callable[[int, PlayerOptions], Player]
    about: str
    level: bool = False


PLAYER_KINDS: tuple[PlayerKind, ...] = (
    PlayerKind("random", lambda seed, options: RandomPlayer(seed), "any legal action"),
    PlayerKind("heuristic", lambda seed, options: HeuristicPlayer(seed=seed, name="heuristic"),
               "rule-based (the normal level)"),
    PlayerKind("pimc", _strong_player, "the strong player (the hard level)"),
    PlayerKind("mc", _mc_player, "Monte Carlo with random-ish roll-outs, a sparring partner"),
    PlayerKind(Level.EASY.value, lambda seed, options: EasyPlayer(seed=seed, name="easy"), "", level=True),
    PlayerKind(Level.NORMAL.value, lambda seed, options: HeuristicPlayer(seed=seed, name="normal"), "",
               level=True),
    PlayerKind(Level.HARD.value, _strong_player, "", level=True),
)
LEVELS = tuple(level.value for level in Level)


def find_player_kind(name: str) -> PlayerKind:
    """The kind named ``name`` (any case, spaces around ignored)."""
    key = name.strip().lower()
    for kind in PLAYER_KINDS:
        if kind.name == key:
            return kind
    raise UnknownPlayerError(
        f"unknown player {name!r}: choose one of {', '.join(kind.name for kind in PLAYER_KINDS)}")


_SWITCHES = {"on": True, "true": True, "yes": True, "1": True, "off": False, "false": False, "no": False, "0": False}


def parse_variant(text: str) -> tuple[PlayerKind, dict[str, str]]:
    """``kind`` or ``kind:setting=value,setting=value``: the kind and the settings it changes (not yet checked
    against the player's fields; ``make_player`` does)."""
    name, colon, spec = text.partition(":")
    kind = find_player_kind(name)
    settings: dict[str, str] = {}
    if colon:
        for item in spec.split(","):
            key, equals, value = (part.strip() for part in item.partition("="))
            if not equals or not key or not value:
                raise UnknownPlayerError(f"{text!r}: write a variant as kind:setting=value,setting=value")
            settings[key.lower()] = value
    return kind, settings


def _setting_value(kind: str, key: str, current: object, text: str) -> object:
    """``text`` as a value of the type of the setting's current value."""
    if isinstance(current, bool):
        if text.lower() in _SWITCHES:
            return _SWITCHES[text.lower()]
        expected = "on or off"
    elif isinstance(current, int | float):
        try:
            value = type(current)(text)
        except ValueError:
            value = None
        if value is not None and value >= 0:
            return value
        expected = f"a number from 0, like {current}"
    else:
        raise UnknownPlayerError(f"{kind}'s setting {key!r} cannot be changed from the command line")
    raise UnknownPlayerError(f"{kind}'s setting {key!r} takes {expected}, not {text!r}")


def _variant(player: Player, kind: str, settings: dict[str, str]) -> Player:
    """``player`` with ``settings`` changed: fields of its dataclass, made afresh (its random source too)."""
    if not settings:
        return player
    if not dataclasses.is_dataclass(player) or isinstance(player, type):
        raise UnknownPlayerError(f"{kind} has no settings to change")
    fields = sorted(field.name for field in dataclasses.fields(player)
                    if field.init and not field.name.startswith("_") and field.name not in ("seed", "name"))
    changes: dict[str, object] = {}
    for key, text in settings.items():
        if key not in fields:
            raise UnknownPlayerError(f"{kind} has no setting {key!r}: choose from {', '.join(fields)}")
        changes[key] = _setting_value(kind, key, getattr(player, key), text)
    tuned: Player = dataclasses.replace(player, **changes)
    return tuned


def make_player(kind: str, seed: int = 0, *, timed: bool = True, rollouts: int | None = None) -> Player:
    """A player of the given kind or level (or a variant of one, ``parse_variant``), seeded for reproducible play.

    ``timed=False``: the strong player's work is bounded by its node budget alone, without the time cap that
    keeps a busy machine's decisions short; its choice then depends on the seed and the view only, on any
    machine and under any load (tournament tables need that). ``rollouts``: mc's roll-outs a card (None: its
    default; other kinds ignore it)."""
    found, settings = parse_variant(kind)
    return _variant(found.build(seed, PlayerOptions(timed=timed, rollouts=rollouts)), found.name, settings)
