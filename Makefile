# Every target bootstraps .venv itself; a fresh machine needs only python3 (3.11+) and make.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test demo bench lint format clean postgres raqm chromium

# The PostgreSQL tests start their own server from Debian's binaries: install them when missing
# (as root on a Debian/Ubuntu machine; otherwise say how).
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	  else echo "PostgreSQL is missing: sudo apt-get install postgresql" >&2; exit 1; fi; }

# The web companion's browser tests (tests/e2e/test_web_browser.py) drive Debian's Chromium
# through Playwright: install it when missing (as root on a Debian/Ubuntu machine; otherwise say
# how). Playwright's own browser download is never used.
chromium:
	@test -x /usr/bin/chromium || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "Chromium is missing: sudo apt-get install chromium" >&2; exit 1; fi; }

# Hebrew labels in the pictures are laid out right to left by libraqm (inside Pillow's wheels),
# which loads the system's FriBiDi library: install it when missing (Debian's libfribidi0, as
# root), then insist that Pillow has the raqm layout.
RAQM_CHECK := $(PY) -c "from PIL import features; raise SystemExit(not features.check('raqm'))"
raqm: $(STAMP)
	@$(RAQM_CHECK) 2>/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libfribidi0 >/dev/null; \
	  fi; }
	@$(RAQM_CHECK) 2>/dev/null || { echo "Pillow cannot lay out Hebrew (no raqm): the FriBiDi \
	library is missing. Install it: sudo apt-get install libfribidi0" >&2; exit 1; }

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m bot

# The static checks: ruff's lint and format, and the import contracts (pyproject.toml).
lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(VENV)/bin/lint-imports
	$(PY) -m mypy

# pytest on 6 workers (pytest-xdist): the e2e tests wait on their bot processes and on Discord's
# rate limits, so 6 workers keep 2 cores busy. The `long` tests come first (tests/conftest.py)
# and `--dist load --maxschedchunk 1` hands out one test at a time, so that each worker starts
# on a long one and no long test is left to run alone at the end.
test: $(STAMP) postgres raqm chromium lint
	$(PY) -m bot.present.i18n check
	$(PY) -m pytest -n 6 --dist load --maxschedchunk 1

demo: $(STAMP)
	$(PY) -m render.demo

bench: $(STAMP)
	$(PY) bench/engine_bench.py
	$(PY) bench/moonlight_bench.py
	$(PY) bench/cynthia_bench.py
	$(PY) bench/autopilot_bench.py
	$(PY) bench/render_bench.py

format: $(STAMP)
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

clean:
	rm -rf $(VENV) out .pytest_cache .ruff_cache .mypy_cache .hypothesis
