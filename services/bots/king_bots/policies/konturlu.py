"""The bots of ``konturlu``: contract choice, the two call rounds and card play, from the view.

* **easy** — a simple rule (the lowest card, the highest when void; Dürt: the lowest
  playable card) replaced by a random legal card 30 % of the time; a contract from a quick
  count with noise; it rarely challenges (``EASY_KONTUR``).
* **medium** — the heuristics of ``konturlu_play`` (duck, shed penalty cards when void,
  Rıfkı care, cheap Koz wins, Dürt blocking). Contracts and calls from simulated outcomes:
  the unseen cards are dealt at random to the others ``MEDIUM`` worlds times and the hand is
  played out with the heuristics; a contract is worth its mean base score for this seat less
  what the same contract is worth on an average later hand (``LATER_VALUE``: so Koz and Dürt
  are kept for good hands); a call is worth this seat's mean settled score, where a seat
  konturred one way answers with a sür when it does better than its konturer on average over
  the same worlds. A call other than ``iyi`` needs ``CALL_MARGIN`` points more than ``iyi``.
* **hard** — more worlds, and in card play a determinized search: ``HARD.card_worlds``
  worlds consistent with the view (counts, voids seen in the current and last trick, the
  penalty cards still out), every legal card tried in each and played out with the medium
  heuristics; the card with the best mean settled score for this seat is played.

The view shows the current and the last trick only (not the earlier ones), so the sampled
worlds may hold cards that were played before the last trick: the bots know which penalty
cards are still out from the points, but not which of the others are.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from king_engine.cards import (
    FULL_DECK,
    HEARTS_MASK,
    RANK_CHARS,
    SUIT_CHARS,
    SUIT_MASK,
    card_of,
    parse_card,
)
from king_engine.konturlu import trick_legal_mask
from king_engine.konturlu.durt import CLOSED, Layout
from king_engine.konturlu.rules import CONTRACT_CODES, DURT, KOZ, PENALTIES, RIFKI

from .konturlu_play import (
    PENALTY_MASK,
    POINTS_PER_CARD,
    DurtPosition,
    TrickPosition,
    cards_of,
    durt_card,
    play_out_durt,
    play_out_tricks,
    sample_world,
    settled_score,
    trick_card,
)

LEVELS: Final = ("easy", "medium", "hard")
EASY_NOISE: Final = 0.3
#: How often easy challenges: a round-1 kontur on the declarer, a round-2 sür.
EASY_KONTUR: Final = 0.05
EASY_SUR: Final = 0.2
#: What declaring a contract on an average later hand gives the declarer (its base score),
#: measured with the medium heuristics over 200 random deals, the declarer leading and, in
#: Koz and Dürt, picking its suit or rank as the medium bot does: a contract is picked now
#: when this hand beats it.
LATER_VALUE: Final = {
    "el": -18.0,
    "kupa": -11.0,
    "erkek": -13.0,
    "kiz": -10.0,
    "rifki": -9.0,
    "soniki": -8.0,
    "koz": 23.0,
    "durt": 22.0,
}
#: A non-declarer's expected score in a Rıfkı hand (−30 / 4): what a redeal is worth.
RIFKI_AVERAGE: Final = -7.5


@dataclass(frozen=True, slots=True)
class Effort:
    """How many sampled worlds each decision uses."""

    call_worlds: int
    contract_worlds: int
    koz_suits: int  # trump suits simulated (the best by a quick count)
    durt_ranks: int  # Dürt ranks simulated
    card_worlds: int  # 0: heuristic card play
    call_margin: float


MEDIUM: Final = Effort(
    call_worlds=12, contract_worlds=6, koz_suits=2, durt_ranks=3, card_worlds=0, call_margin=3.0
)
HARD: Final = Effort(
    call_worlds=32, contract_worlds=12, koz_suits=3, durt_ranks=4, card_worlds=20, call_margin=2.0
)
EFFORT: Final = {"medium": MEDIUM, "hard": HARD}

ALL_SEATS: Final = 0b1111


# ---------------------------------------------------------------------- reading the view


def _mask(codes: Sequence[str]) -> int:
    mask = 0
    for code in codes:
        mask |= 1 << parse_card(code)
    return mask


def contract_of(view: dict[str, Any]) -> tuple[int, int]:
    """(contract, trump suit or Dürt rank or -1) of the view's named contract."""
    named = view.get("contract") or {}
    contract = CONTRACT_CODES.index(named["type"])
    if contract == KOZ:
        return contract, SUIT_CHARS.index(named["trump"])
    if contract == DURT:
        return contract, RANK_CHARS.index(named["rank"])
    return contract, -1


