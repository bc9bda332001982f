// Constants the server gives the page (issue 15): the run phases and their words (from the one Phase
// enum) and the limits the server enforces come from the workspace (sessions/web/page_constants.py),
// never from a copy here.
// The block is in index.html, so it is there before any module runs.

function read() {
  const node = document.getElementById("page-constants");
  try {
    const data = JSON.parse(node ? node.textContent : "{}");
    return data && Array.isArray(data.phases) && data.limits ? data : { phases: [], limits: {} };
  } catch {
    return { phases: [], limits: {} };
  }
}

export const CONSTANTS = read();
// prompt_chars, attachment_bytes, attachments, feedback_chars, title_chars
export const LIMITS = CONSTANTS.limits;
// phase name → the run card's words; phase name → the header's activity words (active phases only)
export const PHASE_LABELS = Object.fromEntries(CONSTANTS.phases.map((p) => [p.name, p.label]));
// phase name → the transcript row's words for a `run` call whose run ended (final phases only)
export const ROW_LABELS = Object.fromEntries(CONSTANTS.phases.filter((p) => p.row).map((p) => [p.name, p.row]));
export const ACTIVITY_LABELS = Object.fromEntries(CONSTANTS.phases.filter((p) => p.activity).map((p) => [p.name, p.activity]));
const named = (kind) => new Set(CONSTANTS.phases.filter((p) => p[kind]).map((p) => p.name));
export const FINAL = named("final");        // the run ended
export const RAN = named("ran");            // the program itself ran: an exit code or a sandbox means something
export const EARLY_END = named("early_end"); // may have stopped after its claim, before its program returned
