/** The Docusaurus plugin: the element's stylesheet on every page, through the bundler. */
export default function taintlabPlugin(): {
  name: string;
  getClientModules(): string[];
};
export { default as remarkTaintCheck } from "./remark.js";
