// clauz3 workspace page: entry module. Wires the socket's frames to the views, the header, the
// notices and banners, client-side views (/ui, /ui/libraries, /ui/profile) and keyboard keys.
// Every piece of data is inserted with textContent / DOM construction only (02 UI-3).

import * as approvalsView from "./approvals.js";
import * as attention from "./attention.js";
import * as cards from "./cards.js";
import * as composer from "./composer.js";
import { ACTIVITY_LABELS as ACTIVITY } from "./constants.js";
import * as transcript from "./transcript.js";
import { closeMenu, fillMenu, openMenuAt } from "./dialogs.js";
import { $, button, el } from "./dom.js";
import * as files from "./files.js";
import * as librariesView from "./libraries.js";
import * as sidebar from "./sidebar.js";
import { emit, on, runActive, store } from "./state.js";
import { connect, send, shutdown } from "./ws.js";

const VIEWS = { "/ui": "chat", "/ui/libraries": "libraries", "/ui/profile": "approvals" };
const SUGGESTIONS = ["help", "show tools", "count to 20"];

// -- frames -------------------------------------------------------------------------------------------

on("frame", (frame) => {
  const params = frame.params || {};
  switch (frame.method) {
    case "clauz3/restore":
      transcript.restore(params.history);
      store.approvals.clear();
      setState(params.state);
      for (const record of params.approvals || []) cards.approval(record);
      break;
    case "clauz3/state": setState(params); break;
    case "clauz3/approval": cards.approval(params.record); break;
    case "clauz3/conversations": sidebar.setConversations(params.conversations); break;
    case "clauz3/workspace_changed":
      // WSP-7: a full navigation drops previews, timers and stale DOM, then reconnects.
      shutdown();
      location.assign("/ui");
      break;
    case "clauz3/confirm_workspace": sidebar.confirmWorkspace(params); break;
    case "clauz3/confirm_libraries": emit("confirm-libraries", params); break;
    case "clauz3/user":
      // The echo of a new turn goes out before the coalesced state frame that says the agent is busy
      // (frames first, state last): until that frame arrives, the page shows the turn as running, so
      // neither the status line nor Send reads "Ready" for a turn it has already drawn.
      if (store.state && params.conversation_id === store.state.conversation_id && Number.isInteger(params.turn)
          && params.turn > store.state.turn) {
        setState({ ...store.state, turn: params.turn, agent_status: "busy", activity: { kind: "agent" } });
      }
      transcript.renderLive(frame);
      break;
    default: transcript.renderLive(frame);
  }
});

function setState(next) {
  if (!next) return;
  const previous = store.state;
  store.state = next;
  if (previous && previous.conversation_id !== next.conversation_id) files.reload();
  drawHeader();
  drawWelcome();
  drawRecovery();
  cards.syncRuns(next.runs || []);  // also refreshes every card's buttons for the new agent status
  composer.update();
  emit("state", next);
  if (!previous || previous.turn !== next.turn || previous.generation !== next.generation) sidebar.refreshPendingCount();
}

// -- header, status, activity --------------------------------------------------------------------------

function statusText() {
  const s = store.state;
  if (!store.connected) return null;
  if (s.history_limited) return "Transcript storage full · start a new conversation";
  if (runActive() && s.activity && s.activity.phase === "awaiting_approval") return "Waiting for your approval";
  return {
    starting: `Starting ${s.agent_label}…`, ready: "Ready", busy: `${s.agent_label} is working…`, cancelling: "Stopping…",
    stopped: "Agent stopped · send a message to continue", unavailable: `${s.agent_label} unavailable`,
  }[s.agent_status] || s.agent_status;
}

