"""A small Chinese support handbook as a Notion workspace, for the retrieval lesson (07).

华光电器, a fictional appliance retailer, keeps one knowledge base, 客服知识库, whose rows are
ten pages for support agents (受众 = 客服) and one staff pay policy (受众 = 人事). Both
integrations, 客服助手 and 人事助手, are connected to the whole knowledge base: sharing does not
separate the two audiences here. The index holds every page with its audience, and retrieval
filters by the asker's audience *before* ranking. Without that filter a support agent's question
about refund approval lands on the HR page, the closest keyword match; with it, on the refund page.

The pages are Notion-flavoured Markdown files under ``lab/datasets/data/pages/handbook/`` (read by
:mod:`lab.datasets.notion_markdown`; their front matter names the audience and the author). The
support refund page describes refunds as 退回货款, 原路返回 and 主管确认, while the HR pay policy
talks at length about 审批, 批准, 金额 and 退还: that vocabulary is what makes the trap work. This
module adds users, the data source, integrations and timestamps, and writes
``lab/datasets/data/workspace/handbook.json``. Regenerate it with ``python -m lab.datasets.handbook``; a test
checks that the bytes do not move.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import numpy as np

from lab.clock import iso_minute
from lab.datasets.package_data import PACKAGE_DATA

from .notion_markdown import PageFile, PageFileError, check_front_matter, read_page_file, read_page_order

__all__ = ["AUDIENCES", "DATA_SOURCE_KEY", "SUPPORT_INTEGRATION", "HR_INTEGRATION", "HANDBOOK_PATH", "PAGES_DIR",
           "QUESTIONS_PATH", "build_handbook_workspace", "write_handbook_workspace", "load_handbook_workspace",
           "load_handbook_questions"]

#: The values of the 受众 select: support agents (客服) and human resources (人事).
AUDIENCES: tuple[str, ...] = ("客服", "人事")
DATA_SOURCE_KEY = "kb"
SUPPORT_INTEGRATION = "support-bot"
HR_INTEGRATION = "hr-bot"
HANDBOOK_PATH = PACKAGE_DATA / "workspace" / "handbook.json"
PAGES_DIR = PACKAGE_DATA / "pages" / "handbook"
QUESTIONS_PATH = PACKAGE_DATA / "questions" / "handbook_questions.json"

_USERS = (
    {"key": "lin-xiaowen", "name": "林晓雯"},  # support training lead, owns the knowledge base
    {"key": "zhao-yu", "name": "赵宇"},  # support team lead
    {"key": "zhou-min", "name": "周敏"},  # HR manager
)
_OWNER = "lin-xiaowen"
_KB_CREATED = datetime(2025, 11, 3, 1, 30, tzinfo=timezone.utc)
_LAST_EDIT_DAY = datetime(2026, 4, 8, tzinfo=timezone.utc)  # edits stop the day before the lessons' "now"
_OFFICE_START_UTC = 1  # 09:00 in Beijing; pages are written during office hours
_OFFICE_MINUTES = 9 * 60


def build_handbook_workspace(seed: int = 2026, pages_dir: Path = PAGES_DIR) -> dict[str, Any]:
    """The handbook workspace spec; ``seed`` draws only the created and edited times of each page."""
    rng = np.random.default_rng(seed)
    pages = [_page_spec(_read_page(path), *_page_times(rng)) for path in read_page_order(pages_dir)]
    return {
        "name": "华光电器客服中心",
        "users": [dict(user) for user in _USERS],
        "data_sources": [{
            "key": DATA_SOURCE_KEY, "title": "客服知识库",
            "created": iso_minute(_KB_CREATED), "edited": iso_minute(_KB_CREATED),
            "created_by": _OWNER, "edited_by": _OWNER,
            "properties": {"名称": {"type": "title"},
                           "受众": {"type": "select", "options": list(AUDIENCES)},
                           "可发布": {"type": "checkbox"}},
        }],
        "pages": pages,
        "integrations": [
            {"key": SUPPORT_INTEGRATION, "name": "客服助手", "capabilities": ["read_content"],
             "shares": [{"type": "data_source", "key": DATA_SOURCE_KEY}]},
            {"key": HR_INTEGRATION, "name": "人事助手", "capabilities": ["read_content"],
             "shares": [{"type": "data_source", "key": DATA_SOURCE_KEY}]},
        ],
    }


def _page_times(rng: np.random.Generator) -> tuple[str, str]:
    """A created time in the knowledge base's first three months and a later edit before the cutoff."""
    created = _office_minute(_KB_CREATED + timedelta(days=int(rng.integers(1, 90))), rng)
    room = (_LAST_EDIT_DAY - created).days
    edited = _office_minute(created + timedelta(days=int(rng.integers(1, room + 1))), rng)
    return iso_minute(created), iso_minute(edited)


def _office_minute(day: datetime, rng: np.random.Generator) -> datetime:
    start = day.replace(hour=_OFFICE_START_UTC, minute=0, second=0, microsecond=0)
    return start + timedelta(minutes=int(rng.integers(0, _OFFICE_MINUTES)))


def _read_page(path: Path) -> PageFile:
    page = read_page_file(path)
    check_front_matter(page, required={"title": str, "audience": str, "author": str}, optional={"icon": str})
    if page.meta["audience"] not in AUDIENCES:
        raise PageFileError(path, 1, f"front matter: audience is one of {AUDIENCES}, got {page.meta['audience']!r}")
    return page


def _page_spec(page: PageFile, created: str, edited: str) -> dict[str, Any]:
    # The simulator maps "type" to the data source's single select property, here 受众.
    meta = page.meta
    return {
        "key": page.key, "title": meta["title"], "icon": meta.get("icon"),
        "parent": {"type": "data_source", "key": DATA_SOURCE_KEY},
        "type": meta["audience"], "publishable": True,
        "created": created, "edited": edited, "created_by": meta["author"], "edited_by": meta["author"],
        "blocks": page.blocks,
    }


def write_handbook_workspace(path: Path = HANDBOOK_PATH) -> Path:
    """Write the spec as UTF-8 JSON (indent 1, trailing newline) so that it regenerates byte for byte."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(build_handbook_workspace(), ensure_ascii=False, indent=1) + "\n"
    path.write_text(text, encoding="utf-8", newline="\n")
    return path


def load_handbook_workspace(path: Path = HANDBOOK_PATH) -> dict[str, Any]:
    """The committed handbook spec, ready for ``Workspace.from_spec``."""
    return json.loads(path.read_text(encoding="utf-8"))


def load_handbook_questions(path: Path = QUESTIONS_PATH) -> list[dict[str, Any]]:
    """The labelled questions: id, question, audience and gold (page key, section heading) pairs."""
    return json.loads(path.read_text(encoding="utf-8"))


if __name__ == "__main__":
    print(write_handbook_workspace())
