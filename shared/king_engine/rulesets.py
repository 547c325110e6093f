"""Rulesets: named option sets plus small hooks, looked up by name.

A ruleset decides three things and nothing else:

* which match lengths it allows and who declares each hand;
* which contracts (and trump suits) the declarer may pick right now: its quotas;
* for a chosen contract, the per-hand rules (``HandRules``): lead rules, the follow and discard
  rules, early end. Trick winners and scoring are the same everywhere (the contract's data in
  ``contracts.py``).

``standard`` (RULES.md §1) gives every player a number of penalty and Koz picks scaled to the
match length, with a cap per penalty contract per match. ``classic20`` (§2) plays 20 hands with
per-match quotas (each penalty exactly twice, Koz twice in each suit), stricter Koz rules and no
early end. Later systems (bidding phases, other point tables, a 32-card deck) become new
``Ruleset`` subclasses with new phases; play itself does not change.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from .cards import HEARTS_MASK, SUIT_MASK, SUITS, card_of
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
    RULE_MUST_TRUMP,
    RULE_NO_TRUMP_FIRST_TRICK,
    RULE_PENALTY_DISCARD,
    RULE_TRUMP_NOT_BROKEN,
    BadInput,
    ConfigError,
    IllegalMove,
)

if TYPE_CHECKING:
    from .match import MatchState

# Contracts whose hand may end once all their penalty cards are taken (seed 001).
EARLY_END_CONTRACTS: Final = frozenset({HEARTS, QUEENS, BOYS, KING_OF_HEARTS_CONTRACT})


def _bits_above(mask: int, card: int) -> int:
    """The cards of ``mask`` with a higher id than ``card`` (same suit when mask is one suit)."""
    return mask >> (card + 1) << (card + 1)


class HandRules:
    """The play rules of one hand, once the contract (and trump) is known.

    ``legal(hand, led, trick, earlier, trick_no)``: ``hand`` is the mover's cards, ``led`` the
    led suit (-1 when leading), ``trick`` the mask of cards already in this trick, ``earlier``
    the cards of completed tricks of this hand, ``trick_no`` 0..12.
    """

    __slots__ = (
        "card_mask",
        "contract",
        "discard_mask",
        "early_end_mask",
        "follow_masks",
        "free_lead",
        "last_two",
        "lead_restricted",
        "per_card",
        "per_trick",
        "simple",
        "spec",
        "trump",
        "trump_mask",
    )

    def __init__(self, spec: ContractSpec, trump: int, early_end: bool) -> None:
        self.spec = spec
        self.contract = spec.id
        self.trump = trump
        self.trump_mask = SUIT_MASK[trump] if trump != NO_TRUMP else 0
        # Koz: a void player must trump; penalties: must shed the contract's penalty cards.
        self.discard_mask = self.trump_mask if spec.id == TRUMP else spec.discard_mask
        self.lead_restricted = HEARTS_MASK if spec.restrict_heart_lead else 0
        self.per_trick = spec.per_trick
        self.per_card = spec.per_card
        self.card_mask = spec.card_mask
        self.last_two = spec.last_two
        self.early_end_mask = spec.card_mask if early_end and spec.id in EARLY_END_CONTRACTS else 0
        # follow_masks[s]: when suit s is led, a player holding it may play any card of it.
        # Fast paths use this to skip ``legal`` in the common case; a ruleset that restricts
        # which card of the led suit may be played (overtrumping) clears that suit.
        self.follow_masks = SUIT_MASK
        # free_lead: the leader may lead any card, always (no lead rule in this hand).
        self.free_lead = not self.lead_restricted
        # simple: ``legal`` is exactly the data-driven rule above (follow suit, else shed from
        # discard_mask, lead anything but lead_restricted until broken), so fast paths may
        # compute it inline. Subclasses with extra rules set it to False.
        self.simple = True

    def legal(self, hand: int, led: int, trick: int, earlier: int, trick_no: int) -> int:
        if led < 0:
            restricted = self.lead_restricted
            if restricted and not earlier & restricted:
                rest = hand & ~restricted
                return rest or hand
            return hand
        follow = hand & SUIT_MASK[led]
        if follow:
            return follow
        must = hand & self.discard_mask
        return must or hand

    def illegal_reason(
        self, card: int, hand: int, led: int, trick: int, earlier: int, trick_no: int
    ) -> str | None:
        """None if ``card`` (held in ``hand``) is legal, else the rule it breaks."""
        if (1 << card) & self.legal(hand, led, trick, earlier, trick_no):
            return None
        if led < 0:
            return RULE_HEARTS_NOT_BROKEN
        if hand & SUIT_MASK[led]:
            return RULE_FOLLOW_SUIT
        return RULE_MUST_TRUMP if self.contract == TRUMP else RULE_PENALTY_DISCARD

    def trick_points(self, trick: int, trick_no: int) -> int:
        """What the winner of this trick scores."""
        points = self.per_trick
        if self.per_card:
            points += self.per_card * (trick & self.card_mask).bit_count()
        if self.last_two and trick_no >= 11:
            points += self.last_two
        return points


class Classic20TrumpRules(HandRules):
    """Koz in ``classic20`` (seed 002): no trump in the first trick, no trump lead before a
    trump has fallen (unless holding A-K-Q of trump), must trump when void, must overtrump.

    Where two rules meet (a void player in the first trick), "no trump in the first trick" wins:
    it is the narrower rule, and the seed states it without exception but "only trumps left".
    """

    __slots__ = ("honours",)

    def __init__(self, spec: ContractSpec, trump: int) -> None:
        super().__init__(spec, trump, early_end=False)
        self.follow_masks = tuple(0 if s == trump else SUIT_MASK[s] for s in SUITS)
        self.free_lead = False
        self.simple = False
        self.honours = sum(1 << card_of(trump, rank) for rank in (10, 11, 12))  # Q, K, A

    def legal(self, hand: int, led: int, trick: int, earlier: int, trick_no: int) -> int:
        tmask = self.trump_mask
        trumps = hand & tmask
        if led < 0:
            if trumps == hand:
                return hand
            if trick_no == 0:
                return hand & ~tmask
            if not earlier & tmask and hand & self.honours != self.honours:
                return hand & ~tmask
            return hand
        if led == self.trump:
            if trumps:
                higher = _bits_above(trumps, (trick & tmask).bit_length() - 1)
                return higher or trumps
            return hand
        follow = hand & SUIT_MASK[led]
        if follow:
            return follow
        if not trumps:
            return hand
        if trick_no == 0 and trumps != hand:
            return hand & ~tmask
        in_trick = trick & tmask
        if in_trick:
            higher = _bits_above(trumps, in_trick.bit_length() - 1)
            if higher:
                return higher
        return trumps

    def illegal_reason(
        self, card: int, hand: int, led: int, trick: int, earlier: int, trick_no: int
    ) -> str | None:
        if (1 << card) & self.legal(hand, led, trick, earlier, trick_no):
            return None
        is_trump = bool((1 << card) & self.trump_mask)
        if led < 0:
            return RULE_NO_TRUMP_FIRST_TRICK if trick_no == 0 else RULE_TRUMP_NOT_BROKEN
        if led != self.trump and hand & SUIT_MASK[led]:
            return RULE_FOLLOW_SUIT
        if led == self.trump:
            return RULE_MUST_OVERTRUMP if is_trump else RULE_FOLLOW_SUIT
        if trick_no == 0 and is_trump:
            return RULE_NO_TRUMP_FIRST_TRICK
        return RULE_MUST_OVERTRUMP if is_trump else RULE_MUST_TRUMP


@dataclass(slots=True)
class Usage:
    """What has been picked so far in a match, kept up to date by ``MatchState``."""

    contract_counts: list[int] = field(default_factory=lambda: [0] * len(CONTRACTS))
    trump_suit_counts: list[int] = field(default_factory=lambda: [0] * 4)
    penalty_picks: list[int] = field(default_factory=lambda: [0] * 4)  # by seat
    trump_picks: list[int] = field(default_factory=lambda: [0] * 4)  # Koz picks, by seat

    def record(self, declarer: int, contract: int, trump: int) -> None:
        self.contract_counts[contract] += 1
        if contract == TRUMP:
            self.trump_suit_counts[trump] += 1
            self.trump_picks[declarer] += 1
        else:
            self.penalty_picks[declarer] += 1

    def unrecord(self, declarer: int, contract: int, trump: int) -> None:
        """Undo ``record`` (a deal thrown away before it was scored uses nothing)."""
        self.contract_counts[contract] -= 1
        if contract == TRUMP:
            self.trump_suit_counts[trump] -= 1
            self.trump_picks[declarer] -= 1
        else:
            self.penalty_picks[declarer] -= 1

    def copy(self) -> Usage:
        return Usage(
            self.contract_counts[:],
            self.trump_suit_counts[:],
            self.penalty_picks[:],
            self.trump_picks[:],
        )


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One named option of a ruleset: its allowed values and its default."""

    name: str
    values: tuple[Any, ...]
    default: Any
    description: str = ""

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "values": list(self.values),
            "default": self.default,
            "description": self.description,
        }


