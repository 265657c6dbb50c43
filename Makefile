# `make run`: the club on embedded defaults.  `make test`: the whole suite (ruff, mypy, pytest).
VENV ?= .venv
PY := $(VENV)/bin/python
PYTEST_ARGS ?= -n 2

.PHONY: run test lint typecheck pytest services browser

# What running needs (requirements.txt) and, for the tests, the tools too (requirements-dev.txt):
# `make run` on a fresh clone installs only the first.
$(VENV)/.runtime: requirements.txt
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/.installed: $(VENV)/.runtime requirements-dev.txt
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

run: $(VENV)/.runtime
	scripts/run-embedded.sh

services:
	scripts/services.sh

browser:
	scripts/browser.sh

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: $(VENV)/.installed
	$(VENV)/bin/mypy .

pytest: $(VENV)/.installed services browser
	$(VENV)/bin/pytest $(PYTEST_ARGS)

test: lint typecheck pytest
