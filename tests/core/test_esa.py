"""ESA files (WMT24/WMT25 Error Span Annotation): a hand-made file with every row type and
quirk, the other layouts, the errors, the commands; and the real WMT24 files (read once).

Hand-made expectations are worked out by hand in the comments. The real files' counts per
language pair are recounted here with the ``csv`` module alone, following the organisers'
``humeval/tools.py`` (``load_data``), and then pinned.
"""

from __future__ import annotations

import csv
import json

import krippendorff
import numpy as np
import pandas as pd
import pytest

from helpers import __main__ as cli
from helpers.core import paths
from helpers.core.errors import InputError
from helpers.core.formats import esa, esa_rankings, mqm

T0 = 1724108000.0


def esa_row(rater, system, seg, doc, score, spans=(), kind="TGT", langs=("eng", "zho"), end=0.0):
    """One WMT24 ESA CSV line (the organisers' 12 fields)."""
    text = json.dumps(list(spans), separators=(",", ":"))
    return [rater, system, seg, kind, langs[0], langs[1], score, doc, "False", text, T0 + end, T0 + end + 1]


NEWS, LIT = "test-en-news_a", "test-en-literary_b"
MAJOR = {"start_i": 0, "end_i": 4, "severity": "major", "error_type": None}
MINOR = {"start_i": 6, "end_i": 9, "severity": "minor", "error_type": None}
OMISSION = {"start_i": "missing", "end_i": "missing", "severity": "minor", "error_type": None}
UNDECIDED = {"start_i": 2, "end_i": 3, "severity": "undecided", "error_type": None}

#: Every row type and quirk. Kept (en-zh): A has segments 1 (news) 80 and 5 (literary) 60;
#: B has 1: 70 (r1) and 90 (r2) -> 80, 5: 40. r1 re-rated A/1: 50 earlier, 80 later.
ROWS = [
    esa_row("r1", "ende-tutorial1", 1000001, "ende-tutorial1", 0),  # tutorial
    esa_row("r1", "A", 1, NEWS, 50, [MAJOR], end=1),  # re-rated: earlier
    esa_row("r1", "A", 1, NEWS, 80, [MINOR, OMISSION, UNDECIDED], end=9),  # ... and later
    esa_row("r1", "A", 5, LIT, 60, [MAJOR], end=2),
    esa_row("r1", "B", 1, NEWS, 70, end=3),
    esa_row("r2", "B", 1, NEWS, 90, end=4),  # second rater
    esa_row("r2", "B", 5, LIT, 40, end=5),
    esa_row("r2", "B", 7, NEWS + "#bad", 10, [MAJOR], kind="BAD", end=6),  # quality control
    esa_row("r2", "A", 8, NEWS, 55, kind="CHK", end=7),  # check item
    esa_row("r2", "A", 9, NEWS + "#incomplete", 20, end=8),  # filler
    esa_row("r2", "A", 5, LIT + "#dup", 95, end=9),  # repeated item
    esa_row("r2", "A", 0, "canary", 100, end=10),  # canary
    esa_row("j1", "A", 3, "test-en-speech_c_000", 30, langs=("eng", "jpn"), end=11),  # another pair
]
DROPPED = {
    "other protocol": 0,
    "quality control (BAD/CHK)": 2,
    "tutorial": 1,
    "#incomplete": 1,
    "#dup": 1,
    "canary": 1,
    "re-rated (earlier rating)": 1,
}