class Ruleset(ABC):
    """Base class: what a ruleset declares (deck, lengths, phases, options, who declares
    first, match end, outcome labels), its quota policy and its hand rules.

    ``phased`` rulesets (``traditional``) have phases and facts beyond contract-then-play;
    ``MatchState`` hands them the extra steps through the ``on_*`` hooks, and their states
    are stored in format 2. The others take the plain path, unchanged.
    """

    name: str = ""
    id: int = -1  # stable, stored in every serialised state: never reuse or renumber
    description: str = ""
    lengths: tuple[int, ...] = ()
    early_end: bool = False
    first_declarer: int = 0
    first_declarer_rule: str = "seat 0"
    deck_size: int = 52
    cards_per_seat: int = 13
    tricks_per_hand: int = 13
    phases: tuple[str, ...] = ("contract", "play", "over")
    option_specs: tuple[OptionSpec, ...] = ()
    starting_total: int = 0
    match_end: str = "after the match's number of hands"
    outcome_labels: tuple[str, str] | None = None  # (total >= 0, total < 0), if any
    phased: bool = False
    # A system that does not fit ``MatchState`` names itself here and builds its own states
    # (``game.py``: ``new_state``, ``state_from_bytes``, ``parse_move``, ``move_of_action``).
    family: str | None = None

    def __init__(self) -> None:
        self._hand_rules_cache: dict[tuple[int, int], HandRules] = {}

    def check_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The full option mapping (defaults filled in) for ``options``; ``ConfigError``
        ``bad_option`` for an unknown name or a value that is not allowed."""
        given = dict(options or {})
        specs = {spec.name: spec for spec in self.option_specs}
        for name in given:
            if name not in specs:
                raise ConfigError(
                    "bad_option",
                    f"ruleset {self.name!r} has no option {name!r}",
                    option=name,
                    allowed=list(specs),
                )
        checked: dict[str, Any] = {}
        for name, spec in specs.items():
            value = given.get(name, spec.default)
            # bool is an int: keep true/false apart from 0/1
            if not any(type(value) is type(v) and value == v for v in spec.values):
                raise ConfigError(
                    "bad_option",
                    f"option {name!r} of ruleset {self.name!r} is one of "
                    f"{', '.join(map(str, spec.values))}, not {value!r}",
                    option=name,
                    allowed=list(spec.values),
                )
            checked[name] = value
        return checked

    def check_setup(
        self, num_hands: Any, match_key: Any, options: Mapping[str, Any] | None
    ) -> dict[str, Any]:
        """The checked options of a new match, after its length and match key: the refusals
        every ruleset's match makes (``bad_match_length``, ``bad_option``, ``bad_seed``)."""
        if not isinstance(num_hands, int) or isinstance(num_hands, bool):
            raise ConfigError("bad_match_length", f"match length {num_hands!r} is not a number")
        self.check_length(num_hands)
        if options is not None and not isinstance(options, Mapping):
            raise ConfigError("bad_option", "options must be a mapping of names to values")
        checked = self.check_options(options)
        if not isinstance(match_key, bytes) or len(match_key) != 32:
            raise BadInput("bad_seed", "the match key must be 32 bytes")
        return checked

    def describe(self) -> dict[str, Any]:
        """What this ruleset declares, as JSON-ready data (``GET /v1/rules``)."""
        return {
            "name": self.name,
            "id": self.id,
            "description": self.description,
            "deck_size": self.deck_size,
            "cards_per_seat": self.cards_per_seat,
            "tricks_per_hand": self.tricks_per_hand,
            "lengths": list(self.lengths),
            "first_declarer": self.first_declarer_rule,
            "phases": list(self.phases),
            "options": [spec.describe() for spec in self.option_specs],
            "starting_total": self.starting_total,
            "match_end": self.match_end,
            "outcome_labels": list(self.outcome_labels) if self.outcome_labels else None,
            "early_end": self.early_end,
            "contracts": [
                {
                    "code": spec.code,
                    "turkish": spec.turkish,
                    "penalty": spec.is_penalty,
                    "per_trick": spec.per_trick,
                    "per_card": spec.per_card,
                    "last_two": spec.last_two,
                    "hand_total": spec.total,
                }
                for spec in CONTRACTS
            ],
            "quotas": {str(n): self.describe_quotas(n) for n in self.lengths},
        }

    # Hooks of rulesets with their own state class (``family``; ``game.py`` calls them).

    def new_state(
        self, num_hands: int, match_key: bytes, options: dict[str, Any], dealer: Any
    ) -> Any:
        """A new match of this ruleset (options checked, ``dealer(key, deal_no, deck)``)."""
        raise ConfigError("unknown_ruleset", f"{self.name!r} plays on MatchState: new_match")

    def state_from_bytes(self, data: bytes) -> Any:
        raise ConfigError("unknown_ruleset", f"{self.name!r} plays on MatchState")

    def parse_move(self, text: str) -> Any:
        raise ConfigError("unknown_ruleset", f"{self.name!r} plays on MatchState")

    def move_of_action(self, action: int) -> Any:
        raise ConfigError("unknown_ruleset", f"{self.name!r} plays on MatchState")

    def move_words(self) -> list[str]:
        """The text forms (or their prefixes) of this ruleset's moves other than cards."""
        return []

    # Hooks of phased rulesets (MatchState calls them only when ``phased`` is true).

    def allowed_for(self, state: MatchState) -> list[tuple[int, int]]:
        """The (contract, trump) pairs the declarer of ``state`` may pick now."""
        return self.allowed_contracts(state.num_hands, state.turn, state.usage)

    def refusal_for(self, state: MatchState, contract: int, trump: int) -> IllegalMove | None:
        """None if the declarer of ``state`` may pick this now, else the error (its code and
        reason; the match adds the move and the allowed picks)."""
        reason = self.unavailable_reason(state.num_hands, state.turn, state.usage, contract, trump)
        return None if reason is None else IllegalMove("contract_unavailable", reason)

    def check_length(self, num_hands: int) -> None:
        if num_hands not in self.lengths:
            raise ConfigError(
                "bad_match_length",
                f"ruleset {self.name!r} plays {', '.join(map(str, self.lengths))} hands, "
                f"not {num_hands!r}",
                allowed=list(self.lengths),
            )

    def declarer(self, hand_index: int) -> int:
        """Hand h is declared by seat (first + h) mod 4, so picks are shared equally."""
        return (self.first_declarer + hand_index) % 4

    def hand_rules(self, contract: int, trump: int) -> HandRules:
        """The play rules for a hand of ``contract`` (with ``trump``): immutable, cached."""
        key = (contract, trump)
        rules = self._hand_rules_cache.get(key)
        if rules is None:
            rules = self._hand_rules_cache[key] = self._make_hand_rules(contract, trump)
        return rules

    def _make_hand_rules(self, contract: int, trump: int) -> HandRules:
        return HandRules(CONTRACTS[contract], trump, self.early_end)

    @abstractmethod
    def unavailable_reason(
        self, num_hands: int, declarer: int, usage: Usage, contract: int, trump: int
    ) -> str | None:
        """None if the declarer may pick this contract (and trump) now, else why not."""

    def allowed_contracts(
        self, num_hands: int, declarer: int, usage: Usage
    ) -> list[tuple[int, int]]:
        """Every (contract, trump) the declarer may pick now; trump is -1 for penalties."""
        allowed = [
            (contract, NO_TRUMP)
            for contract in PENALTY_CONTRACTS
            if self.unavailable_reason(num_hands, declarer, usage, contract, NO_TRUMP) is None
        ]
        allowed.extend(
            (TRUMP, suit)
            for suit in SUITS
            if self.unavailable_reason(num_hands, declarer, usage, TRUMP, suit) is None
        )
        return allowed

    @abstractmethod
    def describe_quotas(self, num_hands: int) -> dict[str, object]:
        """The quotas as data, for ``GET /v1/rules``."""


