// clauz3 workspace page. Every piece of agent, tool, file or approval text is inserted with
// textContent / DOM construction only (02 UI-3): nothing here ever parses data as HTML.

const $ = (id) => document.getElementById(id);
const PHASES = {
  checking: "Checking program", proving: "Proving guarantees", submitting_approval: "Requesting approval",
  awaiting_approval: "Your approval needed", executing: "Executing approved action", completed: "Completed",
  refused: "Did not execute", failed: "Failed", cancelled: "Stopped", uncertain: "Outcome unknown",
};
const ACTIVITY = {
  checking: "Checking program", proving: "Proving guarantees", submitting_approval: "Requesting approval",
  awaiting_approval: "Waiting for your approval", executing: "Executing approved action",
};
const DECISIONS = [
  ["Approve", { decision: "approved_once" }],
  ["Reject", { decision: "rejected" }],
  ["Reject contract", { decision: "rejected_contract" }],
  ["Need more info", { decision: "request_more" }],
];
const REMEMBER = [
  ["Approve and remember", { decision: "approved_remember" }],
  ["Reject and remember", { decision: "rejected", remember: true }],
];
const FINAL = new Set(["completed", "refused", "failed", "cancelled", "uncertain"]);

let socket = null;
let state = null;
let retry = 0;
let noRetry = false;
let turnBubble = null;
const tools = new Map();
const approvals = new Map();
const inflight = new Set();
const feedback = new Map();

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function agentLabel() { return state ? state.agent_label : "agent"; }

// -- connection ------------------------------------------------------------------------------------

function connect(takeover = false) {
  const url = `ws://${location.host}/api/chat/acp${takeover ? "?takeover=1" : ""}`;
  socket = new WebSocket(url);
  setStatus(retry ? "Reconnecting…" : "Connecting…");
  socket.addEventListener("open", () => { retry = 0; });
  socket.addEventListener("message", (event) => {
    let frame;
    try { frame = JSON.parse(event.data); } catch { return; }
    handle(frame);
  });
  socket.addEventListener("close", (event) => onClose(event.code, event.reason));
}

function onClose(code, reason) {
  socket = null;
  updateControls();
  if (code === 1008) {
    noRetry = true;
    banner("Open the sign-in link from your terminal to continue.");
    return;
  }
  if (code === 1013) {
    noRetry = true;
    banner("This workspace is open in another tab.", "Use here", () => { noRetry = false; hideBanner(); connect(true); });
    return;
  }
  if (code === 1003 || code === 1009) showNotice({ level: "error", code: "closed", text: reason || "Connection closed." });
  if (noRetry) return;
  const delays = [1000, 2000, 4000, 8000];
  const wait = retry < delays.length ? delays[retry] : 10000;
  retry += 1;
  setStatus("Reconnecting…");
  setTimeout(() => { if (!noRetry) connect(); }, wait);
}

function send(method, params) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ method, params }));
}

function banner(text, buttonLabel, onClick) {
  const box = $("banner");
  box.replaceChildren(el("span", { text }));
  if (buttonLabel) box.append(" ", el("button", { type: "button", text: buttonLabel, onclick: onClick }));
  box.hidden = false;
}
function hideBanner() { $("banner").hidden = true; }

// -- frames --------------------------------------------------------------------------------------

function handle(frame) {
  const params = frame.params || {};
  switch (frame.method) {
    case "clauz3/restore": restore(params); break;
    case "clauz3/state": setState(params); break;
    case "clauz3/approval": upsertApproval(params.record); break;
    case "clauz3/workspace_changed": location.assign("/ui"); break;
    default: render(frame, true);
  }
}

function restore(params) {
  $("messages").replaceChildren();
  $("notices").replaceChildren();
  tools.clear();
  approvals.clear();
  turnBubble = null;
  for (const frame of params.history || []) render(frame, false);
  for (const record of params.approvals || []) upsertApproval(record);
  setState(params.state);
}

