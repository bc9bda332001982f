// Issue 20: where the program's values came from, next to the guarantees. A value from data the agent
// read in a protected place is a warning in words; values from the person's own messages get a quiet
// "from your message". Every string arrives escaped by the authority and reaches the page through
// textContent only (02 UI-3).

import { el } from "./dom.js";

export function provenanceBlock(prov) {
  if (!prov || typeof prov !== "object") return null;
  const warnings = Array.isArray(prov.warnings) ? prov.warnings : [];
  const notes = Array.isArray(prov.notes) ? prov.notes : [];
  if (!warnings.length && !notes.length) return null;
  const nodes = [];
  if (warnings.length) {
    nodes.push(el("div", { class: "notice provenance-warning", role: "alert", "aria-label": "Where values came from" },
      el("strong", { text: "Check where this came from: " }),
      ...warnings.map((w) => el("p", { class: "provenance-line", text: String(w) })),
      el("p", { class: "provenance-rule", text: "No remembered approval or policy decides this request; you do." })));
  }
  if (notes.length) {
    nodes.push(el("div", { class: "provenance-notes", role: "note" },
      ...notes.map((n) => el("p", { class: "provenance-note", text: String(n) }))));
  }
  return el("div", { class: "provenance" }, ...nodes);
}

export function provenanceSuppressed(record) {
  const auto = (record && record.automatic) || {};
  return Boolean(auto.suppressed && auto.suppressed.reason === "provenance");
}
