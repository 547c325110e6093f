"""KINGDEAL-v1: the provably fair deal (FAIRNESS.md), byte for byte.

1. At table creation the server draws a 32-byte seed ``S`` and publishes
   ``server_commit = SHA256("KINGDEAL-v1/server\\0" ‖ M ‖ S)`` where ``M`` is the match id's
   16 bytes.
2. Each seat contributes a 32-byte client seed ``C_seat`` (zero bytes for a server bot).
3. ``match_key = HMAC(S, "KINGDEAL-v1/match\\0" ‖ M ‖ C_0 ‖ C_1 ‖ C_2 ‖ C_3)``.
4. Deal number ``d`` (deals are numbered 0, 1, 2, … in the order they happen; without redeals
   deal ``d`` is hand ``d``): ``hand_key = HMAC(match_key, "KINGDEAL-v1/hand\\0" ‖ u32be(d))``;
   a stream of ``HMAC(hand_key, u32be(i))`` blocks read as big-endian u32s; ``uniform(n)`` by
   rejection sampling; a Fisher-Yates shuffle of the ruleset's deck (its ``n`` card ids in
   ascending order: the 52 cards, or the 32 cards 7..A) from position ``n - 1`` down to 1;
   seat ``s`` gets ``deck[(n/4)s : (n/4)(s+1)]``.
5. The opening draw, for rulesets whose first declarer is drawn: ``draw_key =
   HMAC(match_key, "KINGDEAL-v1/draw\\0")`` shuffles the 52 cards into the draw deck ``D`` the
   same way; seats 0..3 each turn over the next card of ``D`` in seat order, the highest rank
   wins (suits do not rank), and the seats tied on the highest rank draw again, until one
   remains. If ``D`` runs out first, the lowest seat still drawing wins.

Card ids here are the engine's own (the same numbering), so a dealt hand is a mask directly.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import itertools
import string
import struct
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from .cards import CARD_CODES, RANK_CHARS, rank_of
from .errors import BadInput

SPEC: Final = "KINGDEAL-v1"
SERVER_TAG: Final = b"KINGDEAL-v1/server\x00"
MATCH_TAG: Final = b"KINGDEAL-v1/match\x00"
HAND_TAG: Final = b"KINGDEAL-v1/hand\x00"
DRAW_TAG: Final = b"KINGDEAL-v1/draw\x00"
SEED_BYTES: Final = 32
BOT_SEED: Final = bytes(SEED_BYTES)  # the client seed of a seat played by a server bot
TWO_32: Final = 1 << 32
SEATS: Final = 4
_CARD_BITS: Final = tuple(1 << card for card in range(52))

_RANK_SEVEN: Final = RANK_CHARS.index("7")  # 5
#: The decks of FAIRNESS.md, card ids in ascending order: all 52 cards, and the 32 cards 7..A
#: (rank index 5, the seven, or more).
DECK_52: Final = tuple(range(52))
DECK_32: Final = tuple(card for card in DECK_52 if rank_of(card) >= _RANK_SEVEN)


def match_id_bytes(match_id: str | uuid.UUID) -> bytes:
    """The 16 bytes of a match id in RFC 4122 order."""
    try:
        return (match_id if isinstance(match_id, uuid.UUID) else uuid.UUID(match_id)).bytes
    except (ValueError, AttributeError, TypeError) as exc:
        raise BadInput("bad_match_id", f"{match_id!r} is not a UUID") from exc


def parse_seed(text: str) -> bytes:
    """A client seed: exactly 64 hex characters (32 bytes)."""
    # bytes.fromhex alone would skip spaces: 64 characters could then be fewer than 32 bytes.
    if (
        not isinstance(text, str)
        or len(text) != 2 * SEED_BYTES
        or not all(c in string.hexdigits for c in text)
    ):
        raise BadInput("bad_seed", "a seed is 64 hexadecimal characters (32 bytes)")
    return bytes.fromhex(text)


def server_commit(match_id: str | uuid.UUID, server_seed: bytes) -> str:
    """The published commitment to the server seed, as lowercase hex."""
    return hashlib.sha256(SERVER_TAG + match_id_bytes(match_id) + server_seed).hexdigest()


def match_key(
    match_id: str | uuid.UUID, server_seed: bytes, client_seeds: Sequence[bytes]
) -> bytes:
    """The 32-byte key every deal of the match is derived from."""
    if len(server_seed) != SEED_BYTES:
        raise BadInput("bad_seed", "the server seed must be 32 bytes")
    if len(client_seeds) != 4 or any(len(seed) != SEED_BYTES for seed in client_seeds):
        raise BadInput("bad_seed", "four client seeds of 32 bytes each are needed")
    message = MATCH_TAG + match_id_bytes(match_id) + b"".join(client_seeds)
    return hmac.digest(server_seed, message, "sha256")


def hand_key(key: bytes, deal_no: int) -> bytes:
    """The key of deal number ``deal_no`` (the spec's ``hand_key``; ``d = h`` without redeals)."""
    return hmac.digest(key, HAND_TAG + deal_no.to_bytes(4, "big"), "sha256")


def draw_key(key: bytes) -> bytes:
    """The key of the opening draw's deck."""
    return hmac.digest(key, DRAW_TAG, "sha256")


def u32_stream(key: bytes) -> Iterator[int]:
    """``HMAC(key, u32be(0)) ‖ HMAC(key, u32be(1)) ‖ …`` read as big-endian u32 numbers."""
    block = 0
    while True:
        digest = hmac.digest(key, block.to_bytes(4, "big"), "sha256")
        for offset in range(0, 32, 4):
            yield int.from_bytes(digest[offset : offset + 4], "big")
        block += 1


def uniform(n: int, next_u32: Callable[[], int]) -> int:
    """A uniform number in ``0..n-1`` from u32 draws, without modulo bias."""
    limit = TWO_32 - (TWO_32 % n)
    while True:
        x = next_u32()
        if x < limit:
            return x % n


def _checked_deck(deck: Sequence[int]) -> tuple[int, ...]:
    """A ruleset's deck: ascending card ids, four seats' worth. A wrong one is a programming
    error (decks are constants of the rulesets, never outside input), hence ValueError."""
    cards = tuple(deck)
    if (
        not cards
        or len(cards) % SEATS
        or cards[0] < 0
        or cards[-1] > 51
        or any(a >= b for a, b in itertools.pairwise(cards))
    ):
        raise ValueError(f"a deck is ascending card ids 0..51, a multiple of 4: {deck!r}")
    return cards


def fisher_yates(stream_key: bytes, deck: Sequence[int]) -> list[int]:
    """``deck`` shuffled by the u32 stream of ``stream_key``, exactly as the spec reads: for
    ``i`` from ``n - 1`` down to 1, swap ``deck[i]`` and ``deck[uniform(i + 1)]``."""
    next_u32 = u32_stream(stream_key).__next__
    cards = list(deck)
    for i in range(len(cards) - 1, 0, -1):
        j = uniform(i + 1, next_u32)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def shuffled_deck_reference(key: bytes, deal_no: int, deck: Sequence[int] = DECK_52) -> list[int]:
    """The deck of deal number ``deal_no``, written exactly as the specification reads."""
    return fisher_yates(hand_key(key, deal_no), _checked_deck(deck))


# A shuffle of n cards takes n - 1 draws: for 52 cards 7 HMAC blocks give 56. A draw is
# rejected with probability below 1.3e-8, so almost every deal needs just those; on a rejection
# we take the reference path. _MIN_LIMIT is the lowest rejection limit of any size up to 52, so
# a draw below it is accepted in a deck of any size.
_HAND_MESSAGES: Final = tuple(HAND_TAG + h.to_bytes(4, "big") for h in range(64))
_IPAD: Final = int.from_bytes(b"\x36" * 64, "big")
_OPAD: Final = int.from_bytes(b"\x5c" * 64, "big")
_MIN_LIMIT: Final = min(TWO_32 - (TWO_32 % n) for n in range(52, 1, -1))  # none rejected below


class _ShufflePlan(NamedTuple):
    """What the fast shuffle of an ``n``-card deck needs, computed once per size."""

    blocks: tuple[bytes, ...]  # u32be(0), u32be(1), …: the stream's blocks that hold n - 1 draws
    unpack: Callable[[bytes], tuple[int, ...]]  # those blocks -> the n - 1 draws
    sizes: tuple[int, ...]  # i + 1 for i = n - 1 .. 1


@functools.lru_cache(maxsize=8)
def _plan(n: int) -> _ShufflePlan:
    draws = n - 1
    blocks = (draws + 7) // 8  # 8 u32 draws per HMAC block
    unpack = struct.Struct(f">{draws}I{32 * blocks - 4 * draws}x").unpack
    return _ShufflePlan(
        tuple(i.to_bytes(4, "big") for i in range(blocks)), unpack, tuple(range(n, 1, -1))
    )


_PLAN_52: Final = _plan(52)


@functools.lru_cache(maxsize=256)
def _hmac_pads(key: bytes) -> tuple[Any, Any]:
    """HMAC(k, m) = SHA256((k ^ opad) ‖ SHA256((k ^ ipad) ‖ m)): the two hash states after
    the padded key, to be copied for each message instead of re-hashing the key every time.
    """
    padded = int.from_bytes(key + bytes(32), "big")
    inner = hashlib.sha256((padded ^ _IPAD).to_bytes(64, "big"))
    outer = hashlib.sha256((padded ^ _OPAD).to_bytes(64, "big"))
    return inner, outer


def _hmac_with_pads(pads: tuple[Any, Any], message: bytes) -> bytes:
    inner, outer = pads[0].copy(), pads[1].copy()
    inner.update(message)
    outer.update(inner.digest())
    digest: bytes = outer.digest()
    return digest


def _fast_hand_key(key: bytes, deal_no: int) -> bytes:
    if deal_no < len(_HAND_MESSAGES):
        return _hmac_with_pads(_hmac_pads(key), _HAND_MESSAGES[deal_no])
    return hand_key(key, deal_no)


def _permuted(items: list[int], stream_key: bytes, plan: _ShufflePlan) -> list[int] | None:
    """Shuffle ``items`` in place as ``fisher_yates`` shuffles a deck of their number; None
    if a draw would be rejected (the caller then takes the reference path)."""
    padded = int.from_bytes(stream_key + bytes(32), "big")
    inner = hashlib.sha256((padded ^ _IPAD).to_bytes(64, "big"))
    outer = hashlib.sha256((padded ^ _OPAD).to_bytes(64, "big"))
    block_indexes, unpack, sizes = plan
    blocks = []
    for index in block_indexes:
        ihash = inner.copy()
        ihash.update(index)
        ohash = outer.copy()
        ohash.update(ihash.digest())
        blocks.append(ohash.digest())
    draws = unpack(b"".join(blocks))
    if max(draws) >= _MIN_LIMIT:
        return None
    i = len(items) - 1
    for x, n in zip(draws, sizes, strict=True):
        j = x % n
        items[i], items[j] = items[j], items[i]
        i -= 1
    return items


def shuffled_deck(key: bytes, deal_no: int, deck: Sequence[int] = DECK_52) -> list[int]:
    """The deck of deal number ``deal_no`` after the Fisher-Yates shuffle, as card ids.

    Same result as ``shuffled_deck_reference``; faster, because every hand of every
    simulation deals through here.
    """
    if deck is DECK_52:
        cards, plan = DECK_52, _PLAN_52
    else:
        cards = _checked_deck(deck)
        plan = _plan(len(cards))
    shuffled = _permuted(list(cards), _fast_hand_key(key, deal_no), plan)
    return shuffled if shuffled is not None else fisher_yates(hand_key(key, deal_no), cards)


def deal_hand(key: bytes, deal_no: int, deck: Sequence[int] = DECK_52) -> list[int]:
    """The four hands of deal number ``deal_no`` as card masks, seat 0 first: seat ``s`` holds
    the shuffled deck's ``n/4`` cards from position ``(n/4)s``."""
    if deck is not DECK_52:
        cards = shuffled_deck(key, deal_no, deck)
        per_seat = len(cards) // SEATS
        return [
            sum(_CARD_BITS[card] for card in cards[per_seat * s : per_seat * (s + 1)])
            for s in range(SEATS)
        ]
    # Shuffling the cards' one-bit masks instead of their ids makes each hand a plain sum.
    bits = _permuted(list(_CARD_BITS), _fast_hand_key(key, deal_no), _PLAN_52)
    if bits is None:
        bits = [_CARD_BITS[card] for card in shuffled_deck_reference(key, deal_no)]
    return [sum(bits[0:13]), sum(bits[13:26]), sum(bits[26:39]), sum(bits[39:52])]


# ------------------------------------------------------------------ the opening draw


@dataclass(frozen=True, slots=True)
class OpeningDraw:
    """A high-card draw: each round's ``(seat, card)`` pairs in the order turned over, and the
    seat that won. ``to_dict`` is its transcript form, cards as codes."""

    rounds: tuple[tuple[tuple[int, int], ...], ...]
    winner: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "rounds": [[[seat, CARD_CODES[card]] for seat, card in rnd] for rnd in self.rounds],
            "winner": self.winner,
        }


