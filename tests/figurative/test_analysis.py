"""The building blocks of chapter 10 (helpers.figurative.analysis, helpers.figurative.error_spans):
idiom flags joined to MQM penalties, span overlap on hand-made spans, and the join counts on the
real files (the idiom effect itself: tests/figurative/test_design.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers.core.errors import InputError
from helpers.core.formats import annotations, mqm
from helpers.figurative import analysis, error_spans


def test_flags_count_idioms_in_the_clean_source():
    segs = pd.DataFrame({"source": ["他们<v>雪上加霜</v>。", "没有。", "刻舟求剑又守株待兔"]})
    out = analysis.flag_idioms(segs)
    assert out["idioms"].tolist() == [1, 0, 2] and out["idiom"].tolist() == [True, False, True]
    assert out["source_chars"].tolist() == [7, 3, 9]


def _rows(source: str, spans: list[tuple[int, int] | None], doc: str = "d1") -> pd.DataFrame:
    """Annotation rows of one segment, one per span (None: an error marked in the target)."""
    out = []
    for i, span in enumerate(spans):
        a, b = span or (0, 0)
        marked = source if span is None else source[:a] + "<v>" + source[a:b] + "</v>" + source[b:]
        out.append(
            {
                "system": "S",
                "doc": doc,
                "doc_seg_id": 1,
                "rater": f"r{i}",
                "category": "Accuracy/Mistranslation",
                "severity": "Major",
                "source": marked,
            }
        )
    rows = pd.DataFrame(out)
    rows["source_start"], rows["source_end"] = annotations.span_offsets(rows["source"])
    return rows


def test_span_overlap_on_hand_made_spans():
    source = "今天他雪上加霜了，没办法。"  # 13 characters, the idiom at 3..7
    rows = _rows(source, [(3, 5), (0, 2), (8, 9), (6, 9), None])
    spans = error_spans.span_overlap(rows)
    assert spans["overlap"].tolist() == [True, False, False, True]  # the target-side error has no source span
    assert spans["share"].tolist() == pytest.approx([4 / 13] * 4)
    # chance for a span of length L: of the 13 − L + 1 starts, those in 3 − L + 1 … 6 overlap 3..7
    assert spans["chance"].tolist() == pytest.approx([5 / 12, 5 / 12, 4 / 13, 6 / 11])
    summary = error_spans.overlap_summary(spans, n_boot=20).iloc[0]
    assert summary["observed"] == 0.5 and summary["chance"] == pytest.approx((5 / 12 + 5 / 12 + 4 / 13 + 6 / 11) / 4)


def test_segments_without_idioms_contribute_no_spans():
    assert error_spans.span_overlap(_rows("今天下雨了。", [(0, 2)])).empty
    assert error_spans.overlap_summary(error_spans.span_overlap(_rows("今天下雨了。", [(0, 2)])))["spans"].tolist() == [
        0
    ]


def test_a_score_line_beyond_the_source_file_is_named(tmp_path):
    scores = tmp_path / "s.tsv"
    scores.write_text("system mqm_avg_score seg_id\nA -1.0 1\nA -2.0 3\n", encoding="utf-8")
    source = tmp_path / "src.zh"
    source.write_text("一\n二\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        analysis.segment_table("newstest2021", path=scores, source_path=source)
    assert err.value.value == 3


def test_a_small_score_file_joins_its_source_by_line(tmp_path):
    scores = tmp_path / "s.tsv"
    scores.write_text("system mqm_avg_score seg_id\nA -1.0 1\nB None 1\nA -2.5 2\n", encoding="utf-8")
    source = tmp_path / "src.zh"
    source.write_text("这是普通的句子。\n局势雪上加霜。\n", encoding="utf-8")
    table = analysis.segment_table("newstest2021", path=scores, source_path=source)
    assert table[["system", "segment", "score", "idiom"]].values.tolist() == [
        ["A", "1", 1.0, False],
        ["A", "2", 2.5, True],
    ]


def test_unknown_data_set_is_refused():
    with pytest.raises(InputError, match="data set"):
        analysis.segment_table("wmt99")


@pytest.mark.parametrize(
    "dataset, rows, segments, idiom_segments, documents",
    [
        ("newstest2021", 9750, 650, 15, 650),
        ("ted", 7935, 529, 1, 5),
        ("wmt23", 3770, 377, 13, 38),
    ],
)
def test_join_counts_on_the_real_files(dataset, rows, segments, idiom_segments, documents):
    table = analysis.segment_table(dataset)
    assert len(table) == rows and table["segment"].nunique() == segments and table["doc"].nunique() == documents
    assert table.loc[table["idiom"], "segment"].nunique() == idiom_segments
    assert table["score"].notna().all() and (table["source_chars"] > 0).all()


def test_wmt23_source_spans_on_idioms_are_pinned():
    rows = mqm.read_mqm(analysis.released("wmt23", "mqm"))
    spans = error_spans.span_overlap(rows)
    assert len(spans) == 35 and spans["overlap"].sum() == 13 and spans["doc"].nunique() == 7


def _annotations(records: list[tuple]) -> pd.DataFrame:
    """An annotation frame from (system, doc, seg, rater, source, category, severity) tuples."""
    frame = pd.DataFrame(records, columns=["system", "doc", "doc_seg_id", "rater", "source", "category", "severity"])
    frame["global_seg_id"] = frame["doc_seg_id"]
    frame["target"] = "t"
    frame["line"] = range(2, len(frame) + 2)
    return annotations.conform(frame)


def test_category_penalties_add_up_to_the_segment_score():
    rows = _annotations(
        [
            ("S", "d1", 1, "r1", "局势雪上加霜。", "Accuracy/Mistranslation", "Major"),
            ("S", "d1", 1, "r1", "局势雪上加霜。", "Fluency/Grammar", "Minor"),
            ("S", "d1", 1, "r2", "局势雪上加霜。", "No-error", "No-error"),
            ("S", "d1", 2, "r1", "天气很好。", "Fluency/Grammar", "Minor"),
        ]
    )
    table = analysis.category_table(rows)
    got = table.set_index(["segment", "category"])["score"].to_dict()
    # segment 1: two raters, 5 (Major) and 1 (Minor) from r1, nothing from r2; segment 2: one rater
    assert got == {
        ("d1:1", "Accuracy"): 2.5,
        ("d1:1", "Fluency"): 0.5,
        ("d1:2", "Accuracy"): 0.0,
        ("d1:2", "Fluency"): 1.0,
    }
    assert table.groupby("segment")["idiom"].first().to_dict() == {"d1:1": True, "d1:2": False}
    segments = analysis._penalties(rows).set_index("doc_seg_id")["score"]
    assert table.groupby("segment")["score"].sum().tolist() == segments.tolist() == [3.0, 1.0]


def test_the_authored_sample_is_the_seeded_draw_from_the_real_sources():
    from helpers.figurative import idioms

    pool = analysis.source_pool()
    assert pool["dataset"].value_counts().to_dict() == {"wmt23": 1976, "newstest2021": 1948, "ted": 529}
    drawn = analysis.sample_matches(pool)
    labelled = idioms.read_sample()
    pd.testing.assert_frame_equal(drawn, labelled.drop(columns=["label", "label_b"]), check_dtype=False)


def test_token_tags_count_bad_tags_on_idiom_tokens_with_posts_as_clusters():
    posts = pd.DataFrame(
        {"source": ["他 刻舟求剑 了", "今天 好", "他 刻舟求剑 了"], "source_tags": ["OK BAD OK", "BAD OK", "OK BAD OK"]}
    )
    got = analysis.token_tags(posts, "xinhua", n_boot=200).set_index(["scope", "group"])
    # idiom tokens: 刻舟求剑 twice, both BAD; others: 他 了 他 了 今天 好, one BAD
    assert got.loc[("all", "idiom"), "estimate"] == 1.0 and got.loc[("all", "other"), "estimate"] == pytest.approx(
        1 / 6
    )
    assert got.loc[("all", "idiom"), ["tokens", "posts"]].tolist() == [2, 1]  # the repeated post is one cluster
    assert got.loc[("all", "difference"), "posts"] == 2
    # within the posts that hold an idiom, the other tokens are all OK
    assert got.loc[("idiom_posts", "other"), "estimate"] == 0.0
    assert got.loc[("idiom_posts", "difference"), "estimate"] == 1.0
    with pytest.raises(InputError, match="source_tags"):
        analysis.token_tags(posts.drop(columns="source_tags"))
