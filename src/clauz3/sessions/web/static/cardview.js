// The approval card's content (issue 12): summary first, guarantees as sentences, one line per
// library, then ONE collapsed Details with everything technical. Every value arrives already
// escaped by the authority (hiding characters shown as [U+XXXX], issue 11 §6) and reaches the page
// through textContent only (02 UI-3).

import { disclosure, el, mockBadge } from "./dom.js";

function line(label, value) {
  return el("div", { class: "kv" }, el("span", { class: "k", text: `${label}: ` }), el("span", { class: "v", text: value }));
}

// Long lists and texts the sentences count ("412 addresses (listed below)"): shown whole, scrollable.
export function blocks(list) {
  return (list || []).map((b) => {
    if (Array.isArray(b.items)) {
      const label = b.label || `All ${b.count} ${String(b.name || "values").replace(/_/g, " ")}`;
      return el("div", { class: "value-block" }, el("div", { class: "value-label", text: label }),
        el("ol", { class: "value-list", tabindex: "0", "aria-label": label }, ...b.items.map((x) => el("li", { text: x }))));
    }
    return el("div", { class: "value-block" }, el("div", { class: "value-label", text: b.label }),
      el("pre", { class: "value-text", tabindex: "0", "aria-label": b.label, text: b.text || "" }));
  });
}

export function warningsNote(warnings) {
  if (!warnings || !warnings.length) return null;
  return el("div", { class: "notice hiding-warning", role: "note" },
    el("strong", { text: "Look closely: " }),
    `a value on this card ${warnings.join("; it ")}. Such characters are shown as [U+…] codes.`);
}

// The plan's first sentence (what the proof says the program will do), or null.
export function planSentence(summary) {
  const plan = ((summary || {}).plan || {}).sentences;
  const first = Array.isArray(plan) && plan.length ? plan[0] : null;
  return (typeof first === "string" ? first : first && typeof first === "object" ? first.text : null) || null;
}

export function sentences(list, cls = "summary-line") {
  return (list || []).map((text) => el("p", { class: cls, text }));
}

export function guaranteeList(s) {
  const items = (s.guarantees || []).map((g) => el("li", {}, el("span", { text: g.text }), ...blocks(g.lists)));
  if (!items.length) return el("p", { class: "muted", text: "The program states no guarantees." });
  return el("ul", { class: "guarantees" }, ...items);
}

export function libraryLines(s) {
  const rows = (s.libraries || []).map((lib) => {
    const badge = mockBadge(lib.mock);
    return el("li", { class: lib.guaranteed ? "" : "unguaranteed" }, ...(badge ? [badge, " "] : []), el("span", { text: lib.line }));
  });
  return el("ul", { class: "libraries", "aria-label": "Libraries this program uses" }, ...rows);
}

// Numbered source lines; `mark` highlights the line a failed proof points at.
export function numberedSource(text, mark) {
  const lines = String(text || "").split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  return sourceRows(lines.map((t, i) => ({ n: i + 1, text: t, mark: i + 1 === mark })));
}

export function sourceRows(rows) {
  return el("pre", { class: "program numbered", tabindex: "0" },
    ...rows.map((r) => el("span", { class: r.mark ? "src-line marked" : "src-line", "data-line": String(r.n) },
      el("span", { class: "ln", "aria-hidden": "true", text: String(r.n).padStart(3, " ") }), `${r.text}\n`)));
}

function contractRows(p, open) {
  return (p.contracts || []).map((c, i) => {
    const lib = c.library || null;
    const id = c.identity;
    const rows = [
      el("div", { class: "lib-title", text: lib ? lib.title || lib.domain : "Unknown library" }),
      el("code", { class: "call", text: c.call || c.expression || "" }),
      el("div", { class: "muted", text: id && id.symbol ? `Resolved contract: ${id.symbol}` : "Resolved identity not recorded." }),
    ];
    const source = [];
    if (id) {
      source.push(line("Source file", `${id.source_file || "?"}${id.source_line ? `:${id.source_line}` : ""}`));
      source.push(line("Source SHA-256", id.source_sha256 || "?"));
      source.push(line("Layer SHA-256", id.layer_sha256 || "?"));
    }
    source.push(line("As written", c.expression || ""));
    if (c.documentation) source.push(el("pre", { class: "doc", text: c.documentation }));
    rows.push(disclosure("Source and documentation", open, `src-${i}`, ...source));
    return el("div", { class: "limit" }, ...rows);
  });
}

