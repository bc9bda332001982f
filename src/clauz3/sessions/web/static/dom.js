// DOM helpers. Every piece of data reaches the page through textContent or attributes set here;
// nothing in this file (or any other module) parses data as HTML (02 UI-3).

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key === "class") node.className = value;
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child);
  }
  return node;
}

export function button(label, onclick, attrs = {}) {
  return el("button", { type: "button", text: label, onclick, ...attrs });
}

// The outcome line a page view shows above its content after an action.
export function statusNote(text, error = false) {
  return el("div", { class: `notice ${error ? "error" : "info"}`, role: "status", text });
}

// A collapsible section whose open state survives re-renders: callers pass a key and a Set of
// keys that are open (the owner keeps that Set across redraws).
export function disclosure(summary, openKeys, key, ...children) {
  const node = el("details", { "data-key": key }, el("summary", { text: summary }), ...children);
  if (openKeys && openKeys.has(key)) node.open = true;
  node.addEventListener("toggle", () => {
    if (!openKeys) return;
    if (node.open) openKeys.add(key); else openKeys.delete(key);
  });
  return node;
}

export function formatSize(bytes) {
  if (typeof bytes !== "number" || !Number.isFinite(bytes)) return "";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function formatTime(value) {
  const date = typeof value === "number" ? new Date(value * 1000) : new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleString();
}

// Clipboard: the async API first, then a hidden-textarea fallback (05 HND-5).
export async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext !== false) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch { /* fall through to the fallback */ }
  const area = el("textarea", { class: "offscreen", "aria-hidden": "true", tabindex: "-1" });
  area.value = text;
  document.body.append(area);
  area.select();
  let ok = false;
  try { ok = document.execCommand("copy"); } catch { ok = false; }
  area.remove();
  return ok;
}

// A "Copy …" button that says Copied / Copy failed for a moment (its name stays the label).
export function copyButton(label, getText) {
  const node = button(label, async () => {
    const ok = await copyText(getText());
    node.dataset.result = ok ? "Copied" : "Copy failed";
    node.title = node.dataset.result;
    node.classList.toggle("copied", ok);
    setTimeout(() => { node.classList.remove("copied"); delete node.dataset.result; }, 1500);
  }, { class: "small copy" });
  return node;
}

// The 🧪 Mock / 🧪 Mixed badge or the Undeclared notice (05 MOCK-4, MOCK-5); real → nothing.
export const MOCK_TOOLTIP = "The library's author declares these tools as simulations. This is a claim, not isolation — read the implementation.";
export const UNDECLARED_TEXT = "Some tools here do nothing, but their author has not declared them as mocks.";

// Stock Debian fonts have no emoji, so the 🧪 is drawn as a small test-tube icon; the emoji
// itself stays in the text (visually hidden) so the badge's text and accessible name are exact.
function testTube() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "tube");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", "M6 1.5h4M6.8 1.5v9.2a1.2 1.2 0 0 0 2.4 0V1.5M6.8 7h2.4");
  svg.append(path);
  return svg;
}

function labelledMock(label) {
  return el("span", { class: "badge mock", title: MOCK_TOOLTIP },
    testTube(), el("span", { class: "glyph-text", text: "🧪" }), ` ${label}`);
}

export function mockBadge(kind) {
  if (kind === "mock") return labelledMock("Mock");
  if (kind === "mixed") return labelledMock("Mixed");
  if (kind === "unmarked") return el("span", { class: "badge undeclared", title: UNDECLARED_TEXT, text: "Undeclared" });
  return null;
}

// Elements that can take focus inside a container (for focus traps and menus).
export function focusables(root) {
  return [...root.querySelectorAll("button, [href], input, select, textarea, [tabindex]:not([tabindex='-1'])")]
    .filter((n) => !n.disabled && !n.hidden && n.getClientRects().length > 0 && !n.closest("[hidden]"));
}