def _kontur_of(view: dict[str, Any]) -> list[int]:
    """Per seat, the mask of seats it konturred in round 1."""
    kontur = [0, 0, 0, 0]
    for a, b in (view.get("challenge") or {}).get("kontur", []):
        kontur[a] |= 1 << b
    return kontur


def _sur_of(view: dict[str, Any]) -> set[tuple[int, int]]:
    pairs = (view.get("challenge") or {}).get("pairs", {})
    out = set()
    for key, rel in pairs.items():
        if rel in ("sur", "sur_auto"):
            a, b = (int(x) for x in key.split("-"))
            out.add((min(a, b), max(a, b)))
    return out


def _layout_of(view: dict[str, Any]) -> Layout:
    runs = []
    for suit in SUIT_CHARS:
        run = view["durt"]["layout"].get(suit)
        runs.append(None if run is None else (RANK_CHARS.index(run[0]), RANK_CHARS.index(run[1])))
    return (runs[0], runs[1], runs[2], runs[3])


def _layout_cards(layout: Layout) -> int:
    mask = 0
    for suit, run in enumerate(layout):
        if run is not None:
            for r in range(run[0], run[1] + 1):
                mask |= 1 << card_of(suit, r)
    return mask


def _seats(text: str) -> int:
    mask = 0
    for part in text.split(","):
        mask |= 1 << int(part)
    return mask


def _targets(call: str, me: int, declarer: int) -> int:
    """The seats a call adds a kontur (round 1) or sür (round 2) on."""
    if call == "masa":
        return ALL_SEATS & ~(1 << me)
    if call == "haric":
        return ALL_SEATS & ~(1 << me) & ~(1 << declarer)
    if ":" in call:
        return _seats(call.split(":", 1)[1])
    return 0


# ---------------------------------------------------------------------- the entry point


