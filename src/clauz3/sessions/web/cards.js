// Run cards (02 UI-17), approval cards (UI-18..20, 03 CARD-5) and Undo (UI-21, 05 FS-7).
// An approval card joins a run ONLY by exact equality of request_id. Cards are long-lived DOM:
// updates rewrite their info sections but keep open disclosures and the typed feedback.

import { api } from "./api.js";
import { button, disclosure, el, formatTime, mockBadge, UNDECLARED_TEXT } from "./dom.js";
import { modal } from "./dialogs.js";
import { emit, FINAL, store } from "./state.js";

export const PHASES = {
  checking: "Checking program", proving: "Proving guarantees", submitting_approval: "Requesting approval",
  awaiting_approval: "Your approval needed", executing: "Executing approved action", completed: "Completed",
  refused: "Did not execute", failed: "Failed", cancelled: "Stopped", uncertain: "Outcome unknown",
};
export const DECISION_LABELS = {
  approved_once: "Approved once", approved_remember: "Approved and remembered", auto_approved: "Approved automatically",
  rejected: "Rejected", rejected_contract: "Contract rejected", request_more: "More information requested",
  auto_rejected: "Rejected automatically",
};
const DECISIONS = [
  ["Approve", { decision: "approved_once" }, "primary"],
  ["Reject contract", { decision: "rejected_contract" }],
  ["Need more info", { decision: "request_more" }],
  ["Reject", { decision: "rejected" }, "danger"],
];
const REMEMBER = [
  ["Approve and remember", { decision: "approved_remember" }],
  ["Reject and remember", { decision: "rejected", remember: true }],
];
const OUTCOMES = {
  restored: "Restored", removed: "Removed", changed_since: "Changed since the run — left alone",
  not_undoable: "Can't be undone", failed: "Failed",
};
const OUTPUT_LIMIT = 100 * 1024;

let runs = new Map();      // request_id → RunCard
let outputs = new Map();   // request_id → {stdout, stderr} from the run tool's result
let place = null;          // (turn) → container, supplied by the transcript

export function setPlacer(fn) { place = fn; }

export function reset() {
  runs = new Map();
  outputs = new Map();
}

function card(requestId, turn) {
  let found = runs.get(requestId);
  if (!found) {
    found = new RunCard(requestId);
    runs.set(requestId, found);
    (place ? place(turn) : document.getElementById("messages")).append(found.node);
  }
  return found;
}

export function syncRuns(list) {
  for (const record of list || []) {
    if (!record || typeof record.request_id !== "string") continue;
    card(record.request_id, record.turn).setRun(record);
  }
  refreshAll();
}

export function runOutput(requestId, output) {
  outputs.set(requestId, output);
  const found = runs.get(requestId);
  if (found) found.drawOutput();
}

export function approval(record) {
  if (!record || typeof record.request_id !== "string") return;
  store.approvals.set(record.request_id, record);
  card(record.request_id, undefined).setApproval(record);
  emit("approvals-changed");
}

export function refreshAll() {
  for (const found of runs.values()) found.refreshButtons();
}

function section(title, ...children) {
  return el("div", { class: "card-section" }, el("h4", { text: title }), ...children);
}

function line(label, value) {
  return el("div", { class: "kv" }, el("span", { class: "k", text: `${label}: ` }), el("span", { class: "v", text: value }));
}

function truncatedBlock(label, text) {
  const shown = text.length > OUTPUT_LIMIT ? text.slice(0, OUTPUT_LIMIT) : text;
  const box = el("div", { class: "output" }, el("div", { class: "output-label", text: label }), el("pre", { text: shown }));
  if (shown.length < text.length) box.append(el("div", { class: "muted", text: "Output truncated" }));
  return box;
}

