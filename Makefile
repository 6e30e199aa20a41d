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

.PHONY: run test test-quick install lint format bench bench-engine bench-load bench-bots clean

# A virtualenv whose python cannot run pip (a first `make run` interrupted while the venv was
# being made) would fail every later command with "No module named pip": it is made again.
ifneq ($(wildcard $(VENV)),)
ifneq ($(shell $(BIN)/python -m pip --version >/dev/null 2>&1 && echo ok),ok)
$(info $(VENV) is broken (its python cannot run pip): making it again.)
$(shell rm -rf $(VENV))
endif
endif

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

# It ends with the ten slowest tests and the total, so a slow test is seen the day it lands.
test: install
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder \
		--durations=10 $(PYTEST_ARGS)

# The loop while coding (CONTRIBUTING.md § The test suite): the engines, services and views of
# the apps on SQLite in memory, whatever the environment points at: no browser, no server or
# worker process, no service restart, fewer Hypothesis examples. CI runs everything (`make test`).
QUICK_TESTS := tests/games tests/accounts tests/social tests/ladder tests/tournaments \
	tests/toy_game $(wildcard tests/test_*.py)
test-quick: install
	env -u DATABASE_URL -u REDIS_URL -u REQUIRE_SERVICES \
		$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder \
		-m "not slow and not postgres and not redis" -p no:cacheprovider --durations=5 \
		$(QUICK_TESTS) $(PYTEST_ARGS)

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
