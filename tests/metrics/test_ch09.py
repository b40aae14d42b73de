"""Chapter 09's parameter check and analysis steps on a small hand-made data box (issue 33)."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers.core.book.report import Provenance
from helpers.core.errors import InputError
from helpers.metrics import ch09


@pytest.fixture
def box(tmp_path, monkeypatch):
    """Three systems on two lines. MQM (lower is better) and the crowd protocol both put B first;
    BLEU puts A (a copy of the reference) first; the protocol puts C above A."""
    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / "cache"))
    ref = ["the cat sat on the mat", "a dog barked at night"]
    hyps = {"A": ref, "B": ["the cat sat on a mat", "a dog barked in the night"], "C": ["cat mat", "dog"]}
    texts = pd.DataFrame(
        [
            {"system": s, "segment": i + 1, "reference": r, "hypothesis": h}
            for s, lines in hyps.items()
            for i, (h, r) in enumerate(zip(lines, ref))
        ]
    )
    human = pd.DataFrame(
        {
            "system": ["A", "A", "B", "B", "C", "C"],
            "segment": [1, 2, 1, 2, 1, 2],
            "score": [2.0, 2.0, 0.0, 1.0, 5.0, 6.0],
        }
    )
    protocol = pd.DataFrame({"system": ["A", "B", "C", "X"], "score": [10.0, 30.0, 20.0, 99.0]})
    return ch09.Data(
        Provenance("own"),
        texts=texts,
        human=human,
        protocol=protocol,
        published=pd.DataFrame({"system": ["A"], "metric": ["bleu"], "score": [100.0]}),
    )


def test_protocol_ranks_by_hand(box):
    got = ch09.protocol_ranks(box).set_index("system")
    assert got.loc[["B", "A", "C"], "mqm"].tolist() == [0.5, 2.0, 5.5]
    assert got["mqm_rank"].to_dict() == {"B": 1, "A": 2, "C": 3}
    assert got["protocol_rank"].to_dict() == {"B": 1, "A": 3, "C": 2}
    assert got.loc["A", "bleu_rank"] == 1 and got.loc["A", "bleu"] == pytest.approx(100.0)
    assert got["rank_shift"].to_dict() == {"B": 0, "A": 1, "C": -1}


def test_reproduction_and_score_table(box):
    rep = ch09.reproduction(box)
    a = rep[(rep["system"] == "A") & (rep["metric"] == "bleu")].iloc[0]
    assert a["computed"] == pytest.approx(100.0) and a["difference"] == pytest.approx(0.0)
    table = ch09.metric_scores(box, ["bleu", "ter"])
    assert list(table.columns) == ["system", "segment", "metric", "score"]
    assert table["segment"].isna().sum() == 6 and table["segment"].notna().sum() == 12


def test_unrated_segments_get_no_segment_rows(box):
    rated_once = box.__class__(
        box.provenance,
        texts=box.texts,
        human=box.human[box.human["segment"] == 1],
        protocol=box.protocol,
        published=box.published,
    )
    table = ch09.metric_scores(rated_once, ["chrf"])
    assert table.loc[table["segment"].notna(), "segment"].unique().tolist() == [1]


@pytest.mark.parametrize(
    "kwargs, needle",
    [
        ({"testset": "wmt22"}, "parameter 'testset': value 'wmt22'"),
        ({"metrics": "bleu,comet"}, "parameter 'metrics': value 'comet'"),
        ({"reference": "ref.txt"}, "parameter 'hypotheses': is needed"),
        ({"n_boot": 5}, "parameter 'n_boot'"),
    ],
)
def test_setup_names_the_bad_parameter(kwargs, needle):
    with pytest.raises(InputError, match=needle):
        ch09.setup(**kwargs)


def test_system_rows_on_all_lines_or_only_the_rated_ones(box):
    """B's second line is rated 1 and differs from the reference; rated on line 1 only, B's
    system TER counts line 1's one edit over its 6 reference words."""
    one = box.__class__(
        box.provenance,
        texts=box.texts,
        human=box.human[box.human["segment"] == 1],
        protocol=box.protocol,
        published=box.published,
    )
    every = ch09.metric_scores(one, ["ter"], system_lines="all").set_index("system")
    rated = ch09.metric_scores(one, ["ter"], system_lines="rated").set_index("system")
    b_all = every.loc[every["segment"].isna()].loc["B", "score"]
    b_rated = rated.loc[rated["segment"].isna()].loc["B", "score"]
    assert b_rated == pytest.approx(100 * 1 / 6)
    assert b_all > b_rated
    with pytest.raises(InputError, match="parameter 'system_lines'"):
        ch09.metric_scores(one, ["ter"], system_lines="some")


def test_post_edit_rates_are_hter(tmp_path, monkeypatch):
    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / "cache"))
    frame = pd.DataFrame({"mt": ["a b x d", "e f"], "post_edit": ["a b c d", "e f"]})
    assert ch09.post_edit_rates(frame)["hter"].tolist() == pytest.approx([25.0, 0.0])
    zh = pd.DataFrame({"translation": ["甲乙丙丁"], "post_edit": ["甲乙戊丁"]})
    assert ch09.post_edit_rates(zh, mt="translation", target="zh")["hter"].item() == pytest.approx(25.0)


