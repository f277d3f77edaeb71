# Two commands for learners (make run, make test), one for exploring (make lab).
# Each bootstraps .venv from python3 on first use; pins come from constraints.txt.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip install --quiet --quiet --disable-pip-version-check -c constraints.txt

.PHONY: run test lab bench clean

$(PY):
	@echo "creating .venv with $(PYTHON)"
	@$(PYTHON) -m venv $(VENV)

$(VENV)/.run-installed: pyproject.toml constraints.txt | $(PY)
	@echo "installing pinned dependencies into .venv (first run only, a few minutes)"
	@$(PIP) -e ".[course]"
	@touch $@

$(VENV)/.test-installed: $(VENV)/.run-installed
	@echo "installing the test references into .venv (first test run only, about a minute)"
	@$(PIP) -e ".[course,dev]"
	@touch $@

## run: execute every lesson in order, regenerate data/tables and data/figures, print a summary
run: $(VENV)/.run-installed
	@$(PY) -m lab.course.pipeline run

## test: unit, property and fault-injection tests, strict nbval with each cell run twice, drift, browser;
##       on every core (pytest-xdist), file by file: a lesson's cells share one kernel on one worker
test: $(VENV)/.test-installed
	$(PY) -m pytest -n auto --dist loadfile --no-loadscope-reorder

## lab: JupyterLab at the repository root with lesson 01 open; prints the address to open
##      (make lab PORT=8888 NO_BROWSER=1 on a remote machine, then forward the port over ssh)
lab: $(VENV)/.run-installed
	@$(PY) -m lab.course.jupyterlab $(if $(PORT),--port $(PORT)) $(if $(NO_BROWSER),--no-browser)

## bench: performance ratios against reference libraries, measured in one process
bench: $(VENV)/.test-installed
	$(PY) -m bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
