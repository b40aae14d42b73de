# `make book`, `make test` and `make lab` set everything up themselves on a machine with Python 3.11 and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JOBS   ?= 2
# Copy the data from a local mirror when there is one (CI, this workplace); download otherwise.
MIRROR ?= $(firstword $(wildcard ../shared/datasets))
FETCH_FLAGS := $(if $(MIRROR),--mirror $(MIRROR),)

.PHONY: setup data book book-student test test-fast lab bench lock clean

$(STAMP): requirements.txt pyproject.toml
	@echo "== setting up $(VENV) from requirements.txt (a few minutes on a fresh machine)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --disable-pip-version-check --progress-bar on -r requirements.txt
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

setup: $(STAMP)

data: setup
	$(BIN)/python -m helpers fetch $(FETCH_FLAGS)

# the instructor edition (solutions shown, collapsed): _build/html
book: data
	$(BIN)/python -m helpers build --jobs $(JOBS)

# the student edition (no solution anywhere): _build/student/html; reuses the executed notebooks
book-student: data
	$(BIN)/python -m helpers build --jobs $(JOBS) --edition student

test: data
	$(BIN)/python -m pytest

# unit tests only: no notebook execution, no book build, no browser
test-fast: data
	$(BIN)/python -m pytest -m "not slow and not browser"

# JupyterLab on the notebooks, with this project's environment as the kernel
lab: data
	$(BIN)/jupyter lab notebooks

# time a fresh clone: set-up, fetch, every chapter, render, warm rebuild, make test (writes bench/)
bench:
	$(PYTHON) tools/bench.py

# re-freeze requirements.txt from requirements.in in a scratch venv
lock:
	rm -rf .lockvenv && $(PYTHON) -m venv .lockvenv
	.lockvenv/bin/pip install --quiet -r requirements.in
	.lockvenv/bin/pip freeze --exclude-editable | sed "s/^torch==\(.*\)+cpu$$/torch==\1/" > requirements.txt
	rm -rf .lockvenv

clean:
	rm -rf _build results runs .cache
