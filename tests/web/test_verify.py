"""The browser's "Verify deck" code (verify.js) against FAIRNESS.md's test vectors.

Everything runs inside headless Chromium with WebCrypto; Python only builds the inputs (a
random match played through the engine) and reads the answers. The module's tests share one
page of the client's origin (``verifier``): each imports verify.js's pure functions itself.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from king_engine import CONTRACTS, format_card, format_cards, move_of_action, new_match
from king_engine import deal as kingdeal
from king_engine.moves import ChooseContract, PlayCard

from .pages import new_page
from .servers import LiveServer

pytestmark = pytest.mark.integration

VECTOR_MATCH = "00112233-4455-6677-8899-aabbccddeeff"
VECTOR_SERVER_SEED = bytes(range(32)).hex()
VECTOR_CLIENT_SEEDS = [bytes([b]) * 32 for b in (0x11, 0x22, 0x33, 0x44)]
VECTOR_DECK_0 = (
    "QC 5D 9C KD KS TD 5S 7C 7S 6H 8H 2C JD 7D 2S AC AS 7H TC JH QH AD 9H 3C 3H AH "
    "6S KH 4C 9S 9D 8D TS 8S 8C JS 4S 2H QS 3D 4D 5H 3S 6D QD 5C KC JC 2D 6C 4H TH"
)
VECTOR_HANDS = {
    0: [
        "2C 7C 9C QC 5D TD JD KD 6H 8H 5S 7S KS",
        "3C TC AC 7D AD 3H 7H 9H JH QH AH 2S AS",
        "4C 8C 8D 9D 2H KH 4S 6S 8S 9S TS JS QS",
        "5C 6C JC KC 2D 3D 4D 6D QD 4H 5H TH 3S",
    ],
    1: [
        "2C 4C TC 6D TD QD AD 2H QH AH 2S 8S AS",
        "7C 8C 9C JC KC 2D 3D 8D 7H JH TS JS KS",
        "3C QC 5D 7D 9D JD 4H 5H 6H 8H 3S 5S 7S",
        "5C 6C AC 4D KD 3H 9H TH KH 4S 6S 9S QS",
    ],
    19: [
        "7C 8C TC JC QC 4D TD KD JH QH AH 2S AS",
        "2C 4C 8D JD 6H 7H 9H KH 4S 5S 9S JS KS",
        "5C 6C 9C 2D 9D AD 3H 5H 8H TH 3S 7S 8S",
        "3C KC AC 3D 5D 6D 7D QD 2H 4H 6S TS QS",
    ],
}

# Runs in the page: the vectors' intermediate values, computed by verify.js.
VECTORS_JS = """
async ([matchId, serverSeed, clientSeeds]) => {
  const v = await import('/web/verify.js');
  const S = v.hexToBytes(serverSeed);
  const C = clientSeeds.map(v.hexToBytes);
  const key = await v.matchKey(matchId, S, C);
  const hands = {};
  for (const h of [0, 1, 19]) {
    hands[h] = (await v.dealHand(key, h)).map((cards) => cards.map(v.cardCode).join(' '));
  }
  return {
    commit: await v.serverCommit(matchId, S),
    matchKey: v.bytesToHex(key),
    handKey0: v.bytesToHex(await v.handKey(key, 0)),
    handKey1: v.bytesToHex(await v.handKey(key, 1)),
    handKey19: v.bytesToHex(await v.handKey(key, 19)),
    deck0: (await v.shuffledDeck(key, 0)).map(v.cardCode).join(' '),
    hands,
    secureContext: window.isSecureContext,
  };
}
"""


@pytest.fixture(scope="module")
def verifier(browser: Any, static_server: LiveServer) -> Iterator[Any]:
    """A page of the client's origin (any will do: the tests import the module themselves)."""
    with new_page(browser) as page:
        page.goto(static_server.url + "/web/config.json")
        yield page


