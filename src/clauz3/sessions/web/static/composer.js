// The composer (02 UI-22..24, UI-7, UI-8): message box, Send/Stop, drafts, the Agent selector,
// attachments, and the conversation's library chips with the `Libraries for this conversation`
// menu and its widening confirmation (05 SEL-9..11).

import { api } from "./api.js";
import { LIMITS } from "./constants.js";
import { $, button, el, formatSize, mockBadge } from "./dom.js";
import { modal } from "./dialogs.js";
import { emit, on, runActive, store } from "./state.js";
import { loadLibraries, manifestErrors } from "./libraries.js";
import { send } from "./ws.js";

// The server's limits (constants.js): checked here only to say so before anything is sent.
const MAX_PROMPT = LIMITS.prompt_chars;
const MAX_FILE = LIMITS.attachment_bytes;
const MAX_FILES = LIMITS.attachments;
const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];
const thumbs = new Map();  // attachment id → object URL
let draftFor = null;

const box = () => $("message");

function draftKey() {
  const s = store.state;
  return s ? `clauz3-draft:${s.project}:${s.conversation_id}` : null;
}

export function canSend() {
  const s = store.state;
  if (!s || !store.connected) return false;
  const typed = box().value.trim();
  const staged = (s.attachments || []).length;
  if (!(typed.length > 0 || staged > 0) || typed.length > MAX_PROMPT || typed.startsWith("/")) return false;
  return ["ready", "stopped"].includes(s.agent_status) && !runActive() && !s.operation && !s.history_limited && !s.libraries_changed;
}

// Issue 22: when the text itself keeps Send disabled, the composer says why, next to the box: a counter
// from 90 % of the limit, "too long" past it with an offer to attach the text as a file, and for "/"
// that this workspace has no / commands (the server refuses them too, TURN-1).
function drawWhy() {
  const why = $("composer-why");
  const typed = box().value.trim();
  const parts = [];
  if (typed.startsWith("/")) {
    parts.push(el("span", { text: "Send is off: this workspace has no / commands, and text starting with “/” is not sent to the agent. Start with a word instead (for example “Please run /…”)." }));
  } else if (typed.length >= MAX_PROMPT * 0.9) {
    const count = `${typed.length.toLocaleString("en-US")} / ${MAX_PROMPT.toLocaleString("en-US")} characters`;
    if (typed.length > MAX_PROMPT) {
      parts.push(el("span", { text: `${count} — too long to send as a message. ` }),
        button("Attach as a file", () => attachText(), { class: "small" }));
    } else parts.push(el("span", { text: count }));
  }
  why.replaceChildren(...parts);
  why.hidden = !parts.length;
  why.classList.toggle("over", typed.startsWith("/") || typed.length > MAX_PROMPT);
}

async function attachText() {
  const text = box().value;
  box().value = "";
  saveDraft();
  drawWhy();
  $("send").disabled = !canSend();
  await attachFiles([new File([text], "message.txt", { type: "text/plain" })]);
  box().focus();
}

function refreshSend() {
  $("send").disabled = !canSend();
  drawWhy();
}

export function update() {
  const s = store.state;
  refreshSend();
  const status = s ? s.agent_status : null;
  const stop = $("stop");
  stop.disabled = !store.connected || !s || !(["starting", "busy", "cancelling"].includes(status) || runActive());
  stop.textContent = status === "cancelling" ? "Force stop" : "Stop";
  // Until the conversation's state has come there is no selection to edit: a click would do nothing.
  $("libraries-button").disabled = !s;
  if (!s) return;
  box().setAttribute("aria-label", `Message ${s.agent_label}`);
  box().placeholder = `Message ${s.agent_label}`;
  drawAgentSelect();
  drawAttachments();
  drawChips();
  restoreDraft();
}

function restoreDraft() {
  const key = draftKey();
  if (!key || draftFor === key) return;
  draftFor = key;
  const saved = sessionStorage.getItem(key);
  box().value = saved !== null ? saved : "";
  refreshSend();
}

function submit(event) {
  if (event) event.preventDefault();
  if (!canSend()) return;
  send("session/prompt", { conversation_id: store.state.conversation_id, prompt: box().value });
}

// The echo of our prompt clears the draft and the box (UI-8).
function echoed(text) {
  const key = draftKey();
  if (key && sessionStorage.getItem(key) === text) sessionStorage.removeItem(key);
  if (box().value === text) box().value = "";
  refreshSend();
}

