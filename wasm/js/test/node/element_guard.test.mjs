// YAML that lost its indentation on the way to the page (element/fence.js lostIndentation):
// the widget shows a message instead of a verdict for a different object.
import test from "node:test";
import assert from "node:assert/strict";
import { lostIndentation } from "../../element/fence.js";

const good = `kubectl taint nodes node1 dedicated=groupName:NoSchedule
---
apiVersion: v1
kind: Pod
metadata:
  name: team-app
spec:

  tolerations:
  - key: dedicated
    operator: Equal
    value: groupName
    effect: NoSchedule
`;
const mangled = good.replace(/^[ ]+/gm, "");

test("a document whose indentation was stripped is caught, with the lines", () => {
  assert.deepEqual(lostIndentation(mangled), { key: "metadata", line: 5, next: "name", nextLine: 6 });
  assert.deepEqual(lostIndentation("kind: Pod\nspec:\ntolerations:\n- key: a\n"), { key: "spec", line: 2, next: "tolerations", nextLine: 3 });
  // Comments and blank lines between do not hide it; the second document is checked too.
  assert.deepEqual(lostIndentation("a=b:NoSchedule\n---\nkind: Pod\nspec:\n# the tolerations\n\ntolerations: []\n"), { key: "spec", line: 4, next: "tolerations", nextLine: 7 });
});

test("well-formed examples pass", () => {
  assert.equal(lostIndentation(good), null);
  // Flow style needs no indentation.
  assert.equal(lostIndentation("kind: Pod\nmetadata: {name: web}\nspec: {tolerations: [{key: a, operator: Exists}]}\n"), null);
  // A top-level sequence under a key is valid at column 0.
  assert.equal(lostIndentation("tolerations:\n- {key: a, operator: Exists}\n"), null);
  // kubectl lines, bare taints, describe output (capitalised fields).
  assert.equal(lostIndentation("kubectl taint nodes n1 a=b:NoSchedule\nkubectl taint nodes n2 c=d:NoExecute\n"), null);
  assert.equal(lostIndentation("Name: node1\nTaints:\nUnschedulable: false\n"), null);
  // One indented line in the document means the indentation survived.
  assert.equal(lostIndentation("kind: Pod\nspec:\n  tolerations: []\nmetadata:\nname: x\n"), null);
  assert.equal(lostIndentation(""), null);
});
