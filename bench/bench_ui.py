"""The browser workspace in Debian's Chromium: start-up, first chunk, the tutorial flow, streaming,
restore on reload and memory (06 §3, targets revised by 00 DEC-6).

Times inside the page are taken by the page's own clock: a capturing click listener stamps the
moment the prompt or decision leaves the user's hand, and a MutationObserver stamps the first
DOM state that satisfies the figure's condition. Start-up and reload figures compare the page's
epoch clock (``performance.timeOrigin + now``) with the time this script spawned or reloaded.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import defaultdict
from pathlib import Path
from typing import Any

from _common import ROOT, Launched, RssSampler, Sample, spawn_ui, stop_tree

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WAIT_MS = 120_000
RESULTS = ROOT / "bench" / "results"

# Installed in every document before the page's own scripts (so it also sees a reload restore).
# Conditions are a fixed table (the page's CSP forbids eval); selectors prefer ARIA names.
PROBE = r"""
(() => {
  const B = window.__bench = { t0: null, done: null, restored: null, busy: 0, busyAtDone: null };
  // Main-thread time spent in long tasks (> 50 ms): how much of a slow figure the page itself costs.
  new PerformanceObserver((list) => { for (const e of list.getEntries()) B.busy += e.duration; })
    .observe({ type: "longtask" });
  document.addEventListener("click", () => { if (B.t0 === null) B.t0 = performance.now(); }, true);
  const shown = (n) => n && (n.checkVisibility ? n.checkVisibility() : n.offsetParent !== null);
  const bubbles = () => document.querySelectorAll(".bubble.assistant");
  const bodyText = (n) => ((n && (n.querySelector(".md") || n)) || {}).textContent || "";
  // A button's own words: the shortcut hint (<kbd aria-hidden>) is not part of its name.
  const ownText = (b) => [...b.childNodes].filter((c) => !(c.nodeName === "KBD")).map((c) => c.textContent).join("");
  const named = (name) => [...document.querySelectorAll("button")].filter(
    (b) => (b.getAttribute("aria-label") || ownText(b)).trim() === name);
  const runs = () => document.querySelectorAll('section.run, [aria-label="Run program"]');
  const counted = (n) => {
    const all = bubbles();
    const text = bodyText(all[all.length - 1]).trim();
    return new RegExp("(^|\\D)" + n + "$").test(text);
  };
  B.conditions = {
    agentText: (before) => { const all = bubbles(); return all.length > before && bodyText(all[all.length - 1]).trim() !== ""; },
    approveReady: () => named("Approve").some((b) => !b.disabled && shown(b)),
    runCompleted: () => { const all = runs(); return all.length > 0 && all[all.length - 1].textContent.includes("Completed"); },
    counted,
  };
  B.count = () => bubbles().length;
  B.watch = (name, arg) => {
    B.t0 = null; B.done = null; B.busy = 0; B.busyAtDone = null;
    const check = () => {
      if (B.done === null && B.conditions[name](arg)) { B.done = performance.now(); B.busyAtDone = B.busy; obs.disconnect(); }
    };
    const obs = new MutationObserver(check);
    obs.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    check();
  };
  const goal = sessionStorage.getItem("__bench_restore");
  if (goal !== null) {
    const obs = new MutationObserver(() => {
      if (B.restored === null && counted(goal)) { B.restored = performance.timeOrigin + performance.now(); obs.disconnect(); }
    });
    obs.observe(document, { subtree: true, childList: true, characterData: true });
  }
})();
"""


def _screenshot(page: Any) -> str:
    """Keep the failing page for a look, and say where it is and what the status line said."""
    shot = RESULTS / "ui-failure.png"
    status = ""
    with contextlib.suppress(Exception):
        RESULTS.mkdir(exist_ok=True)
        page.screenshot(path=str(shot))
        status = page.locator("header").inner_text(timeout=2_000).replace("\n", " | ")
    return f"page header: {status!r}; screenshot: {shot}"


def _project(tmp: Path) -> Path:
    project = tmp / "project"
    project.mkdir(exist_ok=True)
    (project / "README.md").write_text("benchmark workspace\n")
    return project


def _health(launched: Launched) -> float:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with opener.open(f"{launched.base}/health", timeout=2) as answer:
                if answer.status == 200:
                    return time.perf_counter() - launched.spawned
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.002)
    raise RuntimeError("/health never answered")


def ui_start_port(tmp: Path, reps: int) -> list[float]:
    home, project = tmp / "home-port", _project(tmp)
    times = []
    for i in range(reps + 1):  # the first start creates the data dir and keys: not what users see daily
        launched = spawn_ui("demo", home=home, cwd=project)
        try:
            elapsed = _health(launched)
        finally:
            stop_tree(launched.proc)
        if i:
            times.append(elapsed)
    return times


def _page_time(browser: Any, launched: Launched) -> dict[str, float]:
    """Seconds from spawn to: sign-in link printed, a starter shown, Send enabled after clicking it.

    The browser is already open (a person's is); the last figure is the page's own clock."""
    link = time.perf_counter() - launched.spawned
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(launched.link, wait_until="commit")
        starter = page.locator("#starters button").first
        starter.click(timeout=WAIT_MS)  # a person clicks the first starter the moment it shows
        shown = time.time() - launched.spawned_epoch
        send = page.get_by_role("button", name="Send", exact=True).element_handle(timeout=WAIT_MS)
        first = starter.element_handle(timeout=WAIT_MS)
        box = page.get_by_role("textbox", name=re.compile(r"^Message")).element_handle(timeout=WAIT_MS)
        # A state snapshot that resets the draft would empty the box: click the starter again then.
        try:
            ready = page.wait_for_function(
                """([box, send, first]) => {
                    if (!box.value) first.click();
                    return !send.disabled && performance.timeOrigin + performance.now();
                }""", arg=[box, send, first], polling="raf", timeout=WAIT_MS)
        except Exception as exc:
            raise RuntimeError(f"Send never enabled: {_screenshot(page)}") from exc
        return {"link": link, "starter": shown, "send": ready.json_value() / 1000 - launched.spawned_epoch}
    finally:
        context.close()


def ui_start_page(browser: Any, tmp: Path, reps: int) -> list[float]:
    """13: a newcomer's first minute. Every repetition is a first run, with its own fresh data dir
    (keys, stores and the tutorial copy made from nothing): spawn of `clauz3 ui demo --tutorial` →
    signed in → a starter clicked → Send enabled. The first repetition (also fresh) warms the OS's
    file cache and compiled modules and is not counted."""
    project = _project(tmp)
    times: list[float] = []
    parts: dict[str, list[float]] = defaultdict(list)
    for i in range(reps + 1):
        launched = spawn_ui("demo", "--tutorial", home=tmp / f"home-page-{i}", cwd=project)
        try:
            stamps = _page_time(browser, launched)
        finally:
            stop_tree(launched.proc)
        if i:
            times.append(stamps["send"])
            for name, value in stamps.items():
                parts[name].append(value)
    if parts:
        import statistics

        said = ", ".join(f"{name} {statistics.median(values):.2f} s" for name, values in parts.items())
        print(f"  bench_ui: ui_start_page medians from spawn: {said}", file=sys.stderr)
    return times


class Flow:
    """One signed-in page on a running `clauz3 ui demo --tutorial`."""

    def __init__(self, page: Any) -> None:
        from playwright.sync_api import expect

        self.page = page
        self.expect = expect
        self.box = page.get_by_role("textbox", name="Message Demo")
        self.send = page.get_by_role("button", name="Send", exact=True)
        self.busy = 0.0
        self.step = "sign-in"

    def idle(self) -> None:
        self.expect(self.page.get_by_role("status", name="Activity")).to_be_hidden(timeout=WAIT_MS)

    def new_conversation(self) -> None:
        self.idle()
        # the sidebar's button comes first; a history row may carry the same name as its title
        self.page.get_by_role("button", name="New conversation", exact=True).first.click()
        self.expect(self.page.locator(".bubble")).to_have_count(0, timeout=WAIT_MS)

    def timed_click(self, target: Any, condition: str, arg: Any = None) -> float:
        """Arm the condition, click, and return the page-clock time from click to condition.

        ``self.busy`` is then the page's main-thread time in long tasks (> 50 ms) meanwhile."""
        self.page.evaluate("([name, arg]) => window.__bench.watch(name, arg)", [condition, arg])
        target.click()
        self.page.wait_for_function("() => window.__bench.done !== null", polling=50, timeout=WAIT_MS)
        t0, done, busy = self.page.evaluate(
            "() => [window.__bench.t0, window.__bench.done, window.__bench.busyAtDone]")
        if t0 is None:
            raise RuntimeError("the click was not seen by the page")
        self.busy = (busy or 0) / 1000
        return (done - t0) / 1000

    def prompt(self, text: str, condition: str, arg: Any = None) -> float:
        self.idle()
        self.box.fill(text)
        self.expect(self.send).to_be_enabled(timeout=WAIT_MS)
        if condition == "agentText":
            arg = self.page.evaluate("() => window.__bench.count()")
        return self.timed_click(self.send, condition, arg)

    def restore(self, n: int) -> float:
        self.idle()
        self.page.evaluate("(n) => sessionStorage.setItem('__bench_restore', String(n))", n)
        start = time.time()
        self.page.reload(wait_until="commit")
        done = self.page.wait_for_function("() => window.__bench && window.__bench.restored", polling=50,
                                           timeout=WAIT_MS).json_value()
        self.page.evaluate("() => sessionStorage.removeItem('__bench_restore')")
        return done / 1000 - start


def _tutorial(flow: Flow, rss: RssSampler, reps: int, out: dict[str, list[float]]) -> None:
    """card_ready on a program the service has not seen (a new message text each pass, so no proof
    cache can answer), then card_ready_repeat on the identical prompt again in the same conversation (13: the
    same program re-submitted skips the solver)."""
    for i in range(reps + 1):  # the first pass warms the prover, caches and the page: not counted
        flow.step = f"tutorial flow, pass {i}"
        flow.new_conversation()
        rss.reset()
        text = f'email bob@example.com "Hi from clauz3, pass {i}"'
        card = flow.prompt(text, "approveReady")
        done = flow.timed_click(flow.page.get_by_role("button", name="Approve", exact=True), "runCompleted")
        flow.idle()
        flow.step = f"tutorial flow, repeat {i}"
        repeat = flow.prompt(text, "approveReady")
        flow.page.get_by_role("button", name="Reject", exact=True).click()
        flow.idle()
        if i:
            out["card_ready"].append(card)
            out["card_ready_repeat"].append(repeat)
            out["approve_done"].append(done)
            out["service_rss"].append(rss.service_peak)
            out["tree_rss"].append(rss.tree_peak)
            if i == 1:  # what the tree holds at its peak, so a missed tree_rss says where the memory is
                print("  tree_rss at its peak: " + "; ".join(f"{mib:.0f} MiB {name[:70]}" for mib, name in rss.peak_parts[:8]))
            out["tree_pss"].append(rss.tree_pss_peak)


def _first_chunk(flow: Flow, reps: int, out: dict[str, list[float]]) -> None:
    flow.new_conversation()
    for i in range(max(reps, 10) + 1):
        flow.step = f"first chunk, pass {i}"
        chunk = flow.prompt("count to 3", "agentText")
        if i:
            out["first_chunk"].append(chunk)


def _streams(flow: Flow, reps: int, out: dict[str, list[float]]) -> None:
    for i in range(reps + 1):
        for n, label in ((1000, "1k"), (10000, "10k")):
            flow.step = f"count to {n}, pass {i}"
            flow.new_conversation()  # one per reply: five 10k replies would pass the 8 MB transcript limit
            streamed = flow.prompt(f"count to {n}", "counted", n)
            busy = flow.busy
            restored = flow.restore(n)
            if i:
                out[f"stream_{label}"].append(streamed)
                out[f"stream_{label}_page_busy"].append(busy)
                out[f"restore_{label}"].append(restored)


def tutorial_flow(browser: Any, tmp: Path, reps: int) -> dict[str, list[float]]:
    """Every in-page figure on one `clauz3 ui demo --tutorial`; a failing phase does not hide the others."""
    out: dict[str, list[float]] = defaultdict(list)
    launched = spawn_ui("demo", "--tutorial", home=tmp / "home-flow", cwd=_project(tmp))
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(PROBE)
    page = context.new_page()
    try:
        page.goto(launched.link)
        flow = Flow(page)
        flow.expect(flow.box).to_be_visible(timeout=WAIT_MS)
        with RssSampler(launched.proc.pid) as rss:
            _guarded(flow, lambda: _tutorial(flow, rss, reps, out))
        _guarded(flow, lambda: _first_chunk(flow, reps, out))
        _guarded(flow, lambda: _streams(flow, reps, out))
    except Exception as exc:
        print(f"  bench_ui: sign-in: {type(exc).__name__}: {str(exc)[:300]} ({_screenshot(page)})", file=sys.stderr)
    finally:
        context.close()
        stop_tree(launched.proc)
    return out


def _guarded(flow: Flow, phase: Any) -> None:
    """Run one phase; on failure say where, keep a screenshot, and leave the page usable."""
    try:
        phase()
    except Exception as exc:
        print(f"  bench_ui: {flow.step}: {type(exc).__name__}: {str(exc)[:300]} ({_screenshot(flow.page)})",
              file=sys.stderr)
        with contextlib.suppress(Exception):
            flow.page.reload()


def _phase(name: str, fn: Any, *args: Any) -> list[float]:
    try:
        return list(fn(*args))
    except Exception as exc:
        print(f"  bench_ui: {name} failed: {type(exc).__name__}: {str(exc)[:300]}", file=sys.stderr)
        return []


def collect(reps: int) -> list[Sample]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"chromium is not installed at {CHROMIUM}")
    tmp = Path(tempfile.mkdtemp(prefix="clauz3-bench-ui-"))
    try:
        port = _phase("ui_start_port", ui_start_port, tmp, reps)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                page = _phase("ui_start_page", ui_start_page, browser, tmp, reps)
                flow = tutorial_flow(browser, tmp, reps)
            finally:
                browser.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    spec: list[tuple[str, list[float], str, float | None]] = [
        ("ui_start_port", port, "s", 0.5),
        ("ui_start_page", page, "s", 1.5),
        ("first_chunk", flow.get("first_chunk", []), "s", 0.025),
        ("card_ready", flow.get("card_ready", []), "s", 1.0),
        ("card_ready_repeat", flow.get("card_ready_repeat", []), "s", 0.3),
        ("approve_done", flow.get("approve_done", []), "s", 0.3),
        ("stream_1k", flow.get("stream_1k", []), "s", None),
        ("stream_10k", flow.get("stream_10k", []), "s", 3.0),
        # no target: of that, the page's main-thread time in long tasks (rendering, not the service)
        ("stream_1k_page_busy", flow.get("stream_1k_page_busy", []), "s", None),
        ("stream_10k_page_busy", flow.get("stream_10k_page_busy", []), "s", None),
        ("restore_1k", flow.get("restore_1k", []), "s", None),
        ("restore_10k", flow.get("restore_10k", []), "s", 0.5),
        ("service_rss", flow.get("service_rss", []), "MiB", 90.0),
        ("tree_rss", flow.get("tree_rss", []), "MiB", 400.0),
        ("tree_pss", flow.get("tree_pss", []), "MiB", None),  # context for tree_rss
    ]
    samples = [Sample(name, values, unit=unit, target=target) for name, values, unit, target in spec if values]
    for big, small in (("stream_10k", "stream_1k"), ("restore_10k", "restore_1k")):
        if flow.get(big) and flow.get(small):
            samples.append(ratio(f"{big}/{small}", flow[big], flow[small]))
    return samples


def ratio(name: str, big: list[float], small: list[float]) -> Sample:
    """06 §3 linearity: the ratio of medians, printed as its own row (target ≤ 12)."""
    import statistics

    return Sample(name, [statistics.median(big) / statistics.median(small)], unit="x", target=12.0, kind="ratio")
