// remark plugin: ```yaml taint-check fences (the element's format, taintlab/element/fence)
// become <taint-check> widgets (the TaintCheck component). The fence's text and info
// string go to the component as strings, so MDX never touches the YAML's indentation or
// blank lines, the element reads the options itself, and the page still shows the YAML
// as a code block before the element runs. Add it to every content plugin that has
// examples:
//
//   import taintCheck from "taintlab/docusaurus/remark";
//   presets: [["classic", { docs: { remarkPlugins: [taintCheck] }, pages: { remarkPlugins: [taintCheck] } }]]
import { isFence } from "../element/fence.js";

const LOCAL = "TaintlabTaintCheck";
const SOURCE = "taintlab/docusaurus/TaintCheck";

function importNode() {
  return {
    type: "mdxjsEsm",
    value: `import ${LOCAL} from "${SOURCE}";`,
    data: {
      estree: {
        type: "Program",
        sourceType: "module",
        body: [
          {
            type: "ImportDeclaration",
            specifiers: [{ type: "ImportDefaultSpecifier", local: { type: "Identifier", name: LOCAL } }],
            source: { type: "Literal", value: SOURCE, raw: JSON.stringify(SOURCE) },
          },
        ],
      },
    },
  };
}

function attribute(name, value) {
  return { type: "mdxJsxAttribute", name, value: String(value) };
}

function visit(node, fn) {
  if (!node.children) return;
  for (let i = 0; i < node.children.length; i++) {
    const child = node.children[i];
    const replacement = fn(child);
    if (replacement) node.children[i] = replacement;
    else visit(child, fn);
  }
}

/** The remark plugin (no options). */
export default function remarkTaintCheck() {
  return (tree, file) => {
    let used = false;
    visit(tree, (node) => {
      if (node.type !== "code") return null;
      const info = [node.lang, node.meta].filter(Boolean).join(" ");
      if (!isFence(info, node.value)) return null;
      used = true;
      return {
        type: "mdxJsxFlowElement",
        name: LOCAL,
        attributes: [attribute("fence", info), attribute("yaml", node.value)],
        children: [],
        position: node.position,
      };
    });
    if (used) tree.children.unshift(importNode());
  };
}
