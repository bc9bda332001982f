// Modal dialogs (native <dialog>: page inert, focus trapped, Esc cancels) and menus that focus
// their first enabled item, move with the arrow keys and close on Esc (02 UI-7, UI-10).

import { button, el } from "./dom.js";

// Show a modal; resolves with the chosen action id (or null on Cancel/Esc). `body` is a node
// list; `actions` is [{id, label, primary?, danger?}]. Focus returns to the opener.
export function modal({ title, body = [], actions = [], cancel = "Cancel", label, safe = false }) {
  const opener = document.activeElement;
  return new Promise((resolve) => {
    const heading = el("h2", { text: title, id: `dlg-${Math.random().toString(36).slice(2)}` });
    const dialog = el("dialog", { class: "dialog", "aria-labelledby": label ? null : heading.id, "aria-label": label || null });
    let result = null;
    const row = el("div", { class: "dialog-actions" });
    if (cancel) row.append(button(cancel, () => dialog.close()));
    for (const action of actions) {
      row.append(button(action.label, () => { result = action.id; dialog.close(); },
        { class: action.danger ? "danger" : action.primary ? "primary" : null, disabled: action.disabled || null }));
    }
    dialog.append(heading, el("div", { class: "dialog-body" }, ...body), row);
    dialog.addEventListener("close", () => {
      dialog.remove();
      if (opener && opener.isConnected && typeof opener.focus === "function") opener.focus();
      resolve(result);
    });
    document.body.append(dialog);
    dialog.showModal();
    // A dangerous choice never takes the focus (Enter must not delete): Cancel does (issue 12).
    // A risky choice (`safe: true`: it makes a standing rule) is treated the same (issue 22).
    const danger = actions.some((a) => a.danger) || safe;
    const first = danger ? row.querySelector("button") : row.querySelector("button.primary") || row.querySelector("button");
    if (first && !body.some((n) => n.querySelector && n.querySelector("input, textarea"))) first.focus();
  });
}

export async function confirmDialog(title, text, confirmLabel, { danger = false } = {}) {
  const choice = await modal({ title, body: [el("p", { text })], actions: [{ id: "ok", label: confirmLabel, danger, primary: !danger }] });
  return choice === "ok";
}

// --- menus -------------------------------------------------------------------------------------

let openMenu = null;

export function closeMenu(returnFocus = true) {
  if (!openMenu) return;
  const { menu, opener, onClose } = openMenu;
  openMenu = null;
  menu.hidden = true;
  opener.setAttribute("aria-expanded", "false");
  if (onClose) onClose();
  if (returnFocus && opener.isConnected) opener.focus();
}

// items: [{label, run, disabled?, note?, current?, group?}] — a `group` entry is a label row.
export function fillMenu(menu, items) {
  menu.replaceChildren();
  for (const item of items) {
    if (item.group) {
      menu.append(el("div", { class: "menu-group", role: "presentation", text: item.group }));
      continue;
    }
    const node = el("button", {
      type: "button", role: "menuitem", class: "menu-item" + (item.current ? " current" : ""),
      "aria-disabled": item.disabled ? "true" : null, title: item.title || null,
      "aria-current": item.current ? "true" : null,
    }, el("span", { class: "menu-label", text: item.label }));
    if (item.note) node.append(el("span", { class: "menu-note", text: item.note, "aria-hidden": "true" }));
    node.addEventListener("click", (event) => {
      event.stopPropagation();
      if (item.disabled) return;
      // Focus goes back to the menu's button first, so a dialog the item opens returns it there (UI-7).
      closeMenu(true);
      item.run();
    });
    menu.append(node);
  }
}

export function openMenuAt(opener, menu, onClose) {
  if (openMenu && openMenu.menu === menu) { closeMenu(); return; }
  closeMenu(false);
  openMenu = { menu, opener, onClose };
  menu.hidden = false;
  opener.setAttribute("aria-expanded", "true");
  const items = enabledItems(menu);
  if (items.length) items[0].focus();
}

function enabledItems(menu) {
  return [...menu.querySelectorAll("[role=menuitem], [role=menuitemcheckbox]")].filter((n) => n.getAttribute("aria-disabled") !== "true");
}

document.addEventListener("keydown", (event) => {
  if (!openMenu) return;
  const { menu } = openMenu;
  if (event.key === "Escape") { event.preventDefault(); event.stopPropagation(); closeMenu(); return; }
  if (!["ArrowDown", "ArrowUp", "Home", "End"].includes(event.key)) return;
  const items = enabledItems(menu);
  if (!items.length) return;
  event.preventDefault();
  const index = items.indexOf(document.activeElement);
  let next = 0;
  if (event.key === "ArrowDown") next = index < 0 ? 0 : (index + 1) % items.length;
  else if (event.key === "ArrowUp") next = index <= 0 ? items.length - 1 : index - 1;
  else if (event.key === "End") next = items.length - 1;
  items[next].focus();
}, true);

document.addEventListener("click", (event) => {
  if (openMenu && !openMenu.menu.contains(event.target)) closeMenu(false);
});
