// The page's one WebSocket (02 §4.1): reconnect schedule, close codes and the command sender.

import { SIGN_IN, pageSecret } from "./api.js";
import { emit, store } from "./state.js";

let socket = null;
let retry = 0;
let stopped = false;
const DELAYS = [1000, 2000, 4000, 8000];

export function connect(takeover = false) {
  stopped = false;
  const url = `ws://${location.host}/api/chat/acp${takeover ? "?takeover=1" : ""}`;
  const ws = new WebSocket(url);
  socket = ws;
  emit("status", retry ? "Reconnecting…" : "Connecting…");
  ws.addEventListener("open", () => {
    // The page secret goes in the first frame, never in the URL (issue 19); without it the service closes 1008.
    ws.send(JSON.stringify({ method: "clauz3/hello", params: { page: pageSecret() } }));
    retry = 0;
    store.connected = true;
    emit("connection", true);
  });
  ws.addEventListener("message", (event) => {
    let frame;
    try { frame = JSON.parse(event.data); } catch { return; }
    if (frame && typeof frame.method === "string") emit("frame", frame);
  });
  ws.addEventListener("close", (event) => {
    if (socket !== ws) return;
    socket = null;
    store.connected = false;
    emit("connection", false);
    closed(event.code, event.reason);
  });
}

function closed(code, reason) {
  if (code === 1008) {
    stopped = true;
    emit("banner", { text: SIGN_IN });
    return;
  }
  if (code === 1013) {
    stopped = true;
    emit("banner", { text: "This workspace is open in another tab.", action: "Use here", run: () => { emit("banner", null); connect(true); } });
    return;
  }
  if (code === 1003 || code === 1009) emit("notice", { level: "error", code: "closed", text: reason || "The connection was closed." });
  if (stopped) return;
  const wait = retry < DELAYS.length ? DELAYS[retry] : 10000;
  retry += 1;
  emit("status", "Reconnecting…");
  setTimeout(() => { if (!stopped && !socket) connect(); }, wait);
}

export function send(method, params = {}) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ method, params }));
    return true;
  }
  emit("notice", { level: "error", code: "offline", text: "Not connected to the workspace; reconnecting." });
  return false;
}

// The page is about to navigate away (workspace switch): no reconnect from this document.
export function shutdown() {
  stopped = true;
  if (socket) socket.close(1000);
}
