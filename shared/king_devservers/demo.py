"""A demonstration match through the public HTTP API (``python -m king_devservers --demo``).

It does what any client program would: creates a guest account, opens a computer table
(keeping the deal commitment it is shown), only then makes its client seed and takes its seat
with it (the order KINGDEAL-v1 asks for), plays its seat with a simple
legal policy, follows the table through the event log, prints contracts, tricks and the score
sheet, and at the end verifies the deck from the fairness transcript with the engine's
KINGDEAL-v1 code: the commitment, its own seed, the cards it was dealt in every hand, that
every card played came from the hand it was dealt to, and that the published moves replay to
the published totals.

``GameClient`` and ``verify_deal`` are also used by the end-to-end tests.
"""

from __future__ import annotations

import json
import secrets
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from king_engine import (
    PHASE_CONTRACT,
    contract_move,
    deal,
    format_cards,
    get_ruleset,
    has_own_state,
    new_game,
    new_match,
    parse_card,
    parse_game_move,
    parse_move,
)

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


class ApiError(RuntimeError):
    """The API answered with an error status."""

    def __init__(self, status: int, body: Any, retry_after: float | None = None) -> None:
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body
        self.retry_after = retry_after


def call(
    method: str,
    url: str,
    body: Any = None,
    token: str | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 30.0,
) -> Any:
    """One JSON request; returns the decoded body, raises ApiError on 4xx/5xx."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Accept", "application/json")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw = response.read()
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        try:
            parsed: Any = json.loads(raw)
        except ValueError:
            parsed = raw.decode("utf-8", "replace")
        wait = exc.headers.get("Retry-After")
        retry_after = float(wait) if wait and wait.isdigit() else None
        raise ApiError(exc.code, parsed, retry_after) from None
    return json.loads(raw) if raw else None


@dataclass
class GameClient:
    """One player of the game API: an account, its token, and what it saw."""

    api: str
    name: str
    token: str = ""
    player_id: str = ""
    #: The seed of the last seat taken; ``seeds`` keeps each match's (match id -> seed).
    client_seed: str = ""
    seeds: dict[str, str] = field(default_factory=dict)
    #: My cards at the start of each deal (deal number -> card codes), for the deck check.
    dealt: dict[int, list[str]] = field(default_factory=dict)

    def url(self, path: str) -> str:
        return self.api.rstrip("/") + path

    def request(self, method: str, path: str, body: Any = None, **kwargs: Any) -> Any:
        """One call; a 429 is waited out as its ``Retry-After`` says (a few times at most)."""
        for _ in range(5):
            try:
                return call(method, self.url(path), body, token=self.token, **kwargs)
            except ApiError as exc:
                if exc.status != 429:
                    raise
                time.sleep(min(exc.retry_after or 1.0, 60.0))
        return call(method, self.url(path), body, token=self.token, **kwargs)

    def sign_up(self, password: str | None = None) -> GameClient:
        body: dict[str, Any] = {"name": self.name}
        if password is not None:
            body["password"] = password
        answer = call("POST", self.url("/v1/accounts"), body)
        self.token = answer["token"]
        self.player_id = answer["account"]["id"]
        return self

    def create_table(
        self,
        mode: str,
        hands: int = 8,
        level: str = "easy",
        ruleset: str = "standard",
        options: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A new table with its ``server_commit``; nobody sits yet (``join`` next)."""
        body: dict[str, Any] = {"mode": mode, "hands": hands, "ruleset": ruleset}
        if options:
            body["options"] = options
        if mode == "computer":
            body["level"] = level
        table: dict[str, Any] = self.request("POST", "/v1/tables", body)
        return table

    def join(self, table_id: str) -> dict[str, Any]:
        """Sit at a table whose commitment we hold, with a seed made now, after seeing it."""
        seed = secrets.token_hex(32)
        seated: dict[str, Any] = self.request(
            "POST", f"/v1/tables/{table_id}/seats", {"client_seed": seed}
        )
        self.client_seed = self.seeds[str(seated["table"]["match_id"])] = seed
        return seated

    def match(self, match_id: str) -> dict[str, Any]:
        state: dict[str, Any] = self.request("GET", f"/v1/matches/{match_id}")
        view = state.get("view") or {}
        cards = view.get("my_cards") or []
        full = 8 if view.get("deck") == 32 else 13  # (international's 32-card deck)
        if len(cards) == full and view.get("deal") is not None:
            self.dealt.setdefault(int(view["deal"]), list(cards))
        return state

    def events(self, match_id: str, after: int, wait: float = 10.0) -> dict[str, Any]:
        page: dict[str, Any] = self.request(
            "GET", f"/v1/matches/{match_id}/events?after={after}&wait={wait}", timeout=wait + 20
        )
        return page

    def move(self, match_id: str, move: str, version: int) -> dict[str, Any]:
        result: dict[str, Any] = self.request(
            "POST",
            f"/v1/matches/{match_id}/moves",
            {"move": move, "version": version},
            headers={"Idempotency-Key": uuid.uuid4().hex},
        )
        return result

    def fairness(self, match_id: str) -> dict[str, Any]:
        transcript: dict[str, Any] = self.request("GET", f"/v1/matches/{match_id}/fairness")
        return transcript


