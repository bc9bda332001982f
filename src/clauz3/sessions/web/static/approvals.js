// The Approvals view (/ui/profile; 02 UI-26, 03 §9.6): requests waiting for a decision first, then
// remembered rules as sentences with Disable / Enable, the decision history with search and
// `Remember this decision` (00 DEC-10), which states the rule's scope and asks first (issue 12).

import { api } from "./api.js";
import { planSentence } from "./cardview.js";
import { $, button, el, formatTime, statusNote } from "./dom.js";
import { cardName, DECISION_LABELS, rememberScope } from "./cards.js";
import { modal } from "./dialogs.js";
import { store } from "./state.js";
import { send } from "./ws.js";

const REMEMBERABLE = new Set(["approved_once", "approved_remember", "rejected", "rejected_contract"]);
const APPROVING = new Set(["approved_once", "approved_remember"]);
let data = null;
let pending = [];
let error = null;
let search = "";
let message = null;

async function load() {
  const [result, waiting] = await Promise.all([api("/api/profile?limit=500"), api("/api/requests?state=pending&limit=500")]);
  data = result.ok ? result.data : null;
  error = result.ok ? null : result.status === 404 ? "Remembered approvals are off for this workspace." : result.message;
  const generation = store.state && store.state.generation;
  pending = waiting.ok ? (waiting.data.requests || []).filter((r) => !generation || !r.workspace_generation || r.workspace_generation === generation) : [];
}

function cardSummary(record) {
  return ((record && record.presentation) || {}).summary || {};
}

function summary(record) {
  const r = record || {};
  const s = cardSummary(r);
  if (Array.isArray(s.guarantees) && s.guarantees.length) {
    // Mid-sentence, so each guarantee sentence loses its capital and full stop ("… — every email goes to …").
    const texts = s.guarantees.map((g) => String(g.text).replace(/\.$/, "")).map((t) => t.charAt(0).toLowerCase() + t.slice(1));
    return { target: r.target || "main", limits: texts.join("; ") };
  }
  const guarantees = Array.isArray(r.guarantees) ? r.guarantees.join(", ") : "";
  const contracts = r.presentation && Array.isArray(r.presentation.contracts) ? r.presentation.contracts.map((c) => c.call || c.expression).join(", ") : "";
  return { target: r.target || "main", limits: contracts || guarantees };
}

// What a rule does, as one sentence ("Runs without asking: programs that …"): an approval reaches every
// program proved at least as strict, a rejection only these exact guarantees (issue 12).
function ruleSentence(rule, record) {
  const s = summary(record);
  if (rule.effect === "allow") {
    return s.limits ? `Runs without asking: programs whose guarantees are at least as strict as — ${s.limits}.` : "Runs without asking: programs like this one.";
  }
  return s.limits ? `Rejects without asking: programs whose guarantees are exactly — ${s.limits}.` : "Rejects without asking: programs with this exact contract.";
}

function planLine(record) {
  return planSentence(cardSummary(record)) || `Run ${(record && record.target) || "main"}`;
}

function openRequest(record) {
  const current = store.state && store.state.conversation_id;
  if (record.conversation_id && record.conversation_id !== current) send("clauz3/select", { id: record.conversation_id });
  history.pushState({}, "", "/ui");
  window.dispatchEvent(new PopStateEvent("popstate"));
}

function pendingSection() {
  const nodes = [el("h3", { text: "Waiting for your decision" })];
  if (!pending.length) {
    nodes.push(el("p", { class: "muted", text: "Nothing is waiting for a decision." }));
    return nodes;
  }
  const titles = new Map((store.conversations || []).map((c) => [c.id, c.title]));
  // Each waiting request is named like its card in the chat, by its program (issue 15).
  nodes.push(el("ul", { class: "pending-requests" }, ...pending.map((r) => el("li", { class: "card pending-request", "aria-label": cardName(null, r) },
    el("div", {}, el("strong", { text: planLine(r) })),
    el("div", { class: "muted", text: `${titles.get(r.conversation_id) || "A conversation"} · asked ${formatTime(r.created_at)}` }),
    button("Open to decide", () => openRequest(r), { class: "primary" })))));
  return nodes;
}

