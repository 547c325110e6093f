"""The arena's duplicate method, and the hard bot's edge over the medium bot."""

from __future__ import annotations

import io

import pytest

from king_bots.arena import Progress, main, mean_ci, parse_policy, report, run_arena
from king_bots.policies import Policy


def test_parse_policy() -> None:
    assert parse_policy("hard:worlds=16,budget=0.3") == Policy("hard", worlds=16, budget_s=0.3)
    assert parse_policy("medium:noise=0.2") == Policy("medium", noise=0.2)
    with pytest.raises(ValueError):
        parse_policy("medium:colour=red")
    with pytest.raises(ValueError):
        parse_policy("wizard")


def test_mean_ci() -> None:
    mean, half = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert half == pytest.approx(1.96 * (1.6666666 / 4) ** 0.5, rel=1e-4)


def test_a_policy_against_itself_scores_exactly_zero() -> None:
    """Duplicate deals with the same random streams: identical players, identical games."""
    result = run_arena("medium", "medium", deals=2, matches=1, progress=False)
    assert all(v == 0 for values in result.per_contract.values() for v in values)
    assert result.match_diffs == [0.0, 0.0, 0.0, 0.0]
    assert result.overall == (0.0, 0.0)


def test_medium_beats_easy_and_the_report_has_every_contract() -> None:
    """Deterministic (fixed seed). The first 3 duplicate deals of seed 3 per contract: the
    deal means are +53, +48 and +43 points a hand (+48 overall), far above the bar; a medium
    no better than easy would score near 0."""
    result = run_arena("medium", "easy", deals=3, matches=1, seed=3, progress=False)
    assert result.overall[0] > 10
    text = report(result)
    for code in ("tricks", "hearts", "queens", "boys", "last_two", "king_of_hearts", "trump"):
        assert f"| {code} (" in text
    assert "first place" in text


@pytest.mark.slow
def test_hard_beats_medium_in_a_small_fixed_arena() -> None:
    """Statistical, but reproducible: a fixed seed and fixed-iteration search (10 worlds).

    The smallest sample that still shows the edge clearly: the first 2 duplicate deals of
    seed 7 for each of the 7 contracts (14 deals, each with the hard bot in all 4 seats).
    Hard is ahead in 11 of the 14 and the two deal means are +28 points a hand each (the
    first 5 deals: +26); a hard bot that played medium's cards would score exactly 0, one
    that played worse would score below it."""
    result = run_arena("hard:worlds=10", "medium", deals=2, seed=7, progress=False)
    mean, _ = result.overall
    assert mean > 8.0, report(result)


def test_progress_bar_and_command(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = io.StringIO()
    bar = Progress(2, "x", out)
    bar.step()
    bar.step()
    assert "2/2" in out.getvalue()
    target = tmp_path / "arena.md"
    assert main(["--candidate", "easy", "--baseline", "random", "--deals", "1",
                 "--contracts", "queens", "--quiet", "--out", str(target)]) == 0  # fmt: skip
    assert "easy vs random" in target.read_text()
