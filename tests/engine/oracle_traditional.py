"""An independent, deliberately plain model of the `traditional` ruleset (RULES-traditional.md).

Written from the specification alone, apart from the engine: it shares no rule code with
``king_engine`` and only borrows the KINGDEAL deal function to know which cards a deal number
gives each seat. Cards are text codes ("KH"), hands are sets of codes, moves are the text
notation of the spec's §3.8 ("QH", "queens", "trump:S", "redeal", "keep", "king", "pass").

``legal_cards`` is the card rule of §2, ``choice_set`` the declarer's choice of §1.8, and
``OracleMatch`` a whole match: rotation, picks and caps, the redeal and replay state machine of
§3, the King feat of §4 and the result of §5. Its attributes are plain and public, so a test may
set up a hand-made position (picks, caps, hand number) before the next move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

RANKS = "23456789TJQKA"
SUITS = "CDHS"
PENALTIES = ("tricks", "hearts", "queens", "boys", "last_two", "king_of_hearts")
KOZ = tuple(f"trump:{s}" for s in SUITS)
CONTRACT_TOTALS = {
    "tricks": -650, "hearts": -390, "boys": -480, "queens": -400,
    "last_two": -360, "king_of_hearts": -320, "trump": 650,
}  # fmt: skip
DEFAULT_OPTIONS: dict[str, Any] = {
    "first_declarer_card": "2D",
    "first_four_penalties": True,
    "king_feat": "plain",
    "max_redeals_per_hand": 3,
}
HANDS_PER_MATCH = 20

Deals = Callable[[int], Sequence[Iterable[str]]]


def suit(card: str) -> str:
    return card[1]


def rank(card: str) -> int:
    return RANKS.index(card[0])


def trump_of(contract: str) -> str | None:
    return contract[6] if contract.startswith("trump:") else None


def is_boy(card: str) -> bool:
    return card[0] in "KJ"


def is_queen(card: str) -> bool:
    return card[0] == "Q"


# ---------------------------------------------------------------------------------------------
# §2: the cards one may play


def legal_cards(
    contract: str, hand: Iterable[str], trick: Sequence[str], earlier: Iterable[str]
) -> set[str]:
    """The cards the mover holding ``hand`` may play; ``trick`` is the current trick in play
    order (empty when leading), ``earlier`` the cards of the completed tricks of this hand."""
    hand = set(hand)
    earlier = set(earlier)
    trump = trump_of(contract)
    if not trick:
        return _lead(contract, trump, hand, earlier)
    led = suit(trick[0])
    following = {c for c in hand if suit(c) == led}
    if following:
        ace_in = "A" + led in trick
        if contract == "boys" and ace_in:
            boys = {c for c in following if is_boy(c)}
            return boys or following
        if contract == "queens" and ace_in and "Q" + led in hand:
            return {"Q" + led}
        if trump is not None and led == trump:
            top = max(rank(c) for c in trick if suit(c) == trump)
            higher = {c for c in following if rank(c) > top}
            return higher or following
        return following
    # Void in the led suit: the contract's discard rule.
    if contract == "boys":
        return {c for c in hand if is_boy(c)} or hand
    if contract == "queens":
        return {c for c in hand if is_queen(c)} or hand
    if contract == "king_of_hearts":
        if "KH" in hand:
            return {"KH"}
        return {c for c in hand if suit(c) == "H"} or hand
    return hand  # tricks, hearts, last_two and Koz: a free discard (or ruff)


def _lead(contract: str, trump: str | None, hand: set[str], earlier: set[str]) -> set[str]:
    if contract in ("hearts", "king_of_hearts"):
        if any(suit(c) == "H" for c in earlier):
            return hand
        others = {c for c in hand if suit(c) != "H"}
        if others:
            return others
        if contract == "hearts":  # only hearts: the highest one (2.3.1)
            return {max(hand, key=rank)}
        return hand  # Rıfkı: any heart (2.5.1)
    if trump is not None:
        broken = any(suit(c) == trump for c in earlier)
        top_three = {"A" + trump, "K" + trump, "Q" + trump} <= hand
        others = {c for c in hand if suit(c) != trump}
        if broken or top_three or not others:
            return hand
        return others
    return hand


def trick_winner(contract: str, trick: Sequence[str]) -> int:
    """Index (0..3) in ``trick`` of the card that takes it."""
    trump = trump_of(contract)
    ruffed = trump is not None and any(suit(c) == trump for c in trick)
    wanted = trump if ruffed else suit(trick[0])
    return max((i for i, c in enumerate(trick) if suit(c) == wanted), key=lambda i: rank(trick[i]))


def trick_points(contract: str, trick: Sequence[str], trick_number: int) -> int:
    """What the taker of one trick scores (§2.2)."""
    if contract == "tricks":
        return -50
    if contract == "hearts":
        return -30 * sum(suit(c) == "H" for c in trick)
    if contract == "boys":
        return -60 * sum(is_boy(c) for c in trick)
    if contract == "queens":
        return -100 * sum(is_queen(c) for c in trick)
    if contract == "last_two":
        return -180 if trick_number >= 11 else 0
    if contract == "king_of_hearts":
        return -320 if "KH" in trick else 0
    if trump_of(contract) is not None:
        return 50
    raise ValueError(contract)


def hand_points(contract: str, tricks: Sequence[tuple[int, Sequence[str]]]) -> list[int]:
    """Points per seat of a hand given as (taker, cards) per completed trick, in order."""
    points = [0, 0, 0, 0]
    for number, (taker, cards) in enumerate(tricks):
        points[taker] += trick_points(contract, cards, number)
    return points


def penalty_cards(contract: str) -> set[str] | None:
    """The cards whose taking ends the hand early once all are taken (§2.10), else None."""
    deck = {r + s for r in RANKS for s in SUITS}
    if contract == "hearts":
        return {c for c in deck if suit(c) == "H"}
    if contract == "boys":
        return {c for c in deck if is_boy(c)}
    if contract == "queens":
        return {c for c in deck if is_queen(c)}
    if contract == "king_of_hearts":
        return {"KH"}
    return None


def hand_is_over(contract: str, completed_cards: Iterable[str], tricks_done: int) -> bool:
    """Trick 12 is done, or every penalty card of an early-end contract has been taken."""
    if tricks_done == 13:
        return True
    wanted = penalty_cards(contract)
    return wanted is not None and wanted <= set(completed_cards)


# ---------------------------------------------------------------------------------------------
# §1.8: the declarer's choice


def choice_set(
    penalty_picks: int,
    koz_picks: int,
    played: dict[str, int],
    hand_slot: int,
    first_four_penalties: bool,
    redealt_by_request: bool,
) -> set[str]:
    """The contracts the declarer may choose; ``played`` is n(c) per penalty contract and
    ``redealt_by_request`` says this slot was redealt after a Rıfkı or Kupa request."""
    moves: set[str] = set()
    if penalty_picks >= 1:
        moves |= {c for c in PENALTIES if played.get(c, 0) < 2}
    koz_allowed = (
        koz_picks >= 1 and not (first_four_penalties and hand_slot < 4) and not redealt_by_request
    )
    if koz_allowed:
        moves |= set(KOZ)
    return moves


def can_still_make_king(won: int, run: int, tricks_done: int) -> bool:
    """§4.6.4: an announcer with ``won`` tricks and a current run of ``run`` after
    ``tricks_done`` completed tricks can still reach 11 in all or 10 in a row."""
    left = 13 - tricks_done
    return won + left >= 11 or run + left >= 10


def makes_king(won: int, run: int) -> bool:
    return won >= 11 or run >= 10


def king_status(
    won: Sequence[int], run: Sequence[int], tricks_done: int, variant: str, announcer: int | None
) -> tuple[int, bool] | None:
    """After a completed Koz trick: (seat, failed) when the match ends by the King feat (§4.3)
    or by the announced King becoming impossible (§4.6.4), else None."""
    if variant == "plain":
        for seat in range(4):
            if makes_king(won[seat], run[seat]):
                return seat, False
        return None
    if announcer is None:
        return None
    if makes_king(won[announcer], run[announcer]):
        return announcer, False
    if not can_still_make_king(won[announcer], run[announcer], tricks_done):
        return announcer, True
    return None


# ---------------------------------------------------------------------------------------------
# §5: the result


def places_by_total(totals: Sequence[int]) -> list[int]:
    """Places 1..4 by seat, best total first, equal totals sharing the better place."""
    return [1 + sum(other > mine for other in totals) for mine in totals]


def played_out_result(totals: Sequence[int]) -> dict[str, Any]:
    outcome = ["cikar" if t >= 0 else "batar" for t in totals]
    return {
        "end_reason": "played_out",
        "king_seat": None,
        "totals": list(totals),
        "outcome": outcome,
        "winners": [s for s in range(4) if outcome[s] == "cikar"],
        "places": places_by_total(totals),
    }


def king_result(totals: Sequence[int], seat: int, failed: bool) -> dict[str, Any]:
    if failed:
        outcome = ["cikar"] * 4
        outcome[seat] = "batar"
        places = [1] * 4
        places[seat] = 4
    else:
        outcome = ["batar"] * 4
        outcome[seat] = "cikar"
        places = [2] * 4
        places[seat] = 1
    return {
        "end_reason": "king_failed" if failed else "king",
        "king_seat": seat,
        "totals": list(totals),
        "outcome": outcome,
        "winners": [s for s in range(4) if outcome[s] == "cikar"],
        "places": places,
    }


# ---------------------------------------------------------------------------------------------
# The match


def kingdeal(match_key: bytes) -> Deals:
    """Deal number d of a match: the KINGDEAL-v1 hands with index d (FAIRNESS.md)."""
    from king_engine import deal, format_cards

    def hands(number: int) -> list[list[str]]:
        return [format_cards(mask).split() for mask in deal.deal_hand(match_key, number)]

    return hands


@dataclass
class DealRecord:
    deal: int
    hand: int
    contract: str | None = None
    ended: str | None = None  # played, redealt, replayed; None while in progress
    asked_by: int | None = None
    reason: str | None = None
    takers: list[int] = field(default_factory=list)  # who took each completed trick


@dataclass
class SheetRow:
    hand: int
    deal: int
    declarer: int
    contract: str
    points: list[int]
    partial: bool = False


@dataclass
class OracleMatch:
    """A whole `traditional` match. Either ``match_key`` (KINGDEAL deals) or ``deals``."""

    match_key: bytes | None = None
    options: dict[str, Any] = field(default_factory=dict)
    deals: Deals | None = None

    def __post_init__(self) -> None:
        self.options = {**DEFAULT_OPTIONS, **self.options}
        if self.deals is None:
            assert self.match_key is not None, "give a match key or a deals function"
            self.deals = kingdeal(self.match_key)
        self.cap: int = self.options["max_redeals_per_hand"]
        self.penalty_picks = [3, 3, 3, 3]
        self.koz_picks = [2, 2, 2, 2]
        self.played: dict[str, int] = dict.fromkeys(PENALTIES, 0)
        self.sheet: list[SheetRow] = []
        self.deal_log: list[DealRecord] = []
        self.totals = [0, 0, 0, 0]
        self.result: dict[str, Any] | None = None
        self.hand = 0
        self.redeals = 0  # redeals(h) of the current slot
        self.redealt_by_request = False
        self.next_deal = 0
        self._new_deal()
        card = self.options["first_declarer_card"]
        self.first_declarer = next(s for s in range(4) if card in self.holdings[s])
        self._start_choice()

    # -- deals and hands --------------------------------------------------------------------

    def _new_deal(self) -> None:
        assert self.deals is not None
        hands = [set(h) for h in self.deals(self.next_deal)]
        assert sorted(c for h in hands for c in h) == sorted(r + s for r in RANKS for s in SUITS)
        self.holdings = hands
        self.deal_number = self.next_deal
        self.next_deal += 1
        self.deal_log.append(DealRecord(self.deal_number, self.hand))
        self.trick: list[tuple[int, str]] = []
        self.completed: list[tuple[int, list[str]]] = []  # (taker, cards) per trick
        self.won = [0, 0, 0, 0]
        self.run = [0, 0, 0, 0]
        self.contract: str | None = None
        self.forced = False
        self.queue: list[int] = []  # seats still to be asked in redeal_offer / announce
        self.asked: list[int] = []
        self.announcer: int | None = None
        self.to_play: int | None = None

    @property
    def declarer(self) -> int:
        return (self.first_declarer + self.hand) % 4

    def _start_choice(self) -> None:
        self.phase = "contract"

    def earlier_cards(self) -> list[str]:
        return [c for _, cards in self.completed for c in cards]

    # -- what is asked ----------------------------------------------------------------------

    def choices(self) -> set[str]:
        d = self.declarer
        return choice_set(
            self.penalty_picks[d],
            self.koz_picks[d],
            self.played,
            self.hand,
            self.options["first_four_penalties"],
            self.redealt_by_request,
        )

    def current_player(self) -> int | None:
        if self.phase == "over":
            return None
        if self.phase == "contract":
            return self.declarer
        if self.phase in ("redeal_offer", "announce"):
            return self.queue[0]
        return self.to_play

    def rifki_eligible(self, seat: int) -> bool:
        hearts = [c for c in self.holdings[seat] if suit(c) == "H"]
        single = len(hearts) == 1 and hearts[0] in ("KH", "AH")
        return single and (seat != self.declarer or self.forced)

    def kupa_eligible(self) -> bool:
        return (
            self.contract == "hearts"
            and self.forced
            and self.redeals < self.cap
            and not self.completed
            and not self.trick
            and all(suit(c) == "H" for c in self.holdings[self.declarer])
        )

    def legal_moves(self) -> set[str]:
        if self.phase == "over":
            return set()
        if self.phase == "contract":
            return self.choices()
        if self.phase == "redeal_offer":
            return {"redeal", "keep"} if self.rifki_eligible(self.queue[0]) else {"keep"}
        if self.phase == "announce":
            return {"king", "pass"}
        seat = self.to_play
        assert seat is not None and self.contract is not None
        cards = legal_cards(
            self.contract, self.holdings[seat], [c for _, c in self.trick], self.earlier_cards()
        )
        if self.kupa_eligible():
            cards.add("redeal")
        return cards

    # -- moves ------------------------------------------------------------------------------

    def apply(self, move: str) -> None:
        legal = self.legal_moves()
        assert move in legal, f"{move!r} not legal in {self.phase}: {sorted(legal)}"
        if self.phase == "contract":
            self._choose(move, forced=len(legal) == 1)
        elif self.phase == "redeal_offer":
            self._answer_redeal(move)
        elif self.phase == "announce":
            self._answer_announce(move)
        elif move == "redeal":
            self._redeal(self.declarer, "kupa_all_hearts")
        else:
            self._play(move)

    def _choose(self, contract: str, forced: bool) -> None:
        self.contract = contract
        self.forced = forced
        self.deal_log[-1].contract = contract
        d = self.declarer
        if contract == "king_of_hearts" and self.redeals < self.cap:
            self.phase = "redeal_offer"
            self.queue = [(d + 1) % 4, (d + 2) % 4, (d + 3) % 4] + ([d] if forced else [])
            self.asked = list(self.queue)
        elif trump_of(contract) is not None and self.options["king_feat"] == "announced":
            self.phase = "announce"
            self.queue = [d, (d + 1) % 4, (d + 2) % 4, (d + 3) % 4]
            self.asked = list(self.queue)
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.phase = "play"
        self.queue = []
        self.to_play = self.declarer

    def _answer_redeal(self, move: str) -> None:
        seat = self.queue.pop(0)
        if move == "redeal":
            self._redeal(seat, "rifki_single_heart")
        elif not self.queue:
            self._start_play()

    def _answer_announce(self, move: str) -> None:
        seat = self.queue.pop(0)
        if move == "king":
            self.announcer = seat
            self._start_play()
        elif not self.queue:
            self._start_play()

    def _redeal(self, seat: int, reason: str) -> None:
        record = self.deal_log[-1]
        record.ended, record.asked_by, record.reason = "redealt", seat, reason
        self.redeals += 1
        self.redealt_by_request = True
        self._new_deal()
        self._start_choice()

    def _play(self, card: str) -> None:
        seat = self.to_play
        assert seat is not None and self.contract is not None
        self.holdings[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < 4:
            self.to_play = (seat + 1) % 4
            return
        cards = [c for _, c in self.trick]
        taker = self.trick[trick_winner(self.contract, cards)][0]
        self.completed.append((taker, cards))
        self.deal_log[-1].takers.append(taker)
        self.trick = []
        self.to_play = taker
        for s in range(4):
            self.won[s] += s == taker
            self.run[s] = self.run[s] + 1 if s == taker else 0
        if trump_of(self.contract) is not None and self._king_check():
            return
        if hand_is_over(self.contract, self.earlier_cards(), len(self.completed)):
            self._hand_over()

    def _king_check(self) -> bool:
        """§4.2–§4.6 after a completed Koz trick; True when the match has ended."""
        status = king_status(
            self.won, self.run, len(self.completed), self.options["king_feat"], self.announcer
        )
        if status is None:
            return False
        self._end_by_king(*status)
        return True

    def _end_by_king(self, seat: int, failed: bool) -> None:
        assert self.contract is not None
        self._score(partial=True)
        self.koz_picks[self.declarer] -= 1
        self.phase = "over"
        self.to_play = None
        self.result = king_result(self.totals, seat, failed)

    def _score(self, partial: bool) -> None:
        assert self.contract is not None
        points = hand_points(self.contract, self.completed)
        self.sheet.append(
            SheetRow(self.hand, self.deal_number, self.declarer, self.contract, points, partial)
        )
        self.totals = [t + p for t, p in zip(self.totals, points, strict=True)]
        self.deal_log[-1].ended = "played"

    def _hand_over(self) -> None:
        assert self.contract is not None
        if self.contract == "queens" and self.redeals < self.cap:
            taken = [0, 0, 0, 0]
            for taker, cards in self.completed:
                taken[taker] += sum(is_queen(c) for c in cards)
            if taken == [1, 1, 1, 1]:
                record = self.deal_log[-1]
                record.ended, record.reason = "replayed", "kiz_one_each"
                self.redeals += 1
                self._new_deal()
                self.contract = "queens"
                self.deal_log[-1].contract = "queens"
                self._start_play()
                return
        self._score(partial=False)
        d = self.declarer
        if trump_of(self.contract) is not None:
            self.koz_picks[d] -= 1
        else:
            self.penalty_picks[d] -= 1
            self.played[self.contract] += 1
        if self.hand == HANDS_PER_MATCH - 1:
            self.phase = "over"
            self.to_play = None
            self.result = played_out_result(self.totals)
            return
        self.hand += 1
        self.redeals = 0
        self.redealt_by_request = False
        self._new_deal()
        self._start_choice()
