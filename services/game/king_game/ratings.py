"""A player's rating, for quick match: asked of the rating service's API, cached in Redis.

The services never import each other, so the game service reads ``GET
{KING_RATING_URL}/players/{id}/rating?ruleset={ruleset}``: every ruleset is rated apart, and a
quick-match pool is of one ruleset, so a player is paired by their rating in that ruleset. The
answer is cached in Redis (per player and ruleset) for ``cache_s`` for every copy of the
service. A player the rating service does not know (404: no rated match yet) has the
initial 1500; when the rating service does not answer, the player gets 1500 for this join
(cached only briefly), so quick match never waits on it.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request

from redis import Redis

from king_message import DEFAULT_RULESET

#: The Elo rating every player starts from (docs/rating.md).
DEFAULT_RATING = 1500
#: How long a fallback (rating service unreachable) is kept before asking again.
_FALLBACK_CACHE_S = 15


class RatingLookup:
    def __init__(
        self,
        base_url: str,
        redis: Redis,
        prefix: str,
        cache_s: int = 300,
        timeout_s: float = 1.0,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.redis = redis
        self.prefix = prefix
        self.cache_s = cache_s
        self.timeout_s = timeout_s

    def _key(self, player_id: str, ruleset: str) -> str:
        return f"{self.prefix}qm:rating:{ruleset}:{player_id}"

    def rating_of(self, player_id: str, ruleset: str = DEFAULT_RULESET) -> int:
        """The player's rating in ``ruleset``, rounded."""
        key = self._key(player_id, ruleset)
        cached = self.redis.get(key)
        if cached is not None:
            return int(cached)
        rating, keep_s = self._ask(player_id, ruleset)
        self.redis.set(key, rating, ex=keep_s)
        return rating

    def _ask(self, player_id: str, ruleset: str) -> tuple[int, int]:
        query = urllib.parse.urlencode({"ruleset": ruleset})
        url = f"{self.base_url}/players/{urllib.parse.quote(player_id, safe='')}/rating?{query}"
        try:
            with urllib.request.urlopen(url, timeout=self.timeout_s) as answer:
                body = json.loads(answer.read())
            return round(float(body["rating"])), self.cache_s
        except urllib.error.HTTPError as error:
            if error.code == 404:
                return DEFAULT_RATING, self.cache_s
            return DEFAULT_RATING, _FALLBACK_CACHE_S
        except (OSError, ValueError, KeyError, TypeError):
            return DEFAULT_RATING, _FALLBACK_CACHE_S
