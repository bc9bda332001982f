// What a run's message says to a person (issue 22 item 8). The run record's `message` is written for
// the agent ("the person rejected this program: do not run it", "error: program.py:2:10: syntax-error:
// …"); the page shows a sentence that names the file as the person knows it and says what to do next.
// Internal reason codes never appear: each has its words here.

const REASONS = {
  proof_failed: "A guarantee could not be proved, so nothing ran.",
  runtime_error: "The program stopped with an error while it ran.",
  trusted_contract_violation: "A library broke its own promise while the program ran, so the run was stopped.",
  soundness_violation: "A checked value broke a proved guarantee while the program ran, so the run was stopped.",
  libraries_changed: "The libraries changed after this program was written, so nothing ran. Choose in the conversation whether to continue with the new libraries.",
  structural: "The program can't be checked, so nothing ran. Ask the agent to fix it and submit it again.",
  import_not_allowed: "The program imports a module clauz3 doesn't allow, so nothing ran. Ask the agent to use a library instead.",
  config: "clauz3's settings stopped this run before it started; nothing ran.",
  no_libraries: "This conversation has no libraries, so nothing ran. Add one with + Libraries, then ask again.",
  run_active: "Another run was still going, so this one didn't start. Wait for it or press Stop, then ask again.",
  idempotency_conflict: "The agent reused a request name for a different program, so nothing ran. Ask it to submit the program again.",
  sandbox_unavailable: "The sandbox clauz3 runs programs in isn't available on this computer, so nothing ran.",
  proof_deadline: "The proof took too long, so nothing ran. Ask the agent for a simpler program.",
  approval_expired: "Nobody decided before the approval expired, so nothing ran. Ask the agent to submit it again.",
  service_error: "clauz3's approval service couldn't be reached, so nothing ran. Try again in a moment.",
  approval_cancelled: "The approval was cancelled before a decision, so nothing ran.",
  sandbox_failed: "The sandbox failed to start the program, so nothing ran.",
  execution_timeout: "The program ran longer than its time limit and was stopped.",
  denied: "It wasn't approved, so nothing ran.",
  stopped: "Stopped.",
};

export function reasonWords(reason) {
  if (!reason) return "";
  return REASONS[reason] || `${String(reason).replace(/_/g, " ")}.`.replace(/^./, (c) => c.toUpperCase());
}

const DIAGNOSTIC = /^(?:error|warning|note): (.+?):(\d+):(\d+): [\w-]+: (.*?)(?: \(hint: (.*)\))?$/;

function sentence(text) {
  const t = String(text).trim();
  if (!t) return "";
  return (t[0].toUpperCase() + t.slice(1)).replace(/[.!?]?$/, ".");
}

// One diagnostic line as a sentence: "program.py, line 2, column 10: '(' was never closed. Fix the …".
export function plainDiagnostic(line) {
  const m = DIAGNOSTIC.exec(String(line).trim());
  if (!m) return sentence(line);
  const file = m[1].split("/").pop();
  return `${file}, line ${m[2]}, column ${m[3]}: ${sentence(m[4])}${m[5] ? ` ${sentence(m[5])}` : ""}`;
}

function quoted(text) {
  return `“${String(text).trim()}”`;
}

// The person's own decision, said back to them (never the words meant for the agent).
function denied(run, record) {
  const approval = (run && run.approval) || {};
  const decision = approval.decision || (record && record.decision);
  const feedback = approval.feedback || (record && record.feedback);
  if (decision === "rejected_contract") return `Nothing ran: you rejected its guarantees.${feedback ? ` You wrote: ${quoted(feedback)}.` : " Tell the agent the limits you want instead."}`;
  if (decision === "request_more") return `Nothing ran: you asked for more information.${feedback ? ` Your question: ${quoted(feedback)}.` : ""}`;
  if (decision === "auto_rejected") return "Nothing ran: a rule you remembered rejects programs like this one.";
  return `Nothing ran.${feedback ? ` You wrote: ${quoted(feedback)}.` : ""}`;
}

// The run's message for a person, or "" when there is none.
export function plainMessage(run, record) {
  if (!run) return "";
  if (run.reason === "denied") return denied(run, record);
  const raw = typeof run.message === "string" ? run.message.trim() : "";
  if (run.reason === "structural" || run.reason === "import_not_allowed") {
    const lines = raw.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("note: "));
    const said = lines.slice(0, 3).map(plainDiagnostic).join(" ");
    const next = run.reason === "structural" ? "Nothing ran. Ask the agent to fix the program and submit it again." : reasonWords(run.reason);
    return said ? `${said} ${next}` : reasonWords(run.reason);
  }
  if (!raw) return reasonWords(run.reason);
  return sentence(raw.split("\n").map((l) => (DIAGNOSTIC.test(l.trim()) ? plainDiagnostic(l) : l.trim())).filter(Boolean).join(" "));
}
