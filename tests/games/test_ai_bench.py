"""The computer players' benchmark (bench/computer.py): its rows, their targets, and a tiny run."""

from __future__ import annotations

import pytest

from bench.computer import MISSED, OK, Row, _deal, main
from games.base import Result


def row(level: str, credits: tuple[float, ...], lead: float, times: tuple[float, ...], players: int = 2) -> Row:
    return Row("kapado", players, "match", level, "easy", credits, lead, times)


def test_a_strong_row_meets_its_target_only_with_the_win_rate_the_lead_and_the_times():
    fast = (0.1, 0.15, 0.2, 0.9)
    assert row("strong", (1, 1, 1, 0), 2.0, fast).status == OK  # 75 % of 2 seats: 1.5 × fair
    assert row("strong", (1, 1, 0, 0), 2.0, fast).status == MISSED  # only the fair share
    assert row("strong", (1, 1, 1, 0), -1.0, fast).status == MISSED  # wins, but behind on points
    assert row("strong", (1, 1, 1, 0), 2.0, (*fast, 1.2)).status == MISSED  # one move over a second
    assert row("strong", (1, 1, 1, 0), 2.0, (0.3, 0.3, 0.1)).status == MISSED  # median over 200 ms
    assert row("expert", (1, 1, 0, 0.5), 0.0, (2.5,)).status == OK
    assert row("expert", (1, 0), 0.0, (0.5,)).status == MISSED
    assert row("expert", (1, 1, 1, 1), 0.0, (3.2,)).status == MISSED
    assert row("easy", (0, 0), -5.0, (0.0,)).status == "info"


def test_the_target_reads_the_lead_on_the_others_mean_and_the_lead_on_the_best_other_seat_is_printed_beside_it():
    from bench.computer import render

    fast = (0.1, 0.15, 0.2)
    ahead_of_the_mean = Row("mu", 4, "hand", "strong", "easy", (1, 1, 0, 0), 26.6, fast, -1.2)
    assert ahead_of_the_mean.status == OK
    assert Row("mu", 4, "hand", "strong", "easy", (1, 1, 0, 0), -0.5, fast, 3.0).status == MISSED
    line = render([ahead_of_the_mean]).splitlines()[2]
    assert line.split()[11:13] == ["26.6", "-1.2"]


class _Ended:
    """A game that has ended with the given scores (the best one wins)."""

    def __init__(self, scores: tuple[int, ...]) -> None:
        self.scores = scores

    def is_over(self, state: object) -> bool:
        return True

    def result(self, state: object) -> Result:
        return Result(self.scores, frozenset({self.scores.index(max(self.scores))}))


def test_a_deal_leads_by_its_points_over_the_other_seats_mean_and_over_the_best_of_them():
    deal = _deal(_Ended((30, 50, 10, -10)), None, "match", 0, (0.1,))  # type: ignore[arg-type]
    assert (deal.credit, deal.lead, deal.lead_on_best) == (0.0, pytest.approx(30 - 50 / 3), -20)


def test_a_row_reports_its_share_of_wins_as_a_multiple_of_the_fair_share_with_its_error():
    r = row("strong", (1, 0, 0.5, 1), 1.0, (0.1,), players=3)
    assert r.rate == pytest.approx(0.625)
    assert r.times_fair == pytest.approx(1.875)
    assert r.error == pytest.approx(0.2394, abs=1e-4)


def test_a_small_run_prints_a_row_per_pairing(capsys):
    assert main(["--games", "calcory", "--matches", "1", "--only", "strong,easy"]) == 0
    out = capsys.readouterr().out
    table = out[out.index("game "):]
    assert [line.split()[:5] for line in table.splitlines()[2:4]] == [
        ["calcory", "2", "match", "strong", "easy"], ["calcory", "2", "match", "easy", "random"]]
    with pytest.raises(SystemExit):
        main(["--only", "grandmaster"])


def test_kapado_tuning_pairs_each_variant_with_the_products_judgement_on_the_same_deals(capsys):
    """bench/kapado.py: the product's own weights as a variant replay the same deals move for move,
    so their paired difference is exactly nothing; a variant changes only the weights it names."""
    from bench.kapado import main as tune
    from bench.kapado import variant
    from games.kapado import BRAIN

    same = f"flips={BRAIN.judgement.flips}"
    assert tune(["--deals", "2", same, "horizon=1,deny=0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("product Judgement(") and "deals 0-1" in lines[0]
    assert lines[1].startswith(f"{same}: ") and "paired +0.0% ± 0.0%, lead +0.00" in lines[1]
    assert lines[2].startswith("horizon=1,deny=0: ")
    changed = variant("horizon=1,deny=0")
    assert (changed.horizon, changed.deny, changed.flips) == (1.0, 0.0, BRAIN.judgement.flips)
    with pytest.raises(SystemExit):
        tune(["--deals", "1", "horizn=2"])