class RunCard {
  constructor(requestId) {
    this.id = requestId;
    this.run = null;
    this.record = null;
    this.open = new Set();
    this.inflight = false;
    this.lastFetch = 0;
    this.phase = null;
    this.head = el("div", { class: "card-head" });
    this.info = el("div", { class: "run-info" });
    this.output = el("div", { class: "run-output" });
    this.diag = el("div");
    this.approvalBox = el("section", { class: "card approval", hidden: true, "data-request-id": requestId, "aria-label": "Approval request" });
    this.undoBox = el("div", { class: "undo" });
    this.node = el("section", { class: "card run", "data-request-id": requestId, "aria-label": "Run program" },
      this.head, this.info, this.output, this.diag, this.approvalBox, this.undoBox);
    // Approval card parts that must survive refreshes.
    this.approvalInfo = el("div", { class: "approval-info" });
    this.feedback = el("textarea", { rows: "2", "aria-label": "Feedback for the agent (optional)", maxlength: "4000", placeholder: "Feedback for the agent (optional)" });
    this.buttons = el("div", { class: "decisions" });
    this.status = el("div", { class: "decision-status", role: "status" });
    this.decided = el("div", { class: "decided" });
    this.feedbackBox = el("label", { class: "feedback" }, el("span", { text: "Feedback for the agent (optional)" }), this.feedback);
    this.approvalBox.append(this.approvalInfo, this.feedbackBox, this.buttons, this.status, this.decided);
    this.undoResult = null;
  }

  setRun(record) {
    const encoded = JSON.stringify(record);
    if (encoded === this.encoded) return;
    this.encoded = encoded;
    const phaseChanged = record.phase !== (this.run && this.run.phase);
    this.run = record;
    this.drawRun();
    if (phaseChanged) this.fetchApproval();
    if (this.record) this.drawApproval();
  }

  // UI-18: fetched when the request id first appears and when the run's phase changes; at most
  // once per second per card and never while the tab is hidden. The host also pushes records.
  fetchApproval() {
    if (document.hidden) return;
    const now = Date.now();
    if (now - this.lastFetch < 1000) {
      if (!this.fetchTimer) this.fetchTimer = setTimeout(() => { this.fetchTimer = null; this.fetchApproval(); }, 1000 - (now - this.lastFetch));
      return;
    }
    if (this.run && ["checking", "proving"].includes(this.run.phase)) return;
    this.lastFetch = now;
    api(`/api/requests/${encodeURIComponent(this.id)}`).then((result) => {
      if (result.ok && result.data && result.data.request_id === this.id) approval(result.data);
    });
  }

  drawRun() {
    const r = this.run;
    const phase = PHASES[r.phase] || r.phase || "";
    this.node.dataset.phase = r.phase || "";
    this.head.replaceChildren(el("h3", { text: "Run program" }), el("span", { class: `phase phase-${r.phase}`, text: phase }));
    const info = [];
    if (r.exit_code !== null && r.exit_code !== undefined) info.push(line("Exit code", String(r.exit_code)));
    if (r.reason) info.push(line("Reason", String(r.reason)));
    if (r.message) info.push(el("div", { class: "run-message", text: String(r.message) }));
    if (r.sandbox) info.push(line("Sandbox", String(r.sandbox)));
    // 03 SNAP-1: whether any effect ran, shown once the run stopped early (issue 13: Stop during execution).
    if (typeof r.executed_partially === "boolean" && ["cancelled", "failed", "uncertain"].includes(r.phase)) {
      info.push(line("Executed partially", r.executed_partially ? "yes — effects that already ran stay" : "no"));
    }
    this.info.replaceChildren(...info);
    this.drawOutput();
    const o = r.obligation;
    const rows = [];
    if (o && typeof o === "object") {
      if (o.line !== undefined && o.line !== null) rows.push(line("Line", String(o.line)));
      if (o.call) rows.push(line("Expression", String(o.call)));
      if (o.predicate) rows.push(line("Predicate", String(o.predicate)));
      if (o.conclusion) rows.push(line("Conclusion", String(o.conclusion)));
      if (o.result) rows.push(line("Result", String(o.result)));
      if (o.description) rows.push(line("Obligation", String(o.description)));
    }
    rows.push(line("Exit code", r.exit_code === null || r.exit_code === undefined ? "none" : String(r.exit_code)));
    rows.push(line("Request", this.id));
    this.diag.replaceChildren(disclosure("Run diagnostics", this.open, "diag", ...rows));
    this.drawUndo();
  }

