"""Charts with controls, and the tables and charts a cell shows saved outside the cell."""

from __future__ import annotations

import pandas as pd
import pytest
from matplotlib.figure import Figure
from nbformat.v4 import new_code_cell, new_notebook, new_output

from lab.course.controls import WIDGET_VIEW, ChartControl, Choice, Slider
from lab.course.pipeline import normalise_notebook


def _draw(height: float = 2.0, colour: str = "blue") -> Figure:
    fig = Figure(figsize=(3, 2))
    fig.add_subplot().bar([0], [height], color=colour)
    fig.axes[0].set_title("One bar")
    return fig


def _control() -> ChartControl:
    return ChartControl(_draw, height=Slider(1.0, 5.0, 2.0, step=0.5), colour=Choice(("blue", "red"), "blue"))


def test_a_control_shows_the_picture_of_its_defaults_beside_the_live_widget() -> None:
    bundle = _control()._repr_mimebundle_()
    assert bundle["image/png"] and bundle["text/plain"].startswith("[chart 300x200: One bar] at height 2.0, colour blue")
    assert bundle[WIDGET_VIEW]["model_id"]


def test_moving_a_control_redraws_the_chart() -> None:
    box = _control().widget()
    slider, menu = box.children[0].children
    image = box.children[1]
    before = image.value
    slider.value = 4.5
    after_slider = image.value
    menu.value = "red"
    assert before != after_slider != image.value


def test_a_default_outside_its_range_or_options_is_refused() -> None:
    with pytest.raises(ValueError, match="outside"):
        Slider(1, 5, 7)
    with pytest.raises(ValueError, match="not one of"):
        Choice(("a", "b"), "c")


def test_a_saved_notebook_keeps_the_picture_and_drops_the_widget() -> None:
    data = {"image/png": "iVBOR", "text/plain": "[chart]", WIDGET_VIEW: {"model_id": "abc"}}
    cell = new_code_cell("control", outputs=[new_output("display_data", data=data)])
    nb = new_notebook(cells=[cell], metadata={"widgets": {"state": {}}})
    out = normalise_notebook(nb)
    assert set(out.cells[0].outputs[0]["data"]) == {"image/png", "text/plain"} and "widgets" not in out.metadata


def test_a_cell_ending_with_a_name_saves_its_table_or_chart(tmp_path, monkeypatch) -> None:
    from IPython.core.interactiveshell import InteractiveShell

    from lab.course import notebook

    monkeypatch.setenv("LAB_OUTPUT_DIR", str(tmp_path))
    shell = InteractiveShell.instance()
    try:
        notebook.setup("99")
        shell.user_ns.update(pd=pd, _draw=_draw, _control=_control)
        shell.run_cell("costs = pd.DataFrame({'n': [1, 2]})\ncosts")
        shell.run_cell("labelled = pd.DataFrame({'n': [1]}, index=['a'])\nlabelled")
        shell.run_cell("bar = _draw()\nbar")
        shell.run_cell("played = _control()\nplayed")
        shell.run_cell("not_saved = pd.DataFrame({'n': [3]})\nnot_saved.head()")
        notebook.setup("99")  # running setup again replaces its hook: still one file per cell
    finally:
        InteractiveShell.clear_instance()
    assert (tmp_path / "tables" / "99_costs.csv").read_text() == "n\n1\n2\n"
    assert (tmp_path / "tables" / "99_labelled.csv").read_text() == ",n\na,1\n"
    assert sorted(p.name for p in (tmp_path / "figures").iterdir()) == ["99_bar.png", "99_played.png"]
    assert not (tmp_path / "tables" / "99_not_saved.csv").exists()
