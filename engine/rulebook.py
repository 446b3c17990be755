"""The engine's fast path: the rules on ints and 32-bit masks.

A card is ``suit * 8 + rank`` (ranks 7 8 9 T J Q K A = 0..7), a hand is a mask. Everything here uses
only ints and module-level tuples so the same functions run as plain Python under the readable API
(``engine.game``) and compiled by numba in the double-dummy solver: one statement of each rule.
"""

from __future__ import annotations

SUIT_MASK = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)

# Strength of each rank (natural index) within trump and within a plain suit; higher wins.
TRUMP_STRENGTH = (0, 1, 6, 4, 7, 2, 3, 5)  # 7 8 Q K T A 9 J
PLAIN_STRENGTH = (0, 1, 2, 6, 3, 4, 5, 7)  # 7 8 9 J Q K T A
TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)
LAST_TRICK_BONUS = 10
PIT_BONUS = 100  # a team that wins all eight tricks (pit, "doormars")
HAND_POINTS = 162  # the cards' 152 points and the last trick's 10, whatever the trump
# Roem (rules.md section 6); four of a kind is by rank, in FOUR_OF_A_KIND_ROEM below.
DRIEKAART_ROEM = 20
VIERKAART_ROEM = 50
STUK_ROEM = 20

RANK_KING = 6
RANK_QUEEN = 5


def _build_points() -> tuple[int, ...]:
    table = []
    for trump in range(4):
        for card in range(32):
            rank = card & 7
            table.append(TRUMP_POINTS[rank] if card >> 3 == trump else PLAIN_POINTS[rank])
    return tuple(table)


def _build_trump_above() -> tuple[int, ...]:
    # TRUMP_ABOVE[trump * 9 + strength + 1]: the trump cards stronger than ``strength`` (-1: all).
    table = []
    for trump in range(4):
        for strength in range(-1, 8):
            mask = 0
            for rank in range(8):
                if TRUMP_STRENGTH[rank] > strength:
                    mask |= 1 << (trump * 8 + rank)
            table.append(mask)
    return tuple(table)


def _build_runs() -> tuple[int, ...]:
    # Longest run of consecutive set bits in a byte: a suit's sequence length in natural order.
    table = []
    for byte in range(256):
        best = run = 0
        for bit in range(8):
            run = run + 1 if byte >> bit & 1 else 0
            best = max(best, run)
        table.append(best)
    return tuple(table)


def _build_popcount() -> tuple[int, ...]:
    return tuple(bin(byte).count("1") for byte in range(256))


CARD_POINTS = _build_points()  # CARD_POINTS[trump * 32 + card]
TRUMP_ABOVE = _build_trump_above()
RUN_LENGTH = _build_runs()
POPCOUNT8 = _build_popcount()
FOUR_OF_A_KIND_ROEM = (0, 0, 0, 100, 200, 100, 100, 100)  # by rank: 7 8 9 T J Q K A


def stuk_mask(trump: int) -> int:
    """The king and queen of trump: the stuk."""
    return (1 << (trump * 8 + RANK_KING)) | (1 << (trump * 8 + RANK_QUEEN))


def popcount(mask: int) -> int:
    return (POPCOUNT8[mask & 0xFF] + POPCOUNT8[(mask >> 8) & 0xFF]
            + POPCOUNT8[(mask >> 16) & 0xFF] + POPCOUNT8[(mask >> 24) & 0xFF])


