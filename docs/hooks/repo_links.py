"""MkDocs hook: links from a page to files of the repository outside docs/ (the atlas links every
certificate it read as ../certificates/...) work on GitHub and in a clone, but MkDocs finds no
such page. Each linked file that exists is copied into the site under repo/ and the link pointed
there, so MkDocs checks it like any other; a link to a file that does not exist is left as written,
and --strict fails on it."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from mkdocs.structure.files import File

# [text](target) and ![alt](target), target without a scheme, up to an optional #anchor
_LINK = re.compile(r"(!?\[[^\]]*\]\()([^)\s#]+)(#[^)\s]*)?\)")
_PREFIX = "repo"


def _outside(src_uri: str, target: str) -> str | None:
    """The repository path ``target`` names from page ``src_uri`` when it leaves docs/, else None."""
    if "://" in target or target.startswith(("/", "mailto:")):
        return None
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(src_uri), target))
    return joined[3:] if joined.startswith("../") and not joined.startswith("../../") else None


def _targets(config, files):
    docs = Path(config["docs_dir"])
    for f in files.documentation_pages():
        text = Path(f.abs_src_path).read_text(encoding="utf-8")
        for m in _LINK.finditer(text):
            rel = _outside(f.src_uri, m.group(2))
            if rel is not None:
                yield rel, docs.parent / rel


def on_files(files, config):
    seen = set()
    for rel, path in _targets(config, files):
        if rel not in seen and path.is_file():
            seen.add(rel)
            files.append(File.generated(config, f"{_PREFIX}/{rel}", abs_src_path=str(path)))
    return files


def on_page_markdown(markdown, page, config, files):
    root = Path(config["docs_dir"]).parent

    def point(m):
        rel = _outside(page.file.src_uri, m.group(2))
        if rel is None or not (root / rel).is_file():
            return m.group(0)
        here = posixpath.dirname(page.file.src_uri) or "."
        return f"{m.group(1)}{posixpath.relpath(f'{_PREFIX}/{rel}', here)}{m.group(3) or ''})"

    return _LINK.sub(point, markdown)
