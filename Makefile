# Everything runs inside .venv, which this Makefile creates on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 5000

.PHONY: install run test lint bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

run: install
	$(BIN)/flask --app larp_app run --host $(HOST) --port $(PORT)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: install lint
	$(BIN)/pytest

bench: install
	$(BIN)/python bench/fold.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
