"""The standalone approver pages (03 CARD-5, CARD-6): server-rendered, escaped, no inline scripts.

Buttons are wired by ``/ui/assets/approval-page.js`` through ``data-*`` attributes; the pages carry no
data scripts, tokens or receipts. A navigation with the cookie alone gets :func:`shell_page` (issue 19).
"""

from __future__ import annotations

from html import escape
from typing import Any

from clauz3.approvals.cardview import automatic_view, summary_view
from clauz3.approvals.decisions import LABELS, MAX_FEEDBACK
from clauz3.approvals.reach import UNLISTED, covers_sentence, proof_effects
from clauz3.vocabulary.describe import reveal

_CSS = """body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#222}
a{color:#1a4fa0}.badge{display:inline-block;padding:0 .4rem;border-radius:.3rem;background:#eee}
.red{color:#a01010}.amber{color:#8a5a00}.neutral{color:#444}.card{border:1px solid #ccc;border-radius:.4rem;
padding:.8rem;margin:.6rem 0}button{margin:.2rem}textarea{width:100%;min-height:4rem}pre{overflow:auto;
background:#f6f6f6;padding:.5rem}.mock{background:#efe3ff;color:#4b1a8a}
.summary-line{font-size:1.05rem;font-weight:600}.values{max-height:12rem;overflow:auto;background:#f6f6f6}
"""

# Issue 19: the cookie alone shows no data. A navigation gets the shell (``shell_page``); this script
# fetches the same address with the page secret the sign-in left in sessionStorage and shows that page.
_JS = """const secret = () => { try { return sessionStorage.getItem("clauz3-page") || ""; } catch (e) { return ""; } };
const headers = (extra) => { const out = {...extra}; if (secret()) out["X-Clauz3-Page"] = secret(); return out; };
const post = async (url, body) => {
  const response = await fetch(url, {method: "POST", headers: headers({"Content-Type": "application/json"}),
    body: JSON.stringify(body), credentials: "same-origin"});
  const status = document.getElementById("status");
  if (status) status.textContent = response.ok ? "Saved." : "Refused (" + response.status + ").";
  if (response.ok) window.location.reload();
};
const wire = () => {
document.querySelectorAll("button[data-decision]").forEach((button) => {
  button.addEventListener("click", () => {
    const feedback = document.getElementById("feedback");
    const body = {decision: button.dataset.decision};
    if (feedback && feedback.value) body.feedback = feedback.value;
    if (button.dataset.remember === "true") body.remember = true;
    post("/api/requests/" + encodeURIComponent(button.dataset.request) + "/decision", body);
  });
});
document.querySelectorAll("button[data-remember-history]").forEach((button) => {
  button.addEventListener("click", () => post("/api/profile/remember", {history_id: button.dataset.rememberHistory}));
});
document.querySelectorAll("button[data-disable-rule]").forEach((button) => {
  button.addEventListener("click", () => post("/api/profile/disable", {rule_id: button.dataset.disableRule}));
});
document.querySelectorAll("button[data-logout]").forEach((button) => {
  button.addEventListener("click", async () => {
    await fetch("/ui/logout", {method: "POST", headers: headers({}), credentials: "same-origin"});
    try { sessionStorage.removeItem("clauz3-page"); } catch (e) { /* nothing kept */ }
    window.location.href = "/ui/login";
  });
});
};
const show = async () => {
  const said = document.getElementById("said");
  if (!secret()) { said.textContent = "Approver sign-in required. Open the private approver link printed by the approval service."; return; }
  const response = await fetch(location.pathname + location.search, {headers: headers({}), credentials: "same-origin"});
  if (!response.ok) { said.textContent = response.status === 401 ? "Approver sign-in required. Open the private approver link printed by the approval service." : "This page could not be loaded (" + response.status + ")."; return; }
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  page.querySelectorAll("script").forEach((node) => node.remove());
  document.title = page.title;
  document.body.replaceChildren(...Array.from(page.body.childNodes, (node) => document.importNode(node, true)));
  document.body.removeAttribute("data-shell");
  wire();
};
if (document.body.hasAttribute("data-shell")) show(); else wire();
"""

ASSETS: dict[str, tuple[bytes, str]] = {
    "approval-page.css": (_CSS.encode(), "text/css; charset=utf-8"),
    "approval-page.js": (_JS.encode(), "text/javascript; charset=utf-8"),
}