def write_csv(path, rows, bom=False):
    with open(path, "w", newline="", encoding="utf-8-sig" if bom else "utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path


@pytest.fixture
def small(tmp_path):
    return write_csv(tmp_path / "esa_small.csv", ROWS, bom=True)  # a byte-order mark too


def test_every_row_type_and_quirk(small):
    ratings = esa.read_esa(small)
    assert list(ratings.columns) == esa.RATING_COLUMNS and len(ratings) == len(ROWS)
    assert set(ratings["lp"]) == {"en-zh", "en-ja"} and ratings.loc[0, "rater"] == "r1"  # no BOM in the name
    kept, counts = esa.organisers_filter(ratings)
    zh = counts[counts["lp"] == "en-zh"].set_index("filter")["dropped"].to_dict()
    assert zh == DROPPED
    assert counts[counts["lp"] == "en-ja"]["dropped"].sum() == 0
    # the later rating of A/1 (80, line 3) is kept, the earlier one (50) dropped
    a1 = kept[(kept["system"] == "A") & (kept["line_id"] == 1)]
    assert a1["score"].tolist() == [80.0] and a1["line"].tolist() == [3]
    # the same ratings under index labels that are not positions (a filtered frame) keep the same rows
    relabelled, recounted = esa.organisers_filter(ratings.set_axis(ratings.index * 10 + 7))
    assert relabelled["line"].tolist() == kept["line"].tolist() and recounted.equals(counts)
    table = esa.system_scores(kept[kept["lp"] == "en-zh"]).set_index("system")
    # A: (80 + 60) / 2 = 70; B: segment 1 = (70 + 90) / 2 = 80, segment 5 = 40, mean 60
    assert table.loc["A", "score"] == 70 and table.loc["B", "score"] == 60
    # one segment per domain, so the organisers' macro average is the same here
    assert table.loc["A", "score_by_domain"] == 70 and table.loc["B", "segments"] == 2
    assert table.loc["B", "raters"] == 2 and list(table.index) == ["A", "B"]


def test_macro_average_over_domains(tmp_path):
    rows = [esa_row("r", "A", 1, NEWS, 90), esa_row("r", "A", 2, NEWS, 70), esa_row("r", "A", 5, LIT, 50)]
    table = esa.system_scores(esa.organisers_filter(esa.read_esa(write_csv(tmp_path / "m.csv", rows)))[0])
    # over segments (90 + 70 + 50) / 3 = 70; over domains (news 80, literary 50) / 2 = 65
    assert table.loc[0, "score"] == 70 and table.loc[0, "score_by_domain"] == 65


def test_spans_in_the_annotation_model(small):
    kept, _ = esa.organisers_filter(esa.read_esa(small))
    en_zh = kept[kept["lp"] == "en-zh"]
    frame = esa.to_annotations(en_zh)
    a1 = frame[(frame["system"] == "en-zh/A") & (frame["doc_seg_id"] == 1)]
    assert a1[["category", "severity"]].values.tolist() == [["ESA", "Minor"], ["ESA/missing", "Minor"]]
    assert a1["target_start"].tolist()[0] == 6 and a1["target_end"].tolist()[0] == 9
    assert a1["target_start"].isna().tolist() == [False, True]  # an omission has no offsets
    assert json.loads(a1["metadata"].iloc[0])["esa_score"] == 80
    assert esa.undecided_spans(en_zh) == 1
    clean = frame[(frame["system"] == "en-zh/B") & (frame["doc_seg_id"] == 5)]
    assert clean["severity"].tolist() == ["No-error"]


def jsonl(path, rows):
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def test_the_jsonl_layouts_read_the_same_ratings(tmp_path):
    # the README's one-rating-per-line layout (merge_to_jsonl.py)
    flat = jsonl(
        tmp_path / "flat.jsonl",
        [
            {
                "langs": "en-zh",
                "line_id": 1,
                "doc_id": NEWS,
                "domain": "news",
                "esa_spans": [MINOR],
                "esa_score": "80",
                "system": "A",
                "annotator": "r1",
                "times": [T0, T0 + 1],
            },
            {
                "langs": "en-zh",
                "line_id": 5,
                "doc_id": LIT,
                "domain": "literary",
                "esa_spans": [],
                "esa_score": "60",
                "system": "A",
                "annotator": "r1",
            },
        ],
    )
    # WMT24's per-segment export: scores[system] is a list of ratings with a protocol
    seg24 = jsonl(
        tmp_path / "seg24.jsonl",
        [
            {
                "doc_id": f"en-zh_#_news_#_{NEWS}_#_1",
                "src_text": "s",
                "tgt_text": {"A": "t"},
                "scores": {
                    "A": [
                        {"score": 80.0, "annotator": "r1", "errors": [MINOR], "times": [T0, T0], "protocol": "ESA"},
                        {"score": -3.0, "annotator": "m1", "errors": [], "protocol": "MQM"},
                    ]
                },
            },
            {
                "doc_id": f"en-zh_#_literary_#_{LIT}_#_5",
                "src_text": "s",
                "tgt_text": {"A": "t"},
                "scores": {"A": [{"score": 60.0, "annotator": "r1", "errors": [], "protocol": "ESA"}]},
            },
        ],
    )
    # WMT25's per-segment layout: human1/errors1/annotator1 per wave
    seg25 = jsonl(
        tmp_path / "seg25.jsonl",
        [
            {
                "doc_id": f"en-zh_#_news_#_{NEWS}_#_1",
                "src_text": "s",
                "tgt_text": {"A": "t"},
                "scores": {"A": {"human1": 80.0, "errors1": [MINOR], "annotator1": "r1"}},
            },
            {
                "doc_id": f"en-zh_#_literary_#_{LIT}_#_5",
                "src_text": "s",
                "tgt_text": {"A": "t"},
                "scores": {"A": {"human1": 60.0, "errors1": [], "annotator1": "r1"}},
            },
        ],
    )
    for path in (flat, seg24, seg25):
        kept, counts = esa.organisers_filter(esa.read_esa(path))
        table = esa.system_scores(kept)
        assert table[["lp", "system", "segments", "score", "score_by_domain"]].values.tolist() == [
            ["en-zh", "A", 2, 70.0, 70.0]
        ], path.name
        assert sorted(kept["domain"]) == ["literary", "news"]
    kept, counts = esa.organisers_filter(esa.read_esa(seg24))
    assert counts.set_index("filter")["dropped"]["other protocol"] == 1  # the MQM rating


def test_wmt25_csv_segment_ids(tmp_path):
    row = esa_row("r1", "A", f"en-cs_CZ_#_news_#_{NEWS}_#_3", NEWS, 77)
    ratings = esa.read_esa(write_csv(tmp_path / "w25.csv", [row]))
    assert ratings[["lp", "domain", "line_id", "score"]].values.tolist() == [["en-cs_CZ", "news", 3, 77.0]]


@pytest.mark.parametrize(
    "rows, needle",
    [
        ([["r1", "A", "1", "TGT"]], "row 1: value 'r1,A,1,TGT': an ESA row has 12 comma-separated fields"),
        ([esa_row("r", "A", 1, NEWS, 101)], "row 1, column 'score': value '101': the ESA score must be"),
        (
            [esa_row("r", "A", 1, NEWS, 50), esa_row("r", "A", 2, NEWS, 50, kind="XYZ")],
            "row 2, column 'segment_type': value 'XYZ'",
        ),
        ([esa_row("r", "A", 1, NEWS, 50, langs=("eng", "xxx"))], "column 'target_lang': value 'xxx': unknown language"),
        (
            [esa_row("r", "A", 1, NEWS, 50, [{"start_i": 1, "end_i": 2, "severity": "huge"}])],
            "column 'spans': value 'huge': an ESA span's severity",
        ),
        (
            [esa_row("r", "A", 1, NEWS, 50, [{"start_i": "missing", "end_i": 4, "severity": "minor"}])],
            'an omission has "missing" for both',
        ),
    ],
)
def test_bad_rows_name_file_row_column_and_value(tmp_path, rows, needle):
    path = write_csv(tmp_path / "bad.csv", rows)
    with pytest.raises(InputError) as err:
        esa.read_esa(path)
    assert needle in str(err.value) and "bad.csv" in str(err.value)


def test_empty_file_is_one_line(tmp_path):
    path = tmp_path / "empty.csv"
    path.write_bytes(b"\xef\xbb\xbf\n")
    with pytest.raises(InputError, match="empty.csv: is empty"):
        esa.read_esa(path)


def test_the_mqm_reader_names_an_esa_file(small, tmp_path):
    for path in (small, jsonl(tmp_path / "x.jsonl", [{"langs": "en-zh", "line_id": 1, "esa_score": "5"}])):
        with pytest.raises(InputError, match="this is an ESA file") as err:
            mqm.read_mqm(path)
        assert "esa scores" in str(err.value)


def test_human_ranking_clusters_and_ranks(tmp_path):
    # A is far above B and C on all 60 segments (Wilcoxon p far below 0.05); B and C alternate.
    # (60 > 50 segments: scipy's normal approximation, as on the real files; its exact test is slow.)
    rows = []
    for i in range(60):
        rows += [
            esa_row("r", "A", i, NEWS, 95),
            esa_row("r", "B", i, NEWS, 50 + (i % 2) * 2),
            esa_row("r", "C", i, NEWS, 52 - (i % 2) * 2 + (i == 0)),
        ]
    kept, _ = esa.organisers_filter(esa.read_esa(write_csv(tmp_path / "r.csv", rows)))
    p = esa_rankings.pairwise_pvalues(kept).set_index(["system", "other"])["p"]
    assert p["A", "B"] < 1e-6 and p["B", "C"] > 0.05 and p["B", "C"] == p["C", "B"]
    table = esa_rankings.human_ranking(kept).set_index("system")
    assert table["cluster"].to_dict() == {"A": 1, "B": 2, "C": 2}
    assert table.loc["A", ["rank_low", "rank_high"]].tolist() == [1, 1]
    assert table.loc["B", ["rank_low", "rank_high"]].tolist() == [2, 3]


def test_rank_agreement_is_kendall_tau_by_hand():
    human = pd.DataFrame({"lp": "en-zh", "system": ["A", "B", "C", "refA"], "score_by_domain": [90.0, 80, 70, 85]})
    auto = pd.DataFrame({"lp": "en-zh", "system": ["A", "C", "B", "X"], "autorank": [1.0, 2.0, 3.0, 4.0]})
    compared = esa_rankings.compare_rankings(human, auto).set_index("system")
    assert compared["auto_rank"].tolist()[:3] == [1, 3, 2] and pd.isna(compared.loc["refA", "auto_rank"])
    assert compared.loc["C", "rank_shift"] == -1
    row = esa_rankings.rank_agreement(compared.reset_index()).iloc[0]
    # pairs AB, AC concordant, BC discordant: tau = (2 - 1) / 3
    assert row["systems"] == 3 and row["kendall_tau"] == pytest.approx(1 / 3) and row["same_top"]


# --------------------------------------------------------------------------- command line


def run_cli(capsys, *args):
    code = cli.main(["esa", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_scores_says_what_each_filter_dropped(capsys, small, tmp_path):
    out_csv, seg_csv = tmp_path / "s.csv", tmp_path / "seg.csv"
    code, out, err = run_cli(capsys, "scores", small, "--lp", "en-zh", "--out", out_csv, "--segments", seg_csv)
    assert code == 0 and err == ""
    assert (
        "en-zh: 5 of 12 rows kept; dropped: other protocol 0; quality control (BAD/CHK) 2; tutorial 1; #incomplete 1; #dup 1; "
        "canary 1; re-rated (earlier rating) 1" in out
    )
    table = pd.read_csv(out_csv)
    assert list(table.columns) == esa.SYSTEM_COLUMNS and table["score"].tolist() == [70, 60]
    segments = pd.read_csv(seg_csv)
    assert list(segments.columns) == ["lp", "system", "doc", "line_id", "domain", "ratings", "score"]
    assert segments["ratings"].tolist() == [1, 1, 1, 2] and segments["score"].tolist() == [60, 80, 40, 80]


def test_cli_unknown_pair_is_one_error_line(capsys, small):
    code, out, err = run_cli(capsys, "scores", small, "--lp", "de-en")
    assert code == 1 and err.count("\n") == 1 and "en-ja, en-zh" in err


def test_cli_agreement_is_krippendorff_alpha_or_says_there_is_none(capsys, tmp_path):
    rng = np.random.default_rng(3)
    truth = rng.integers(30, 100, 20)
    rows = [
        esa_row(r, s, i, NEWS, int(min(100, truth[i] + rng.integers(-15, 15) + (s == "B") * -5)), end=i)
        for s in ("A", "B")
        for i in range(20)
        for r in ("r1", "r2", "r3")
    ]
    path = write_csv(tmp_path / "three.csv", rows)
    out_csv = tmp_path / "a.csv"
    code, out, err = run_cli(capsys, "agreement", path, "--out", out_csv, "--n-boot", "50")
    assert code == 0, err
    table = pd.read_csv(out_csv)
    wide = pd.DataFrame([r for r in rows], columns=esa.CSV_FIELDS)
    wide = wide.pivot_table(index=["system", "segment_id"], columns="rater", values="score")
    alpha = krippendorff.alpha(reliability_data=wide.to_numpy(dtype=float).T, level_of_measurement="interval")
    row = table[(table["scope"] == "overall") & (table["statistic"] == "alpha")].iloc[0]
    assert row["lp"] == "en-zh" and row["estimate"] == pytest.approx(alpha, abs=1e-12) and row["n"] == 40
    one = write_csv(tmp_path / "one.csv", [esa_row("r1", "A", i, NEWS, 50) for i in range(3)])
    code, out, err = run_cli(capsys, "agreement", one, "--out", tmp_path / "none.csv")
    assert code == 0 and "no segment has ratings by two or more raters" in out
    assert not (tmp_path / "none.csv").exists()


# --------------------------------------------------------------------------- the real WMT24 files

REPO = "wmt-conference__wmt24-news-systems"
WAVES = ["humeval/esa_generalMT2024_wave2.csv", "humeval/esa_generalMT2024_wave3.csv"]
#: Ratings left per pair after the organisers' filters, waves 2 and 3 (recounted below).
KEPT = {"en-cs": 4752, "en-hi": 3267, "en-ja": 8242, "en-zh": 8242}
#: Rows each filter dropped, per pair.
DROPS = {
    "en-cs": [0, 733, 369, 200, 51, 0, 15],
    "en-hi": [0, 511, 255, 133, 49, 0, 24],
    "en-ja": [0, 1291, 639, 373, 77, 0, 52],
    "en-zh": [0, 1278, 638, 374, 77, 0, 91],
}
#: The preliminary automatic ranking as printed (report/generated_report.tex, English-Chinese, full table):
#: AutoRank, MetricX, CometKiwi, and whether the system was chosen for human evaluation.
AUTO_ENZH = {
    "Unbabel-Tower70B": (1.0, 2.3, 0.726, True),
    "GPT-4": (2.0, 3.3, 0.693, True),
    "ONLINE-W": (2.2, 3.2, 0.677, False),
    "Llama3-70B": (2.8, 3.9, 0.662, True),
    "Aya23": (3.0, 4.1, 0.655, True),
    "UvA-MT": (4.3, 5.2, 0.607, False),
    "CycleL2": (22.0, 22.1, 0.030, False),
}
#: EN->ZH ESA system scores from waves 2-3 (the organisers' macro average over domains), at the
#: organisers' printing precision (one decimal). Computed here, not published in the mirrored files.
HUMAN_ENZH = {
    "GPT-4": "90.3",
    "Unbabel-Tower70B": "89.8",
    "Claude-3.5": "89.6",
    "Gemini-1.5-Pro": "89.6",
    "ONLINE-B": "88.7",
    "IOL-Research": "88.6",
    "refA": "88.4",
    "CommandR-plus": "88.3",
    "IKUN": "87.1",
    "Aya23": "86.9",
    "Llama3-70B": "86.3",
    "HW-TSC": "86.1",
    "IKUN-C": "81.4",
}


@pytest.fixture(scope="module")
def real():
    root = paths.raw_data_dir() / REPO
    ratings = esa.read_many([root / w for w in WAVES])
    kept, counts = esa.organisers_filter(ratings)
    return root, ratings, kept, counts


CODES = {"eng": "en", "ces": "cs", "hin": "hi", "jpn": "ja", "zho": "zh"}  # ISO 639-3 -> 639-1


def _recount(root) -> dict:
    """tools.py's load_data, by hand: TGT rows, no tutorial, #incomplete, #dup or canary; then
    one rating per (rater, system, document, segment, pair): the latest end_time."""
    latest = {}
    for wave in WAVES:
        with open(root / wave, newline="", encoding="utf-8") as fh:
            for f in csv.reader(fh):
                if f[3] != "TGT" or "tutorial" in f[1] or "#incomplete" in f[7] or "#dup" in f[7] or f[7] == "canary":
                    continue
                key = (f[0], f[1], f[7], f[2], f[4], f[5])
                if key not in latest or float(f[11]) >= latest[key]:
                    latest[key] = float(f[11])
    out = {}
    for _, _, _, _, src, tgt in latest:
        lp = f"{CODES[src]}-{CODES[tgt]}"
        out[lp] = out.get(lp, 0) + 1
    return out


def test_real_row_counts_after_the_organisers_filters(real):
    root, ratings, kept, counts = real
    assert len(ratings) == 20434 + 11299
    assert kept.groupby("lp").size().to_dict() == KEPT == _recount(root)
    table = counts.pivot(index="lp", columns="filter", values="dropped")[esa.FILTERS]
    assert {lp: table.loc[lp].tolist() for lp in table.index} == DROPS


def test_real_segment_ids_are_lines_of_the_pairs_texts(real):
    root, _, kept, _ = real
    docs = (root / "txt/documents/en-zh.docs").read_text(encoding="utf-8").splitlines()
    zh = kept[kept["lp"] == "en-zh"]
    # the fixed files (2024-11-29): the segment id is the 0-based line, line 0 being the canary
    assert all(docs[i].split("\t") == [d, doc] for i, d, doc in zip(zh["line_id"], zh["domain"], zh["doc"]))
    # every error span lies within the translation on that line (one line further, 675 of 2,451 would not)
    lines = {}
    for system in zh["system"].unique():
        name = "references/en-zh.refA.txt" if system == "refA" else f"system-outputs/en-zh/{system}.txt"
        lines[system] = (root / "txt" / name).read_text(encoding="utf-8").split("\n")
    ends = [
        (s["end_i"], len(lines[system][i]), len(lines[system][i + 1]))
        for system, i, spans in zip(zh["system"], zh["line_id"], zh["spans"])
        for s in json.loads(spans)
        if s["start_i"] != esa.MISSING
    ]
    assert len(ends) == 2451 and all(end <= n for end, n, _ in ends)
    assert sum(end > n_next for end, _, n_next in ends) == 675


def test_published_enzh_table_and_who_humans_rated(real):
    root, _, kept, _ = real
    auto = esa_rankings.read_autorank(root / "report/generated_report.tex")
    assert auto.groupby("lp").size()["en-zh"] == 21 and auto["lp"].nunique() == 11
    enzh = auto[auto["lp"] == "en-zh"].set_index("system")
    for system, (rank, metricx, kiwi, rated) in AUTO_ENZH.items():
        assert tuple(enzh.loc[system, ["autorank", "metricx", "cometkiwi", "human_evaluated"]]) == (
            rank,
            metricx,
            kiwi,
            rated,
        ), system
    assert enzh.loc["UvA-MT", "withdrawn"] and not enzh.loc["Llama3-70B", "supports_lp"]
    # every system the report marks for human evaluation, and no other, is in the ESA files (with refA)
    for lp in KEPT:
        chosen = set(auto[(auto["lp"] == lp) & auto["human_evaluated"]]["system"])
        assert set(kept[kept["lp"] == lp]["system"]) == chosen | {"refA"}, lp
    human = esa.system_scores(kept[kept["lp"] == "en-zh"])
    assert {s: f"{v:.1f}" for s, v in zip(human["system"], human["score_by_domain"])} == HUMAN_ENZH
    assert (human["segments"] == 634).all()
    both = esa_rankings.compare_rankings(human.assign(cluster=1), auto).set_index("system")
    assert both.loc["GPT-4", ["human_rank", "auto_rank"]].tolist() == [1, 6]
    assert pd.isna(both.loc["refA", "auto_rank"])
    # the automatic ranking agrees with the human one only in part, and picks another winner
    agreement = esa_rankings.rank_agreement(both.reset_index()).iloc[0]
    assert agreement["systems"] == 12 and round(agreement["kendall_tau"], 3) == 0.615 and not agreement["same_top"]
