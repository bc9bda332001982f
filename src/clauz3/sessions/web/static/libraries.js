// The Libraries view (/ui/libraries; 02 UI-26, 05 §6.6, INS-16): catalogue with search and an
// All / Installed filter, default selection switches, and install/update/remove reviews.

import { api } from "./api.js";
import { $, button, el, mockBadge, statusNote, UNDECLARED_TEXT } from "./dom.js";
import { modal } from "./dialogs.js";
import { emit, on, store } from "./state.js";
import { send } from "./ws.js";

let filter = "all";
let search = "";
let message = null;

let loading = null;

// One request at a time: a caller that arrives while the list loads waits for that same answer
// (issue 22: the popover opened during the first load no longer says the list isn't available).
export function loadLibraries() {
  if (!loading) loading = fetchLibraries().finally(() => { loading = null; });
  return loading;
}

async function fetchLibraries() {
  const result = await api("/api/workspace/libraries");
  if (result.ok) {
    store.libraries = result.data;
    store.librariesError = null;
  } else {
    store.libraries = null;
    store.librariesError = result.missing ? "Libraries can't be managed from this page: the workspace service doesn't offer the Libraries routes yet." : result.message;
  }
  emit("libraries-loaded");
  return result.ok;
}

function kindOf(rec) {
  const decl = store.libraries.mock_declarations || {};
  const kinds = (rec.domains || []).map((d) => decl[d] && decl[d].kind).filter(Boolean);
  return rec.mock || (kinds.includes("mock") ? "mock" : kinds.includes("mixed") ? "mixed" : kinds.includes("unmarked") ? "unmarked" : "real");
}

export function draw() {
  const view = $("view-libraries");
  const nodes = [el("h2", { text: "Libraries" })];
  if (message) nodes.push(message);
  if (!store.libraries) {
    nodes.push(el("div", { class: "notice error", role: "note", text: store.librariesError || "Loading…" }));
    view.querySelector(".view-body").replaceChildren(...nodes);
    return;
  }
  const libs = store.libraries;
  const searchBox = el("input", { type: "search", "aria-label": "Search libraries", placeholder: "Search libraries", value: search });
  searchBox.addEventListener("input", () => { search = searchBox.value; drawList(); });
  const filters = el("div", { class: "segmented", role: "group", "aria-label": "Show" },
    ...[["all", "All"], ["installed", "Installed"]].map(([id, label]) => button(label, () => { filter = id; draw(); }, { "aria-pressed": filter === id ? "true" : "false" })));
  nodes.push(el("div", { class: "toolbar" }, searchBox, filters));
  if (libs.busy) nodes.push(el("div", { class: "notice", text: "An action is running; library changes wait until it finishes." }));
  const list = el("div", { class: "library-list" });
  nodes.push(list);
  view.querySelector(".view-body").replaceChildren(...nodes);
  drawList();

  function drawList() {
    const q = search.trim().toLowerCase();
    const recs = (libs.catalog || []).filter((rec) => (filter === "all" || rec.installed)
      && (!q || `${rec.title} ${rec.description} ${rec.source} ${(rec.domains || []).join(" ")}`.toLowerCase().includes(q)));
    list.replaceChildren(...(recs.length ? recs.map(libraryCard) : [el("div", { class: "muted", text: filter === "installed" ? "No libraries are installed in this project." : "No libraries match." })]));
  }
}

export function manifestErrors() {
  return (store.libraries && store.libraries.manifest_errors) || {};
}

