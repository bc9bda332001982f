// Run cards (02 UI-17), approval cards (UI-18..20, 03 CARD-5) and Undo (UI-21, 05 FS-7).
// An approval card joins a run ONLY by exact equality of request_id. Cards are long-lived DOM:
// updates rewrite their info sections but keep open disclosures and the typed feedback.
// Issue 12: one status (the head's pill), the summary first, everything technical under one
// Details; a finished card is one line ("Approved by you · Sent 1 email …") that expands.

import { api } from "./api.js";
import { askAgain, decisionRow } from "./decisions.js";
import { blocks, details, guaranteeList, libraryLines, planSentence, sentences, sourceRows, summaryView, warningsNote } from "./cardview.js";
import { provenanceBlock, provenanceSuppressed } from "./provenance.js";
import { EARLY_END, LIMITS, PHASE_LABELS as PHASES, RAN } from "./constants.js";
import { button, disclosure, el, formatTime } from "./dom.js";
import { modal } from "./dialogs.js";
import { plainMessage, reasonWords } from "./plain.js";
import { emit, FINAL, store } from "./state.js";

export const DECISION_LABELS = {
  approved_once: "Approved once", approved_remember: "Approved and remembered", auto_approved: "Approved automatically",
  rejected: "Rejected", rejected_contract: "Contract rejected", request_more: "More information requested",
  auto_rejected: "Rejected automatically",
};
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
    (place ? place(turn, requestId) : document.getElementById("messages")).append(found.node);
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
  // A late push or fetch for another conversation (the page moved on) never draws a card here.
  const current = store.state && store.state.conversation_id;
  if (runs.has(record.request_id) || !record.conversation_id || !current || record.conversation_id === current) {
    card(record.request_id, undefined).setApproval(record);
  }
  emit("approvals-changed");
}

export function refreshAll() {
  for (const found of runs.values()) found.refreshButtons();
}

function line(label, value) {
  return el("div", { class: "kv" }, el("span", { class: "k", text: `${label}: ` }), el("span", { class: "v", text: value }));
}

function truncatedBlock(label, text) {
  const shown = text.length > OUTPUT_LIMIT ? text.slice(0, OUTPUT_LIMIT) : text;
  const box = el("div", { class: "output" }, el("div", { class: "output-label", text: label }), el("pre", { text: shown }));
  if (shown.length < text.length) box.append(el("div", { class: "muted", text: `Output truncated: ${(text.length - shown.length).toLocaleString()} more characters` }));
  return box;
}

function ruleSentence(r, s) {
  const rule = r.rule || {};
  if (r.decided_by === "profile") {
    // A rule that matched by proof (issue 12) lists the remembered guarantees, which this program keeps.
    const broad = rule.match === "at_least_as_strict" && Array.isArray(rule.guarantees);
    const texts = broad ? rule.guarantees : (s.guarantees || []).map((g) => g.text);
    const limits = texts.map((t) => String(t).replace(/\.$/, "")).map((t) => t.charAt(0).toLowerCase() + t.slice(1)).join("; ");
    const verdict = `${r.decision === "auto_rejected" ? "Rejected" : "Approved"} by your rule${limits ? `: ${limits}` : ""}`;
    return broad ? `${verdict} — this program is proved to keep every one.` : `${verdict}.`;
  }
  if (r.decided_by === "policy") {
    return `${r.decision === "auto_rejected" ? "Rejected" : "Approved"} by the policy rule ${rule.name || "?"}${rule.reason ? `: ${rule.reason}` : ""}.`;
  }
  return null;
}

