# Every target creates or reuses the project's virtual environment (.venv), so each works on a
# fresh clone. PYTHON picks the interpreter used to create it.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PACKAGES := shared $(patsubst %/pyproject.toml,%,$(wildcard services/*/pyproject.toml))
STAMP  := $(VENV)/.installed

.PHONY: venv run demo test lint typecheck bench clean

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

## make test: lint, format check, type check, then every test.
test: $(STAMP) lint typecheck
	$(PY) -m pytest

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
