// WebAuthn's JSON, both ways: the server sends options with base64url strings (webauthn's options_to_json),
// the browser's API wants ArrayBuffers, and the server reads the answer back as JSON (base64url again).
// Browsers that have PublicKeyCredential.parse…FromJSON and toJSON() use them; others get the same by hand.

const decode = (text) => {
  const base64 = text.replaceAll("-", "+").replaceAll("_", "/");
  return Uint8Array.from(atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0)).buffer;
};
const encode = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
  .replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

export function passkeysAvailable() {
  return typeof window.PublicKeyCredential === "function" && Boolean(navigator.credentials);
}

export function fromCreationJSON(options) {
  if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(options);
  return { ...options, challenge: decode(options.challenge), user: { ...options.user, id: decode(options.user.id) },
    excludeCredentials: (options.excludeCredentials ?? []).map((c) => ({ ...c, id: decode(c.id) })) };
}

export function fromRequestJSON(options) {
  if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(options);
  return { ...options, challenge: decode(options.challenge),
    allowCredentials: (options.allowCredentials ?? []).map((c) => ({ ...c, id: decode(c.id) })) };
}

export function toJSON(credential) {
  if (typeof credential.toJSON === "function") return credential.toJSON();
  const r = credential.response;
  const response = { clientDataJSON: encode(r.clientDataJSON) };
  if (r.attestationObject) Object.assign(response, { attestationObject: encode(r.attestationObject), transports: r.getTransports?.() ?? [] });
  if (r.authenticatorData) Object.assign(response, { authenticatorData: encode(r.authenticatorData), signature: encode(r.signature),
    userHandle: r.userHandle ? encode(r.userHandle) : null });
  return { id: credential.id, rawId: encode(credential.rawId), type: credential.type, response,
    clientExtensionResults: credential.getClientExtensionResults?.() ?? {}, authenticatorAttachment: credential.authenticatorAttachment };
}