def decide(view: dict[str, Any], level: str, seed: int) -> str:
    """The move (text form) of the bot of ``level`` in the seat view ``view``: one of its
    legal moves, a function of the view, the level and the seed only."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (one of {', '.join(LEVELS)})")
    legal: list[str] = list(view["legal_moves"])
    if len(legal) == 1:
        return legal[0]
    rng = random.Random(seed)
    phase = view.get("phase")
    if phase == "play":
        return _trick_move(view, legal, level, rng)
    if phase == "durt":
        return _durt_move(view, legal, level, rng)
    if phase == "contract":
        return _contract_move(view, legal, level, rng)
    if phase in ("kontur", "sur"):
        return _call_move(view, legal, level, rng)
    return rng.choice(legal)


# ---------------------------------------------------------------------- card play


@dataclass(frozen=True, slots=True)
class TrickView:
    """What the seat knows of a trick hand in progress, as masks."""

    me: int
    contract: int
    trump: int
    mine: int
    trick: list[int]
    leader: int
    trick_no: int
    hearts_broken: bool
    points: list[int]
    counts: list[int]
    pool: int  # cards the others may hold
    voids: list[int]  # per seat, a mask of suits it showed out of
    pairs: dict[tuple[int, int], int]


def trick_view(view: dict[str, Any]) -> TrickView:
    contract, arg = contract_of(view)
    me = int(view["seat"])
    mine = _mask(view["my_cards"])
    trick_info = view["trick"]
    trick = [parse_card(code) for _seat, code in trick_info["cards"]]
    leader = int(trick_info["leader"])
    voids = [0, 0, 0, 0]
    seen = _mask([code for _s, code in trick_info["cards"]])
    for cards in (trick_info["cards"], view.get("last_trick") or []):
        if not cards:
            continue
        led = parse_card(cards[0][1]) // 13
        for seat, code in cards[1:]:
            suit = parse_card(code) // 13
            if suit != led:
                voids[seat] |= 1 << led
                if contract == RIFKI and suit != 2:
                    voids[seat] |= 1 << 2  # Rıfkı: a void seat plays a heart if it has one
    for _s, code in view.get("last_trick") or []:
        seen |= 1 << parse_card(code)
    return TrickView(
        me=me,
        contract=contract,
        trump=arg if contract == KOZ else -1,
        mine=mine,
        trick=trick,
        leader=leader,
        trick_no=int(trick_info["number"]),
        hearts_broken=bool(view.get("hearts_broken")),
        points=[int(p) for p in view["points"]],
        counts=[int(c) for c in view["counts"]],
        pool=FULL_DECK & ~mine & ~seen,
        voids=voids,
        pairs=_pairs_of(view),
    )


def _pairs_of(view: dict[str, Any]) -> dict[tuple[int, int], int]:
    out: dict[tuple[int, int], int] = {}
    for key, rel in ((view.get("challenge") or {}).get("pairs") or {}).items():
        a, b = (int(x) for x in key.split("-"))
        out[(a, b)] = 2 if rel in ("sur", "sur_auto") else 1
    return out


def sample_trick_world(tv: TrickView, rng: random.Random) -> list[int]:
    """The others' hands drawn consistent with what ``tv`` shows (see ``sample_world``)."""
    contract = tv.contract
    must = tv.pool & HEARTS_MASK if not tv.hearts_broken else 0
    limited, count = 0, -1
    if contract in POINTS_PER_CARD:
        limited = PENALTY_MASK[contract]
        total = limited.bit_count()
        taken = sum(tv.points) // POINTS_PER_CARD[contract]
        in_trick = sum(1 for c in tv.trick if limited >> c & 1)
        count = total - taken - in_trick - (tv.mine & limited).bit_count()
    return sample_world(
        tv.me, tv.mine, tv.pool, tv.counts, rng, tv.voids, must_hold=must, limited=limited,
        limited_count=count,
    )  # fmt: skip


def _position(tv: TrickView, hands: list[int]) -> TrickPosition:
    return TrickPosition(
        tv.contract, tv.trump, hands, tv.trick[:], tv.leader, tv.trick_no, tv.hearts_broken,
        tv.points[:],
    )  # fmt: skip


def medium_trick_card(tv: TrickView) -> int:
    hand = tv.mine
    led = tv.trick[0] // 13 if tv.trick else -1
    earlier = HEARTS_MASK if tv.hearts_broken else 0
    legal = trick_legal_mask(tv.contract, hand, led, earlier)
    out = tv.pool  # an upper bound of the cards still out
    return trick_card(tv.contract, tv.trump, hand, legal, tv.trick, tv.trick_no, out)


def easy_trick_card(tv: TrickView, legal: int) -> int:
    """Lowest card; the highest when void; in Koz the highest."""
    led = tv.trick[0] // 13 if tv.trick else -1
    if tv.contract == KOZ or (led >= 0 and not tv.mine & SUIT_MASK[led]):
        return max(cards_of(legal), key=lambda c: (c % 13, c))
    return min(cards_of(legal), key=lambda c: (c % 13, c))


def hard_trick_card(tv: TrickView, legal: int, rng: random.Random, worlds: int) -> int:
    """The determinized search: each legal card's mean settled score over sampled worlds."""
    trick_mask = sum(1 << c for c in tv.trick)
    penalty = PENALTY_MASK.get(tv.contract, 0)
    candidates = distinct_cards(legal, tv.pool | trick_mask, penalty)
    default = medium_trick_card(tv)
    if len(candidates) == 1:
        return candidates[0]
    totals = dict.fromkeys(candidates, 0.0)
    for _ in range(worlds):
        hands = sample_trick_world(tv, rng)
        pos = _position(tv, hands)
        for card in candidates:
            points = play_out_tricks(pos, first=card)
            totals[card] += settled_score(tv.contract, points, tv.pairs, tv.me)
    # Ties go to the heuristic's card, then to the lower card.
    return max(candidates, key=lambda c: (totals[c], c == default, -c))


