# Everything runs inside .venv, which this Makefile creates on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
VENDOR := static/vendor/.installed
FLASK := $(BIN)/flask --app larp_app
HOST ?= 0.0.0.0
PORT ?= 5000
WORKERS ?= $(shell echo $$(( 2 * $$(nproc 2>/dev/null || echo 2) )))

.PHONY: install translations messages run test fast lint bench clean

install: $(STAMP) $(VENDOR)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

# Browser libraries: npm installs what the lock file pins; larp_app.vendor copies the files
# pages load into static/vendor/ (served by the app itself: no CDN on the event's LAN).
$(VENDOR): package-lock.json larp_app/vendor.py | $(STAMP)
	npm ci --no-audit --no-fund
	$(BIN)/python -m larp_app.vendor
	touch $(VENDOR)

translations: install
	$(BIN)/pybabel compile --use-fuzzy -d larp_app/translations

# After marking new strings: refresh the catalogues, then translate what is new.
messages: install
	$(BIN)/pybabel extract -w 100 --ignore-dirs ".* tests" -F babel.cfg -k _l -k lazy_gettext -k N_ -o larp_app/translations/messages.pot .
	$(BIN)/pybabel update -w 100 -i larp_app/translations/messages.pot -d larp_app/translations

# This machine's address on the LAN: phones reach it there, and badge QR codes point there.
# HTTPS by default (phones give the camera, the service worker and offline use only to a
# secure page): `flask tls init --keep` makes a local authority and a certificate for this
# machine in instance/tls/ the first time, and a plain-HTTP page on TRUST_PORT shows phones
# how to trust it. CERT and KEY serve other PEM files instead; HTTPS=0 serves plain HTTP.
LAN_IP := $(shell hostname -I 2>/dev/null | cut -d' ' -f1 | grep . || echo 127.0.0.1)
# The address printed, and put in badges' QR codes: HOST when it names one (make run
# HOST=127.0.0.1 serves this machine alone), else the LAN address for every interface.
ADDRESS := $(if $(filter 0.0.0.0 :: [::],$(HOST)),$(LAN_IP),$(HOST))
HTTPS ?= 1
TRUST_PORT ?= 8080
# The push server (`flask push`): it tells phones of their character's changes, so that
# they need not poll every few seconds. PUSH_PORT=0 serves without it (pages poll alone).
PUSH_PORT ?= 5001
PUSH := $(filter-out 0,$(PUSH_PORT))
TLS_INIT := $(if $(CERT),,$(filter 1,$(HTTPS)))
CERT ?= $(if $(TLS_INIT),instance/tls/server.pem)
KEY ?= $(if $(TLS_INIT),instance/tls/server-key.pem)
SCHEME := $(if $(CERT),https,http)
TLS := $(if $(CERT),--certfile $(CERT) --keyfile $(KEY))
run: export LARP_PUBLIC_BASE_URL ?= $(SCHEME)://$(ADDRESS):$(PORT)
run: export LARP_TRUST_URL ?= $(if $(TLS_INIT),http://$(ADDRESS):$(TRUST_PORT)/)
run: export LARP_PUSH_URL ?= $(if $(PUSH),$(SCHEME)://$(ADDRESS):$(PUSH))
run: export HOST := $(HOST)

# Migrate, load the demo once, then serve to phones on the LAN with gunicorn (threaded
# workers that keep phones' connections alive and warm up before taking requests:
# larp_app/serving.py), the push server beside it and, with HTTPS, the trust page; all stop
# together.
run: install translations
	$(FLASK) db upgrade
	$(FLASK) demo
	$(if $(TLS_INIT),$(FLASK) tls init --keep)
	@echo "Open $(LARP_PUBLIC_BASE_URL)/ on a phone on this network."
	@$(if $(TLS_INIT),echo "Each phone trusts it once: open $(LARP_TRUST_URL) (a QR code and the steps).")
	$(if $(PUSH),$(FLASK) push --host $(HOST) --port $(PUSH) $(TLS) & push=$$!;) \
	$(if $(TLS_INIT),$(BIN)/gunicorn --workers 1 --bind $(HOST):$(TRUST_PORT) 'larp_app.trust:create_trust_app()' & trust=$$!;) \
	trap 'kill $$push $$trust 2>/dev/null' EXIT INT TERM; \
	$(BIN)/gunicorn -c python:larp_app.serving --workers $(WORKERS) --bind $(HOST):$(PORT) $(TLS) 'larp_app:create_app()'

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# One process per core (pytest-xdist); the browser tests take turns in one of them
# (tests/conftest.py).
test: install translations lint
	$(BIN)/pytest -n auto

# The fast tests alone (the engine, the rule systems, the folds' vectors, the house's
# layering: no server, no browser), for the loop of a change; `make test` before a push.
fast: install translations
	$(BIN)/ruff check .
	$(BIN)/pytest -q tests/unit

bench: install
	$(BIN)/python bench/fold.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
