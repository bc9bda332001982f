// Sidebar (02 UI-9..12): workspace menu, New conversation, Libraries/Approvals links, history
// with search, inline rename, Copy handoff and Delete. Also the shared conversation actions.

import { api } from "./api.js";
import { LIMITS } from "./constants.js";
import { $, copyText, el } from "./dom.js";
import { closeMenu, confirmDialog, fillMenu, modal, openMenuAt } from "./dialogs.js";
import { emit, idle, on, store } from "./state.js";
import { send } from "./ws.js";

const GROUPS = ["Today", "Yesterday", "Previous 7 days", "Previous 30 days", "Older"];
const BUSY_TIP = "Finish or stop the current action to switch conversations";
let query = "";
let searchTimer = null;
let searchResults = null;
let renaming = null;   // conversation id being renamed inline

function groupOf(updated) {
  const midnight = new Date();
  midnight.setHours(0, 0, 0, 0);
  const day = 86400000;
  const t = updated * 1000;
  if (t >= midnight.getTime()) return 0;
  if (t >= midnight.getTime() - day) return 1;
  if (t >= midnight.getTime() - 7 * day) return 2;
  if (t >= midnight.getTime() - 30 * day) return 3;
  return 4;
}

export async function loadConversations() {
  const result = await api("/api/chat/conversations");
  if (result.ok) { store.conversations = result.data.conversations || []; listVersion += 1; drawHistory(); }
}

export function setConversations(list) {
  store.conversations = list || [];
  listVersion += 1;
  drawHistory();
}

let redrawAfterMenu = false;
let listVersion = 0;  // bumped whenever the shown list (history or search results) is replaced

export function drawHistory() {
  const holder = $("history");
  const current = store.state ? store.state.conversation_id : null;
  const canSwitch = idle();
  const list = searchResults !== null ? searchResults : store.conversations;
  // Redraw only when something shown changed, so open row menus and focus survive state frames;
  // the list counts by version, not by content: this runs on every state frame.
  const key = JSON.stringify([current, canSwitch, renaming, listVersion]);
  if (holder.dataset.key === key) return;
  // A row menu the person has open stays put; the redraw happens when it closes.
  if (holder.querySelector(".menu:not([hidden])")) { redrawAfterMenu = true; return; }
  holder.dataset.key = key;
  const nodes = [];
  if (searchResults !== null && !list.length) nodes.push(el("div", { class: "muted empty", text: "No matching conversations" }));
  if (searchResults !== null) {
    nodes.push(el("ul", { class: "history-list", "aria-label": "Search results" }, ...list.map((c) => row(c, current, canSwitch))));
  } else {
    const buckets = GROUPS.map(() => []);
    for (const c of list) buckets[groupOf(c.updated)].push(c);
    buckets.forEach((items, i) => {
      if (!items.length) return;
      const id = `history-group-${i}`;
      nodes.push(el("h3", { class: "history-group", id, text: GROUPS[i] }),
        el("ul", { class: "history-list", "aria-labelledby": id }, ...items.map((c) => row(c, current, canSwitch))));
    });
  }
  holder.replaceChildren(...nodes);
  if (renaming) {
    const input = holder.querySelector("input.rename");
    if (input) input.focus();
  }
}

// Issue 22: a repeated title's " (2)" never disappears under the ellipsis, so two rows stay told apart.
function titleText(title) {
  const m = /^(.*\S)( \(\d+\))$/.exec(title);
  if (!m) return el("span", { class: "title-text", text: title });
  return el("span", { class: "title-text numbered" }, el("span", { class: "title-main", text: m[1] }), el("span", { class: "title-number", text: m[2] }));
}

function row(c, current, canSwitch) {
  const isCurrent = c.id === current;
  const item = el("li", { class: "history-row" + (isCurrent ? " current" : ""), "data-id": c.id });
  if (renaming === c.id) {
    const input = el("input", { class: "rename", type: "text", maxlength: String(LIMITS.title_chars), "aria-label": "Conversation title", value: c.title });
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") { event.preventDefault(); finishRename(c.id, input.value); }
      if (event.key === "Escape") { event.preventDefault(); event.stopPropagation(); renaming = null; drawHistory(); }
    });
    input.addEventListener("blur", () => { if (renaming === c.id) { renaming = null; drawHistory(); } });
    item.append(input);
    return item;
  }
  const disabled = !isCurrent && !canSwitch;
  const title = el("button", {
    type: "button", class: "history-title", "aria-current": isCurrent ? "page" : null,
    disabled: disabled || null, title: disabled ? BUSY_TIP : c.title,
  }, titleText(c.title));
  if (c.snippet) title.append(el("span", { class: "snippet", text: c.snippet }));
  title.addEventListener("click", () => { if (!isCurrent) { send("clauz3/select", { id: c.id }); emit("close-sidebar"); } });
  const menu = el("div", { class: "menu", role: "menu", hidden: true, "aria-label": "Conversation actions" });
  const opener = el("button", { type: "button", class: "icon row-actions", "aria-label": "Conversation actions", "aria-haspopup": "menu", "aria-expanded": "false", text: "⋯" });
  opener.addEventListener("click", (event) => {
    event.stopPropagation();
    fillMenu(menu, conversationActions(c, opener, false));
    openMenuAt(opener, menu, () => {
      if (redrawAfterMenu) { redrawAfterMenu = false; queueMicrotask(drawHistory); }
    });
  });
  item.append(title, opener, menu);
  return item;
}

