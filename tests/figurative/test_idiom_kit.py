"""Chapter 10's class activity (helpers.figurative.template): the pairs' workbooks hold the sample's
matches without their labels, are read back, and are compared with the answer key by Cohen's κ
(computed here by hand)."""

from __future__ import annotations

import pytest
from openpyxl import load_workbook

from helpers.core.errors import InputError
from helpers.figurative import idioms, template


def _fill(path, labels: dict[str, str], done: bool = True):
    wb = load_workbook(path)
    ws = wb[template.SHEET]
    for row in ws.iter_rows(min_row=2):
        if row[0].value in labels:
            row[3].value = labels[row[0].value]
            row[4].value = "done" if done else None
    wb.save(path)


def test_workbooks_hold_the_matches_without_labels_and_read_back(tmp_path):
    written = template.write_workbooks("pair1,pair2", tmp_path, n=6, seed=3)
    assert [p.name for p in written] == ["idioms_pair1.xlsx", "idioms_pair2.xlsx"]
    key = idioms.read_sample()
    sheet = load_workbook(written[0])[template.SHEET]
    items = [r[0].value for r in sheet.iter_rows(min_row=2)]
    assert len(items) == 6 and set(items) <= set(key["sample_id"])
    text = " ".join(str(c.value) for r in sheet.iter_rows() for c in r)
    assert "figurative" not in text and "literal" not in text  # the labels stay out of the handout
    contexts = dict(zip(key["sample_id"], key["context"]))
    assert all(r[2].value == contexts[r[0].value] for r in sheet.iter_rows(min_row=2))
    truth = dict(zip(key["sample_id"], key["label"]))
    answers = {i: truth[i] for i in items}
    flipped = items[0]
    answers[flipped] = "literal" if truth[flipped] == "figurative" else "figurative"
    _fill(written[0], answers)
    got = template.read_labels(written[0])
    assert len(got) == 6
    result = template.agreement(got, key[["sample_id", "label"]])
    # κ by hand: p_o = 5/6; p_e from the two sides' shares of "figurative"
    mine = sum(v == "figurative" for v in answers.values()) / 6
    theirs = sum(truth[i] == "figurative" for i in items) / 6
    p_e = mine * theirs + (1 - mine) * (1 - theirs)
    assert result["items"] == 6 and result["agreement"] == pytest.approx(5 / 6)
    assert result["kappa"] == pytest.approx((5 / 6 - p_e) / (1 - p_e))


def test_unfinished_rows_are_not_read_and_a_bad_label_is_named(tmp_path):
    path = template.write_workbooks(1, tmp_path, n=3)[0]
    items = [r[0].value for r in load_workbook(path)[template.SHEET].iter_rows(min_row=2)]
    _fill(path, {items[0]: "figurative"}, done=False)
    assert template.read_labels(path).empty
    _fill(path, {items[0]: "maybe"})
    with pytest.raises(InputError) as err:
        template.read_labels(path)
    assert err.value.column == "label" and err.value.value == "maybe" and "idioms_S01.xlsx" in str(err.value)
    with pytest.raises(InputError, match="--items"):
        template.label_items(500)