function render(frame, live) {
  const params = frame.params || {};
  const messages = $("messages");
  if (frame.method === "clauz3/user") {
    turnBubble = null;
    const bubble = el("div", { class: "bubble user" + (frame.unsaved ? " unsaved" : ""), text: params.text });
    messages.append(bubble);
    const names = (params.attachments || []).map((a) => a.name).join(", ");
    if (names) messages.append(el("div", { class: "muted", text: `Attachments: ${names}` }));
    if (live) clearDraftIf(params.text);
  } else if (frame.method === "session/update") {
    renderUpdate(params.update || {}, frame.unsaved);
  } else if (frame.method === "clauz3/turn_end") {
    turnBubble = null;
    if (params.stop_reason === "error" && params.error) messages.append(el("div", { class: "notice error", text: params.error }));
  } else if (frame.method === "clauz3/notice") {
    if (live) showNotice(params);
    else messages.append(el("div", { class: `notice ${params.level}`, text: params.text }));
  } else if (frame.method === "clauz3/libraries_changed") {
    messages.append(el("div", { class: "muted", text: `Libraries changed: + ${(params.added || []).join(", ")} · − ${(params.removed || []).join(", ")}` }));
  } else if (frame.method === "clauz3/conversations" || frame.method === "clauz3/confirm_libraries" || frame.method === "clauz3/confirm_workspace") {
    if (params.text) showNotice({ level: "info", code: frame.method, text: params.text });
  }
  scrollDown();
}

function renderUpdate(update, unsaved) {
  const kind = update.sessionUpdate;
  const messages = $("messages");
  if (kind === "agent_message_chunk" && update.content && update.content.type === "text") {
    if (!turnBubble) {
      turnBubble = el("div", { class: "bubble assistant" + (unsaved ? " unsaved" : "") });
      messages.append(turnBubble);
    }
    turnBubble.textContent += String(update.content.text);
  } else if ((kind === "tool_call" || kind === "tool_call_update") && typeof update.toolCallId === "string") {
    let card = tools.get(update.toolCallId);
    if (!card) {
      card = { node: el("div", { class: "tool" }), title: "Tool call", status: "pending" };
      tools.set(update.toolCallId, card);
      messages.append(card.node);
      turnBubble = null;
    }
    if (typeof update.title === "string") card.title = update.title;
    if (typeof update.status === "string") card.status = update.status;
    const status = { pending: "Waiting", in_progress: "Working…", completed: "Done", failed: "Failed" }[card.status] || card.status;
    card.node.replaceChildren(el("strong", { text: card.title }), el("span", { class: "muted", text: ` · ${status}` }));
  }
}

function showNotice(params) {
  const box = $("notices");
  const item = el("div", { class: `notice ${params.level || "info"}`, text: params.text });
  box.append(item);
  while (box.children.length > 4) box.firstChild.remove();
}

function scrollDown() {
  const area = $("conversation");
  if (area.scrollHeight - area.scrollTop - area.clientHeight < 180) area.scrollTop = area.scrollHeight;
}

// -- state -----------------------------------------------------------------------------------------

function setState(next) {
  if (!next) return;
  state = next;
  $("title").textContent = state.title;
  document.title = `${state.title} · clauz3`;
  $("agent-line").textContent = `${state.agent_label} · ${state.model}`;
  $("mode-badge").textContent = state.unrestricted ? "Unrestricted" : "Restricted";
  $("message").setAttribute("aria-label", `Message ${state.agent_label}`);
  $("welcome").hidden = state.turn !== 0;
  renderRuns();
  updateControls();
  restoreDraft();
}

function setStatus(text) { $("status-text").textContent = text; }

function runActive() { return state && state.runs.some((r) => !FINAL.has(r.phase)); }

function updateControls() {
  const connected = socket && socket.readyState === WebSocket.OPEN;
  if (!state || !connected) {
    $("send").disabled = true;
    $("stop").disabled = true;
    return;
  }
  const s = state.agent_status;
  const text = {
    starting: `Starting ${agentLabel()}…`, ready: "Ready", busy: `${agentLabel()} is working…`,
    cancelling: "Stopping…", stopped: "Agent stopped · send a message to continue", unavailable: `${agentLabel()} unavailable`,
  }[s] || s;
  setStatus(state.history_limited ? "Transcript storage full · start a new conversation" : text);
  const idleAgent = s === "ready" || s === "stopped";
  const typed = $("message").value.trim();
  $("send").disabled = !(idleAgent && !runActive() && !state.operation && !state.history_limited
    && !state.libraries_changed && (typed.length > 0 || state.attachments.length > 0) && typed.length <= 20000);
  $("stop").disabled = !(["starting", "busy", "cancelling"].includes(s) || runActive());
  $("stop").textContent = s === "cancelling" ? "Force stop" : "Stop";
  const activity = $("activity");
  const a = state.activity || { kind: "idle" };
  let label = "";
  if (a.kind === "run") label = ACTIVITY[a.phase] || "";
  else if (a.kind === "agent") label = s === "cancelling" ? "Stopping…" : `${agentLabel()} is working…`;
  else if (s === "starting") label = `Starting ${agentLabel()}…`;
  else if (s === "cancelling") label = "Stopping…";
  activity.textContent = label;
  activity.hidden = !label;
  for (const [id] of approvals) refreshButtons(id);
}

