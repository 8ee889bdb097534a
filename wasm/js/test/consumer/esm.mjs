// A user's ES module: the package root resolves to the nodejs build under Node.
import assert from "node:assert/strict";
import { explain, schedule, info } from "taintlab";
import * as web from "taintlab/web";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

const x = explain("{key: dedicated, operator: Exists}", "dedicated=gpu:NoSchedule");
assert.equal(x.verdict, "schedulable");
assert.equal(schedule([{ name: "web" }], [{ name: "n", taints: "a=b:NoSchedule" }]).pods[0].scheduled, false);

// The web build works in Node too when given the module bytes.
const require = createRequire(import.meta.url);
const wasm = require.resolve("taintlab/web/taintlab_bg.wasm");
await web.default({ module_or_path: await readFile(wasm) });
assert.equal(web.tolerates({ operator: "Exists" }, "a:NoExecute"), true);
console.log(`esm: taintlab ${info().version} ok (${x.summary})`);