def simple_move(view: dict[str, Any]) -> str:
    """A legal move from a seat's view: the first allowed contract, else the lowest legal card;
    in a ruleset's extra phases, ``keep`` (no redeal) or ``pass`` (no King announcement).

    Good enough to finish a match; the point of the demo is the API, not the strategy. A
    ruleset with its own state lists every legal move: say no (``iyi``, ``pass``,
    ``decline``) where it can, else the first move or the lowest card.
    """
    if has_own_state(str(view.get("ruleset", "standard"))):
        legal = [str(move) for move in view.get("legal_moves") or []]
        if not legal:
            raise ValueError("my turn, but no legal move")
        for word in ("iyi", "pass", "decline", "accept"):
            if word in legal:
                return word
        cards = [move for move in legal if len(move) == 2 and move[1] in SUITS]
        return min(cards, key=lambda c: parse_card(c) % 13) if cards else legal[0]
    for call in ("keep", "pass"):
        if call in (view.get("legal_moves") or []):
            return call
    if view.get("phase") == "contract":
        allowed = view.get("allowed_contracts") or []
        if not allowed:
            raise ValueError("my turn to declare, but no contract is allowed")
        return str(allowed[0]["move"])
    legal = view.get("legal_cards") or []
    if not legal:
        raise ValueError("my turn to play, but no legal card")
    return str(min(legal, key=lambda code: parse_card(code) % 13))


def verify_deal(
    transcript: dict[str, Any],
    commitment: str,
    seat: int,
    my_seed: str,
    dealt: dict[int, list[str]],
    final_totals: list[int] | None = None,
) -> list[str]:
    """Check a finished match's deck; return what was checked (raises AssertionError if not).

    Uses only the transcript, what this seat saw during the match and the KINGDEAL-v1 spec.
    """
    checked: list[str] = []
    match_id = str(transcript["match_id"])
    server_seed = bytes.fromhex(str(transcript["server_seed"]))
    if deal.server_commit(match_id, server_seed) != commitment:
        raise AssertionError("the revealed server seed does not match the commitment")
    checked.append("server seed matches the commitment shown at table creation")
    seeds_hex = [str(s) for s in transcript["client_seeds"]]
    if seeds_hex[seat] != my_seed.lower():
        raise AssertionError("my client seed is not the one in the transcript")
    checked.append("my client seed is in the transcript")
    key = deal.match_key(match_id, server_seed, [bytes.fromhex(s) for s in seeds_hex])
    cards_dealt = (transcript.get("options") or {}).get("deck") == 32
    deck = deal.DECK_32 if cards_dealt else deal.DECK_52
    for number, cards in sorted(dealt.items()):
        masks = deal.deal_hand(key, number, deck)
        mine = sum(1 << parse_card(code) for code in cards)
        if masks[seat] != mine:
            raise AssertionError(f"deal {number}: the cards I was dealt are not the derived deal")
    checked.append(f"the cards I was dealt in {len(dealt)} deals are the derived deals")
    options = transcript.get("options") or {}
    if has_own_state(str(transcript["ruleset"])):
        totals = _replay_own(transcript, key, deck)
        checked.append("every card played was dealt to the seat that played it")
    else:
        totals = _replay(transcript, key, options)
        checked.append("every card played was dealt to the seat that played it")
    if final_totals is not None:
        if totals != list(final_totals):
            raise AssertionError(f"replay gives {totals}, the match ended {final_totals}")
        checked.append(f"replaying the published moves gives the final totals {final_totals}")
    return checked


def _replay_own(transcript: dict[str, Any], key: bytes, deck: Any) -> list[int]:
    """A ruleset with its own state lists every move of each deal: replay them, checking that
    each card came from its player's dealt hand."""
    ruleset = str(transcript["ruleset"])
    options = transcript.get("options") or {}
    state = new_game(ruleset, int(transcript["num_hands"]), key, options)
    for entry in transcript["hands"]:
        masks = deal.deal_hand(key, int(entry["deal"]), deck)
        for player, text in entry["moves"]:
            if state.is_over or state.current_player != int(player):
                continue  # a move the engine made by itself (a Dürt pass, a forced bid)
            move = parse_game_move(get_ruleset(ruleset), str(text))
            card = getattr(move, "card", None)
            if card is not None and not masks[int(player)] >> card & 1:
                raise AssertionError(f"deal {entry['deal']}: seat {player} played {text}")
            state.apply(int(player), move)
    return list(state.totals)


