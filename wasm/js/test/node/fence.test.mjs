// The code-fence authoring format (element/fence.js) on the shared cases of
// tests/docsites/common/fences.json, which every site integration checks too.
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fromFence, isFence, fenceWords, DIRECTIVE, FENCE_OPTIONS, whatIfLines } from "../../element/fence.js";

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
  for (const a of ["version", "comparison-operators", "admission", "node-name", "pod-name", "heading", "playground", "loading", "lang", "what-if", "until"]) assert.ok(attrs.has(a), a);
  // And the element observes every attribute an option sets.
  const element = fs.readFileSync(path.resolve(here, "../../element/taint-check.js"), "utf8");
  const observed = element.match(/return \[("[^\]]*")\];/)[1].split(",").map((w) => JSON.parse(w.trim()));
  for (const a of attrs) if (a !== "loading") assert.ok(observed.includes(a), `observedAttributes lacks ${a}`);
});

test("what-if action lines: one per line or per `;`, blank ones dropped", () => {
  assert.equal(whatIfLines("at 0 drain n1 --ignore-daemonsets; at 60 fail n2"), "at 0 drain n1 --ignore-daemonsets\nat 60 fail n2");
  assert.equal(whatIfLines("  cordon n1 \r\n\n ;; scale deployment/web 3 -n shop;"), "cordon n1\nscale deployment/web 3 -n shop");
  assert.equal(whatIfLines(""), "");
  assert.equal(whatIfLines(null), "");
  const r = fromFence("x: 1\n", "yaml taint-check what-if=\"at 0 drain n1 --grace-period=5\" until=-1");
  assert.deepEqual(r.attributes, { "what-if": "at 0 drain n1 --grace-period=5" });
  assert.match(r.errors[0], /option `until` in the code fence needs the last simulated second, a whole number such as 900, not `-1`/);
});

test("later options win; a switch can be turned off", () => {
  assert.deepEqual(fromFence("# taint-check version=1.31\nx: 1\n", "yaml taint-check version=1.30 comparison-operators comparison-operators=false").attributes, { version: "1.31" });
});
