// The transcript (02 UI-15, UI-16): user bubbles, streamed assistant Markdown, plans, tool-call
// cards, library markers and retained notices. Streaming is linear: chunks are queued and
// flushed once per animation frame into the message's MarkdownStream; a restore rebuilds the
// DOM once, concatenating consecutive chunks before parsing.

import * as cards from "./cards.js";
import { ROW_LABELS as RUN_STATUS } from "./constants.js";
import { $, copyButton, disclosure, el } from "./dom.js";
import { MarkdownStream } from "./markdown.js";
import { emit, FINAL, store } from "./state.js";

const RETAINED = new Set(["agent_stopped", "agent_exited", "permission_refused", "no_response"]);
const CLAUZ3_TOOLS = {
  tools: "Find tools", libraries: "Browse libraries", list_skills: "Browse guides", read_skill: "Read guide",
  run: "Run program", status: "Check runs",
};
const TOOL_STATUS = { pending: "Waiting", in_progress: "Working…", completed: "Done", failed: "Failed" };

let turns = new Map();      // turn number → container element
let currentTurn = 0;
let message = null;         // {node, stream, pending: [], unsaved}
let tools = new Map();      // "turn:tool-call id" → ToolCard (an agent restarted by a resume may reuse ids)
let slots = new Map();      // request_id → the run card's place, right after its `run` tool row
let plans = new Map();      // turn → plan list element
let flushScheduled = false;
let live = false;

const scroller = () => $("conversation");

function nearBottom() {
  const area = scroller();
  return area.scrollHeight - area.scrollTop - area.clientHeight < 180;
}

function stickToBottom(wasNear) {
  if (wasNear) { const area = scroller(); area.scrollTop = area.scrollHeight; }
}

export function turnContainer(turn) {
  const n = Number.isInteger(turn) && turn >= 0 ? turn : currentTurn;
  let node = turns.get(n);
  if (!node) {
    node = el("div", { class: "turn", "data-turn": String(n) });
    // Keep turns in order even when a run record names an older turn.
    const later = [...turns.entries()].filter(([k]) => k > n).sort((a, b) => a[0] - b[0])[0];
    if (later) $("messages").insertBefore(node, later[1]); else $("messages").append(node);
    turns.set(n, node);
  }
  return node;
}

// Where a run card goes: right after the tool row of the `run` call that made it, so the live page,
// a reload and a second tab show the same order (the agent's reply after the card, never above it);
// before that row names the request, at the end of the run's turn.
export function runPlace(turn, requestId) {
  return slots.get(requestId) || turnContainer(turn);
}

function runSlot(requestId, after) {
  let slot = slots.get(requestId);
  if (!slot) {
    slot = el("div", { class: "run-slot", "data-run-slot": requestId });
    after.after(slot);
    slots.set(requestId, slot);
  }
  // A card drawn before its row named the request moves into place (DOM moves keep its state).
  const made = [...$("messages").querySelectorAll("section.card.run")].find((n) => n.dataset.requestId === requestId);
  if (made && made.parentNode !== slot) slot.append(made);
}

export function reset() {
  $("messages").replaceChildren();
  turns = new Map();
  tools = new Map();
  slots = new Map();
  plans = new Map();
  message = null;
  currentTurn = 0;
  cards.reset();
}

// -- streaming text --------------------------------------------------------------------------------

function endMessage() {
  flushText();
  if (message) message.stream.end();
  message = null;
}

function flushText() {
  flushScheduled = false;
  if (!message || !message.pending.length) return;
  const text = message.pending.length === 1 ? message.pending[0] : message.pending.join("");
  message.pending = [];
  const wasNear = live && nearBottom();
  message.stream.push(text);
  if (live) stickToBottom(wasNear);
}

function scheduleFlush() {
  if (flushScheduled) return;
  flushScheduled = true;
  requestAnimationFrame(flushText);
}

