"""The statistics of chapter 08 (:mod:`helpers.wmt.analysis`) on hand-computed cases and on the
mirrored files: the published tables reproduced, the Major:Minor ratio, the README tables chosen by
file name, the certainty verdict, the ratio curve, the weighting comparison and the ESA ranking.
Their pinned cases follow them."""

from __future__ import annotations

import math

import krippendorff
import numpy as np
import pandas as pd
import pytest

from helpers.core import paths
from helpers.core.statistics.schemes import load_scheme
from helpers.wmt import analysis, categories_and_spans, readme_tables, systems
from helpers.wmt import analysis as wa


def test_published_tables_reproduced_up_to_the_one_known_mismatch():
    """The README values (data/published/wmt_mqm, entered by hand) against the mirrored files:
    3 decimals then half-up gives all but TED Borderline; tests/core/test_mqm_published.py checks the
    same values independently of helpers.wmt."""
    files = {rel: paths.released_file(readme_tables.REPO, rel) for _, rel, _ in readme_tables.TABLES.values()}
    table = readme_tables.reproduce(files)
    assert len(table) == 34
    rule = "match: 3 decimals, then half-up"
    off = table[~table[rule]]
    assert off[["table", "system", "published"]].values.tolist() == [["TED ZH→EN", "Borderline", "2.40"]]
    assert off["recomputed"].iloc[0] == pytest.approx(2.40529, abs=5e-6)
    # rounding once misses the three newstest2021 values whose 3-decimal value ends in 5
    once = table[~table["match: half-up once"]]
    assert sorted(once["system"]) == ["Borderline", "Borderline", "Facebook-AI", "IIE-MT"]
    assert (table["difference"].abs() < 0.006).all()


def test_weight_sweep_places_the_schemes_at_their_major_to_minor_ratio():
    from helpers.core.statistics.schemes import load_scheme

    assert analysis.major_to_minor(load_scheme("hope")) == 4
    assert analysis.major_to_minor(load_scheme("metahope")) == 3
    assert analysis.major_to_minor(load_scheme("mqm")) == 5
    assert analysis.major_weight_scheme(7).weight_of("Major", "Accuracy/Mistranslation") == 7
    assert analysis.major_weight_scheme(7).weight_of("Minor", "Fluency/Punctuation") == 0.1


def test_language_pair_is_read_from_google_and_wmt_file_names():
    assert readme_tables.language_pair("ted/zhen/mqm_ted_zhen.tsv") == ("zh", "en")
    assert readme_tables.language_pair("generalMT2023/ende/mqm_generalMT2023_ende.3ratingsPerSegment.tsv.tar.gz") == (
        "en",
        "de",
    )
    assert readme_tables.language_pair("runs/en-de/batch_1.tsv") == ("en", "de")  # a folder of its own
    assert readme_tables.language_pair("my_ratings.tsv") is None
    assert readme_tables.pair_names(("en", "de")) == ("English→German", "EN→DE")


def test_a_readme_table_is_chosen_by_the_file_name_whatever_the_pair(tmp_path):
    """A file named like the README's TED EN→DE file is compared with that table: Online-W made to
    score 1.12 by hand (5 Minor + 6 Minor punctuation on the first of 5 segments: 5.6 / 5), ref to 0,
    and the table's other systems, absent from the file, recomputed as missing, matched by no rule."""
    header = "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\n"
    rows = []
    for seg in range(1, 6):
        rows.append(f"ref\ttalk\t{seg}\t{seg}\tr1\ts\tt\tNo-error\tNo-error\n")
        if seg == 1:
            rows += ["Online-W\ttalk\t1\t1\tr1\ts\tt\tStyle/Awkward\tMinor\n"] * 5
            rows += ["Online-W\ttalk\t1\t1\tr1\ts\tt\tFluency/Punctuation\tMinor\n"] * 6
        else:
            rows.append(f"Online-W\ttalk\t{seg}\t{seg}\tr1\ts\tt\tNo-error\tNo-error\n")
    path = tmp_path / "mqm_ted_ende.tsv"
    path.write_text(header + "".join(rows), encoding="utf-8")
    tables = readme_tables.tables_for(path, tmp_path / "other.tsv")
    assert list(tables) == ["TED EN→DE"]
    assert readme_tables.tables_for(tmp_path / "mqm_generalMT2023_ende.tsv") == {}
    table = readme_tables.reproduce({path: path}, tables).set_index("system")
    assert len(table) == 14 and set(table["table"]) == {"TED EN→DE"}
    assert table.loc["Online-W", "recomputed"] == pytest.approx(1.12)
    assert table.loc["Online-W", "match: 3 decimals, then half-up"]
    assert table.loc["ref.A", "recomputed"] == 0 and not table.loc["ref.A", "match: 3 decimals, then half-up"]
    assert table.drop(["Online-W", "ref.A"])["recomputed"].isna().all()


def test_the_certainty_verdict_follows_the_coverage_of_a_segment_interval():
    """A 95% interval from segments covers 2Φ(1.96 / ratio) − 1 when documents are the unit
    (Φ via math.erf here): 1.08 (the trial's median) gives 93%, above the 90% floor."""
    import math

    cover = lambda r: math.erf(1.959964 / r / math.sqrt(2))  # 2Φ(x) − 1 = erf(x / √2)
    v = systems.certainty_verdict(pd.Series([0.74, 1.08, 1.36]))
    assert v.verdict == "about right" and v.coverage == pytest.approx(cover(1.08), abs=1e-6)
    assert v.median == 1.08 and (v.low, v.high) == (0.74, 1.36) and v.pairs_below == 1  # 1.36: 85%
    assert systems.certainty_verdict(pd.Series([1.3, 1.5, 2.0])).verdict == "overstated"
    assert systems.certainty_verdict(pd.Series([0.8, 0.9])).verdict == "understated"


def test_every_readme_table_is_entered_as_printed():
    """data/published/wmt_mqm has every README table whose file the README names, in both
    language pairs, cell for cell as the mirrored README prints it (parsed here from its
    Markdown: ``## newstest2021`` / ``### English to German`` / ``| system | score(rank) |``)."""
    import re

    from helpers.core.formats import published

    readme = paths.released_file(readme_tables.REPO, "README.md").read_text(encoding="utf-8")
    heads = {"TED": "TED talks", "newstest2020": "newstest2020", "newstest2021": "newstest2021"}
    pairs = {"ZH→EN": "Chinese to English", "EN→DE": "English to German"}
    assert len(readme_tables.README_TABLES) == 6
    for table, (csv, file_name) in readme_tables.README_TABLES.items():
        head, pair = table.split(" ")
        section = readme.split(f"## {heads[head]} ##", 1)[1].split("\n## ", 1)[0]
        block = section.split(f"### {pairs[pair]} ###", 1)[1].split("###", 1)[0]
        printed = re.findall(r"^\| (\S+) \| ([0-9.]+)\(\d+\) \|", block, re.M)
        entered = published.read_published("wmt_mqm", csv)
        assert list(zip(entered["system"], entered["score"])) == printed, table
        assert readme_tables.language_pair(file_name) == tuple(pair.lower().split("→"))


def test_the_smallest_possible_p_follows_how_the_test_was_run():
    """Enumerated (2^g <= trials): 2^-g; drawn trials: 1/(trials + 1), whatever g (15 documents
    with 10,000 trials cannot give 2^-15)."""
    from helpers.wmt.systems import smallest_possible_p

    assert smallest_possible_p(5, 10_000) == 1 / 32 and smallest_possible_p(13, 10_000) == 2.0**-13
    assert smallest_possible_p(15, 10_000) == 1 / 10_001 and smallest_possible_p(15, 2**15) == 2.0**-15


