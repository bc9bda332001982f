// The decision comes to the person (issue 12): a pending approval card scrolls into view and its
// primary button takes focus, once per request per page load (so also after a reload), and the tab
// title says a decision is waiting. The card itself is drawn by cards.js; this only looks at it.

import { on, store } from "./state.js";

const brought = new Set();  // request ids whose card was already brought to the person on this page

// Pending requests of the conversation on screen, oldest first (the first one is the one to decide).
export function pendingHere() {
  const current = store.state && store.state.conversation_id;
  return [...store.approvals.values()]
    .filter((r) => r.state === "pending" && (!r.conversation_id || r.conversation_id === current))
    .sort((a, b) => String(a.created_at || "").localeCompare(String(b.created_at || "")));
}

export function pageTitle(title) {
  const n = pendingHere().length;
  const base = `${title || "clauz3"} · clauz3`;
  return n ? `(${n}) Decision waiting — ${base}` : base;
}

function typing() {
  // A person typing a message keeps the caret: the card still scrolls into view, focus stays.
  const active = document.activeElement;
  return Boolean(active && (active.tagName === "TEXTAREA" || active.tagName === "INPUT") && active.value && active.value.trim());
}

function bring() {
  const chat = document.getElementById("view-chat");
  if (!chat || chat.hidden) return;  // another view is open: bring the card when the chat is shown
  for (const record of pendingHere()) {
    if (brought.has(record.request_id)) continue;
    const node = document.querySelector(`section.card.run[data-request-id="${CSS.escape(record.request_id)}"]`);
    const primary = node && node.querySelector(".decisions button.primary");
    if (!primary || primary.disabled || !primary.isConnected) continue;
    brought.add(record.request_id);
    // The card's top (its summary) first; if the card is taller than the window, its buttons win.
    node.scrollIntoView({ block: "start", behavior: "auto" });
    primary.scrollIntoView({ block: "nearest", behavior: "auto" });
    if (!typing()) primary.focus({ preventScroll: true });
    return;  // one card at a time: the oldest waiting decision
  }
}

function refresh() {
  if (store.state) document.title = pageTitle(store.state.title);
  // After the card has drawn its buttons (cards.js draws them before emitting approvals-changed;
  // the frame lets the transcript place the card first).
  requestAnimationFrame(bring);
}

export function init() {
  on("approvals-changed", refresh);
  on("state", refresh);
  on("view-shown", refresh);
}
