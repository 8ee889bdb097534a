// The share-link contract with the playground's decoder (web/src/share.rs), on the
// fixtures of tests/parity/share that web/tests/share_contract.rs checks too:
// the element still builds the fragments the Rust decoder opens, and the element's
// reader opens the fragment the playground's encoder built.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PKG, tl } from "./load.mjs";

const share = await import(path.join(PKG, "element", "share.js"));
const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, "../../../../tests/parity");
const read = (f) => fs.readFileSync(path.join(ROOT, "share", f), "utf8");

test("the element builds the fragments the playground's decoder opens", async () => {
  const { paste, state } = JSON.parse(read("element.json"));
  const text = fs.readFileSync(path.join(ROOT, "pastes", `${paste}.yaml`), "utf8");
  // The element's path: analyze the example, split it into panes, build the state.
  const a = tl.analyze(text, { kubernetesVersion: state.version, comparisonOperators: state.comparisonOperators });
  const built = share.playgroundState({
    nodes: a.panes.nodes,
    pods: a.panes.pods,
    version: state.version,
    comparisonOperators: a.comparisonOperators,
    admission: a.admission,
  });
  assert.deepEqual(built, state);
  // Without CompressionStream the fragment is deterministic: byte for byte the fixture.
  const saved = globalThis.CompressionStream;
  globalThis.CompressionStream = undefined;
  try {
    assert.equal(await share.shareFragment(built), read("element-stored.txt").trim());
  } finally {
    globalThis.CompressionStream = saved;
  }
  // Compressed fragments depend on the zlib build; the committed one still reads back.
  assert.deepEqual(await share.stateFromFragment(read("element-deflate.txt").trim()), state);
  assert.deepEqual(await share.stateFromFragment(await share.shareFragment(built)), state);
});

test("the element reads the fragment the playground's encoder built", async () => {
  const want = JSON.parse(read("playground.json"));
  const state = await share.stateFromFragment(`#${read("playground.txt").trim()}`);
  for (const k of ["nodes", "pods", "version", "comparisonOperators"]) assert.deepEqual(state[k], want[k], k);
  assert.equal(state.admission.enabled, want.admission.enabled);
  // And opens the same cluster the playground shows.
  const a = tl.analyze(
    { nodes: state.nodes, pods: state.pods },
    { kubernetesVersion: state.version, comparisonOperators: state.comparisonOperators, admission: state.admission.enabled },
  );
  assert.deepEqual(a.nodes.map((n) => n.name), want.expect.nodes);
  assert.deepEqual(a.pods.map((p) => p.name), want.expect.pods);
});

test("damaged fragments are refused", async () => {
  const good = read("element-stored.txt").trim();
  assert.equal(await share.stateFromFragment("#section-2"), null);
  assert.equal(await share.stateFromFragment(""), null);
  await assert.rejects(share.stateFromFragment(good.replace("v=1", "v=2")), /version/);
  await assert.rejects(share.stateFromFragment(`${good}!`), /base64/);
  await assert.rejects(share.stateFromFragment(good.slice(0, -8)));
});
