// Shared page state and a tiny event bus. Modules subscribe to what they draw; nothing re-renders
// the whole page on a change.

import { FINAL } from "./constants.js";

export const store = {
  state: null,          // the last State object (02 §4.6)
  connected: false,
  conversations: [],    // sidebar list (clauz3/conversations or GET /api/chat/conversations)
  workspaces: null,     // GET /api/workspaces
  libraries: null,      // GET /api/workspace/libraries (null until loaded or when missing)
  approvals: new Map(), // request_id → approval record (pushed by the host)
  pendingCount: 0,
};

const listeners = new Map();

export function on(event, fn) {
  if (!listeners.has(event)) listeners.set(event, new Set());
  listeners.get(event).add(fn);
}

export function emit(event, data) {
  for (const fn of listeners.get(event) || []) {
    try { fn(data); } catch (error) { console.error(error); }
  }
}

export { FINAL };  // final run phases, served by the workspace (constants.js)

export function runActive() {
  return Boolean(store.state && (store.state.runs || []).some((r) => !FINAL.has(r.phase)));
}

export function idle() {
  const s = store.state;
  if (!s) return false;
  return !["starting", "busy", "cancelling"].includes(s.agent_status) && !runActive() && !s.operation;
}