export function fill(text) {
  box().value = text;
  saveDraft();
  box().focus();
  refreshSend();
}

export function appendToMessage(addition) {
  const value = box().value;
  const next = value ? `${value} ${addition}` : addition;
  if (next.length > MAX_PROMPT) return false;
  fill(next);
  return true;
}

function saveDraft() {
  const key = draftKey();
  if (!key) return;
  if (box().value) sessionStorage.setItem(key, box().value); else sessionStorage.removeItem(key);
}

// -- agent selector ----------------------------------------------------------------------------------

function drawAgentSelect() {
  const s = store.state;
  const select = $("agent-select");
  const providers = s.providers && s.providers.length ? s.providers : [{ id: s.agent, label: s.agent_label, available: true, enabled: true }];
  const key = JSON.stringify([providers, s.agent]);
  if (select.dataset.key !== key) {
    select.dataset.key = key;
    select.replaceChildren(...providers.map((p) => el("option", { value: p.id, text: p.available ? p.label : `${p.label} (unavailable)`, disabled: !p.available || !p.enabled || null })));
    select.value = s.agent;
  }
  select.disabled = s.turn > 0 || providers.length < 2;
}

// -- attachments --------------------------------------------------------------------------------------

function kindOf(file) {
  if (IMAGE_TYPES.includes(file.type)) return "image";
  return "text";
}

async function attachFiles(files) {
  const s = store.state;
  if (!s) return;
  const staged = (s.attachments || []).map((a) => a.id);
  const list = [...files];
  if (staged.length + list.length > MAX_FILES) {
    emit("notice", { level: "error", code: "too_many_attachments", text: "Attach at most 10 files to one message." });
    return;
  }
  const ids = [...staged];
  for (const file of list) {
    if (file.size > MAX_FILE) {
      emit("notice", { level: "error", code: "too_large", text: "Attachments can be at most 10 MB." });
      continue;
    }
    const kind = kindOf(file);
    if (kind === "image" && !s.capabilities.images) {
      emit("notice", { level: "error", code: "attachments_unsupported", text: `${s.agent_label} doesn't accept image attachments.` });
      continue;
    }
    if (kind === "text" && !s.capabilities.files) {
      emit("notice", { level: "error", code: "attachments_unsupported", text: `${s.agent_label} doesn't accept file attachments.` });
      continue;
    }
    const name = file.name || (kind === "image" ? "pasted-image.png" : "attachment");
    const result = await api(`/api/chat/attachments?conversation_id=${encodeURIComponent(s.conversation_id)}`, {
      method: "POST", body: file, headers: { "X-Clauz3-Filename": encodeURIComponent(name), "Content-Type": "application/octet-stream" },
    });
    if (!result.ok) {
      emit("notice", { level: "error", code: result.code, text: result.message });
      continue;
    }
    if (result.data.kind === "image") thumbs.set(result.data.id, URL.createObjectURL(file));
    ids.push(result.data.id);
  }
  if (ids.length !== staged.length) send("clauz3/attach", { conversation_id: s.conversation_id, attachments: ids });
}

async function removeAttachment(id) {
  const s = store.state;
  const rest = (s.attachments || []).map((a) => a.id).filter((x) => x !== id);
  send("clauz3/attach", { conversation_id: s.conversation_id, attachments: rest });
  await api(`/api/chat/attachments/${encodeURIComponent(id)}`, { method: "DELETE" });
  const url = thumbs.get(id);
  if (url) { URL.revokeObjectURL(url); thumbs.delete(id); }
}

function thumbnail(a) {
  const img = el("img", { class: "thumb", alt: "" });
  const known = thumbs.get(a.id);
  if (known) img.src = known;
  else {
    // After a reload the staged image is fetched from our own origin (never elsewhere).
    api(`/api/chat/attachments/${encodeURIComponent(a.id)}`, { raw: true }).then(async (result) => {
      if (!result.ok) return;
      const url = URL.createObjectURL(await result.response.blob());
      thumbs.set(a.id, url);
      img.src = url;
    });
  }
  return img;
}

