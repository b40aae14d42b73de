"""The homophone study's data (helpers.slang.homophone_data): the released frequency dictionary and
the SMP2020 loader's checks."""

from __future__ import annotations

import pytest

from helpers.slang import homophone_data as hd


def test_released_frequency_dictionary_is_reproduced_exactly():
    assert hd.released_reading_frequencies() == hd.published_frequencies()


def test_smp2020_loader_validates(tmp_path):
    (tmp_path / "SMP2020").mkdir()
    for split in hd.SPLITS:
        (tmp_path / "SMP2020" / f"{split}.tsv").write_text("label\ttext_a\n1\t好\n", encoding="utf-8")
    assert len(hd.load_smp2020(root=tmp_path)) == 3
    (tmp_path / "SMP2020" / "dev.tsv").write_text("label\ttext_a\n1\t好\n9\t坏\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"dev.tsv, row 3, column 'label': value '9'"):
        hd.load_smp2020(root=tmp_path)