def _replay(transcript: dict[str, Any], key: bytes, options: dict[str, Any]) -> list[int]:
    state = new_match(str(transcript["ruleset"]), int(transcript["num_hands"]), key, options)
    for hand in transcript["hands"]:
        index = int(hand["hand"])
        masks = deal.deal_hand(key, int(hand.get("deal", index)))
        # (A replayed Kız deal lists the contract it keeps: no move chose it.)
        if hand.get("contract") is not None and state.phase == PHASE_CONTRACT:
            state.apply(int(hand["declarer"]), contract_move(hand["contract"], hand.get("trump")))
        # A deal's calls (redeal answers, a King announcement) all come before its first card.
        for player, word in hand.get("calls", []):
            state.apply(int(player), parse_move(word))
        for player, code in hand["plays"]:
            if not masks[int(player)] >> parse_card(code) & 1:
                raise AssertionError(f"hand {index + 1}: seat {player} played {code}, not dealt")
            state.apply(int(player), parse_move(code))
    return list(state.totals)


def score_sheet(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The view's score sheet as rows of hand, declarer, contract and the points scored
    (``konturlu``: each row's settled scores; ``international``: under ``scores``)."""
    if "score_sheet" in view:
        return list(view["score_sheet"] or [])
    rows = view.get("sheet") or (view.get("scores") or {}).get("sheet") or []
    return [
        {
            "hand": row["hand"],
            "declarer": row["declarer"],
            "contract": str(row.get("contract")),
            "points": row.get("scores", row.get("points")),
        }
        for row in rows
    ]


def describe_event(event: dict[str, Any], names: list[str]) -> str | None:
    """A line for the events worth printing (contracts, tricks, hand scores)."""
    kind = event.get("type")

    def name(key: str) -> str:
        value = event.get(key)
        return names[int(value)] if isinstance(value, int) and 0 <= value < len(names) else "?"

    def number(key: str) -> str:
        value = event.get(key)
        return str(int(value) + 1) if isinstance(value, int) else "?"

    if kind == "hand_started":
        return f"\nhand {number('hand')}: {name('declarer')} declares"
    if kind == "contract_chosen":
        trump = event.get("trump")
        suit = f" ({SUITS.get(str(trump), trump)})" if trump else ""
        return f"  contract: {event.get('contract', '?')}{suit} by {name('seat')}"
    if kind == "trick_won":
        cards = " ".join(str(c) for c in event.get("cards", []))
        points = event.get("points")
        extra = f" ({points})" if points else ""
        return f"  trick {number('trick')}: {cards} -> {name('seat')}{extra}"
    if kind == "hand_scored":
        return f"  hand score: {event.get('points')}   totals: {event.get('totals')}"
    if kind == "match_over":
        return f"\nmatch over: totals {event.get('totals')}"
    return None


class TablePrinter:
    """Prints the match as it goes: from the events when they carry their fields, else from
    the seat's view (completed tricks of the current hand, the score sheet as it grows)."""

    DETAILED = ("contract_chosen", "trick_won", "card_played")

    def __init__(self, names: list[str], echo: Callable[[str], None]) -> None:
        self.names = names
        self.echo = echo
        self.from_events: bool | None = None
        self.hand = -1
        self.tricks_shown = 0
        self.contract_shown = False
        self.sheet_rows = 0

    def events(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            if self.from_events is None and event.get("type") in self.DETAILED:
                self.from_events = "seat" in event
            if self.from_events:
                line = describe_event(event, self.names)
                if line:
                    self.echo(line)

    def view(self, view: dict[str, Any]) -> None:
        if self.from_events:
            return
        sheet = score_sheet(view)
        for row in sheet[self.sheet_rows :]:
            self.echo(f"  hand {int(row['hand']) + 1} scored: {row['points']}")
        self.sheet_rows = len(sheet)
        hand = view.get("hand")
        if isinstance(hand, int) and hand != self.hand and view.get("phase") != "over":
            self.hand, self.tricks_shown, self.contract_shown = hand, 0, False
            declarer = view.get("declarer")
            who = self.names[declarer] if isinstance(declarer, int) else "?"
            self.echo(f"\nhand {hand + 1}: {who} declares")
        if view.get("contract") and not self.contract_shown:
            self.contract_shown = True
            trump = view.get("trump")
            suit = f" ({SUITS.get(str(trump), trump)})" if trump else ""
            self.echo(f"  contract: {view['contract']}{suit}")
        tricks = view.get("tricks") or []
        for index in range(self.tricks_shown, len(tricks)):
            trick = tricks[index]
            cards = " ".join(str(play["card"]) for play in trick["plays"])
            self.echo(f"  trick {index + 1}: {cards} -> {self.names[int(trick['winner'])]}")
        self.tricks_shown = max(self.tricks_shown, len(tricks))


def play_computer_match(
    client: GameClient,
    hands: int = 8,
    level: str = "easy",
    echo: Callable[[str], None] = print,
    timeout: float = 600.0,
    ruleset: str = "standard",
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play a whole computer match as ``client``; return table, final state, transcript."""
    created = client.create_table(
        "computer", hands=hands, level=level, ruleset=ruleset, options=options
    )
    echo(
        f"table {created['id']}: {ruleset}, {hands} hands, {level} bots; "
        f"deal commitment {created['server_commit']}"
    )
    seated = client.join(str(created["id"]))
    table, seat = seated["table"], int(seated["seat"])
    match_id = str(table["match_id"])
    names = [str(s["name"]) if s else "?" for s in table["seats"]]
    echo(f"took seat {seat} with my client seed {client.client_seed} (made after the commitment)")
    echo("players: " + ", ".join(f"{i}:{n}" for i, n in enumerate(names)))
    printer = TablePrinter(names, echo)
    after = 0
    deadline = time.monotonic() + timeout
    state = client.match(match_id)
    while state.get("outcome") is None and time.monotonic() < deadline:
        view = state.get("view") or {}
        printer.view(view)
        if state.get("my_turn"):
            if view.get("phase") == "play" and len(view.get("my_cards") or []) == 13:
                mask = sum(1 << parse_card(c) for c in view["my_cards"])
                echo(f"  my cards: {format_cards(mask)}")
            try:
                client.move(match_id, simple_move(view), int(state["version"]))
            except ApiError as exc:
                if exc.status != 409:  # someone (the clock) moved first: read again
                    raise
        else:
            page = client.events(match_id, after, wait=5)
            printer.events(page.get("events", []))
            after = int(page.get("last_seq", after))
        state = client.match(match_id)
    if state.get("outcome") is None:
        raise TimeoutError(f"match {match_id} did not end within {timeout} s")
    printer.events(client.events(match_id, after, wait=0).get("events", []))
    printer.view(state["view"])
    sheet = score_sheet(state["view"])
    echo("\nscore sheet:")
    for row in sheet:
        echo(
            f"  {int(row['hand']) + 1:>2} {names[int(row['declarer'])]:<14} "
            f"{row['contract']:<15} " + " ".join(f"{p:>6}" for p in row["points"])
        )
    echo(f"  {'totals':<33}" + " ".join(f"{t:>6}" for t in state["view"]["totals"]))
    transcript = client.fairness(match_id)
    return {"table": table, "state": state, "transcript": transcript, "seat": seat}


def play_demo(
    api: str,
    hands: int | None = None,
    level: str = "easy",
    ruleset: str = "standard",
    options: dict[str, Any] | None = None,
) -> int:
    """Play one match against three computer players at ``api``; print it; verify the deal."""
    if hands is None:
        hands = get_ruleset(ruleset).lengths[0]
    try:
        call("GET", api.rstrip("/") + "/healthz", timeout=5)
    except (ApiError, OSError) as exc:
        print(f"the game service does not answer at {api}: {exc}", file=sys.stderr)
        return 2
    client = GameClient(api, name=f"demo-{secrets.token_hex(3)}").sign_up()
    print(f"signed up as {client.name}")
    result = play_computer_match(client, hands=hands, level=level, ruleset=ruleset, options=options)
    state = result["state"]
    print(f"\noutcome: {state.get('outcome')}, places {state.get('places')}")
    if state.get("seat_outcomes"):
        print(f"ended: {state.get('end_reason')}; cikar/batar {state['seat_outcomes']}")
    print("\ndeck verification (KINGDEAL-v1):")
    try:
        for line in verify_deal(
            result["transcript"],
            str(result["table"]["server_commit"]),
            int(result["seat"]),
            client.client_seed,
            client.dealt,
            list(state["view"]["totals"]),
        ):
            print(f"  ok: {line}")
    except AssertionError as exc:
        print(f"  FAILED: {exc}")
        return 1
    print("the deck is verified.")
    return 0
