"""The ``traditional`` ruleset (seed 001, RULES-traditional.md): its hand rules, quotas and
the steps it adds to a match.

* Hand rules (§2): Kupa's highest-heart lead, the ace rule of Erkek and Kız, Rıfkı's K♥-then-
  heart discard, Koz's trump-lead limit (A-K-Q or only trumps), must-overtake on a trump lead and
  a free ruff. Each is a ``HandRules`` subclass with ``simple = False`` and ``follow_masks``
  cleared for the suits where following is narrowed, so fast paths ask ``legal``.
* Quotas (§1.8): 3 penalty and 2 Koz picks per seat, each penalty at most twice, the first four
  hands penalties (option), penalties only after a Rıfkı/Kupa redeal; each refusal has its code.
* Match steps (§1.5, §3, §4): the first declarer is the holder of a card in deal 0, the Rıfkı
  redeal round, the Kupa request, the Kız replay, the King announcement and the King feat.
  ``MatchState`` calls the ``on_*`` hooks below; they keep the facts (deals, redeals, answers,
  the end) on the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from .cards import HEARTS_MASK, KING_OF_HEARTS, QUEENS_MASK, SUIT_MASK, card_of
from .contracts import (
    BOYS,
    CONTRACTS,
    HEARTS,
    KING_OF_HEARTS_CONTRACT,
    NO_TRUMP,
    PENALTY_CONTRACTS,
    QUEENS,
    TRUMP,
    ContractSpec,
)
from .errors import (
    RULE_FOLLOW_SUIT,
    RULE_HEARTS_NOT_BROKEN,
    RULE_MUST_OVERTRUMP,
    RULE_PENALTY_DISCARD,
    RULE_TRUMP_NOT_BROKEN,
    IllegalMove,
)
from .rulesets import HandRules, OptionSpec, Ruleset, _bits_above

if TYPE_CHECKING:
    from .match import MatchState

PENALTY_PICKS: Final = 3
KOZ_PICKS: Final = 2
CAP_PER_PENALTY: Final = 2
FIRST_PENALTY_HANDS: Final = 4
KING_TOTAL: Final = 11  # tricks of one Koz hand, gaps allowed
KING_RUN: Final = 10  # tricks in a row
ACE: Final = 12

REASON_RIFKI: Final = "rifki_single_heart"
REASON_KUPA: Final = "kupa_all_hearts"
REASON_KIZ: Final = "kiz_one_each"
_LONE_RIFKI_HEARTS: Final = (1 << KING_OF_HEARTS, 1 << card_of(2, ACE))  # KH, AH


class KupaRules(HandRules):
    """Kupa Almaz: no heart lead before hearts are broken, and a leader with only hearts then
    leads the highest; a void player discards freely (2.3)."""

    __slots__ = ()

    def __init__(self, spec: ContractSpec) -> None:
        super().__init__(spec, NO_TRUMP, early_end=True)
        self.discard_mask = 0
        self.simple = False

    def legal(self, hand: int, led: int, trick: int, earlier: int, trick_no: int) -> int:
        if led < 0:
            if earlier & HEARTS_MASK:
                return hand
            rest = hand & ~HEARTS_MASK
            return rest or 1 << (hand.bit_length() - 1)  # only hearts: the highest
        return hand & SUIT_MASK[led] or hand


class AceRules(HandRules):
    """Erkek and Kız: once the ace of the led suit is in the trick, a later follower holding a
    boy (queen) of that suit must play one; a void player must shed a boy (queen) (2.4)."""

    __slots__ = ()

    def __init__(self, spec: ContractSpec) -> None:
        super().__init__(spec, NO_TRUMP, early_end=True)
        # The ace rule narrows following in every suit.
        self.follow_masks = (0, 0, 0, 0)
        self.simple = False

    def legal(self, hand: int, led: int, trick: int, earlier: int, trick_no: int) -> int:
        if led < 0:
            return hand
        follow = hand & SUIT_MASK[led]
        if follow:
            if trick >> card_of(led, ACE) & 1:
                return follow & self.card_mask or follow
            return follow
        return hand & self.card_mask or hand


class RifkiRules(HandRules):
    """Rıfkı: no heart lead before hearts are broken unless holding only hearts (then any);
    a void player plays K♥ if held, else a heart if held, else anything (2.5)."""

    __slots__ = ()

    def __init__(self, spec: ContractSpec) -> None:
        super().__init__(spec, NO_TRUMP, early_end=True)
        self.simple = False

    def legal(self, hand: int, led: int, trick: int, earlier: int, trick_no: int) -> int:
        if led < 0:
            if earlier & HEARTS_MASK:
                return hand
            return hand & ~HEARTS_MASK or hand
        follow = hand & SUIT_MASK[led]
        if follow:
            return follow
        return hand & (1 << KING_OF_HEARTS) or hand & HEARTS_MASK or hand


class KozRules(HandRules):
    """Koz: no trump lead before trump is broken unless holding its A, K and Q or only trumps;
    on a trump lead, beat the highest trump if able; void: free, no duty to ruff (2.6–2.8)."""

    __slots__ = ("honours",)

    def __init__(self, spec: ContractSpec, trump: int) -> None:
        super().__init__(spec, trump, early_end=False)
        self.discard_mask = 0
        self.follow_masks = tuple(0 if s == trump else SUIT_MASK[s] for s in range(4))
        self.free_lead = False
        self.simple = False
        self.honours = sum(1 << card_of(trump, rank) for rank in (10, 11, 12))  # Q, K, A

    def legal(self, hand: int, led: int, trick: int, earlier: int, trick_no: int) -> int:
        tmask = self.trump_mask
        if led < 0:
            if earlier & tmask or hand & self.honours == self.honours:
                return hand
            return hand & ~tmask or hand
        if led == self.trump:
            trumps = hand & tmask
            if trumps:
                return _bits_above(trumps, (trick & tmask).bit_length() - 1) or trumps
            return hand
        return hand & SUIT_MASK[led] or hand


def _illegal_reason(rules: HandRules, card: int, hand: int, led: int) -> str:
    if led < 0:
        return RULE_TRUMP_NOT_BROKEN if rules.contract == TRUMP else RULE_HEARTS_NOT_BROKEN
    if rules.contract == TRUMP and led == rules.trump and hand & rules.trump_mask:
        return RULE_MUST_OVERTRUMP if (1 << card) & rules.trump_mask else RULE_FOLLOW_SUIT
    if hand & SUIT_MASK[led]:
        return RULE_FOLLOW_SUIT
    return RULE_PENALTY_DISCARD


for _cls in (KupaRules, AceRules, RifkiRules, KozRules):

    def _reason(
        self: HandRules, card: int, hand: int, led: int, trick: int, earlier: int, trick_no: int
    ) -> str | None:
        if (1 << card) & self.legal(hand, led, trick, earlier, trick_no):
            return None
        return _illegal_reason(self, card, hand, led)

    _cls.illegal_reason = _reason  # type: ignore[method-assign]


class TraditionalRuleset(Ruleset):
    name = "traditional"
    id = 2
    description = (
        "Seed 001 (King Oyunu): 20 hands; the holder of ♦2 declares first, then the next seat; "
        "3 penalties and 2 Koz per player, each penalty at most twice; ace rules in Erkek and "
        "Kız; redeal requests; the King feat ends the match; çıkar / batar."
    )
    lengths = (20,)
    early_end = True
    first_declarer_rule = "holder of the option first_declarer_card in deal 0"
    phases = ("contract", "redeal_offer", "announce", "play", "over")
    option_specs = (
        OptionSpec("first_declarer_card", ("2D", "7D"), "2D", "whose holder declares hand 0"),
        OptionSpec("first_four_penalties", (True, False), True, "hands 0-3 are penalties"),
        OptionSpec(
            "king_feat", ("plain", "announced"), "plain", "announced: only an announced King"
        ),
        OptionSpec("max_redeals_per_hand", (0, 1, 2, 3), 3, "redeals and replays per hand"),
    )
    match_end = "after 20 scored hands, or at once on the King feat (or its announced failure)"
    outcome_labels = ("cikar", "batar")
    phased = True

    def _make_hand_rules(self, contract: int, trump: int) -> HandRules:
        spec = CONTRACTS[contract]
        if contract == HEARTS:
            return KupaRules(spec)
        if contract in (BOYS, QUEENS):
            return AceRules(spec)
        if contract == KING_OF_HEARTS_CONTRACT:
            return RifkiRules(spec)
        if contract == TRUMP:
            return KozRules(spec, trump)
        return HandRules(spec, trump, early_end=False)  # El Almaz, Son İki: free, never early

    # ---------------------------------------------------------------- quotas (§1.8)

    def unavailable_reason(
        self, num_hands: int, declarer: int, usage: Any, contract: int, trump: int
    ) -> str | None:
        # The part that needs no match facts; ``refusal_for`` adds the rest.
        if contract == TRUMP:
            return None if usage.trump_picks[declarer] < KOZ_PICKS else "no_koz_picks_left"
        if usage.penalty_picks[declarer] >= PENALTY_PICKS:
            return "no_penalty_picks_left"
        if usage.contract_counts[contract] >= CAP_PER_PENALTY:
            return "contract_cap_reached"
        return None

    def refusal_for(self, state: MatchState, contract: int, trump: int) -> IllegalMove | None:
        # Each refusal has its own code (§1.8, §3.8).
        usage, seat = state.usage, state.turn
        if contract == TRUMP:
            if state.penalty_only:
                return IllegalMove("penalty_required_after_redeal", "a redealt hand is a penalty")
            if state.options["first_four_penalties"] and state.hand_index < FIRST_PENALTY_HANDS:
                return IllegalMove("koz_not_yet", "the first four hands are penalty contracts")
            if usage.trump_picks[seat] >= KOZ_PICKS:
                return IllegalMove("no_koz_picks_left", "both Koz picks are used")
            return None
        if usage.penalty_picks[seat] >= PENALTY_PICKS:
            return IllegalMove("no_penalty_picks_left", "all three penalty picks are used")
        if usage.contract_counts[contract] >= CAP_PER_PENALTY:
            return IllegalMove("contract_cap_reached", "this penalty was played twice already")
        return None

    def allowed_for(self, state: MatchState) -> list[tuple[int, int]]:
        seat, usage = state.turn, state.usage
        allowed: list[tuple[int, int]] = []
        if usage.penalty_picks[seat] < PENALTY_PICKS:
            counts = usage.contract_counts
            allowed = [(c, NO_TRUMP) for c in PENALTY_CONTRACTS if counts[c] < CAP_PER_PENALTY]
        if (
            usage.trump_picks[seat] < KOZ_PICKS
            and not state.penalty_only
            and not (state.options["first_four_penalties"] and state.hand_index < 4)
        ):
            allowed.extend((TRUMP, suit) for suit in range(4))
        return allowed

    def describe_quotas(self, num_hands: int) -> dict[str, object]:
        return {
            "per_player": {"picks": 5, "penalties": PENALTY_PICKS, "trump": KOZ_PICKS},
            "cap_per_penalty_contract": CAP_PER_PENALTY,
            "first_hands_penalties": FIRST_PENALTY_HANDS,
        }

    # ---------------------------------------------------------------- match steps

    def on_match_start(self, state: MatchState) -> None:
        """§1.5: the holder of the option's card in deal 0 declares hand 0 (fixed for good)."""
        card = _CARD_IDS[state.options["first_declarer_card"]]
        state.first = next(s for s in range(4) if state.hands[s] >> card & 1)
        state.turn = state.first

    def on_contract_chosen(self, state: MatchState, forced: bool) -> None:
        """§3.1 T1–T5: after the choice, the redeal round, the announcement, or play."""
        state.forced = forced
        state.answers = []
        d = state.declarer
        if state.contract == KING_OF_HEARTS_CONTRACT and state.redeals < self.cap(state):
            order = [(d + 1) & 3, (d + 2) & 3, (d + 3) & 3]
            if forced:
                order.append(d)
            state.asked = tuple(order)
            state.phase = PHASE_REDEAL_OFFER
            state.turn = order[0]
        elif state.contract == TRUMP and state.options["king_feat"] == "announced":
            state.asked = (d, (d + 1) & 3, (d + 2) & 3, (d + 3) & 3)
            state.phase = PHASE_ANNOUNCE
            state.turn = d
        else:
            state.asked = ()

    def cap(self, state: MatchState) -> int:
        cap: int = state.options["max_redeals_per_hand"]
        return cap

    def may_redeal(self, state: MatchState, seat: int) -> bool:
        """Whether ``seat`` may ask for a redeal now (§3.2.1, §3.3.1)."""
        if state.turn != seat or state.redeals >= self.cap(state):
            return False
        hand = state.hands[seat]
        if state.phase == PHASE_REDEAL_OFFER:
            if seat == state.declarer and not state.forced:
                return False
            return hand & HEARTS_MASK in _LONE_RIFKI_HEARTS
        if state.phase == PHASE_PLAY_:
            return (
                state.contract == HEARTS
                and state.forced
                and not state.plays
                and seat == state.declarer
                and hand == HEARTS_MASK
            )
        return False

    def legal_calls(self, state: MatchState) -> list[str]:
        phase, seat = state.phase, state.turn
        if phase == PHASE_REDEAL_OFFER:
            return ["redeal", "keep"] if self.may_redeal(state, seat) else ["keep"]
        if phase == PHASE_ANNOUNCE:
            return ["pass"] if seat in state.forfeits else ["king", "pass"]  # §4.5
        if phase == PHASE_PLAY_ and self.may_redeal(state, seat):
            return ["redeal"]
        return []

    def on_call(self, state: MatchState, word: str, events: list[dict[str, Any]] | None) -> None:
        """Apply a trusted call of the mover (``redeal``, ``keep``, ``king``, ``pass``)."""
        seat = state.turn
        if events is not None:
            events.append({"type": "call", "hand": state.hand_index, "seat": seat, "call": word})
        if word == "redeal":
            from . import phased  # (it imports match.py, which loads this module first)

            reason = REASON_RIFKI if state.phase == PHASE_REDEAL_OFFER else REASON_KUPA
            phased.redeal(state, seat, reason, events)
            return
        state.answers.append(word)
        if word == "king":
            state.announcer = seat
        if word == "king" or len(state.answers) == len(state.asked):
            state.phase = PHASE_PLAY_
            state.turn = state.declarer
        else:
            state.turn = state.asked[len(state.answers)]

    def on_trick(self, state: MatchState, winner: int) -> str | None:
        """§4: after a trick of a Koz hand, ``"king"`` or ``"king_failed"`` if the match ends."""
        runs = state.runs
        for seat in range(4):
            runs[seat] = runs[seat] + 1 if seat == winner else 0
        if state.contract != TRUMP:
            return None
        if state.options["king_feat"] == "plain":
            if (
                state.tricks_taken[winner] >= KING_TOTAL or runs[winner] >= KING_RUN
            ) and winner not in state.forfeits:  # §4.5: a forfeited seat's tricks never count
                state.king_seat = winner
                return "king"
            return None
        a = state.announcer
        if a < 0:
            return None
        if a in state.forfeits:
            # §4.5 with §4.6.4: a forfeited announcer can no longer make King, so the first
            # trick completed after the forfeit ends the match as its failure.
            state.king_seat = a
            return "king_failed"
        won, run, left = state.tricks_taken[a], runs[a], 13 - state.trick_no
        if won >= KING_TOTAL or run >= KING_RUN:
            state.king_seat = a
            return "king"
        if won + left < KING_TOTAL and run + left < KING_RUN:
            state.king_seat = a
            return "king_failed"
        return None

    def replays(self, state: MatchState) -> bool:
        """§3.4: a Kız hand with one queen each is replayed while the cap allows."""
        return (
            state.contract == QUEENS
            and state.redeals < self.cap(state)
            and all((taken & QUEENS_MASK).bit_count() == 1 for taken in state.taken)
        )


# Phase numbers (match.py has the names; repeated here to avoid a circular import).
PHASE_PLAY_: Final = 1
PHASE_REDEAL_OFFER: Final = 3
PHASE_ANNOUNCE: Final = 4
_CARD_IDS: Final = {"2D": card_of(1, 0), "7D": card_of(1, 5)}