def distinct_cards(legal: int, between_cards: int, penalty: int = 0) -> list[int]:
    """The legal cards up to equivalence: of two cards of a suit with none of
    ``between_cards`` (what the others may hold, and the current trick) between them and both
    or neither in ``penalty``, only the lower is tried (they play alike)."""
    out = []
    for suit in range(4):
        cards = cards_of(legal & SUIT_MASK[suit])
        prev = -2
        for card in cards:
            between = ((1 << card) - 1) & ~((1 << (prev + 1)) - 1) if prev >= 0 else 0
            same = prev >= 0 and (penalty >> card & 1) == (penalty >> prev & 1)
            if same and not between & between_cards:
                prev = card
                continue
            out.append(card)
            prev = card
    return out


def _trick_move(view: dict[str, Any], legal: list[str], level: str, rng: random.Random) -> str:
    legal_mask = _mask(legal)
    if level == "easy" and rng.random() < EASY_NOISE:
        return rng.choice(legal)
    tv = trick_view(view)
    if level == "easy":
        card = easy_trick_card(tv, legal_mask)
    elif level == "medium":
        card = medium_trick_card(tv)
    else:
        card = hard_trick_card(tv, legal_mask, rng, HARD.card_worlds)
    return _code(card, legal)


def _code(card: int, legal: list[str]) -> str:
    for move in legal:
        if parse_card(move) == card:
            return move
    return legal[0]


def _durt_move(view: dict[str, Any], legal: list[str], level: str, rng: random.Random) -> str:
    if level == "easy":
        if rng.random() < EASY_NOISE:
            return rng.choice(legal)
        return legal[0]  # the lowest card id
    me = int(view["seat"])
    mine = _mask(view["my_cards"])
    rank = RANK_CHARS.index(view["durt"]["rank"])
    layout = _layout_of(view)
    playable = _mask(legal)
    if level == "medium":
        return _code(durt_card(mine, rank, layout, playable), legal)
    pool = FULL_DECK & ~mine & ~_layout_cards(layout)
    counts = [int(c) for c in view["durt"]["counts"]]
    places = [int(s) for s in view["durt"]["places"]]
    pairs = _pairs_of(view)
    candidates = cards_of(playable)
    totals = dict.fromkeys(candidates, 0.0)
    for _ in range(HARD.card_worlds):
        hands = sample_world(me, mine, pool, counts, rng)
        pos = DurtPosition(rank, hands, layout, me, places)
        for card in candidates:
            gains = play_out_durt(pos, first=card)
            totals[card] += settled_score(DURT, gains, pairs, me)
    default = durt_card(mine, rank, layout, playable)
    return _code(max(candidates, key=lambda c: (totals[c], c == default, -c)), legal)


# ---------------------------------------------------------------------- simulated hands


def simulate_points(
    me: int,
    mine: int,
    contract: int,
    arg: int,
    declarer: int,
    worlds: int,
    rng: random.Random,
) -> list[list[int]]:
    """Each world's points (P or G) per seat for the hand played out from the deal: the
    unseen cards dealt at random to the others, the declarer leading."""
    pool = FULL_DECK & ~mine
    out = []
    for _ in range(worlds):
        hands = sample_world(me, mine, pool, (13, 13, 13, 13), rng)
        out.append(play_out_deal(hands, contract, arg, declarer))
    return out


def play_out_deal(hands: list[int], contract: int, arg: int, declarer: int) -> list[int]:
    """The points of a whole hand from its deal, every seat on the medium heuristics."""
    if contract == DURT:
        return play_out_durt(DurtPosition(arg, hands, CLOSED, declarer))
    trump = arg if contract == KOZ else -1
    return play_out_tricks(TrickPosition(contract, trump, hands, leader=declarer))


