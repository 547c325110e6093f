# Every target creates or reuses the project's virtual environment (.venv), so each works on a
# fresh clone. PYTHON picks the interpreter used to create it.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PACKAGES := shared $(patsubst %/pyproject.toml,%,$(wildcard services/*/pyproject.toml))
STAMP  := $(VENV)/.installed

.PHONY: venv run demo test check lint typecheck bench clean

## make run: start the whole product (local Redis and Postgres if none are configured).
run: $(STAMP)
	$(PY) -m king_devservers $(ARGS)

venv: $(STAMP)

$(STAMP): requirements.txt shared/pyproject.toml $(wildcard services/*/pyproject.toml)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt $(addprefix -e ./,$(PACKAGES))
	touch $(STAMP)

## make demo: a match against three computer players through the HTTP API of a running stack.
demo: $(STAMP)
	$(PY) -m king_devservers --demo $(ARGS)

# Two pytest processes, each with its own servers: one runs the browser tests, the other the
# rest, a module at a time (tests/conftest.py shares them out; docs/testing.md has the figures).
XDIST  ?= -n 3

## make test: lint, format check, type check, then every test (a skipped test fails the run;
## the 25 slowest are listed at the end). docs/testing.md says how to run a part.
test: $(STAMP) lint typecheck
	$(PY) -m pytest $(XDIST) --no-skips --durations=25 $(PYTEST_ARGS)

## make check: the quick inner loop: lint, types, and the tests that need no browser and no
## whole stack (tests/web and tests/e2e are left out).
check: $(STAMP) lint typecheck
	$(PY) -m pytest $(XDIST) --ignore=tests/web --ignore=tests/e2e $(PYTEST_ARGS)

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

typecheck: $(STAMP)
	$(PY) -m mypy

## make bench: every benchmark in benchmarks/, one `name: value` line per figure.
bench: $(STAMP)
	$(PY) -m benchmarks $(BENCH)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
