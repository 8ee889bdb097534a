// The Docusaurus plugin "taintlab/docusaurus": adds the element's stylesheet to every
// page through the bundler (so that it follows baseUrl). Pair it with the remark plugin
// ("taintlab/docusaurus/remark") in the content plugins:
//
//   plugins: ["taintlab/docusaurus"],
import { fileURLToPath } from "node:url";

export { default as remarkTaintCheck } from "./remark.js";

export default function taintlabPlugin() {
  return {
    name: "taintlab",
    getClientModules() {
      return [fileURLToPath(new URL("../element/taint-check.css", import.meta.url))];
    },
  };
}
