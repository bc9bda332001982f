// clauz3's Pi host script (04 §10, PI-1..7): `node pi_session.mjs <config.json>` or
// `node pi_session.mjs --self-test <config.json>` (builds the session, reports tools and
// resources, exits without a model call). It hosts the Pi SDK by absolute path, connects to the
// clauz3 bridge itself as a minimal MCP stdio client, and exposes exactly the six clauz3 tools.
// stdout carries JSON lines only; every message it prints is authored here.
import fs from "node:fs";
import readline from "node:readline";
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";

const PIN = "0.82.1";
const SIX = ["run", "status", "tools", "libraries", "list_skills", "read_skill"];
const NAMES = SIX.map((t) => `mcp__clauz3__${t}`);
const MCP_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

const out = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");
const fatal = (message) => {
  out({ type: "fatal", message });
  process.exit(1);
};

const argv = process.argv.slice(2);
const selfTest = argv[0] === "--self-test";
let cfg;
try {
  cfg = JSON.parse(fs.readFileSync(selfTest ? argv[1] : argv[0], "utf8"));
} catch {
  fatal("The Pi session config could not be read.");
}
if (cfg.schema_version !== 1) fatal("Unsupported Pi session config.");

let sdk;
try {
  sdk = await import(pathToFileURL(cfg.sdk_entry).href);
} catch {
  fatal("The Pi SDK could not be loaded.");
}
if (sdk.VERSION !== PIN) fatal(`clauz3 needs Pi ${PIN}.`);

// -- a minimal MCP stdio client for the bridge -------------------------------------------------
class Bridge {
  constructor(entry) {
    this.nextId = 1;
    this.pending = new Map();
    this.child = spawn(entry.command, entry.args, {
      cwd: cfg.project,
      env: { ...process.env, ...entry.env },
      stdio: ["pipe", "pipe", "ignore"],
    });
    this.child.on("exit", () => {
      for (const { reject } of this.pending.values()) reject(new Error("bridge exited"));
      this.pending.clear();
    });
    readline.createInterface({ input: this.child.stdout }).on("line", (line) => this.onLine(line));
  }
  onLine(line) {
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      return;
    }
    if (msg && msg.method !== undefined && msg.id !== undefined) {
      // Server → client requests are not supported.
      this.write({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } });
      return;
    }
    if (msg && msg.id !== undefined && this.pending.has(msg.id)) {
      const { resolve, reject } = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (msg.error) reject(new Error("bridge error"));
      else resolve(msg.result);
    }
  }
  write(obj) {
    this.child.stdin.write(JSON.stringify(obj) + "\n");
  }
  request(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.write({ jsonrpc: "2.0", id, method, params });
    });
  }
  notify(method, params) {
    this.write({ jsonrpc: "2.0", method, params });
  }
  close() {
    this.child.kill("SIGTERM");
  }
}

const bridge = new Bridge(cfg.bridge);
let listed;
try {
  const init = await bridge.request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "clauz3-pi", version: PIN },
  });
  if (!MCP_VERSIONS.includes(init?.protocolVersion)) throw new Error("version");
  bridge.notify("notifications/initialized", {});
  listed = (await bridge.request("tools/list", {}))?.tools ?? [];
} catch {
  fatal("The clauz3 tools are unavailable.");
}
const listedNames = listed.map((t) => t.name).sort();
if (JSON.stringify(listedNames) !== JSON.stringify([...SIX].sort())) fatal("The clauz3 tools are unavailable.");

const textOf = (result) =>
  (result?.content ?? []).filter((c) => c?.type === "text").map((c) => c.text).join("\n");

const customTools = listed.map((tool) => ({
  name: `mcp__clauz3__${tool.name}`,
  label: `clauz3 ${tool.name}`,
  description: tool.description ?? tool.name,
  parameters: tool.inputSchema ?? { type: "object", properties: {} },
  async execute(_id, params) {
    const result = await bridge.request("tools/call", { name: tool.name, arguments: params ?? {} });
    const text = textOf(result);
    if (result?.isError) throw new Error(text || "The clauz3 tool failed.");
    return { content: [{ type: "text", text }], details: result?.structuredContent };
  },
}));