// The reach of Approve / Reject and remember (issue 12), in the card's guarantee sentences: the
// authority's own wording (presentation.summary); a record from before it had the reject wording flips.
export function rememberScope(s, approve) {
  const intro = approve ? s.scope_intro : s.reject_scope_intro || (s.scope_intro || "").replace("will run without asking", "will be rejected without asking");
  const terms = approve ? s.scope_terms : s.reject_scope_terms;
  const limits = (s.guarantees || []).map((g) => el("li", { text: g.text }));
  // Which effects an approval covers, in words (issue 19): "Covers only: sends email with send_email — nothing else."
  const covers = approve && s.covers ? [el("p", { class: "remember-covers", text: s.covers })] : [];
  if (intro && limits.length) {
    return el("div", { class: "remember-scope" }, el("p", { text: intro }), el("ul", {}, ...limits),
      ...(terms ? [el("p", { text: terms })] : []), ...covers);
  }
  const whole = (approve ? s.scope : s.reject_scope) || "Future programs like this one will be decided without asking.";
  return el("div", { class: "remember-scope" }, el("p", { text: whole }), ...covers);
}

function decisionShort(r) {
  if (!r) return "";
  if (r.decided_by === "profile") return r.decision === "auto_rejected" ? "Rejected by your rule" : "Approved by your rule";
  if (r.decided_by === "policy") return r.decision === "auto_rejected" ? "Rejected by the policy" : "Approved by the policy";
  if (r.decision) return `${DECISION_LABELS[r.decision] || r.decision} by you`;
  if (r.state === "expired") return "Expired before a decision";
  if (r.state === "cancelled") return "Cancelled before a decision";
  return "";
}

const NAME_CHARS = 160;

// The card's accessible name (issue 15): which program and what it does, in plain words, so a list of
// regions tells two cards apart ("Approval: program.py — Will send 1 mock email to bob@example.com: …").
// It leads with what the card asks or tells: Approval (waiting for you), Ran, Did not run, else Run; then
// the program's file (and its entry when not main); then the run's own first sentence once it ended,
// else the plan's. Never the request id: the agent chooses it, and it says nothing to a person.
// Issue 22: a finished run's one line lists every effect that ran, one sentence per group (each with
// its own count: "Sent 2 mock emails …"), led by how many groups there were — never only the first.
// A run that stopped early keeps its early-end sentences first (how its guarantees stood).
const NOT_AN_EFFECT = /^(The run made |The program called no library|Effects made before it stopped)/;

export function outcomeLine(run) {
  const s = run && run.summary;
  if (!s || s.kind !== "outcome" || !Array.isArray(s.sentences) || !s.sentences.length) return "";
  const all = s.sentences.map(String);
  const early = s.ended_early ? Math.max(1, Array.isArray(s.end_state) ? s.end_state.length : 0) : 0;
  const head = all.slice(0, early);
  const effects = all.slice(early).filter((t) => !NOT_AN_EFFECT.test(t));
  const rest = all.slice(early).filter((t) => NOT_AN_EFFECT.test(t));
  const listed = effects.length > 1 ? [`Did ${effects.length} things: ${effects.join(" ")}`] : effects;
  return [...head, ...listed, ...rest].join(" ");
}

export function cardName(run, record) {
  const final = Boolean(run && FINAL.has(run.phase));
  const pending = !final && record && record.state === "pending";
  const ended = !run && record && ["denied", "expired", "cancelled"].includes(record.state);  // a card with no run record
  const verb = pending ? "Approval" : final ? (RAN.has(run.phase) ? "Ran" : "Did not run") : ended ? "Did not run" : "Run";
  const p = (record && record.presentation) || {};
  const file = (p.program && p.program.source_name) || (run && run.source_name) || "program";
  const target = (run && run.target) || (record && record.target) || "main";
  const program = target === "main" ? file : `${file} (${target})`;
  const said = final ? outcomeLine(run) : null;
  let what = String(said || planSentence(p.summary) || plainMessage(run, record) || "").replace(/\s+/g, " ").trim();
  if (what.length > NAME_CHARS) what = `${what.slice(0, NAME_CHARS - 1)}…`;
  return `${verb}: ${program}${what ? ` — ${what}` : ""}`;
}