function draw() {
  const body = $("view-approvals").querySelector(".view-body");
  const nodes = [el("h2", { text: "Approvals" })];
  if (message) nodes.push(message);
  nodes.push(...pendingSection());
  if (!data) {
    nodes.push(el("div", { class: "notice error", role: "note", text: error || "Loading…" }));
    body.replaceChildren(...nodes);
    return;
  }
  const rules = data.rules || [];
  const history = data.history || [];
  const byHistory = new Map(history.map((h) => [h.id, h]));
  nodes.push(el("h3", { text: "Remembered decisions" }));
  if (!rules.length) nodes.push(el("p", { class: "muted", text: "No remembered decisions yet. Use Approve and remember or Reject and remember on an approval card." }));
  else {
    nodes.push(el("ul", { class: "rules" }, ...rules.map((rule) => {
      const h = byHistory.get(rule.history_id);
      const s = summary(h && h.record);
      const item = el("li", { class: "card rule" + (rule.enabled ? "" : " disabled") },
        el("div", { class: "rule-head" }, el("strong", { text: rule.effect === "allow" ? "Always approve" : "Always reject" }),
          el("span", { class: "muted", text: ` · ${rule.enabled ? "active" : "disabled"} · ${formatTime(rule.created)}` })),
        el("div", { class: "rule-text", text: ruleSentence(rule, h && h.record) }),
        // Which effects an approval covers, in words (issue 19).
        ...(rule.effect === "allow" && cardSummary(h && h.record).covers ? [el("div", { class: "rule-covers", text: cardSummary(h.record).covers })] : []),
        el("div", { class: "muted", text: `Program ${s.target}` }));
      if (rule.enabled) item.append(button("Disable rule", () => disable(rule.id)));
      // Remembering the same decision again re-enables the same rule (03 PRO-11).
      else if (h) item.append(button("Enable rule", () => act("/api/profile/remember", { history_id: h.id }, "Rule enabled.")));
      return item;
    })));
  }
  nodes.push(el("h3", { text: "Decision history" }));
  const searchBox = el("input", { type: "search", "aria-label": "Search decisions", placeholder: "Search decisions", value: search });
  const list = el("ul", { class: "decision-history" });
  searchBox.addEventListener("input", () => { search = searchBox.value; drawHistory(); });
  nodes.push(searchBox, list);
  body.replaceChildren(...nodes);
  drawHistory();

  function drawHistory() {
    const q = search.trim().toLowerCase();
    const rows = history.filter((h) => {
      if (!q) return true;
      const s = summary(h.record);
      return `${s.target} ${s.limits} ${h.decision || ""} ${DECISION_LABELS[h.decision] || ""} ${(h.record && h.record.program) || ""}`.toLowerCase().includes(q);
    });
    if (!history.length) { list.replaceChildren(el("li", { class: "muted", text: "No decisions yet." })); return; }
    if (!rows.length) { list.replaceChildren(el("li", { class: "muted", text: "No matching decisions." })); return; }
    const active = new Set(rules.filter((r) => r.enabled).map((r) => r.history_id));
    list.replaceChildren(...rows.map((h) => {
      const s = summary(h.record);
      const item = el("li", { class: "card history-item" },
        el("div", {}, el("strong", { text: DECISION_LABELS[h.decision] || h.decision || "No decision" }),
          el("span", { class: "muted", text: ` · ${formatTime(h.created)}${h.decided_by && h.decided_by !== "human" ? ` · by ${h.decided_by}` : ""}` })),
        el("div", { text: `Runs ${s.target}${s.limits ? ` with ${s.limits}` : ""}` }));
      if (h.record && h.record.request_id) item.append(el("div", { class: "muted mono", text: h.record.request_id }));
      if (active.has(h.id)) item.append(el("div", { class: "muted", text: "Remembered" }));
      else if (h.signature && h.decided_by === "human" && REMEMBERABLE.has(h.decision)) item.append(button("Remember this decision", () => remember(h)));
      return item;
    }));
  }
}

async function act(path, body, done) {
  const result = await api(path, { method: "POST", body });
  message = statusNote(result.ok ? done : result.message, !result.ok);
  await load();
  draw();
}

// Remember states its scope and asks, in the card's own words (issue 12).
async function remember(h) {
  const s = cardSummary(h.record);
  const approve = APPROVING.has(h.decision);
  const said = rememberScope(s, approve);
  const choice = await modal({
    title: approve ? "Always approve programs like this?" : "Always reject programs like this?",
    body: [said, el("p", { class: "muted", text: "You can disable the rule later here." })],
    actions: [{ id: "yes", label: approve ? "Remember: always approve" : "Remember: always reject", primary: approve, danger: !approve }],
  });
  if (choice === "yes") await act("/api/profile/remember", { history_id: h.id }, "Decision remembered.");
}
const disable = (ruleId) => act("/api/profile/disable", { rule_id: ruleId }, "Rule disabled.");

export async function show() {
  message = null;
  draw();
  await load();
  draw();
}