def asset(name: str) -> tuple[bytes, str] | None:
    return ASSETS.get(name)


def _page(title: str, body: str) -> str:
    return (
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
        f"<title>{escape(title)}</title><link rel=\"stylesheet\" href=\"/ui/assets/approval-page.css\"></head>"
        f"<body>{body}<script src=\"/ui/assets/approval-page.js\"></script></body></html>"
    )


def shell_page() -> str:
    """What a navigation with the cookie alone gets: no data; the script loads the page with the secret."""
    return _page("Approvals", "<p id=\"said\">Loading…</p>").replace("<body>", "<body data-shell=\"1\">", 1)


def sign_in_page() -> str:
    """Self-contained: no asset needs a session to load it."""
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Approver sign-in required"
            "</title></head><body><h1>Approver sign-in required</h1><p>Open the private approver link printed "
            "by the approval service.</p></body></html>")


def _e(value: Any) -> str:
    """HTML-escaped, with hiding characters shown as [U+XXXX] (issue 11 §6): nothing on a page can hide."""
    return escape(reveal("" if value is None else str(value))[0])


def _headline(r: dict[str, Any]) -> str:
    """A request as a person recognises it: its first plan sentence, never the agent-chosen id alone."""
    s = (r.get("presentation") or {}).get("summary") or {}
    said = (s.get("plan") or {}).get("sentences") or []
    return said[0] if said else f"Run {r.get('target') or 'main'}"


def index_page(records: list[dict[str, Any]]) -> str:
    rows = "".join(
        f"<li><a href=\"/ui/requests/{_e(r['request_id'])}\">{_e(_headline(r))}</a> "
        f"<span class=\"badge\">{_e(r['state'])}</span></li>" for r in records)
    body = (f"<h1>Approval requests</h1><p><a href=\"/ui/profile\">Remembered decisions</a> "
            f"<button type=\"button\" data-logout=\"1\">Sign out</button></p>"
            f"<ul>{rows or '<li>No requests yet.</li>'}</ul>")
    return _page("Approval requests", body)


def _contract(c: dict[str, Any]) -> str:
    lib = c.get("library") or {}
    badge = ""
    if lib.get("mock") in ("mock", "mixed"):
        badge = f" <span class=\"badge mock\">🧪 {'Mock' if lib['mock'] == 'mock' else 'Mixed'}</span>"
    elif lib.get("mock") == "unmarked":
        badge = " <span class=\"badge\">Undeclared</span>"
    identity = c.get("identity")
    resolved = f"Resolved contract: {_e(identity['symbol'])}" if identity else "Resolved identity not recorded."
    details = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in (identity or {}).items())
    description = c.get("description") or "No description provided by the library."
    return (f"<li><strong>{_e(lib.get('title', ''))}</strong>{badge}<br><code>{_e(c.get('call') or c['expression'])}"
            f"</code><br>{_e(description)}<br>{resolved}<details><summary>Source and documentation</summary>"
            f"<dl>{details}</dl><pre>{_e(c.get('documentation'))}</pre></details></li>")


def _summary_html(s: dict[str, Any], automatic: dict[str, Any] | None = None) -> str:
    """The card's summary and warnings as :func:`cardview.summary_view` orders them (the chat card prints
    the very same items), then why no automatic decision was made."""
    given = s.get("view")
    view: list[dict[str, Any]] = given if isinstance(given, list) else summary_view(s)
    out = ""
    listing: str | None = None  # the open <ul> of a heading's items
    for item in [*view, *automatic_view(automatic)]:
        kind = item.get("kind")
        if kind in ("guarantee", "empty", "library"):
            if listing is None:
                listing = ""
            badge = _mock_badge(item.get("mock")) if kind == "library" else ""
            warn = "".join(f"<div class=\"amber item-warning\">{escape(str(w))}</div>" for w in item.get("warnings") or [])
            if kind == "empty":
                listing += f"<li data-kind=\"empty\"><span class=\"item-text\">{_e(item.get('text'))}</span></li>"
                continue
            listing += (f"<li data-kind=\"{_e(kind)}\">{badge}<span class=\"item-text\">{_e(item.get('text'))}</span>"
                        f"{''.join(_block(b) for b in item.get('blocks') or [])}{warn}</li>")
            continue
        if listing is not None:
            out += f"<ul>{listing}</ul>"
            listing = None
        if kind == "plan":
            text = item.get("text")
            out += (f"<p class=\"summary-line\" data-kind=\"plan\">{_e(text)}</p>" if text else "") + \
                "".join(_block(b) for b in item.get("blocks") or [])
        elif kind == "warning":
            # The authority's own sentence around values it already revealed: escaped, not revealed again.
            out += f"<p class=\"amber\" data-kind=\"warning\">{escape(str(item.get('text')))}</p>"
        elif kind == "heading":
            out += f"<h2 data-kind=\"heading\">{_e(item.get('text'))}</h2>"
        elif kind == "note":
            out += f"<p class=\"auto-note\" data-kind=\"note\">{_e(item.get('text'))}</p>"
    if listing is not None:
        out += f"<ul>{listing}</ul>"
    return out