// Everything technical, in one collapsed disclosure (the card's only one).
export function details(r, p, run, open) {
  const s = p.summary || {};
  const e = p.execution || {};
  const parts = [];
  parts.push(el("h4", { text: "Contracts" }), ...contractRows(p, open));
  const coverage = Array.isArray(p.coverage) ? p.coverage : [];
  parts.push(el("h4", { text: "Coverage" }), ...(coverage.length
    ? coverage.map((c) => el("div", { class: `coverage coverage-${c.colour || "neutral"}`, text: `${c.domain}: ${c.label || c.status}` }))
    : [el("div", { class: "muted", text: "No library policy asks for particular guarantees." })]));
  const limits = [];
  if (e.timeout_seconds) limits.push(line("Time limit", `${e.timeout_seconds} s`));
  limits.push(el("div", { class: e.sandbox === "unavailable" ? "warn" : "", text: `Sandbox: ${e.sandbox || "unknown"}${e.sandbox_detail ? ` (${e.sandbox_detail})` : ""}` }));
  if (e.network) limits.push(el("div", { class: e.network.includes("cannot") ? "" : "warn", text: e.network }));
  for (const gap of Array.isArray(e.gaps) ? e.gaps : []) limits.push(el("div", { class: "warn", text: String(gap) }));
  if (e.automatic) limits.push(el("div", { class: "warn", text: String(e.automatic) }));
  if ((e.extra_read || []).length) limits.push(line("Extra read paths", e.extra_read.join(", ")));
  if ((e.extra_write || []).length) limits.push(line("Extra write paths", e.extra_write.join(", ")));
  limits.push(line("Target", e.target || r.target || "main"));
  parts.push(el("h4", { text: "Execution" }), ...limits);
  parts.push(el("h4", { text: "Program source" }));
  if (p.program) parts.push(el("div", { class: "muted", text: `${p.program.source_name || ""} · ${p.program.lines ?? "?"} lines · SHA-256 ${p.program.sha256 || ""}` }));
  parts.push(numberedSource(typeof s.source === "string" ? s.source : "", run && run.summary ? run.summary.line : null));
  const proofs = Array.isArray(p.proofs) ? p.proofs : [];
  parts.push(el("h4", { text: "Proof results" }), proofs.length
    ? el("ul", {}, ...proofs.map((x) => el("li", { text: `${x.name}: ${x.conclusion}${x.description && x.description !== x.name ? ` — ${x.description}` : ""}` })))
    : el("div", { class: "muted", text: "No proof results recorded." }));
  parts.push(line("Request id (chosen by the agent)", s.agent_request_id || r.request_id));
  return parts;
}

// The card's summary and warnings exactly as the authority ordered them (presentation.summary.view,
// issue 19): the standalone approval page prints the same items (approvals/cardview.py), so the two
// can never show different warnings. Plan items go into the plan box, list items under their heading.
export function summaryView(view, finished) {
  const nodes = [];
  const plan = el("div", { class: finished ? "card-plan done" : "card-plan" });
  let list = null;
  for (const item of view || []) {
    const kind = item && item.kind;
    if (kind === "empty") {
      list = null;
      nodes.push(el("p", { class: "muted", "data-kind": "empty" }, el("span", { class: "item-text", text: item.text })));
      continue;
    }
    if (kind === "guarantee" || kind === "library") {
      if (!list) {
        list = kind === "library" ? el("ul", { class: "libraries", "aria-label": "Libraries this program uses" }) : el("ul", { class: "guarantees" });
        nodes.push(list);
      }
      const badge = kind === "library" ? mockBadge(item.mock) : null;
      const row = el("li", { class: kind === "library" && !item.guaranteed ? "unguaranteed" : "", "data-kind": kind },
        ...(badge ? [badge, " "] : []), el("span", { class: "item-text", text: item.text }), ...blocks(item.blocks),
        ...(item.warnings || []).map((w) => el("div", { class: "notice item-warning", role: "note", text: w })));
      list.append(row);
      continue;
    }
    list = null;
    if (kind === "plan") {
      if (!nodes.includes(plan)) nodes.push(plan);
      if (item.text) plan.append(el("p", { class: "summary-line", "data-kind": "plan", text: item.text }));
      plan.append(...blocks(item.blocks));
    } else if (kind === "warning") {
      nodes.push(el("div", { class: "notice hiding-warning", role: "note", "data-kind": "warning", text: item.text }));
    } else if (kind === "heading") {
      nodes.push(el("h4", { "data-kind": "heading", text: item.text }));
    } else if (kind === "note") {
      nodes.push(el("div", { class: "auto-note", "data-kind": "note", text: item.text }));
    }
  }
  return nodes;
}
