#!/usr/bin/env python3
"""Chapter 6's measured language-model ladder: every rung trained and scored cold (no cache).

Each rung of ``--rungs`` is trained on the SMP2020 training posts, its held-out perplexity
measured, and its self-information correlated with the paper's Table 8 ratings
(:func:`helpers.slang.correlations.ladder_correlations`); with ``--out`` (a folder) the table
goes to ``lm_ladder_comparison.csv`` beside a record ``lm_ladder_comparison.yml`` (command,
machine, date, load, package versions), which the chapter reads and states as measured.

The book's committed measurement (about 20 minutes on two cores):

    .venv/bin/python tools/measure_lm_ladder.py --out data/measured
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from importlib.metadata import version

import pandas as pd

from helpers.core import paths
from helpers.core.formats.measured import machine_record
from helpers.core.formats.published import read_published
from helpers.slang import ch06, correlations, ladder

#: What the record says was measured.
WHAT = (
    "chapter 6's language-model ladder, every rung trained and scored cold (no cache) on the SMP2020 "
    "training posts; held-out perplexity per character on the first 300 dev posts cut to 60 characters; "
    "rho with the paper's Table 8 ratings (25 candidates); train_seconds and score_seconds wall-clock "
    "(scoring = every candidate without and with 30 contexts, and the held-out text)"
)


def measure_lm_ladder(rungs=ladder.MEASURED_LADDER, gpt_steps: int = 400, out=None, seed: int = 0) -> pd.DataFrame:
    """Every rung of ``rungs`` trained and scored cold (no cache), correlated with the
    paper's Table 8 ratings; with ``out`` (a folder) ``lm_ladder_comparison.csv`` and its
    record ``lm_ladder_comparison.yml`` (command, machine, date, load, versions).

    Returns
    -------
    DataFrame
        :func:`helpers.slang.correlations.ladder_correlations`' summary with each rung's
        ``train_seconds``, ``score_seconds`` and ``gpt_steps`` (transformers only).
    """
    import yaml

    setup = ch06.setup(seed=seed)
    inputs = ch06.ladder_inputs(setup)
    ratings = read_published("homophones", "table8_human_top5").astype({"avg_score": float})
    started, load_before, clock = time.strftime("%Y-%m-%d %H:%M"), os.getloadavg(), time.perf_counter()
    scores, models = ladder.ladder_scores(
        list(rungs),
        inputs.train_texts,
        inputs.heldout,
        setup.candidates,
        inputs.contexts,
        gpt_steps=gpt_steps,
        seed=seed,
        use_cache=False,
    )
    summary, _ = correlations.ladder_correlations(scores, models, ratings, setup.n_perm, seed)
    table = summary.merge(models[["rung", "train_seconds", "score_seconds"]], on="rung").assign(
        gpt_steps=[gpt_steps if r.startswith("gpt") else None for r in summary["rung"]]
    )
    if out is not None:
        folder = paths.resolve_output(out)
        folder.mkdir(parents=True, exist_ok=True)
        table.to_csv(folder / "lm_ladder_comparison.csv", index=False)
        record = {
            "what": WHAT,
            "command": f"python tools/measure_lm_ladder.py --rungs {','.join(rungs)} --gpt-steps {gpt_steps} "
            f"--seed {seed} --out {out}",
            **machine_record(started, load_before),
            "total_seconds": round(time.perf_counter() - clock, 1),
            "settings": {"gpt_steps": gpt_steps, "batch_size": 16, "window": 64, "seed": seed, "torch_threads": 1},
            "packages": {p: version(p) for p in ("torch", "transformers", "wordfreq", "jieba", "numpy")},
        }
        (folder / "lm_ladder_comparison.yml").write_text(
            yaml.safe_dump(record, sort_keys=False, allow_unicode=True), encoding="utf-8"
        )
    return table


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--rungs", default=",".join(ladder.MEASURED_LADDER), help="comma-separated rungs (default: %(default)s)"
    )
    parser.add_argument("--gpt-steps", type=int, default=400, help="training steps of each transformer rung")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="folder for lm_ladder_comparison.csv/.yml (e.g. data/measured)")
    args = parser.parse_args(argv)
    table = measure_lm_ladder(
        [r.strip() for r in args.rungs.split(",") if r.strip()], args.gpt_steps, args.out, args.seed
    )
    print(table.to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
