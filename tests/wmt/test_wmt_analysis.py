"""The statistics of chapter 08 (:mod:`helpers.wmt.analysis`) on hand-computed cases and on the
mirrored files: the published tables reproduced, the Major:Minor ratio, the README tables chosen by
file name, the certainty verdict, the ratio curve, the weighting comparison and the ESA ranking.
Their pinned cases are tests/wmt/test_pinned_wmt.py."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from helpers.core import annotations as ann
from helpers.core import paths
from helpers.wmt import analysis


def test_published_tables_reproduced_up_to_the_one_known_mismatch():
    """The README values (data/published/wmt_mqm, entered by hand) against the mirrored files:
    3 decimals then half-up gives all but TED Borderline; tests/core/test_mqm_published.py checks the
    same values independently of helpers.wmt."""
    files = {rel: paths.released_file(analysis.REPO, rel) for _, rel, _ in analysis.TABLES.values()}
    table = analysis.reproduce(files)
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
    from helpers.core.schemes import load_scheme

    assert analysis.major_to_minor(load_scheme("hope")) == 4
    assert analysis.major_to_minor(load_scheme("metahope")) == 3
    assert analysis.major_to_minor(load_scheme("mqm")) == 5
    assert analysis.major_weight_scheme(7).weight_of("Major", "Accuracy/Mistranslation") == 7
    assert analysis.major_weight_scheme(7).weight_of("Minor", "Fluency/Punctuation") == 0.1


def test_language_pair_is_read_from_google_and_wmt_file_names():
    assert analysis.language_pair("ted/zhen/mqm_ted_zhen.tsv") == ("zh", "en")
    assert analysis.language_pair("generalMT2023/ende/mqm_generalMT2023_ende.3ratingsPerSegment.tsv.tar.gz") == (
        "en", "de")
    assert analysis.language_pair("runs/en-de/batch_1.tsv") == ("en", "de")  # a folder of its own
    assert analysis.language_pair("my_ratings.tsv") is None
    assert analysis.pair_names(("en", "de")) == ("English→German", "EN→DE")


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
    tables = analysis.tables_for(path, tmp_path / "other.tsv")
    assert list(tables) == ["TED EN→DE"]
    assert analysis.tables_for(tmp_path / "mqm_generalMT2023_ende.tsv") == {}
    table = analysis.reproduce({path: path}, tables).set_index("system")
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
    v = analysis.certainty_verdict(pd.Series([0.74, 1.08, 1.36]))
    assert v.verdict == "about right" and v.coverage == pytest.approx(cover(1.08), abs=1e-6)
    assert v.median == 1.08 and (v.low, v.high) == (0.74, 1.36) and v.pairs_below == 1  # 1.36: 85%
    assert analysis.certainty_verdict(pd.Series([1.3, 1.5, 2.0])).verdict == "overstated"
    assert analysis.certainty_verdict(pd.Series([0.8, 0.9])).verdict == "understated"


def test_every_readme_table_is_entered_as_printed():
    """data/published/wmt_mqm has every README table whose file the README names, in both
    language pairs, cell for cell as the mirrored README prints it (parsed here from its
    Markdown: ``## newstest2021`` / ``### English to German`` / ``| system | score(rank) |``)."""
    import re

    from helpers.core import published

    readme = paths.released_file(analysis.REPO, "README.md").read_text(encoding="utf-8")
    heads = {"TED": "TED talks", "newstest2020": "newstest2020", "newstest2021": "newstest2021"}
    pairs = {"ZH→EN": "Chinese to English", "EN→DE": "English to German"}
    assert len(analysis.README_TABLES) == 6
    for table, (csv, file_name) in analysis.README_TABLES.items():
        head, pair = table.split(" ")
        section = readme.split(f"## {heads[head]} ##", 1)[1].split("\n## ", 1)[0]
        block = section.split(f"### {pairs[pair]} ###", 1)[1].split("###", 1)[0]
        printed = re.findall(r"^\| (\S+) \| ([0-9.]+)\(\d+\) \|", block, re.M)
        entered = published.read_published("wmt_mqm", csv)
        assert list(zip(entered["system"], entered["score"])) == printed, table
        assert analysis.language_pair(file_name) == tuple(pair.lower().split("→"))


def test_the_smallest_possible_p_follows_how_the_test_was_run():
    """Enumerated (2^g <= trials): 2^-g; drawn trials: 1/(trials + 1), whatever g (15 documents
    with 10,000 trials cannot give 2^-15)."""
    from helpers.wmt.analysis import smallest_possible_p

    assert smallest_possible_p(5, 10_000) == 1 / 32 and smallest_possible_p(13, 10_000) == 2.0 ** -13
    assert smallest_possible_p(15, 10_000) == 1 / 10_001 and smallest_possible_p(15, 2 ** 15) == 2.0 ** -15


@pytest.mark.parametrize("alphas, direction, rho", [
    # ties in α ranked 2.5: ρ = Pearson((1, 2, 3, 4), (1, 2.5, 2.5, 4)) = 4.5 / √(5 · 4.5) = 3 / √10
    ({1: 0.1, 2: 0.2, 3: 0.2, 4: 0.4}, "rises", 3 / math.sqrt(10)),
    ({10: 0.3, 1: 0.5, 5: 0.4}, "falls", -1.0),  # given out of order: sorted by the ratio first
    ({1: 0.3, 2: 0.3, 3: 0.3}, "flat", math.nan),  # constant α: ρ undefined
    ({1: 0.3, 2: 0.5, 3: 0.4}, "mixed", 0.5),  # ranks (1, 3, 2): ρ = 1 − 6 · 2 / (3 · 8) = 0.5
])
def test_ratio_curve_reads_the_direction_of_alpha_over_the_swept_ratios_only(alphas, direction, rho,
                                                                             ratio_table):
    row = analysis.ratio_curve(ratio_table(alphas)).iloc[0]
    assert row["direction"] == direction
    assert row["n_ratios"] == len(alphas)
    assert (math.isnan(row["rho"]) if math.isnan(rho) else row["rho"] == pytest.approx(rho))
    low, high = min(alphas), max(alphas)
    assert (row["ratio_low"], row["alpha_low"], row["ratio_high"], row["alpha_high"]) == (
        low, alphas[low], high, alphas[high])


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
    assert [getattr(s, "name", s) for s in analysis.compared_schemes(issue)] == ["mqm", "marot",
                                                                                 "mqm-source-by-severity"]


def test_esa_ranking_sets_the_human_ranks_beside_the_automatic_ones(hand_esa):
    """Humans: refA 80, X 75, Y 35. The automatic ranking (lower is better) puts Y (1.5) above
    X (2.0) and has no refA: among the two systems both rank, human X 1, Y 2, automatic Y 1,
    X 2, so X's shift is +1 (placed lower), Y's -1, and Kendall τ over two reversed systems is -1."""
    autorank = pd.DataFrame({"lp": ["en-cs", "en-cs"], "system": ["X", "Y"], "autorank": [2.0, 1.5]})
    ranking = analysis.esa_ranking(hand_esa, autorank).set_index("system")
    assert list(ranking.index) == ["refA", "X", "Y"]
    assert ranking["score_by_domain"].tolist() == [80.0, 75.0, 35.0]
    assert ranking["kind"].to_dict() == {"refA": "human", "X": "submission", "Y": "submission"}
    assert ranking.loc["X", ["human_rank", "auto_rank", "rank_shift"]].tolist() == [1, 2, 1]
    assert ranking.loc["Y", ["human_rank", "auto_rank", "rank_shift"]].tolist() == [2, 1, -1]
    assert pd.isna(ranking.loc["refA", "auto_rank"])
    assert list(analysis.esa_ranking(hand_esa, autorank).columns) == analysis.ESA_RANKING_COLUMNS
    assert [analysis.system_kind(s) for s in ("Aya23", "Llama3-70B", "ONLINE-W", "CUNI-MH", "refB")] == [
        "LLM", "LLM", "online", "submission", "human"]
