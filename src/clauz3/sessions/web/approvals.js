// The Approvals view (/ui/profile; 02 UI-26, 03 §9.6): remembered rules with `Disable rule`,
// the decision history with search and `Remember this decision` (00 DEC-10), empty states.

import { api } from "./api.js";
import { $, button, el, formatTime, statusNote } from "./dom.js";
import { DECISION_LABELS } from "./cards.js";

const REMEMBERABLE = new Set(["approved_once", "approved_remember", "rejected", "rejected_contract"]);
let data = null;
let error = null;
let search = "";
let message = null;

async function load() {
  const result = await api("/api/profile?limit=500");
  data = result.ok ? result.data : null;
  error = result.ok ? null : result.status === 404 ? "Remembered approvals are off for this workspace." : result.message;
}

function summary(record) {
  const r = record || {};
  const guarantees = Array.isArray(r.guarantees) ? r.guarantees.join(", ") : "";
  const contracts = r.presentation && Array.isArray(r.presentation.contracts) ? r.presentation.contracts.map((c) => c.call || c.expression).join(", ") : "";
  return { target: r.target || "main", limits: contracts || guarantees };
}

function draw() {
  const body = $("view-approvals").querySelector(".view-body");
  const nodes = [el("h2", { text: "Approvals" })];
  if (message) nodes.push(message);
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
        el("div", { text: `Runs ${s.target}${s.limits ? ` with ${s.limits}` : ""}` }),
        el("div", { class: "muted mono", text: `Signature ${String(rule.signature).slice(0, 16)}…` }));
      if (rule.enabled) item.append(button("Disable rule", () => disable(rule.id)));
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
      else if (h.signature && h.decided_by === "human" && REMEMBERABLE.has(h.decision)) item.append(button("Remember this decision", () => remember(h.id)));
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

const remember = (historyId) => act("/api/profile/remember", { history_id: historyId }, "Decision remembered.");
const disable = (ruleId) => act("/api/profile/disable", { rule_id: ruleId }, "Rule disabled.");

export async function show() {
  message = null;
  draw();
  await load();
  draw();
}