def test_verifier_reproduces_the_fairness_vectors_in_chromium(verifier: Any) -> None:
    """commitment, match key, hand keys, the hand-0 deck and hands 0, 1 and 19 match."""
    got = verifier.evaluate(
        VECTORS_JS,
        [VECTOR_MATCH, VECTOR_SERVER_SEED, [seed.hex() for seed in VECTOR_CLIENT_SEEDS]],
    )
    assert got["secureContext"], "WebCrypto needs a secure context (localhost is one)"
    assert got["commit"] == "852f136fd8c4304f34350fa24bec8b7af33743613034836e79aae55186a0e9c3"
    assert got["matchKey"] == "610e152d106945d1378252d8fed7c262fbe759ad9398ce185965ed7a7503503a"
    assert got["handKey0"] == "515b37ae7096660f2fad2126701ee083c403a71727b1aebb2250feb083ae79d6"
    assert got["handKey1"] == "6db715a1724fcf741b200f7850fc480cf70c5731d45d6bea065302e05797a2f4"
    assert got["handKey19"] == "3e33582d4f9308c593bd513a6f08e4882c2267eb0898e4d9f27821b47a7cb4ca"
    assert got["deck0"] == VECTOR_DECK_0
    for hand, seats in VECTOR_HANDS.items():
        assert got["hands"][str(hand)] == seats, f"hand {hand}"


def test_rejection_sampling_skips_draws_at_or_above_the_limit(verifier: Any) -> None:
    """uniform(52) with next_u32 = limit, limit+3, 2^32-1, 105 rejects three draws: 105 mod 52."""
    got = verifier.evaluate(
        """async () => {
          const v = await import('/web/verify.js');
          const limit = 2 ** 32 - (2 ** 32 % 52);
          const draws = [limit, limit + 3, 2 ** 32 - 1, 105];
          let used = 0;
          const syncAnswer = await v.uniform(52, () => draws[used++]);
          const syncUsed = used;
          used = 0;
          const asyncAnswer = await v.uniform(52, async () => draws[used++]);
          return { syncAnswer, syncUsed, asyncAnswer };
        }"""
    )
    assert got == {"syncAnswer": 1, "syncUsed": 4, "asyncAnswer": 1}


def test_u32_stream_reads_hmac_blocks_big_endian(verifier: Any) -> None:
    """The stream continues into HMAC(key, u32be(1)) after the 8 words of block 0."""
    key = bytes(range(32, 64))
    import hashlib
    import hmac

    expected = []
    for block in range(3):
        digest = hmac.digest(key, block.to_bytes(4, "big"), hashlib.sha256)
        expected += [int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4)]
    got = verifier.evaluate(
        """async (keyHex) => {
          const v = await import('/web/verify.js');
          const next = await v.u32Stream(v.hexToBytes(keyHex));
          const out = [];
          for (let i = 0; i < 24; i++) out.push(await next());
          return out;
        }""",
        key.hex(),
    )
    assert got == expected


VECTOR_DECK_32 = (
    "7C 8C 9C TC JC QC KC AC 7D 8D 9D TD JD QD KD AD 7H 8H 9H TH JH QH KH AH "
    "7S 8S 9S TS JS QS KS AS"
)
VECTOR_DECK_32_DEAL_0 = (
    "JD 7C 9S 8S QD KH 8H AS 7H AH 9C TD TC AC JH KS QC TH QS KD KC TS JC 8C 9H JS 7D QH AD "
    "7S 8D 9D"
)
VECTOR_HANDS_32 = {
    0: ["7C JD QD 8H KH 8S 9S AS", "9C TC AC TD 7H JH AH KS",
        "8C JC QC KC KD TH TS QS", "7D 8D 9D AD 9H QH 7S JS"],
    1: ["9C AC 8D 9D AD JH KH JS", "TD 7H 8H 9H QH AH 7S KS",
        "TC QC 7D JD QD TH 9S AS", "7C 8C JC KC KD 8S TS QS"],
}  # fmt: skip

# Runs in the page: the 32-card deck and the opening draw, for a given seat 0 seed.
DECKS_AND_DRAW_JS = """
async ([matchId, serverSeed, clientSeeds]) => {
  const v = await import('/web/verify.js');
  const key = await v.matchKey(matchId, v.hexToBytes(serverSeed), clientSeeds.map(v.hexToBytes));
  const codes = (cards) => cards.map(v.cardCode).join(' ');
  const hands32 = {};
  for (const d of [0, 1]) hands32[d] = (await v.dealHand(key, d, v.DECK_32)).map(codes);
  return {
    matchKey: v.bytesToHex(key),
    deck32: codes(v.DECK_32),
    deck52: codes(v.DECK_52),
    deck32Deal0: codes(await v.shuffledDeck(key, 0, v.DECK_32)),
    hands32,
    deal1: (await v.dealHand(key, 1)).map(codes),
    drawKey: v.bytesToHex(await v.drawKey(key)),
    drawDeck: codes((await v.drawDeck(key)).slice(0, 8)),
    draw: await v.openingDraw(key),
  };
}
"""


