// Loads the nodejs build of the package under test (TAINTLAB_PKG, default target/npm/taintlab).
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
export const PKG = process.env.TAINTLAB_PKG
  ? path.resolve(process.env.TAINTLAB_PKG)
  : path.resolve(here, "../../../../target/npm/taintlab");

const require = createRequire(import.meta.url);
/** The nodejs (CommonJS) build of the engine. */
export const tl = require(path.join(PKG, "nodejs", "taintlab.js"));
/** The nodejs build of the tools module (validation, kubectl). */
export const tools = require(path.join(PKG, "nodejs", "taintlab_tools.js"));
/** The nodejs build of the Kubewarden policy module. */
export const policy = require(path.join(PKG, "nodejs", "taintlab_policy.js"));

/** The nodejs build of the what-if module. */
export const whatif = require(path.join(PKG, "nodejs", "taintlab_whatif.js"));

/** Calls `fn` and returns what it throws (fails when it does not throw). */
export function thrown(fn) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error("expected a TaintlabError, nothing was thrown");
}
