// The playground's share-link format (web/src/share.rs, version 1): the URL fragment
// `v=1&s=<payload>`, where the payload is the playground state as JSON, compressed with
// raw deflate and written in base64url without padding. Fields left out of the state take
// the playground's defaults, so a widget only sends what it has.

/** Share-link format version. */
export const SHARE_VERSION = "1";

/** The playground opened when no URL is configured. */
export const DEFAULT_PLAYGROUND = "https://example.invalid/taintlab/";

/** base64url without padding. */
export function base64url(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Raw deflate with stored (uncompressed) blocks: valid everywhere, for browsers without CompressionStream. */
export function deflateRawStored(bytes) {
  const blocks = Math.max(1, Math.ceil(bytes.length / 65535));
  const out = new Uint8Array(bytes.length + blocks * 5);
  let o = 0;
  for (let i = 0; i < blocks; i++) {
    const chunk = bytes.subarray(i * 65535, (i + 1) * 65535);
    const n = chunk.length;
    out[o++] = i === blocks - 1 ? 1 : 0;
    out[o++] = n & 0xff;
    out[o++] = n >>> 8;
    out[o++] = ~n & 0xff;
    out[o++] = (~n >>> 8) & 0xff;
    out.set(chunk, o);
    o += n;
  }
  return out;
}

/** Raw deflate (compressed when the platform has CompressionStream). */
export async function deflateRaw(bytes) {
  if (typeof CompressionStream === "function") {
    try {
      const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate-raw"));
      return new Uint8Array(await new Response(stream).arrayBuffer());
    } catch {
      // Fall through: old engines without "deflate-raw".
    }
  }
  return deflateRawStored(bytes);
}

/** base64url (the standard alphabet and `=` padding accepted too) to bytes; null when it is not base64. */
export function fromBase64url(text) {
  const t = text.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
  if (t.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(t)) return null;
  const s = atob(t + "=".repeat((4 - (t.length % 4)) % 4));
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** Largest state a link may inflate to (the playground's limit). */
export const MAX_STATE_BYTES = 8 * 1024 * 1024;

/** Raw inflate with DecompressionStream, stopping beyond MAX_STATE_BYTES. */
export async function inflateRaw(bytes) {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_STATE_BYTES) {
      await reader.cancel();
      throw new Error("the shared state is too large");
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/**
 * The state a playground fragment (`v=1&s=...`, with or without `#`) carries, as the
 * playground reads it: null when it carries none, an error for another version or a
 * damaged payload.
 */
export async function stateFromFragment(fragment) {
  const f = fragment.startsWith("#") ? fragment.slice(1) : fragment;
  if (!f || !f.includes("=")) return null;
  const parts = new Map(f.split("&").map((p) => { const i = p.indexOf("="); return i < 0 ? [p, ""] : [p.slice(0, i), p.slice(i + 1)]; }));
  const v = parts.get("v");
  const s = parts.get("s");
  if (v === undefined && s === undefined) return null;
  if (v !== SHARE_VERSION) throw new Error(`unsupported share-link version ${JSON.stringify(v ?? "")}`);
  if (s === undefined) throw new Error("the link carries no state");
  const bytes = fromBase64url(s);
  if (!bytes) throw new Error("the link is not base64url");
  return JSON.parse(new TextDecoder().decode(await inflateRaw(bytes)));
}

/** The fragment (without `#`) that opens the playground with `state`. */
export async function shareFragment(state) {
  const json = new TextEncoder().encode(JSON.stringify(state));
  return `v=${SHARE_VERSION}&s=${base64url(await deflateRaw(json))}`;
}

/**
 * The playground state of an example: its two panes, the release, the gate and the
 * admission switch (the playground runs DefaultTolerationSeconds by default, like a cluster).
 * A what-if example (`actions` given, even empty) also carries its action lines and last
 * second as the playground's `scenario.actions` and `scenario.until` (web/src/store.rs
 * `Scenario`; `until` 0 lets the playground pick the last action's second + 600), and
 * opens on the What-if tab (`tab: "timeline"`).
 */
export function playgroundState({ nodes, pods, version, comparisonOperators = false, admission = true, actions, until }) {
  const state = { nodes, pods, comparisonOperators, admission: { enabled: admission } };
  if (version) state.version = version;
  if (actions != null) {
    state.scenario = { actions: String(actions), until: Number.isSafeInteger(until) && until > 0 ? until : 0 };
    state.tab = "timeline";
  }
  return state;
}

/**
 * The what-if part of a state read from a link, exactly as the playground's decoder reads
 * it (web/src/store.rs `Scenario`, serde defaults): `{actions, until}` with "" and 0 for
 * missing fields (`until` 0 or less: the playground picks the last action's second +
 * 600). Throws where the decoder refuses the whole link: `scenario` not an object,
 * `actions` not a string, `until` not a whole number.
 */
export function whatIfFromState(state) {
  const s = state?.scenario;
  if (s === undefined) return { actions: "", until: 0 };
  if (s === null || typeof s !== "object" || Array.isArray(s)) throw new Error("scenario: expected an object");
  const { actions = "", until = 0 } = s;
  if (typeof actions !== "string") throw new Error("scenario.actions: expected a string");
  if (!Number.isSafeInteger(until)) throw new Error("scenario.until: expected a whole number of seconds");
  return { actions, until };
}

/** The full "Open in playground" URL. */
export async function playgroundUrl(base, state) {
  const url = new URL(base || DEFAULT_PLAYGROUND, typeof document === "undefined" ? undefined : document.baseURI);
  url.hash = await shareFragment(state);
  return url.href;
}