def _decks_and_draw(verifier: Any, client_seeds: list[bytes]) -> dict[str, Any]:
    result: dict[str, Any] = verifier.evaluate(
        DECKS_AND_DRAW_JS, [VECTOR_MATCH, VECTOR_SERVER_SEED, [s.hex() for s in client_seeds]]
    )
    return result


def test_verifier_deals_the_32_card_deck_as_the_vectors(verifier: Any) -> None:
    """The deck 7..A in id order, deal 0's shuffled deck, and the seats of deals 0 and 1."""
    got = _decks_and_draw(verifier, VECTOR_CLIENT_SEEDS)
    assert got["deck32"] == VECTOR_DECK_32
    assert got["deck52"] == " ".join(format_card(c) for c in range(52))
    assert got["deck32Deal0"] == VECTOR_DECK_32_DEAL_0
    for deal_no, seats in VECTOR_HANDS_32.items():
        assert got["hands32"][str(deal_no)] == seats, f"deal {deal_no}"
    # A 52-card hand 0 redealt once is played on deal 1: the "hand 1" cards.
    assert got["deal1"] == VECTOR_HANDS[1]


def test_verifier_reproduces_the_opening_draw_vector(verifier: Any) -> None:
    """draw_key, D[0..7] = JD 9D 7D 9C 5S 7H 8C KS, and J♦ beats 9♦ 7♦ 9♣: seat 0 starts."""
    got = _decks_and_draw(verifier, VECTOR_CLIENT_SEEDS)
    assert got["drawKey"] == "076cc80d0300ce14a48c4f07df5812144b5afaebfa08a8fcef89b0c14b73e854"
    assert got["drawDeck"] == "JD 9D 7D 9C 5S 7H 8C KS"
    assert got["draw"] == {"rounds": [[[0, "JD"], [1, "9D"], [2, "7D"], [3, "9C"]]], "winner": 0}


def test_verifier_redraws_a_tie_in_the_opening_draw(verifier: Any) -> None:
    """C_0 = 0x07×32: T♥ and T♣ tie, seats 0 and 1 alone draw again (T♦, K♦): seat 1."""
    got = _decks_and_draw(verifier, [bytes([0x07]) * 32, *VECTOR_CLIENT_SEEDS[1:]])
    assert got["matchKey"] == "25cc6a328d946fea69cfd20a6c98365b6d6d78791f091e6c2b80fb441645ecad"
    assert got["draw"] == {
        "rounds": [[[0, "TH"], [1, "TC"], [2, "7D"], [3, "5D"]], [[0, "TD"], [1, "KD"]]],
        "winner": 1,
    }


def test_verifier_draw_deck_exhaustion_goes_to_the_lowest_seat_still_drawing(verifier: Any) -> None:
    """Seats 1 and 2 tie on aces; only seat 1 gets a card before D runs out: seat 1 wins."""
    got = verifier.evaluate(
        """async (codes) => {
          const v = await import('/web/verify.js');
          return v.highCardDraw(codes.map(v.parseCard));
        }""",
        ["2C", "AC", "AD", "2D", "KC"],
    )
    assert got == {
        "rounds": [[[0, "2C"], [1, "AC"], [2, "AD"], [3, "2D"]], [[1, "KC"]]],
        "winner": 1,
    }