# ---------------------------------------------------------------------- contracts


def _contract_key(move: str) -> tuple[int, int]:
    if move.startswith("koz:"):
        return KOZ, SUIT_CHARS.index(move[4:])
    if move.startswith("durt:"):
        return DURT, RANK_CHARS.index(move[5:])
    return CONTRACT_CODES.index(move.removesuffix(":boz")), -1


def koz_count(mine: int, suit: int) -> float:
    """A quick trump-suit count: length, and the high cards in it."""
    held = [c % 13 for c in cards_of(mine & SUIT_MASK[suit])]
    return 2.0 * len(held) + sum(max(0, r - 8) for r in held) * 0.5


def durt_count(mine: int, rank: int) -> float:
    """A quick Dürt-rank count: cards far from the rank are played late; holding the rank
    cards opens suits on this seat's terms."""
    score = 0.0
    for card in cards_of(mine):
        score -= abs(card % 13 - rank)
        if card % 13 == rank:
            score += 4.0
    return score


def _contract_move(view: dict[str, Any], legal: list[str], level: str, rng: random.Random) -> str:
    me = int(view["seat"])
    mine = _mask(view["my_cards"])
    if level == "easy":
        return easy_contract(legal, mine, rng)
    effort = EFFORT[level]
    options = shortlist(legal, mine, effort)
    if len(options) == 1:
        return options[0]
    values = {}
    for move in options:
        contract, arg = _contract_key(move)
        if move == "rifki:boz":
            continue
        worlds = simulate_points(me, mine, contract, arg, me, effort.contract_worlds, rng)
        sign = -1 if contract in PENALTIES else 1
        mean = sum(sign * w[me] for w in worlds) / len(worlds)
        values[move] = mean - LATER_VALUE[CONTRACT_CODES[contract]]
    if "rifki:boz" in options:
        # A redeal keeps the declarer on Rıfkı with a fresh hand (§2.7.3): an average one.
        values["rifki:boz"] = -effort.call_margin
    return max(options, key=lambda m: (values.get(m, float("-inf")), -options.index(m)))


def shortlist(legal: Sequence[str], mine: int, effort: Effort) -> list[str]:
    """The options worth simulating: every penalty, the best Koz suits and Dürt ranks by the
    quick counts."""
    plain = [m for m in legal if not m.startswith(("koz:", "durt:"))]
    koz = sorted(
        (m for m in legal if m.startswith("koz:")),
        key=lambda m: -koz_count(mine, SUIT_CHARS.index(m[4:])),
    )[: effort.koz_suits]
    durt = sorted(
        (m for m in legal if m.startswith("durt:")),
        key=lambda m: -durt_count(mine, RANK_CHARS.index(m[5:])),
    )[: effort.durt_ranks]
    return plain + koz + durt


def easy_contract(legal: Sequence[str], mine: int, rng: random.Random) -> str:
    """A penalty at random, or Koz in the longest suit / Dürt on the most-held rank when the
    hand looks strong for it, with noise."""
    koz = [m for m in legal if m.startswith("koz:")]
    durt = [m for m in legal if m.startswith("durt:")]
    plain = [m for m in legal if not m.startswith(("koz:", "durt:")) and m != "rifki:boz"]
    if koz:
        best = max(koz, key=lambda m: koz_count(mine, SUIT_CHARS.index(m[4:])))
        if koz_count(mine, SUIT_CHARS.index(best[4:])) + rng.uniform(-3, 3) > 12 or not (
            plain or durt
        ):
            return best
    if durt:
        best = max(durt, key=lambda m: durt_count(mine, RANK_CHARS.index(m[5:])))
        if rng.random() < 0.3 or not plain:
            return best
    if plain:
        return rng.choice(plain)
    return rng.choice(list(legal))


# ---------------------------------------------------------------------- calls


