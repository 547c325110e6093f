"""A small, separately written konturlu rules oracle (RULES-konturlu.md), for comparing the
engine with move by move.

Plain code on card codes ("7S") and Python sets, written from the spec's text and not from
the engine: legal contract moves (§2.1), legal calls of both rounds (§3.3, §3.5), legal trick
cards (§2.2–2.4), legal Dürt cards with the server's passes (§4), trick winners, early ends,
the points of §2.5 and the settlement formula of §5.4, and the match around them. It knows
nothing of actions, bitmasks, views or bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

RANKS = "23456789TJQKA"
SUITS = "CDHS"
CONTRACT_ORDER = ["el", "kupa", "erkek", "kiz", "rifki", "rifki:boz", "soniki"]
PENALTY = {"el", "kupa", "erkek", "kiz", "rifki", "soniki"}
HAND_TOTAL = {
    "el": -65,
    "kupa": -39,
    "erkek": -48,
    "kiz": -40,
    "rifki": -30,
    "soniki": -30,
    "koz": 65,
    "durt": 65,
}

Deals = Callable[[int], list[set[str]]]


def card_key(card: str) -> tuple[int, int]:
    """Sort order of card ids: suit C < D < H < S, then rank."""
    return SUITS.index(card[1]), RANKS.index(card[0])


def ordered(cards: set[str] | list[str]) -> list[str]:
    return sorted(cards, key=card_key)


def rank(card: str) -> int:
    return RANKS.index(card[0])


def lone_heart_kh_or_ah(hand: set[str]) -> bool:
    hearts = [c for c in hand if c[1] == "H"]
    return len(hearts) == 1 and hearts[0] in ("KH", "AH")


def settle_scores(contract: str, points: list[int], m: dict[frozenset[int], int]) -> list[int]:
    """§5.4 written out: pair terms, then (penalties) each seat's own points eaten by at most
    one partner that took more: sürülü first, else çakılı; ties to the first after it."""

    def mult(a: int, b: int) -> int:
        return m.get(frozenset((a, b)), 0)

    if contract not in PENALTY:
        return [
            points[i] + sum(mult(i, j) * (points[i] - points[j]) for j in range(4) if j != i)
            for i in range(4)
        ]
    eater: dict[int, int] = {}
    for i in range(4):
        if points[i] == 0:
            continue
        for wanted in (2, 1):
            best = None
            for j in [(i + 1) % 4, (i + 2) % 4, (i + 3) % 4]:
                better = points[j] > points[i] and (best is None or points[j] > points[best])
                if mult(i, j) == wanted and better:
                    best = j
            if best is not None:
                eater[i] = best
                break
    scores = []
    for i in range(4):
        score = -points[i] + sum(mult(i, j) * (points[j] - points[i]) for j in range(4) if j != i)
        if i in eater:
            score += points[i]
        score -= sum(points[j] for j, e in eater.items() if e == i)
        scores.append(score)
    return scores


class OracleMatch:
    """A whole match, advanced by move texts; ``legal()`` gives the mover's moves in the
    spec's order and ``to_move`` the seat (None when over)."""

    def __init__(self, deals: Deals, first: int) -> None:
        self.deals = deals
        self.first = first
        self.hand = 0
        self.deal_number = 0
        self.used: list[set[str]] = [set(), set(), set(), set()]
        self.totals = [122, 122, 122, 122]
        self.rifki_again = False
        self.sheet: list[list[int]] = []
        self.passes = 0
        self.begin_deal()

    # -------------------------------------------------------------- set-up

    @property
    def declarer(self) -> int:
        return (self.first + self.hand) % 4

    def begin_deal(self) -> None:
        self.cards = [set(h) for h in self.deals(self.deal_number)]
        self.stage = "contract"
        self.to_move: int | None = self.declarer
        self.contract = ""
        self.extra = ""
        self.konturs: set[tuple[int, int]] = set()
        self.surs: set[frozenset[int]] = set()
        self.speakers: list[int] = []

    # -------------------------------------------------------------- legal moves

    def legal(self) -> list[str]:
        seat = self.to_move
        if seat is None:
            return []
        hand = self.cards[seat]
        if self.stage == "contract":
            if self.rifki_again:
                return ["rifki", "rifki:boz"] if lone_heart_kh_or_ah(hand) else ["rifki"]
            out = []
            for word in CONTRACT_ORDER:
                base = "rifki" if word == "rifki:boz" else word
                if base in self.used[seat]:
                    continue
                if word == "rifki:boz" and not lone_heart_kh_or_ah(hand):
                    continue
                out.append(word)
            if "koz" not in self.used[seat]:
                out += ["koz:S", "koz:H", "koz:D", "koz:C"]
            if "durt" not in self.used[seat]:
                out += ["durt:" + r for r in RANKS]
            return out
        if self.stage == "round1":
            d = self.declarer
            if self.contract not in PENALTY:
                return ["iyi", f"kontur:{d}"]
            rest = sorted(x for x in range(4) if x != seat)
            free = [x for x in rest if x != d]
            out = ["iyi"] + [f"kontur:{x}" for x in rest]
            out += ["kontur:" + ",".join(map(str, sorted([d, x]))) for x in free]
            out += ["masa", "haric"]
            if self.contract == "rifki" and lone_heart_kh_or_ah(hand):
                out.append("boz")
            return out
        if self.stage == "round2":
            answer = self.can_answer(seat)
            out = ["iyi"]
            for size in range(1, len(answer) + 1):
                for group in combinations(answer, size):
                    out.append("sur:" + ",".join(map(str, group)))
            return out
        if self.stage == "tricks":
            return ordered(self.trick_cards(hand))
        return ordered(self.layout_cards(hand))

    def can_answer(self, seat: int) -> list[int]:
        return sorted(
            a for a in range(4) if (a, seat) in self.konturs and (seat, a) not in self.konturs
        )

    def trick_cards(self, hand: set[str]) -> set[str]:
        hearts = {c for c in hand if c[1] == "H"}
        if not self.on_table:
            if self.contract in ("kupa", "rifki") and not self.hearts_broken:
                if hand - hearts:
                    return hand - hearts
                if self.contract == "kupa":
                    return {max(hearts, key=rank)}
            return set(hand)
        led = self.on_table[0][1][1]
        same = {c for c in hand if c[1] == led}
        if same:
            return same
        if self.contract == "rifki" and hearts:
            return hearts
        return set(hand)

    def layout_cards(self, hand: set[str]) -> set[str]:
        out = set()
        for card in hand:
            suit, r = card[1], rank(card)
            run = self.layout[suit]
            if run is None:
                if r == self.durt_rank:
                    out.add(card)
            elif r in (run[0] - 1, run[1] + 1):
                out.add(card)
        return out

    # -------------------------------------------------------------- moves

    def play(self, text: str) -> None:
        seat = self.to_move
        assert seat is not None and text in self.legal(), (seat, text, self.legal())
        if self.stage == "contract":
            self.name_contract(seat, text)
        elif self.stage == "round1":
            self.kontur_call(seat, text)
        elif self.stage == "round2":
            if text != "iyi":
                for x in text[4:].split(","):
                    self.surs.add(frozenset((seat, int(x))))
            self.speakers.pop(0)
            self.next_round2()
        elif self.stage == "tricks":
            self.trick_card(seat, text)
        else:
            self.layout_card(seat, text)

    def name_contract(self, seat: int, text: str) -> None:
        self.contract, _, self.extra = text.partition(":")
        self.used[seat].add(self.contract)
        if text == "rifki:boz":
            self.contract, self.extra = "rifki", ""
            self.cancel()
            return
        self.stage = "round1"
        self.speakers = [(seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4]
        self.to_move = self.speakers[0]

    def cancel(self) -> None:
        self.deal_number += 1
        self.rifki_again = True
        self.begin_deal()

    def kontur_call(self, seat: int, text: str) -> None:
        d = self.declarer
        if text == "boz":
            self.cancel()
            return
        if text == "masa":
            targets = [x for x in range(4) if x != seat]
        elif text == "haric":
            targets = [x for x in range(4) if x not in (seat, d)]
        elif text == "iyi":
            targets = []
        else:
            targets = [int(x) for x in text[7:].split(",")]
        for x in targets:
            self.konturs.add((seat, x))
        self.speakers.pop(0)
        if self.speakers:
            self.to_move = self.speakers[0]
            return
        for a, b in combinations(range(4), 2):
            if (a, b) in self.konturs and (b, a) in self.konturs:
                self.surs.add(frozenset((a, b)))
        self.stage = "round2"
        self.speakers = [s for s in ((d + k) % 4 for k in range(4)) if self.can_answer(s)]
        self.next_round2()

    def next_round2(self) -> None:
        if self.speakers:
            self.to_move = self.speakers[0]
            return
        self.to_move = self.declarer
        self.taken: list[list[str]] = [[], [], [], []]
        self.points = [0, 0, 0, 0]
        if self.contract == "durt":
            self.stage = "durt"
            self.durt_rank = RANKS.index(self.extra)
            self.layout: dict[str, tuple[int, int] | None] = dict.fromkeys(SUITS)
            self.out: list[int] = []
            self.find_mover(self.declarer)
        else:
            self.stage = "tricks"
            self.on_table: list[tuple[int, str]] = []
            self.hearts_broken = False
            self.tricks_done = 0

    def relation(self) -> dict[frozenset[int], int]:
        m = {}
        for a, b in combinations(range(4), 2):
            pair = frozenset((a, b))
            if pair in self.surs:
                m[pair] = 2
            elif (a, b) in self.konturs or (b, a) in self.konturs:
                m[pair] = 1
        return m

    def trick_card(self, seat: int, card: str) -> None:
        self.cards[seat].remove(card)
        self.on_table.append((seat, card))
        if len(self.on_table) < 4:
            self.to_move = (seat + 1) % 4
            return
        led = self.on_table[0][1][1]
        trump = self.extra if self.contract == "koz" else None
        trumps = [(s, c) for s, c in self.on_table if c[1] == trump]
        pool = trumps or [(s, c) for s, c in self.on_table if c[1] == led]
        winner = max(pool, key=lambda sc: rank(sc[1]))[0]
        cards = [c for _, c in self.on_table]
        self.taken[winner] += cards
        self.tricks_done += 1
        c = self.contract
        if c in ("el", "koz"):
            self.points[winner] += 5
        elif c == "kupa":
            self.points[winner] += 3 * sum(1 for x in cards if x[1] == "H")
        elif c == "erkek":
            self.points[winner] += 6 * sum(1 for x in cards if x[0] in "KJ")
        elif c == "kiz":
            self.points[winner] += 10 * sum(1 for x in cards if x[0] == "Q")
        elif c == "rifki":
            self.points[winner] += 30 if "KH" in cards else 0
        elif c == "soniki" and self.tricks_done >= 12:
            self.points[winner] += 10 if self.tricks_done == 12 else 20
        if any(x[1] == "H" for x in cards):
            self.hearts_broken = True
        self.on_table = []
        self.to_move = winner
        all_taken = [x for pile in self.taken for x in pile]
        finished = {
            "kupa": sum(1 for x in all_taken if x[1] == "H") == 13,
            "erkek": sum(1 for x in all_taken if x[0] in "KJ") == 8,
            "kiz": sum(1 for x in all_taken if x[0] == "Q") == 4,
            "rifki": "KH" in all_taken,
        }.get(c, False)
        if self.tricks_done == 13 or finished:
            self.score(self.points)

    def layout_card(self, seat: int, card: str) -> None:
        self.cards[seat].remove(card)
        run = self.layout[card[1]]
        r = rank(card)
        self.layout[card[1]] = (r, r) if run is None else (min(run[0], r), max(run[1], r))
        if not self.cards[seat]:
            self.out.append(seat)
            if len(self.out) == 3:
                self.out += [s for s in range(4) if s not in self.out]
                gains = [0, 0, 0, 0]
                for place, s in enumerate(self.out):
                    gains[s] = (45, 20, 10, -10)[place]
                self.score(gains)
                return
        self.find_mover((seat + 1) % 4)

    def find_mover(self, seat: int) -> None:
        while not self.cards[seat] or not self.layout_cards(self.cards[seat]):
            if self.cards[seat]:
                self.passes += 1
            seat = (seat + 1) % 4
        self.to_move = seat

    def score(self, points: list[int]) -> None:
        scores = settle_scores(self.contract, points, self.relation())
        assert sum(scores) == HAND_TOTAL[self.contract]
        self.sheet.append(scores)
        for s in range(4):
            self.totals[s] += scores[s]
        self.hand += 1
        self.rifki_again = False
        if self.hand == 32:
            self.to_move = None
            self.stage = "over"
            return
        self.deal_number += 1
        self.begin_deal()