class RunCard {
  constructor(requestId) {
    this.id = requestId;
    this.run = null;
    this.record = null;
    this.open = new Set();
    this.inflight = false;
    this.lastFetch = 0;
    this.expanded = false;  // a finished card is one line until the person opens it
    this.title = el("h3", { text: "Run program" });
    this.pill = el("span", { class: "phase" });
    this.oneLine = el("span", { class: "one-line" });
    this.toggle = el("button", { type: "button", class: "small card-toggle", "aria-expanded": "false", hidden: true, text: "Show" });
    this.toggle.addEventListener("click", () => { this.expanded = !this.expanded; this.drawCollapse(); });
    this.undoBox = el("div", { class: "undo" });
    this.head = el("div", { class: "card-head" }, this.title, this.pill, this.oneLine, this.undoBox, this.toggle);
    this.lead = el("div", { class: "card-summary" });
    this.info = el("div", { class: "run-info" });
    this.output = el("div", { class: "run-output" });
    // No name of its own: the card around it is the one region, named by its program (cardName).
    this.approvalBox = el("section", { class: "card approval", hidden: true, "data-request-id": requestId });
    this.detailsBox = el("div", { class: "card-details" });
    this.body = el("div", { class: "card-body" }, this.lead, this.info, this.output, this.approvalBox, this.detailsBox);
    this.node = el("section", { class: "card run", "data-request-id": requestId, "aria-label": "Run" }, this.head, this.body);
    // Approval card parts that must survive refreshes.
    this.approvalInfo = el("div", { class: "approval-info" });
    this.feedback = el("textarea", { rows: "2", "aria-label": "Feedback for the agent (optional)", maxlength: String(LIMITS.feedback_chars), placeholder: "Feedback for the agent (optional)" });
    this.buttons = el("div", { class: "decisions" });
    this.status = el("div", { class: "decision-status", role: "status" });
    this.decided = el("div", { class: "decided" });
    this.feedbackLabel = el("span", { text: "Feedback for the agent (optional)" });
    this.feedbackBox = el("label", { class: "feedback" }, this.feedbackLabel, this.feedback);
    // Issue 22: an empty question for "Need more info" is said here, right under the box it is about.
    this.feedbackError = el("div", { class: "field-error", id: `feedback-error-${requestId}`, hidden: true });
    this.approvalBox.append(this.approvalInfo, this.feedbackBox, this.feedbackError, this.buttons, this.status, this.decided);
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
    if (phaseChanged && FINAL.has(record.phase) && record.effects_count) emit("files-changed");
    if (this.record) this.drawApproval();
  }

  // UI-18: fetched when the request id first appears and when the run's phase changes; at most
  // once per second per card and never while the tab is hidden. The host also pushes records.
  fetchApproval() {
    if (document.hidden) return;
    const now = Date.now();
    if (now - this.lastFetch < 1000) {
      if (!this.fetchTimer) this.fetchTimer = setTimeout(() => { this.fetchTimer = null; if (runs.get(this.id) === this) this.fetchApproval(); }, 1000 - (now - this.lastFetch));
      return;
    }
    if (this.run && ["checking", "proving"].includes(this.run.phase)) return;
    this.lastFetch = now;
    api(`/api/requests/${encodeURIComponent(this.id)}`).then((result) => {
      if (runs.get(this.id) !== this) return;  // the transcript was reset meanwhile: this card is gone
      if (result.ok && result.data && result.data.request_id === this.id) approval(result.data);
    });
  }

  phaseText() {
    if (this.run) return PHASES[this.run.phase] || this.run.phase || "";
    const state = this.record && this.record.state;
    return state === "pending" ? PHASES.awaiting_approval : ({ approved: "Approved", denied: "Rejected", expired: "Expired", cancelled: "Cancelled" }[state] || "");
  }

  // The one status of the card (issue 12: shown once), in the head.
  drawHead() {
    const phase = this.run ? this.run.phase : (this.record && this.record.state === "pending" ? "awaiting_approval" : "");
    this.pill.className = `phase phase-${phase}`;
    this.pill.textContent = this.phaseText();
    this.node.dataset.phase = phase || "";
    const name = cardName(this.run, this.record);
    if (this.node.getAttribute("aria-label") !== name) this.node.setAttribute("aria-label", name);
  }

