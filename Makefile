# Everything runs inside .venv, created on first use, so a fresh machine needs only Python 3.11+.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test lint typecheck pytest run play bench golden render clean web

# The web table's page: an npm project (bot/web/page) bundled by esbuild into bot/web/static, which the package
# ships. Rebuilt when its sources or lockfile change; `npm ci` installs exactly the lockfile's packages.
PAGE := bot/web/page
PAGE_BUILT := bot/web/static/app.js
$(PAGE)/node_modules/.package-lock.json: $(PAGE)/package-lock.json
	cd $(PAGE) && npm ci --no-audit --no-fund --loglevel=error

$(PAGE_BUILT): $(PAGE)/node_modules/.package-lock.json $(PAGE)/build.mjs $(wildcard $(PAGE)/src/*)
	cd $(PAGE) && node build.mjs

web: $(PAGE_BUILT)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@# Compile the AI's numba core ahead (cached on disk), so no first move waits for it.
	$(BIN)/python -c "from engine.ai.pimc import warm_up; warm_up()"
	$(BIN)/python -c "from engine.ai.mc import warm_up; warm_up()"
	touch $(STAMP)

install: $(STAMP) web

test: $(STAMP) web lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy --strict engine rendering bot data/fitting

pytest: $(STAMP) web
	$(BIN)/pytest -q -rs

run: $(STAMP) web
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
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache $(PAGE)/node_modules bot/web/static
