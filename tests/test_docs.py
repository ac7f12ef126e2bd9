"""The documentation: the README stays short and its relative links and quoted commands work; the
site (mkdocs.yml, docs/) builds with --strict (no broken link to a page, no missing nav entry, no
bad anchor), and in the built HTML every internal link, image and anchor resolves and nothing is
fetched from the network when a page opens."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
EXTERNAL = ("http:", "https:", "mailto:", "data:", "javascript:")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
                          "-d", str(out)], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "WARNING" not in run.stderr, run.stderr[-3000:]
    return out


class _Page(HTMLParser):
    """The ids of a page, the links it follows and the resources it loads."""

    def __init__(self):
        super().__init__()
        self.ids, self.links, self.loads = set(), [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("name"):
            self.ids.add(a["name"])
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag in ("img", "script", "iframe", "source") and a.get("src"):
            self.loads.append(a["src"])
        if tag == "link" and a.get("href") and a.get("rel") != "canonical":
            self.loads.append(a["href"])


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def test_the_readme_is_read_in_five_minutes():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 250
    top = "\n".join(text.splitlines()[:15])
    assert "make run" in top and "make test" in top  # CI and the user start from these two
    assert re.search(r"!\[[^\]]+\]\(docs/[^)]+\.png\)", text)  # one picture
    for user in ("teacher", "researcher", "puzzle fan"):
        assert re.search(rf"^## .*{user}", text, re.M), user


def test_the_readmes_relative_links_resolve():
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    local = [link for link in links if not link.startswith(EXTERNAL)]
    assert len(local) >= 15
    for link in local:
        path = unquote(link.split("#")[0])
        assert (ROOT / path).exists(), link
    # every page of the site is one link away: the README names the docs' home page
    assert "docs/index.md" in local


def _readme_commands():
    """The README's ```$ certify ...``` blocks: (command, output shown)."""
    text = README.read_text(encoding="utf-8")
    return re.findall(r"```\n\$ (certify [^\n]*)\n(.*?)```", text, re.S)


def _repo_view(tmp_path: Path) -> Path:
    """A folder where the README's relative paths work but whose files written are thrown away."""
    for name in ("certificates", "tests"):
        (tmp_path / name).symlink_to(ROOT / name)
    return tmp_path


def test_the_readmes_commands_print_what_it_shows(tmp_path):
    blocks = _readme_commands()
    assert len(blocks) >= 3
    cwd = _repo_view(tmp_path)
    for command, shown in blocks:
        run = subprocess.run([sys.executable, "-m", "certify", *shlex.split(command)[1:]], capture_output=True,
                             text=True, cwd=cwd, timeout=300)
        assert run.returncode == 0, (command, run.stderr)
        assert run.stdout == shown, command


def test_the_readmes_python_example_prints_what_its_comment_says(tmp_path):
    text = README.read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    said = [line[2:] for line in code.splitlines() if line.startswith("# ")]
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=_repo_view(tmp_path),
                         timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == said


def test_the_site_builds_strict_and_every_link_and_anchor_resolves(site):
    pages = {p: _parse(p) for p in site.rglob("*.html") if p.name != "404.html"}
    assert len(pages) >= 20
    checked = anchors = 0
    for path, page in pages.items():
        for href in page.links:
            if href.startswith(EXTERNAL):
                continue
            parts = urlsplit(href)
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            assert target.exists(), f"{path.relative_to(site)}: {href}"
            assert site.resolve() in target.parents, f"{path.relative_to(site)}: {href} leaves the site"
            checked += 1
            if parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else _parse(target).ids
                assert unquote(parts.fragment) in ids, f"{path.relative_to(site)}: {href}"
                anchors += 1
        for src in page.loads:
            assert not src.startswith(("http:", "https:", "//")), f"{path.relative_to(site)} loads {src}"
            target = (path.parent / unquote(urlsplit(src).path)).resolve()
            assert target.exists(), f"{path.relative_to(site)}: {src}"
    assert checked > 1000 and anchors > 50, (checked, anchors)


def test_the_atlas_links_its_files_and_keeps_its_markers(site):
    """docs/atlas.md links every file it read as ../certificates/...: in the site they are copied
    under repo/ (the hook in docs/hooks/), so those links are checked as well."""
    from certify import atlas

    assert atlas.DOC == ROOT / "docs" / "atlas.md"
    text = atlas.DOC.read_text(encoding="utf-8")
    assert text.count(atlas._DOC_START) == 1 == text.count(atlas._DOC_END)
    linked = set(re.findall(r"\]\(\.\./(certificates/[^)]+)\)", text))
    assert len(linked) > 100
    for rel in linked:
        assert (site / "repo" / rel).read_bytes() == (ROOT / rel).read_bytes(), rel
    page = (site / "atlas.html").read_text(encoding="utf-8")
    assert 'href="repo/certificates/bounds/worst-case-4x6.json"' in page


def test_the_api_reference_documents_every_public_name(site):
    import certify.api

    ids = _parse(site / "api-reference.html").ids
    for name in certify.api.__all__:
        assert f"certify.api.{name}" in ids, name
    assert not any(i.startswith("certify.api._") for i in ids)  # private helpers stay out
    page = (site / "api-reference.html").read_text(encoding="utf-8")
    assert ":class:" not in page and ":func:" not in page  # Sphinx roles shown as the names they cite


def test_every_page_of_docs_is_built(site):
    for page in (ROOT / "docs").glob("*.md"):
        assert (site / page.with_suffix(".html").name).is_file(), page.name
