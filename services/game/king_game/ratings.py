"""A player's rating, for quick match: asked of the rating service's API, cached in Redis.

The services never import each other, so the game service reads ``GET
{KING_RATING_URL}/players/{id}/rating`` (one rating per player, whatever the ruleset: that is
what the rating service keeps). The answer is cached in Redis for ``cache_s`` for every copy of
the service. A player the rating service does not know (404: no rated match yet) has the
initial 1500; when the rating service does not answer, the player gets 1500 for this join
(cached only briefly), so quick match never waits on it.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request

from redis import Redis

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

    def _key(self, player_id: str) -> str:
        return f"{self.prefix}qm:rating:{player_id}"

    def rating_of(self, player_id: str) -> int:
        cached = self.redis.get(self._key(player_id))
        if cached is not None:
            return int(cached)
        rating, keep_s = self._ask(player_id)
        self.redis.set(self._key(player_id), rating, ex=keep_s)
        return rating

    def _ask(self, player_id: str) -> tuple[int, int]:
        url = f"{self.base_url}/players/{urllib.parse.quote(player_id, safe='')}/rating"
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