# standard: (penalty picks per player, Koz picks per player, cap per penalty contract per match)
STANDARD_QUOTAS: Final = {8: (1, 1, 1), 12: (2, 1, 2), 20: (3, 2, 2)}
_TRUMP_CHOICES: Final = tuple((TRUMP, suit) for suit in SUITS)


class StandardRuleset(Ruleset):
    name = "standard"
    id = 0
    description = (
        "The product's default (seed 004): 8, 12 or 20 hands; every player declares equally "
        "often, mixing penalties and Koz; early end in Hearts, Queens, Boys and Rıfkı."
    )
    lengths = (8, 12, 20)
    early_end = True

    def unavailable_reason(
        self, num_hands: int, declarer: int, usage: Usage, contract: int, trump: int
    ) -> str | None:
        penalties, trumps, cap = STANDARD_QUOTAS[num_hands]
        if contract == TRUMP:
            return None if usage.trump_picks[declarer] < trumps else "quota"
        if usage.penalty_picks[declarer] >= penalties:
            return "quota"
        return None if usage.contract_counts[contract] < cap else "cap"

    def allowed_contracts(
        self, num_hands: int, declarer: int, usage: Usage
    ) -> list[tuple[int, int]]:
        # The same answer as the generic method, computed directly: simulations call this for
        # every hand they play.
        penalties, trumps, cap = STANDARD_QUOTAS[num_hands]
        allowed = []
        if usage.penalty_picks[declarer] < penalties:
            counts = usage.contract_counts
            allowed = [(c, NO_TRUMP) for c in PENALTY_CONTRACTS if counts[c] < cap]
        if usage.trump_picks[declarer] < trumps:
            allowed.extend(_TRUMP_CHOICES)
        return allowed

    def describe_quotas(self, num_hands: int) -> dict[str, object]:
        penalties, trumps, cap = STANDARD_QUOTAS[num_hands]
        return {
            "per_player": {"picks": num_hands // 4, "penalties": penalties, "trump": trumps},
            "cap_per_penalty_contract": cap,
        }


CLASSIC20_PENALTY_QUOTA: Final = 2  # each penalty contract exactly twice per match
CLASSIC20_TRUMP_PER_SUIT: Final = 2  # Koz twice in each suit: eight Koz hands


class Classic20Ruleset(Ruleset):
    name = "classic20"
    id = 1
    description = (
        "Seed 002: always 20 hands; per-match quotas (each penalty twice, Koz twice in each "
        "suit); strict Koz (no trump in trick 1, trump lead only once broken, must overtrump); "
        "every hand played to the 13th trick."
    )
    lengths = (20,)
    early_end = False

    def _make_hand_rules(self, contract: int, trump: int) -> HandRules:
        if contract == TRUMP:
            return Classic20TrumpRules(CONTRACTS[contract], trump)
        return HandRules(CONTRACTS[contract], trump, early_end=False)

    def unavailable_reason(
        self, num_hands: int, declarer: int, usage: Usage, contract: int, trump: int
    ) -> str | None:
        if contract == TRUMP:
            ok = usage.trump_suit_counts[trump] < CLASSIC20_TRUMP_PER_SUIT
            return None if ok else "trump_quota"
        return None if usage.contract_counts[contract] < CLASSIC20_PENALTY_QUOTA else "cap"

    def describe_quotas(self, num_hands: int) -> dict[str, object]:
        return {
            "per_match": {
                "each_penalty": CLASSIC20_PENALTY_QUOTA,
                "trump_per_suit": CLASSIC20_TRUMP_PER_SUIT,
            }
        }


# traditional's hand rules build on the classes above: imported once they exist.
# The systems with their own state class (``game.py``).
from .international.ruleset import INTERNATIONAL  # noqa: E402
from .konturlu.ruleset import KONTURLU  # noqa: E402
from .traditional import TraditionalRuleset  # noqa: E402

_ALL: Final[tuple[Ruleset, ...]] = (
    StandardRuleset(),
    Classic20Ruleset(),
    TraditionalRuleset(),
    KONTURLU,
    INTERNATIONAL,
)
RULESETS: Final[dict[str, Ruleset]] = {ruleset.name: ruleset for ruleset in _ALL}
# The ids written into serialised states: each ruleset's own constant, not the dict order.
RULESET_IDS: Final = {name: ruleset.id for name, ruleset in RULESETS.items()}
RULESET_BY_ID: Final = {ruleset.id: ruleset for ruleset in RULESETS.values()}


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name``; ``ConfigError("unknown_ruleset")`` otherwise."""
    ruleset = RULESETS.get(name) if isinstance(name, str) else None
    if ruleset is None:
        raise ConfigError(
            "unknown_ruleset",
            f"{name!r} is not a ruleset (one of {', '.join(RULESETS)})",
            allowed=list(RULESETS),
        )
    return ruleset