function agentText(text, unsaved) {
  if (!message) {
    const body = el("div", { class: "md" });
    const node = el("div", { class: "bubble assistant" + (unsaved ? " unsaved" : "") }, body);
    const stream = new MarkdownStream(body);
    node.append(el("div", { class: "message-tools" }, copyButton("Copy response", () => stream.text())));
    turnContainer(currentTurn).append(node);
    message = { node, stream, pending: [] };
  }
  message.pending.push(text);
  if (live) scheduleFlush();
}

// -- frames ------------------------------------------------------------------------------------------

export function restore(history) {
  live = false;
  reset();
  for (const frame of history || []) render(frame);
  flushText();  // the last message stays open: its turn may still be streaming
  live = true;
}

export function renderLive(frame) {
  live = true;
  render(frame);
}

function render(frame) {
  const params = frame.params || {};
  const unsaved = frame.unsaved === true;
  switch (frame.method) {
    case "clauz3/user": {
      endMessage();
      currentTurn = Number.isInteger(params.turn) ? params.turn : currentTurn + 1;
      const container = turnContainer(currentTurn);
      const text = String(params.text ?? "");
      const bubble = el("div", { class: "bubble user" + (unsaved ? " unsaved" : "") }, el("div", { class: "user-text", text }));
      const chips = (params.attachments || []).map((a) => el("span", { class: "chip", title: a.mime_type || "" }, `${a.name}`));
      if (chips.length) bubble.append(el("div", { class: "chips" }, ...chips));
      bubble.append(el("div", { class: "message-tools" }, copyButton("Copy message", () => text)));
      container.append(bubble);
      if (live) { emit("user-echo", text); stickToBottom(true); }
      break;
    }
    case "clauz3/agent":
      if (params.v === 1) agentUpdate(params, unsaved);
      break;
    case "clauz3/turn_end": {
      endMessage();
      const container = turnContainer(Number.isInteger(params.turn) ? params.turn : currentTurn);
      if (params.stop_reason === "error") container.append(el("div", { class: "notice error", text: params.error || "The turn ended with an error." }));
      else if (params.stop_reason === "cancelled") container.append(el("div", { class: "turn-note", text: params.forced ? "Stopped (forced)" : "Stopped" }));
      else if (params.stop_reason && params.stop_reason !== "end_turn") container.append(el("div", { class: "turn-note", text: `Turn ended: ${params.stop_reason}` }));
      break;
    }
    case "clauz3/notice":
      if (!live || RETAINED.has(params.code)) {
        endMessage();
        turnContainer(currentTurn).append(el("div", { class: `notice ${params.level || "info"}`, text: params.text || "" }));
      } else emit("notice", params);
      break;
    case "clauz3/libraries_changed": {
      endMessage();
      const parts = [];
      if ((params.added || []).length) parts.push(`+ ${params.added.join(", ")}`);
      if ((params.removed || []).length) parts.push(`− ${params.removed.join(", ")}`);
      if (params.updated) parts.push("library files updated");
      if (params.paused) parts.push("automatic approvals paused");
      turnContainer(currentTurn).append(el("div", { class: "marker", text: `Libraries changed: ${parts.join(" · ")}` }));
      break;
    }
    default:
      break;
  }
  if (live) stickToBottom(nearBottom());
}