  drawOutput() {
    const out = outputs.get(this.id) || this.run || {};
    const blocks = [];
    for (const stream of ["stdout", "stderr"]) {
      if (typeof out[stream] === "string" && out[stream]) blocks.push(truncatedBlock(stream === "stdout" ? "Output" : "Errors", out[stream]));
    }
    this.output.replaceChildren(...blocks);
  }

  drawUndo() {
    const r = this.run;
    const undo = r && r.undo;
    const nodes = [];
    if (undo && undo.undone) nodes.push(el("div", { class: "muted", text: "File changes undone." }));
    else if (undo && undo.available && FINAL.has(r.phase)) nodes.push(button("Undo file changes", () => this.undo()));
    if (this.undoResult) nodes.push(this.undoResult);
    this.undoBox.replaceChildren(...nodes);
  }

  async undo() {
    // The worker journals file changes under the run's request id; older records may name a run_id.
    const ids = [...new Set([this.id, this.run && this.run.run_id].filter(Boolean))];
    let base = null;
    let changes = null;
    for (const id of ids) {
      base = `/api/workspace/runs/${encodeURIComponent(id)}`;
      changes = await api(`${base}/file-changes`);
      if (changes.ok || changes.status !== 404) break;
    }
    if (!changes.ok) {
      emit("notice", { level: "error", code: "undo", text: changes.missing ? "Undo isn't available from this workspace service yet." : changes.message });
      return;
    }
    const entries = changes.data.entries || [];
    const list = el("ul", { class: "file-list" }, ...entries.map((e) => el("li", { text: `${e.path} — ${e.op}${e.undoable === false ? " (can't be undone)" : ""}` })));
    const choice = await modal({
      title: "Undo file changes?",
      body: [el("p", { text: "These files changed in this run. Each one is restored only if nobody changed it since." }), list],
      actions: [{ id: "undo", label: "Undo file changes", primary: true }],
    });
    if (choice !== "undo") return;
    const result = await api(`${base}/undo`, { method: "POST", body: {} });
    if (!result.ok) {
      this.undoResult = el("div", { class: "notice error", text: result.message });
    } else {
      this.undoResult = el("ul", { class: "undo-results", "aria-label": "Undo results" },
        ...(result.data.results || []).map((x) => el("li", { text: `${x.path}: ${OUTCOMES[x.outcome] || x.outcome}${x.detail ? ` — ${x.detail}` : ""}` })));
      if (this.run && this.run.undo) this.run = { ...this.run, undo: { ...this.run.undo, undone: true } };
    }
    this.drawUndo();
  }

  setApproval(record) {
    this.record = record;
    this.approvalBox.hidden = false;
    if (!this.run) {
      this.head.replaceChildren(el("h3", { text: "Run program" }), el("span", { class: "phase", text: PHASES.awaiting_approval }));
    }
    this.drawApproval();
  }

  drawApproval() {
    const r = this.record;
    const p = r.presentation || {};
    const nodes = [];
    const target = r.target || (p.execution && p.execution.target) || "main";
    nodes.push(el("div", { class: "card-head" }, el("h3", { text: `Approve running ${target}?` }),
      el("span", { class: `badge state-${r.state}`, text: r.state })));
    nodes.push(line("Request", r.request_id));
    // Action review: the run's phase and failure reason.
    const review = [];
    if (this.run) review.push(line("Phase", PHASES[this.run.phase] || this.run.phase));
    if (this.run && this.run.reason) review.push(line("Reason", String(this.run.reason)));
    if (review.length) nodes.push(section("Action review", ...review));
    if (p.mock_notice) nodes.push(el("div", { class: "notice mock-notice", text: p.mock_notice }));
    if (p.undeclared_notice) nodes.push(el("div", { class: "notice undeclared", text: p.undeclared_notice }));
    nodes.push(this.limits(p));
    nodes.push(this.coverage(p));
    nodes.push(this.execution(p));
    const notes = this.automaticNotes(r);
    if (notes.length) nodes.push(section("Automatic decisions", ...notes));
    if (r.state === "pending" && r.expires_at) {
      this.expiry = el("div", { class: "expiry" });
      nodes.push(this.expiry);
      tickExpiry(this);
    } else this.expiry = null;
    nodes.push(disclosure("Program source", this.open, "program",
      p.program ? el("div", { class: "muted", text: `${p.program.source_name || ""} · ${p.program.lines ?? "?"} lines · SHA-256 ${p.program.sha256 || ""}` }) : null,
      el("pre", { class: "program", text: typeof r.program === "string" ? r.program : "" })));
    const proofs = Array.isArray(p.proofs) ? p.proofs : Array.isArray(r.proofs) ? r.proofs : [];
    nodes.push(disclosure("Proof results", this.open, "proofs",
      proofs.length ? el("ul", {}, ...proofs.map((x) => el("li", { text: `${x.name}: ${x.conclusion}${x.description && x.description !== x.name ? ` — ${x.description}` : ""}` })))
        : el("div", { class: "muted", text: "No proof results recorded." })));
    this.approvalInfo.replaceChildren(...nodes);
    this.drawDecided();
    this.refreshButtons();
  }

