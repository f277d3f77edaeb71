# Two commands for learners (make run, make test), one for exploring (make lab).
# Each bootstraps .venv from python3 on first use; pins come from constraints.txt.

PYTHON ?= python3
# Bytecode caches on, even where the environment turns them off: pytest keeps its rewritten test modules
# there (without them every test process rewrites every test file, seconds each), and every kernel and
# command that imports the lab starts faster
export PYTHONDONTWRITEBYTECODE =
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip install --quiet --quiet --disable-pip-version-check -c constraints.txt

.PHONY: run test check lab bench clean

$(PY):
	@echo "creating .venv with $(PYTHON)"
	@$(PYTHON) -m venv $(VENV)

$(VENV)/.run-installed: pyproject.toml constraints.txt | $(PY)
	@echo "installing pinned dependencies into .venv (first run only, a few minutes)"
	@$(PIP) -e ".[course]"
	@touch $@

# The oldest supported major of the official Python SDK that still sends Notion-Version 2022-06-28 (2.6 and
# later default to 2025-09-03), next to the newest in .venv: one environment holds one release of a
# distribution, so it goes into a folder of its own, which the tests put first on PYTHONPATH in a
# subprocess (lab.testing.sdk_reading). Its one dependency, httpx, is the pinned one in .venv.
NOTION_CLIENT_2 := 2.5.0
SDK_2   := $(VENV)/sdks/notion-client-2
$(SDK_2)/.installed-$(NOTION_CLIENT_2): | $(PY)
	@rm -rf $(SDK_2)
	@$(PY) -m pip install --quiet --quiet --disable-pip-version-check --no-deps --target $(SDK_2) \
		notion-client==$(NOTION_CLIENT_2)
	@touch $@

$(VENV)/.test-installed: $(VENV)/.run-installed $(SDK_2)/.installed-$(NOTION_CLIENT_2)
	@echo "installing the test references into .venv (first test run only, about a minute)"
	@$(PIP) -e ".[course,dev]"
	@touch $@

## run: execute every lesson in order, regenerate data/tables and data/figures, print a summary
run: $(VENV)/.run-installed
	@$(PY) -m lab.course.pipeline run

## test: unit, property and fault-injection tests, strict nbval with each cell run twice, drift, browser;
##       on every core and one more (pytest-xdist), file by file: a lesson's cells share one kernel on one worker
# One worker more than the cores: many tests wait on a child process, a server or a kernel, and the extra
# worker uses the core they leave idle (on 2 cores: 7.4 to 8.5 min with 3 workers; an earlier suite took 8.4 with 3, 8.9
# with 2 and 9.5 with 4)
TEST_WORKERS ?= $(shell $(PYTHON) -c "import os; print((os.cpu_count() or 1) + 1)")

test: $(VENV)/.test-installed
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

## check: the tests a change to lab/ needs, in about a minute on 2 cores: no lessons, no browser, no
##        PostgreSQL, nothing marked slow (make test runs them all)
check: $(VENV)/.test-installed
	$(PY) -m pytest tests -n auto --dist loadfile -m "not slow and not postgres and not browser" \
		-o addopts="-p no:cacheprovider -p no:langsmith_plugin" -p no:nbval

## lab: JupyterLab at the repository root with lesson 01 open; prints the address to open
##      (make lab PORT=8888 NO_BROWSER=1 on a remote machine, then forward the port over ssh)
lab: $(VENV)/.run-installed
	@$(PY) -m lab.course.jupyterlab $(if $(PORT),--port $(PORT)) $(if $(NO_BROWSER),--no-browser)

## bench: performance ratios against reference libraries, measured in one process
bench: $(VENV)/.test-installed
	$(PY) -m bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