@pytest.mark.parametrize(
    "alphas, direction, rho",
    [
        # ties in α ranked 2.5: ρ = Pearson((1, 2, 3, 4), (1, 2.5, 2.5, 4)) = 4.5 / √(5 · 4.5) = 3 / √10
        ({1: 0.1, 2: 0.2, 3: 0.2, 4: 0.4}, "rises", 3 / math.sqrt(10)),
        ({10: 0.3, 1: 0.5, 5: 0.4}, "falls", -1.0),  # given out of order: sorted by the ratio first
        ({1: 0.3, 2: 0.3, 3: 0.3}, "flat", math.nan),  # constant α: ρ undefined
        ({1: 0.3, 2: 0.5, 3: 0.4}, "mixed", 0.5),  # ranks (1, 3, 2): ρ = 1 − 6 · 2 / (3 · 8) = 0.5
    ],
)
def test_ratio_curve_reads_the_direction_of_alpha_over_the_swept_ratios_only(alphas, direction, rho, ratio_table):
    row = analysis.ratio_curve(ratio_table(alphas)).iloc[0]
    assert row["direction"] == direction
    assert row["n_ratios"] == len(alphas)
    assert math.isnan(row["rho"]) if math.isnan(rho) else row["rho"] == pytest.approx(rho)
    low, high = min(alphas), max(alphas)
    assert (row["ratio_low"], row["alpha_low"], row["ratio_high"], row["alpha_high"]) == (
        low,
        alphas[low],
        high,
        alphas[high],
    )


def test_scheme_weights_and_rankings_on_a_hand_computed_case(hand_mqm):
    frame = hand_mqm
    weights = analysis.scheme_weights(frame).set_index(["category", "severity"])
    assert len(weights) == 3  # No-error rows are weighed by no scheme and left out
    assert weights.loc[("Source error", "Major"), ["n", "weight_mqm", "weight_marot"]].tolist() == [1, 5, 0]
    assert weights.loc[("Style/Awkward", "Minor"), "n"] == 2
    assert weights["differs"].sum() == 1
    assert bool(weights.loc[("Source error", "Major"), "differs"])
    ranked = analysis.scheme_rankings(frame).set_index("system")
    assert ranked.loc["A", "score_mqm"] == pytest.approx(3.0) and ranked.loc["B", "score_mqm"] == pytest.approx(1.0)
    assert ranked.loc["A", "score_marot"] == pytest.approx(0.5) and ranked.loc["B", "score_marot"] == pytest.approx(1.0)
    assert ranked["rank_mqm"].to_dict() == {"B": 1, "A": 2} and ranked["rank_marot"].to_dict() == {"B": 2, "A": 1}
    assert ranked["shift_marot"].to_dict() == {"B": 1, "A": -1}
    # the 2022+ "Source issue" is 0 under both; the old rule weighed it by severity
    assert analysis.source_by_severity_scheme().weight_of("Major", "Source issue") == 5
    assert [getattr(s, "name", s) for s in analysis.compared_schemes(frame)] == ["mqm", "marot"]
    issue = frame.assign(category=frame["category"].replace("Source error", "Source issue"))
    assert [getattr(s, "name", s) for s in analysis.compared_schemes(issue)] == [
        "mqm",
        "marot",
        "mqm-source-by-severity",
    ]


def test_esa_ranking_sets_the_human_ranks_beside_the_automatic_ones(hand_esa):
    """Humans: refA 80, X 75, Y 35. The automatic ranking (lower is better) puts Y (1.5) above
    X (2.0) and has no refA: among the two systems both rank, human X 1, Y 2, automatic Y 1,
    X 2, so X's shift is +1 (placed lower), Y's -1, and Kendall τ over two reversed systems is -1."""
    autorank = pd.DataFrame({"lp": ["en-cs", "en-cs"], "system": ["X", "Y"], "autorank": [2.0, 1.5]})
    ranking = systems.esa_ranking(hand_esa, autorank).set_index("system")
    assert list(ranking.index) == ["refA", "X", "Y"]
    assert ranking["score_by_domain"].tolist() == [80.0, 75.0, 35.0]
    assert ranking["kind"].to_dict() == {"refA": "human", "X": "submission", "Y": "submission"}
    assert ranking.loc["X", ["human_rank", "auto_rank", "rank_shift"]].tolist() == [1, 2, 1]
    assert ranking.loc["Y", ["human_rank", "auto_rank", "rank_shift"]].tolist() == [2, 1, -1]
    assert pd.isna(ranking.loc["refA", "auto_rank"])
    assert list(systems.esa_ranking(hand_esa, autorank).columns) == systems.ESA_RANKING_COLUMNS
    assert [systems.system_kind(s) for s in ("Aya23", "Llama3-70B", "ONLINE-W", "CUNI-MH", "refB")] == [
        "LLM",
        "LLM",
        "online",
        "submission",
        "human",
    ]


def frame(rows) -> pd.DataFrame:
    """rows: (system, doc, seg, rater, category, severity[, target_start, target_end])."""
    full = [tuple(r) + (None, None)[: 8 - len(r)] for r in rows]
    out = pd.DataFrame(
        full, columns=["system", "doc", "doc_seg_id", "rater", "category", "severity", "target_start", "target_end"]
    )
    for c in ("target_start", "target_end"):
        out[c] = out[c].astype("Int64")
    out["source_start"] = out["source_end"] = pd.array([pd.NA] * len(out), dtype="Int64")
    out["global_seg_id"] = pd.array([pd.NA] * len(out), dtype="Int64")
    out["line"] = range(2, len(out) + 2)
    return out


# systems A, B; doc d1 segments 1, 2 and doc d2 segment 1; raters r1, r2 everywhere; C only on d1/1
ROWS = [
    ("A", "d1", 1, "r1", "Accuracy/Mistranslation", "Major", 0, 3),  # 5
    ("A", "d1", 1, "r2", "Accuracy/Omission", "Minor", 1, 3),  # 1
    ("A", "d1", 2, "r1", "No-error", "No-error"),
    ("A", "d1", 2, "r2", "Fluency/Punctuation", "Minor"),  # 0.1, no span
    ("A", "d2", 1, "r1", "Fluency/Grammar", "Minor", 4, 6),  # 1
    ("A", "d2", 1, "r2", "Found", "HOTW-test"),  # rated, 0
    ("B", "d1", 1, "r1", "Non-translation!", "Major"),  # 25
    ("B", "d1", 1, "r2", "Accuracy/Mistranslation", "Major", 2, 5),  # 5
    ("B", "d1", 2, "r1", "Source error", "Minor"),  # 1 (Source issue, the 2022+ name, weighs 0)
    ("B", "d1", 2, "r2", "No-error", "No-error"),
    ("B", "d2", 1, "r1", "Style/Awkward", "Minor"),  # 1
    ("B", "d2", 1, "r2", "Style/Awkward", "Major"),  # 5
    ("C", "d1", 1, "r1", "Style/Awkward", "Minor"),  # 1 (C has one segment only)
]


def test_major_weight_scheme_is_the_mqm_table_with_one_weight_changed():
    s = wa.major_weight_scheme(7)
    assert [(r.name, r.pattern, r.weight) for r in s.rules] == [
        ("Non-trans", "non.translation", 25),
        ("Neutral", "^neutral:", 0),
        ("Source issue", ":source issue", 0),
        ("Creative", ":.*reinterpretation", 0),
        ("Punct", "^minor:fluency/punctuation", 0.1),
        ("Minor", "^minor:", 1),
        ("Major", "^major:", 7),
        ("Critical", "^critical:", 5),
    ]
    assert (s.name, s.title) == ("mqm-major-7", "MQM, Major = 7")
    assert s.citation == load_scheme("mqm").citation and s.source == "schemes/mqm.yml"
    assert wa.major_weight_scheme(2.5).name == "mqm-major-2.5"
    assert [wa.major_to_minor(load_scheme(n)) for n in ("mqm", "marot", "hope", "metahope")] == [5, 5, 4, 3]
    assert wa.major_to_minor(wa.major_weight_scheme(7)) == 7


def test_top_level_categories():
    got = categories_and_spans.top_level(
        pd.Series(
            [
                "Accuracy/Mistranslation",
                "Non-translation!",
                "Source issue",
                "Source error",
                " Style / Awkward",
                "Other",
                "source/x",
            ]
        )
    )
    assert got.tolist() == ["Accuracy", "Non-translation", "Source", "Source", "Style", "Other", "Source"]


