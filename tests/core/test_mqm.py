"""The MQM/Marot reader and writer on small hand-made files, one per variant and quirk."""

from __future__ import annotations

import gzip
import io
import json
import tarfile

import pandas as pd
import pytest

from helpers.core.errors import InputError
from helpers.core.formats import annotations as ann
from helpers.core.formats import mqm

from .mqm_quirks import ROWS, SCORES, run_cli, scores_of, write

MAROT_HEADER = [
    "system",
    "doc",
    "docSegId",
    "globalSegId",
    "rater",
    "source",
    "target",
    "category",
    "severity",
    "metadata",
    "# Documentation: https://github.com/google-research/google-research/tree/master/marot",
]


WMT_HEADER = ["system", "doc", "doc_id", "seg_id", "rater", "source", "target", "category", "severity"]


def tsv(path, rows) -> object:
    path.write_text("".join("\t".join(map(str, r)) + "\n" for r in rows), encoding="utf-8")
    return path


def marot_rows():
    seg = json.dumps({"segment": {"metrics": {"MQM": 5.0}}, "timestamp": 1})
    return [
        MAROT_HEADER,
        ["sysA", "doc1", 1, 11, "r1", "源 <v>文</v>", "The cat.", "Accuracy/Mistranslation", "major", seg],
        ["sysA", "doc1", 1, 11, "r1", "源文", "The <v>cat</v>.", "Fluency/Punctuation", "MINOR", json.dumps({"t": 2})],
        ["sysA", "doc1", 1, 11, "r2", "源文", "The cat.", "No-error", "no-error", ""],
        [],
        MAROT_HEADER,  # a concatenated second file repeats the header
        ["sysB", "doc1", 1, 11, "r1", "源文", '"Quoted start, no end', "Non-translation!", "Major", "{}"],
        ["sysB", "doc1", 1, 11, "r2", "源文", "x", "Source issue", "critical", "a plain note"],
        ["sysB", "doc1", 1, 11, "r2", "源文", "x", "Found", "HOTW-test", "{}"],
        ["sysB", "doc1", 1, 11, "r2", "源文", "x", "Missed", "hotw-test", "{}"],
        ["sysB", "doc1", 1, 11, "r2", "源文", "x", "Style/Awkward", "neutral", "{}"],
    ]


def test_marot_file_with_recurring_headers_blank_lines_and_every_quirk(tmp_path):
    f = mqm.read_mqm(tsv(tmp_path / "m.tsv", marot_rows()))
    assert list(f.columns) == ann.COLUMNS and len(f) == 8
    assert f["line"].tolist() == [2, 3, 4, 7, 8, 9, 10, 11]  # header, blank line and second header skipped
    assert f["severity"].tolist() == [
        "Major",
        "Minor",
        "No-error",
        "Major",
        "Critical",
        "HOTW-test",
        "HOTW-test",
        "Neutral",
    ]
    assert f["category"].tolist()[3:5] == ["Non-translation!", "Source issue"]
    assert f["target"].iloc[3] == '"Quoted start, no end'  # csv.QUOTE_NONE: the quote is text
    assert (f["doc_seg_id"] == 1).all() and (f["global_seg_id"] == 11).all()
    # spans: source "源 <v>文</v>" -> characters 2..3 of "源 文"; target "The <v>cat</v>." -> 4..7
    assert (f.loc[0, "source_start"], f.loc[0, "source_end"]) == (2, 3)
    assert pd.isna(f.loc[0, "target_start"]) and (f.loc[1, "target_start"], f.loc[1, "target_end"]) == (4, 7)
    assert ann.clean_text(f["target"]).iloc[1][4:7] == "cat"
    hotw = ann.hotw_counts(f)
    assert hotw.to_dict("records") == [{"rater": "r2", "found": 1, "missed": 1, "tests": 2}]


def test_metadata_is_parsed_and_the_segment_entry_carried_forward(tmp_path):
    f = mqm.read_mqm(tsv(tmp_path / "m.tsv", marot_rows()))
    meta = ann.parse_metadata(f)
    assert meta.iloc[0]["segment"] == {"metrics": {"MQM": 5.0}}
    assert meta.iloc[1] == {"t": 2, "segment": {"metrics": {"MQM": 5.0}}}  # same (system, doc, segment)
    assert meta.iloc[2]["segment"] == {"metrics": {"MQM": 5.0}}
    assert "segment" not in meta.iloc[3]  # another system's segment: nothing to carry
    assert meta.iloc[4] == {"note": "a plain note"}  # not JSON: a rater's note, as Marot reads it