function finishRename(id, value) {
  renaming = null;
  const title = value.trim();
  if (title) send("clauz3/rename", { id, title });
  drawHistory();
}

export function startRename(id) {
  renaming = id;
  emit("open-sidebar");
  drawHistory();
}

// Shared by the sidebar rows and the header menu (header adds the exports).
export function conversationActions(c, opener, header) {
  const items = [
    { label: "Rename", run: () => (header ? renameDialog(c) : startRename(c.id)) },
    { label: "Copy handoff", run: () => copyHandoff(c.id) },
    // Issue 22: the transcript itself on the clipboard (Markdown, as Export writes it), not only a file path.
    { label: "Copy transcript (Markdown)", run: () => copyTranscript(c.id) },
  ];
  if (header) {
    items.push({ label: "Export as Markdown", run: () => exportTranscript(c.id, "markdown") });
    items.push({ label: "Export as JSON", run: () => exportTranscript(c.id, "json") });
  }
  items.push({ label: "Delete", run: () => deleteConversation(c) });
  return items;
}

async function renameDialog(c) {
  const input = el("input", { type: "text", maxlength: String(LIMITS.title_chars), value: c.title, "aria-label": "Conversation title" });
  const form = el("form", { class: "dialog-form" }, el("label", {}, el("span", { text: "Title" }), input));
  const pending = modal({ title: "Rename conversation", body: [form], actions: [{ id: "save", label: "Save", primary: true }] });
  form.addEventListener("submit", (event) => { event.preventDefault(); form.closest("dialog").querySelector("button.primary").click(); });
  input.focus();
  input.select();
  if (await pending === "save" && input.value.trim()) send("clauz3/rename", { id: c.id, title: input.value.trim() });
}

export async function copyHandoff(id) {
  // The request is made inside the click so the clipboard write keeps the user's gesture (HND-5).
  emit("toast", { text: "Copying…" });
  const result = await api("/api/chat/handoff", { method: "POST", body: { conversation_id: id } });
  if (!result.ok) { emit("toast", { text: "Copy failed", detail: result.message }); return; }
  const ok = await copyText(result.data.text);
  emit("toast", ok ? { text: "Copied" } : { text: "Copy failed", detail: `The handoff file is ${result.data.path}` });
}

export async function copyTranscript(id) {
  emit("toast", { text: "Copying…" });
  const result = await api(`/api/chat/transcript?id=${encodeURIComponent(id)}&format=markdown`, { raw: true });
  if (!result.ok) { emit("toast", { text: "Copy failed", detail: result.message }); return; }
  const ok = await copyText(await result.response.text());
  emit("toast", ok ? { text: "Copied the transcript" } : { text: "Copy failed", detail: "Use Export as Markdown from the ⋯ menu instead." });
}

