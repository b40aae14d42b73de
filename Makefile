# `make book` and `make test` set everything up themselves on a machine with Python 3.11 and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JOBS   ?= 2
# Copy the data from a local mirror when there is one (CI, this workplace); download otherwise.
MIRROR ?= $(firstword $(wildcard ../shared/datasets))
FETCH_FLAGS := $(if $(MIRROR),--mirror $(MIRROR),)

.PHONY: setup data book test test-fast lock clean

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

setup: $(STAMP)

data: setup
	$(BIN)/python -m helpers fetch $(FETCH_FLAGS)

book: data
	$(BIN)/python -m helpers build --jobs $(JOBS)

test: data
	$(BIN)/python -m pytest

# unit tests only: no notebook execution, no book build, no browser
test-fast: data
	$(BIN)/python -m pytest -m "not slow and not browser"

# re-freeze requirements.txt from requirements.in in a scratch venv
lock:
	rm -rf .lockvenv && $(PYTHON) -m venv .lockvenv
	.lockvenv/bin/pip install --quiet -r requirements.in
	.lockvenv/bin/pip freeze --exclude-editable | sed "s/^torch==\(.*\)+cpu$$/torch==\1/" > requirements.txt
	rm -rf .lockvenv

clean:
	rm -rf _build results runs .cache
