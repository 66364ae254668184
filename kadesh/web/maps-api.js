// The maps API (issue 61, docs/api.md): the server's check and preview of a map, and the shelf of a signed-in
// player's drafts and published maps. Every call answers { ok, status, body }: the body is the answer, or the
// problem document of a refusal ({ fr, en, … }); a server out of reach is { ok: false, status: 0, body: {} }.

async function call(method, path, body) {
  try {
    const response = await fetch(path, {
      method, headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { ok: response.ok, status: response.status, body: await response.json().catch(() => ({})) };
  } catch {
    return { ok: false, status: 0, body: {} };
  }
}
const at = (id) => `/api/maps/${encodeURIComponent(id)}`;

// { toml } or { document }: the engine's faults, the text and the document both ways.
export const check = (ruleset, map) => call("POST", "/api/maps/check", { ruleset, ...map });
export const preview = (ruleset, toml, seat) => call("POST", "/api/maps/preview", { ruleset, toml, seat });

// The shelf.
export const signedIn = async () => {
  const answer = await call("GET", "/api/account");
  return answer.ok ? answer.body : null;
};
export const fetchMap = (id) => call("GET", at(id));
// A new draft (no id yet), else the draft updated: { ruleset, name, description, toml }.
export function saveDraft(id, { ruleset, name, description, toml }) {
  return id ? call("PUT", at(id), { name, description, toml }) : call("POST", "/api/maps", { ruleset, name, description, toml });
}
export const publish = (id) => call("POST", `${at(id)}/publish`);
export const unpublish = (id) => call("POST", `${at(id)}/unpublish`);
// The signed-in player's drafts and published maps, the last changed first.
export const mine = () => call("GET", "/api/maps/mine");
