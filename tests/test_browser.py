"""The lessons as a learner sees them: JupyterLab in headless Chromium, every lesson opened and shown
(charts drawn, exercises waiting, no worked solution shown), the lessons with controls run from the UI
(Restart Kernel and Run All) and a control moved in two of them.

A lesson without controls is not run again here: strict nbval runs every lesson and holds its saved
outputs to a fresh run's, so what JupyterLab shows of the saved lesson is what Run All shows. Controls
are live widgets, which only a kernel behind the page draws, so those lessons run in the browser.

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them) and Selenium,
which drives the system browser (no browser download). Without them this test is skipped with
one line, unless ``LAB_REQUIRE_BROWSER=1`` (set by CI) turns the skip into a failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from lab.course.jupyterlab import free_port, jupyterlab_command
from lab.course.paths import NOTEBOOKS_DIR
from lab.course.pipeline import lesson_paths

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
LESSONS = [path.name for path in lesson_paths()]
#: Lessons whose chart with controls the test plays with: the rate-limit schedule and the answering threshold.
CONTROLLED = {"02_a_client_that_respects_rate_limits.ipynb", "11_answering_from_the_index.ipynb"}
RUN_TIMEOUT_S = 300
PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"  # the notebook in the active tab


def _missing() -> str:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not Path(path).exists():
            return f"{package} is not installed (apt-get install chromium chromium-driver)"
    return ""


def _need_browser() -> None:
    reason = _missing()
    if reason and os.environ.get("LAB_REQUIRE_BROWSER") == "1":
        pytest.fail(f"LAB_REQUIRE_BROWSER=1 but {reason}")
    if reason:
        pytest.skip(f"browser test skipped: {reason}")


@pytest.fixture(scope="module")
def jupyterlab(tmp_path_factory: pytest.TempPathFactory):
    """JupyterLab on a free loopback port, serving a copy of the lessons; yields (url, root)."""
    _need_browser()
    root = tmp_path_factory.mktemp("jupyterlab-root")
    (root / "notebooks").mkdir()
    for lesson in NOTEBOOKS_DIR.glob("*.ipynb"):
        shutil.copy(lesson, root / "notebooks" / lesson.name)
    port, token = free_port(), "lab-browser-test"
    env = os.environ | {"JUPYTER_RUNTIME_DIR": str(root / ".runtime"), "JUPYTER_CONFIG_DIR": str(root / ".config"),
                        "JUPYTER_DATA_DIR": str(root / ".data")}
    # the app object in the page (window.jupyterapp) lets the test open each lesson in the one loaded app
    command = jupyterlab_command(port, token, open_browser=False, root=root) + ["--LabApp.expose_app_in_browser=True"]
    server = subprocess.Popen(command, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
            break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                pytest.fail("JupyterLab did not start: " + server.stderr.read().decode(errors="replace")[-2000:])
            time.sleep(0.5)
    yield base, token, root
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()


@pytest.fixture(scope="module")
def browser():
    _need_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def _wait(condition, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}")


def _click_menu(driver, menu: str, item: str) -> None:
    from selenium.webdriver.common.by import By

    driver.find_element(By.XPATH, f"//div[contains(@class,'lm-MenuBar-itemLabel') and text()='{menu}']").click()
    _wait(lambda: driver.find_elements(By.XPATH, f"//div[contains(@class,'lm-Menu-itemLabel') and text()='{item}']"),
          10, f"menu item {menu} > {item}")[0].click()


def _save(browser, saved: Path) -> None:
    """Save the active notebook with Ctrl-S and wait until the server has written ``saved`` (an unchanged
    notebook shows no unsaved mark, so the file itself says when the save is done)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    before = saved.stat().st_mtime_ns
    browser.find_element(By.CSS_SELECTOR, f"{PANEL} .jp-Notebook").click()
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.CONTROL, "s")
    _wait(lambda: saved.stat().st_mtime_ns != before
          and not browser.find_elements(By.CSS_SELECTOR, ".lm-TabBar-tab.jp-mod-current.jp-mod-dirty"), 20,
          "the save to finish")


def _open(browser, base: str, token: str, lesson: str) -> None:
    """Open ``lesson`` as a learner does from the file browser: in the app already loaded (loading
    JupyterLab itself, the first time only, takes seconds of the CPU)."""
    if browser.execute_script("return !!window.jupyterapp"):
        browser.execute_script("window.jupyterapp.commands.execute('docmanager:open', {path: arguments[0]})",
                               f"notebooks/{lesson}")
    else:
        browser.get(f"{base}/lab/tree/notebooks/{lesson}?token={token}")


def _shown_text(browser) -> str:
    """Every output of the active notebook as the learner reads it."""
    return browser.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0])).map(e => e.textContent).join('\\n')",
        f"{PANEL} .jp-OutputArea-output")


def _move_a_slider(browser, lesson: str) -> None:
    """Press the right arrow on the first slider of a chart with controls; its picture must change."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    handle = _wait(lambda: browser.find_elements(By.CSS_SELECTOR, f"{PANEL} .widget-slider .noUi-handle"), 30,
                   f"{lesson}: a slider")[0]
    image = browser.find_element(By.CSS_SELECTOR, f"{PANEL} .jupyter-widgets img, {PANEL} img.widget-image")
    before = image.get_attribute("src")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", handle)
    handle.click()
    for _ in range(5):
        handle.send_keys(Keys.ARROW_RIGHT)
    _wait(lambda: image.get_attribute("src") != before, 30, f"{lesson}: the chart to redraw after the slider moved")


def _outputs(nb) -> list:
    """Each code cell's execution count and outputs, without output metadata."""
    return [(cell.execution_count, [{k: v for k, v in out.items() if k != "metadata"} for out in cell.outputs])
            for cell in nb.cells if cell.cell_type == "code"]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda name: name[:2])