def test_segment_matrix_and_rankings_on_the_common_segments():
    matrix = wa.segment_matrix(frame(ROWS), "mqm")
    wide, docs = matrix.wide, matrix.docs
    # only d1/1 is scored for A, B and C: A (5 + 1)/2 = 3, B (25 + 5)/2 = 15, C 1
    assert wide.index.tolist() == [("d1", 1)] and docs.tolist() == ["d1"]
    assert wide.loc[("d1", 1)].to_dict() == {"A": 3.0, "B": 15.0, "C": 1.0}
    ab = frame([r for r in ROWS if r[0] != "C"])
    matrix = wa.segment_matrix(ab, "mqm")
    wide, docs = matrix.wide, matrix.docs
    assert docs.tolist() == ["d1", "d1", "d2"]
    assert wide["A"].tolist() == [3.0, 0.05, 0.5] and wide["B"].tolist() == [15.0, 0.5, 3.0]
    r = wa.rankings(ab, ["mqm", "hope", wa.major_weight_scheme(1)])
    assert list(r.columns) == ["system", "mqm", "hope", "mqm-major-1"]
    assert r.values.tolist() == [["A", 1, 1, 1], ["B", 2, 2, 2]]


def test_category_presence_by_hand():
    p = categories_and_spans.category_presence(frame(ROWS))
    assert sorted(p["category"].unique()) == ["Accuracy", "Fluency", "Non-translation", "Source", "Style"]
    # 12 ratings x 5 categories (A d2/1 r2 has only a HOTW row: not a rating here)
    assert len(p) == 12 * 5
    got = p[p["present"] == 1].sort_values(["unit", "rater", "category"])[["unit", "rater", "category"]]
    assert got.values.tolist() == [
        ["A | d1 | 1", "r1", "Accuracy"],
        ["A | d1 | 1", "r2", "Accuracy"],
        ["A | d1 | 2", "r2", "Fluency"],
        ["A | d2 | 1", "r1", "Fluency"],
        ["B | d1 | 1", "r1", "Non-translation"],
        ["B | d1 | 1", "r2", "Accuracy"],
        ["B | d1 | 2", "r1", "Source"],
        ["B | d2 | 1", "r1", "Style"],
        ["B | d2 | 1", "r2", "Style"],
        ["C | d1 | 1", "r1", "Style"],
    ]
    assert list(p.columns) == ["unit", "doc", "rater", "category", "present"]
    assert p.loc[p["unit"] == "B | d2 | 1", "doc"].unique().tolist() == ["d2"]


def test_presence_agreement_by_hand():
    presence = categories_and_spans.category_presence(frame([r for r in ROWS if r[0] != "C"]))
    out = categories_and_spans.presence_agreement(presence).set_index("category")
    # Style: units B d2/1 both mark it (1, 1); the other four two-rater units neither: 5 units, all agree
    assert out.loc["Style", "n_units"] == 5 and out.loc["Style", "exact_agreement"] == 100.0
    assert out.loc["Style", "marked_percent"] == pytest.approx(20.0)
    # Accuracy: A d1/1 (1, 1), B d1/1 (0, 1), others (0, 0): α from the krippendorff package
    data = np.array([[1, 0, 0, 0, 0], [1, 1, 0, 0, 0]], dtype=float)
    assert out.loc["Accuracy", "nominal_alpha"] == pytest.approx(
        krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    )
    assert out.loc["Accuracy", "marked_percent"] == pytest.approx(30.0)
    assert out.loc["Accuracy", "exact_agreement"] == pytest.approx(80.0)
    # of the 10 ratings of two-rater units: Accuracy 3, Style 2, Fluency, Non-translation, Source 1 each
    assert out["marked_percent"].to_dict() == pytest.approx(
        {"Accuracy": 30.0, "Style": 20.0, "Fluency": 10.0, "Non-translation": 10.0, "Source": 10.0}
    )
    assert out.index.tolist()[:2] == ["Accuracy", "Style"] and (out["n_raters"] == 2).all()


def test_error_spans_by_hand():
    s = categories_and_spans.error_spans(frame(ROWS))
    assert s[
        ["system", "doc", "doc_seg_id", "rater", "side", "start", "end", "category", "severity"]
    ].values.tolist() == [
        ["A", "d1", 1, "r1", "target", 0, 3, "Accuracy", "Major"],
        ["A", "d1", 1, "r2", "target", 1, 3, "Accuracy", "Minor"],
        ["A", "d2", 1, "r1", "target", 4, 6, "Fluency", "Minor"],
        ["B", "d1", 1, "r2", "target", 2, 5, "Accuracy", "Major"],
    ]
    assert categories_and_spans.span_coverage(frame(ROWS)).to_dict("records") == [{"errors": 10, "without_span": 6}]


def test_category_penalties_by_hand():
    p = categories_and_spans.category_penalties(frame([r for r in ROWS if r[0] != "C"])).set_index(
        ["system", "category"]
    )
    # A has 5 ratings (its HOTW-only rating of d2/1 is not one here, unlike in scoring.rater_scores):
    # Accuracy 5 + 1, Fluency 0.1 + 1; B has 6: Non-translation 25, Accuracy 5, Source 1, Style 1 + 5
    assert p["penalty"].to_dict() == pytest.approx(
        {
            ("A", "Accuracy"): 6 / 5,
            ("A", "Fluency"): 1.1 / 5,
            ("B", "Accuracy"): 5 / 6,
            ("B", "Non-translation"): 25 / 6,
            ("B", "Source"): 1 / 6,
            ("B", "Style"): 1.0,
        }
    )
    assert p["count"].to_dict() == {
        ("A", "Accuracy"): 2,
        ("A", "Fluency"): 2,
        ("B", "Accuracy"): 1,
        ("B", "Non-translation"): 1,
        ("B", "Source"): 1,
        ("B", "Style"): 2,
    }


def test_major_weight_agreement_is_the_krippendorff_alpha_of_each_weighting():
    ab = frame([r for r in ROWS if r[0] != "C"])
    out = wa.major_weight_agreement(ab, major_weights=[1, 5], schemes=("hope",))
    assert out[["scheme", "major_to_minor"]].values.tolist() == [
        ["mqm-major-1", 1.0],
        ["mqm-major-5", 5.0],
        ["hope", 4.0],
    ]
    # units (A, B x d1/1, d1/2, d2/1), raters r1, r2; Major = 5
    r1 = [5, 0, 1, 25, 1, 1]
    r2 = [1, 0.1, 0, 5, 0, 5]
    alpha = krippendorff.alpha(reliability_data=np.array([r1, r2]), level_of_measurement="interval")
    assert out.loc[1, "alpha"] == pytest.approx(alpha, abs=1e-12)


def test_icc_by_documents_estimate_is_the_anova_formula():
    ab = frame([r for r in ROWS if r[0] != "C"])
    out = wa.icc_by_documents(ab)
    x = np.array([[5, 1], [0, 0.1], [1, 0], [25, 5], [1, 0], [1, 5]], dtype=float)
    n, k = x.shape
    msb = k * ((x.mean(axis=1) - x.mean()) ** 2).sum() / (n - 1)
    msw = ((x - x.mean(axis=1, keepdims=True)) ** 2).sum() / (n * (k - 1))
    row = out.set_index("statistic").loc["ICC(1,1)"]
    assert row["estimate"] == pytest.approx((msb - msw) / (msb + (k - 1) * msw), abs=1e-12)
    assert (out["raters_per_unit"] == 2).all()


def test_certainty_overstatement_of_one_document_is_zero():
    wide = pd.DataFrame({"A": [1.0, 2.0, 4.0], "B": [0.0, 2.0, 1.0], "C": [3.0, 3.0, 3.0]})
    out = systems.certainty_overstatement(wide, ["d", "d", "d"], n_boot=200, seed=1)
    assert out[["system_a", "system_b"]].values.tolist() == [["A", "B"], ["A", "C"], ["B", "C"]]
    # resampling the one document always draws all three segments: no spread at all
    assert out["se_documents"].tolist() == pytest.approx([0, 0, 0], abs=1e-12)
    assert (out["se_segments"] > 0).all() and out["ratio"].tolist() == pytest.approx([0, 0, 0], abs=1e-12)


