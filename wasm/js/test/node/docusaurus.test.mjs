// taintlab/docusaurus's remark plugin on mdast trees as MDX hands them over: which code
// blocks become <TaintCheck> widgets (the shared cases of tests/docsites/common/
// fences.json), what the widget receives (the info string and the text, unchanged) and
// the one import it adds. The built site (tests/docsites/docusaurus) checks the rest.
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import remarkTaintCheck from "../../docusaurus/remark.js";
import taintlabPlugin from "../../docusaurus/index.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const { cases } = JSON.parse(fs.readFileSync(path.resolve(here, "../../../../tests/docsites/common/fences.json"), "utf8"));

/** A code node as remark parses ```INFO: the first word is `lang`, the rest `meta`. */
function code(info, value) {
  const [lang, ...rest] = info.trim().split(/\s+/);
  return { type: "code", lang: lang || null, meta: rest.length ? rest.join(" ") : null, value };
}

function run(children) {
  const tree = { type: "root", children };
  remarkTaintCheck()(tree, { path: "docs/x.md" });
  return tree;
}

const attrs = (node) => Object.fromEntries(node.attributes.map((a) => [a.name, a.value]));

test("the shared fence cases: exactly the widgets are replaced, with their info string and text", () => {
  for (const c of cases) {
    const value = c.text.replace(/\n$/, "");
    const tree = run([code(c.info, value)]);
    const label = JSON.stringify(c.info);
    if (!c.widget) {
      assert.deepEqual(tree.children, [code(c.info, value)], label);
      continue;
    }
    assert.equal(tree.children.length, 2, label);
    const [esm, widget] = tree.children;
    assert.equal(esm.type, "mdxjsEsm", label);
    assert.equal(widget.type, "mdxJsxFlowElement", label);
    assert.equal(widget.name, "TaintlabTaintCheck", label);
    assert.deepEqual(attrs(widget), { fence: c.info.trim().split(/\s+/).filter(Boolean).join(" "), yaml: value }, label);
  }
});

test("blank lines and indentation reach the component as written", () => {
  const yaml = "metadata:\n  name: team-app\n\nspec:\n  tolerations:\n\n  - key: dedicated\n    operator: Equal";
  const [, widget] = run([code("yaml taint-check", yaml)]).children;
  assert.equal(attrs(widget).yaml, yaml);
});

test("one import per page, at the top, whatever the number of widgets; none without", () => {
  const tree = run([
    { type: "heading", depth: 2, children: [{ type: "text", value: "A" }] },
    code("yaml taint-check", "a: 1"),
    { type: "list", children: [{ type: "listItem", children: [code("yaml", "# taint-check\nb: 2")] }] },
    code("yaml", "c: 3"),
  ]);
  const esm = tree.children.filter((n) => n.type === "mdxjsEsm");
  assert.equal(esm.length, 1);
  assert.equal(tree.children[0], esm[0]);
  assert.equal(esm[0].data.estree.body[0].source.value, "taintlab/docusaurus/TaintCheck");
  assert.equal(esm[0].data.estree.body[0].specifiers[0].local.name, "TaintlabTaintCheck");
  assert.equal(tree.children[4].type, "code", "a plain YAML block stays");
  assert.equal(tree.children[3].children[0].children[0].type, "mdxJsxFlowElement", "a fence in a list item");
  const plain = run([code("yaml", "c: 3")]);
  assert.equal(plain.children.some((n) => n.type === "mdxjsEsm"), false);
});

test("the plugin adds the element's stylesheet as a client module", () => {
  const plugin = taintlabPlugin();
  assert.equal(plugin.name, "taintlab");
  const [css] = plugin.getClientModules();
  assert.ok(css.endsWith(path.join("element", "taint-check.css")), css);
  assert.ok(fs.existsSync(css), css);
});