  drawRun() {
    const r = this.run;
    this.drawHead();
    const s = r.summary && typeof r.summary === "object" ? r.summary : null;
    const lead = [];
    if (s) {
      lead.push(...sentences(s.sentences, s.kind === "refusal" ? "summary-line refusal" : "summary-line outcome"));
      if (s.kind === "refusal" && Array.isArray(s.excerpt) && s.excerpt.length) lead.push(sourceRows(s.excerpt));
      lead.push(...blocks(s.blocks));
      const note = warningsNote(s.warnings);
      if (note) lead.push(note);
      if (s.omitted) lead.push(el("div", { class: "muted", text: s.omitted }));
    }
    this.runLead = lead;
    const info = [];
    if (r.message && !s) info.push(el("div", { class: "run-message", text: plainMessage(r, this.record) }));
    // 03 SNAP-1: whether any effect ran, shown once the run stopped early (issue 13: Stop during execution).
    if (typeof r.executed_partially === "boolean" && EARLY_END.has(r.phase)) {
      info.push(line("Executed partially", r.executed_partially ? "yes — effects that already ran stay" : "no"));
    }
    this.info.replaceChildren(...info);
    this.drawOutput();
    this.drawLead();
    this.drawDetails();
    this.drawUndo();
    this.drawCollapse();
  }

  // What the card leads with: the run's own sentences once it has them, else the plan.
  drawLead() {
    const nodes = [];
    if (this.runLead && this.runLead.length) nodes.push(...this.runLead);
    this.lead.replaceChildren(...nodes);
  }

  drawDetails() {
    const r = this.run;
    const rows = [];
    if (this.record) rows.push(...details(this.record, this.record.presentation || {}, r, this.open));
    if (r) {
      if (r.reason) rows.push(line("Reason", reasonWords(r.reason)));
      const o = r.obligation;
      if (r.message && r.summary) rows.push(el("div", { class: "run-message", text: plainMessage(r, this.record) }));
      if (o && typeof o === "object") {
        if (o.line !== undefined && o.line !== null) rows.push(line("Stated at line", String(o.line)));
        if (o.call) rows.push(line("Expression", String(o.call)));
        if (o.predicate) rows.push(line("Predicate", String(o.predicate)));
        if (o.conclusion) rows.push(line("Conclusion", String(o.conclusion)));
        if (o.result) rows.push(line("Result", String(o.result)));
        if (o.description) rows.push(line("Obligation", String(o.description)));
      }
      if (RAN.has(r.phase)) {
        if (r.exit_code !== null && r.exit_code !== undefined) rows.push(line("Exit code", String(r.exit_code)));
        if (r.sandbox) rows.push(line("Sandbox", String(r.sandbox)));
      }
      if (!this.record) rows.push(line("Request id (chosen by the agent)", this.id));
    }
    this.detailsBox.replaceChildren(rows.length ? disclosure("Details", this.open, "details", ...rows) : "");
  }

  drawCollapse() {
    const final = Boolean(this.run && FINAL.has(this.run.phase)) || Boolean(!this.run && this.record && this.record.state !== "pending");
    const collapsed = final && !this.expanded;
    this.node.classList.toggle("collapsed", collapsed);
    this.body.hidden = collapsed;
    this.toggle.hidden = !final;
    this.toggle.textContent = collapsed ? "Show" : "Hide";
    this.toggle.setAttribute("aria-expanded", String(!collapsed));
    this.toggle.setAttribute("aria-label", collapsed ? "Show this run" : "Hide this run");
    let text = "";
    if (final) {
      const s = this.run && this.run.summary;
      const said = outcomeLine(this.run) || (s && Array.isArray(s.sentences) && s.sentences[0]) || plainMessage(this.run, this.record) || "";
      text = [decisionShort(this.record), said].filter(Boolean).join(" · ");
    }
    // Collapsed: the one line says it all; open: the title, and the sentences below say it once.
    this.oneLine.textContent = collapsed ? text : "";
    this.oneLine.hidden = !collapsed || !text;
    this.title.hidden = collapsed && Boolean(text);
  }