def test_wmt_2020_21_columns_with_a_comment_column(tmp_path):
    rows = [
        WMT_HEADER + ["comment"],
        ["Borderline", "talk.2", 3, 84, "rater3", "源", "I <v>want</v> you", "Style/Awkward", "Major", "odd"],
        ["Borderline", "talk.2", 4, 85, "rater3", "源", "ok", "No-error", "No-error"],
    ]
    f = mqm.read_mqm(tsv(tmp_path / "w.tsv", rows))
    assert f[["doc", "doc_seg_id", "global_seg_id"]].values.tolist() == [["talk.2", 3, 84], ["talk.2", 4, 85]]
    assert f["metadata"].tolist() == ["odd", ""]
    assert ann.parse_metadata(f).tolist() == [{"note": "odd"}, {}]


def test_gz_and_tar_gz_read_directly(tmp_path):
    plain = tsv(tmp_path / "m.tsv", marot_rows())
    data = plain.read_bytes()
    (tmp_path / "m.tsv.gz").write_bytes(gzip.compress(data))
    with tarfile.open(tmp_path / "m.tsv.tar.gz", "w:gz") as tar:
        info = tarfile.TarInfo("inner/m.tsv")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    want = mqm.read_mqm(plain)
    pd.testing.assert_frame_equal(mqm.read_mqm(tmp_path / "m.tsv.gz"), want)
    pd.testing.assert_frame_equal(mqm.read_mqm(tmp_path / "m.tsv.tar.gz"), want)


def test_scoring_columns_only_and_chunks_keep_line_numbers(tmp_path):
    path = tsv(tmp_path / "m.tsv", marot_rows())
    whole = mqm.read_mqm(path)
    small = mqm.read_mqm(path, columns=ann.SCORING_COLUMNS, chunksize=3)
    pd.testing.assert_frame_equal(small, whole[ann.SCORING_COLUMNS])
    bad = marot_rows() + [["sysB", "doc1", "x2", 11, "r2", "s", "t", "Other", "Minor"]]
    with pytest.raises(InputError) as err:
        mqm.read_mqm(tsv(tmp_path / "bad.tsv", bad), chunksize=2)
    assert err.value.row == 12 and err.value.value == "x2"


def test_side_by_side_pairing_keys_kept_and_poolable():
    frame = pd.DataFrame(
        {
            "system": ["GPT4-5shot_with_refA", "GPT4-5shot_with_ONLINE-W", "refA_with_GPT4-5shot"],
            "rater": ["r1", "r1", "r2"],
        }
    )
    parts = ann.split_pairing(frame["system"])
    assert parts.values.tolist() == [["GPT4-5shot", "refA"], ["GPT4-5shot", "ONLINE-W"], ["refA", "GPT4-5shot"]]
    pooled = ann.pool_pairings(frame)
    assert pooled["system"].tolist() == ["GPT4-5shot", "GPT4-5shot", "refA"]
    assert pooled["rater"].tolist() == ["r1", "r1", "r2"]  # the same two raters, not three
    assert pooled["pairing"].tolist() == ["refA", "ONLINE-W", "GPT4-5shot"]  # r1 gave two ratings, kept apart


@pytest.mark.parametrize(
    "row, line_no, column, value, problem",
    [
        (["s", "d", 1, 1, "r", "src", "tgt", "Accuracy"], 3, "severity", "", "too few fields"),
        (["s", "d", 1, 1, "r", "src", "tgt", "Accuracy/Omission", "Huge"], 3, "severity", "Huge", "unknown severity"),
        (["s", "d", "1a", 1, "r", "src", "tgt", "Accuracy/Omission", "Major"], 3, "doc_id", "1a", "must be an integer"),
        (["s", "d", 1, "x", "r", "src", "tgt", "Accuracy/Omission", "Major"], 3, "seg_id", "x", "must be an integer"),
        (["s", "d", 1, 1, " ", "src", "tgt", "Accuracy/Omission", "Major"], 3, "rater", " ", "rater is empty"),
        (["s", "d", 1, 1, "r", "src", "tgt", "Accuracy/Omission", "No-error"], 3, "severity", "No-error", "No-error"),
    ],
)
def test_bad_rows_name_file_line_column_and_value(tmp_path, row, line_no, column, value, problem):
    good = ["s", "d", 1, 1, "r", "src", "tgt", "No-error", "No-error"]
    path = tsv(tmp_path / "bad.tsv", [WMT_HEADER, good, row])
    with pytest.raises(InputError, match=problem) as err:
        mqm.read_mqm(path)
    e = err.value
    assert (e.file, e.row, e.column, e.value) == (str(path), line_no, column, value)
    assert f"row {line_no}, column {column!r}" in str(e)