# --------------------------------------------------------------------------- system tests, exact enumeration

# six segments in three documents (two each); columns not in the order of the means (A < B < C)
SYS = pd.DataFrame({"C": [2.0, 1, 1, 1, 1, 1], "A": [0.0, 0, 0, 0, 0, 0], "B": [1.0, 1, 1, 1, 1, 1]})


SYS_DOCS = ["d1", "d1", "d2", "d2", "d3", "d3"]


def test_system_tests_by_exact_enumeration():
    # 2^6 = 64 <= n_trials swap patterns of the six segments and 2^3 = 8 of the three documents: both exact.
    # B − A = 1 everywhere: only the all-unswapped pattern reaches 1, p = 1/64 (documents: units 2, 2, 2, 1/8);
    # C − A = 2, 1, 1, 1, 1, 1 (sum 7): any swap drops the sum to 5 or less, 1/64 (documents 3, 2, 2: 1/8);
    # C − B = 1, 0, 0, 0, 0, 0: reached whenever the first unit is unswapped, 32/64 (documents 1, 0, 0: 4/8)
    tested = systems.system_tests(SYS, SYS_DOCS, n_trials=100, seed=5, alpha=0.15)
    pairs, ranks = tested.pairs, tested.clusters
    assert list(pairs.columns) == [
        "system_a",
        "system_b",
        "n_items",
        "n_documents",
        "mean_a",
        "mean_b",
        "difference",
        "p_segments",
        "p_segments_holm",
        "p_documents",
        "p_documents_holm",
    ]
    assert pairs[["system_a", "system_b", "n_items", "n_documents"]].values.tolist() == [
        ["A", "B", 6, 3],
        ["A", "C", 6, 3],
        ["B", "C", 6, 3],
    ]
    assert pairs["mean_a"].tolist() == pytest.approx([0, 0, 1]) and pairs["mean_b"].tolist() == pytest.approx(
        [1, 7 / 6, 7 / 6]
    )
    assert pairs["difference"].tolist() == pytest.approx([1, 7 / 6, 1 / 6])
    assert pairs["p_segments"].tolist() == pytest.approx([1 / 64, 1 / 64, 1 / 2])
    # Holm: 3 · 1/64, max(2 · 1/64, 3/64), max(1 · 1/2, 3/64)
    assert pairs["p_segments_holm"].tolist() == pytest.approx([3 / 64, 3 / 64, 1 / 2])
    assert pairs["p_documents"].tolist() == pytest.approx([1 / 8, 1 / 8, 1 / 2])
    assert pairs["p_documents_holm"].tolist() == pytest.approx([3 / 8, 3 / 8, 1 / 2])
    assert list(ranks.columns) == [
        "system",
        "score",
        "rank_segments",
        "rank_segments_holm",
        "rank_documents",
        "rank_documents_holm",
    ]
    assert ranks["system"].tolist() == ["A", "B", "C"] and ranks["score"].tolist() == pytest.approx([0, 1, 7 / 6])
    # alpha 0.15: B is worse than A on every p but the documents' Holm 3/8; C is never worse than B (p 1/2)
    assert ranks.iloc[:, 2:].values.tolist() == [[1, 1, 1, 1], [2, 2, 2, 1], [2, 2, 2, 1]]
    ranks = systems.system_tests(SYS, SYS_DOCS, n_trials=100, alpha=0.03).clusters  # only 1/64 is below 0.03
    assert ranks.iloc[:, 2:].values.tolist() == [[1, 1, 1, 1], [2, 1, 1, 1], [2, 1, 1, 1]]
    ranks = systems.system_tests(SYS, SYS_DOCS, n_trials=100).clusters  # alpha 0.05: 1/64 and 3/64 are below it
    assert ranks.iloc[:, 2:].values.tolist() == [[1, 1, 1, 1], [2, 2, 1, 1], [2, 2, 1, 1]]


def test_system_tests_monte_carlo_counts_the_seeded_swaps():
    # n_trials = 7 < 2^3: both levels draw swaps, T × units of fair ±1 from numpy's default_rng(seed),
    # p = (trials reaching the observed difference + 1) / (T + 1) (Marot's runPAR)
    T, seed = 7, 11
    pairs = systems.system_tests(SYS, SYS_DOCS, n_trials=T, seed=seed, alpha=0.05).pairs
    for level, units in (("segments", 6), ("documents", 3)):
        signs = np.random.default_rng(seed).integers(0, 2, size=(T, units), dtype=np.int8).astype(float) * 2 - 1
        first = signs[:, 0] > 0  # C − B has its only non-zero unit first
        all_kept = (signs > 0).all(axis=1)  # B − A and C − A need every unit unswapped
        want = [(all_kept.sum() + 1) / (T + 1), (all_kept.sum() + 1) / (T + 1), (first.sum() + 1) / (T + 1)]
        assert pairs[f"p_{level}"].tolist() == pytest.approx(want)


def test_system_tests_of_two_systems_and_of_one():
    tested = systems.system_tests(SYS[["B", "A"]], SYS_DOCS, n_trials=100)
    pairs, ranks = tested.pairs, tested.clusters
    assert pairs[["system_a", "system_b", "n_items", "n_documents"]].values.tolist() == [["A", "B", 6, 3]]
    assert pairs[["p_segments", "p_segments_holm", "p_documents", "p_documents_holm"]].values.tolist() == [
        pytest.approx([1 / 64, 1 / 64, 1 / 8, 1 / 8])
    ]
    assert ranks.values.tolist() == [["A", 0.0, 1, 1, 1, 1], ["B", 1.0, 2, 2, 1, 1]]
    tested = systems.system_tests(SYS[["C"]], SYS_DOCS, n_trials=100)
    pairs, ranks = tested.pairs, tested.clusters
    assert len(pairs) == 0 and "n_documents" in pairs.columns
    assert ranks.values.tolist() == [["C", pytest.approx(7 / 6), 1, 1, 1, 1]]


def test_system_tests_defaults_are_the_documented_ones():
    # 16 segments: 2^16 > 10000 swap patterns, so the default call draws (Monte Carlo) and its
    # n_trials and seed show in the p-values; the values themselves are pinned above
    wide = pd.DataFrame({"A": [0.0, 1, 0, 2, 1, 0, 1, 0] * 2, "B": [1.0, 1, 0, 2, 2, 1, 1, 0] * 2})
    docs = [f"d{i // 2}" for i in range(16)]
    got = systems.system_tests(wide, docs)
    given = systems.system_tests(wide, docs, n_trials=10000, seed=0, alpha=0.05)
    pd.testing.assert_frame_equal(got.pairs, given.pairs)
    pd.testing.assert_frame_equal(got.clusters, given.clusters)
    assert (
        got.pairs["p_segments"].iloc[0]
        != systems.system_tests(wide, docs, n_trials=10001, seed=0).pairs["p_segments"].iloc[0]
    )
    assert (
        got.pairs["p_segments"].iloc[0]
        != systems.system_tests(wide, docs, n_trials=10000, seed=1).pairs["p_segments"].iloc[0]
    )


# --------------------------------------------------------------------------- weight sweep

# one rater; documents d1 (segments 1, 2) and d2 (segments 1, 2); segment penalties, Major weight w:
#   A: w, 0, 0, 0      (one Major)
#   B: 1, 1, 1, 0.1    (three Minor, one Minor Fluency/Punctuation: 1 under HOPE, 2 for every Minor under MetaHOPE)
#   C: 0, 0, w, 1
SWEEP = frame(
    [
        ("A", "d1", 1, "r1", "Accuracy/Mistranslation", "Major"),
        ("A", "d1", 2, "r1", "No-error", "No-error"),
        ("A", "d2", 1, "r1", "No-error", "No-error"),
        ("A", "d2", 2, "r1", "No-error", "No-error"),
        ("B", "d1", 1, "r1", "Accuracy/Mistranslation", "Minor"),
        ("B", "d1", 2, "r1", "Fluency/Grammar", "Minor"),
        ("B", "d2", 1, "r1", "Style/Awkward", "Minor"),
        ("B", "d2", 2, "r1", "Fluency/Punctuation", "Minor"),
        ("C", "d1", 1, "r1", "No-error", "No-error"),
        ("C", "d1", 2, "r1", "No-error", "No-error"),
        ("C", "d2", 1, "r1", "Accuracy/Omission", "Major"),
        ("C", "d2", 2, "r1", "Fluency/Grammar", "Minor"),
    ]
)