  drawOutput() {
    const out = outputs.get(this.id) || this.run || {};
    const blocksOut = [];
    for (const stream of ["stdout", "stderr"]) {
      if (typeof out[stream] === "string" && out[stream]) blocksOut.push(truncatedBlock(stream === "stdout" ? "Output" : "Errors", out[stream]));
    }
    this.output.replaceChildren(...blocksOut);
  }

  drawUndo() {
    const r = this.run;
    const undo = r && r.undo;
    const nodes = [];
    if (undo && undo.undone) nodes.push(el("span", { class: "muted", text: "File changes undone." }));
    else if (undo && undo.available && FINAL.has(r.phase)) nodes.push(button("Undo file changes", () => this.undo(), { class: "small" }));
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
      emit("files-changed");
    }
    this.drawUndo();
  }

  setApproval(record) {
    this.record = record;
    this.approvalBox.hidden = false;
    // The one Details belongs to the request once there is one (the card's technical record).
    if (this.detailsBox.parentNode !== this.approvalBox) this.approvalBox.append(this.detailsBox);
    this.drawHead();
    this.drawApproval();
  }

  drawApproval() {
    const r = this.record;
    const p = r.presentation || {};
    const s = p.summary || {};
    const nodes = [];
    const plan = s.plan || {};
    const finished = Boolean(this.run && this.run.summary && this.run.summary.kind === "outcome");
    // Summary first: what the proof says the program will do (once the run has said what it did,
    // that leads the card and the plan stays here, quieter).
    if (Array.isArray(s.view)) nodes.push(...summaryView(s.view, finished));  // the one rendering (issue 19)
    else {  // a record kept from before the authority rendered its summary
      nodes.push(el("div", { class: finished ? "card-plan done" : "card-plan" }, ...sentences(plan.sentences), ...blocks(plan.blocks)));
      const note = warningsNote(s.warnings);
      if (note) nodes.push(note);
    }
    // Where the values came from sits next to the guarantees: just before "Verified limits" (issue 20).
    const prov = provenanceBlock(p.provenance);
    if (prov) {
      const limits = nodes.findIndex((n) => n.tagName === "H4" && n.textContent === "Verified limits");
      if (limits >= 0) nodes.splice(limits, 0, prov);
      else nodes.push(prov);
    }
    if (!Array.isArray(s.view)) {
      nodes.push(el("h4", { text: "Verified limits" }), guaranteeList(s));
      nodes.push(el("h4", { text: "Libraries" }), libraryLines(s));
    }
    if (p.undeclared_notice) nodes.push(el("div", { class: "notice undeclared", text: p.undeclared_notice }));
    const notes = this.automaticNotes(r);
    if (notes.length) nodes.push(el("div", { class: "auto-notes" }, ...notes));
    if (r.state === "pending" && r.expires_at) {
      this.expiry = el("div", { class: "expiry" });
      nodes.push(this.expiry);
      tickExpiry(this);
    } else this.expiry = null;
    this.approvalInfo.replaceChildren(...nodes);
    this.drawHead();
    this.drawDecided();
    this.drawDetails();
    this.drawCollapse();
    this.refreshButtons();
  }

  automaticNotes(r) {
    const notes = [];
    const auto = r.automatic || {};
    // Why no rule decided it (issue 19): e.g. the program also deletes files, which the rule does not cover.
    for (const n of auto.not_decided || []) if (n && n.text) notes.push(el("div", { class: "not-decided", "data-kind": "note", text: n.text }));
    if (auto.suppressed && provenanceSuppressed(r)) notes.push(el("div", { text: "A remembered or policy approval matched, but it does not decide a program with values from data the agent read." }));
    else if (auto.suppressed) notes.push(el("div", { text: "A remembered or policy approval matched, but automatic approvals are paused in this conversation." }));
    for (const u of auto.undecidable || []) notes.push(el("div", { text: `Rule ${u.rule || "?"} could not be decided${u.reason ? `: ${u.reason}` : ""}.` }));
    if (r.approvals_paused && !auto.suppressed) notes.push(el("div", { text: "Automatic approvals are paused in this conversation." }));
    return notes;
  }

  drawDecided() {
    const r = this.record;
    const s = (r.presentation || {}).summary || {};
    const nodes = [];
    if (r.decision) {
      this.status.textContent = "";  // the decision below says it; "Decision saved." would repeat it
      nodes.push(el("div", { class: "decision", text: `Decision: ${DECISION_LABELS[r.decision] || r.decision}` }));
      const rule = ruleSentence(r, s);
      if (rule) nodes.push(el("div", { class: "rule-sentence", text: rule }));
      if (r.feedback) nodes.push(el("div", { text: `Feedback: ${r.feedback}` }));
      if (r.receipt_issued && r.decided_at) nodes.push(el("div", { class: "muted", text: `Receipt issued ${formatTime(r.decided_at)}` }));
    } else if (r.state === "cancelled" || r.state === "expired") {
      nodes.push(el("div", { class: "decision", text: r.state === "expired" ? "Expired before a decision." : "Cancelled before a decision." }));
      if (r.state === "expired") nodes.push(askAgain(r));
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
    const key = `${eligible ? "remember" : "once"}${pending ? "" : "-done"}`;
    if (this.buttonKey !== key) {
      this.buttonKey = key;
      // Approve / Reject up front, the rest under More (decisions.js, issue 12).
      this.buttons.replaceChildren(...(pending ? decisionRow(this, eligible, r.profile && r.profile.reason) : []));
    }
    for (const b of this.buttons.querySelectorAll("button")) b.disabled = disabled;
    drawSkip();
    if (pending && runEnded) this.status.textContent = "This action is no longer running.";
  }

  // Remember states its scope and asks (issue 12): the rule's reach, in the card's own sentences.
  async confirmRemember(body) {
    const s = ((this.record && this.record.presentation) || {}).summary || {};
    const approve = body.decision === "approved_remember";
    const said = rememberScope(s, approve);
    const choice = await modal({
      safe: true,  // Enter twice must never make a standing rule: Cancel takes the focus (issue 22)
      title: approve ? "Approve and remember?" : "Reject and remember?",
      body: [said,
        el("p", { class: "muted", text: "You can disable the rule later in Approvals." })],
      actions: [{ id: "yes", label: approve ? "Approve and remember" : "Reject and remember", primary: approve, danger: !approve }],
    });
    return choice === "yes";
  }

  async decide(body) {
    if (this.inflight) return;
    if ((body.decision === "approved_remember" || body.remember) && !(await this.confirmRemember(body))) return;
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
      // The buttons are gone: the focus goes to the card, named by its outcome, not to the page body.
      this.node.tabIndex = -1;
      this.node.focus();
    } else {
      this.status.textContent = result.message;
      this.refreshButtons();
    }
  }
}

// The skip link to the first card still waiting for a decision (issue 22: 27 Tabs to Approve before).
function pendingCard() {
  for (const c of runs.values()) {
    const ended = Boolean(c.run && FINAL.has(c.run.phase));
    if (c.record && c.record.state === "pending" && !ended && c.node.isConnected) return c;
  }
  return null;
}

function drawSkip() {
  const link = document.getElementById("skip-pending");
  if (!link) return;
  if (!link.dataset.wired) {
    link.dataset.wired = "1";
    link.addEventListener("click", (event) => {
      event.preventDefault();
      const c = pendingCard();
      const target = c && c.buttons.querySelector("button.primary");
      if (!target) return;
      target.scrollIntoView({ block: "center" });
      target.focus();
    });
  }
  link.hidden = !pendingCard();
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
