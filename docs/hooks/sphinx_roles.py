"""MkDocs hook: the API's docstrings cite names with Sphinx roles (:class:`Certificate`,
:func:`~certify.text.shown`), which mkdocstrings leaves as text; show the name alone, as Sphinx would
(the ~ form by its last component). Other pages are left alone."""

from __future__ import annotations

import re

_ROLE = re.compile(r":(?:class|func|meth|attr|mod|exc|data|obj):(<code>)")
_TILDE = re.compile(r"(<code>)~((?:\w+\.)*)(\w+</code>)")


def on_page_content(html, page, config, files):
    if "doc-contents" not in html:  # only pages with mkdocstrings' output
        return html
    html = _ROLE.sub(r"\1", html)
    return _TILDE.sub(lambda m: m.group(1) + m.group(3), html)