function drawHeader() {
  const s = store.state;
  $("title").textContent = s.title;
  document.title = attention.pageTitle(s.title);
  $("agent-line").textContent = `${s.agent_label} · ${s.model}`;
  $("mode-badge").textContent = s.unrestricted ? "Unrestricted" : "Restricted";
  $("mode-badge").className = `badge ${s.unrestricted ? "unrestricted" : "restricted"}`;
  $("paused-pill").hidden = !s.approvals_paused;
  $("unrestricted-banner").hidden = !s.unrestricted;
  const text = statusText();
  if (text) $("status-text").textContent = text;
  const a = s.activity || { kind: "idle" };
  let label = "";
  if (s.agent_status === "cancelling") label = "Stopping…";
  else if (a.kind === "run") label = ACTIVITY[a.phase] || "";
  else if (a.kind === "agent") label = `${s.agent_label} is working…`;
  else if (s.agent_status === "starting") label = `Starting ${s.agent_label}…`;
  const activity = $("activity");
  if (activity.textContent !== label) activity.querySelector(".activity-text").textContent = label;
  activity.hidden = !label;
}

function drawRecovery() {
  const s = store.state;
  const box = $("recovery");
  const nodes = [];
  if (s.libraries_changed) {
    nodes.push(el("p", { text: "Libraries used here were changed or removed since the last run. The history stays readable; to go on, continue with the installed libraries or open a new conversation." }),
      el("div", { class: "row" }, button("Start new conversation", () => send("clauz3/new", { agent: s.agent })),
        button("Continue with current libraries", () => send("clauz3/libraries", { conversation_id: s.conversation_id, domains: s.libraries, confirm: true }), { class: "primary" })));
  } else if (s.resume_notice) {
    const text = s.resume_notice === "resume_failed"
      ? "Couldn't resume this conversation. Your transcript is saved; new messages start a fresh agent session."
      : `${s.agent_label} can't reload earlier conversations. The transcript stays visible; new messages start a fresh agent session without the earlier turns.`;
    nodes.push(el("p", { text }), el("div", { class: "row" }, button("Start new conversation", () => send("clauz3/new", { agent: s.agent }))));
  }
  if (s.error && s.agent_status === "unavailable") nodes.push(el("p", { class: "error-text", text: s.error }));
  if (s.error_detail && nodes.length) nodes.push(el("details", {}, el("summary", { text: "Technical details" }), el("pre", { text: s.error_detail })));
  const key = JSON.stringify([s.libraries_changed, s.resume_notice, s.error, s.error_detail, s.agent_status === "unavailable"]);
  if (box.dataset.key !== key) { box.dataset.key = key; box.replaceChildren(...nodes); }
  box.hidden = nodes.length === 0;
}

// -- welcome and tutorial panel ------------------------------------------------------------------------

function drawWelcome() {
  const s = store.state;
  const empty = s.turn === 0 && !$("messages").querySelector(".bubble, .card, .tool");
  $("welcome").hidden = !empty;
  const w = store.workspaces;
  const tutorialId = s.tutorial;
  $("try-tutorial").hidden = Boolean(tutorialId) || !w || w.switching === false;
  const panel = $("tutorial-panel");
  const tutorial = tutorialId && w ? (w.tutorials || []).find((t) => t.id === tutorialId) : null;
  panel.hidden = !tutorial;
  $("suggestions").hidden = Boolean(tutorial);
  $("tutorial-newer").hidden = !(tutorial && s.tutorial_newer === true);
  if (!tutorial || panel.dataset.id === tutorial.id) return;
  panel.dataset.id = tutorial.id;
  $("tutorial-title").textContent = `${tutorial.name} tutorial`;
  $("tutorial-description").textContent = tutorial.description ? `Try it: ${tutorial.description}.` : "";
  $("starters").replaceChildren(...(tutorial.starters || []).map((starter) => button(starter.label, () => composer.fill(starter.text))));
}

// -- notices, banners, toasts -----------------------------------------------------------------------------

on("notice", (params) => {
  const box = $("notices");
  const item = el("div", { class: `notice ${params.level || "info"}` }, el("span", { text: params.text || "" }));
  item.append(button("Dismiss", () => item.remove(), { class: "small dismiss", "aria-label": "Dismiss notice" }));
  box.append(item);
  while (box.children.length > 4) box.firstChild.remove();
  if (params.level !== "error") setTimeout(() => item.remove(), 15000);
});