// The server's own small JSON for an agent update (built at the web edge, version 1): text, a
// tool row, a plan, or another kind that is stored but not rendered (UI-16).
function agentUpdate(u, unsaved) {
  if (u.kind === "text") {
    if (typeof u.text === "string") agentText(u.text, unsaved);
    return;
  }
  if (u.kind === "tool") {
    if (typeof u.id !== "string") return;
    endMessage();
    // Issue 22: tool-call ids are unique only within one agent process; after `clauz3 resume` the demo
    // (or any agent) may send "run-2" again, and merging it into the older turn's row would draw the new
    // run's card under the previous prompt. A tool row belongs to the turn it arrived in.
    const key = `${currentTurn}:${u.id}`;
    let card = tools.get(key);
    if (!card) {
      card = new ToolCard(u.id);
      tools.set(key, card);
      turnContainer(currentTurn).append(card.node);
    }
    card.merge(u);
    return;
  }
  if (u.kind === "plan") {
    endMessage();
    const entries = Array.isArray(u.entries) ? u.entries : [];
    let list = plans.get(currentTurn);
    if (!list) {
      list = el("ol", { class: "plan", "aria-label": "Plan" });
      plans.set(currentTurn, list);
      turnContainer(currentTurn).append(list);
    }
    list.replaceChildren(...entries.map((e) => el("li", { class: `plan-${e.status || "pending"}`, text: `${e.content ?? ""}${e.status ? ` — ${e.status.replace("_", " ")}` : ""}` })));
  }
}

class ToolCard {
  constructor(id) {
    this.id = id;
    this.data = { id };
    this.open = new Set();
    this.title = el("span", { class: "tool-title" });
    this.badge = el("span", { class: "badge native", text: "Native tool", hidden: true });
    this.status = el("span", { class: "tool-status" });
    this.result = el("pre", { class: "tool-result" });
    this.raw = el("pre", { class: "raw" });
    this.resultBox = el("div", { class: "tool-result-box", hidden: true }, this.result, copyButton("Copy result", () => this.result.textContent));
    this.node = el("details", { class: "tool", "data-tool-call": id },
      el("summary", {}, this.title, " ", this.badge, " ", this.status),
      this.resultBox,
      disclosure("Raw tool data", this.open, "raw", this.raw));
    this.rawDetails = this.raw.parentElement;
    // Raw JSON is built only while its disclosure is open, so big outputs stay cheap.
    this.rawDetails.addEventListener("toggle", () => { if (this.rawDetails.open) this.fillRaw(); });
  }
  fillRaw() { this.raw.textContent = JSON.stringify(this.data, null, 2); }
  merge(u) {
    for (const [key, value] of Object.entries(u)) {
      if (key !== "v" && key !== "kind" && value !== undefined && value !== null) this.data[key] = value;
    }
    const tool = CLAUZ3_TOOLS[this.data.tool] ? this.data.tool : null;
    this.title.textContent = tool ? CLAUZ3_TOOLS[tool] : String(this.data.title || "Tool call");
    this.badge.hidden = Boolean(tool);
    const status = this.data.status || "pending";
    const out = this.data.output;
    // Issue 12: a run the prover or the person refused did not "finish": the row says Refused. Issue 22:
    // the row of a `run` call follows its run (a stopped run is Stopped, never a red Failed), and while
    // the run is under way the card below carries its one status, so the row says nothing of its own.
    const phase = tool === "run" && out && typeof out === "object" ? out.phase : null;
    // A `run` call that failed while its run was still under way was stopped before the run tool answered.
    const stopped = tool === "run" && (phase === "cancelled" || (status === "failed" && !FINAL.has(phase)));
    let said = TOOL_STATUS[status] || status;
    if (tool === "run") said = RUN_STATUS[phase] || (stopped ? "Stopped" : status === "completed" || status === "failed" ? said : "");
    this.status.textContent = said;
    this.node.dataset.status = stopped ? "cancelled" : status;
    const text = String(this.data.text || "");
    this.result.textContent = text;
    this.resultBox.hidden = !text;
    if (this.rawDetails.open) this.fillRaw();
    const output = this.data.output;
    const input = this.data.input;
    const named = output && typeof output === "object" && typeof output.request_id === "string" ? output.request_id
      : input && typeof input === "object" && typeof input.request_id === "string" ? input.request_id : null;
    if (tool === "run" && named && this.node.isConnected) runSlot(named, this.node);
    if (tool === "run" && output && typeof output === "object" && typeof output.request_id === "string") {
      cards.runOutput(output.request_id, output);
    }
  }
}