def lowest_card(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def card_power(card: int, trump: int, led: int) -> int:
    """Strength of a card in a trick: trumps over the led suit, other suits cannot win (0)."""
    suit = card >> 3
    if suit == trump:
        return 16 + TRUMP_STRENGTH[card & 7]
    if suit == led:
        return 8 + PLAIN_STRENGTH[card & 7]
    return 0


def legal_mask(hand: int, c0: int, c1: int, c2: int, count: int, trump: int,
               amsterdam: bool, undertrump_forced: bool) -> int:
    """The cards of ``hand`` that may be played on a trick of ``count`` cards c0, c1, c2.

    A transcription of rules.md section 4's normative pseudocode, with the common cases (leading,
    following a plain suit) decided before the trick is examined.
    """
    if count == 0:
        return hand
    led = c0 >> 3
    same = hand & SUIT_MASK[led]
    if led != trump:
        if same:
            return same
        trumps = hand & SUIT_MASK[trump]
        if trumps == 0:
            return hand
    # The strongest trump in the trick (-1: none) and the position of the card heading it.
    top = TRUMP_STRENGTH[c0 & 7] if led == trump else -1
    head = 0
    if count > 1 and c1 >> 3 == trump and TRUMP_STRENGTH[c1 & 7] > top:
        top = TRUMP_STRENGTH[c1 & 7]
        head = 1
    elif count > 1 and top < 0 and c1 >> 3 == led and PLAIN_STRENGTH[c1 & 7] > PLAIN_STRENGTH[c0 & 7]:
        head = 1
    if count > 2 and c2 >> 3 == trump and TRUMP_STRENGTH[c2 & 7] > top:
        top = TRUMP_STRENGTH[c2 & 7]
        head = 2
    elif count > 2 and top < 0 and c2 >> 3 == led:
        heading = c1 if head == 1 else c0
        if PLAIN_STRENGTH[c2 & 7] > PLAIN_STRENGTH[heading & 7]:
            head = 2
    above = TRUMP_ABOVE[trump * 9 + top + 1]
    if led == trump:
        if same == 0:
            return hand
        higher = same & above
        return higher if higher else same
    trumps = hand & SUIT_MASK[trump]
    partner_heads = count >= 2 and head == count - 2
    if amsterdam and partner_heads:
        if trumps == hand:
            return hand  # only trumps: any of them
        return hand & ~(trumps & ~above)  # no trump below the trump in the trick (none: nothing removed)
    if top < 0:
        return trumps
    higher = trumps & above
    if higher:
        return higher
    others = hand & ~SUIT_MASK[trump]
    if undertrump_forced or others == 0:
        return trumps
    return others


def trick_winner(c0: int, c1: int, c2: int, c3: int, trump: int) -> int:
    """Position (0..3, from the leader) of the card that wins a complete trick."""
    led = c0 >> 3
    best = 0
    best_power = card_power(c0, trump, led)
    power = card_power(c1, trump, led)
    if power > best_power:
        best, best_power = 1, power
    power = card_power(c2, trump, led)
    if power > best_power:
        best, best_power = 2, power
    power = card_power(c3, trump, led)
    if power > best_power:
        best = 3
    return best


def trick_points(c0: int, c1: int, c2: int, c3: int, trump: int) -> int:
    base = trump * 32
    return CARD_POINTS[base + c0] + CARD_POINTS[base + c1] + CARD_POINTS[base + c2] + CARD_POINTS[base + c3]


def sequence_roem(cards_mask: int) -> int:
    """Roem of the one sequence a trick can hold: a driekaart (three in a suit) or a vierkaart (four)."""
    best = 0
    for suit in range(4):
        run = RUN_LENGTH[(cards_mask >> (8 * suit)) & 0xFF]
        if run > best:
            best = run
    if best >= 4:
        return VIERKAART_ROEM
    if best == 3:
        return DRIEKAART_ROEM
    return 0


def trick_roem(c0: int, c1: int, c2: int, c3: int, trump: int, stuk_in_trick: bool) -> int:
    """All roem of one trick: sequence, four of a kind and (stuk: trick) K+Q of trump."""
    mask = (1 << c0) | (1 << c1) | (1 << c2) | (1 << c3)
    roem = sequence_roem(mask)
    rank = c0 & 7
    if (c1 & 7) == rank and (c2 & 7) == rank and (c3 & 7) == rank:
        roem += FOUR_OF_A_KIND_ROEM[rank]
    if stuk_in_trick:
        stuk = stuk_mask(trump)
        if mask & stuk == stuk:
            roem += STUK_ROEM
    return roem


def settle(playing_team: int, points_ns: int, points_ew: int, roem_ns: int, roem_ew: int) -> tuple[int, int, bool]:
    """Score of a complete hand (roem includes pit): (score NS, score EW, nat)."""
    if playing_team == 0:
        made = points_ns + roem_ns > points_ew + roem_ew
    else:
        made = points_ew + roem_ew > points_ns + roem_ns
    if made:
        return points_ns + roem_ns, points_ew + roem_ew, False
    total = HAND_POINTS + roem_ns + roem_ew
    return (0, total, True) if playing_team == 0 else (total, 0, True)
