// The read-only Files panel (02 UI-25, §8): breadcrumbs from "Workspace", Hidden files,
// Refresh files, listing states, previews as text only, and Add path to message. At ≤ 1100 px
// it is a modal overlay: the rest of the page is inert, focus is trapped, Esc returns to `Files`.

import { api } from "./api.js";
import { $, button, el, focusables, formatSize } from "./dom.js";
import { appendToMessage } from "./composer.js";
import { emit, on } from "./state.js";

const NARROW = window.matchMedia("(max-width: 1100px)");
let path = [];          // components of the folder shown
let selected = null;    // relative path of the previewed file
let loadToken = 0;

const panel = () => $("files-panel");

export function isOpen() { return !panel().hidden; }

export function open() {
  const node = panel();
  node.hidden = false;
  $("files-toggle").setAttribute("aria-expanded", "true");
  applyMode();
  refresh();
  const first = $("files-close");
  if (first) first.focus();
}

export function close() {
  const node = panel();
  if (node.hidden) return;
  node.hidden = true;
  $("files-toggle").setAttribute("aria-expanded", "false");
  $("app").inert = false;
  $("app").removeAttribute("aria-hidden");
  $("files-toggle").focus();
}

function applyMode() {
  const node = panel();
  const modal = NARROW.matches && !node.hidden;
  node.setAttribute("role", modal ? "dialog" : "region");
  if (modal) node.setAttribute("aria-modal", "true"); else node.removeAttribute("aria-modal");
  node.classList.toggle("overlay", modal);
  $("app").inert = modal;
}

function relative(parts) { return parts.join("/"); }

async function load() {
  const token = ++loadToken;
  const hidden = $("files-hidden").checked;
  const list = $("files-list");
  setStatus("Loading…");
  drawCrumbs();
  const result = await api(`/api/workspace/files?path=${encodeURIComponent(relative(path))}&hidden=${hidden}`);
  if (token !== loadToken) return;
  if (!result.ok) {
    list.replaceChildren();
    setStatus(result.message);
    return;
  }
  const data = result.data;
  if (data.kind !== "directory") { setStatus("This is not a folder."); return; }
  const entries = data.entries || [];
  setStatus(entries.length ? (data.truncated ? "Showing the first 2,000 items" : `${entries.length} ${entries.length === 1 ? "item" : "items"}`) : "This folder is empty");
  list.replaceChildren(...entries.map((entry) => {
    const item = el("li", { class: `file-entry ${entry.kind}` });
    if (entry.kind === "directory") {
      item.append(button(`▸ ${entry.name}`, () => { path = [...path, entry.name]; selected = null; clearPreview(); load(); }, { class: "entry", "aria-label": `Folder ${entry.name}` }));
    } else if (entry.kind === "file") {
      const b = button(entry.name, () => preview([...path, entry.name]), { class: "entry" });
      b.append(el("span", { class: "size", text: formatSize(entry.size) }));
      item.append(b);
    } else {
      item.append(button(entry.name, () => {}, { class: "entry", disabled: true, title: "This entry can't be opened." }));
    }
    return item;
  }));
}

function setStatus(text) { $("files-status").textContent = text; }

function drawCrumbs() {
  const crumbs = $("files-crumbs");
  const nodes = [button("Workspace", () => { path = []; clearPreview(); load(); }, { class: "crumb", "aria-current": path.length ? null : "location" })];
  path.forEach((part, i) => {
    nodes.push(el("span", { class: "sep", "aria-hidden": "true", text: "/" }));
    nodes.push(button(part, () => { path = path.slice(0, i + 1); clearPreview(); load(); }, { class: "crumb", "aria-current": i === path.length - 1 ? "location" : null }));
  });
  crumbs.replaceChildren(...nodes);
}

function clearPreview() {
  selected = null;
  $("files-preview").replaceChildren();
  $("files-preview").hidden = true;
}

async function preview(parts) {
  const rel = relative(parts);
  selected = rel;
  const box = $("files-preview");
  box.hidden = false;
  box.replaceChildren(el("div", { class: "muted", text: "Loading…" }));
  const result = await api(`/api/workspace/files?path=${encodeURIComponent(rel)}&hidden=${$("files-hidden").checked}`);
  if (selected !== rel) return;
  if (!result.ok) { box.replaceChildren(el("div", { class: "notice error", text: result.message })); return; }
  const data = result.data;
  const nodes = [el("div", { class: "preview-head" }, el("strong", { class: "preview-path", text: rel }), el("span", { class: "muted", text: ` · ${formatSize(data.size)}` }))];
  if (data.content === null || data.content === undefined) nodes.push(el("div", { class: "muted", text: "Preview unavailable. Only UTF-8 text files can be displayed." }));
  else {
    if (data.truncated) nodes.push(el("div", { class: "muted", text: "Showing the first 256 KB…" }));
    nodes.push(el("pre", { class: "preview-text", text: data.content }));
  }
  const add = button("Add path to message", () => {
    if (!appendToMessage(JSON.stringify(rel))) emit("notice", { level: "error", code: "too_long", text: "The message would be longer than 20,000 characters." });
  });
  nodes.push(el("div", { class: "preview-actions" }, add));
  box.replaceChildren(...nodes);
}

export function init() {
  $("files-toggle").addEventListener("click", () => (isOpen() ? close() : open()));
  $("files-close").addEventListener("click", close);
  $("files-refresh").addEventListener("click", () => refresh());
  // Issue 22: a run or an Undo changed files; the listing and an open preview show the new sizes.
  on("files-changed", () => { if (isOpen()) refresh(); });
  $("files-hidden").addEventListener("change", () => load());
  NARROW.addEventListener("change", () => { if (isOpen()) applyMode(); });
  panel().addEventListener("keydown", (event) => {
    if (event.key === "Escape") { event.preventDefault(); event.stopPropagation(); close(); return; }
    if (event.key !== "Tab" || !panel().classList.contains("overlay")) return;
    const items = focusables(panel());
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (event.shiftKey && document.activeElement === first) { event.preventDefault(); last.focus(); }
    else if (!event.shiftKey && document.activeElement === last) { event.preventDefault(); first.focus(); }
  });
}

export function reload() { if (isOpen()) load(); }

// The listing and, when a file is shown, its preview (size and text) read again.
function refresh() {
  load();
  if (selected) preview(selected.split("/"));
}
