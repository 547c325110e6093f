"""KINGDEAL-v1: the provably fair deal (FAIRNESS.md), byte for byte.

1. At table creation the server draws a 32-byte seed ``S`` and publishes
   ``server_commit = SHA256("KINGDEAL-v1/server\\0" ‖ M ‖ S)`` where ``M`` is the match id's
   16 bytes.
2. Each seat contributes a 32-byte client seed ``C_seat`` (zero bytes for a server bot).
3. ``match_key = HMAC(S, "KINGDEAL-v1/match\\0" ‖ M ‖ C_0 ‖ C_1 ‖ C_2 ‖ C_3)``.
4. Hand ``h``: ``hand_key = HMAC(match_key, "KINGDEAL-v1/hand\\0" ‖ u32be(h))``; a stream of
   ``HMAC(hand_key, u32be(i))`` blocks read as big-endian u32s; ``uniform(n)`` by rejection
   sampling; a Fisher-Yates shuffle from position 51 down to 1; seat ``s`` gets
   ``deck[13s:13s+13]``.

Card ids here are the engine's own (the same numbering), so a dealt hand is a mask directly.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import string
import struct
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .errors import BadInput

SPEC: Final = "KINGDEAL-v1"
SERVER_TAG: Final = b"KINGDEAL-v1/server\x00"
MATCH_TAG: Final = b"KINGDEAL-v1/match\x00"
HAND_TAG: Final = b"KINGDEAL-v1/hand\x00"
SEED_BYTES: Final = 32
BOT_SEED: Final = bytes(SEED_BYTES)  # the client seed of a seat played by a server bot
TWO_32: Final = 1 << 32
_CARD_BITS: Final = tuple(1 << card for card in range(52))


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
    """The 32-byte key every hand of the match is derived from."""
    if len(server_seed) != SEED_BYTES:
        raise BadInput("bad_seed", "the server seed must be 32 bytes")
    if len(client_seeds) != 4 or any(len(seed) != SEED_BYTES for seed in client_seeds):
        raise BadInput("bad_seed", "four client seeds of 32 bytes each are needed")
    message = MATCH_TAG + match_id_bytes(match_id) + b"".join(client_seeds)
    return hmac.digest(server_seed, message, "sha256")


def hand_key(key: bytes, hand_index: int) -> bytes:
    return hmac.digest(key, HAND_TAG + hand_index.to_bytes(4, "big"), "sha256")


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


def shuffled_deck_reference(key: bytes, hand_index: int) -> list[int]:
    """The deck of hand ``hand_index``, written exactly as the specification reads."""
    next_u32 = u32_stream(hand_key(key, hand_index)).__next__
    deck = list(range(52))
    for i in range(51, 0, -1):
        j = uniform(i + 1, next_u32)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# A shuffle takes 51 draws: 7 HMAC blocks give 56. A draw is rejected with probability below
# 1.3e-8, so almost every hand needs just those; on a rejection we take the reference path.
_BLOCK_INDEX: Final = tuple(i.to_bytes(4, "big") for i in range(7))
_HAND_MESSAGES: Final = tuple(HAND_TAG + h.to_bytes(4, "big") for h in range(64))
_UNPACK_DRAWS: Final = struct.Struct(">51I20x").unpack
_IPAD: Final = int.from_bytes(b"\x36" * 64, "big")
_OPAD: Final = int.from_bytes(b"\x5c" * 64, "big")
_SIZES: Final = tuple(range(52, 1, -1))  # i + 1 for i = 51 .. 1
_MIN_LIMIT: Final = min(TWO_32 - (TWO_32 % n) for n in _SIZES)  # below it nothing is rejected


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


def _permuted(items: list[int], key: bytes, hand_index: int) -> list[int] | None:
    """Shuffle ``items`` (52 of them) in place as KINGDEAL-v1 shuffles the deck; None if a
    draw would be rejected (the caller then takes the reference path)."""
    if hand_index < len(_HAND_MESSAGES):
        hkey = _hmac_with_pads(_hmac_pads(key), _HAND_MESSAGES[hand_index])
    else:
        hkey = hand_key(key, hand_index)
    padded = int.from_bytes(hkey + bytes(32), "big")
    inner = hashlib.sha256((padded ^ _IPAD).to_bytes(64, "big"))
    outer = hashlib.sha256((padded ^ _OPAD).to_bytes(64, "big"))
    blocks = []
    for index in _BLOCK_INDEX:
        ihash = inner.copy()
        ihash.update(index)
        ohash = outer.copy()
        ohash.update(ihash.digest())
        blocks.append(ohash.digest())
    draws = _UNPACK_DRAWS(b"".join(blocks))
    if max(draws) >= _MIN_LIMIT:
        return None
    i = 51
    for x, n in zip(draws, _SIZES, strict=True):
        j = x % n
        items[i], items[j] = items[j], items[i]
        i -= 1
    return items


def shuffled_deck(key: bytes, hand_index: int) -> list[int]:
    """The deck of hand ``hand_index`` after the Fisher-Yates shuffle: 52 card ids.

    Same result as ``shuffled_deck_reference``; faster, because every hand of every
    simulation deals through here.
    """
    deck = _permuted(list(range(52)), key, hand_index)
    return deck if deck is not None else shuffled_deck_reference(key, hand_index)


def deal_hand(key: bytes, hand_index: int) -> list[int]:
    """The four hands of hand ``hand_index`` as card masks, seat 0 first."""
    # Shuffling the cards' one-bit masks instead of their ids makes each hand a plain sum.
    bits = _permuted(list(_CARD_BITS), key, hand_index)
    if bits is None:
        bits = [_CARD_BITS[card] for card in shuffled_deck_reference(key, hand_index)]
    return [sum(bits[0:13]), sum(bits[13:26]), sum(bits[26:39]), sum(bits[39:52])]


@dataclass(frozen=True, slots=True)
class DealProblem:
    """One failed check of a transcript verification."""

    check: str
    hand: int | None
    message: str


def verify_commit(match_id: str | uuid.UUID, server_seed: bytes, commit: str) -> bool:
    return hmac.compare_digest(server_commit(match_id, server_seed), commit.lower())


def verify_plays(key: bytes, hand_index: int, plays: Sequence[tuple[int, int]]) -> list[str]:
    """Check that every (seat, card) played in a hand was dealt to that seat, once."""
    hands = deal_hand(key, hand_index)
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