def draw_deck(key: bytes) -> list[int]:
    """The opening draw's deck ``D``: the 52 cards shuffled by ``draw_key``."""
    return fisher_yates(draw_key(key), DECK_52)


def high_card_draw(cards: Sequence[int]) -> OpeningDraw:
    """Seats 0..3 turn over ``cards`` in order, a card each in seat order; the highest rank
    wins, and the seats tied on it draw again from the next cards until one remains. If the
    cards run out, the lowest seat still drawing wins."""
    candidates = list(range(SEATS))
    rounds: list[tuple[tuple[int, int], ...]] = []
    at = 0
    while len(candidates) > 1 and at < len(cards):
        turned = tuple(zip(candidates, cards[at : at + len(candidates)], strict=False))
        at += len(turned)
        rounds.append(turned)
        if len(turned) < len(candidates):
            break  # ran out during the round: nobody is eliminated by a part of a round
        top = max(rank_of(card) for _, card in turned)
        candidates = [seat for seat, card in turned if rank_of(card) == top]
    return OpeningDraw(tuple(rounds), candidates[0])


def opening_draw(key: bytes) -> OpeningDraw:
    """The opening draw of the match with key ``key`` (who declares or deals first)."""
    return high_card_draw(draw_deck(key))


# ------------------------------------------------------------------ verification


@dataclass(frozen=True, slots=True)
class DealProblem:
    """One failed check of a transcript verification."""

    check: str
    hand: int | None
    message: str


def verify_commit(match_id: str | uuid.UUID, server_seed: bytes, commit: str) -> bool:
    return hmac.compare_digest(server_commit(match_id, server_seed), commit.lower())


def verify_plays(
    key: bytes, deal_no: int, plays: Sequence[tuple[int, int]], deck: Sequence[int] = DECK_52
) -> list[str]:
    """Check that every (seat, card) played on deal number ``deal_no`` was dealt to that seat,
    once."""
    hands = deal_hand(key, deal_no, deck)
    problems = []
    seen = 0
    for seat, card in plays:
        bit = 1 << card
        if seen & bit:
            problems.append(f"card {card} was played twice")
        elif not hands[seat] & bit:
            problems.append(f"seat {seat} played card {card} that was not dealt to it")
        seen |= bit
    return problems
