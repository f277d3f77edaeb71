"""Charts to play with: sliders and menus that redraw a chart, shown beside the picture of their
default values.

A lesson ends a cell with a :class:`ChartControl`::

    ChartControl(draw_window, rate=Slider(1, 10, 3, step=0.5), plan=Choice(("free", "business"), "free"))

where ``draw_window(rate=..., plan=...)`` returns a matplotlib Figure. The cell shows one output in
two forms: the chart drawn with the default values, as a PNG with its one-line description, and
the live control (ipywidgets: the sliders and menus above the chart they redraw), which
JupyterLab shows in its place when the lesson runs there. A saved notebook keeps only the
picture (:func:`lab.course.pipeline.normalise_notebook` drops the widget's random id, as JupyterLab
does on save through the same function), so papermill, nbval and the drift check see the same
bytes on every run, and the picture is what a reader of the saved lesson sees.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from matplotlib.figure import Figure

from lab.course.figures import describe_figure, png_bytes

__all__ = ["Slider", "Choice", "ChartControl", "WIDGET_VIEW"]

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


@dataclass(frozen=True)
class Slider:
    """A number between ``low`` and ``high`` in steps of ``step``, starting at ``default``; whole
    numbers when all four are integers."""

    low: float
    high: float
    default: float
    step: float = 1
    label: str = ""

    def __post_init__(self) -> None:
        if not self.low <= self.default <= self.high:
            raise ValueError(f"the default {self.default} lies outside [{self.low}, {self.high}]")

    def widget(self, name: str) -> Any:
        import ipywidgets

        whole = all(isinstance(v, int) for v in (self.low, self.high, self.default, self.step))
        kind = ipywidgets.IntSlider if whole else ipywidgets.FloatSlider
        return kind(value=self.default, min=self.low, max=self.high, step=self.step,
                    description=self.label or name, continuous_update=False,
                    style={"description_width": "initial"})


@dataclass(frozen=True)
class Choice:
    """One of ``options``, starting at ``default``."""

    options: Sequence[Any]
    default: Any
    label: str = ""

    def __post_init__(self) -> None:
        if self.default not in self.options:
            raise ValueError(f"the default {self.default!r} is not one of {list(self.options)}")

    def widget(self, name: str) -> Any:
        import ipywidgets

        return ipywidgets.Dropdown(options=list(self.options), value=self.default, description=self.label or name,
                                   style={"description_width": "initial"})


class ChartControl:
    """A chart ``draw(**values)`` redrawn whenever one of its controls moves.

    ``controls`` maps each keyword argument of ``draw`` to a :class:`Slider` or a :class:`Choice`.
    """

    def __init__(self, draw: Callable[..., Figure], **controls: Slider | Choice) -> None:
        if not controls:
            raise ValueError("a chart with controls needs at least one Slider or Choice")
        self.draw = draw
        self.controls = controls

    @property
    def defaults(self) -> dict[str, Any]:
        return {name: control.default for name, control in self.controls.items()}

    @cached_property
    def default_figure(self) -> Figure:
        """The chart at the default values: the saved picture."""
        return self.draw(**self.defaults)

    def widget(self) -> Any:
        """The live control: one widget per control above the chart, redrawn on every change."""
        import ipywidgets

        image = ipywidgets.Image(value=png_bytes(self.default_figure), format="png")
        inputs = {name: control.widget(name) for name, control in self.controls.items()}

        def redraw(_change: object = None) -> None:
            image.value = png_bytes(self.draw(**{name: box.value for name, box in inputs.items()}))

        for box in inputs.values():
            box.observe(redraw, names="value")
        return ipywidgets.VBox([ipywidgets.HBox(list(inputs.values())), image])

    def description(self) -> str:
        settings = ", ".join(f"{name} {value}" for name, value in self.defaults.items())
        return f"{describe_figure(self.default_figure)} at {settings} (controls move it in JupyterLab)"

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> dict[str, Any]:
        bundle: dict[str, Any] = {"image/png": base64.b64encode(png_bytes(self.default_figure)).decode("ascii"),
                                  "text/plain": self.description()}
        try:
            widget = self.widget()
        except ImportError:  # ipywidgets is not installed: the picture alone
            return bundle
        bundle[WIDGET_VIEW] = {"version_major": 2, "version_minor": 0, "model_id": widget.model_id}
        return bundle