// -- run cards -------------------------------------------------------------------------------------

function renderRuns() {
  let box = $("runs");
  if (!box) {
    box = el("div", { id: "runs", class: "messages" });
    $("conversation").append(box);
  }
  box.replaceChildren();
  for (const run of state.runs) {
    const card = el("section", { class: "card run", "data-request-id": run.request_id, "aria-label": "Run" },
      el("h3", { text: "Run program" }),
      el("div", { class: "phase", text: PHASES[run.phase] || run.phase }),
      el("div", { class: "muted", text: `Request ${run.request_id}` }));
    if (run.exit_code !== null && run.exit_code !== undefined) card.append(el("div", { text: `Exit code ${run.exit_code}` }));
    if (run.reason) card.append(el("div", { text: `Reason: ${run.reason}` }));
    if (run.message) card.append(el("div", { text: run.message }));
    for (const stream of ["stdout", "stderr"]) {
      if (run[stream]) card.append(el("pre", { text: String(run[stream]).slice(0, 100000) }));
    }
    box.append(card);
  }
}

// -- approval cards --------------------------------------------------------------------------------

function upsertApproval(record) {
  if (!record || typeof record.request_id !== "string") return;
  const id = record.request_id;
  let entry = approvals.get(id);
  if (!entry) {
    entry = { node: el("section", { class: "card approval", "data-request-id": id, "aria-label": "Approval request" }) };
    approvals.set(id, entry);
    $("messages").append(entry.node);
  }
  entry.record = record;
  drawApproval(entry);
  scrollDown();
}

function details(summary, ...children) {
  const node = el("details", {}, el("summary", { text: summary }), ...children);
  return node;
}

function drawApproval(entry) {
  const r = entry.record;
  const p = r.presentation || {};
  const open = new Set([...entry.node.querySelectorAll("details[open] > summary")].map((s) => s.textContent));
  const nodes = [
    el("h3", { text: `Approve running ${r.target || "main"}?` }),
    el("div", { class: "muted", text: `State: ${r.state} · Request ${r.request_id}` }),
  ];
  if (p.mock_notice) nodes.push(el("div", { class: "muted", text: p.mock_notice }));
  if (p.undeclared_notice) nodes.push(el("div", { class: "muted", text: p.undeclared_notice }));
  const limits = el("div", { class: "limits" }, el("h4", { text: "Verified limits" }));
  for (const c of p.contracts || []) {
    const lib = c.library;
    const badge = lib && lib.mock === "mock" ? " 🧪 Mock" : lib && lib.mock === "mixed" ? " 🧪 Mixed" : "";
    const item = el("div", { class: "limit" },
      el("div", { text: lib ? `${lib.title}${badge}` : "Unknown library" }),
      el("code", { text: c.call || c.expression }),
      c.description ? el("div", { text: c.description }) : null,
      el("div", { class: "muted", text: c.identity ? `Resolved contract: ${c.identity.symbol}` : "Resolved identity not recorded." }));
    if (c.identity) {
      const id = c.identity;
      item.append(details("Source and documentation",
        el("div", { text: `Source: ${id.source_file}:${id.source_line}` }),
        el("div", { text: `Source SHA-256: ${id.source_sha256}` }),
        el("div", { text: `Origin: ${id.origin || "authored"} · Revision: ${id.revision || "none"}` }),
        c.documentation ? el("pre", { text: c.documentation }) : null));
    }
    limits.append(item);
  }
  nodes.push(limits);
  for (const cov of p.coverage || []) nodes.push(el("div", { class: `coverage-${cov.colour}`, text: `${cov.domain}: ${cov.label}` }));
  if (p.coverage_note) nodes.push(el("div", { class: "muted", text: p.coverage_note }));
  const ex = p.execution || {};
  nodes.push(el("div", { class: "muted", text: `Timeout ${ex.timeout_seconds}s · Sandbox: ${ex.sandbox}` }));
  nodes.push(details("Program source", el("pre", { text: r.program || "" })));
  nodes.push(details("Proof results", ...(p.proofs || []).map((pr) => el("div", { text: `${pr.name}: ${pr.conclusion}` }))));
  if (r.state === "pending") {
    const note = el("textarea", { rows: 2, "aria-label": "Feedback for the agent (optional)" });
    note.value = feedback.get(r.request_id) || "";
    note.addEventListener("input", () => feedback.set(r.request_id, note.value));
    const buttons = el("div", { class: "decisions" }, note);
    const eligible = r.profile && r.profile.eligible;
    for (const [label, body] of eligible ? [...DECISIONS, ...REMEMBER] : DECISIONS) {
      buttons.append(el("button", { type: "button", class: label === "Approve" ? "primary" : "", text: label,
        onclick: () => decide(r.request_id, body) }));
    }
    if (!eligible && r.profile && r.profile.reason) buttons.append(el("div", { class: "muted", text: r.profile.reason }));
    nodes.push(buttons);
  } else {
    const decided = r.decision ? `Decision: ${r.decision}` : `This action is no longer running (${r.cancel_reason || r.state}).`;
    nodes.push(el("div", { class: "phase", text: decided }));
    if (r.feedback) nodes.push(el("div", { text: `Feedback: ${r.feedback}` }));
  }
  entry.status = entry.status || el("div", { class: "muted", "aria-live": "polite" });
  nodes.push(entry.status);
  entry.node.replaceChildren(...nodes);
  for (const d of entry.node.querySelectorAll("details")) if (open.has(d.querySelector("summary").textContent)) d.open = true;
  refreshButtons(r.request_id);
}

