// Parity with the playground: every paste of tests/parity/pastes through the npm
// package's `analyze`, mapped to the summary tests/parity/src/lib.rs writes, must equal
// the summaries committed in tests/parity/expected (which the Rust test checks against
// the scenario natively):
//   analyze(text)                          == expected.text       (the docs element)
//   analyze(text).panes                    == expected.panes      ("Open in playground")
//   analyze({nodes: panes, pods: panes})   == expected.playground (the playground's panes)
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tl } from "./load.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, "../../../../tests/parity");

const loc = (l) => (l && l.line ? [l.document, l.line, l.column, l.path] : null);
const taint = (t) => `${t.key}|${t.value}|${t.effect}`;
const toleration = (t) =>
  `${t.key}|${t.operator}|${t.value}|${t.effect}|${t.tolerationSeconds ?? "-"}`;

/** The npm result in the shape of tests/parity's `summary`. */
export function summarize(a) {
  return {
    nodes: a.nodes.map((n) => ({
      name: n.name,
      taints: n.taints.map(taint),
      unschedulable: n.unschedulable,
      origin: n.origin,
      pane: n.pane,
      location: loc(n.location),
    })),
    pods: a.pods.map((p) => ({
      name: p.name,
      namespace: p.namespace,
      kind: p.kind,
      origin: p.origin,
      pane: p.pane,
      location: loc(p.location),
      admitted: p.admitted,
      rejection: p.rejection,
      tolerations: p.tolerations.map((t) => ({ toleration: toleration(t.toleration), origin: t.origin, location: loc(t.location) })),
      dropped: p.dropped.map((d) => toleration(d.toleration)),
      validation: p.validation.map((e) => e.message),
      statusMessage: p.statusMessage,
      message: p.schedule.message,
      nodes: p.nodes.map((x, i) => ({
        verdict: p.schedule.nodes[i]?.verdict ?? null,
        score: p.schedule.nodes[i]?.score ?? null,
        evictedAt: x.eviction?.pods?.[0]?.evictedAt ?? null,
        rejectedBy: p.schedule.nodes[i]?.rejectedBy ?? null,
        hold: p.schedule.nodes[i]?.hold ?? null,
      })),
    })),
    commands: a.commands.map((c) => ({
      command: c.command,
      pane: c.pane,
      location: loc(c.location),
      rejected: c.rejected,
      exitCode: c.exitCode,
      stdout: c.stdout,
      stderr: c.stderr,
      created: c.created,
    })),
    diagnostics: a.diagnostics.map((d) => ({
      severity: d.severity,
      code: d.code,
      pane: d.pane,
      location: [d.location.document, d.location.line, d.location.column, d.location.path],
      message: d.message,
    })),
    errors: a.errors,
  };
}

const pastes = fs
  .readdirSync(path.join(ROOT, "pastes"))
  .sort()
  .map((file) => {
    const name = file.replace(/\.[^.]+$/, "");
    return {
      name,
      text: fs.readFileSync(path.join(ROOT, "pastes", file), "utf8"),
      expected: JSON.parse(fs.readFileSync(path.join(ROOT, "expected", `${name}.json`), "utf8")),
    };
  });

test("at least 30 pastes", () => {
  assert.ok(pastes.length >= 30, `${pastes.length} pastes`);
});

for (const { name, text, expected } of pastes) {
  test(`parity: ${name}`, () => {
    const a = tl.analyze(text);
    assert.deepEqual(summarize(a), expected.text, "analyze(text) differs from the scenario");
    assert.deepEqual(a.panes, expected.panes, "the playground panes differ");
    const b = tl.analyze({ nodes: expected.panes.nodes, pods: expected.panes.pods });
    assert.deepEqual(summarize(b), expected.playground, "analyze(panes) differs from the playground");
    assert.equal(b.panes, null);
  });
}

test("the comparison sees a divergence", () => {
  // The same paste with other options must not compare equal: the summaries are not
  // blind to admission, the release or the text.
  const p = pastes.find((x) => x.name.startsWith("23-"));
  assert.notDeepEqual(summarize(tl.analyze(p.text, { admission: false })), p.expected.text);
  const q = pastes.find((x) => x.name.startsWith("03-"));
  assert.notDeepEqual(summarize(tl.analyze(q.text.replace("Bogus", "NoSchedule"))), q.expected.text);
});
