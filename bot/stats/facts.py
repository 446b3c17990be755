"""What the statistics store of a match, worked out from the game and its action log: pure, no I/O.

A player is a person (``u:<discord id>``) or an AI level (``ai:easy``, ``ai:normal``, ``ai:hard``: each level has
statistics and a rating of its own). The store writes these rows (``bot.store.stats``), live as hands settle
and matches end, and once for the games stored before statistics existed (the backfill); both go through the
functions here, so a backfilled game has the rows it would have had.

Who played a seat in a hand: the person whose cards and calls it was (actions carry the user id, also when
the turn timer played for them); a hand the AI played for a seat without any person's action belongs to the
person who held the seat then and still holds it (they were away), otherwise to the AI.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine import rulebook
from engine.ai.players import Level
from engine.cards import SEATS, Seat, Team
from engine.events import HandResult

HUMAN_PREFIX = "u:"
AI_PREFIX = "ai:"
PLAYED_KINDS = ("call", "card")  # the actions that show who played a hand (claims may come after it settled)


def human_key(user_id: int) -> str:
    return f"{HUMAN_PREFIX}{user_id}"


def ai_key(level: Level | str) -> str:
    return f"{AI_PREFIX}{Level(level).value}"


def user_of(player: str) -> int | None:
    """The Discord id of a person's key; None for an AI level (or anything else)."""
    if player.startswith(HUMAN_PREFIX) and player[len(HUMAN_PREFIX):].isdigit():
        return int(player[len(HUMAN_PREFIX):])
    return None


def level_of(player: str) -> Level | None:
    """The AI level of an AI's key; None for a person."""
    if player.startswith(AI_PREFIX):
        try:
            return Level(player[len(AI_PREFIX):])
        except ValueError:
            return None
    return None


class Result(StrEnum):
    WON = "won"
    DRAWN = "drawn"
    LOST = "lost"
    ABANDONED = "abandoned"  # left the match, or (stopped) voted to stop it
    UNFINISHED = "unfinished"  # the match was stopped by others: neither a result nor a loss


@dataclass(frozen=True, slots=True)
class Logged:
    """One stored action as the statistics need it."""

    seq: int
    kind: str  # deal, turn, call, card, claim, decline
    seat: Seat | None
    user_id: int | None


@dataclass(frozen=True, slots=True)
class HandRow:
    hand: int
    seat: Seat
    player: str
    team: Team
    chose: bool
    trump: str
    playing: bool
    made: bool
    nat: bool
    pit: bool
    points: int
    roem: int
    score: int


def hand_players(log: Sequence[Logged], hand: int, occupants: Sequence[str], fallback_ai: str) -> dict[Seat, str]:
    """Who played each seat in hand ``hand`` (counted from 0): see the module's docstring.

    ``occupants``: each seat's player now (live: when the hand settles; backfill: at the match's end);
    ``fallback_ai``: the AI that played a seat whose occupant now is someone else (the table's AI level).
    """
    deals = [entry.seq for entry in log if entry.kind == "deal"]
    start = deals[hand]
    end = deals[hand + 1] if hand + 1 < len(deals) else None
    players: dict[Seat, str] = {}
    for seat in SEATS:
        mine = [e for e in log if e.seat is seat and e.user_id is not None and e.kind in PLAYED_KINDS]
        during = [e.user_id for e in mine if e.user_id is not None and e.seq >= start and (end is None or e.seq < end)]
        if during:
            players[seat] = human_key(Counter(during).most_common(1)[0][0])  # ties: the first to act
            continue
        occupant = occupants[seat]
        before = next((e.user_id for e in reversed(mine) if e.seq < start), None)
        after = next((e.user_id for e in mine if end is not None and e.seq >= end), None)
        held = user_of(occupant)
        if held is not None and before == held and after in (None, held):
            players[seat] = occupant  # away: the AI played the hand for them
        elif level_of(occupant) is not None:
            players[seat] = occupant
        else:
            players[seat] = fallback_ai
    return players


def hand_rows(result: HandResult, players: dict[Seat, str]) -> list[HandRow]:
    """The four rows of one settled hand, from the engine's settlement."""
    rows = []
    for seat in SEATS:
        team = seat.team
        playing = team is result.playing
        pit = result.pit is team
        rows.append(HandRow(
            hand=result.hand, seat=seat, player=players[seat], team=team, chose=seat is result.player,
            trump=result.trump.letter, playing=playing, made=playing and not result.nat, nat=playing and result.nat,
            pit=pit, points=result.points[team], roem=result.roem[team] - (rulebook.PIT_BONUS if pit else 0),
            score=result.score[team]))
    return rows