SWEEP_DOCS = ["d1", "d1", "d2", "d2"]


def sweep_matrix(major, minor, punct):
    return np.array([[major, minor, 0], [0, minor, 0], [0, minor, major], [0, punct, minor]], dtype=float)


def stability_by_hand(values, weights, alpha):
    """τ-b (scipy) between the full and each resample's system means, and the pairs whose
    difference keeps its sign in at least 1 − alpha/2 of the resamples."""
    from scipy.stats import kendalltau

    full = values.mean(axis=0)
    taus, signs = [], []
    weights, back = np.unique(weights, axis=0, return_inverse=True)  # each distinct resample once
    for w in weights:
        boot = (w[:, None] * values).sum(axis=0) / w.sum()
        taus.append(kendalltau(full, boot).statistic)
        signs.append([np.sign(boot[i] - boot[j]) for i, j in ((0, 1), (0, 2), (1, 2))])
    taus, signs = np.array(taus)[back.ravel()], np.array(signs)[back.ravel()]
    kept = np.maximum((signs > 0).mean(axis=0), (signs < 0).mean(axis=0))
    return {
        "tau_mean": np.mean(taus),
        "tau_low": np.percentile(taus, 2.5),
        "share_significant": (kept >= 1 - alpha / 2).mean(),
        "n_resamples": len(taus),
    }


def test_weight_sweep_by_hand():
    from helpers.core.statistics import stats

    out = wa.weight_sweep(SWEEP, major_weights=[1, 5], schemes=("metahope",), n_boot=6, seed=3, alpha=0.4)
    assert list(out.columns) == [
        "scheme",
        "major_to_minor",
        "resampling",
        "tau_mean",
        "tau_low",
        "share_significant",
        "n_resamples",
        "n_segments",
        "n_documents",
    ]
    assert out[
        ["scheme", "major_to_minor", "resampling", "n_resamples", "n_segments", "n_documents"]
    ].values.tolist() == [
        ["mqm-major-1", 1.0, "segments", 6, 4, 2],
        ["mqm-major-1", 1.0, "documents", 6, 4, 2],
        ["mqm-major-5", 5.0, "segments", 6, 4, 2],
        ["mqm-major-5", 5.0, "documents", 6, 4, 2],
        ["metahope", 3.0, "segments", 6, 4, 2],
        ["metahope", 3.0, "documents", 6, 4, 2],
    ]
    # the same resamples (segments, then whole documents) for every weighting
    draws = {"segments": stats.resample(4, 6, 3), "documents": stats.resample(4, 6, 3, clusters=SWEEP_DOCS)}
    mats = [sweep_matrix(1, 1, 0.1), sweep_matrix(5, 1, 0.1), sweep_matrix(6, 2, 2)]
    for k, values in enumerate(mats):
        for j, how in enumerate(draws):
            want = stability_by_hand(values, draws[how], 0.4)
            got = out.iloc[2 * k + j]
            for col in ("tau_mean", "tau_low", "share_significant"):
                assert got[col] == pytest.approx(want[col], abs=1e-12), (k, how, col)


def test_weight_sweep_of_one_document_never_moves():
    one = SWEEP.assign(doc="d1", doc_seg_id=[1, 2, 3, 4] * 3)
    out = wa.weight_sweep(one, major_weights=[2], schemes=(), n_boot=5, seed=0)
    docs = out[out["resampling"] == "documents"].iloc[0]
    # one document: every resample draws it once, all four segments, the full means; τ = 1 and
    # each of the three pairs (A 0.5, B 0.775, C 0.75 under Major = 2) keeps its order
    assert docs[["tau_mean", "tau_low", "share_significant", "n_resamples", "n_documents"]].tolist() == [1, 1, 1, 5, 1]


def test_weight_sweep_defaults_are_the_documented_ones():
    from helpers.core.statistics import stats

    got = wa.weight_sweep(SWEEP)
    assert got["scheme"].tolist()[::2] == [f"mqm-major-{w}" for w in range(1, 11)] + ["hope", "metahope"]
    assert got["major_to_minor"].tolist()[::2] == [float(w) for w in range(1, 11)] + [4.0, 3.0]
    assert (got["n_resamples"] == 1000).all()
    pd.testing.assert_frame_equal(got, wa.weight_sweep(SWEEP, range(1, 11), ("hope", "metahope"), 1000, 0, 0.05))
    row = got.iloc[1]  # Major = 1, documents resampled: by hand, like test_weight_sweep_by_hand
    want = stability_by_hand(sweep_matrix(1, 1, 0.1), stats.resample(4, 1000, 0, clusters=SWEEP_DOCS), 0.05)
    assert [row[c] for c in ("tau_mean", "tau_low", "share_significant")] == pytest.approx(
        [want["tau_mean"], want["tau_low"], want["share_significant"]]
    )


# --------------------------------------------------------------------------- α by scheme

# raters r1, r2 on six units in three documents (A d3/2 has r1 only and is left out);
# penalties (r1, r2) under mqm / hope / metahope:
#   A d1/1 Major | Minor            5, 1   4, 1   6, 2
#   A d2/1 Minor | Minor            1, 1   1, 1   2, 2
#   A d3/1 none  | Major            0, 5   0, 4   0, 6
#   B d1/1 Minor + Minor | Major    2, 5   2, 4   4, 6
#   B d2/1 none  | none             0, 0   0, 0   0, 0
#   B d3/1 Major | Major + Minor    5, 6   4, 5   6, 8
AGREE = frame(
    [
        ("A", "d1", 1, "r1", "Accuracy/Mistranslation", "Major"),
        ("A", "d1", 1, "r2", "Accuracy/Mistranslation", "Minor"),
        ("A", "d2", 1, "r1", "Fluency/Grammar", "Minor"),
        ("A", "d2", 1, "r2", "Fluency/Grammar", "Minor"),
        ("A", "d3", 1, "r1", "No-error", "No-error"),
        ("A", "d3", 1, "r2", "Accuracy/Omission", "Major"),
        ("A", "d3", 2, "r1", "Style/Awkward", "Minor"),
        ("B", "d1", 1, "r1", "Style/Awkward", "Minor"),
        ("B", "d1", 1, "r1", "Fluency/Grammar", "Minor"),
        ("B", "d1", 1, "r2", "Accuracy/Mistranslation", "Major"),
        ("B", "d2", 1, "r1", "No-error", "No-error"),
        ("B", "d2", 1, "r2", "No-error", "No-error"),
        ("B", "d3", 1, "r1", "Accuracy/Mistranslation", "Major"),
        ("B", "d3", 1, "r2", "Accuracy/Mistranslation", "Major"),
        ("B", "d3", 1, "r2", "Fluency/Grammar", "Minor"),
    ]
)


AGREE_PENALTIES = {
    "mqm": [[5, 1, 0, 2, 0, 5], [1, 1, 5, 5, 0, 6]],
    "hope": [[4, 1, 0, 2, 0, 4], [1, 1, 4, 4, 0, 5]],
    "metahope": [[6, 2, 0, 4, 0, 6], [2, 2, 6, 6, 0, 8]],
}


AGREE_DOCS = ["d1", "d2", "d3", "d1", "d2", "d3"]  # the units in (system, doc, segment) order


def kalpha(data, weights=None):
    """The krippendorff package's interval α, a unit counted ``weights[u]`` times."""
    data = np.asarray(data, dtype=float)
    if weights is not None:
        data = np.repeat(data, np.asarray(weights, dtype=int), axis=1)
    return krippendorff.alpha(reliability_data=data, level_of_measurement="interval")


