// The decision row of an approval card (issue 12): Approve and Reject up front, every other decision
// under one "More" with a line on what it does; Need more info needs a question; keyboard keys shown
// on the buttons (A approve, R reject, M more) and active while focus is in the row.

import { button, el } from "./dom.js";
import { emit } from "./state.js";

const MORE = [
  ["Reject contract", { decision: "rejected_contract" }, "The guarantees are wrong: the agent is told to propose different ones."],
  ["Need more info", { decision: "request_more" }, "Nothing runs; your question (type it above first) goes to the agent."],
];
const REMEMBER = [
  ["Approve and remember", { decision: "approved_remember" }, "Approve, and from now on run programs whose guarantees are at least as strict without asking (you confirm the scope next)."],
  ["Reject and remember", { decision: "rejected", remember: true }, "Reject, and from now on reject programs with exactly these guarantees without asking (you confirm the scope next)."],
];

function keyed(label, key, onclick, attrs) {
  const node = button(label, onclick, { ...attrs, "aria-keyshortcuts": key, title: `${label} (${key})` });
  node.append(el("kbd", { "aria-hidden": "true", text: key }));
  return node;
}

function guarded(card, body) {
  if (body.decision !== "request_more") return card.decide(body);
  if (card.feedback.value.trim()) return card.decide(body);
  // The box is needed now, so it stops saying "(optional)"; the error is its description (issue 22).
  const label = "Your question for the agent (needed for Need more info)";
  card.feedbackLabel.textContent = label;
  card.feedback.setAttribute("aria-label", label);
  card.feedback.setAttribute("placeholder", "Your question for the agent");
  card.feedbackError.textContent = "Type your question for the agent here first — Need more info sends it.";
  card.feedbackError.hidden = false;
  card.feedback.setAttribute("aria-describedby", card.feedbackError.id);
  card.feedback.setAttribute("aria-invalid", "true");
  card.feedback.focus();
  card.feedback.addEventListener("input", () => {
    card.feedbackError.hidden = true;
    card.feedback.removeAttribute("aria-invalid");
  }, { once: true });
  return undefined;
}

// `card` is the RunCard: this row uses its decide(body), feedback textarea and status line.
export function decisionRow(card, eligible, reason) {
  const approve = keyed("Approve", "A", () => card.decide({ decision: "approved_once" }), { class: "primary" });
  const reject = keyed("Reject", "R", () => card.decide({ decision: "rejected" }), { class: "danger" });
  const panel = el("div", { class: "more-decisions", hidden: true });
  const more = keyed("More", "M", () => {
    panel.hidden = !panel.hidden;
    more.setAttribute("aria-expanded", String(!panel.hidden));
    if (!panel.hidden) { const first = panel.querySelector("button"); if (first) first.focus(); }
  }, { class: "more-toggle", "aria-expanded": "false" });
  const entries = [...MORE, ...(eligible ? REMEMBER : [])];
  panel.append(...entries.map(([label, body, what]) => el("div", { class: "more-entry" },
    button(label, () => guarded(card, body)), el("span", { class: "muted", text: what }))));
  if (!eligible) panel.append(el("div", { class: "muted ineligible", text: reason || "This decision can't be remembered." }));
  // Esc closes More and gives the focus back to its button (issue 22).
  panel.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || panel.hidden) return;
    event.preventDefault();
    event.stopPropagation();
    panel.hidden = true;
    more.setAttribute("aria-expanded", "false");
    more.focus();
  });
  const row = el("div", { class: "decision-main" }, approve, reject, more);
  row.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = { a: approve, r: reject, m: more }[event.key.toLowerCase()];
    if (event.key === "Escape" && !panel.hidden) { event.preventDefault(); panel.hidden = true; more.setAttribute("aria-expanded", "false"); return; }
    if (!target || target.disabled) return;
    event.preventDefault();
    target.click();
  });
  card.feedback.addEventListener("input", () => card.feedback.removeAttribute("aria-invalid"), { once: true });
  return [row, panel];
}

// An expired request offers "Ask again" (issue 12): the composer gets a message asking the agent to
// submit the same program again — the person sees it and sends it; a new request gets a new card.
export function askAgain(record) {
  const program = typeof record.program === "string" ? record.program : "";
  const text = program
    ? `Run this program:\n\`\`\`python\n${program.replace(/\n$/, "")}\n\`\`\`\n`
    : "The approval request expired before I decided. Please submit the same program again.";
  return el("div", { class: "ask-again" }, button("Ask again", () => emit("fill-composer", text)),
    el("span", { class: "muted", text: " Puts a message in the box that asks the agent to submit it again." }));
}
