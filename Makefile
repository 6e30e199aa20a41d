# The two commands: `make run` serves the site, `make test` passes the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# `make run` installs what the site needs; `make test` adds the test and lint tools.
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
HOST ?= 127.0.0.1
PORT ?= 8000
# The suite runs on every core (pytest-xdist; each worker has its own test database and Redis
# database), whole files at a time, the heaviest first (tests/conftest.py). TEST_WORKERS=0 runs it
# in one process.
TEST_WORKERS ?= auto

.PHONY: run test install lint format bench bench-engine bench-load bench-bots clean

$(RUN_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

$(DEV_STAMP): $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(DEV_STAMP)

install: $(DEV_STAMP)

run: $(RUN_STAMP)
	$(BIN)/python manage.py migrate_all
	$(BIN)/python scripts/serve.py --host $(HOST) --port $(PORT)

test: install
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# The engines alone, then live play against the deploy's processes on PostgreSQL and Redis
# (DATABASE_URL and REDIS_URL, else a local joker_bench database and Redis db 2): bench/load/.
# Both run whatever the first says; the engines' floor (bench/engine.py) decides the status, the
# load bench fails only when a process breaks (its floors are printed PASS/FAIL).
bench: install
	$(BIN)/python -m bench.engine; engine=$$?; $(BIN)/python -m bench.load && exit $$engine

bench-engine: install
	$(BIN)/python -m bench.engine

bench-load: install
	$(BIN)/python -m bench.load

# Computer players: win rates per game and pairing, then the strong bot's decision time.
bench-bots: install
	$(BIN)/python -m bench.bots

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .hypothesis
