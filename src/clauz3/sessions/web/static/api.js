// Same-origin JSON calls. Errors come back as {ok: false, status, code, message} with the
// server's sentence (02 HTTP-3); a missing route (404 with no error body of ours) is reported
// as `missing` so views can say what is not available instead of failing silently.

export const SIGN_IN = "Open the sign-in link from your terminal to continue.";

// Issue 19: the sign-in answer left this tab a page secret in sessionStorage (it survives a reload, not
// a new tab). Every API call and the socket's first frame carry it; the cookie alone is refused, since
// the browser also sends the cookie to any other port of 127.0.0.1.
const PAGE_SECRET_KEY = "clauz3-page";

export function pageSecret() {
  try { return sessionStorage.getItem(PAGE_SECRET_KEY) || ""; } catch { return ""; }
}

export async function api(path, { method = "GET", body, headers = {}, raw = false } = {}) {
  const init = { method, credentials: "same-origin", headers: { ...headers } };
  const secret = pageSecret();
  if (secret) init.headers["X-Clauz3-Page"] = secret;
  if (body !== undefined) {
    if (body instanceof Blob || body instanceof ArrayBuffer) init.body = body;
    else {
      init.body = JSON.stringify(body);
      init.headers["Content-Type"] = "application/json";
    }
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    return { ok: false, status: 0, code: "network", message: "The workspace service could not be reached." };
  }
  if (raw && response.ok) return { ok: true, status: response.status, response };
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (response.ok) return { ok: true, status: response.status, data };
  const error = data && data.error ? data.error : {};
  if (response.status === 401) return { ok: false, status: 401, code: "unauthenticated", message: SIGN_IN, data };
  const missing = response.status === 404 && (error.code === undefined || error.message === "There is no such page.");
  return {
    ok: false, status: response.status, code: error.code || "error", missing, data,
    message: error.message || `The request failed (HTTP ${response.status}).`,
  };
}
