// What-if parity with the playground and the command line: every case of
// tests/parity/whatif/cases.json through the npm package's `whatIf` must give the JSON the
// scenario's `what_if` gives natively (committed in tests/parity/whatif/expected by the
// Rust test of tests/parity):
//   whatIf(text, actions, {until})                 == expected.text
//   whatIf({nodes: panes, pods: panes}, ...)       == expected.playground (the playground's panes)
// A result is `{actions, notes, timeline}`; an error is `{error: {argument, path, message}}`,
// which npm throws as a TaintlabError with that argument and `path: message`.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tl, whatif } from "./load.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, "../../../../tests/parity/whatif");
const { cases } = JSON.parse(fs.readFileSync(path.join(ROOT, "cases.json"), "utf8"));

/** npm's whatIf in the shape tests/parity's `what_if` writes. */
export function whatIfShape(input, actions, until) {
  try {
    const r = whatif.whatIf(input, actions, { until });
    return { actions: r.actions, notes: r.notes.map((n) => n.message), timeline: r.timeline };
  } catch (e) {
    assert.equal(e.name, "TaintlabError", String(e));
    const path = e.location?.path ?? "";
    assert.ok(e.message.startsWith(`${path}: `), `${e.message} (path ${path})`);
    return { error: { argument: e.argument, path, message: e.message.slice(path.length + 2) } };
  }
}

test("at least six what-if cases, each with its committed result", () => {
  assert.ok(cases.length >= 6, `${cases.length} cases`);
  for (const c of cases) assert.ok(fs.existsSync(path.join(ROOT, "expected", `${c.name}.json`)), c.name);
});

for (const c of cases) {
  test(`what-if parity: ${c.name}`, () => {
    const text = c.paste ? fs.readFileSync(path.join(ROOT, "pastes", c.paste), "utf8") : "";
    const expected = JSON.parse(fs.readFileSync(path.join(ROOT, "expected", `${c.name}.json`), "utf8"));
    assert.deepEqual(whatIfShape(text, c.actions, c.until), expected.text, "whatIf(text) differs from the scenario");
    // The panes "Open in playground" fills are npm analyze's too.
    assert.deepEqual(tl.analyze(text).panes, expected.panes, "the playground panes differ");
    assert.deepEqual(
      whatIfShape({ nodes: expected.panes.nodes, pods: expected.panes.pods }, c.actions, c.until),
      expected.playground,
      "whatIf(panes) differs from the playground",
    );
  });
}

test("the comparison sees a divergence", () => {
  // Another second or another action must not compare equal: the JSON is not blind to them.
  const c = cases.find((x) => x.name === "drain-with-budget");
  const text = fs.readFileSync(path.join(ROOT, "pastes", c.paste), "utf8");
  const expected = JSON.parse(fs.readFileSync(path.join(ROOT, "expected", `${c.name}.json`), "utf8"));
  assert.notDeepEqual(whatIfShape(text, c.actions, c.until - 1), expected.text);
  assert.notDeepEqual(whatIfShape(text, c.actions.replace("at 0", "at 1"), c.until), expected.text);
});