def test_extra_fields_are_ignored_and_not_utf8_refused(tmp_path):
    path = tmp_path / "wide.tsv"  # Marot ignores fields after the 10th (marot.js addData)
    path.write_text(
        "\t".join(WMT_HEADER)
        + "\n"
        + "\t".join(["s", "d", "1", "2", "r", "a", "b", "No-error", "No-error", "{}"] + ["x"] * 6)
        + "\n"
    )
    assert mqm.read_mqm(path)[["doc_seg_id", "metadata"]].values.tolist() == [[1, "{}"]]
    latin = tmp_path / "latin.tsv"
    latin.write_bytes("\t".join(WMT_HEADER).encode() + b"\ns\td\t1\t1\tr\tcaf\xe9\tt\tNo-error\tNo-error\n")
    with pytest.raises(InputError, match="not UTF-8"):
        mqm.read_mqm(latin)
    with pytest.raises(InputError, match="no such file"):
        mqm.read_mqm(tmp_path / "missing.tsv")


def test_segment_score_files(tmp_path):
    path = tmp_path / "x.avg_seg_scores.tsv"
    path.write_text("system mqm_avg_score seg_id\nA\tNone 1\nA\t-2.5 2\nB -0 1\nB\t-1 2\n")
    assert mqm.is_segment_score_file(path)
    s = mqm.read_segment_scores(path)
    assert s[["system", "doc_seg_id", "score"]].values.tolist() == [["A", 2, 2.5], ["B", 1, 0.0], ["B", 2, 1.0]]
    with pytest.raises(InputError, match="per-segment score file"):
        mqm.read_mqm(path)
    path.write_text("system mqm_avg_score seg_id\nA\tbad 1\n")
    with pytest.raises(InputError, match="number or None") as err:
        mqm.read_segment_scores(path)
    assert (err.value.row, err.value.column, err.value.value) == (2, "mqm_avg_score", "bad")


def test_export_is_marot_tsv_and_reads_back_to_the_same_model(tmp_path):
    f = mqm.read_mqm(tsv(tmp_path / "m.tsv", marot_rows()))
    out = mqm.write_mqm_tsv(f, tmp_path / "out.tsv")
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].split("\t")[:10] == mqm.MAROT_COLUMNS
    assert "system\tdoc\t" in lines[0].lower()  # the test Marot uses to skip a header (marot.js addData)
    assert all(len(line.split("\t")) == 10 for line in lines[1:])
    back = mqm.read_mqm(out)
    pd.testing.assert_frame_equal(back.drop(columns="line"), f.drop(columns="line"))
    assert back["line"].tolist() == list(range(2, len(f) + 2))


def test_export_refuses_a_tab_inside_a_field(tmp_path):
    f = mqm.read_mqm(tsv(tmp_path / "m.tsv", marot_rows()))
    f.loc[2, "target"] = "a\tb"
    with pytest.raises(InputError, match="tab or line break") as err:
        mqm.write_mqm_tsv(f, tmp_path / "out.tsv")
    assert err.value.column == "target" and not (tmp_path / "out.tsv").exists()


def test_an_empty_or_broken_archive_is_refused(tmp_path):
    with tarfile.open(tmp_path / "empty.tar.gz", "w:gz"):
        pass
    with pytest.raises(InputError, match="holds no file"):
        mqm.read_mqm(tmp_path / "empty.tar.gz")
    (tmp_path / "broken.tar.gz").write_bytes(b"not an archive")
    with pytest.raises(InputError, match="tar archive"):
        mqm.read_mqm(tmp_path / "broken.tar.gz")


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


#: Marot's README: a row that only carries metadata (references, metrics) leaves rater, category
#: and severity empty.
METADATA_ONLY = [
    "A",
    "d1",
    1,
    1,
    "",
    "abc",
    "t",
    "",
    "",
    json.dumps({"segment": {"references": {"ref-A": "x"}, "metrics": {"BLEURT": 0.5}}}),
]


def test_a_metadata_only_row_is_read_and_rates_nothing(tmp_path, capsys):
    path = write(tmp_path / "m.tsv", [METADATA_ONLY] + ROWS + [["B", "d1", 2, 2, "", "defgh", "t", "", "", "{}"]])
    read = mqm.read_mqm_file(path)
    frame = read.frame
    assert len(frame) == len(ROWS) and (frame["rater"] != "").all()
    assert read.dropped == {"canary": 0, "metadata_only": 2}
    assert scores_of(path) == pytest.approx(SCORES)
    code, out, _ = run_cli(capsys, "scores", path)
    assert code == 0 and "read: read 2 metadata-only row(s)" in out


def test_a_line_cut_short_is_still_too_few_fields(tmp_path):
    with pytest.raises(InputError, match="too few fields") as err:
        mqm.read_mqm(write(tmp_path / "cut.tsv", ROWS[:2] + [["A", "d1"]]))
    assert err.value.row == 4