function drawAttachments() {
  const s = store.state;
  const list = s.attachments || [];
  const key = JSON.stringify(list.map((a) => a.id));
  const holder = $("attachments");
  if (holder.dataset.key !== key) {
    holder.dataset.key = key;
    holder.replaceChildren(...list.map((a) => el("span", { class: "chip attachment" },
      a.kind === "image" ? thumbnail(a) : null,
      el("span", { class: "chip-name", text: `${a.name} (${formatSize(a.size)})` }),
      button("×", () => removeAttachment(a.id), { class: "chip-remove", "aria-label": `Remove ${a.name}` }))));
    holder.hidden = list.length === 0;
  }
  const caps = s.capabilities || {};
  const attach = $("attach");
  const none = !caps.images && !caps.files;
  attach.disabled = none;
  // The demo has no model provider (issue 12): say what it does with a file instead.
  const note = none ? `${s.agent_label} doesn't accept attachments.`
    : s.agent === "demo" ? "The demo agent sees only each attachment's name and size; it has no model provider."
      : `Attachments are sent to ${s.agent_label} and its model provider.`;
  $("attach-note").textContent = note;
  attach.title = note;
}

// -- library chips and menu ---------------------------------------------------------------------------

function libraryKinds() {
  const libs = store.libraries;
  return libs && libs.mock_declarations ? libs.mock_declarations : {};
}

function installedDomains() {
  const libs = store.libraries;
  return libs && Array.isArray(libs.installed) ? libs.installed.map((i) => i.domain) : null;
}

function drawChips() {
  const s = store.state;
  const holder = $("library-chips");
  const kinds = libraryKinds();
  const key = JSON.stringify([s.libraries, kinds, s.approvals_paused]);
  if (holder.dataset.key === key) return;
  holder.dataset.key = key;
  const domains = s.libraries || [];
  const installed = store.libraries && Array.isArray(store.libraries.installed) ? store.libraries.installed : [];
  const chips = domains.map((d) => {
    const info = installed.find((i) => i.domain === d);
    const tip = info ? `${info.source}${info.revision ? ` · ${String(info.revision).slice(0, 8)}` : ""}${info.tree && info.tree.length > 12 ? ` · ${info.tree.slice(0, 12)}` : ""}` : d;
    const chip = el("span", { class: "chip library", title: tip }, el("span", { text: d }));
    const badge = mockBadge(kinds[d] && kinds[d].kind);
    if (badge) chip.append(" ", badge);
    return chip;
  });
  holder.replaceChildren(...(chips.length ? chips : [el("span", { class: "chip empty", text: "No libraries" })]));
}

async function openLibraryMenu() {
  const opened = store.state;
  if (!opened) return;
  const menu = $("library-menu");
  if (!menu.hidden) { closeLibraryMenu(); return; }
  // Issue 22: opened while the installed list is still loading, the menu waits for it. Every state frame
  // replaces store.state meanwhile, so only another conversation (or a menu opened since) cancels it.
  if (!store.libraries && !store.librariesError) await loadLibraries();
  const s = store.state;
  if (!menu.hidden || !s || s.conversation_id !== opened.conversation_id) return;
  const current = new Set(s.libraries || []);
  const installed = installedDomains();
  const all = [...new Set([...(installed || []), ...current])].sort();
  const chosen = new Set(current);
  const kinds = libraryKinds();
  const errors = manifestErrors();
  const rows = el("div", { class: "switches" });
  const draw = () => {
    rows.replaceChildren(...all.map((d) => {
      const present = installed === null || installed.includes(d);
      const broken = errors[d];
      // A broken library can be switched off, never on (issue 22).
      const locked = !present || (broken && !chosen.has(d));
      const input = el("input", { type: "checkbox", role: "switch", checked: chosen.has(d) || null, disabled: locked || null });
      input.addEventListener("change", () => { if (input.checked) chosen.add(d); else chosen.delete(d); draw(); rows.querySelector(`[data-d="${CSS.escape(d)}"] input`)?.focus(); });
      let note = "";
      if (!present) note = "not installed";
      else if (broken) note = "its manifest has an error; see Libraries";
      else if (chosen.has(d) && !current.has(d)) note = "will be added";
      else if (!chosen.has(d) && current.has(d)) note = "will be removed";
      const label = el("label", { class: "switch-row", "data-d": d }, input, el("span", { text: d }));
      const badge = broken ? null : mockBadge(kinds[d] && kinds[d].kind);
      if (badge) label.append(" ", badge);
      if (note) label.append(el("span", { class: "muted note", text: ` ${note}` }));
      return label;
    }));
    if (!all.length) rows.append(el("div", { class: "muted", text: "No libraries are installed in this project." }));
  };
  draw();
  const apply = button("Apply", () => {
    closeLibraryMenu();
    send("clauz3/libraries", { conversation_id: s.conversation_id, domains: [...chosen].sort() });
  }, { class: "primary" });
  menu.replaceChildren(el("h3", { text: "Libraries for this conversation" }));
  if (installed === null) menu.append(el("div", { class: "muted", text: "The installed library list isn't available; showing this conversation's libraries." }));
  menu.append(
    rows,
    el("div", { class: "menu-actions" },
      el("a", { href: "/ui/libraries", "data-view": "libraries", text: "Manage libraries →" }),
      button("Cancel", () => closeLibraryMenu()), apply));
  menu.hidden = false;
  keepOnScreen(menu);
  $("libraries-button").setAttribute("aria-expanded", "true");
  const first = menu.querySelector("input:not([disabled]), button");
  if (first) first.focus();
}

