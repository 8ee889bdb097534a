// whatIf: the cluster-wide what-if simulation through the nodejs build.
import { test } from "node:test";
import assert from "node:assert/strict";
import { whatif, thrown } from "./load.mjs";

// Two nodes; a Deployment's pod (owned by its ReplicaSet web-7d4b9) on n1 and an
// unmanaged pod on n1.
export const CLUSTER = `apiVersion: v1
kind: Node
metadata: {name: n1}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: web:1
---
apiVersion: v1
kind: Pod
metadata:
  name: web-7d4b9-x1
  namespace: shop
  labels: {app: web}
  ownerReferences:
  - {apiVersion: apps/v1, kind: ReplicaSet, name: web-7d4b9, controller: true, uid: u1}
spec:
  nodeName: n1
  containers:
  - name: web
    image: web:1
---
apiVersion: v1
kind: Pod
metadata: {name: solo, namespace: shop}
spec:
  nodeName: n1
  containers:
  - name: solo
    image: solo:1
`;

const podName = (r, i) => r.timeline.pods[i].name;

test("whatIf: a NoExecute taint evicts, the Deployment's replacement lands on the other node", () => {
  const r = whatif.whatIf(CLUSTER, ["at 0 taint n1 k=v:NoExecute"], { until: 600 });
  assert.equal(r.kind, "WhatIfResult");
  assert.deepEqual(r.actions, ["at 0 taint n1 k=v:NoExecute"]);
  const t = r.timeline;
  assert.equal(t.until, 600);
  assert.deepEqual(t.nodes, ["n1", "n2"]);
  const evictions = t.events.filter((e) => e.reason === "TaintManagerEviction");
  assert.deepEqual(
    evictions.map((e) => [e.at, e.object.name]).sort(),
    [[0, "solo"], [0, "web-7d4b9-x1"]],
  );
  assert.equal(t.summary.evicted, 2);
  // Only the Deployment's pod is replaced; the replacement is Scheduled on n2.
  assert.equal(t.summary.replaced, 1);
  assert.equal(t.summary.rescheduled, 1);
  const replacement = t.pods.findIndex((p) => p.replaces !== null);
  assert.ok(replacement >= 0);
  assert.equal(podName(r, t.pods[replacement].replaces), "web-7d4b9-x1");
  // Named after the pasted pod's ReplicaSet, by that ReplicaSet.
  assert.match(podName(r, replacement), /^web-7d4b9-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  const created = t.events.find((e) => e.reason === "SuccessfulCreate");
  assert.deepEqual([created.object.kind, created.object.name], ["ReplicaSet", "web-7d4b9"]);
  const scheduled = t.events.find((e) => e.reason === "Scheduled" && e.object.name === podName(r, replacement));
  assert.match(scheduled.message, /to n2$/);
  const running = t.spans.find((s) => s.pod === replacement && s.state === "running");
  assert.equal(t.nodes[running.node], "n2");
  assert.deepEqual(t.summary.stillPending, []);
  // Events are in time order.
  const times = t.events.map((e) => e.at);
  assert.deepEqual(times, [...times].sort((a, b) => a - b));
});

test("whatIf: lines as one text, as an array and as action objects give the same timeline", () => {
  const text = whatif.whatIf(CLUSTER, "cordon n2\nat 30 drain n1 --force\n", { until: 300 });
  const lines = whatif.whatIf(CLUSTER, ["cordon n2", "at 30 drain n1 --force"], { until: 300 });
  const objects = whatif.whatIf(
    CLUSTER,
    [
      { at: 0, action: "cordon", node: "n2" },
      { at: 30, action: "drain", node: "n1", options: { force: true } },
    ],
    { until: 300 },
  );
  assert.deepEqual(lines, text);
  assert.deepEqual(objects, text);
  // Both nodes cordoned: the replacement stays Pending with the scheduler's text, and
  // kubectl drain's lines are in the events.
  const t = text.timeline;
  assert.equal(t.summary.stillPending.length, 1);
  assert.match(t.summary.stillPending[0].message, /^0\/2 nodes are available: /);
  assert.ok(t.events.some((e) => e.source === "DrainStdout" && e.message === "node/n1 cordoned"), JSON.stringify(t.events));
  assert.ok(t.events.every((e) => e.at >= 0 && e.at <= 300));
});

test("whatIf: until defaults to 1800 seconds", () => {
  assert.equal(whatif.whatIf(CLUSTER, []).timeline.until, 1800);
});

test("whatIf: errors name the action and the option", () => {
  let e = thrown(() => whatif.whatIf(CLUSTER, ["cordon n1", "explode n1"]));
  assert.equal(e.name, "TaintlabError");
  assert.equal(e.argument, "actions");
  assert.equal(e.location.path, "actions[1]");
  assert.match(e.message, /explode/);
  e = thrown(() => whatif.whatIf(CLUSTER, "cordon n1\n\nat soon fail n2"));
  assert.match(e.message, /line 3/);
  e = thrown(() => whatif.whatIf(CLUSTER, [42]));
  assert.equal(e.code, "wrong-type");
  e = thrown(() => whatif.whatIf(CLUSTER, [], { until: -5 }));
  assert.equal(e.location.path, "options.until");
  e = thrown(() => whatif.whatIf(CLUSTER, [], { untill: 5 }));
  assert.match(e.message, /until/);
});
