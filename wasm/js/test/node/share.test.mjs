// The "Open in playground" link: the playground's share format (web/src/share.rs, v1).
import { test } from "node:test";
import assert from "node:assert/strict";
import { inflateRawSync } from "node:zlib";
import path from "node:path";
import { PKG } from "./load.mjs";

const share = await import(path.join(PKG, "element", "share.js"));

function decode(fragment) {
  const m = fragment.match(/^v=1&s=([A-Za-z0-9_-]+)$/);
  assert.ok(m, `fragment format: ${fragment.slice(0, 40)}`);
  const bytes = Buffer.from(m[1].replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return JSON.parse(inflateRawSync(bytes).toString("utf8"));
}

test("the fragment is v=1&s=base64url(deflate-raw(JSON)) and round-trips", async () => {
  const state = share.playgroundState({ nodes: "kubectl taint nodes n1 a=b:NoSchedule\n", pods: "kind: Pod\n# ünïcode ✓\n", version: "1.34.3", comparisonOperators: true, admission: false });
  assert.deepEqual(state, { nodes: "kubectl taint nodes n1 a=b:NoSchedule\n", pods: "kind: Pod\n# ünïcode ✓\n", version: "1.34.3", comparisonOperators: true, admission: { enabled: false } });
  const fragment = await share.shareFragment(state);
  assert.doesNotMatch(fragment.slice("v=1&s=".length), /[+/=]/, "base64url without padding");
  assert.deepEqual(decode(fragment), state);
  const url = await share.playgroundUrl("https://docs.example/playground/", state);
  assert.ok(url.startsWith("https://docs.example/playground/#v=1&s="));
  assert.deepEqual(decode(url.split("#")[1]), state);
});

test("stored deflate blocks (no CompressionStream) decode too, across block boundaries", () => {
  for (const n of [0, 1, 65535, 65536, 140000]) {
    const data = new Uint8Array(n).map((_, i) => (i * 7) & 0xff);
    const out = inflateRawSync(share.deflateRawStored(data));
    assert.equal(Buffer.compare(out, Buffer.from(data)), 0, `length ${n}`);
  }
  assert.equal(share.base64url(new Uint8Array([251, 255])), "-_8");
  assert.equal(share.SHARE_VERSION, "1");
});
