"""The lab's data: generated deterministically by code here, committed under ``data/``.

Each module owns one corpus (``lab.datasets.bakery`` for the Notion workspace, ...) and can
regenerate its files byte for byte, which a test checks.
"""
