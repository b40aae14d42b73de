"""helpers.core.formats.texts: MQM segments paired with the lines of a WMT text file."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers.core.errors import InputError
from helpers.core.formats import texts


def test_align_to_lines_finds_each_documents_block_by_hand():
    # two documents of two segments on lines 1-2 and 3-4; the MQM text has span markup and lost a space
    lines = ["The cat sat.", "It purred.", "中文 and Latin", "end"]
    segments = pd.DataFrame({"doc": ["d1", "d1", "d2", "d2", "d2"], "doc_seg_id": [1, 2, 1, 2, 2],
                             "source": ["The <v>cat</v> sat.", "It purred.", "中文and Latin", "end", "end"]})
    out = texts.align_to_lines(segments, lines)
    assert out.to_dict("records") == [{"doc": "d1", "doc_seg_id": 1, "segment": 1},
                                      {"doc": "d1", "doc_seg_id": 2, "segment": 2},
                                      {"doc": "d2", "doc_seg_id": 1, "segment": 3},
                                      {"doc": "d2", "doc_seg_id": 2, "segment": 4}]


def test_align_to_lines_refuses_a_segment_off_its_documents_block():
    lines = ["a", "b", "c"]
    segments = pd.DataFrame({"doc": ["d1", "d1"], "doc_seg_id": [1, 2], "source": ["a", "c"]})
    with pytest.raises(InputError, match="segment 2 does not match line 2"):
        texts.align_to_lines(segments, lines)