// Fetched (with the page secret, issue 19) and saved from a blob: a plain link could not send the header.
async function exportTranscript(id, format) {
  const result = await api(`/api/chat/transcript?id=${encodeURIComponent(id)}&format=${format}`, { raw: true });
  if (!result.ok) { emit("toast", { text: "Export failed", detail: result.message }); return; }
  const named = /filename="([^"]+)"/.exec(result.response.headers.get("Content-Disposition") || "");
  const url = URL.createObjectURL(await result.response.blob());
  const a = el("a", { href: url, download: named ? named[1] : `conversation.${format === "json" ? "json" : "md"}` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

async function deleteConversation(c) {
  const ok = await confirmDialog("Delete conversation?",
    `Delete “${c.title}”? Its transcript and attachments are removed from this computer. This can't be undone. Handoff files are kept.`, "Delete", { danger: true });
  if (!ok) return;
  const result = await api(`/api/chat/conversations/${encodeURIComponent(c.id)}`, { method: "DELETE" });
  if (!result.ok) { emit("notice", { level: "error", code: result.code, text: result.message }); return; }
  await loadConversations();
  if (searchResults !== null) runSearch();
}

function runSearch() {
  const q = query.trim();
  if (!q) { searchResults = null; listVersion += 1; drawHistory(); return; }
  api(`/api/chat/conversations?q=${encodeURIComponent(q.slice(0, 200))}`).then((result) => {
    if (query.trim() !== q) return;
    searchResults = result.ok ? result.data.conversations || [] : [];
    listVersion += 1;
    drawHistory();
  });
}

// -- workspaces -------------------------------------------------------------------------------------

export async function loadWorkspaces() {
  const result = await api("/api/workspaces");
  if (result.ok) { store.workspaces = result.data; emit("workspaces", result.data); }
  drawWorkspaceButton();
}

function drawWorkspaceButton() {
  const name = (store.state && store.state.project_name) || (store.workspaces && store.workspaces.current.name) || "Workspace";
  $("workspace-name").textContent = name;
}

function workspaceItems() {
  const w = store.workspaces || { recent: [], tutorials: [], current: {}, switching: true };
  const pending = store.state && store.state.operation === "switch";
  const items = [{ group: "Recent workspaces" }];
  for (const r of w.recent || []) {
    items.push({
      label: r.name || r.path, note: r.current ? "current" : r.available ? r.path : "Folder not found",
      title: r.path, current: r.current, disabled: pending || !r.available || r.current || !w.switching,
      run: () => switchTo({ path: r.path }),
    });
  }
  items.push({ label: "Open folder…", disabled: pending || !w.switching, run: openFolder });
  items.push({ group: "Tutorials" });
  for (const t of w.tutorials || []) items.push({ label: t.name, note: t.description, disabled: pending || !w.switching, run: () => switchTo({ tutorial: t.id }) });
  const tutorial = w.current && w.current.tutorial;
  if (tutorial) items.push({ label: "Reset this tutorial…", disabled: pending, run: () => switchTo({ tutorial, reset: true }) });
  return items;
}

export function switchTo(params) {
  send("clauz3/workspace", params);
}

async function openFolder() {
  const input = el("input", { type: "text", "aria-label": "Absolute folder path", placeholder: "/home/me/project", spellcheck: "false" });
  const form = el("form", { class: "dialog-form" }, el("label", {}, el("span", { text: "Absolute folder path" }), input));
  const pending = modal({ title: "Open folder", body: [form], actions: [{ id: "open", label: "Open", primary: true }] });
  form.addEventListener("submit", (event) => { event.preventDefault(); form.closest("dialog").querySelector("button.primary").click(); });
  input.focus();
  if (await pending === "open" && input.value.trim()) switchTo({ path: input.value.trim() });
}

export async function confirmWorkspace(params) {
  const request = params.request || {};
  if (params.reason === "reset") {
    const ok = await confirmDialog("Reset tutorial?", params.text, "Reset tutorial", { danger: true });
    if (ok) switchTo({ ...request, reset: true, confirm_reset: true, stop: true });  // the text says it stops the agent
  } else {
    const ok = await confirmDialog("Stop and switch?", params.text || "This workspace has active work. Stop its agent and runs before opening the other workspace? Its conversations are saved.", "Stop and switch", { danger: true });
    if (ok) switchTo({ ...request, stop: true });
  }
}

// -- counts on the nav links ------------------------------------------------------------------------

let pendingTimer = null;
let pendingAgain = false;
// Coalesced: one request at a time; a change seen meanwhile triggers one more afterwards.
export function refreshPendingCount() {
  if (pendingTimer) { pendingAgain = true; return; }
  pendingTimer = setTimeout(async () => {
    const result = await api("/api/requests?state=pending&limit=500");
    pendingTimer = null;
    if (result.ok) {
      const generation = store.state && store.state.generation;
      const list = (result.data.requests || []).filter((r) => !generation || !r.workspace_generation || r.workspace_generation === generation);
      store.pendingCount = list.length;
      const badge = $("approvals-count");
      badge.textContent = list.length ? String(list.length) : "";
      badge.hidden = !list.length;
    }
    if (pendingAgain) { pendingAgain = false; refreshPendingCount(); }
  }, 300);
}

export function drawLibraryCount() {
  const libs = store.libraries;
  const badge = $("libraries-count");
  const n = libs && Array.isArray(libs.installed) ? libs.installed.length : null;
  badge.textContent = n === null ? "" : String(n);
  badge.hidden = n === null;
}

export function init() {
  $("new-conversation").addEventListener("click", () => {
    const s = store.state;
    send("clauz3/new", s ? { agent: s.agent } : {});
    emit("close-sidebar");
  });
  const wsButton = $("workspace-button");
  wsButton.addEventListener("click", async (event) => {
    event.stopPropagation();
    const menu = $("workspace-menu");
    if (!menu.hidden) { closeMenu(); return; }
    fillMenu(menu, workspaceItems());
    openMenuAt(wsButton, menu);
    if (!store.workspaces) { await loadWorkspaces(); if (!menu.hidden) { fillMenu(menu, workspaceItems()); } }
  });
  $("search").addEventListener("input", () => {
    query = $("search").value;
    clearTimeout(searchTimer);
    searchTimer = setTimeout(runSearch, 200);
  });
  $("search").addEventListener("keydown", (event) => {
    if (event.key === "Escape" && $("search").value) { event.stopPropagation(); $("search").value = ""; query = ""; runSearch(); }
  });
  on("state", () => { drawWorkspaceButton(); drawHistory(); });
  on("approvals-changed", refreshPendingCount);
  on("libraries-loaded", drawLibraryCount);
}