on("banner", (banner) => {
  const box = $("banner");
  if (!banner) { box.hidden = true; box.replaceChildren(); return; }
  box.replaceChildren(el("span", { text: banner.text }));
  if (banner.action) box.append(" ", button(banner.action, banner.run, { class: "primary" }));
  box.hidden = false;
});

on("status", (text) => { $("status-text").textContent = text; });
on("connection", (up) => {
  if (up) emit("banner", null);
  if (store.state) { composer.update(); drawHeader(); }
  if (up) { sidebar.loadConversations(); }
});

let toastTimer = null;
on("toast", ({ text, detail }) => {
  const box = $("toast");
  box.replaceChildren(el("span", { text }));
  if (detail) box.append(el("div", { class: "muted", text: detail }));
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, detail ? 12000 : 3000);
});

// -- views ------------------------------------------------------------------------------------------------

function showView(path, push) {
  const view = VIEWS[path] || "chat";
  if (push && location.pathname !== path) history.pushState({}, "", path);
  for (const [id, name] of [["view-chat", "chat"], ["view-libraries", "libraries"], ["view-approvals", "approvals"]]) $(id).hidden = name !== view;
  for (const link of document.querySelectorAll("[data-view]")) {
    if (link.dataset.view === view) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
  if (view === "libraries") librariesView.show();
  if (view === "approvals") approvalsView.show();
  setSidebar(false);
  emit("view-shown", view);
}

document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("a[data-view]");
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  showView(new URL(link.href).pathname, true);
});
window.addEventListener("popstate", () => showView(location.pathname, false));

// -- sidebar on narrow screens ------------------------------------------------------------------------------

function setSidebar(open) {
  document.body.classList.toggle("sidebar-open", open);
  $("sidebar-toggle").setAttribute("aria-expanded", open ? "true" : "false");
}
on("close-sidebar", () => setSidebar(false));
on("open-sidebar", () => { if (window.matchMedia("(max-width: 900px)").matches) setSidebar(true); });

// -- keyboard ------------------------------------------------------------------------------------------------

document.addEventListener("keydown", (event) => {
  if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "k") {
    event.preventDefault();
    emit("open-sidebar");
    $("search").focus();
    return;
  }
  if (event.key === "Escape") {
    if (files.isOpen()) { event.preventDefault(); files.close(); return; }
    if (document.body.classList.contains("sidebar-open")) { setSidebar(false); $("sidebar-toggle").focus(); }
  }
});

// -- init -----------------------------------------------------------------------------------------------------

function init() {
  cards.setPlacer(transcript.runPlace);
  attention.init();
  composer.init();
  sidebar.init();
  files.init();
  $("sidebar-toggle").addEventListener("click", () => setSidebar(!document.body.classList.contains("sidebar-open")));
  $("scrim").addEventListener("click", () => setSidebar(false));
  $("try-tutorial").addEventListener("click", () => sidebar.switchTo({ tutorial: "email" }));
  $("tutorial-reset").addEventListener("click", () => { const t = store.state && store.state.tutorial; if (t) sidebar.switchTo({ tutorial: t, reset: true }); });
  $("suggestions").replaceChildren(...SUGGESTIONS.map((text) => button(text, () => composer.fill(text), { class: "suggestion" })));
  const actions = $("header-actions");
  actions.addEventListener("click", (event) => {
    event.stopPropagation();
    const s = store.state;
    if (!s) return;
    fillMenu($("header-menu"), sidebar.conversationActions({ id: s.conversation_id, title: s.title }, actions, true));
    openMenuAt(actions, $("header-menu"));
  });
  on("workspaces", () => { if (store.state) drawWelcome(); });
  on("fill-composer", (text) => composer.fill(text));
  on("libraries-loaded", () => { if (store.state) composer.update(); });
  on("approvals-changed", () => { if (store.state) drawWelcome(); });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) cards.refreshAll(); });
  showView(location.pathname, false);
  sidebar.loadWorkspaces();
  librariesView.loadLibraries();
  connect();
  closeMenu(false);
}

init();