def _call_move(view: dict[str, Any], legal: list[str], level: str, rng: random.Random) -> str:
    if level == "easy":
        return easy_call(view, legal, rng)
    effort = EFFORT[level]
    me = int(view["seat"])
    mine = _mask(view["my_cards"])
    contract, arg = contract_of(view)
    declarer = int(view["declarer"])
    worlds = simulate_points(me, mine, contract, arg, declarer, effort.call_worlds, rng)
    values = call_values(view, legal, worlds, contract)
    if "boz" in legal:
        values["boz"] = RIFKI_AVERAGE
    best = max(legal, key=lambda m: (values[m], m == "iyi"))
    if best != "iyi" and values[best] < values["iyi"] + effort.call_margin:
        return "iyi"
    return best


def call_values(
    view: dict[str, Any], legal: Sequence[str], worlds: Sequence[Sequence[int]], contract: int
) -> dict[str, float]:
    """This seat's mean settled score over ``worlds`` for each legal call (``boz`` aside).

    The seats still to speak in round 1 are taken to say ``iyi``; in round 2 every seat
    konturred one way answers with a sür exactly when it does better than its konturer on
    average over the worlds (this seat's own answer being the call under test)."""
    me = int(view["seat"])
    declarer = int(view["declarer"])
    chal = view.get("challenge") or {}
    base_kontur = _kontur_of(view)
    base_sur = _sur_of(view)
    penalty = contract in PENALTIES
    spoken = {(c["round"], c["seat"]) for c in chal.get("calls", [])}
    round_now = int(chal.get("round") or 1)
    n = len(worlds)

    def better(a: int, b: int) -> float:
        """How much a beats b on average (points compared the contract's way)."""
        diff = sum(w[b] - w[a] if penalty else w[a] - w[b] for w in worlds)
        return diff / n

    values: dict[str, float] = {}
    for call in legal:
        if call == "boz":
            continue
        kontur = base_kontur[:]
        sur = set(base_sur)
        targets = _targets(call, me, declarer)
        if round_now == 1:
            kontur[me] |= targets
            for a in range(4):
                for b in range(a + 1, 4):
                    if kontur[a] >> b & 1 and kontur[b] >> a & 1:
                        sur.add((a, b))
        else:
            for t in range(4):
                if targets >> t & 1:
                    sur.add((min(me, t), max(me, t)))
        # Round 2 as modelled: the konturred seats still to answer sür when they do better.
        for a in range(4):
            for b in range(4):
                if a == b or not kontur[a] >> b & 1 or kontur[b] >> a & 1:
                    continue
                pair = (min(a, b), max(a, b))
                if pair in sur or (b == me and round_now == 2):
                    continue
                if (2, b) in spoken:
                    continue
                if better(b, a) > 0:
                    sur.add(pair)
        pairs: dict[tuple[int, int], int] = {}
        for a in range(4):
            for b in range(a + 1, 4):
                if (a, b) in sur:
                    pairs[(a, b)] = 2
                elif kontur[a] >> b & 1 or kontur[b] >> a & 1:
                    pairs[(a, b)] = 1
        total = sum(settled_score(contract, w, pairs, me) for w in worlds)
        values[call] = total / n
    return values


def easy_call(view: dict[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """``iyi`` mostly; now and then a kontur on the declarer, or a sür back."""
    if "boz" in legal and rng.random() < 0.5:
        return "boz"
    declarer = int(view["declarer"])
    if view.get("phase") == "kontur":
        target = f"kontur:{declarer}"
        if target in legal and rng.random() < EASY_KONTUR:
            return target
        return "iyi"
    sur = [m for m in legal if m.startswith("sur:")]
    if sur and rng.random() < EASY_SUR:
        return rng.choice(sur)
    return "iyi"


__all__ = [
    "EFFORT",
    "HARD",
    "LATER_VALUE",
    "LEVELS",
    "MEDIUM",
    "Effort",
    "TrickView",
    "call_values",
    "decide",
    "distinct_cards",
    "durt_count",
    "easy_call",
    "easy_contract",
    "hard_trick_card",
    "koz_count",
    "medium_trick_card",
    "play_out_deal",
    "shortlist",
    "simulate_points",
    "trick_view",
]