def _mock_badge(kind: Any) -> str:
    if kind in ("mock", "mixed"):
        return f"<span class=\"badge mock\">🧪 {'Mock' if kind == 'mock' else 'Mixed'}</span> "
    if kind == "unmarked":
        return "<span class=\"badge\">Undeclared</span> "
    return ""


def _block(b: dict[str, Any]) -> str:
    """A long list or text, whole and scrollable, under the count the sentence gives."""
    if isinstance(b.get("items"), list):
        rows = "".join(f"<li>{_e(x)}</li>" for x in b["items"])
        return f"<div><div>{_e(b.get('label'))}</div><ol class=\"values\">{rows}</ol></div>"
    return f"<div><div>{_e(b.get('label'))}</div><pre>{_e(b.get('text'))}</pre></div>"


def _numbered(source: str) -> str:
    lines = source.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return "".join(f"{n:>3}  {_e(text)}\n" for n, text in enumerate(lines, 1))


def _provenance_html(prov: Any) -> str:
    """Issue 20: the same words as the chat card: warnings about values from read data, quiet notes."""
    if not isinstance(prov, dict):
        return ""
    warnings = [w for w in prov.get("warnings") or [] if isinstance(w, str)]
    notes = [n for n in prov.get("notes") or [] if isinstance(n, str)]
    out = ""
    if warnings:
        out += ("<div class=\"provenance-warning\" role=\"alert\"><strong>Check where this came from: </strong>"
                + "".join(f"<p>{_e(w)}</p>" for w in warnings)
                + "<p>No remembered approval or policy decides this request; you do.</p></div>")
    if notes:
        out += "<div class=\"provenance-notes\">" + "".join(f"<p>{_e(n)}</p>" for n in notes) + "</div>"
    return out


