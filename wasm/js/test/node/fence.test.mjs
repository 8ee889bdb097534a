// The code-fence authoring format (element/fence.js) on the shared cases of
// tests/docsites/common/fences.json, which every site integration checks too.
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fromFence, isFence, fenceWords, DIRECTIVE, FENCE_OPTIONS } from "../../element/fence.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const { cases } = JSON.parse(fs.readFileSync(path.resolve(here, "../../../../tests/docsites/common/fences.json"), "utf8"));

test("every shared case: recognition, the example and the attributes", () => {
  assert.ok(cases.length >= 15);
  for (const c of cases) {
    const label = JSON.stringify([c.info, c.text]);
    assert.equal(isFence(c.info, c.text), c.widget, label);
    const r = fromFence(c.text, c.info);
    assert.equal(r.widget, c.widget, label);
    if (!c.widget) continue;
    assert.equal(r.yaml, c.yaml, label);
    assert.deepEqual(r.attributes, c.attributes, label);
    assert.equal(r.errors.length, c.errors, `${label}: ${r.errors.join("; ")}`);
  }
});

test("errors name the option and what it needs", () => {
  const r = fromFence("x: 1\n", "yaml taint-check verison=1.30 version=one");
  assert.match(r.errors[0], /unknown option `verison` in the code fence \(known: version, /);
  assert.match(r.errors[1], /option `version` in the code fence needs a Kubernetes release such as 1\.33, not `one`/);
});

test("words: quotes keep spaces and commas, braces and commas separate", () => {
  assert.deepEqual(fenceWords('yaml {taint-check heading="a, b" x=\'c d\'}'), ["yaml", "taint-check", "heading=a, b", "x=c d"]);
  assert.deepEqual(fenceWords("yaml,taint-check"), ["yaml", "taint-check"]);
  assert.deepEqual(fenceWords(""), []);
});

test("the directive: only a whole word after #", () => {
  assert.ok(DIRECTIVE.test("# taint-check"));
  assert.ok(DIRECTIVE.test("# taint-check: version=1.30"));
  assert.ok(!DIRECTIVE.test("# taint-checker"));
  assert.ok(!DIRECTIVE.test("x: 1 # taint-check"));
});

test("every option maps to an attribute the element observes", () => {
  const attrs = new Set(Object.values(FENCE_OPTIONS).map((o) => o.attribute));
  for (const a of ["version", "comparison-operators", "admission", "node-name", "pod-name", "heading", "playground", "loading", "lang"]) assert.ok(attrs.has(a), a);
});

test("later options win; a switch can be turned off", () => {
  assert.deepEqual(fromFence("# taint-check version=1.31\nx: 1\n", "yaml taint-check version=1.30 comparison-operators comparison-operators=false").attributes, { version: "1.31" });
});
