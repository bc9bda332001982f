"""The served page names every shipped module up front (issue 13, first minute): one fetch wave, not one
per import level."""

from __future__ import annotations

import re

import pytest

from clauz3.sessions.web.page_constants import page_html
from clauz3.sessions.web.routes import WEB, build_assets, preload_modules


def test_every_module_the_page_imports_is_preloaded_before_app_js() -> None:
    assets = build_assets()
    html = preload_modules(page_html((WEB / "index.html").read_text(encoding="utf-8")), assets)
    preloaded = re.findall(r'<link rel="modulepreload" href="/ui/assets/([\w.-]+)">', html)
    imported = {name for text, _ in assets.values()
                for name in re.findall(rb'from "\./([\w.-]+\.js)"', text)}
    assert imported, "the scan found no import between the page's modules"
    assert {n.decode() for n in imported} <= set(preloaded)
    assert "app.js" not in preloaded and html.index("modulepreload") < html.index('src="/ui/assets/app.js"')


def test_a_page_without_its_app_script_is_refused() -> None:
    with pytest.raises(ValueError):
        preload_modules("<html></html>", build_assets())