def test_a_lesson_shows_its_charts_and_no_solved_exercise_and_its_controls_run_from_the_ui(jupyterlab, browser, lesson: str) -> None:
    import nbformat
    from selenium.webdriver.common.by import By

    base, token, root = jupyterlab
    saved = root / "notebooks" / lesson
    committed = nbformat.read(NOTEBOOKS_DIR / lesson, as_version=4)
    code_cells = sum(cell.cell_type == "code" for cell in committed.cells)
    shown_cells = sum(cell.cell_type == "code" and not cell.metadata.get("jupyter", {}).get("source_hidden")
                      for cell in committed.cells)
    chart_cells = sum(any("image/png" in out.get("data", {}) for out in cell.get("outputs", []))
                      for cell in committed.cells)
    # a chart with controls is saved as its default picture, and JupyterLab shows the live widget instead
    control_cells = sum(any("controls move it" in "".join(out.get("data", {}).get("text/plain", ""))
                            for out in cell.get("outputs", [])) for cell in committed.cells)

    _open(browser, base, token, lesson)
    _wait(lambda: len(browser.find_elements(By.CSS_SELECTOR, f"{PANEL} .jp-CodeCell")) == code_cells, 60,
          f"{code_cells} code cells on the page")
    _wait(lambda: "Idle" in browser.find_element(By.ID, "jp-main-statusbar").text, 60, "an idle kernel")

    _save(browser, saved)  # opened and saved, unchanged: the file must be the committed one
    assert saved.read_bytes() == (NOTEBOOKS_DIR / lesson).read_bytes(), (
        f"{lesson}: saving the unchanged lesson in JupyterLab changed the file (git status would show it)")

    def prompts() -> list[str]:  # the prompts of cells whose input is shown (collapsed solutions have none)
        return [text for text in ((e.get_attribute("textContent") or "").strip()
                                  for e in browser.find_elements(By.CSS_SELECTOR, f"{PANEL} .jp-CodeCell .jp-InputPrompt"))
                if text]

    if control_cells:  # live widgets: run the lesson from the UI
        _click_menu(browser, "Edit", "Clear Outputs of All Cells")  # so that only this run can number the prompts
        _wait(lambda: not browser.find_elements(By.CSS_SELECTOR, f"{PANEL} .jp-RenderedImage img"), 10,
              "cleared outputs")
        _click_menu(browser, "Kernel", "Restart Kernel and Run All Cells…")
        _wait(lambda: browser.find_elements(By.CSS_SELECTOR, ".jp-Dialog .jp-mod-accept"), 10,
              "the restart dialog")[0].click()

        def finished() -> bool:
            shown = prompts()
            idle = "Idle" in browser.find_element(By.ID, "jp-main-statusbar").text
            return idle and len(shown) == shown_cells and all("*" not in p and p != "[ ]:" for p in shown)

        _wait(finished, RUN_TIMEOUT_S, "every cell to finish")
    else:  # the saved outputs, as the page draws them once its pictures have loaded
        _wait(lambda: len(browser.find_elements(By.CSS_SELECTOR, f"{PANEL} .jp-RenderedImage img")) >= chart_cells,
              30, f"{chart_cells} pictures on the page")
    browser.save_screenshot(str(root / f"{lesson}.png"))

    errors = browser.find_elements(By.CSS_SELECTOR,
                                    f'{PANEL} .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')
    assert not errors, f"{lesson}: error output in the browser: " + errors[0].text[:500]
    numbers = [int(p.strip("[]:")) for p in prompts()]
    assert numbers == sorted(set(numbers)) and len(numbers) == shown_cells, f"{lesson}: execution counts {prompts()}"
    images = browser.find_elements(By.CSS_SELECTOR, f"{PANEL} .jp-RenderedImage img")
    assert len(images) == chart_cells - control_cells, f"{lesson}: {len(images)} pictures for {chart_cells} charts"
    widgets = browser.find_elements(By.CSS_SELECTOR, f"{PANEL} .jp-OutputArea-output .widget-slider")
    assert bool(widgets) == bool(control_cells), f"{lesson}: {len(widgets)} sliders for {control_cells} controls"
    assert all(img.get_attribute("naturalWidth") not in (None, "0") for img in images), "a chart did not load"
    shown = _shown_text(browser)
    assert "not answered yet" in shown, f"{lesson}: the exercise cells did not run"
    assert "· correct" not in shown, f"{lesson}: Run All shows a solved exercise (a solution ran)"

    if control_cells:
        # Running a cell shows its outputs (JupyterLab un-collapses them), so only outputs and counts
        # are compared: every cell, hidden solutions included, gives what the committed lesson shows.
        _save(browser, saved)
        ran = nbformat.read(saved, as_version=4)
        for number, (got, expected) in enumerate(zip(_outputs(ran), _outputs(committed)), start=1):
            assert got == expected, f"{lesson}: code cell {number} gives other outputs in JupyterLab"
    if lesson in CONTROLLED:
        _move_a_slider(browser, lesson)
    _click_menu(browser, "File", "Close and Shut Down Notebook…")
    for button in browser.find_elements(By.CSS_SELECTOR, ".jp-Dialog .jp-mod-accept"):
        button.click()