def test_scheme_agreement_against_the_krippendorff_package():
    from scipy.stats import t as student_t
    from statsmodels.stats.multitest import multipletests

    from helpers.core.statistics import stats

    n_boot, seed, ci = 8, 4, 90.0
    got = wa.scheme_agreement(AGREE, n_boot=n_boot, seed=seed, ci=ci)
    levels, diffs = got.levels, got.differences
    boot = stats.resample(6, n_boot, seed, clusters=AGREE_DOCS)  # whole documents, the same for every scheme
    est = {s: kalpha(d) for s, d in AGREE_PENALTIES.items()}
    bs = {s: np.array([kalpha(d, w) for w in boot]) for s, d in AGREE_PENALTIES.items()}
    keep = {g: [u != g for u in AGREE_DOCS] for g in ("d1", "d2", "d3")}
    jk = {s: np.array([kalpha(d, keep[g]) for g in keep]) for s, d in AGREE_PENALTIES.items()}
    q = student_t.ppf(0.95, 2)  # ci 90, G − 1 = 2 degrees of freedom

    def jack(theta, loo):
        se = np.sqrt(2 / 3 * ((loo - loo.mean()) ** 2).sum())
        return theta - q * se, theta + q * se, se

    assert list(levels.columns) == [
        "scheme",
        "alpha",
        "ci_low",
        "ci_high",
        "jackknife_ci_low",
        "jackknife_ci_high",
        "n_units",
        "n_documents",
    ]
    assert levels["scheme"].tolist() == ["mqm", "hope", "metahope"]
    assert (levels["n_units"] == 6).all() and (levels["n_documents"] == 3).all()
    for _, row in levels.iterrows():
        s = row["scheme"]
        low, high, _ = jack(est[s], jk[s])
        assert row[["alpha", "ci_low", "ci_high", "jackknife_ci_low", "jackknife_ci_high"]].tolist() == pytest.approx(
            [est[s], np.percentile(bs[s], 5), np.percentile(bs[s], 95), low, min(high, 1.0)], abs=1e-12
        ), s
    assert list(diffs.columns) == [
        "scheme_x",
        "scheme_y",
        "alpha_x",
        "alpha_y",
        "difference",
        "ci_low",
        "ci_high",
        "jackknife_ci_low",
        "jackknife_ci_high",
        "p",
        "p_holm",
        "verdict",
    ]
    pairs = [("mqm", "hope"), ("mqm", "metahope"), ("hope", "metahope")]
    assert diffs[["scheme_x", "scheme_y"]].apply(tuple, axis=1).tolist() == pairs
    p = []
    for (x, y), (_, row) in zip(pairs, diffs.iterrows()):
        d = est[x] - est[y]
        low, high, se = jack(d, jk[x] - jk[y])
        p.append(2 * student_t.sf(abs(d) / se, 2))
        assert row[
            ["alpha_x", "alpha_y", "difference", "ci_low", "ci_high", "jackknife_ci_low", "jackknife_ci_high", "p"]
        ].tolist() == pytest.approx(
            [est[x], est[y], d, np.percentile(bs[x] - bs[y], 5), np.percentile(bs[x] - bs[y], 95), low, high, p[-1]],
            abs=1e-12,
        )
    holm = multipletests(p, method="holm")[1]
    assert diffs["p_holm"].tolist() == pytest.approx(holm, abs=1e-12)
    assert diffs["verdict"].tolist() == [
        "difference" if h < 0.1 else "suggestive, not significant after Holm" if pp < 0.1 else "no evidence"
        for pp, h in zip(p, holm)
    ]


def test_scheme_agreement_of_two_schemes_and_the_defaults():
    got = wa.scheme_agreement(AGREE, schemes=("hope", "mqm"), n_boot=3, seed=1, ci=42.0)
    levels, diffs = got.levels, got.differences
    assert levels["scheme"].tolist() == ["hope", "mqm"]
    # p of hope − mqm is p of mqm − hope (0.5601 by the jackknife t above), below 1 − 0.42 = 0.58,
    # and with one comparison Holm's p is p itself
    assert diffs["p"].iloc[0] == pytest.approx(0.560082, abs=1e-6) and diffs["verdict"].tolist() == ["difference"]
    # ci 44: the level is 0.56, just below p: no evidence
    assert wa.scheme_agreement(AGREE, schemes=("hope", "mqm"), n_boot=3, ci=44.0).differences["verdict"].tolist() == [
        "no evidence"
    ]
    assert levels["alpha"].tolist() == pytest.approx([kalpha(AGREE_PENALTIES["hope"]), kalpha(AGREE_PENALTIES["mqm"])])
    assert diffs[["scheme_x", "scheme_y"]].values.tolist() == [["hope", "mqm"]]
    assert diffs["p_holm"].tolist() == pytest.approx(diffs["p"].tolist())  # one comparison: Holm changes nothing
    # twelve documents (four copies of AGREE, copy k with k more Minor errors of r1 on A d1/1): enough
    # distinct resamples for n_boot and seed to show in the bounds
    extra = [("A", f"d1-{k}", 1, "r1", "Fluency/Grammar", "Minor") for k in range(4) for _ in range(k)]
    many = pd.concat([AGREE.assign(doc=AGREE["doc"] + f"-{k}") for k in range(4)] + [frame(extra)], ignore_index=True)
    got = wa.scheme_agreement(many)
    given = wa.scheme_agreement(many, ("mqm", "hope", "metahope"), n_boot=1000, seed=0, ci=95.0)
    pd.testing.assert_frame_equal(got.levels, given.levels)
    pd.testing.assert_frame_equal(got.differences, given.differences)
    for other in ({"n_boot": 1001}, {"seed": 1}):
        assert not got.levels.equals(wa.scheme_agreement(many, **other).levels), other
    assert wa.scheme_agreement(AGREE, n_boot=2).levels["alpha"].tolist() == pytest.approx(
        [kalpha(d) for d in AGREE_PENALTIES.values()]
    )


def test_scheme_agreement_p_is_nan_without_spread():
    # the same penalties under two schemes: every leave-one-document-out difference is 0, SE 0, no test
    diffs = wa.scheme_agreement(AGREE, schemes=("mqm", "mqm"), n_boot=3).differences
    assert diffs[["difference", "ci_low", "ci_high", "jackknife_ci_low", "jackknife_ci_high"]].values.tolist() == [
        [0, 0, 0, 0, 0]
    ]
    assert np.isnan(diffs["p"].iloc[0]) and diffs["verdict"].iloc[0] == "no evidence"


# --------------------------------------------------------------------------- span agreement

# system A, raters r1, r2, target spans [start, end):
#   d1/1  r1 Accuracy Major [0, 4)   r2 Accuracy Minor [2, 6)   overlap, same category, not severity
#   d1/2  r1 Fluency Minor [0, 2)    r2 No-error                unmatched
#   d2/1  r1 Style Minor [1, 3)      r2 Style Minor [1, 3), and a Fluency error without a span
#   d3/1  r1 HOTW-test only          r2 Accuracy Minor [0, 3)   r1 did not rate it: no pair
SPANS = frame(
    [
        ("A", "d1", 1, "r1", "Accuracy/Mistranslation", "Major", 0, 4),
        ("A", "d1", 1, "r2", "Accuracy/Omission", "Minor", 2, 6),
        ("A", "d1", 2, "r1", "Fluency/Grammar", "Minor", 0, 2),
        ("A", "d1", 2, "r2", "No-error", "No-error"),
        ("A", "d2", 1, "r1", "Style/Awkward", "Minor", 1, 3),
        ("A", "d2", 1, "r2", "Style/Awkward", "Minor", 1, 3),
        ("A", "d2", 1, "r2", "Fluency/Grammar", "Minor"),
        ("A", "d3", 1, "r1", "Found", "HOTW-test"),
        ("A", "d3", 1, "r2", "Accuracy/Mistranslation", "Minor", 0, 3),
    ]
)


# per rater pair (d1/1, d1/2, d2/1): spans of a and b, matched a + b per criterion, characters a, b, both
PAIR_SPANS = np.array([2, 1, 2])


PAIR_MATCHED = {
    "overlap": np.array([2, 0, 2]),
    "overlap+category": np.array([2, 0, 2]),
    "overlap+category+severity": np.array([0, 0, 2]),
}