function refreshButtons(id) {
  const entry = approvals.get(id);
  if (!entry) return;
  const stopped = state && (state.agent_status === "stopped" || state.agent_status === "unavailable");
  for (const b of entry.node.querySelectorAll(".decisions button")) b.disabled = inflight.has(id) || entry.record.state !== "pending" || stopped;
}

async function decide(id, body) {
  const entry = approvals.get(id);
  inflight.add(id);
  entry.status.textContent = "Saving decision…";
  refreshButtons(id);
  const text = feedback.get(id);
  const payload = text ? { ...body, feedback: text } : body;
  try {
    const response = await fetch(`/api/requests/${encodeURIComponent(id)}/decision`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(payload), credentials: "same-origin",
    });
    const data = await response.json().catch(() => ({}));
    if (response.ok) { entry.status.textContent = "Decision saved."; upsertApproval(data); }
    else entry.status.textContent = (data.error && data.error.message) || "The decision was not saved.";
  } catch {
    entry.status.textContent = "The decision was not saved.";
  } finally {
    inflight.delete(id);
    refreshButtons(id);
  }
}

// -- composer, drafts, starters ----------------------------------------------------------------------

function draftKey() { return state ? `clauz3-draft:${state.project}:${state.conversation_id}` : null; }
let draftRestoredFor = null;
function restoreDraft() {
  const key = draftKey();
  if (!key || draftRestoredFor === key) return;
  draftRestoredFor = key;
  const saved = sessionStorage.getItem(key);
  if (saved !== null && !$("message").value) $("message").value = saved;
  updateControls();
}
function clearDraftIf(text) {
  const key = draftKey();
  if (key && sessionStorage.getItem(key) === text) sessionStorage.removeItem(key);
}

async function loadStarters() {
  try {
    const response = await fetch("/api/workspaces", { credentials: "same-origin" });
    if (!response.ok) return;
    const data = await response.json();
    const current = data.current && data.current.tutorial;
    const tutorial = (data.tutorials || []).find((t) => t.id === current);
    if (!tutorial) return;
    $("tutorial-title").textContent = `${tutorial.name} tutorial`;
    const box = $("starters");
    box.replaceChildren();
    for (const starter of tutorial.starters || []) {
      box.append(el("button", { type: "button", text: starter.label, onclick: () => {
        $("message").value = starter.text;  // fills, never sends (05 TUT-7)
        $("message").dispatchEvent(new Event("input"));
        $("message").focus();
      } }));
    }
    $("tutorial-panel").hidden = false;
  } catch { /* the welcome screen still works without starters */ }
}

function submit(event) {
  if (event) event.preventDefault();
  if ($("send").disabled || !state) return;
  const text = $("message").value;
  send("session/prompt", { conversation_id: state.conversation_id, prompt: text });
  $("message").value = "";
  updateControls();
}

function init() {
  $("composer").addEventListener("submit", submit);
  $("message").addEventListener("input", () => {
    const key = draftKey();
    if (key) sessionStorage.setItem(key, $("message").value);
    updateControls();
  });
  $("message").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) submit(event);
  });
  $("stop").addEventListener("click", () => send("session/cancel", {}));
  $("new-conversation").addEventListener("click", () => send("clauz3/new", {}));
  loadStarters();
  connect();
}

init();