function libraryCard(rec) {
  const libs = store.libraries;
  const errors = manifestErrors();
  const broken = (rec.domains || []).filter((d) => errors[d]);
  const kind = kindOf(rec);
  const title = el("h3", {}, el("span", { text: rec.title || rec.source }));
  // Issue 22: a broken manifest says nothing about mocks; its badge would only mislead.
  const badge = broken.length ? el("span", { class: "badge broken", text: "Manifest error" }) : mockBadge(kind);
  if (badge) title.append(" ", badge);
  const card = el("article", { class: "card library-card", "aria-label": rec.title || rec.source }, title,
    el("div", { class: "muted", text: `${rec.source}${rec.installed ? " · installed" : ""}${rec.modified ? " · modified" : ""}` }));
  for (const d of broken) card.append(el("div", { class: "notice error manifest-error", role: "alert", text: errors[d].text }));
  if (kind === "unmarked" && !broken.length) card.append(el("div", { class: "notice undeclared", text: UNDECLARED_TEXT }));
  if (rec.description && !broken.length) card.append(el("p", { class: "description", text: rec.description }));
  const about = Object.values(rec.manifests || {}).map((m) => m && m.description).filter((d) => d && d !== rec.description);
  if (about.length) card.append(el("details", { class: "about" }, el("summary", { text: "About" }), ...about.map((d) => el("p", { text: d }))));
  if ((rec.requirements || []).length) card.append(el("div", { class: "muted", text: `Requires: ${rec.requirements.map(requirement).join(", ")}` }));
  const actions = el("div", { class: "library-actions" });
  const authored = String(rec.source).startsWith("project:");
  if (!rec.installed) actions.append(button("Install", () => review("install", { source: rec.source }), { "aria-label": `Install ${rec.title}` }));
  else if (!authored) {
    actions.append(button("Update", () => review("update", { source: rec.source }), { "aria-label": `Update ${rec.title}` }));
    for (const d of rec.domains || []) actions.append(button("Remove", () => review("remove", { domain: d }), { "aria-label": `Remove ${rec.title}${(rec.domains || []).length > 1 ? ` (${d})` : ""}` }));
  }
  if (rec.installed) {
    for (const d of rec.domains || []) {
      const input = el("input", { type: "checkbox", role: "switch", checked: (!errors[d] && (libs.selected || []).includes(d)) || null, disabled: errors[d] ? true : null });
      input.addEventListener("change", () => selectDefault(d, input.checked));
      actions.append(el("label", { class: "switch-row" }, input, el("span", { text: (rec.domains || []).length > 1 ? `Use ${d} in new conversations` : "Use in new conversations" })));
    }
  }
  card.append(actions);
  return card;
}

function requirement(r) {
  if (typeof r === "string") return r;
  const kind = r.kind ? r.kind[0].toUpperCase() + r.kind.slice(1) : "Requirement";
  return `${kind}: ${r.title || r.name || ""}`;
}

async function selectDefault(domain, on) {
  const selected = new Set(store.libraries.selected || []);
  if (on) selected.add(domain); else selected.delete(domain);
  const result = await api("/api/workspace/libraries/select", { method: "POST", body: { domains: [...selected].sort() } });
  if (result.ok) store.libraries.selected = result.data.selected;
  else note(result.message, true);
  draw();
}

function note(text, error = false) {
  message = statusNote(text, error);
}

const INTRO = {
  install: "Once installed, this code runs as trusted code for this project. Read it first.",
  update: "Once installed, this code runs as trusted code for this project. Read it first.",
  remove: "The library leaves this project; a backup copy stays in .clauz3/library-backups.",
};
const CONFIRM = { install: "Install library", update: "Update library", remove: "Remove library" };
const DONE = { install: "Installed", update: "Updated", remove: "Removed" };

const PREPARING = { install: "Preparing the install: copying and checking the library files…", update: "Preparing the update: comparing the library files…", remove: "Preparing the removal…" };
const APPLYING = { install: "Installing…", update: "Updating…", remove: "Removing…" };

