"""An independent KINGDEAL-v1 verifier, written from FAIRNESS.md (not the engine's code).

It uses only hashlib/hmac and the specification's byte layout, so a bug in the service's own
derivation cannot hide behind the same bug here.
"""

from __future__ import annotations

import hashlib
import hmac
import uuid
from collections.abc import Callable, Iterator
from typing import Any

RANKS = "23456789TJQKA"
SUITS = "CDHS"


def card_code(card: int) -> str:
    return RANKS[card % 13] + SUITS[card // 13]


def commit(match_id: str, server_seed: bytes) -> str:
    return hashlib.sha256(
        b"KINGDEAL-v1/server\0" + uuid.UUID(match_id).bytes + server_seed
    ).hexdigest()


def match_key(match_id: str, server_seed: bytes, seeds: list[bytes]) -> bytes:
    message = b"KINGDEAL-v1/match\0" + uuid.UUID(match_id).bytes + b"".join(seeds)
    return hmac.new(server_seed, message, hashlib.sha256).digest()


# The decks of FAIRNESS.md: card ids in ascending order, all 52, or the 32 cards 7..A.
DECK_52 = list(range(52))
DECK_32 = [card for card in range(52) if card % 13 >= 5]


def hand_key(key: bytes, deal: int) -> bytes:
    """The key of deal number ``deal`` (``d = h`` when no hand was redealt)."""
    return hmac.new(key, b"KINGDEAL-v1/hand\0" + deal.to_bytes(4, "big"), hashlib.sha256).digest()


def draw_key(key: bytes) -> bytes:
    return hmac.new(key, b"KINGDEAL-v1/draw\0", hashlib.sha256).digest()


def stream(key: bytes) -> Iterator[int]:
    counter = 0
    while True:
        block = hmac.new(key, counter.to_bytes(4, "big"), hashlib.sha256).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        counter += 1


def uniform(n: int, next_u32: Callable[[], int]) -> int:
    limit = 2**32 - (2**32 % n)
    while True:
        x = next_u32()
        if x < limit:
            return x % n


def shuffle(key: bytes, cards: list[int]) -> list[int]:
    """Fisher-Yates keyed by ``key``'s stream, from the last position down to 1."""
    next_u32 = stream(key).__next__
    cards = list(cards)
    for i in range(len(cards) - 1, 0, -1):
        j = uniform(i + 1, next_u32)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deck(key: bytes, deal: int, cards: list[int] = DECK_52) -> list[int]:
    return shuffle(hand_key(key, deal), cards)


def hands(key: bytes, deal: int, cards: list[int] = DECK_52) -> list[set[str]]:
    """Each seat's cards of deal number ``deal``: n/4 consecutive cards of the shuffled deck."""
    shuffled = deck(key, deal, cards)
    per_seat = len(cards) // 4
    return [{card_code(c) for c in shuffled[per_seat * s : per_seat * (s + 1)]} for s in range(4)]


def is_card_code(text: str) -> bool:
    return len(text) == 2 and text[0] in RANKS and text[1] in SUITS


def draw_deck(key: bytes) -> list[int]:
    return shuffle(draw_key(key), DECK_52)


def opening_draw(key: bytes) -> tuple[list[list[tuple[int, str]]], int]:
    """The high-card draw: its rounds of (seat, card code) and the winning seat. Tied seats
    alone draw again; if D runs out, the lowest seat still drawing wins."""
    cards = draw_deck(key)
    candidates = [0, 1, 2, 3]
    rounds: list[list[tuple[int, str]]] = []
    pointer = 0
    while len(candidates) > 1 and pointer < len(cards):
        drawn = []
        for seat in candidates:
            if pointer == len(cards):
                break
            drawn.append((seat, cards[pointer]))
            pointer += 1
        rounds.append([(seat, card_code(card)) for seat, card in drawn])
        if len(drawn) < len(candidates):
            break
        best = max(card % 13 for _, card in drawn)
        candidates = [seat for seat, card in drawn if card % 13 == best]
    return rounds, candidates[0]


def verify(
    transcript: dict[str, Any],
    seen_commit: str,
    my_seat: int | None = None,
    my_seed: str | None = None,
) -> list[set[str]] | None:
    """Check a transcript; return the hands of hand 0 (for the caller's own checks)."""
    assert transcript["spec"] == "KINGDEAL-v1"
    server_seed = bytes.fromhex(transcript["server_seed"])
    assert commit(transcript["match_id"], server_seed) == seen_commit == transcript["server_commit"]
    if my_seat is not None and my_seed is not None:
        assert transcript["client_seeds"][my_seat] == my_seed
        assert transcript["seed_sources"][my_seat] == "client"
    seeds = transcript["client_seeds"]
    for seed, source in zip(seeds, transcript["seed_sources"], strict=True):
        assert source in ("client", "server", "bot", None)
        assert (source == "bot") <= (seed == "00" * 32), "a bot seed is the 32 zero bytes"
    if any(seed is None for seed in seeds):
        assert transcript["hands"] == []
        return None
    key = match_key(transcript["match_id"], server_seed, [bytes.fromhex(s) for s in seeds])
    first = None
    for entry in transcript["hands"]:
        # A ruleset with its own state lists every move of a deal (calls, bids, cards) and the
        # deal's deck size; the others list the plays.
        deck = DECK_32 if entry.get("deck_size") == 32 else DECK_52
        dealt = hands(key, entry.get("deal", entry["hand"]), deck)  # (older: no deal)
        if first is None:
            first = dealt
        played: set[str] = set()
        plays = (
            entry["plays"]
            if "plays" in entry
            else [(seat, text) for seat, text in entry["moves"] if is_card_code(text)]
        )
        for seat, card in plays:
            assert card in dealt[seat], f"hand {entry['hand']}: seat {seat} was not dealt {card}"
            assert card not in played, f"hand {entry['hand']}: {card} played twice"
            played.add(card)
    return first