PAIR_CHARS, PAIR_BOTH = np.array([8, 2, 4]), np.array([2, 0, 2])  # [0,4) + [2,6) share 2, 3


def test_span_table_by_hand():
    from helpers.core.statistics import stats

    got = categories_and_spans.span_table(SPANS, n_boot=7, seed=2, ci=80.0)
    table, matches = got.table, got.matches
    assert matches[
        ["doc", "doc_seg_id", "rater_a", "rater_b", "spans_a", "spans_b", "chars_a", "chars_b", "chars_both"]
    ].values.tolist() == [
        ["d1", 1, "r1", "r2", 1, 1, 4, 4, 2],
        ["d1", 2, "r1", "r2", 1, 0, 2, 0, 0],
        ["d2", 1, "r1", "r2", 1, 1, 2, 2, 2],
    ]
    assert list(table.columns) == ["criterion", "agreement", "ci_low", "ci_high", "rater_pairs", "spans"]
    assert table["criterion"].tolist() == ["overlap", "overlap+category", "overlap+category+severity", "characters"]
    # pooled: 4/5, 4/5, 2/5 of the five spans matched; Dice 2 · 4 / 14 of the characters
    assert table["agreement"].tolist() == pytest.approx([0.8, 0.8, 0.4, 4 / 7])
    assert (table["rater_pairs"] == 3).all() and (table["spans"] == 5).all()
    w = stats.resample(3, 7, 2, clusters=["d1", "d1", "d2"])  # whole documents
    ratios = [w @ PAIR_MATCHED[c] / (w @ PAIR_SPANS) for c in PAIR_MATCHED] + [2 * (w @ PAIR_BOTH) / (w @ PAIR_CHARS)]
    assert table["ci_low"].tolist() == pytest.approx([np.percentile(r, 10) for r in ratios], abs=1e-12)
    assert table["ci_high"].tolist() == pytest.approx([np.percentile(r, 90) for r in ratios], abs=1e-12)


def test_span_table_defaults_are_the_documented_ones():
    # 36 documents (twelve copies of the three, r2's first span k characters longer in copy k):
    # enough distinct resamples for n_boot, seed and ci to show in the bounds (two documents give
    # three resampled values only)
    many = pd.concat(
        [
            SPANS.assign(doc=SPANS["doc"] + f"-{k}", target_end=SPANS["target_end"] + np.array([0, k] + [0] * 7))
            for k in range(12)
        ],
        ignore_index=True,
    )
    got = categories_and_spans.span_table(many)
    given = categories_and_spans.span_table(many, n_boot=1000, seed=0, ci=95.0)
    pd.testing.assert_frame_equal(got.table, given.table)
    pd.testing.assert_frame_equal(got.matches, given.matches)
    for other in ({"n_boot": 1001}, {"seed": 1}, {"ci": 94.0}):
        assert not got.table.equals(categories_and_spans.span_table(many, **other).table), other


# --------------------------------------------------------------------------- ICC by documents, standard errors


def icc_anova(x):
    """ICC(1,1) and ICC(1,k) from the one-way ANOVA mean squares (Shrout & Fleiss 1979, Case 1)."""
    x = np.asarray(x, dtype=float)
    n, k = x.shape
    msb = k * ((x.mean(axis=1) - x.mean()) ** 2).sum() / (n - 1)
    msw = ((x - x.mean(axis=1, keepdims=True)) ** 2).sum() / (n * (k - 1))
    return (msb - msw) / (msb + (k - 1) * msw), (msb - msw) / msb


def test_icc_by_documents_whole_table():
    from scipy.stats import t as student_t

    # AGREE plus a third rater on B d2/1: the most common number of raters is 2, so that unit and
    # A d3/2 (one rater) are left out; units A d1/1, A d2/1, A d3/1, B d1/1, B d3/1
    three = pd.concat([AGREE, frame([("B", "d2", 1, "r3", "Fluency/Grammar", "Minor")])], ignore_index=True)
    out = wa.icc_by_documents(three, "mqm", ci=90.0)
    x = np.array(AGREE_PENALTIES["mqm"], dtype=float).T[[0, 1, 2, 3, 5]]
    docs = np.array(["d1", "d2", "d3", "d1", "d3"])
    full = icc_anova(x)  # (pingouin's ICC(1,1) and ICC(1,k); its import alone takes seconds)
    assert list(out.columns) == [
        "statistic",
        "raters_per_unit",
        "estimate",
        "jackknife_ci_low",
        "jackknife_ci_high",
        "n_units",
        "n_clusters",
    ]
    assert out[["statistic", "raters_per_unit", "n_units", "n_clusters"]].values.tolist() == [
        ["ICC(1,1)", 2, 5, 3],
        ["ICC(1,k)", 2, 5, 3],
    ]
    loo = np.array([icc_anova(x[docs != g]) for g in ("d1", "d2", "d3")])
    q = student_t.ppf(0.95, 2)
    for i in range(2):
        se = np.sqrt(2 / 3 * ((loo[:, i] - loo[:, i].mean()) ** 2).sum())
        est = full[i]
        assert out.iloc[i][["estimate", "jackknife_ci_low", "jackknife_ci_high"]].tolist() == pytest.approx(
            [est, est - q * se, min(est + q * se, 1.0)], abs=1e-12
        )
    assert out.equals(wa.icc_by_documents(three, ci=90.0))  # the default scheme is mqm
    assert wa.icc_by_documents(three)["jackknife_ci_low"].tolist() == pytest.approx(
        [wa.icc_by_documents(three, ci=95.0)["jackknife_ci_low"].iloc[i] for i in range(2)]
    )


def test_certainty_overstatement_by_hand():
    from helpers.core.statistics import stats

    wide = pd.DataFrame({"A": [1.0, 2.0, 4.0, 0.0], "B": [0.0, 2.0, 1.0, 3.0], "C": [3.0, 3.0, 3.0, 1.0]})
    docs = ["d1", "d1", "d2", "d3"]
    out = systems.certainty_overstatement(wide, docs, n_boot=9, seed=2)
    assert list(out.columns) == ["system_a", "system_b", "se_segments", "se_documents", "ratio"]
    for how, w in (("segments", stats.resample(4, 9, 2)), ("documents", stats.resample(4, 9, 2, clusters=docs))):
        means = {s: np.array([(wi * wide[s]).sum() / wi.sum() for wi in w]) for s in wide}
        want = [np.std(means[a] - means[b], ddof=1) for a, b in (("A", "B"), ("A", "C"), ("B", "C"))]
        assert out[f"se_{how}"].tolist() == pytest.approx(want, abs=1e-12), how
    assert out["ratio"].tolist() == pytest.approx((out["se_documents"] / out["se_segments"]).tolist())
    pd.testing.assert_frame_equal(
        systems.certainty_overstatement(wide, docs), systems.certainty_overstatement(wide, docs, n_boot=1000, seed=0)
    )


# --------------------------------------------------------------------------- details the tables above leave open


def test_major_to_minor_reads_the_mistranslation_weights():
    from helpers.core.statistics.schemes import Rule, Scheme

    # a scheme whose weights depend on the category: only Accuracy/Mistranslation's count
    s = Scheme(
        "t",
        "t",
        "",
        (
            Rule("MajAcc", "^major:accuracy/mistranslation", 10.0),
            Rule("Major", "^major:", 3.0),
            Rule("MinAcc", "^minor:accuracy/mistranslation", 2.0),
            Rule("Minor", "^minor:", 1.0),
        ),
        "",
    )
    assert wa.major_to_minor(s) == 5.0


def test_top_level_of_deeper_and_odd_categories():
    got = categories_and_spans.top_level(pd.Series(["Fluency/Spelling/Case", "UX/Layout", "Non-translation!!"]))
    assert got.tolist() == ["Fluency", "UX", "Non-translation"]