def test_edit_rate_agreement_by_hand_and_scipy():
    from scipy.stats import pearsonr

    frame = pd.DataFrame(
        {
            "hter": [0.0, 10.0, 20.0, 30.0, 40.0],
            "penalty": [0.0, 1.0, 3.0, 2.0, 4.0],
            "sentence": ["s1", "s1", "s2", "s2", "s3"],
        }
    )
    got = ch09.edit_rate_agreement(frame, n_boot=200, clusters="sentence").set_index("statistic")
    assert got.loc["rho", "estimate"] == pytest.approx(0.9)  # one swapped pair: 1 - 6*2/(5*24)
    assert got.loc["pearson", "estimate"] == pytest.approx(pearsonr(frame["hter"], frame["penalty"])[0])
    assert (got["ci_low"] <= got["estimate"]).all() and (got["estimate"] <= got["ci_high"]).all()
    assert got["n"].tolist() == [5, 5]


def test_missed_errors_by_hand():
    """Clean rows' HTER 10, 20, 30 (median 20); rows with errors 15, 25, 40, 20: two of four
    (15 and 20) are edited no more than the median clean row."""
    frame = pd.DataFrame({"hter": [10.0, 20.0, 30.0, 15.0, 25.0, 40.0, 20.0], "errors": [0, 0, 0, 1, 2, 1, 1]})
    got = ch09.missed_errors(frame, n_boot=200).set_index("statistic")
    assert got.loc["missed", "estimate"] == 0.5 and got.loc["missed", "n"] == 4
    # blind: clean rows at or below their own median, 10 and 20 of 10, 20, 30
    assert got.loc["blind", "estimate"] == pytest.approx(2 / 3) and got.loc["blind", "n"] == 3
    assert got.loc["missed_gap", "estimate"] == pytest.approx(0.5 - 2 / 3)
    assert got.loc["hter_error", "estimate"] == 25.0 and got.loc["hter_clean", "estimate"] == 20.0


def test_the_blind_baseline_is_not_one_half_when_edit_rates_tie():
    """Most clean translations untouched (HTER 0): the median is 0 and an edit rate blind to the
    errors would leave 4 of 5 clean rows, not one half, at or below it."""
    frame = pd.DataFrame(
        {"hter": [0.0, 0.0, 0.0, 0.0, 30.0, 0.0, 0.0, 0.0, 50.0, 60.0], "errors": [0, 0, 0, 0, 0, 1, 1, 1, 1, 1]}
    )
    got = ch09.missed_errors(frame, n_boot=200).set_index("statistic")
    assert got.loc["missed", "estimate"] == pytest.approx(3 / 5) and got.loc["blind", "estimate"] == pytest.approx(
        4 / 5
    )
    assert got.loc["missed_gap", "estimate"] == pytest.approx(3 / 5 - 4 / 5)


def test_own_files_in_the_wrong_script_get_a_warning_naming_the_file(tmp_path):
    """Issue 42: the Chinese source passed as the English reference was scored without a word."""
    ref, a, b = tmp_path / "ref.en", tmp_path / "a.en", tmp_path / "b.en"
    ref.write_text(
        "这是源文的第一句。\n这是第二句话了。\n第三句话在这里。\n", encoding="utf-8"
    )  # the source, not an English reference
    a.write_text("This is it.\nThe second.\nThe third.\n", encoding="utf-8")
    b.write_text("That is it.\nA second.\nA third.\n", encoding="utf-8")
    human = tmp_path / "human.csv"
    human.write_text("system,segment,score\na,1,1\na,2,0\na,3,2\nb,1,0\nb,2,5\nb,3,1\n", encoding="utf-8")
    s = ch09.setup(reference=ref, hypotheses={"a": a, "b": b}, human=human, language_pair="ZH→EN")
    with pytest.warns(UserWarning, match=r"ref\.en: 0% of its \d+ letters are in the Latin script of en"):
        s.load()
    ref.write_text("This is the source.\nSecond one.\nThird one.\n", encoding="utf-8")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s.load()  # English reference and outputs: no warning


def test_system_table_has_no_row_without_a_metric_score(box):
    """Issue 42: systems the experts rated but with no output here gave all-NA rows."""
    rated_only = pd.DataFrame({"system": ["ref-B", "ref-B"], "segment": [1, 2], "score": [0.5, 0.0]})
    box = ch09.Data(
        box.provenance,
        texts=box.texts,
        human=pd.concat([box.human, rated_only]),
        protocol=box.protocol,
        published=box.published,
    )
    scored = ch09.metric_scores(box, ["chrf"])
    table = ch09.system_table(box, scored)
    assert table["system"].tolist() == ["B", "A", "C"]  # by mean penalty 0.5, 2.0, 5.5; no ref-B
    assert table.drop(columns="system").notna().all().all()
    assert table.loc[table["system"] == "C", "human"].item() == pytest.approx(5.5)