@dataclass(frozen=True, slots=True)
class MatchRow:
    player: str
    seat: Seat
    partner: str | None
    result: Result
    hands: int
    team_total: int
    other_total: int
    rated: bool

    @property
    def team(self) -> Team:
        return self.seat.team


@dataclass(frozen=True, slots=True)
class MatchFacts:
    rows: list[MatchRow]
    # The two teams to rate (NS first), a player per seat; None when the match is not rated (stopped).
    teams: tuple[tuple[str, str], tuple[str, str]] | None
    winner: Team | None  # None: a draw (or not finished)
    held: frozenset[str]  # players on both teams: the match says nothing about them, their rating stays


def match_facts(played: Sequence[tuple[int, Seat, str]], log: Sequence[Logged], occupants: Sequence[str],
                totals: tuple[int, int], finished: bool, winner: Team | None,
                stoppers: Collection[int] = ()) -> MatchFacts:
    """Each participant's result in a match that ended (``finished``) or was stopped.

    ``played``: (hand, seat, player) of the hand rows; ``occupants``: each seat's player at the end;
    ``stoppers``: who stopped the match or voted to stop it. A person who sat in the match and is not seated
    at its end left it: abandoned, as is (stopped) whoever stopped or voted to stop; the others of a stopped
    match have no result (unfinished), not a loss.
    """
    hands: dict[str, Counter[Seat]] = {}
    last_hand: dict[tuple[str, Seat], int] = {}
    for hand, seat, player in played:
        hands.setdefault(player, Counter())[seat] += 1
        last_hand[player, seat] = max(last_hand.get((player, seat), -1), hand)
    seat_of: dict[str, Seat] = {}
    for entry in log:  # people who acted without finishing a hand (stopped early, or left in the first hand)
        if entry.user_id is not None and entry.seat is not None and entry.kind in PLAYED_KINDS:
            seat_of[human_key(entry.user_id)] = entry.seat
    seated = {occupant: seat for seat, occupant in zip(SEATS, occupants, strict=True) if user_of(occupant)}
    seat_of.update(seated)
    for player in [*hands, *seat_of]:
        hands.setdefault(player, Counter())
    abandoned = {p for p in hands if user_of(p) is not None and p not in seated}
    if not finished:
        abandoned |= {p for p in hands if user_of(p) in set(stoppers)}

    def main_of(seat: Seat) -> str | None:
        """Who played most of the seat's hands (the later one on ties), preferring those who stayed."""
        for pool in ([p for p in hands if p not in abandoned], list(hands)):
            counted = [(hands[p][seat], last_hand.get((p, seat), -1), p) for p in pool if hands[p][seat]]
            if counted:
                return max(counted)[2]
        return None

    mains = {seat: main_of(seat) for seat in SEATS}
    teams: tuple[tuple[str, str], tuple[str, str]] | None = None
    held: frozenset[str] = frozenset()
    if finished and all(mains.values()):
        ns = (mains[Seat.N] or "", mains[Seat.S] or "")
        ew = (mains[Seat.E] or "", mains[Seat.W] or "")
        teams = (ns, ew)
        held = frozenset(ns) & frozenset(ew)
    rated = set(teams[0] + teams[1]) - held if teams is not None else set()
    rows = []
    for player, counts in hands.items():
        if counts:
            # The team they played most hands for (an AI level may sit on both), then its seat they played most.
            def weight(s: Seat, counts: Counter[Seat] = counts, player: str = player) -> tuple[int, int, int]:
                return (counts[s] + counts[s.partner], counts[s], last_hand.get((player, s), -1))

            seat = max(counts, key=weight)
        else:
            seat = seat_of[player]
        team = seat.team
        if player in abandoned:
            result = Result.ABANDONED
        elif not finished:
            result = Result.UNFINISHED
        elif winner is None:
            result = Result.DRAWN
        else:
            result = Result.WON if winner is team else Result.LOST
        rows.append(MatchRow(player, seat, mains[seat.partner], result, sum(counts.values()), totals[team],
                             totals[team.other], player in rated and player not in abandoned))
    return MatchFacts(rows, teams, winner if finished else None, held)
