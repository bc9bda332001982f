// Incremental Markdown (02 UI-4) that never interprets HTML: every node is built with
// createElement/textContent, links only for http:, https: and mailto: (new tab, noopener
// noreferrer), images and other schemes render as text. Cost is linear in the text: complete
// lines are fed once to a block parser that appends to the open block's DOM; only the unfinished
// last line is shown as a plain text tail until its newline arrives.

import { copyButton, el } from "./dom.js";

const MAX_DEPTH = 8;
const FENCE_RE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const HEADING_RE = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const HR_RE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE_RE = /^ {0,3}> ?(.*)$/;
const LIST_RE = /^( {0,3})([-+*]|\d{1,9}[.)])( +|$)(.*)$/;
const DELIM_RE = /^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const LINK_SCHEMES = new Set(["http:", "https:", "mailto:"]);

export function safeHref(raw) {
  try {
    const url = new URL(raw);
    return LINK_SCHEMES.has(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

function link(href, parent) {
  const a = el("a", { href, target: "_blank", rel: "noopener noreferrer" });
  parent.append(a);
  return a;
}

// -- inline -----------------------------------------------------------------------------------------

const SPECIAL = /[\\`*_~[!<h]/g;
const PUNCT = /[!-/:-@[-`{-~]/;
const WORD = /[\p{L}\p{N}]/u;

export function renderInline(text, parent, depth = 0, inLink = false) {
  let plain = "";
  let i = 0;
  const disabled = new Set();  // closers known to be absent after this point
  const flush = () => { if (plain) { parent.append(plain); plain = ""; } };
  SPECIAL.lastIndex = 0;
  while (i < text.length) {
    SPECIAL.lastIndex = i;
    const found = SPECIAL.exec(text);
    if (!found) { plain += text.slice(i); break; }
    const at = found.index;
    plain += text.slice(i, at);
    const c = text[at];
    const consumed = depth < MAX_DEPTH ? special(c, text, at, parent, depth, inLink, disabled, flush) : 0;
    if (consumed > 0) i = at + consumed;
    else { plain += c; i = at + 1; }
  }
  flush();
}

function special(c, text, at, parent, depth, inLink, disabled, flush) {
  if (c === "\\") {
    const next = text[at + 1];
    if (next !== undefined && PUNCT.test(next)) { flush(); parent.append(next); return 2; }
    return 0;
  }
  if (c === "`") {
    let n = 1;
    while (text[at + n] === "`") n += 1;
    const ticks = "`".repeat(n);
    if (disabled.has(ticks)) return n;
    let end = text.indexOf(ticks, at + n);
    while (end !== -1 && text[end + n] === "`") {
      let skip = end;
      while (text[skip] === "`") skip += 1;
      end = text.indexOf(ticks, skip);
    }
    if (end === -1) { disabled.add(ticks); flush(); parent.append(ticks); return n; }
    let inner = text.slice(at + n, end).replace(/\n/g, " ");
    if (inner.length > 2 && inner.startsWith(" ") && inner.endsWith(" ")) inner = inner.slice(1, -1);
    flush();
    parent.append(el("code", { text: inner }));
    return end + n - at;
  }
  if (c === "*" || c === "_" || c === "~") {
    let n = 1;
    while (text[at + n] === c) n += 1;
    if (c === "~" && n !== 2) return 0;
    if (n > 3) return 0;
    const run = c.repeat(n);
    const after = text[at + n];
    if (after === undefined || /\s/.test(after)) return 0;
    if (c === "_" && at > 0 && WORD.test(text[at - 1])) return 0;
    if (disabled.has(run)) return 0;
    const end = text.indexOf(run, at + n + 1);
    if (end === -1) { disabled.add(run); return 0; }
    if (/\s/.test(text[end - 1]) || text[end + n] === c) return 0;
    if (c === "_" && WORD.test(text[end + n] || "")) return 0;
    flush();
    let node;
    if (c === "~") node = el("del");
    else if (n === 1) node = el("em");
    else if (n === 2) node = el("strong");
    else { node = el("strong"); const em = el("em"); node.append(em); parent.append(node); renderInline(text.slice(at + n, end), em, depth + 1, inLink); return end + n - at; }
    parent.append(node);
    renderInline(text.slice(at + n, end), node, depth + 1, inLink);
    return end + n - at;
  }
  if (c === "!" && text[at + 1] === "[") {
    const parsed = bracket(text, at + 1);
    if (!parsed) return 0;
    flush();
    // Images are never fetched: alt text and address as text.
    parent.append(parsed.label ? `${parsed.label} (${parsed.url})` : parsed.url);
    return parsed.end - at;
  }
  if (c === "[") {
    const parsed = bracket(text, at);
    if (!parsed) return 0;
    flush();
    const href = inLink ? null : safeHref(parsed.url);
    if (href) renderInline(parsed.label || parsed.url, link(href, parent), depth + 1, true);
    else parent.append(`${parsed.label} (${parsed.url})`);
    return parsed.end - at;
  }
  if (c === "<") {
    const m = /^<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]+)>/.exec(text.slice(at, at + 2100));
    if (!m) return 0;
    flush();
    const href = inLink ? null : safeHref(m[1]);
    if (href) link(href, parent).textContent = m[1];
    else parent.append(m[0]);
    return m[0].length;
  }
  if (c === "h" && !inLink && (at === 0 || !WORD.test(text[at - 1]))) {
    if (!text.startsWith("http://", at) && !text.startsWith("https://", at)) return 0;
    const m = /^https?:\/\/[^\s<>"`]+/.exec(text.slice(at, at + 2100));
    if (!m) return 0;
    let url = m[0];
    while (/[.,;:!?)'*_~]$/.test(url)) url = url.slice(0, -1);
    const href = safeHref(url);
    if (!href || url.length <= 8) return 0;
    flush();
    link(href, parent).textContent = url;
    return url.length;
  }
  return 0;
}

function bracket(text, at) {
  const close = text.indexOf("](", at + 1);
  if (close === -1 || close - at > 1000) return null;
  const end = text.indexOf(")", close + 2);
  if (end === -1 || end - close > 2100) return null;
  const target = text.slice(close + 2, end).trim();
  const url = target.split(/\s+/)[0].replace(/^<|>$/g, "");
  if (!url) return null;
  return { label: text.slice(at + 1, close), url, end: end + 1 };
}

// -- blocks -------------------------------------------------------------------------------------------

function interrupts(line) {
  if (FENCE_RE.test(line) || HEADING_RE.test(line) || HR_RE.test(line) || QUOTE_RE.test(line)) return true;
  const m = LIST_RE.exec(line);
  return Boolean(m && m[4].trim() && (/^[-+*]$/.test(m[2]) || /^1[.)]$/.test(m[2])));
}

// A long paragraph is laid out in runs of RUN_LINES lines (one <p> each, no gap between them):
// appending to one ever-growing inline box would make the browser re-flow all of it every frame,
// so streaming would cost quadratic time.
const RUN_LINES = 64;

class Paragraph {
  constructor(parent, line) {
    this.node = el("p");
    parent.append(this.node);
    this.nodes = [this.node];
    this.lines = [line];
    this.runLines = 1;
    this.parent = parent;
    renderInline(line.trim(), this.node);
  }
  accept(line) {
    if (!line.trim() || interrupts(line)) return false;
    if (this.lines.length === 1 && DELIM_RE.test(line) && this.lines[0].includes("|") && line.includes("-")) {
      const table = new Table(this.parent, this.lines[0], line);
      this.node.replaceWith(table.wrap);
      return table;
    }
    this.lines.push(line);
    if (this.runLines >= RUN_LINES) {
      this.node.classList.add("run-open");
      this.node = el("p", { class: "run-cont" });
      this.nodes[this.nodes.length - 1].after(this.node);
      this.nodes.push(this.node);
      this.runLines = 0;
    } else {
      this.node.append("\n");
    }
    this.runLines += 1;
    renderInline(line.trim(), this.node);
    return true;
  }
  close() {
    // Emphasis may span lines: render the whole paragraph once more, only when it could matter.
    if (this.lines.length > 1) {
      const joined = this.lines.map((l) => l.trim()).join("\n");
      if (/[*_~`[<]/.test(joined)) {
        const first = this.nodes[0];
        for (const extra of this.nodes.slice(1)) extra.remove();
        first.classList.remove("run-open");
        first.replaceChildren();
        renderInline(joined, first);
        this.nodes = [first];
        this.node = first;
      }
    }
  }
}

function splitRow(line) {
  let body = line.trim();
  if (body.startsWith("|")) body = body.slice(1);
  if (body.endsWith("|") && !body.endsWith("\\|")) body = body.slice(0, -1);
  const cells = [];
  let cell = "";
  for (let i = 0; i < body.length; i += 1) {
    if (body[i] === "\\" && body[i + 1] === "|") { cell += "|"; i += 1; }
    else if (body[i] === "|") { cells.push(cell.trim()); cell = ""; }
    else cell += body[i];
  }
  cells.push(cell.trim());
  return cells;
}

class Table {
  constructor(parent, header, delimiter) {
    this.aligns = splitRow(delimiter).map((d) => {
      const left = d.startsWith(":");
      const right = d.endsWith(":");
      return left && right ? "center" : right ? "right" : left ? "left" : "";
    });
    this.table = el("table");
    this.wrap = el("div", { class: "table-wrap" }, this.table);
    const row = el("tr");
    splitRow(header).forEach((cell, i) => row.append(this.cell("th", cell, i)));
    this.body = el("tbody");
    this.table.append(el("thead", {}, row), this.body);
  }
  cell(tag, text, i) {
    const node = el(tag, { class: this.aligns[i] ? `align-${this.aligns[i]}` : null });
    renderInline(text, node);
    return node;
  }
  accept(line) {
    if (!line.trim() || !line.includes("|")) return false;
    const row = el("tr");
    const cells = splitRow(line);
    for (let i = 0; i < this.aligns.length; i += 1) row.append(this.cell("td", cells[i] || "", i));
    this.body.append(row);
    return true;
  }
  close() {}
}

class Fence {
  constructor(parent, m) {
    this.indent = m[1].length;
    this.marker = m[2];
    this.text = document.createTextNode("");
    this.first = true;
    const info = m[3].trim().split(/\s+/)[0];
    const code = el("code", { class: info ? "lang" : null, "data-lang": info || null });
    code.append(this.text);
    this.node = el("div", { class: "code-block" }, el("pre", {}, code), copyButton("Copy code", () => this.text.data));
    parent.append(this.node);
    this.done = false;
  }
  accept(line) {
    if (this.done) return false;
    const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
    if (m && m[1][0] === this.marker[0] && m[1].length >= this.marker.length) { this.done = true; return true; }
    let body = line;
    let strip = this.indent;
    while (strip > 0 && body.startsWith(" ")) { body = body.slice(1); strip -= 1; }
    this.text.appendData(this.first ? body : `\n${body}`);
    this.first = false;
    return true;
  }
  close() {}
}

class Quote {
  constructor(parent, depth) {
    this.node = el("blockquote");
    parent.append(this.node);
    this.child = new Blocks(this.node, depth + 1);
  }
  accept(line) {
    const m = QUOTE_RE.exec(line);
    if (m) { this.child.line(m[1]); return true; }
    if (!line.trim()) return false;
    if (this.child.open instanceof Paragraph && !interrupts(line)) { this.child.line(line); return true; }
    return false;
  }
  close() { this.child.close(); }
}

class List {
  constructor(parent, m, depth) {
    this.ordered = !/^[-+*]$/.test(m[2]);
    this.kind = this.ordered ? m[2].slice(-1) : m[2];
    this.node = el(this.ordered ? "ol" : "ul");
    if (this.ordered) {
      const start = parseInt(m[2], 10);
      if (start !== 1) this.node.setAttribute("start", String(start));
    }
    parent.append(this.node);
    this.depth = depth;
    this.blank = false;
    this.item(m);
  }
  item(m) {
    const spaces = m[3].length;
    const width = m[1].length + m[2].length + (spaces >= 1 && spaces <= 4 && m[4] ? spaces : 1);
    this.indent = width;
    this.li = el("li");
    this.node.append(this.li);
    if (this.child) this.child.close();
    this.child = new Blocks(this.li, this.depth + 1);
    if (m[4]) this.child.line(m[4]);
    this.blank = false;
  }
  accept(line) {
    if (!line.trim()) { this.blank = true; this.child.line(""); return true; }
    const lead = line.length - line.trimStart().length;
    if (lead >= this.indent) { this.child.line(line.slice(this.indent)); this.blank = false; return true; }
    const m = LIST_RE.exec(line);
    if (m && !HR_RE.test(line)) {
      const ordered = !/^[-+*]$/.test(m[2]);
      const kind = ordered ? m[2].slice(-1) : m[2];
      if (ordered === this.ordered && kind === this.kind) { this.item(m); return true; }
      return false;
    }
    if (!this.blank && this.child.open instanceof Paragraph && !interrupts(line)) {
      this.child.line(line.trimStart());
      return true;
    }
    return false;
  }
  close() { this.child.close(); }
}

class Blocks {
  constructor(container, depth = 0) {
    this.container = container;
    this.depth = depth;
    this.open = null;
  }
  line(raw) {
    const line = raw.includes("\t") ? raw.replace(/\t/g, "    ") : raw;
    if (this.open) {
      const result = this.open.accept(line);
      if (result === true) return;
      if (result && typeof result === "object") { this.open = result; return; }
      this.open.close();
      this.open = null;
    }
    this.start(line);
  }
  start(line) {
    if (!line.trim()) return;
    const deep = this.depth >= MAX_DEPTH;
    let m;
    if ((m = FENCE_RE.exec(line)) && !(m[2][0] === "`" && m[3].includes("`"))) {
      this.open = new Fence(this.container, m);
    } else if ((m = HEADING_RE.exec(line))) {
      const level = Math.min(m[1].length + 2, 6);
      const h = el(`h${level}`, { class: `md-h${m[1].length}` });
      renderInline(m[2] || "", h);
      this.container.append(h);
    } else if (HR_RE.test(line)) {
      this.container.append(el("hr"));
    } else if (!deep && QUOTE_RE.test(line)) {
      this.open = new Quote(this.container, this.depth);
      this.open.accept(line);
    } else if (!deep && (m = LIST_RE.exec(line))) {
      this.open = new List(this.container, m, this.depth);
    } else {
      this.open = new Paragraph(this.container, line);
    }
  }
  close() {
    if (this.open) this.open.close();
    this.open = null;
  }
}

// A message being streamed: push() raw text as it arrives, end() when the message is complete.
export class MarkdownStream {
  constructor(container) {
    this.container = container;
    this.blocks = new Blocks(container);
    this.parts = [];
    this.partial = "";
    this.tail = null;
  }
  push(text) {
    if (!text) return;
    this.parts.push(text);
    const nl = text.lastIndexOf("\n");
    if (nl === -1) {
      this.partial += text;
      this.showTail(text, false);
      return;
    }
    const lines = (this.partial + text.slice(0, nl)).split("\n");
    this.partial = text.slice(nl + 1);
    for (const line of lines) this.blocks.line(line);
    this.showTail(this.partial, true);
  }
  showTail(text, reset) {
    if (!this.tail) {
      this.tail = document.createTextNode("");
      this.tailNode = el("p", { class: "md-tail" });
      this.tailNode.append(this.tail);
    }
    if (reset) this.tail.data = text; else this.tail.appendData(text);
    // Keep the tail after everything the block parser appended.
    if (this.tail.data) {
      if (this.tailNode.parentNode !== this.container || this.container.lastChild !== this.tailNode) this.container.append(this.tailNode);
    } else if (this.tailNode.parentNode) this.tailNode.remove();
  }
  end() {
    if (this.partial) this.blocks.line(this.partial);
    this.partial = "";
    if (this.tailNode && this.tailNode.parentNode) this.tailNode.remove();
    this.blocks.close();
  }
  text() {
    if (this.parts.length > 1) this.parts = [this.parts.join("")];
    return this.parts[0] || "";
  }
}
