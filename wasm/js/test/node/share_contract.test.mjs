// The share-link contract with the playground's decoder (web/src/share.rs), on the
// fixtures of tests/parity/share that web/tests/share_contract.rs checks too:
// the element still builds the fragments the Rust decoder opens, and the element's
// reader opens the fragment the playground's encoder built. The what-if cases (actions
// as the playground's `scenario.actions` and `scenario.until`) are checked on the Rust
// side by tests/parity/tests/share_whatif.rs.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PKG, tl, whatif } from "./load.mjs";

const share = await import(path.join(PKG, "element", "share.js"));
const { whatIfLines } = await import(path.join(PKG, "element", "fence.js"));
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

const WHATIF = path.join(ROOT, "whatif");
const whatIfCase = (name) => {
  const c = JSON.parse(fs.readFileSync(path.join(WHATIF, "cases.json"), "utf8")).cases.find((x) => x.name === name);
  assert.ok(c, name);
  const expected = JSON.parse(fs.readFileSync(path.join(WHATIF, "expected", `${name}.json`), "utf8"));
  const text = c.paste ? fs.readFileSync(path.join(WHATIF, "pastes", c.paste), "utf8") : "";
  return { c, expected, text };
};
const timelineOf = (r) => ({ actions: r.actions, notes: r.notes.map((n) => n.message), timeline: r.timeline });

test("what-if: the element builds the fragment the playground's decoder opens", async () => {
  const fixture = JSON.parse(read("whatif-element.json"));
  const { c, expected, text } = whatIfCase(fixture.case);
  // The element's path in what-if mode: the attribute's lines (`;` separated), analyze
  // for the panes, whatIf with the attribute's `until`, the state with the actions and
  // the second simulated.
  const actions = whatIfLines(fixture.attribute);
  assert.equal(actions, c.actions, "the attribute's lines are the case's");
  const a = tl.analyze(text);
  const r = whatif.whatIf(text, actions, { until: Number(fixture.until) });
  assert.deepEqual(timelineOf(r), expected.text);
  const built = share.playgroundState({
    nodes: a.panes.nodes,
    pods: a.panes.pods,
    version: a.kubernetesVersion,
    comparisonOperators: a.comparisonOperators,
    admission: a.admission,
    actions,
    until: r.timeline.until,
  });
  assert.deepEqual(built, fixture.state);
  assert.deepEqual(built.scenario, { actions: c.actions, until: c.until });
  assert.equal(built.tab, "timeline");
  const saved = globalThis.CompressionStream;
  globalThis.CompressionStream = undefined;
  try {
    assert.equal(await share.shareFragment(built), read("whatif-element-stored.txt").trim());
  } finally {
    globalThis.CompressionStream = saved;
  }
  const back = await share.stateFromFragment(await share.shareFragment(built));
  assert.deepEqual(back, fixture.state);
  assert.deepEqual(share.whatIfFromState(back), { actions: c.actions, until: c.until });
});

test("what-if: the element reads the fragment the playground's encoder built and simulates the same", async () => {
  const fixture = JSON.parse(read("whatif-playground.json"));
  const { c, expected } = whatIfCase(fixture.case);
  const state = await share.stateFromFragment(read("whatif-playground.txt").trim());
  assert.equal(state.nodes, expected.panes.nodes);
  assert.equal(state.pods, expected.panes.pods);
  assert.equal(state.version, fixture.version);
  assert.equal(state.tab, "timeline");
  const w = share.whatIfFromState(state);
  assert.deepEqual(w, { actions: c.actions, until: c.until });
  const r = whatif.whatIf({ nodes: state.nodes, pods: state.pods }, w.actions, {
    kubernetesVersion: state.version,
    comparisonOperators: state.comparisonOperators,
    admission: state.admission.enabled,
    until: w.until,
  });
  assert.deepEqual(timelineOf(r), expected.playground);
});

test("what-if: states without actions carry no scenario", () => {
  const plain = share.playgroundState({ nodes: "a", pods: "b" });
  assert.equal("scenario" in plain, false);
  assert.equal("tab" in plain, false);
  assert.deepEqual(share.whatIfFromState(plain), { actions: "", until: 0 });
  // An empty what-if widget still opens the What-if tab, with the playground's automatic second.
  assert.deepEqual(share.playgroundState({ nodes: "", pods: "", actions: "" }).scenario, { actions: "", until: 0 });
  assert.deepEqual(share.playgroundState({ nodes: "", pods: "", actions: "cordon n1", until: -5 }).scenario, { actions: "cordon n1", until: 0 });
});

test("what-if: every field a link may carry is read as the playground's decoder reads it, or refused as it is", async () => {
  // The same cases are decoded by web/src/share.rs in tests/parity/tests/share_whatif.rs.
  const { cases } = JSON.parse(read("whatif-fields.json"));
  assert.ok(cases.length >= 10);
  const saved = globalThis.CompressionStream;
  globalThis.CompressionStream = undefined;
  try {
    for (const c of cases) {
      const state = await share.stateFromFragment(await share.shareFragment(c.state));
      if (c.read) assert.deepEqual(share.whatIfFromState(state), c.read, JSON.stringify(c.state));
      else assert.throws(() => share.whatIfFromState(state), /^Error: scenario/, JSON.stringify(c.state));
    }
  } finally {
    globalThis.CompressionStream = saved;
  }
});
