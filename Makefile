# `make book`, `make test` and `make lab` set everything up themselves on a machine with Python 3.11 and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JOBS   ?= 2
# Copy the data from a local mirror when there is one (CI, this workplace); download otherwise.
MIRROR ?= $(firstword $(wildcard ../shared/datasets))
FETCH_FLAGS := $(if $(MIRROR),--mirror $(MIRROR),)
# the .pyc files of what the book imports are written on first use (see the installer below)
unexport PYTHONDONTWRITEBYTECODE

.PHONY: setup data book book-student pdf pdf-student chromium test test-fast lab lab-student student-kit bench mutate lock clean

# Installer: uv (from PATH, or fetched by the system's pip into $(VENV)/uv in ~4 s) installs the
# pinned requirements in ~40 s, where pip takes ~5 min on 2 cores (measured; table in the README
# under "The commands"). Both install the same pinned versions. USE_PIP=1 forces pip; if uv fails
# for any reason, pip takes over on its own. The venv is made without pip, and uv puts pip
# ($(PIP_PIN)) in with the requirements: the venv's own pip through ensurepip took 8 s of the set-up
# (measured), uv takes under 1 s. Only the pip route runs ensurepip, which it needs. Bytecode: uv
# does not compile .pyc files at install (compiling the whole venv took ~50 s more); instead the
# commands make runs write them on first import, only for the modules the book uses. That is why
# PYTHONDONTWRITEBYTECODE is unexported above: where it is set (as on this workplace's machines)
# nothing would ever write them, and every kernel and test process would compile pandas, scipy & co.
# from source. The exception, PRECOMPILE: the packages that every test worker and kernel imports
# first are compiled right after the install, $(JOBS) files at a time (their test folders left out;
# ~9 s wall, 13 CPU-s). Otherwise make test's two workers compile them at once, each for itself,
# while they collect the tests: collecting took 25 s per worker in a fresh venv, 11 s after this
# step (measured on 2 cores).
# torch==2.13.0 must be the CPU build: from a local wheel folder when there is one (CI, this workplace),
# otherwise from the PyTorch CPU index (plain PyPI gives Linux the multi-GB CUDA build).
WHEELS ?= $(firstword $(wildcard /opt/wheels))
UV     ?= $(shell command -v uv 2>/dev/null)
UVBIN  := $(or $(UV),$(VENV)/uv/bin/uv)
PIP_PIN := pip==26.3
UV_TORCH  := $(if $(WHEELS),--find-links $(WHEELS),--torch-backend cpu)
PIP_TORCH := $(if $(WHEELS),--find-links $(WHEELS),--extra-index-url https://download.pytorch.org/whl/cpu)
PIP_Q  := --disable-pip-version-check
PRECOMPILE := numpy pandas scipy sklearn matplotlib seaborn xarray narwhals openpyxl IPython rich joblib \
	pyparsing PIL dateutil traitlets
PIP_INSTALL = $(BIN)/python -m ensurepip --upgrade --default-pip >/dev/null && \
	$(BIN)/pip install $(PIP_Q) --progress-bar on $(PIP_TORCH) -r requirements.txt
UV_INSTALL  = $(UVBIN) pip install --python $(BIN)/python $(UV_TORCH) -r requirements.txt $(PIP_PIN)
# the project itself, editable (uv: 2 s; pip builds it in 5-6 s)
PIP_EDITABLE = $(BIN)/pip install --quiet $(PIP_Q) --no-deps -e .
UV_EDITABLE  = $(UVBIN) pip install --quiet --python $(BIN)/python --no-deps -e .

$(STAMP): requirements.txt pyproject.toml
	@echo "== setting up $(VENV) from requirements.txt (about a minute with uv, a few minutes with pip)"
	$(PYTHON) -m venv --without-pip $(VENV)
ifeq ($(USE_PIP),1)
	$(PIP_INSTALL) && $(PIP_EDITABLE)
else
	$(if $(UV),,$(PYTHON) -m pip install --quiet $(PIP_Q) --root-user-action=ignore --target $(VENV)/uv uv || true)
	{ $(UV_INSTALL) && $(UV_EDITABLE); } || { echo "== uv did not finish; installing with pip instead"; \
	  $(PIP_INSTALL) && $(PIP_EDITABLE); }
endif
	@echo "== compiling the bytecode of $(PRECOMPILE)"
	site="$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" && \
	  $(BIN)/python -m compileall -q -j $(JOBS) -x '/tests?/' $(addprefix "$$site"/,$(PRECOMPILE))
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

# the printable edition: the book as one PDF, printed by headless Chromium from the notebooks make book
# executed (nothing runs again; helpers.core.book.pdf, where the routes were measured): the instructor
# edition to _build/pdf/book.pdf, the student edition (no solution) to _build/student/pdf/book.pdf.
# Chromium is Debian's, as for the browser test (.ci/run installs it; CHROMIUM=/path/to/chrome for another);
# the Chinese font comes with requirements.txt (pylopdf-fonts-zh-cn).
pdf: chromium book
	$(BIN)/python -m helpers pdf

pdf-student: chromium book
	$(BIN)/python -m helpers pdf --edition student

chromium:
	@[ -n "$$CHROMIUM" ] || command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { echo "error: the PDF is printed by Chromium, which is not installed: apt-get install chromium (Debian;"\
	    ".ci/run does it), or set CHROMIUM to a Chromium or Chrome executable"; exit 1; }

# both cores: tests that need the built book share one worker (tests/conftest.py), the rest spread
test: data
	$(BIN)/python -m pytest -n $(JOBS) --dist loadgroup

# unit tests only: no notebook execution, no book build, no browser
test-fast: data
	$(BIN)/python -m pytest -n $(JOBS) -m "not slow and not browser"

# JupyterLab with this project's environment as the kernel, rooted at the project (class-results/,
# runs/ and the data are reachable) and opening on the notebooks. EDITION=student (or make
# lab-student): rooted at _build/student/notebooks, which holds the student edition written from
# notebooks/ (without solutions; a copy edited there is kept, not overwritten) and nothing else:
# notebooks/ (solutions), class/ (classmates' sheets) and results/ are not reachable from the file
# browser, there is no terminal, and the notebooks' own results/ go into that folder
# (HELPERS_CALLER_CWD). Its kernels still run on this machine: students who work on their own
# machines get make student-kit instead. As root (containers), JupyterLab refuses to start
# without --allow-root.
EDITION ?= instructor
STUDENT_LAB := $(CURDIR)/_build/student/notebooks
LAB_FLAGS := $(if $(filter student,$(EDITION)),--ServerApp.root_dir="$(STUDENT_LAB)" --ServerApp.terminals_enabled=False,\
	--ServerApp.root_dir="$(CURDIR)" --ContentsManager.preferred_dir=notebooks) \
	$(if $(filter 0,$(shell id -u)),--allow-root,)

lab: data
ifeq ($(EDITION),student)
	$(BIN)/python -m helpers student-notebooks --output "$(STUDENT_LAB)"
	HELPERS_CALLER_CWD="$(STUDENT_LAB)" $(BIN)/jupyter lab $(LAB_FLAGS)
else ifeq ($(EDITION),instructor)
	$(BIN)/jupyter lab $(LAB_FLAGS)
else
	$(error EDITION must be instructor or student, not $(EDITION))
endif

lab-student:
	$(MAKE) lab EDITION=student

# the student kit, to hand out instead of the repository: a zip of the student notebooks, the helpers
# package, its install files, the book's own data and (after make book-student) the student book;
# no solution, no class file, no result (helpers.core.book.editions.write_student_kit)
student-kit: setup
	$(BIN)/python -m helpers student-kit

# time a fresh clone: set-up, fetch, every chapter, render, warm rebuild, make test (writes bench/)
bench:
	$(PYTHON) tools/bench.py

# mutation testing of the statistics and scoring code, one module at a time with its own unit tests
# (mutmut; not part of make test or CI; MODULES="stats agreement" for some): writes bench/mutate.csv,
# which make bench reports. Tools, equivalent mutants and the measured choice: tools/mutate/README.md
mutate: data
	$(BIN)/python tools/mutate/run.py --jobs $(JOBS) $(MODULES)

# re-freeze requirements.txt from requirements.in in a scratch venv
lock:
	rm -rf .lockvenv && $(PYTHON) -m venv .lockvenv
	.lockvenv/bin/pip install --quiet -r requirements.in
	.lockvenv/bin/pip freeze --all --exclude pip --exclude-editable | sed "s/^torch==\(.*\)+cpu$$/torch==\1/" > requirements.txt
	rm -rf .lockvenv

clean:
	rm -rf _build results runs .cache
