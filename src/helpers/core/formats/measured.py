"""Measurements behind choices made in the code, committed in ``data/measured/``.

A measurement is a table ``<name>.csv`` with its record ``<name>.yml`` (the command that made
it, the machine, the date, notes). The scripts in ``tools/`` (``measure_qe_models.py``,
``measure_lm_ladder.py``) write them; the chapters read them with :func:`read`.
"""

from __future__ import annotations

import os
import platform

import pandas as pd

from .. import paths

FOLDER = ("data", "measured")


def read(name: str) -> tuple[pd.DataFrame | None, dict]:
    """The committed measurement ``data/measured/<name>.csv`` and its record (``<name>.yml``);
    ``(None, {})`` when it is missing."""
    import yaml

    folder = paths.project_root().joinpath(*FOLDER)
    table, meta = folder / f"{name}.csv", folder / f"{name}.yml"
    if not table.is_file():
        return None, {}
    record = yaml.safe_load(meta.read_text(encoding="utf-8")) if meta.is_file() else {}
    return pd.read_csv(table), record or {}


def machine_record(started: str, load_before) -> dict:
    """Where and under what load a measurement was made: its start ``date``, the ``machine``
    and the load averages before and after (``os.getloadavg``)."""
    return {
        "date": started,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()} "
        f"{platform.release()}, Python {platform.python_version()}",
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
    }
