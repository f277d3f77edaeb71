"""Charts show inline as the same PNG bytes that are saved, with a readable text stand-in."""

from __future__ import annotations

from pathlib import Path

import pytest
from matplotlib.figure import Figure

from lab.course.figures import describe_figure, png_bytes, save_figure


def _chart() -> Figure:
    fig = Figure(figsize=(9, 3.6))
    ax = fig.add_subplot()
    ax.plot([0, 1, 2], [1, 3, 2])
    ax.set_title("Requests per second")
    return fig


def test_the_same_data_gives_the_same_png_bytes_and_no_software_stamp() -> None:
    first, second = png_bytes(_chart()), png_bytes(_chart())
    assert first == second and first.startswith(b"\x89PNG")
    assert b"Software" not in first and b"matplotlib" not in first.lower()


def test_save_figure_writes_the_displayed_bytes_and_returns_the_chart(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAB_OUTPUT_DIR", str(tmp_path))
    chart = _chart()
    assert save_figure(chart, "x.png") is chart
    assert (tmp_path / "figures" / "x.png").read_bytes() == png_bytes(chart)
    with pytest.raises(ValueError, match=".png"):
        save_figure(chart, "x.svg")


def test_the_text_stand_in_names_size_and_titles() -> None:
    assert describe_figure(_chart()) == "[chart 900x360: Requests per second]"


def test_in_a_kernel_a_figure_displays_as_png_with_its_description() -> None:
    from IPython.core.interactiveshell import InteractiveShell

    from lab.course import notebook

    shell = InteractiveShell.instance()
    try:
        notebook.setup()
        data, _ = shell.display_formatter.format(_chart())
        assert data["image/png"]  # base64 text of the same bytes
        assert data["text/plain"] == "[chart 900x360: Requests per second]"
    finally:
        InteractiveShell.clear_instance()