def test_result_columns_keep_integer_types():
    f = frame(ROWS)
    p = categories_and_spans.category_presence(f)
    assert p["present"].dtype == np.int64
    assert categories_and_spans.category_penalties(f)["count"].dtype == np.int64
    s = categories_and_spans.error_spans(f)
    assert s["start"].dtype == np.int64 and s["end"].dtype == np.int64
    assert s.index.tolist() == list(range(len(s)))
    r = wa.rankings(f, ["mqm"])
    assert r["mqm"].dtype == np.int64


def test_rankings_are_sorted_by_the_first_scheme_stably():
    r = wa.rankings(SWEEP, [wa.major_weight_scheme(1), wa.major_weight_scheme(5)])
    # Major = 1: A 0.25, C 0.5, B 0.775; Major = 5: B 0.775, A 1.25, C 1.5
    assert r.values.tolist() == [["A", 1, 2], ["C", 2, 3], ["B", 3, 1]]
    # 24 systems, one segment each, in three tied groups: ties keep the systems' (alphabetical) order
    names = [f"S{i:02d}" for i in range(24)]
    sev = ["No-error", "Minor", "Major"]
    rows = [
        (n, "d", 1, "r1", "Fluency/Grammar" if i % 3 else "No-error", sev[(i * 7) % 3] if i % 3 else "No-error")
        for i, n in enumerate(names)
    ]
    r = wa.rankings(frame(rows), ["mqm"])
    score = {n: {"No-error": 0, "Minor": 1, "Major": 5}[s] for n, _, _, _, _, s in rows}
    want = sorted(names, key=lambda n: score[n])  # Python's sort is stable
    assert r["system"].tolist() == want


def test_certainty_overstatement_without_spread_is_nan_without_warnings():
    import warnings

    wide = pd.DataFrame({"A": [1.0, 2.0, 3.0], "B": [1.0, 2.0, 3.0]})  # the same scores: 0/0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = systems.certainty_overstatement(wide, ["d1", "d2", "d2"], n_boot=20, seed=0)
    assert out[["se_segments", "se_documents"]].values.tolist() == [pytest.approx([0, 0], abs=1e-12)]
    assert np.isnan(out["ratio"].iloc[0])


def test_icc_and_alpha_use_the_scheme_they_are_given():
    hope = wa.icc_by_documents(AGREE, "hope")
    x = np.array(AGREE_PENALTIES["hope"], dtype=float).T
    assert hope["estimate"].tolist() == pytest.approx(list(icc_anova(x)), abs=1e-12)
    out2 = wa.major_weight_agreement(AGREE, major_weights=[1, 3], schemes=("metahope",))

    # AGREE's units under Major = 1 and 3 (Minor 1), and MetaHOPE (Minor 2, Major 6)
    def pen(major, minor):
        return [[major, minor, 0, 2 * minor, 0, major], [minor, minor, major, major, 0, major + minor]]

    assert out2["alpha"].tolist() == pytest.approx([kalpha(pen(1, 1)), kalpha(pen(3, 1)), kalpha(pen(6, 2))], abs=1e-12)


def test_presence_agreement_columns_and_kappa_by_hand():
    presence = categories_and_spans.category_presence(frame([r for r in ROWS if r[0] != "C"]))
    out = categories_and_spans.presence_agreement(presence)
    assert list(out.columns) == [
        "category",
        "n_units",
        "n_raters",
        "marked_percent",
        "nominal_alpha",
        "kappa",
        "exact_agreement",
    ]
    kappa = out.set_index("category")["kappa"]
    # Accuracy over the 5 two-rater units: r1 1,0,0,0,0, r2 1,1,0,0,0: p_o 4/5, p_e (1/5)(2/5) + (4/5)(3/5) = 14/25
    assert kappa["Accuracy"] == pytest.approx((4 / 5 - 14 / 25) / (1 - 14 / 25))
    # Style: both raters mark B d2/1 only: perfect agreement
    assert kappa["Style"] == pytest.approx(1.0)


def test_rounding_rules_and_their_summary_by_hand():
    from helpers.wmt import analysis as wa

    # 2.4049999 to 2 places: once half-up 2.40; to 3 places first (2.405) then half-up 2.41; as a binary
    # float 2.405 is 2.40499999…, so "%.2f" gives 2.40
    got = {name: rule(2.4049999, 2) for name, rule in readme_tables.ROUNDINGS.items()}
    assert got == {
        "half-up once": "2.40",
        "3 decimals, then half-up": "2.41",
        "3 decimals, then binary float %.Nf": "2.40",
    }
    assert {name: rule(0.125, 2) for name, rule in readme_tables.ROUNDINGS.items()} == {
        "half-up once": "0.13",
        "3 decimals, then half-up": "0.13",
        "3 decimals, then binary float %.Nf": "0.12",
    }
    table = pd.DataFrame(
        {
            "table": ["T", "T", "U"],
            "match: half-up once": [True, False, True],
            "match: 3 decimals, then half-up": [True, True, False],
        }
    )
    s = readme_tables.rounding_summary(table)
    assert s.columns.tolist() == ["table", "values", "half-up once", "3 decimals, then half-up"]
    assert s.values.tolist() == [["T", 2, 1, 2], ["U", 1, 1, 0]]


def test_scheme_agreement_p_is_nan_when_the_jackknife_has_no_spread_but_the_difference_is_not_0():
    import warnings

    # d1 has Minor errors only, d2 Major only: MQM with Major = 5 and with Major = 10 give d1 the same
    # penalties and d2 penalties scaled by 2, so α without d1 (α of d2) and α without d2 (α of d1) are
    # the same under both (interval α is scale-free): SE_J = 0, while the pooled α differ. The t test
    # is undefined (p NaN), not "infinitely significant"
    m, big, none = ("Fluency/Grammar", "Minor"), ("Accuracy/Mistranslation", "Major"), ("No-error", "No-error")
    units = {
        ("d1", 1): ([m], []),
        ("d1", 2): ([m, m], [m]),
        ("d1", 3): ([], [m]),
        ("d2", 1): ([big], []),
        ("d2", 2): ([big], [big]),
        ("d2", 3): ([], [big]),
    }
    f = frame(
        [
            ("A", d, s, r, *e)
            for (d, s), errs in units.items()
            for r, es in zip(("r1", "r2"), errs)
            for e in es or [none]
        ]
    )
    p5, p10 = [[1, 2, 0, 5, 5, 0], [0, 1, 1, 0, 5, 5]], [[1, 2, 0, 10, 10, 0], [0, 1, 1, 0, 10, 10]]
    assert kalpha([r[:3] for r in p5]) == pytest.approx(kalpha([r[:3] for r in p10]))
    assert kalpha([r[3:] for r in p5]) == pytest.approx(kalpha([r[3:] for r in p10]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        diffs = wa.scheme_agreement(
            f, schemes=(wa.major_weight_scheme(5), wa.major_weight_scheme(10)), n_boot=5
        ).differences
    row = diffs.iloc[0]
    d = kalpha(p5) - kalpha(p10)
    assert abs(d) > 0.1 and row["difference"] == pytest.approx(d)
    assert (row["jackknife_ci_low"], row["jackknife_ci_high"]) == pytest.approx((d, d))
    assert np.isnan(row["p"]) and np.isnan(row["p_holm"]) and row["verdict"] == "no evidence"


def test_certainty_overstatement_of_no_segment_spread_is_infinite_without_warnings():
    import warnings

    from helpers.core.statistics import stats

    # seed 2 draws the same segment resample twice (SE 0 by segments) and two different document
    # resamples: all four segments (mean difference 6/4) and d1 twice (2·(0 + 1)/4): SE |1.5 − 0.5|/√2
    wide = pd.DataFrame({"A": [0.0, 1.0, 2.0, 3.0], "B": 0.0})
    docs = ["d1", "d1", "d2", "d2"]
    seg, doc = stats.resample(4, 2, 2), stats.resample(4, 2, 2, clusters=docs)
    assert (seg[0] == seg[1]).all() and doc.tolist() == [[1, 1, 1, 1], [2, 2, 0, 0]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = systems.certainty_overstatement(wide, docs, n_boot=2, seed=2)
    assert out[["se_segments", "se_documents"]].values.tolist() == [[0.0, pytest.approx(1 / np.sqrt(2))]]
    assert out["ratio"].iloc[0] == np.inf
