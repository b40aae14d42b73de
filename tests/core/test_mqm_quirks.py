"""Quirks of the real MQM files and what Marot and the WMT organisers give that ``mqm scores``
needed (issue 32): a byte-order mark, an empty file, WMT24's canary document, Marot's
metadata-only rows, the weighting said on every run, scoring per 100 source characters,
document-bootstrap intervals and the segment export. Each on a small hand-made file."""

from __future__ import annotations

import gzip
import json

import pandas as pd
import pytest

from helpers import __main__ as cli
from helpers.core import annotations as ann
from helpers.core import mqm, paths, schemes, scoring
from helpers.core.errors import InputError

HEADER = ["system", "doc", "docSegId", "globalSegId", "rater", "source", "target", "category", "severity", "metadata"]
#: Two systems, documents d1 (segments 1, 2) and d2 (segment 1), raters r1 and r2. Penalties (mqm):
#: A: d1/1 r1 5 r2 1 -> 3; d1/2 r1 0 r2 0.1 -> 0.05; d2/1 r1 1 r2 1 -> 1.
#: B: d1/1 r1 0 (Source issue) r2 5 -> 2.5; d1/2 r1 0 r2 0 -> 0; d2/1 r1 5 r2 25 -> 15.
ROWS = [
    ["A", "d1", 1, 1, "r1", "ab<v>c</v>", "t", "Accuracy/Mistranslation", "Major", ""],
    ["A", "d1", 1, 1, "r2", "abc", "t", "Style/Awkward", "Minor", ""],
    ["A", "d1", 2, 2, "r1", "defgh", "t", "No-error", "No-error", ""],
    ["A", "d1", 2, 2, "r2", "defgh", "t", "Fluency/Punctuation", "Minor", ""],
    ["A", "d2", 1, 3, "r1", "ijklmnopqr", "t", "Fluency/Grammar", "Minor", ""],
    ["A", "d2", 1, 3, "r2", "ijklmnopqr", "t", "Style/Awkward", "Minor", ""],
    ["B", "d1", 1, 1, "r1", "abc", "t", "Source issue", "Major", ""],
    ["B", "d1", 1, 1, "r2", "abc", "t", "Accuracy/Omission", "Major", ""],
    ["B", "d1", 2, 2, "r1", "defgh", "t", "No-error", "No-error", ""],
    ["B", "d1", 2, 2, "r2", "defgh", "t", "No-error", "No-error", ""],
    ["B", "d2", 1, 3, "r1", "ijklmnopqr", "t", "Accuracy/Addition", "Major", ""],
    ["B", "d2", 1, 3, "r2", "ijklmnopqr", "t", "Non-translation!", "Major", ""],
]
#: mean over the three segments
SCORES = {"A": (3 + 0.05 + 1) / 3, "B": (2.5 + 0 + 15) / 3}
#: sum of segment scores over (3 + 5 + 10 source characters) / 100
PER_100_CHARS = {"A": (3 + 0.05 + 1) / 0.18, "B": (2.5 + 0 + 15) / 0.18}


def text(rows) -> str:
    return "".join("\t".join(map(str, r)) + "\n" for r in rows)


def write(path, rows, header=HEADER, prefix: bytes = b""):
    path.write_bytes(prefix + text([header] + rows).encode("utf-8"))
    return path


