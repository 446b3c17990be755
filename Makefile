# Everything runs inside .venv, created on first use, so a fresh machine needs only Python 3.11+.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test lint typecheck pytest run play bench golden render clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@# Compile the AI's numba core ahead (cached on disk), so no first move waits for it.
	$(BIN)/python -c "from engine.ai.pimc import warm_up; warm_up()"
	$(BIN)/python -c "from engine.ai.mc import warm_up; warm_up()"
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP) lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy --strict engine rendering bot data/fitting

pytest: $(STAMP)
	$(BIN)/pytest -q -rs

run: $(STAMP)
	$(BIN)/klaverjas bot

play: $(STAMP)
	$(BIN)/klaverjas play

bench: $(STAMP)
	$(BIN)/klaverjas bench engine
	$(BIN)/klaverjas bench ai
	$(BIN)/klaverjas bench render

render: $(STAMP)
	$(BIN)/klaverjas render --out render-out

golden: $(STAMP)
	$(BIN)/python -m tests.golden.regen_playthroughs
	$(BIN)/python -m tests.golden.regen_images

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
