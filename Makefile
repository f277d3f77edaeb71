# Two commands for learners (make run, make test), one for exploring (make lab).
# Each bootstraps .venv from python3 on first use; pins come from constraints.txt.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt

.PHONY: run test lab bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(VENV)/.run-installed: pyproject.toml constraints.txt | $(PY)
	$(PIP) -e .
	@touch $@

$(VENV)/.test-installed: $(VENV)/.run-installed
	$(PIP) -e ".[dev]"
	@touch $@

## run: execute every lesson in order, regenerate data/tables and data/figures, print a summary
run: $(VENV)/.run-installed
	$(PY) -m lab.pipeline run

## test: unit, property and fault-injection tests, strict nbval on the notebooks, table drift
test: $(VENV)/.test-installed
	$(PY) -m pytest

## lab: open the lessons in JupyterLab
lab: $(VENV)/.run-installed
	$(VENV)/bin/jupyter lab notebooks/

## bench: performance ratios against reference libraries, measured in one process
bench: $(VENV)/.test-installed
	$(PY) -m bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