def test_verifier_agrees_with_the_engine_on_random_keys(verifier: Any) -> None:
    """Both decks and the opening draw for a few random match keys, against king_engine."""
    rng = random.Random(20261202)
    keys = [rng.randbytes(32) for _ in range(6)]
    deal_numbers = [rng.randrange(2**32) for _ in keys]
    got = verifier.evaluate(
        """async ([keys, dealNumbers]) => {
          const v = await import('/web/verify.js');
          const out = [];
          for (let i = 0; i < keys.length; i++) {
            const key = v.hexToBytes(keys[i]);
            const hands = async (deck) =>
              (await v.dealHand(key, dealNumbers[i], deck)).map((h) => h.map(v.cardCode).join(' '));
            out.push({ d52: await hands(v.DECK_52), d32: await hands(v.DECK_32),
                       draw: await v.openingDraw(key) });
          }
          return out;
        }""",
        [[k.hex() for k in keys], deal_numbers],
    )
    for key, deal_no, answer in zip(keys, deal_numbers, got, strict=True):
        for deck, name in ((kingdeal.DECK_52, "d52"), (kingdeal.DECK_32, "d32")):
            masks = kingdeal.deal_hand(key, deal_no, deck)
            assert answer[name] == [format_cards(m) for m in masks], (deal_no, name)
        assert answer["draw"] == kingdeal.opening_draw(key).to_dict()


# ---------------------------------------------------------------- whole transcripts


def play_random_match(seed: int, hands: int = 8) -> tuple[dict[str, Any], dict[str, Any]]:
    """A finished match's transcript (as the game service serves it) and what seat 0 stored."""
    rng = random.Random(seed)
    match_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    server_seed = rng.randbytes(32)
    client_seeds = [rng.randbytes(32), kingdeal.BOT_SEED, kingdeal.BOT_SEED, kingdeal.BOT_SEED]
    key = kingdeal.match_key(match_id, server_seed, client_seeds)
    state = new_match("standard", hands, key)
    played: list[dict[str, Any]] = []
    while not state.is_over:
        if not played or played[-1]["hand"] != state.hand_index:
            played.append(
                {"hand": state.hand_index, "declarer": state.declarer, "contract": None,
                 "trump": None, "plays": []}
            )  # fmt: skip
        seat = state.current_player
        action = rng.choice(list(state.legal_actions()))
        move = move_of_action(action)
        if isinstance(move, ChooseContract):
            played[-1]["contract"] = CONTRACTS[move.contract].code
            played[-1]["trump"] = "CDHS"[move.trump] if move.trump >= 0 else None
        elif isinstance(move, PlayCard):
            played[-1]["plays"].append([seat, format_card(move.card)])
        state.apply_action(action)
    transcript = {
        "spec": kingdeal.SPEC,
        "match_id": match_id,
        "server_commit": kingdeal.server_commit(match_id, server_seed),
        "server_seed": server_seed.hex(),
        "client_seeds": [seed.hex() for seed in client_seeds],
        "seed_sources": ["client", "bot", "bot", "bot"],
        "ruleset": "standard",
        "num_hands": hands,
        "hands": played,
    }
    shown = {}
    for h in range(hands):
        mask = kingdeal.deal_hand(key, h)[0]
        shown[str(h)] = [format_card(c) for c in range(52) if mask >> c & 1]
    stored = {
        "matchId": match_id,
        "commitment": transcript["server_commit"],
        "seat": 0,
        "seed": client_seeds[0].hex(),
        "hands": shown,
    }
    return transcript, stored


VERIFY_JS = """
async ([transcript, stored]) => {
  const v = await import('/web/verify.js');
  return await v.verifyTranscript(transcript, stored);
}
"""