def request_page(r: dict[str, Any]) -> str:
    p = r.get("presentation") or {}
    s = p.get("summary") or {}
    contracts = "".join(_contract(c) for c in p.get("contracts", []))
    coverage = "".join(f"<li class=\"{_e(c['colour'])}\">{_e(c['domain'])}: {_e(c['label'])}</li>"
                       for c in p.get("coverage", [])) or f"<li>{_e(p.get('coverage_note'))}</li>"
    notices = "".join(f"<p>{_e(p[k])}</p>" for k in ("mock_notice", "undeclared_notice") if p.get(k))
    ex = p.get("execution") or {}
    sandbox = "Sandbox: unavailable" if ex.get("sandbox") == "unavailable" else f"Sandbox: {_e(ex.get('sandbox'))}"
    auto = r.get("automatic") or {}
    notes = ""
    if r.get("rule"):
        notes += f"<p>Matched rule: {_e(r['rule'].get('name'))} ({_e(r['rule'].get('reason'))})</p>"
    if auto.get("suppressed") and auto["suppressed"].get("reason") == "provenance":
        notes += "<p>A remembered or policy approval matched, but it does not decide a program with values " \
                 "from data the agent read.</p>"
    elif auto.get("suppressed"):
        notes += "<p>Automatic approval paused for this conversation.</p>"
    for u in auto.get("undecidable", []):
        notes += f"<p>Undecidable policy rule: {_e(u.get('rule'))}: {_e(u.get('why'))}</p>"
    proofs = "".join(f"<li>{_e(x['name'])}: {_e(x['conclusion'])} {_e(x['description'])}</li>"
                     for x in p.get("proofs", []))
    rid = _e(r["request_id"])
    if r["state"] == "pending":
        buttons = "".join(
            f"<button type=\"button\" data-request=\"{rid}\" data-decision=\"{d}\">{label}</button>"
            for d, label in (("approved_once", "Approve"), ("rejected_contract", "Reject contract"),
                             ("request_more", "Need more info"), ("rejected", "Reject")))
        profile = r.get("profile") or {}
        if profile.get("eligible"):
            covers = f"<p class=\"covers\">{_e(s.get('covers'))}</p>" if s.get("covers") else ""
            buttons += (f"<p>{_e(s.get('scope'))}</p>{covers}"
                        f"<button type=\"button\" data-request=\"{rid}\" data-decision=\"approved_remember\">"
                        f"Approve and remember</button><p>{_e(s.get('reject_scope'))}</p>"
                        f"<button type=\"button\" data-request=\"{rid}\" "
                        f"data-decision=\"rejected\" data-remember=\"true\">Reject and remember</button>")
        else:
            buttons += f"<p>{_e(profile.get('reason'))}</p>"
        actions = (f"<p>Expires at {_e(r['expires_at'])}</p><label for=\"feedback\">Feedback for the agent "
                   f"(optional)</label><textarea id=\"feedback\" maxlength=\"{MAX_FEEDBACK}\"></textarea>{buttons}"
                   "<p id=\"status\"></p>")
    else:
        label = LABELS.get(r.get("decision") or "", r["state"])
        actions = (f"<p>{_e(label)}</p><p>{_e(r.get('feedback'))}</p>"
                   + (f"<p>Receipt issued at {_e(r['decided_at'])}</p>" if r.get("receipt_issued") else ""))
    shown_id = _e(s.get("agent_request_id") or r["request_id"])
    raw_source = s.get("source")
    source = raw_source if isinstance(raw_source, str) else r["program"]
    body = (f"<p><a href=\"/ui\">All requests</a></p><div class=\"card\"><h1>Run {_e(r['target'])} "
            f"<span class=\"badge\">{_e(r['state'])}</span></h1>{_summary_html(s, r.get('automatic'))}"
            f"{_provenance_html(p.get('provenance'))}{notes}{actions}"
            f"<details><summary>Details</summary><h2>Contracts</h2><ul>{contracts}</ul><ul>{coverage}</ul>"
            f"{notices}<p>Time limit: {_e(ex.get('timeout_seconds'))} s. {sandbox}</p>"
            f"<p>Request id (chosen by the agent): {shown_id}</p><h2>Program source</h2>"
            f"<pre>{_numbered(source)}</pre><h2>Proof results</h2><ul>{proofs}</ul></details></div>")
    return _page("Approval request", body)


def _covers(record: dict[str, Any] | None) -> str:
    """Which effects a remembered approval covers, in words (issue 19)."""
    presentation = (record or {}).get("presentation")
    effects = proof_effects(presentation)
    return covers_sentence(effects) if effects is not None else UNLISTED


def profile_page(snapshot: dict[str, Any] | None) -> str:
    if snapshot is None:
        return _page("Remembered decisions", "<h1>Remembered decisions</h1><p>Profiles are off.</p>")
    kept = {h["id"]: h.get("record") or {} for h in snapshot["history"]}
    rules = "".join(
        f"<li>{_e(x['effect'])} {_e(x['signature'][:12])} {'enabled' if x['enabled'] else 'disabled'}"
        + (f" <span class=\"covers\">{_e(_covers(kept.get(x['history_id'])))}</span>"
           if x["effect"] == "allow" else "")
        + (f" <button type=\"button\" data-disable-rule=\"{_e(x['id'])}\">Disable</button>" if x["enabled"] else "")
        + "</li>" for x in snapshot["rules"])
    history = "".join(
        f"<li>{_e(h['record'].get('request_id'))} {_e(LABELS.get(h['decision'] or '', h['decision']))}"
        + (f" <button type=\"button\" data-remember-history=\"{_e(h['id'])}\">Remember this decision</button>"
           if h["signature"] and h["decided_by"] == "human" else "") + "</li>" for h in snapshot["history"])
    body = (f"<p><a href=\"/ui\">All requests</a></p><h1>Remembered decisions</h1><h2>Rules</h2>"
            f"<ul>{rules or '<li>None.</li>'}</ul><h2>History</h2><ul>{history or '<li>None.</li>'}</ul>"
            "<p id=\"status\"></p>")
    return _page("Remembered decisions", body)