  limits(p) {
    const items = (p.contracts || []).map((c, i) => {
      const lib = c.library || null;
      const title = el("div", { class: "lib-title" }, el("span", { text: lib ? lib.title || lib.domain : "Unknown library" }));
      const badge = lib ? mockBadge(lib.mock) : null;
      if (badge) title.append(" ", badge);
      const item = el("div", { class: "limit" }, title);
      if (lib && lib.mock === "unmarked") item.append(el("div", { class: "muted", text: UNDECLARED_TEXT }));
      item.append(el("code", { class: "call", text: c.call || c.expression || "" }));
      if (c.description) item.append(el("div", { class: "description", text: c.description }));
      const id = c.identity;
      item.append(el("div", { class: "muted", text: id && id.symbol ? `Resolved contract: ${id.symbol}` : "Resolved identity not recorded." }));
      const source = [];
      if (id) {
        source.push(line("Origin", id.origin || "authored in this project"));
        source.push(line("Revision", id.revision || "none"));
        source.push(line("Source file", `${id.source_file || "?"}${id.source_line ? `:${id.source_line}` : ""}`));
        source.push(line("Source SHA-256", id.source_sha256 || "?"));
        source.push(line("Layer SHA-256", id.layer_sha256 || "?"));
      }
      source.push(line("Contract source", c.expression || ""));
      source.push(c.documentation ? el("pre", { class: "doc", text: c.documentation }) : el("div", { class: "muted", text: "No documentation." }));
      item.append(disclosure("Source and documentation", this.open, `src-${i}`, ...source));
      return item;
    });
    if (!items.length) items.push(el("div", { class: "muted", text: "No guarantees stated." }));
    return section("Verified limits", ...items);
  }

  coverage(p) {
    const list = Array.isArray(p.coverage) ? p.coverage : [];
    if (!list.length) return section("Coverage", el("div", { class: "muted", text: p.coverage_note || "No domain policies applied." }));
    return section("Coverage", ...list.map((c) => el("div", { class: `coverage coverage-${c.colour || "neutral"}`, text: c.label || c.status })));
  }

  execution(p) {
    const e = p.execution || {};
    const rows = [line("Target", e.target || this.record.target || "main")];
    if (e.timeout_seconds) rows.push(line("Time limit", `${e.timeout_seconds} s`));
    rows.push(el("div", { class: e.sandbox === "unavailable" ? "warn" : "", text: `Sandbox: ${e.sandbox || "unknown"}` }));
    if (e.sandbox_detail) rows.push(el("div", { class: "muted", text: e.sandbox_detail }));
    if ((e.extra_read || []).length) rows.push(line("Extra read paths", e.extra_read.join(", ")));
    if ((e.extra_write || []).length) rows.push(line("Extra write paths", e.extra_write.join(", ")));
    return section("Execution limits", ...rows);
  }

