"""Chapter 1's module (:mod:`helpers.metahope.ch01`): its parameter check, and its findings
recomputed from hand-made result CSVs whose every number is known by hand, rendered by the
chapter's words file (every branch of a sentence)."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers.core.book.findings import Words
from helpers.core.errors import InputError
from helpers.core.statistics.stats import FEW_CLUSTERS
from helpers.metahope import ch01
from helpers.metahope.chapter_common import SHARED_WORDS


def _words() -> Words:
    return Words("01_metahope_pilot_v1", shared=SHARED_WORDS)


def _summary(n_items=6, counted=3, n_sentences=None, metahope=1, released=0, compare=0, first="A", second="B"):
    """A ``data_summary.csv`` as :func:`helpers.metahope.ch01.description` writes it."""
    rows = [
        ("n_items", n_items, ""),
        ("counted", counted, ""),
        ("n_sentences", n_sentences, ""),
        ("metahope", metahope, ""),
        ("systems", 2, "S1, S2"),
        ("annotators", 2, f"{first}, {second}"),
        ("first", None, first),
        ("second", None, second),
        ("penalty_annotator", None, first),
        ("released", released, ""),
        ("compare_published", compare, ""),
    ]
    return pd.DataFrame(rows, columns=["quantity", "value", "text"])


def _effect(rows):
    """``weighting_scheme_agreement.csv``: :func:`helpers.core.statistics.agreement.bootstrap_difference`, renamed as
    chapter 1 renames it."""
    return pd.DataFrame(
        rows,
        columns=[
            "system",
            "metric",
            "linear (MetaHOPE)",
            "exponential (HOPE)",
            "difference",
            "cluster_ci_low",
            "cluster_ci_high",
            "jackknife_ci_low",
            "jackknife_ci_high",
        ],
    )


def _save(folder, **tables):
    for name, frame in tables.items():
        frame.to_csv(folder / f"{name}.csv", index=False)


EFFECT = _effect(
    [
        ("S1", "alpha", 0.50, 0.30, 0.20, 0.15, 0.25, 0.05, 0.35),  # t interval above 0: linear
        ("S2", "alpha", 0.30, 0.50, -0.20, -0.25, -0.15, -0.35, -0.05),  # below 0: exponential
        ("S3", "alpha", 0.40, 0.39, 0.01, 0.001, 0.02, -0.10, 0.12),  # percentile excludes 0, t does not
        ("S1", "weighted_kappa", 0.6, 0.7, -0.10, -0.2, -0.05, -0.15, -0.02),
        ("S2", "weighted_kappa", 0.6, 0.6, 0.00, -0.1, 0.1, -0.2, 0.2),
    ]
)


def test_findings_are_recomputed_from_the_saved_tables(tmp_path):
    table1_ci = pd.DataFrame(
        {
            "system": ["S1", "S2", "S1"],
            "metric": ["alpha", "alpha", "pearson"],
            "estimate": [0.60, 0.45, 0.9],
            "ci_low": [0.50, 0.30, 0.0],
            "ci_high": [0.70, 0.60, 1.0],  # widths 0.20, 0.30
            "cluster_ci_low": [0.40, 0.20, 0.0],
            "cluster_ci_high": [0.80, 0.70, 1.0],  # 0.40, 0.50
            "jackknife_ci_low": [0.35, 0.10, 0.0],
            "jackknife_ci_high": [0.85, 0.80, 1.0],
        }
    )  # 0.50, 0.70
    bias = pd.DataFrame(
        {
            "system": ["S1", "S2"],
            "mean_A": [1.0, 2.0],
            "mean_B": [2.5, 2.0],
            "mean_difference": [1.5, 0.0],
            "share_B_higher": [50.0, 0.0],
            "share_A_higher": [0.0, 0.0],
            "p_value": [0.03, 1.0],
            "p_cluster_permutation": [0.01, 1.0],
        }
    )
    _save(
        tmp_path,
        data_summary=_summary(n_sentences=2),
        table1_bootstrap_ci=table1_ci,
        weighting_scheme_agreement=EFFECT,
        severity_bias=bias,
    )
    found = ch01.findings(tmp_path)
    assert not found.duplicated(["quantity", "group"]).any()
    q = found[found["group"] == ""].set_index("quantity")
    assert q.loc["n_items", "value"] == 6 and q.loc["counted", "value"] == 3 and q.loc["denominator", "value"] == 2
    assert q.loc["items", "text"] == "metaphors" and q.loc["clusters", "value"] == 3 and q.loc["few", "value"] == 1
    # the narrowest interval of each kind, the range over the systems beside it
    assert q.loc["item_width", ["value", "ci_low", "ci_high"]].tolist() == pytest.approx([0.2, 0.2, 0.3])
    assert q.loc["cluster_width", ["ci_low", "ci_high"]].tolist() == pytest.approx([0.4, 0.5])
    assert q.loc["t_width", ["ci_low", "ci_high"]].tolist() == pytest.approx([0.5, 0.7])
    assert q.loc["spread", "value"] == pytest.approx(0.15) and q.loc["cannot_rank", "value"] == 1  # 0.4 > 0.15
    assert q.loc["scheme_clear", "text"] == "S1, S2" and q.loc["kappa_clear", "value"] == 1
    assert q.loc["compared", "value"] == 0 and pd.isna(q.loc["reproduced", "value"])  # no paper beside own data
    assert pd.isna(q.loc["ratio", "value"])  # no sentence-level sheet: no ratio
    bias_rows = found[found["quantity"] == "bias"].set_index("group")
    assert bias_rows.loc["S1", ["value", "p"]].tolist() == [1.5, 0.01] and bias_rows.loc["S2", "p"] == 1.0
    systematic = found[found["quantity"] == "systematic"].set_index("group")["value"]
    assert systematic.to_dict() == {"S1": 1.0, "S2": 0.0}
    text = _words().text("findings", found)
    assert "The 6 metaphors come from 3 sentences" in text and "divides by" not in text
    assert "0.40 to 0.50 wide (percentile), 0.50 to 0.70 with the jackknife t" in text
    assert "cannot rank the systems by agreement" in text and "only for S1, S2 does the interval" in text
    assert (
        "S1: annotator B scored 50% of items higher and 0% lower than A (mean difference +1.50 points; "
        "sign flips of whole sentences p = 0.010, the Wilcoxon test that takes metaphors as independent "
        "p = 0.030): a systematic difference in severity." in text
    )
    assert "S2: annotator B scored 0% of items higher" in text and "no systematic difference" in text
    assert _words().text("data", found).startswith("**6 metaphor-related words** in **3 distinct source sentences**")
    _save(tmp_path, data_summary=_summary(metahope=0))  # an MQM file's segments
    segments = ch01.findings(tmp_path)
    assert _words().text("data", segments).startswith("**6 segments**")
    assert "not compared with them" in _words().text("not_compared", segments)
    assert _words().text("not_compared", found) == ""


def test_weighting_verdicts_read_the_t_interval_and_kappa_only_where_it_excludes_zero(tmp_path):
    _save(tmp_path, data_summary=_summary(), weighting_scheme_agreement=EFFECT)
    found = ch01.findings(tmp_path)
    verdicts = found[found["quantity"] == "difference"].set_index("group")["text"]
    assert verdicts.to_dict() == {"S1": "linear", "S2": "exponential", "S3": "neither"}  # keys; the words phrase them
    kappa = found[found["quantity"] == "kappa"]
    assert kappa["group"].tolist() == ["S1"] and kappa["text"].tolist() == ["exponential"]
    text = _words().text("weighting", found)
    assert (
        "**S1**: α 0.500 linear vs 0.300 exponential, difference +0.200 (jackknife t [+0.050, +0.350], "
        "percentile [+0.150, +0.250]): higher with linear weights (the interval excludes 0)" in text
    )
    assert "S3" in text and text.count("not distinguishable") == 1 and text.count("higher with") == 2
    assert "for S1, an interval that excludes 0 and favours the exponential weights" in text
    assert "Caveat" in text
    _save(tmp_path, weighting_scheme_agreement=EFFECT[EFFECT["metric"] == "alpha"])
    quiet = _words().text("weighting", ch01.findings(tmp_path))
    assert "κ" not in quiet.split("agreement (α on SEGS) is")[1] and "Caveat" not in quiet


def test_the_ratio_section_names_the_cells_where_the_metaphors_carry_more_points(tmp_path):
    # one system X; in PRF the metaphors carry 4 points against the sentences' 2
    cells = [("X", c, 0, 0, False) for c in ("IMP", "RAM", "MIS", "STL")] + [("X", "PRF", 4, 2, True)]
    ratios = pd.DataFrame(
        cells + [("X", "SEGS", 4, 6, False)], columns=["system", "category", "epm", "eps", "epm_exceeds_eps"]
    )
    ratios["ratio_m_s"] = ratios["epm"] / ratios["eps"].where(ratios["eps"] > 0)
    ratios = ratios.assign(
        ci_low=0.2,
        ci_high=1.5,
        jackknife_ci_low=0.1,
        jackknife_ci_high=1.9,
        n_sentences=2,
        sentences_penalised=2,
        sentences_metaphor_higher=1,
        sentences_sentence_higher=1,
    )
    _save(tmp_path, data_summary=_summary(), ratio_m_s_by_sentence=ratios)
    found = ch01.findings(tmp_path)
    said = _words().text("ratio", found)
    assert "X PRF: EPM 4 against EPS 2." in said
    assert "X: 0.667" in said and "on 1 of them the metaphors carry more than the sentence, on 1 fewer" in said
    assert "percentile [0.20, 1.50]" in said and "run from 0.10 to 1.90" in said
    assert "the paper:" not in said and "headline" not in said  # own data: no paper value beside it


def test_the_ratio_section_gives_each_sentences_cause_from_the_data(tmp_path):
    # issue 43: the page said an error "is entered once on every metaphor it is attached to", a cause the released
    # sheets never show; the cause of each sentence is read from ratio_m_s_excess.csv
    ratios = pd.DataFrame(
        [("X", "PRF", 4, 2, True), ("X", "RAM", 4, 0, True), ("X", "SEGS", 8, 6, True)],
        columns=["system", "category", "epm", "eps", "epm_exceeds_eps"],
    )
    ratios = ratios.assign(
        ratio_m_s=1.0,
        ci_low=0.2,
        ci_high=1.5,
        jackknife_ci_low=0.1,
        jackknife_ci_high=1.9,
        n_sentences=2,
        sentences_penalised=2,
        sentences_metaphor_higher=2,
        sentences_sentence_higher=0,
    )
    excess = pd.DataFrame(
        [
            ("X", "PRF", "She pledged.", 4, 2, 2, 1, "scored_higher"),
            ("X", "RAM", "Labour sought.", 4, 0, 4, 1, "sentence_unscored"),
        ],
        columns=["system", "category", "sentence", "epm", "eps", "excess", "metaphors_penalised", "cause"],
    )
    _save(tmp_path, data_summary=_summary(), ratio_m_s_by_sentence=ratios, ratio_m_s_excess=excess)
    said = _words().text("ratio", ch01.findings(tmp_path))
    assert "entered once on every metaphor" not in said
    assert (
        "X PRF, “She pledged.”: 4 points on the metaphors against 2 on the sentence, 1 metaphor(s) penalised: "
        "one metaphor carries them; the sentence sheet scores the sentence lower"
    ) in said
    assert "X RAM, “Labour sought.”: 4 points on the metaphors against 0 on the sentence" in said
    assert "no error is counted twice" in said
    several = excess.assign(metaphors_penalised=[2, 1], cause=["several_metaphors", "sentence_unscored"])
    _save(tmp_path, ratio_m_s_excess=several)
    said = _words().text("ratio", ch01.findings(tmp_path))
    assert "points on several of its metaphors" in said and "no error is counted twice" not in said


def test_the_released_run_is_compared_with_the_papers_tables(tmp_path):
    from helpers.core.formats.published import read_published

    table1 = read_published(ch01.STUDY, "table1_agreement").copy()
    for column in table1.columns[1:]:
        table1[column] = table1[column].str.rstrip("%").astype(float)
    table1.iloc[0, 1] += 1  # one cell off
    _save(tmp_path, data_summary=_summary(compare=1, released=1), table1_agreement=table1)
    found = ch01.findings(tmp_path)
    row = found[found["quantity"] == "reproduced"].set_index("group").loc["Table 1"]
    assert (row["value"], row["cells"]) == (table1.size - len(table1) - 1, table1.size - len(table1))
    assert row["differing"] == table1.columns[1]
    assert found.set_index("quantity").loc["compared", "value"] == 1


def test_setup_needs_two_annotators_who_differ_and_a_known_penalty_annotator(tmp_path, two_annotators):
    with pytest.raises(InputError, match=r"parameter 'annotator_files'.*at least 2 entries") as err:
        ch01.setup(annotator_files={"A": str(two_annotators["A"])})
    assert err.value.parameter == "annotator_files"
    with pytest.raises(InputError, match=r"parameter 'penalty_annotator': value 'C': is not among the annotators"):
        ch01.setup(annotator_files={k: str(v) for k, v in two_annotators.items()}, penalty_annotator="C")
    (tmp_path / "other").mkdir()
    copy = tmp_path / "other" / "A.xlsx"
    copy.write_bytes(two_annotators["A"].read_bytes())
    with pytest.raises(
        InputError,
        match=r"parameter 'annotator_files', .*other/A.xlsx: value 'A': student 'A' also "
        r"has the workbook A.xlsx",
    ):
        ch01.setup(annotator_files=[str(two_annotators["A"]), str(copy)])
    with pytest.raises(InputError, match=r"parameter 'annotator_files\[B\]'.*file not found"):
        ch01.setup(annotator_files={"A": str(two_annotators["A"]), "B": "nowhere.xlsx"})
    with pytest.raises(InputError, match=r"parameter 'n_boot': value 'many': must be a whole number"):
        ch01.setup(n_boot="many")
    setup = ch01.setup(
        annotator_files={k: str(v) for k, v in two_annotators.items()}, penalty_annotator="B", n_sentences=None
    )
    assert not setup.released and setup.sentence_file is None and setup.compare_published is False


def test_a_bad_header_is_found_by_the_check_with_the_parameter_named(tmp_path, two_annotators):
    from conftest import row, write_workbook

    headers = ["word_id", "sentence", "lemma", "wordcat"]
    bad = write_workbook(tmp_path / "bad.xlsx", [row("i1", "S.", "w", "N")[:4]], headers=headers)
    with pytest.raises(InputError) as err:
        ch01.setup(annotator_files={"A": str(two_annotators["A"]), "B": str(bad)})
    assert err.value.parameter == "annotator_files[B]" and err.value.cell == "C1" and err.value.value == "lemma"
    assert str(err.value).startswith("parameter 'annotator_files[B]', ")


def test_the_one_category_exercise_takes_a_row_the_run_has():
    table6 = pd.DataFrame(
        {"system": ["sysA", "sysA", "sysB"], "error": ["IMP", "RAM", "MIS"], "alpha": [float("nan"), 0.4, 0.2]}
    )
    assert ch01.one_category(table6, "sysB", "MIS") == ("sysB", "MIS")
    assert ch01.one_category(table6, "GPT-5.4", "MIS") == ("sysA", "RAM")  # the first row with an α
    assert ch01.one_category(table6.assign(alpha=float("nan")), "GPT-5.4", "MIS") == ("sysA", "IMP")


def test_every_section_renders_before_its_tables_are_saved(tmp_path):
    # the page says its sections as the run saves its tables: each finds all its quantities, not yet applicable
    found = ch01.findings(tmp_path)
    for section in ("data", "not_compared", "sentence_count", "ratio", "few_clusters", "weighting", "findings"):
        assert "NA" not in _words().text(section, found)


def test_nothing_is_stated_without_result_files(tmp_path):
    """An empty folder: every quantity is there (so the words can name it) and none applies, not even
    the count of published tables compared (0) or the few-clusters threshold and unit names."""
    found = ch01.findings(tmp_path).set_index(["quantity", "group"])
    assert {"compared", "few_clusters", "unit", "items", "clusters"} <= set(found.index.get_level_values(0))
    assert found["value"].isna().all() and (found["text"] == "").all()
    # with this run's data summary (own data, not compared), "no table compared" is stated
    _save(tmp_path, data_summary=_summary())
    found = ch01.findings(tmp_path).set_index("quantity")
    assert found.loc["compared", "value"] == 0 and found.loc["few_clusters", "value"] == FEW_CLUSTERS
    assert found.loc["unit", "text"] == "sentences"


def test_a_table_without_the_data_summary_naming_its_annotators_states_nothing(tmp_path):
    """The severity bias is read by the annotators' names, which the data summary gives: without it,
    the bias is not applicable rather than a crash."""
    bias = pd.DataFrame(
        {
            "system": ["S1"],
            "mean_A": [1.0],
            "mean_B": [2.5],
            "mean_difference": [1.5],
            "share_B_higher": [50.0],
            "share_A_higher": [0.0],
            "p_value": [0.03],
            "p_cluster_permutation": [0.01],
        }
    )
    _save(tmp_path, severity_bias=bias)
    found = ch01.findings(tmp_path).set_index("quantity")
    assert found.loc[["bias", "systematic", "first_higher", "second_higher", "wilcoxon"], "value"].isna().all()
    _save(tmp_path, data_summary=_summary())
    found = ch01.findings(tmp_path).set_index(["quantity", "group"])
    assert found.loc[("bias", "S1"), ["value", "p"]].tolist() == [1.5, 0.01]
    assert found.loc[("second_higher", "S1"), "value"] == 50.0


def test_a_weighting_table_without_sentence_intervals_reads_its_one_percentile_interval(tmp_path):
    """Without sentences to resample, ``weighting_scheme_agreement.csv`` has only the item
    percentile interval (``ci_low``, ``ci_high``; no cluster or jackknife columns): the verdict
    reads it, and the percentile interval "beside it" does not apply (it would be the same one)."""
    effect = pd.DataFrame(
        {
            "system": ["S1", "S2"],
            "metric": "alpha",
            "linear (MetaHOPE)": [0.5, 0.4],
            "exponential (HOPE)": [0.3, 0.39],
            "difference": [0.2, 0.01],
            "ci_low": [0.1, -0.05],
            "ci_high": [0.3, 0.07],
        }
    )
    _save(tmp_path, data_summary=_summary(), weighting_scheme_agreement=effect)
    found = ch01.findings(tmp_path).set_index(["quantity", "group"])
    assert found.loc[("difference", "S1"), ["value", "ci_low", "ci_high", "text", "interval"]].tolist() == [
        0.2,
        0.1,
        0.3,
        "linear",
        "percentile",
    ]  # 0.1 > 0
    assert found.loc[("difference", "S2"), "text"] == "neither"  # -0.05 < 0 < 0.07
    assert found.loc[("scheme_difference", "S1"), ["value", "ci_low", "ci_high"]].tolist() == [0.2, 0.1, 0.3]
    for quantity in ("percentile", "scheme_percentile"):
        assert found.loc[[(quantity, "S1"), (quantity, "S2")], ["value", "ci_low", "ci_high"]].isna().all().all()
    frame = found.reset_index()
    assert (
        "**S1**: α 0.500 linear vs 0.300 exponential, difference +0.200 (percentile [+0.100, +0.300]): "
        "higher with linear weights" in _words().text("weighting", frame)
    )
    closing = _words().text("findings", frame)  # the list of differences names the one interval there is
    assert "- S1: +0.200 (percentile [+0.100, +0.300]).\n  - S2: +0.010 (percentile [-0.050, +0.070])." in closing