// A resource loader that loads nothing: no extensions, skills, prompts, themes or AGENTS.md.
const refuse = () => {
  throw new Error("clauz3 does not load Pi resources");
};
const resourceLoader = {
  getExtensions: () => ({ extensions: [], errors: [], runtime: sdk.createExtensionRuntime() }),
  getSkills: () => ({ skills: [], diagnostics: [] }),
  getPrompts: () => ({ prompts: [], diagnostics: [] }),
  getThemes: () => ({ themes: [], diagnostics: [] }),
  getAgentsFiles: () => ({ agentsFiles: [] }),
  getSystemPrompt: () => cfg.instructions,
  getAppendSystemPrompt: () => [],
  extendResources: refuse,
  reload: async () => {},
};

let session;
try {
  const modelRuntime = await sdk.ModelRuntime.create({
    authPath: cfg.auth_file,
    modelsPath: null,
    allowModelNetwork: false,
  });
  let model;
  if (cfg.model) {
    const all = modelRuntime.getAll ? modelRuntime.getAll() : [];
    const exact = all.filter((m) => `${m.provider}/${m.id}` === cfg.model);
    const byId = all.filter((m) => m.id === cfg.model);
    const found = exact.length === 1 ? exact : byId;
    if (found.length !== 1) fatal("Choose an exact Pi --model provider/model");
    model = found[0];
  }
  const settingsManager = sdk.SettingsManager.inMemory({
    compaction: { enabled: false },
    retry: { enabled: false },
  });
  const sessionManager = cfg.resume_file
    ? sdk.SessionManager.open(cfg.resume_file, cfg.session_dir, cfg.project)
    : sdk.SessionManager.create(cfg.project, cfg.session_dir);
  const created = await sdk.createAgentSession({
    cwd: cfg.project,
    agentDir: cfg.agent_dir,
    modelRuntime,
    model,
    noTools: "all",
    tools: NAMES,
    customTools,
    resourceLoader,
    sessionManager,
    settingsManager,
  });
  if (created.modelFallbackMessage && cfg.resume_file) fatal("The resumed Pi session's model is not available.");
  session = created.session;
} catch {
  fatal("Pi could not create its session.");
}

const toolsOk = () =>
  JSON.stringify([...session.getActiveToolNames()].sort()) === JSON.stringify([...NAMES].sort());

if (selfTest) {
  out({
    type: "self_test",
    sdk_version: sdk.VERSION,
    tools: session.getActiveToolNames(),
    resources: {
      extensions: resourceLoader.getExtensions().extensions.length,
      skills: resourceLoader.getSkills().skills.length,
      prompts: resourceLoader.getPrompts().prompts.length,
      agents_files: resourceLoader.getAgentsFiles().agentsFiles.length,
    },
  });
  bridge.close();
  process.exit(0);
}
if (!toolsOk()) fatal("Pi's active tools are not the six clauz3 tools.");
if (!session.model) fatal("Pi has no model configured; pass --model provider/model.");
out({ type: "ready", sdk_version: sdk.VERSION, tools: session.getActiveToolNames(), session_file: session.sessionFile ?? null });

session.subscribe((event) => {
  if (event.type === "message_update" && event.assistantMessageEvent?.type === "text_delta") {
    out({ type: "text_delta", text: event.assistantMessageEvent.delta });
  } else if (event.type === "tool_execution_start") {
    out({ type: "tool_start", id: event.toolCallId, name: event.toolName, args: event.args });
  } else if (event.type === "tool_execution_end") {
    out({ type: "tool_end", id: event.toolCallId, is_error: !!event.isError, result: textOf(event.result) });
  }
});

readline.createInterface({ input: process.stdin }).on("line", async (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (msg.type === "abort") {
    await session.abort().catch(() => {});
  } else if (msg.type === "prompt" && typeof msg.text === "string") {
    if (msg.text.startsWith("/")) return out({ type: "turn_end", error: "commands are off" });
    if (!toolsOk()) fatal("Pi's active tools are not the six clauz3 tools.");
    try {
      await session.prompt(msg.text);
      out({ type: "turn_end" });
    } catch {
      out({ type: "turn_end", error: "the model request failed" });
    }
  }
});
process.stdin.on("end", () => {
  bridge.close();
  process.exit(0);
});