def run_cli(capsys, *args):
    code = cli.main(["mqm", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def scores_of(path, **kw) -> dict:
    table = scoring.system_scores(scoring.rater_scores(mqm.read_mqm(path), "mqm"), **kw)
    return dict(zip(table["system"], table["score"]))


# --------------------------------------------------------------------------- quirks of the files


@pytest.mark.parametrize("gz", [False, True])
def test_a_byte_order_mark_is_skipped(tmp_path, gz):
    """A UTF-8 BOM (as Windows tools write it) used to glue itself to 'system', so the header
    was not seen and the reader complained about segment ids."""
    path = write(tmp_path / "bom.tsv", ROWS, prefix=b"\xef\xbb\xbf")
    if gz:
        gz_path = tmp_path / "bom.tsv.gz"
        gz_path.write_bytes(gzip.compress(path.read_bytes()))
        path = gz_path
    frame = mqm.read_mqm(path)
    assert len(frame) == len(ROWS) and frame["system"].iloc[0] == "A" and frame["line"].iloc[0] == 2
    assert scores_of(path) == pytest.approx(SCORES)


def test_a_segment_score_file_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "s.avg_seg_scores.tsv"
    path.write_bytes(b"\xef\xbb\xbfsystem mqm_avg_score seg_id\nA -1.5 1\nB None 1\n")
    assert mqm.is_segment_score_file(path)
    assert mqm.read_segment_scores(path)[["system", "score"]].values.tolist() == [["A", 1.5]]


@pytest.mark.parametrize("content", [b"", b"\n\n  \n", b"\xef\xbb\xbf"])
def test_an_empty_file_is_one_line_naming_it(tmp_path, capsys, content):
    path = tmp_path / "empty.tsv"
    path.write_bytes(content)
    with pytest.raises(InputError, match="is empty") as err:
        mqm.read_mqm(path)
    assert err.value.file == path
    code, out, errtext = run_cli(capsys, "scores", path)
    assert code != 0 and out == ""
    assert errtext.strip().splitlines() == [f"error: {path}: is empty: it holds no line of text"]


def test_a_header_only_file_holds_no_annotation_rows(tmp_path):
    with pytest.raises(InputError, match="holds no annotation rows"):
        mqm.read_mqm(write(tmp_path / "h.tsv", []))


#: WMT24's files open with a 'canary' document (a test string); its rows read like any others.
CANARY = [["A", "canary", 1, 1, "r1", "canary string", "canary string", "No-error", "No-error", ""],
          ["B", "canary", 1, 1, "r1", "canary string", "canary string", "Accuracy/Mistranslation", "Major", ""]]


def test_the_canary_document_is_dropped_counted_and_reported(tmp_path, capsys):
    """The organisers' reader (wmt24-news-systems humeval/tools.py) drops doc == 'canary';
    read as a segment, it shifted every system score (B's by 5/4 here) and the segment count."""
    path = write(tmp_path / "c.tsv", CANARY + ROWS)
    frame = mqm.read_mqm(path)
    assert "canary" not in set(frame["doc"]) and len(frame) == len(ROWS)
    assert frame.attrs["dropped"] == {"canary": 2, "metadata_only": 0}
    assert frame.attrs["notes"] == ["dropped 2 row(s) of the 'canary' document (WMT24's test string, dropped by the "
                                    "organisers' reader too)"]
    table = scoring.system_scores(scoring.rater_scores(frame))
    assert dict(zip(table["system"], table["score"])) == pytest.approx(SCORES)
    assert set(table["segments"]) == {3}
    code, out, _ = run_cli(capsys, "scores", path)
    assert code == 0 and "read: dropped 2 row(s) of the 'canary' document" in out
    assert "2 systems, 3 segments rated for every system" in out


#: Marot's README: a row that only carries metadata (references, metrics) leaves rater, category
#: and severity empty.
METADATA_ONLY = ["A", "d1", 1, 1, "", "abc", "t", "", "",
                 json.dumps({"segment": {"references": {"ref-A": "x"}, "metrics": {"BLEURT": 0.5}}})]


def test_a_metadata_only_row_is_read_and_rates_nothing(tmp_path, capsys):
    path = write(tmp_path / "m.tsv", [METADATA_ONLY] + ROWS + [["B", "d1", 2, 2, "", "defgh", "t", "", "", "{}"]])
    frame = mqm.read_mqm(path)
    assert len(frame) == len(ROWS) and (frame["rater"] != "").all()
    assert frame.attrs["dropped"] == {"canary": 0, "metadata_only": 2}
    assert scores_of(path) == pytest.approx(SCORES)
    code, out, _ = run_cli(capsys, "scores", path)
    assert code == 0 and "read: read 2 metadata-only row(s)" in out


def test_a_line_cut_short_is_still_too_few_fields(tmp_path):
    with pytest.raises(InputError, match="too few fields") as err:
        mqm.read_mqm(write(tmp_path / "cut.tsv", ROWS[:2] + [["A", "d1"]]))
    assert err.value.row == 4


# --------------------------------------------------------------------------- the weighting, said


def test_weight_table_is_each_category_and_severity_present(tmp_path):
    frame = mqm.read_mqm(write(tmp_path / "w.tsv", ROWS + [["A", "d1", 1, 1, "r2", "abc", "t", "Found", "HOTW-test",
                                                          ""]]))
    table = schemes.weight_table(frame, "mqm")
    assert list(table.columns) == schemes.WEIGHT_COLUMNS == ["category", "severity", "weight", "n", "rule"]
    got = {(c, s): (w, n, r) for c, s, w, n, r in table.itertuples(index=False, name=None) if s != ann.HOTW}
    assert got == {("Non-translation!", "Major"): (25, 1, "Non-trans"),
                   ("Source issue", "Major"): (0, 1, "Source issue"), ("Fluency/Punctuation", "Minor"): (0.1, 1, "Punct"), ("Style/Awkward", "Minor"): (1, 2, "Minor"),
                   ("Fluency/Grammar", "Minor"): (1, 1, "Minor"), ("Accuracy/Mistranslation", "Major"): (5, 1, "Major"),
                   ("Accuracy/Omission", "Major"): (5, 1, "Major"), ("Accuracy/Addition", "Major"): (5, 1, "Major"),
                   ("No-error", "No-error"): (0, 3, "No-error")}
    hotw = table[table["severity"] == ann.HOTW].iloc[0]
    assert pd.isna(hotw["weight"]) and hotw["n"] == 1 and hotw["rule"] == "left out"
    assert table["n"].sum() == len(frame)


def test_every_run_says_how_the_file_was_weighted(tmp_path, capsys):
    path = write(tmp_path / "w.tsv", ROWS + [["B", "d1", 2, 2, "r3", "defgh", "t", "Source error", "Minor", ""]])
    code, out, _ = run_cli(capsys, "scores", path)
    assert code == 0
    assert ("weights (scheme mqm): Non-translation! (Major) 25, Source issue (Major) 0, Fluency/Punctuation (Minor) "
            "0.1, Minor 1, Source error (Minor) 1, Major 5, No-error 0") in out.splitlines()
    code, out, _ = run_cli(capsys, "scores", path, "--weights", "marot")
    assert ("weights (scheme marot): Fluency/Punctuation (Minor) 0.1, Source error (Minor) 0, Source issue (Major) 0, "
            "Non-translation! (Major) 25, Minor 1, Major 5, No-error 0") in out.splitlines()
    code, out, _ = run_cli(capsys, "agreement", path, "--n-boot", "10")
    assert code == 0 and any(line.startswith("weights (scheme mqm): ") for line in out.splitlines())


def test_a_segment_score_file_says_no_weights_applied(tmp_path, capsys):
    path = tmp_path / "s.avg_seg_scores.tsv"
    path.write_text("system mqm_avg_score seg_id\nA -1.5 1\n")
    code, out, _ = run_cli(capsys, "scores", path)
    assert code == 0 and "weights: none applied (the file gives its segments' scores)" in out


# --------------------------------------------------------------------------- Marot's and the organisers' features


def test_source_chars_count_as_marot_counts():
    """Marot's srcLen: the source with <v></v> removed, every character, JavaScript's length."""
    got = scoring.source_chars(pd.Series(["ab<v>c</v>", "a b", "<v></v>", "é😀"]))
    assert got.tolist() == [3, 3, 0, 3]


def test_source_chars_equal_the_lengths_the_2023_file_records():
    """WMT 2023's file records num_source_chars in some rows' segment metadata (Marot's own count)."""
    path = paths.released_file("google/wmt-mqm-human-evaluation",
                               "generalMT2023/zhen/sxs_mqm_generalMT2023_zhen.3ratingsPerSegment.tsv.tar.gz")
    frame = mqm.read_mqm(path, columns=["system", "doc", "doc_seg_id", "source", "metadata"])
    recorded = pd.Series([m.get("segment", {}).get("num_source_chars") for m in ann.parse_metadata(frame)])
    has = recorded.notna().to_numpy()
    assert has.sum() > 3000
    assert (scoring.source_chars(frame["source"][has]) == recorded[has].astype(int).to_numpy()).all()


def test_per_100_source_characters(tmp_path, capsys):
    path = write(tmp_path / "c.tsv", ROWS)
    frame = mqm.read_mqm(path)
    table = scoring.system_scores(scoring.rater_scores(frame), per_100_chars=True)
    assert dict(zip(table["system"], table["score"])) == pytest.approx(PER_100_CHARS)
    with pytest.raises(InputError, match="needs the source texts"):
        scoring.system_scores(scoring.rater_scores(frame.drop(columns="source")), per_100_chars=True)
    out_csv = tmp_path / "s.csv"
    code, out, _ = run_cli(capsys, "scores", path, "--per-100-chars", "--out", out_csv)
    assert code == 0 and "scores per 100 source characters" in out.splitlines()[0]
    written = pd.read_csv(out_csv)
    assert list(written.columns) == scoring.SYSTEM_COLUMNS
    assert dict(zip(written["system"], written["score"])) == pytest.approx(PER_100_CHARS)


def test_document_bootstrap_intervals(tmp_path, capsys):
    """Two documents of one segment each per system: a resample draws d1 twice, d2 twice, or
    both, so with many resamples the 95% interval runs from one document's score to the other's."""
    rows = [["A", "d1", 1, 1, "r1", "s", "t", "Style/Awkward", "Minor", ""],
            ["A", "d2", 1, 2, "r1", "s", "t", "Accuracy/Omission", "Major", ""],
            ["B", "d1", 1, 1, "r1", "s", "t", "No-error", "No-error", ""],
            ["B", "d2", 1, 2, "r1", "s", "t", "No-error", "No-error", ""]]
    path = write(tmp_path / "b.tsv", rows)
    ratings = scoring.rater_scores(mqm.read_mqm(path))
    table = scoring.system_scores(ratings, ci=95, n_boot=2000, seed=1).set_index("system")
    assert list(table.reset_index().columns) == scoring.SYSTEM_COLUMNS + ["ci_low", "ci_high"]
    assert table.loc["A", ["score", "ci_low", "ci_high"]].tolist() == pytest.approx([3.0, 1.0, 5.0])
    assert table.loc["B", ["score", "ci_low", "ci_high"]].tolist() == [0.0, 0.0, 0.0]
    again = scoring.system_scores(ratings, ci=90, n_boot=50, seed=7)
    assert again.equals(scoring.system_scores(ratings, ci=90, n_boot=50, seed=7))  # seeded
    out_csv = tmp_path / "ci.csv"
    code, out, _ = run_cli(capsys, "scores", "--ci", path, "--n-boot", "2000", "--seed", "1", "--out", out_csv)
    assert code == 0 and "ci: 95% percentile interval over 2000 resamples of whole documents (seed 1)" in out
    written = pd.read_csv(out_csv).set_index("system")
    assert written.loc["A", ["ci_low", "ci_high"]].tolist() == pytest.approx([1.0, 5.0])
    code, out, _ = run_cli(capsys, "scores", path, "--ci", "--ci-level", "40", "--n-boot", "2000", "--seed", "1")
    assert code == 0 and "ci: 40% percentile interval" in out  # 30th-70th percentile: 'both documents' (3) in 1/2
    line = next(r for r in out.splitlines() if r.strip().startswith("A "))
    assert line.split()[-2:] == ["3.000", "3.000"]


def test_no_interval_without_documents(tmp_path, capsys):
    """A per-segment score file names no documents: one 'document' would give a zero-width interval."""
    path = tmp_path / "s.avg_seg_scores.tsv"
    path.write_text("system mqm_avg_score seg_id\nA -1.5 1\nA -0.5 2\nB -1 1\nB -2 2\n")
    code, out, err = run_cli(capsys, "scores", path, "--ci")
    assert code != 0 and "an interval resamples whole documents, and these segments name none" in err


def test_segment_export(tmp_path, capsys):
    path = write(tmp_path / "e.tsv", ROWS + [["A", "d3", 1, 4, "r1", "x", "t", "Style/Awkward", "Major", ""]])
    seg_csv = tmp_path / "seg.csv"
    code, out, _ = run_cli(capsys, "scores", path, "--segments", seg_csv)
    assert code == 0 and f"written: {seg_csv}" in out
    seg = pd.read_csv(seg_csv)
    assert list(seg.columns) == scoring.SEGMENT_COLUMNS == ["system", "doc", "segment", "n_raters", "score"]
    assert seg.values.tolist() == [["A", "d1", 1, 2, 3.0], ["A", "d1", 2, 2, 0.05], ["A", "d2", 1, 2, 1.0],
                                   ["B", "d1", 1, 2, 2.5], ["B", "d1", 2, 2, 0.0], ["B", "d2", 1, 2, 15.0]]
    assert seg.groupby("system")["score"].mean().to_dict() == pytest.approx(SCORES)  # d3 (A only) is not used
    code, out, _ = run_cli(capsys, "scores", path, "--all-segments", "--segments", seg_csv)
    assert len(pd.read_csv(seg_csv)) == 7