async function review(action, target) {
  // Issue 12: the first install takes a while (the library is copied and checked); say so meanwhile.
  note(PREPARING[action] || "Preparing…");
  draw();
  const prepared = await api("/api/workspace/libraries/prepare", { method: "POST", body: { action, ...target } });
  message = null;
  draw();
  if (!prepared.ok) { note(prepared.message, true); draw(); return; }
  const rec = prepared.data;
  const body = [el("p", { text: INTRO[action] })];
  for (const change of rec.changes || []) {
    const files = [
      ...(change.added || []).map((p) => `+ ${p}`), ...(change.changed || []).map((p) => `~ ${p}`), ...(change.removed || []).map((p) => `− ${p}`)];
    body.push(el("h3", { text: change.domain }),
      el("div", { text: `${(change.added || []).length} added · ${(change.changed || []).length} changed · ${(change.removed || []).length} removed` }),
      files.length ? el("ul", { class: "file-list" }, ...files.map((f) => el("li", { text: f }))) : el("div", { class: "muted", text: "No file changes." }));
  }
  if ((rec.warnings || []).length) body.push(el("h3", { text: "Warnings" }), el("ul", {}, ...rec.warnings.map((w) => el("li", { text: String(w) }))));
  if ((rec.requirements || []).length) body.push(el("h3", { text: "Requirements" }), el("ul", {}, ...rec.requirements.map((r) => el("li", { text: requirement(r) }))));
  const decl = rec.mock_declarations || {};
  for (const [domain, d] of Object.entries(decl)) {
    const badge = mockBadge(d.kind);
    if (!badge) continue;
    const panel = el("div", { class: "notice mock-panel" }, el("strong", { text: `${domain} ` }), badge);
    if (d.kind === "unmarked") panel.append(el("div", { text: UNDECLARED_TEXT }));
    else panel.append(el("ul", {}, ...(d.effects || []).map((e) => el("li", { text: `${e.name}: ${e.status}` }))));
    body.push(panel);
  }
  const api_ = rec.api || {};
  const effects = el("details", {}, el("summary", { text: "Effects and contracts" }));
  for (const [domain, info] of Object.entries(api_)) {
    effects.append(el("h4", { text: domain }));
    for (const e of info.effects || []) effects.append(el("div", { class: "api-entry" }, el("code", { text: e.signature || e.name }), e.docstring ? el("div", { class: "muted", text: e.docstring }) : null));
    for (const c of info.contracts || []) effects.append(el("div", { class: "api-entry" }, el("code", { text: c.signature || c.name }), c.description ? el("div", { class: "muted", text: c.description }) : null));
  }
  body.push(effects);
  const code = el("details", {}, el("summary", { text: "Source code" }));
  for (const [domain, files] of Object.entries(rec.source_code || {})) {
    for (const [name, text] of Object.entries(files || {})) code.append(el("h4", { text: `${domain}/${name}` }), el("pre", { class: "source", text: String(text) }));
  }
  body.push(code);
  const choice = await modal({ title: `${CONFIRM[action]}: ${(rec.domains || []).join(", ")}`, body, actions: [{ id: "apply", label: CONFIRM[action], primary: action !== "remove", danger: action === "remove" }] });
  if (choice !== "apply") {
    await api("/api/workspace/libraries/discard", { method: "POST", body: {} });
    return;
  }
  note(APPLYING[action] || "Applying…");
  draw();
  let applied = await api("/api/workspace/libraries/apply", { method: "POST", body: { id: rec.id } });
  if (!applied.ok && applied.code === "in_use" && action === "remove" && await removeFromConversation(rec)) {
    // The agent restarts with its new selection; the removal waits until the workspace is idle again.
    for (let tries = 0; tries < 10; tries += 1) {
      applied = await api("/api/workspace/libraries/apply", { method: "POST", body: { id: rec.id } });
      if (applied.ok || applied.code !== "busy") break;
      await whenState((next) => next.agent_status === "ready" && !next.operation, 3000);
    }
  }
  if (applied.ok) note(`${DONE[action]} ${(applied.data.domains || rec.domains || []).join(", ")}.${applied.data.backup ? ` Backup: ${applied.data.backup}` : ""}`);
  else note(applied.message, true);
  await loadLibraries();
  draw();
}

// Issue 12: a library the open conversation uses is named with that conversation, and the page offers
// to take it out of the conversation first (a removal applies at once, 05 SEL-10).
function whenState(test, ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    on("state", (s) => { if (test(s)) { clearTimeout(timer); resolve(true); } });
  });
}

async function removeFromConversation(rec) {
  const s = store.state;
  const using = (rec.domains || []).filter((d) => (s && s.libraries || []).includes(d));
  if (!s || !using.length) return false;
  const choice = await modal({
    title: "Library in use",
    body: [el("p", { text: `The conversation “${s.title}” uses ${using.join(", ")}. Remove it from that conversation, then remove the library from this project?` })],
    actions: [{ id: "both", label: "Remove from the conversation and the project", danger: true }],
  });
  if (choice !== "both") return false;
  const left = (s.libraries || []).filter((d) => !using.includes(d));
  const done = whenState((next) => next.conversation_id === s.conversation_id && !(next.libraries || []).some((d) => using.includes(d)), 15000);
  send("clauz3/libraries", { conversation_id: s.conversation_id, domains: left });
  return done;
}

export async function show() {
  message = null;
  draw();
  // Redraw only when the reload changed something: replacing the list while the person presses a
  // button on it loses that click (the press lands on the old button, the release on the new one).
  const before = JSON.stringify([store.libraries, store.librariesError]);
  await loadLibraries();
  if (JSON.stringify([store.libraries, store.librariesError]) !== before) draw();
}
