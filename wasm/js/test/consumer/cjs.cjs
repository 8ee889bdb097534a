// A user's CommonJS script.
const assert = require("node:assert/strict");
const { tolerates } = require("taintlab");
const { validate } = require("taintlab/tools");
const { policyDecision } = require("taintlab/policy");
assert.equal(tolerates({ key: "k", operator: "Exists" }, "k=v:NoSchedule"), true);
assert.equal(validate({ tolerations: [{ operator: "Equal", value: "x" }] }).valid, false);
try {
  tolerates({ tolerationSeconds: "300" }, "k:NoExecute");
  assert.fail("should throw");
} catch (e) {
  assert.equal(e.name, "TaintlabError");
  assert.equal(e.location.path, "toleration.tolerationSeconds");
}
assert.equal(policyDecision({ apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec: { tolerations: [{ operator: "Exists" }] } }).accepted, false);
console.log("cjs: ok");
