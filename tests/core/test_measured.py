"""The committed measurements of data/measured (helpers.core.formats.measured) and the list-of-choices check."""

from __future__ import annotations

import pytest

from helpers.core import params, paths
from helpers.core.errors import InputError
from helpers.core.formats import measured


def test_a_measurement_is_read_with_its_record_and_a_missing_one_is_none(tmp_path, monkeypatch):
    folder = tmp_path / "data" / "measured"
    folder.mkdir(parents=True)
    (folder / "m.csv").write_text("kind,rho\nfeatures,0.41\n", encoding="utf-8")
    (folder / "m.yml").write_text("command: python tools/x.py\nmachine: here\n", encoding="utf-8")
    monkeypatch.setattr(paths, "project_root", lambda: tmp_path)
    table, record = measured.read("m")
    assert table.to_dict("records") == [{"kind": "features", "rho": 0.41}]
    assert record == {"command": "python tools/x.py", "machine": "here"}
    assert measured.read("absent") == (None, {})


def test_a_machine_record_names_the_date_and_both_load_averages():
    record = measured.machine_record("2026-12-02T08:00", (1.234, 0.5, 0.25))
    assert record["date"] == "2026-12-02T08:00" and record["load_average_before"] == [1.23, 0.5, 0.25]
    assert len(record["load_average_after"]) == 3 and "cores" in record["machine"]


def test_choices_are_a_non_empty_list_of_distinct_known_names():
    assert params.choices("kinds", ["a", "c"], ("a", "b", "c")) == ("a", "c")
    with pytest.raises(InputError, match="must be a non-empty list of model names"):
        params.choices("kinds", "a", ("a", "b"))
    with pytest.raises(InputError, match=r"parameter 'kinds\[1\]': value 'z'"):
        params.choices("kinds", ["a", "z"], ("a", "b"))
    with pytest.raises(InputError, match="names a rung twice"):
        params.choices("ladder", ["a", "a"], ("a",), what="rung")
