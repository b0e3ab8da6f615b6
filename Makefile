# ropasci: `make run` starts the site, `make test` runs the tests.

PORT ?= 8000
PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
STAMP := $(VENV)/.requirements.stamp
CHROMIUM := /usr/bin/chromium
# Test files run in parallel processes (pytest-xdist; a file stays in one process); 0 runs them in this one.
TEST_PROCESSES ?= 2

.PHONY: setup serve run test

# Virtualenv + requirements (only when requirements.txt changed), database
# migrations and static files.
setup: $(STAMP)
	$(VPY) manage.py migrate --noinput
	$(VPY) manage.py collectstatic --noinput --verbosity 0
	@# The bots' C cores (games/*/*.c); without a compiler the bots play their pure-Python versions.
	@$(VPY) -m games.engine.native > /dev/null || echo "warning: a C core did not build; its bot uses Python"

$(VPY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): requirements.txt | $(VPY)
	$(VPY) -m pip install --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

serve:
	@echo ""
	@echo "  ropasci is starting on http://127.0.0.1:$(PORT)/"
	@if [ "$${BATTLEGROUND_PORT:-12360}" != "0" ]; then \
		echo "  The course's battleground listens on 127.0.0.1:$${BATTLEGROUND_PORT:-12360}:"; \
		echo "    python -m battleground PLAYER NAME [CHANNEL] -H 127.0.0.1 -P $${BATTLEGROUND_PORT:-12360}"; \
	fi
	@echo ""
	@echo "  Create the first admin account with:"
	@echo "    .venv/bin/python manage.py createsuperuser"
	@echo "  (or non-interactively: DJANGO_SUPERUSER_USERNAME=... DJANGO_SUPERUSER_EMAIL=..."
	@echo "   DJANGO_SUPERUSER_PASSWORD=... .venv/bin/python manage.py createsuperuser --noinput)"
	@echo ""
	exec $(VPY) -m ropasci.server -b 127.0.0.1 -p $(PORT) ropasci.asgi:application

run: setup
	@$(MAKE) --no-print-directory serve

test: setup
	@if [ ! -x $(CHROMIUM) ] || ! /sbin/ldconfig -p | grep -q libcairo.so.2; then \
		echo "Installing Debian's chromium (browser tests) and libcairo2 (board preview images)..."; \
		if [ "$$(id -u)" -eq 0 ]; then SUDO=; else SUDO=sudo; fi; \
		{ $$SUDO apt-get update && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium libcairo2; } \
			|| echo "warning: could not install chromium; the browser tests will be skipped (or fail with REQUIRE_SERVICES=1)"; \
	fi
	@# Browser tests run in a session of their own, after the rest: once Playwright's sync API has started in a
	@# process its event loop counts as running there, and Django's test client refuses async views then.
	@# Exit code 5 (nothing selected, e.g. by PYTEST_ARGS) is no failure.
	$(VPY) -m pytest -n $(TEST_PROCESSES) --dist loadfile --timeout 600 -m 'not browser' $(PYTEST_ARGS) \
		|| [ $$? -eq 5 ]
	$(VPY) -m pytest -n $(TEST_PROCESSES) --dist loadfile --timeout 600 -m browser $(PYTEST_ARGS) \
		|| [ $$? -eq 5 ]