// Issue 22: whatever the layout, the popover is moved back inside the viewport (8 px margin).
function keepOnScreen(node) {
  node.style.transform = "";
  const r = node.getBoundingClientRect();
  const margin = 8;
  let dx = 0;
  let dy = 0;
  if (r.right > window.innerWidth - margin) dx = window.innerWidth - margin - r.right;
  if (r.left + dx < margin) dx = margin - r.left;
  if (r.top < margin) dy = margin - r.top;
  if (dx || dy) node.style.transform = `translate(${Math.round(dx)}px, ${Math.round(dy)}px)`;
}

function closeLibraryMenu(focus = true) {
  const menu = $("library-menu");
  if (menu.hidden) return;
  menu.hidden = true;
  $("libraries-button").setAttribute("aria-expanded", "false");
  if (focus) $("libraries-button").focus();
}

async function confirmLibraries(params) {
  const s = store.state;
  const names = (params.added || []).join(", ");
  const choice = await modal({
    title: `Add ${names || "these libraries"} to this conversation?`,
    body: [el("p", { text: params.text || "" }),
      el("p", { text: "Added library code can steer the agent, so automatic approvals stop for the rest of this conversation." })],
    actions: [{ id: "new", label: "Start a new conversation with these libraries" }, { id: "add", label: "Add and continue", primary: true }],
  });
  if (choice === "add") send("clauz3/libraries", { conversation_id: params.conversation_id || s.conversation_id, domains: params.domains, confirm: true });
  else if (choice === "new") send("clauz3/new", { agent: s.agent, domains: params.domains });
}

export function init() {
  $("composer").addEventListener("submit", submit);
  box().addEventListener("input", () => { saveDraft(); refreshSend(); });
  box().addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing && event.keyCode !== 229) submit(event);
  });
  box().addEventListener("paste", (event) => {
    const files = [...(event.clipboardData ? event.clipboardData.files : [])];
    if (files.length) { event.preventDefault(); attachFiles(files); }
  });
  const drop = $("composer");
  drop.addEventListener("dragover", (event) => { if (event.dataTransfer && [...event.dataTransfer.types].includes("Files")) { event.preventDefault(); drop.classList.add("dropping"); } });
  drop.addEventListener("dragleave", () => drop.classList.remove("dropping"));
  drop.addEventListener("drop", (event) => {
    drop.classList.remove("dropping");
    if (event.dataTransfer && event.dataTransfer.files.length) { event.preventDefault(); attachFiles(event.dataTransfer.files); }
  });
  $("stop").addEventListener("click", () => send("session/cancel", {}));
  $("attach").addEventListener("click", () => $("file-input").click());
  $("file-input").addEventListener("change", () => { const files = [...$("file-input").files]; $("file-input").value = ""; attachFiles(files); });
  $("agent-select").addEventListener("change", () => {
    const s = store.state;
    const agent = $("agent-select").value;
    if (s && agent !== s.agent) send("clauz3/new", { agent });
  });
  $("libraries-button").addEventListener("click", (event) => { event.stopPropagation(); openLibraryMenu(); });
  $("library-menu").addEventListener("keydown", (event) => { if (event.key === "Escape") { event.stopPropagation(); closeLibraryMenu(); } });
  document.addEventListener("click", (event) => { if (!$("library-menu").contains(event.target)) closeLibraryMenu(false); });
  on("user-echo", echoed);
  on("confirm-libraries", confirmLibraries);
  on("libraries-loaded", () => { if (store.state) drawChips(); });
}
