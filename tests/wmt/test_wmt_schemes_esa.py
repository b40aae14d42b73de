"""Chapter 08's weighting comparison (mqm against marot) and its ESA section (the human WMT24
ranking beside the organisers' automatic one), each on a small hand-made case whose numbers
are worked out by hand in the docstrings."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers.core import annotations as ann
from helpers.core.errors import InputError
from helpers.core.findings import Findings
from helpers.wmt import analysis, ch08


def _mqm_frame() -> pd.DataFrame:
    """Two systems, two segments each, one rater. A: a Major "Source error" on segment 1 and
    a Minor Fluency/Grammar on segment 2. B: two Minor Style/Awkward on segment 1, nothing on 2.
    By hand: mqm (Source error by severity) A = (5 + 1) / 2 = 3, B = 2 / 2 = 1, so B first;
    marot (any source problem 0) A = (0 + 1) / 2 = 0.5, B = 1, so A first."""
    rows = [("A", 1, "Source error", "Major"), ("A", 2, "Fluency/Grammar", "Minor"),
            ("B", 1, "Style/Awkward", "Minor"), ("B", 1, "Style/Awkward", "Minor"),
            ("B", 2, ann.NO_ERROR, ann.NO_ERROR)]
    return ann.conform(pd.DataFrame([{"system": s, "doc": "d", "doc_seg_id": seg, "global_seg_id": seg, "rater": "r1",
                                      "source": "s", "target": "t", "category": c, "severity": v, "line": k + 2}
                                     for k, (s, seg, c, v) in enumerate(rows)]))


def test_scheme_weights_and_rankings_on_a_hand_computed_case(tmp_path):
    frame = _mqm_frame()
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
    # the chapter's sentences, read back from the two tables as the chapter saves them
    Findings().add("file", group="weights", text="hand.tsv").frame().to_csv(tmp_path / "data_summary.csv", index=False)
    analysis.scheme_weights(frame).to_csv(tmp_path / "scheme_weights.csv", index=False)
    analysis.scheme_rankings(frame).to_csv(tmp_path / "scheme_rankings.csv", index=False)
    found = ch08.findings(tmp_path, "schemes")
    row = lambda q: found[found["quantity"] == q].iloc[0]
    assert row("differing")["value"] == 1 and row("differing_rows")["value"] == 1 and row("moved")["value"] == 2
    assert row("pair_weights")["group"] == "Source error (Major)" and row("pair_weights")["text"] == "`mqm` 5, `marot` 0"
    assert row("top_mover")["value"] == 1 and row("top_mover")["text"] == "B"  # both move 1: the first listed
    assert row("file")["text"] == "hand.tsv" and row("schemes")["text"] == "`mqm` and `marot`"


def _kept() -> pd.DataFrame:
    """Three systems on the same four segments of one domain, one rating each, after filters.
    ESA means by hand: X (90, 80, 70, 60) 75, Y (50, 40, 30, 20) 35, refA (95, 85, 75, 65) 80."""
    scores = {"X": [90, 80, 70, 60], "Y": [50, 40, 30, 20], "refA": [95, 85, 75, 65]}
    rows = [{"lp": "en-cs", "system": s, "doc": "test-en-news_1", "line_id": i, "domain": "news", "rater": f"r{i}",
             "segment_type": "TGT", "score": float(v), "spans": "[]", "start_time": 0.0, "end_time": 1.0,
             "file": "w.csv", "line": i} for s, vs in scores.items() for i, v in enumerate(vs)]
    return pd.DataFrame(rows)


def test_esa_ranking_sets_the_human_ranks_beside_the_automatic_ones(tmp_path):
    """Humans: refA 80, X 75, Y 35. The automatic ranking (lower is better) puts Y (1.5) above
    X (2.0) and has no refA: among the two systems both rank, human X 1, Y 2, automatic Y 1,
    X 2, so X's shift is +1 (placed lower), Y's -1, and Kendall τ over two reversed systems is -1."""
    autorank = pd.DataFrame({"lp": ["en-cs", "en-cs"], "system": ["X", "Y"], "autorank": [2.0, 1.5]})
    ranking = analysis.esa_ranking(_kept(), autorank).set_index("system")
    assert list(ranking.index) == ["refA", "X", "Y"]
    assert ranking["score_by_domain"].tolist() == [80.0, 75.0, 35.0]
    assert ranking["kind"].to_dict() == {"refA": "human", "X": "submission", "Y": "submission"}
    assert ranking.loc["X", ["human_rank", "auto_rank", "rank_shift"]].tolist() == [1, 2, 1]
    assert ranking.loc["Y", ["human_rank", "auto_rank", "rank_shift"]].tolist() == [2, 1, -1]
    assert pd.isna(ranking.loc["refA", "auto_rank"])
    assert list(analysis.esa_ranking(_kept(), autorank).columns) == analysis.ESA_RANKING_COLUMNS
    assert [analysis.system_kind(s) for s in ("Aya23", "Llama3-70B", "ONLINE-W", "CUNI-MH", "refB")] == [
        "LLM", "LLM", "online", "submission", "human"]

    # the chapter's sentences, read back from the ranking as the chapter saves it
    Findings().add("report", text="r.tex").frame().to_csv(tmp_path / "esa_summary.csv", index=False)
    analysis.esa_ranking(_kept(), autorank).to_csv(tmp_path / "esa_rankings.csv", index=False)
    found = ch08.findings(tmp_path, "esa")
    row = lambda q, g="": found[(found["quantity"] == q) & (found["group"] == g)].iloc[0]
    assert row("pair")["text"] == "English→Czech" and row("metahope_direction")["value"] == 0
    assert row("tau")["value"] == pytest.approx(-1.0) and row("compared")["value"] == 2
    assert row("undervalued")["text"] == "X" and row("undervalued")["value"] == 1
    assert row("overvalued")["text"] == "Y" and row("overvalued")["value"] == 1
    assert row("auto_top")["text"] == "Y" and row("same_top")["value"] == 0
    assert row("human_top")["text"] == "refA" and row("human_first")["text"] == "X"  # refA has no automatic rank
    assert row("reference")["text"] == "refA" and row("reference")["value"] == 1
    assert row("kind", "submission")["text"] == "X (human 1, automatic 2) and Y (human 2, automatic 1)"
    assert row("kind_shift", "submission")["value"] == 0
    # a pair the report does not rank: no τ, and the words say so
    analysis.esa_ranking(_kept(), autorank.iloc[:0]).to_csv(tmp_path / "esa_rankings.csv", index=False)
    found = ch08.findings(tmp_path, "esa")
    assert pd.isna(row("tau")["value"]) and row("no_autorank")["text"] == "English→Czech"


def test_the_esa_parameters_are_checked(tmp_path):
    with pytest.raises(InputError, match="esa_lp"):
        ch08.setup(esa_lp="Chinese")
    with pytest.raises(InputError, match="esa_files"):
        ch08.setup(esa_files=[str(tmp_path / "none.csv")])
    assert ch08.setup(esa_lp="enzh").esa_lp == "en-zh"
    wave = tmp_path / "w.csv"
    wave.write_text("r1,GPT-4,5,TGT,eng,ces,71,test-en-news_a,False,[],1.0,2.0\n"
                    "r1,ONLINE-W,5,TGT,eng,ces,60,test-en-news_a,False,[],1.0,2.0\n", encoding="utf-8")
    with pytest.raises(InputError, match="esa_lp.*en-cs"):
        ch08.setup(esa_files=[str(wave)]).load_esa()  # the default en-zh is not in the file
    data = ch08.setup(esa_files=str(wave), esa_lp=None).load_esa()
    assert data.lp == "en-cs" and len(data.kept) == 2 and data.provenance.kind == "own"
    assert set(data.autorank["system"]) >= {"GPT-4", "ONLINE-W"}  # the mirrored report's EN→CS table
