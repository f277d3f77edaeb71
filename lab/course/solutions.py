"""The worked solutions of a lesson's exercises, as the lesson shows them: folded, never run.

A solution is a markdown cell under its exercise's answer cell::

    <details>
    <summary>Solution 2</summary>

    Why the answer is what it is, in a sentence or two.

    ```python
    ...
    exercise(2).assert_solved(...)
    ```

    </details>

Markdown is never executed, so "Run All" leaves every exercise unanswered; the tests take the code
back out (:func:`solutions`) and run it after the lesson's cells, against the checker.
"""

from __future__ import annotations

import re

__all__ = ["solutions", "solution_number", "SOLUTION_PATTERN"]

SOLUTION_PATTERN = re.compile(r"<details>\s*<summary>Solution (\d+)</summary>(.*?)</details>", re.S)
_CODE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def solution_number(markdown: str) -> int | None:
    """The exercise number of the solution in a markdown cell, or None if the cell holds none."""
    found = SOLUTION_PATTERN.search(markdown)
    return int(found.group(1)) if found else None


def solutions(cells: list) -> dict[int, str]:
    """Each exercise's solution code, by exercise number, from a notebook's cells (in order)."""
    found: dict[int, str] = {}
    for cell in cells:
        if cell["cell_type"] != "markdown":
            continue
        for number, body in SOLUTION_PATTERN.findall(cell["source"]):
            code = _CODE.findall(body)
            if not code:
                raise ValueError(f"solution {number} has no ```python block")
            found[int(number)] = "\n".join(block.rstrip("\n") for block in code) + "\n"
    return found