def _verify(verifier: Any, transcript: dict[str, Any], stored: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = verifier.evaluate(VERIFY_JS, [transcript, stored])
    return result


def test_an_honest_transcript_passes_every_check(verifier: Any) -> None:
    transcript, stored = play_random_match(7)
    result = _verify(verifier, transcript, stored)
    assert result["problems"] == []
    assert result["ok"] is True
    assert [c["check"] for c in result["checks"]] == [
        "spec", "commitment", "own_seed", "seeds", "own_hands", "plays",
    ]  # fmt: skip
    assert all(c["ok"] for c in result["checks"])


def test_the_verifier_says_who_made_each_seed(verifier: Any) -> None:
    transcript, stored = play_random_match(8)
    result = _verify(verifier, transcript, stored)
    assert [(m["seat"], m["source"], m["mine"]) for m in result["seeds"]] == [
        (0, "client", True), (1, "bot", False), (2, "bot", False), (3, "bot", False),
    ]  # fmt: skip
    detail = next(c["detail"] for c in result["checks"] if c["check"] == "seeds")
    assert "seat 0: made by its player's client (this device)" in detail
    assert "seat 1: a server bot's (32 zero bytes)" in detail


@pytest.mark.parametrize(
    ("seat", "source", "message"),
    [(0, "server", "this device made seat 0's seed"), (1, "server", None), (2, "client", None)],
)
def test_a_seed_mark_that_contradicts_the_seed_fails(
    verifier: Any, seat: int, source: str, message: str | None
) -> None:
    """Our own seed marked as the server's fails; another seat's mark is shown as it is (a
    zero seed may be anybody's), but a seed marked bot must be the 32 zero bytes."""
    transcript, stored = play_random_match(9)
    transcript["seed_sources"][seat] = source
    result = _verify(verifier, transcript, stored)
    assert result["seeds"][seat]["source"] == source
    if message is None:
        assert result["ok"] is True, result["problems"]
    else:
        assert [p["check"] for p in result["problems"]] == ["seeds"]
        assert message in result["problems"][0]["message"]


def test_a_seed_marked_bot_that_is_not_zero_fails(verifier: Any) -> None:
    transcript, stored = play_random_match(10)
    transcript["seed_sources"][0] = "bot"
    stored["seat"], stored["seed"], stored["hands"] = None, None, {}
    result = _verify(verifier, transcript, stored)
    problems = [p for p in result["problems"] if p["check"] == "seeds"]
    assert [p["message"] for p in problems] == [
        "seat 0's seed is marked bot but is not 32 zero bytes"
    ]


def test_a_card_swapped_between_players_fails_naming_the_hand(verifier: Any) -> None:
    """Seat 2 'plays' a card dealt to seat 3 in hand 4 (index 3): check 4 names hand 4."""
    transcript, stored = play_random_match(11)
    plays = transcript["hands"][3]["plays"]
    first2 = next(i for i, (s, _) in enumerate(plays) if s == 2)
    first3 = next(i for i, (s, _) in enumerate(plays) if s == 3)
    plays[first2][1], plays[first3][1] = plays[first3][1], plays[first2][1]
    result = _verify(verifier, transcript, stored)
    assert result["ok"] is False
    assert {p["check"] for p in result["problems"]} == {"plays"}
    assert {p["hand"] for p in result["problems"]} == {3}
    assert all(p["message"].startswith("hand 4:") for p in result["problems"])
    assert any("seat 2 played" in p["message"] for p in result["problems"])


def test_a_card_played_twice_fails(verifier: Any) -> None:
    transcript, stored = play_random_match(12)
    plays = transcript["hands"][5]["plays"]
    plays.append(list(plays[0]))
    result = _verify(verifier, transcript, stored)
    assert result["ok"] is False
    assert any(p["hand"] == 5 and "played twice" in p["message"] for p in result["problems"]), (
        result["problems"]
    )


def test_a_changed_server_seed_fails_the_commitment(verifier: Any) -> None:
    transcript, stored = play_random_match(13)
    transcript["server_seed"] = "00" * 32
    result = _verify(verifier, transcript, stored)
    assert result["ok"] is False
    assert "commitment" in {p["check"] for p in result["problems"]}


def test_a_missing_own_seed_fails(verifier: Any) -> None:
    transcript, stored = play_random_match(14)
    transcript["client_seeds"][0] = "ab" * 32
    result = _verify(verifier, transcript, stored)
    checks = {p["check"] for p in result["problems"]}
    assert result["ok"] is False
    assert "own_seed" in checks
    # A different seed means a different deal: the hands this device saw no longer match.
    assert "own_hands" in checks


def test_a_hand_not_as_shown_fails_naming_the_hand(verifier: Any) -> None:
    transcript, stored = play_random_match(15)
    shown = stored["hands"]["6"]
    outsider = next(format_card(c) for c in range(52) if format_card(c) not in shown)
    stored["hands"]["6"] = [outsider, *shown[1:]]  # one card this seat was never dealt
    result = _verify(verifier, transcript, stored)
    assert result["ok"] is False
    assert [(p["check"], p["hand"]) for p in result["problems"]] == [("own_hands", 6)]
    assert result["problems"][0]["message"].startswith("hand 7:")
