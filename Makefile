# The two commands a fresh machine needs:  `make lab` (the course in JupyterLab)  and  `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LAB_PORT ?= 8888
# JupyterLab refuses to run as root (containers) unless told to.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)

.PHONY: install lab hub hub-proxy test lint format generate check site clean gpu-check

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

install: $(STAMP)

## The course in JupyterLab, rooted at release/, with nbgrader's extension, opening the course home page
## release/README.md rendered (Markdown opens as a preview). The venv's bin/ goes first on PATH because
## nbgrader's formgrader runs `alembic` from PATH.
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.json
$(LAB_OVERRIDES): $(STAMP)
	mkdir -p $(@D)
	echo '{"@jupyterlab/docmanager-extension:plugin": {"defaultViewers": {"markdown": "Markdown Preview"}}}' > $@

lab: $(STAMP) $(LAB_OVERRIDES)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m jupyter lab --ip=127.0.0.1 --port=$(LAB_PORT) \
		--ServerApp.root_dir=release --LabApp.default_url=/lab/tree/README.md $(ALLOW_ROOT)

## A class on JupyterHub (docs/deploy.md): the hub on http://127.0.0.1:$(HUB_PORT) with nbgrader's exchange,
## an instructor account with formgrader and student accounts (COURSE_HUB_STUDENTS, default alice,bob), all
## logging in with one password (a local trial; it prints where the password is). Needs npm for the proxy.
## The hub starts the grading service too (hidden-test checks on demand, limits in COURSE_GRADER_*: docs/deploy.md).
HUB_PORT ?= 8000
## JupyterHub's proxy from npm, into .venv/bin; version 5 needs Node.js 20 (Debian 12's own nodejs is 18: 4.x).
PROXY := $(BIN)/configurable-http-proxy
PROXY_MAJOR = $(shell node -e 'process.stdout.write(+process.versions.node.split(".")[0] >= 20 ? "5" : "4")')
$(PROXY): $(STAMP)
	npm install --global --prefix $(VENV) --no-audit --no-fund --loglevel=error configurable-http-proxy@$(PROXY_MAJOR)

hub-proxy: $(PROXY)

hub: $(STAMP) $(PROXY)
	PATH="$(CURDIR)/$(BIN):$$PATH" COURSE_HUB_PORT=$(HUB_PORT) $(BIN)/jupyterhub -f deploy/hub/jupyterhub_config.py

## Lint, format check and the whole test suite (with the hub tests' proxy where npm is there to install it), in
## TEST_WORKERS pytest-xdist workers: tests that share a set-up stay in one worker (tests/conftest.py, work_unit).
## Three on two cores: the hub, grader and browser tests spend much of their time waiting, and a third worker
## uses it (stop 52: a full run took 25-26 min with three; stop 51's took 32 min with two). Each test process runs
## torch on one thread (tests/conftest.py): stop 53's full run took 24.7 min, with a third less CPU than stop 52's.
TEST_WORKERS ?= 3
test: $(STAMP) $(if $(shell command -v npm),$(PROXY))
	$(BIN)/python -m ruff check .
	$(BIN)/python -m ruff format --check .
	$(BIN)/python -m pytest -n $(TEST_WORKERS)

lint: $(STAMP)
	$(BIN)/python -m ruff check .

format: $(STAMP)
	$(BIN)/python -m ruff format .

## Regenerate release/ from source/ through nbgrader (instructors).
generate: $(STAMP)
	$(BIN)/python -m autograder generate

## Self-check one notebook with the hidden tests: make check NB=release/01_tensors/01_tensors.ipynb
check: $(STAMP)
	$(BIN)/python -m autograder check $(NB)

## Every CUDA branch of the course on this machine's GPU, one table (benchmarks/gpu_check.py); skips without CUDA.
gpu-check: $(STAMP)
	$(BIN)/python benchmarks/gpu_check.py

## The course as a static site in $(SITE_DIR)/ (README, "The course as a website"), built offline from release/:
## the demos run here, the capstone's with the MNIST copy in COURSE_DATA_DIR (default: ~/.cache download).
SITE_DIR ?= _site
site: $(STAMP)
	$(BIN)/python -m autograder site --out $(SITE_DIR)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache $(SITE_DIR)