  automaticNotes(r) {
    const notes = [];
    if (r.rule && r.rule.name) notes.push(el("div", { text: `Matched rule: ${r.rule.name}${r.rule.reason ? ` — ${r.rule.reason}` : ""}` }));
    const auto = r.automatic || {};
    if (auto.suppressed) notes.push(el("div", { text: "A remembered or policy approval matched, but automatic approvals are paused in this conversation." }));
    for (const u of auto.undecidable || []) notes.push(el("div", { text: `Rule ${u.rule || "?"} could not be decided${u.reason ? `: ${u.reason}` : ""}.` }));
    if (r.approvals_paused && !auto.suppressed) notes.push(el("div", { text: "Automatic approvals are paused in this conversation." }));
    return notes;
  }

  drawDecided() {
    const r = this.record;
    const nodes = [];
    if (r.decision) {
      nodes.push(el("div", { class: "decision", text: `Decision: ${DECISION_LABELS[r.decision] || r.decision}` }));
      if (r.decided_by && r.decided_by !== "human") nodes.push(el("div", { class: "muted", text: `Decided by ${r.decided_by === "policy" ? "the policy" : "a remembered rule"}` }));
      if (r.feedback) nodes.push(el("div", { text: `Feedback: ${r.feedback}` }));
      if (r.receipt_issued && r.decided_at) nodes.push(el("div", { class: "muted", text: `Receipt issued ${formatTime(r.decided_at)}` }));
    } else if (r.state === "cancelled" || r.state === "expired") {
      nodes.push(el("div", { class: "decision", text: r.state === "expired" ? "Expired before a decision." : "Cancelled before a decision." }));
    }
    this.decided.replaceChildren(...nodes);
  }

  refreshButtons() {
    const r = this.record;
    if (!r) return;
    const pending = r.state === "pending";
    const runEnded = Boolean(this.run && FINAL.has(this.run.phase));
    const agent = store.state ? store.state.agent_status : null;
    const disabled = !pending || runEnded || this.inflight || agent === "stopped" || agent === "unavailable";
    this.feedbackBox.hidden = !pending;
    const eligible = r.profile && r.profile.eligible === true;
    const wanted = [...DECISIONS, ...(eligible ? REMEMBER : [])];
    const key = wanted.map((w) => w[0]).join("|") + (pending ? "" : "-done");
    if (this.buttonKey !== key) {
      this.buttonKey = key;
      const nodes = pending ? wanted.map(([label, body, cls]) => button(label, () => this.decide(body), { class: cls || null })) : [];
      if (pending && !eligible) {
        const reason = (r.profile && r.profile.reason) || "This decision can't be remembered.";
        nodes.push(el("div", { class: "muted ineligible", text: reason }));
      }
      this.buttons.replaceChildren(...nodes);
    }
    for (const b of this.buttons.querySelectorAll("button")) b.disabled = disabled;
    if (pending && runEnded) this.status.textContent = "This action is no longer running.";
  }

  async decide(body) {
    if (this.inflight) return;
    this.inflight = true;
    this.status.textContent = "Saving decision…";
    this.refreshButtons();
    const text = this.feedback.value.trim();
    const payload = text ? { ...body, feedback: text } : body;
    const result = await api(`/api/requests/${encodeURIComponent(this.id)}/decision`, { method: "POST", body: payload });
    this.inflight = false;
    if (result.ok) {
      this.status.textContent = "Decision saved.";
      approval(result.data);
    } else {
      this.status.textContent = result.message;
      this.refreshButtons();
    }
  }
}

// One timer for every pending card's remaining time (03 CARD-5).
const ticking = new Set();
let timer = null;
function tickExpiry(found) {
  ticking.add(found);
  drawExpiry(found);
  if (!timer) timer = setInterval(() => {
    for (const c of ticking) {
      if (!c.expiry || !c.expiry.isConnected || !c.record || c.record.state !== "pending") ticking.delete(c);
      else drawExpiry(c);
    }
    if (!ticking.size) { clearInterval(timer); timer = null; }
  }, 1000);
}
function drawExpiry(found) {
  const left = Math.max(0, Math.round((Date.parse(found.record.expires_at) - Date.now()) / 1000));
  const text = left > 0 ? `Expires in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` : "Expiring…";
  if (found.expiry.textContent !== text) found.expiry.textContent = text;
}
