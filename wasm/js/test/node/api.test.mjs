// Every function of the nodejs build, including its errors and where they point.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { PKG } from "./load.mjs";
import { tl, tools, policy, whatif, thrown } from "./load.mjs";

const GPU_NODE = `apiVersion: v1
kind: Node
metadata:
  name: gpu-1
spec:
  taints:
  - key: dedicated
    value: gpu
    effect: NoSchedule
`;

const GPU_POD = `apiVersion: v1
kind: Pod
metadata:
  name: trainer
spec:
  tolerations:
  - key: dedicated
    operator: Equal
    value: gpu
    effect: NoSchedule
`;

function assertTaintlabError(e, { code, argument, path, line, column }) {
  assert.ok(e instanceof Error, "an Error");
  assert.equal(e.name, "TaintlabError");
  assert.equal(e.code, code, e.message);
  if (argument !== undefined) assert.equal(e.argument, argument);
  if (path !== undefined) assert.equal(e.location.path, path);
  if (line !== undefined) assert.equal(e.location.line, line);
  if (column !== undefined) assert.equal(e.location.column, column);
  assert.ok(Array.isArray(e.diagnostics));
  assert.equal(typeof e.message, "string");
}

test("exports every declared function and nothing undeclared", () => {
  const names = (m) => Object.keys(m).filter((k) => typeof m[k] === "function").sort();
  assert.deepEqual(names(tl), ["analyze", "explain", "info", "schedule", "tolerates"]);
  assert.deepEqual(names(tools), [
    "admitNode", "admitPod", "daemonSet", "describe", "evictionTimeline", "info",
    "kubectlTaint", "nodeFailure", "parse", "validate",
  ]);
  assert.deepEqual(names(policy), ["info", "policyDecision", "validatePolicySettings"]);
  assert.deepEqual(names(whatif), ["info", "whatIf"]);
  // The declarations list exactly the same functions.
  for (const [file, mod] of [["taintlab.d.ts", tl], ["taintlab_tools.d.ts", tools], ["taintlab_policy.d.ts", policy], ["taintlab_whatif.d.ts", whatif]]) {
    const dts = readFileSync(path.join(PKG, "nodejs", file), "utf8");
    const declared = [...dts.matchAll(/^export function (\w+)\(/gm)].map((m) => m[1]).sort();
    assert.deepEqual(declared, names(mod), file);
  }
});

test("info", () => {
  const i = tl.info();
  assert.equal(i.version, "0.1.0");
  assert.deepEqual(i.kubernetes, { oldest: "1.25.0", newest: "1.37.0" });
});

// --- tolerates -----------------------------------------------------------------------

test("tolerates: objects, text, lists, operators and the comparison gate", () => {
  const t = { key: "dedicated", operator: "Equal", value: "gpu", effect: "NoSchedule" };
  assert.equal(tl.tolerates(t, "dedicated=gpu:NoSchedule"), true);
  assert.equal(tl.tolerates(t, { key: "dedicated", value: "cpu", effect: "NoSchedule" }), false);
  assert.equal(tl.tolerates(t, "dedicated=gpu:NoExecute"), false, "effect differs");
  assert.equal(tl.tolerates({ operator: "Exists" }, "anything=at:NoExecute"), true, "tolerate everything");
  assert.equal(tl.tolerates({ key: "dedicated", value: "gpu" }, "dedicated=gpu:NoExecute"), true, "empty operator is Equal, empty effect is every effect");
  assert.equal(tl.tolerates("{key: dedicated, operator: Exists}", "dedicated=x:PreferNoSchedule"), true);
  assert.equal(tl.tolerates([{ key: "a", operator: "Exists" }, t], "dedicated=gpu:NoSchedule"), true);
  assert.equal(tl.tolerates([], "dedicated=gpu:NoSchedule"), false);
  const lt = { key: "sla", operator: "Lt", value: "1000", effect: "NoSchedule" };
  assert.equal(tl.tolerates(lt, "sla=950:NoSchedule"), false, "gate off by default");
  assert.equal(tl.tolerates(lt, "sla=950:NoSchedule", { comparisonOperators: true }), true);
  assert.equal(tl.tolerates(lt, "sla=1950:NoSchedule", { comparisonOperators: true }), false);
  assert.equal(tl.tolerates(lt, "sla=950:NoSchedule", { comparisonOperators: true, kubernetesVersion: "1.34" }), false, "no Lt before 1.35");
  assert.equal(tl.tolerates({ key: "sla", operator: "Gt", value: "100", effect: "NoSchedule" }, "sla=0950:NoSchedule", { comparisonOperators: true }), false, "not canonical");
});

test("tolerates: errors carry the argument and the field path", () => {
  assertTaintlabError(thrown(() => tl.tolerates({ key: "a", tolerationSeconds: "300" }, "a:NoExecute")), {
    code: "wrong-type", argument: "toleration", path: "toleration.tolerationSeconds", line: 0,
  });
  const e = thrown(() => tl.tolerates({ key: "a", efect: "NoSchedule" }, "a:NoSchedule"));
  assertTaintlabError(e, { code: "unknown-field", path: "toleration.efect" });
  assert.match(e.message, /did you mean "effect"/);
  assertTaintlabError(thrown(() => tl.tolerates({ key: "a" }, "")), { code: "not-found", argument: "taint" });
  assertTaintlabError(thrown(() => tl.tolerates({ key: "a" }, "a:NoSchedule b:NoSchedule")), { code: "ambiguous", argument: "taint" });
  assertTaintlabError(thrown(() => tl.tolerates("{key: [", "a:NoSchedule")), { code: "json-syntax", argument: "toleration", line: 1, column: 2 });
  assertTaintlabError(thrown(() => tl.tolerates("key: a\noperator: [Exists\n", "a:NoSchedule")), { code: "yaml-syntax", argument: "toleration" });
  assertTaintlabError(thrown(() => tl.tolerates({}, "a:NoSchedule", { kubernetesVersion: "2.1" })), {
    code: "invalid-version", argument: "options", path: "options.kubernetesVersion",
  });
  const e2 = thrown(() => tl.tolerates({}, "a:NoSchedule", { kubernetesVersoin: "1.30" }));
  assertTaintlabError(e2, { code: "unknown-field", path: "options.kubernetesVersoin" });
  assert.match(e2.message, /did you mean "kubernetesVersion"/);
  assertTaintlabError(thrown(() => tl.tolerates(42, "a:NoSchedule")), { code: "wrong-type", argument: "toleration" });
});

// --- explain -------------------------------------------------------------------------

test("explain: which toleration covered which taint, what is left, the verdict", () => {
  const x = tl.explain(GPU_POD, GPU_NODE);
  assert.equal(x.verdict, "schedulable");
  assert.equal(x.fits, true);
  assert.deepEqual(x.pod, { namespace: "default", name: "trainer" });
  assert.equal(x.node, "gpu-1");
  assert.equal(x.taints[0].text, "dedicated=gpu:NoSchedule");
  assert.deepEqual(x.taints[0].toleratedBy, {
    toleration: 0, via: "equal", anyEffect: false,
    text: '{key: dedicated, operator: Equal, value: "gpu", effect: NoSchedule}',
  });
  assert.deepEqual(x.untoleratedTaints, []);
  assert.deepEqual(x.unusedTolerations, []);
  assert.equal(x.summary, "trainer can be scheduled on gpu-1: every NoSchedule and NoExecute taint is tolerated.");
  assert.equal(x.kubernetesVersion, "1.37.0");

  const web = tl.explain({ name: "web", tolerations: [{ key: "other", operator: "Exists" }] }, GPU_NODE);
  assert.equal(web.verdict, "untolerated");
  assert.deepEqual(web.untoleratedTaints, [0]);
  assert.deepEqual(web.unusedTolerations, [0]);
  assert.deepEqual(web.taints[0].outcomes, ["key-mismatch"]);
  assert.equal(web.filter.rejectedBy, "TaintToleration");
  assert.equal(web.filter.code, "UnschedulableAndUnresolvable");
  assert.equal(web.filter.reason, "node(s) had untolerated taint(s)");
  assert.equal(tl.explain({ name: "web" }, GPU_NODE, { kubernetesVersion: "1.30" }).filter.reason, "node(s) had untolerated taint {dedicated: gpu}");
  assert.equal(tl.explain({ name: "web" }, GPU_NODE, { kubernetesVersion: "1.20" }).filter.reason, "node(s) had taint {dedicated: gpu}, that the pod didn't tolerate");
});

test("explain: cordon, PreferNoSchedule, NoExecute and nodeName", () => {
  const cordoned = tl.explain({ name: "p" }, { name: "n", unschedulable: true, taints: "node.kubernetes.io/unschedulable:NoSchedule" });
  assert.equal(cordoned.verdict, "unschedulable");
  assert.equal(cordoned.filter.reason, "node(s) were unschedulable");
  const soft = tl.explain({ name: "p" }, { name: "n", taints: "spot=true:PreferNoSchedule" });
  assert.equal(soft.verdict, "penalized");
  assert.equal(soft.rawScore, 1);
  assert.equal(soft.scoreWeight, 3);
  assert.equal(soft.taints[0].scorePenalty, true);
  const pod = { name: "p", tolerations: [{ key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute", tolerationSeconds: 6000 }] };
  const ne = tl.explain(pod, { name: "n", taints: "node.kubernetes.io/unreachable:NoExecute" });
  assert.deepEqual(ne.eviction, { kind: "after", seconds: 6000 });
  assert.deepEqual(ne.taints[0].noExecute, { kind: "tolerated-for", seconds: 6000 });
  assert.equal(typeof ne.eviction.seconds, "number");
  const bound = tl.explain({ name: "p", nodeName: "n" }, { name: "n", taints: "a:NoSchedule b:NoExecute" });
  assert.equal(bound.verdict, "bypassed");
  assert.equal(bound.kubeletAdmits, false);
  assert.deepEqual(bound.eviction, { kind: "immediate", seconds: 0 });
});

test("explain: Kubernetes objects, BigInt and huge seconds stay numbers", () => {
  const pod = {
    apiVersion: "v1", kind: "Pod", metadata: { name: "web", namespace: "shop" },
    spec: { tolerations: [{ key: "k", operator: "Exists", effect: "NoExecute", tolerationSeconds: 9223372036854775807n }] },
  };
  const x = tl.explain(pod, { name: "n", taints: [{ key: "k", effect: "NoExecute" }] });
  assert.deepEqual(x.pod, { namespace: "shop", name: "web" });
  assert.equal(typeof x.tolerations[0].tolerationSeconds, "number");
  assert.equal(x.tolerations[0].tolerationSeconds, 9223372036854775807);
});

test("explain: errors point at the text", () => {
  const bad = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  tolerations:\n  - key: dedicated\n    value: yes\n";
  const e = thrown(() => tl.explain(bad, GPU_NODE));
  assertTaintlabError(e, { code: "wrong-type", argument: "pod", path: "spec.tolerations[0].value", line: 8, column: 12 });
  assert.equal(e.location.document, 1);
  assert.match(e.message, /^pod: document 1, line 8, column 12, at spec\.tolerations\[0\]\.value: /);
  assert.match(e.message, /quote it: value: "yes"/);
  assert.equal(e.diagnostics[0].severity, "error");
  const obj = thrown(() => tl.explain({ apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec: { tolerations: [{ key: 1 }] } }, GPU_NODE));
  assertTaintlabError(obj, { code: "wrong-type", argument: "pod", path: "spec.tolerations[0].key", line: 0 });
  assertTaintlabError(thrown(() => tl.explain(`${GPU_POD}---\n${GPU_POD}`, GPU_NODE)), { code: "ambiguous", argument: "pod" });
  assertTaintlabError(thrown(() => tl.explain({ name: "p" }, { name: "n", taints: [{ key: "a", effect: true }] })), {
    code: "wrong-type", argument: "node", path: "node.taints[0].effect",
  });
});

// --- schedule ------------------------------------------------------------------------

test("schedule: verdicts, scores and FailedScheduling messages", () => {
  const nodes = [
    { name: "gpu-1", taints: "dedicated=gpu:NoSchedule" },
    { name: "spot-1", taints: "spot=true:PreferNoSchedule" },
    { name: "plain-1" },
  ];
  const r = tl.schedule([GPU_POD, { name: "web", namespace: "shop" }], nodes);
  assert.deepEqual(r.nodes, ["gpu-1", "spot-1", "plain-1"]);
  const [trainer, web] = r.pods;
  assert.equal(trainer.scheduled, true);
  assert.equal(trainer.feasibleNodes, 3);
  assert.deepEqual(trainer.bestNodes, ["gpu-1", "plain-1"]);
  assert.equal(web.namespace, "shop");
  assert.equal(web.feasibleNodes, 2);
  assert.deepEqual(web.bestNodes, ["plain-1"]);
  assert.deepEqual(web.nodes.map((c) => [c.verdict, c.score, c.weightedScore]), [
    ["untolerated", null, null], ["penalized", 0, 0], ["schedulable", 100, 300],
  ]);
  assert.equal(web.nodes[0].reason, "node(s) had untolerated taint(s)");
  assert.equal(web.message, null);
});

test("schedule: the histogram is sorted as strings, preemption wording by version", () => {
  const nodes = [];
  for (let i = 0; i < 10; i++) nodes.push({ name: `c${i}`, unschedulable: true });
  nodes.push({ name: "t1", taints: "a=b:NoSchedule" }, { name: "t2", taints: "a=b:NoExecute" });
  const r = tl.schedule({ name: "web" }, nodes);
  assert.equal(
    r.pods[0].message,
    // DynamicResources' post-filter part, in the default profile from 1.34.
    "0/12 nodes are available: 10 node(s) were unschedulable, 2 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/12 nodes are available: 12 Preemption is not helpful for scheduling.",
  );
  assert.equal(r.pods[0].event.reason, "FailedScheduling");
  assert.equal(r.pods[0].event.conditionReason, "Unschedulable");
  const old = tl.schedule({ name: "web" }, [{ name: "t1", taints: "a=b:NoSchedule" }], { kubernetesVersion: "1.27" });
  assert.equal(
    old.pods[0].message,
    "0/1 nodes are available: 1 node(s) had untolerated taint {a: b}. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling..",
  );
  const never = tl.schedule({ name: "web", preemptionPolicy: "Never" }, [{ name: "t1", taints: "a=b:NoSchedule" }]);
  assert.match(never.pods[0].message, /preemption: not eligible due to preemptionPolicy=Never\.$/);
  const empty = tl.schedule({ name: "web" }, []);
  assert.equal(empty.pods[0].message, "no nodes available to schedule pods");
  assert.equal(empty.pods[0].event.conditionReason, "SchedulerError");
});

test("schedule: errors name the list item", () => {
  assertTaintlabError(thrown(() => tl.schedule([{ name: "p" }], [{ name: "a" }, { name: "b", taints: [{ key: "k", effect: 3 }] }])), {
    code: "wrong-type", argument: "nodes", path: "nodes[1].taints[0].effect",
  });
  assertTaintlabError(thrown(() => tl.schedule(["spec:\n  tolerations: {}\n"], [])), { code: "wrong-type", argument: "pods[0]", line: 2 });
});

// --- the full filter chain: node selectors, affinity, ports, resources ---------------

// The dedicated-nodes example: payments-1 has the label and the taint, general-1 neither.
const DEDICATED_NODES = [
  { name: "payments-1", labels: { dedicated: "payments" }, taints: "dedicated=payments:NoSchedule" },
  { name: "general-1" },
];
const API = { name: "api", nodeSelector: { dedicated: "payments" }, tolerations: "[{key: dedicated, operator: Equal, value: payments, effect: NoSchedule}]" };
const LOST = { name: "lost", nodeSelector: { disktype: "ssd" } };
const LOST_MESSAGE =
  "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.";

test("schedule: a nodeSelector pod lands only on its pool; the other stays Pending with the cluster's message", () => {
  const r = tl.schedule([API, LOST], DEDICATED_NODES);
  const [api, lost] = r.pods;
  assert.equal(api.feasibleNodes, 1);
  assert.deepEqual(api.bestNodes, ["payments-1"]);
  assert.deepEqual(api.nodes.map((c) => [c.fits, c.rejectedBy, c.verdict]), [[true, null, "schedulable"], [false, "NodeAffinity", "schedulable"]]);
  assert.equal(api.nodes[1].code, "UnschedulableAndUnresolvable");
  assert.deepEqual(api.nodes[1].reasons, ["node(s) didn't match Pod's node affinity/selector"]);
  assert.equal(api.nodes[0].scores.taintToleration, 100);
  assert.equal(lost.outcome, "unschedulable");
  assert.equal(lost.message, LOST_MESSAGE);
  assert.equal(lost.event.conditionMessage, LOST_MESSAGE);
  assert.equal(lost.preemption, "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
  assert.equal(lost.nomination, null);
  assert.deepEqual(lost.nodes.map((c) => c.rejectedBy), ["TaintToleration", "NodeAffinity"]);
  assert.deepEqual(r.unmodelledScorePlugins, ["ImageLocality", "InterPodAffinity", "PodTopologySpread"]);
  // Before 1.34 there is no DynamicResources text; preemptionPolicy Never on 1.34+.
  assert.doesNotMatch(tl.schedule(LOST, DEDICATED_NODES, { kubernetesVersion: "1.33" }).pods[0].message, /no new claims/);
  assert.match(tl.schedule({ ...LOST, preemptionPolicy: "Never" }, DEDICATED_NODES).pods[0].message,
    /no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never\.$/);
  // The same pods as Kubernetes objects and as YAML.
  const obj = { apiVersion: "v1", kind: "Pod", metadata: { name: "lost" }, spec: { nodeSelector: { disktype: "ssd" } } };
  assert.equal(tl.schedule(obj, DEDICATED_NODES).pods[0].message, LOST_MESSAGE);
  assert.equal(tl.schedule("kind: Pod\napiVersion: v1\nmetadata: {name: lost}\nspec:\n  nodeSelector: {disktype: ssd}\n", DEDICATED_NODES).pods[0].message, LOST_MESSAGE);
});

test("explain: every filter in order, the first failing one and the rest not evaluated", () => {
  const x = tl.explain(API, { name: "general-1" });
  assert.equal(x.fits, false);
  assert.equal(x.verdict, "schedulable", "the taint view alone lets it in");
  assert.equal(x.filter.rejectedBy, "NodeAffinity");
  assert.equal(x.filter.reason, "node(s) didn't match Pod's node affinity/selector");
  assert.match(x.summary, /NodeAffinity rejects it/);
  assert.deepEqual(x.placement.filters.map((f) => [f.plugin, f.state]), [
    ["NodeUnschedulable", "passed"], ["NodeName", "passed"], ["TaintToleration", "passed"],
    ["NodeAffinity", "failed"], ["NodePorts", "not-evaluated"], ["NodeResourcesFit", "not-evaluated"],
  ]);
  assert.deepEqual(x.placement.nodeSelector, [{ key: "dedicated", wanted: "payments", nodeValue: null, matches: false }]);
  const ok = tl.explain(API, DEDICATED_NODES[0]);
  assert.equal(ok.fits, true);
  assert.equal(ok.placement.filters[5].state, "not-checked", "no allocatable: resources not checked");
  // Required node affinity: terms ORed.
  const affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [
    { matchExpressions: [{ key: "zone", operator: "In", values: ["a"] }] },
    { matchExpressions: [{ key: "gpu", operator: "Exists" }] },
  ] } } };
  const y = tl.explain({ name: "p", affinity }, { name: "n", labels: { gpu: "yes" } });
  assert.equal(y.fits, true);
  assert.deepEqual(y.placement.affinityTerms, [false, true]);
  // Host ports against a pod already bound to the node.
  const ports = (name, nodeName) => ({ name, nodeName, containers: [{ name: "c", ports: [{ containerPort: 80, hostPort: 8080 }] }] });
  const r = tl.schedule([ports("running", "n"), ports("new")], [{ name: "n" }]);
  assert.equal(r.pods[1].nodes[0].rejectedBy, "NodePorts");
  assert.equal(r.pods[0].nodes[0].hold, "bound");
});

test("schedule: resources name the resource and the shortfall; the arithmetic is in explain", () => {
  const nodes = [
    { name: "small", allocatable: { cpu: "1", memory: "4Gi", pods: 110 } },
    { name: "unknown" },
  ];
  const busy = { name: "busy", namespace: "batch", nodeName: "small", containers: [{ name: "c", resources: { requests: { cpu: "900m" } } }] };
  const web = { name: "web", containers: [{ name: "c", resources: { requests: { cpu: "500m" } } }] };
  const r = tl.schedule([busy, web], nodes, { kubernetesVersion: "1.34" });
  const cell = r.pods[1].nodes[0];
  assert.equal(cell.rejectedBy, "NodeResourcesFit");
  assert.equal(cell.code, "Unschedulable");
  assert.deepEqual(cell.insufficient, [{ resource: "cpu", reason: "Insufficient cpu", requested: 500, used: 900, capacity: 1000, shortfall: 400 }]);
  assert.equal(r.pods[1].nodes[1].resourcesChecked, false);
  assert.equal(r.pods[1].nodes[1].fits, true);
  assert.deepEqual(r.nodeResources[0].bars.find((b) => b.resource === "cpu"), { resource: "cpu", requested: 900, allocatable: 1000 });
  assert.ok(r.diagnostics.some((d) => d.code === "scheduling"), JSON.stringify(r.diagnostics));
  // Only the full node: the message counts the resource, and preemption cannot evict busy (same priority).
  const one = tl.schedule([busy, web], [nodes[0]]);
  assert.equal(one.pods[1].message,
    "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.");
  // With a higher priority, preemption nominates the node and names the victim.
  const urgent = tl.schedule([busy, { ...web, name: "urgent", priority: 1000 }], [nodes[0]]);
  assert.deepEqual(urgent.pods[1].nomination, { node: "small", victims: [{ namespace: "batch", name: "busy", priority: 0 }] });
  // The arithmetic, resource by resource.
  const x = tl.explain(web, nodes[0]);
  assert.equal(x.fits, true);
  assert.deepEqual(x.placement.resources.find((l) => l.resource === "cpu"), { resource: "cpu", requested: 500, used: 0, allocatable: 1000, headroom: 500 });
  // GPUs: an extended resource, and parse's container shape read back.
  const gpu = { name: "train", containers: [{ name: "c", image: "x", requests: { "nvidia.com/gpu": "2" }, limits: { "nvidia.com/gpu": "2" } }] };
  const g = tl.schedule(gpu, { name: "g", allocatable: { "nvidia.com/gpu": 1, pods: "110" } });
  assert.deepEqual(g.pods[0].nodes[0].insufficient.map((i) => [i.resource, i.shortfall]), [["nvidia.com/gpu", 1]]);
  // Gated pods are held: no cycle, no message.
  const gated = tl.schedule({ ...gpu, schedulingGates: [{ name: "wait" }] }, { name: "g", allocatable: { "nvidia.com/gpu": 1 } });
  assert.equal(gated.pods[0].outcome, "gated");
  assert.equal(gated.pods[0].message, null);
  // Wrong values are thrown at the plain field.
  assertTaintlabError(thrown(() => tl.schedule({ name: "p", containers: [{ name: "c", resources: { requests: { cpu: "lots" } } }] }, nodes)), {
    argument: "pods", code: "invalid-value",
  });
  assertTaintlabError(thrown(() => tl.schedule(web, { name: "n", allocatable: { cpu: true } })), { argument: "nodes", code: "wrong-type", path: "nodes.allocatable.cpu" });
});

test("explain and schedule: text around the object is reported once, not thrown", () => {
  const pod = "My pod is stuck, here it is:\n$ kubectl get pod api -o yaml\napiVersion: v1\nkind: Pod\nmetadata: {name: api}\nspec:\n  nodeSelector: {dedicated: payments}\n";
  const x = tl.explain(pod, { name: "general-1" });
  assert.equal(x.pod.name, "api");
  assert.equal(x.filter.rejectedBy, "NodeAffinity");
  assert.ok(x.diagnostics.length >= 1 && x.diagnostics.length <= 2, JSON.stringify(x.diagnostics));
  assert.ok(x.diagnostics.every((d) => d.severity === "warning" && d.pane === "pods"));
  assert.equal(tl.schedule(pod, DEDICATED_NODES).pods[0].message, LOST_MESSAGE);
});

test("analyze: the dedicated-nodes paste carries the full chain per pod and per cell", () => {
  const text = readFileSync(new URL("../../../../tests/parity/pastes/37-dedicated-nodes-selector.yaml", import.meta.url), "utf8");
  const a = tl.analyze(text);
  const [api, lost] = a.pods;
  assert.deepEqual(api.schedule.bestNodes, ["payments-1"]);
  assert.equal(api.schedule.nodes[1].rejectedBy, "NodeAffinity");
  assert.equal(api.nodes[1].explanation.fits, false);
  assert.equal(api.nodes[1].explanation.placement.filters[3].state, "failed");
  assert.equal(lost.schedule.message, LOST_MESSAGE);
  assert.deepEqual(lost.schedule.nodes.map((c) => c.rejectedBy), ["TaintToleration", "NodeAffinity"]);
  assert.deepEqual(a.nodes.map((n) => n.resources.allocatableKnown), [false, false]);
});

// --- evictionTimeline ----------------------------------------------------------------

const UNREACHABLE_300 = { key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute", tolerationSeconds: 300 };

test("evictionTimeline: a node and its pods", () => {
  const r = tools.evictionTimeline({
    node: { name: "n1", taints: "node.kubernetes.io/unreachable:NoExecute" },
    pods: [{ name: "web", tolerations: [UNREACHABLE_300] }, { name: "batch" }, { name: "agent", tolerations: [{ operator: "Exists" }] }],
    taintedAt: 60,
  });
  const by = Object.fromEntries(r.pods.map((p) => [p.name, p]));
  assert.equal(by.web.evictedAt, 360);
  assert.equal(by.batch.evictedAt, 60);
  assert.equal(by.agent.evictedAt, null);
  assert.equal(by.agent.remains, true);
  assert.equal(r.until, null);
  assert.equal(r.end, 360);
  assert.deepEqual(r.actions.find((a) => a.pod.name === "web"), { at: 60, pod: { namespace: "default", name: "web" }, action: "schedule", fireAt: 360 });
  assert.deepEqual(r.events.map((e) => [e.at, e.message]), [
    [60, "Marking for deletion Pod default/batch"],
    [360, "Marking for deletion Pod default/web"],
  ]);
  assert.equal(r.events[0].reason, "TaintManagerEviction");
});

test("evictionTimeline: only the first tolerating toleration counts", () => {
  const node = { name: "n", taints: "k:NoExecute" };
  const forever = { key: "k", operator: "Exists" };
  const minute = { key: "k", operator: "Exists", effect: "NoExecute", tolerationSeconds: 60 };
  assert.equal(tools.evictionTimeline({ node, pod: { name: "p", tolerations: [forever, minute] } }).pods[0].evictedAt, null);
  assert.equal(tools.evictionTimeline({ node, pod: { name: "p", tolerations: [minute, forever] } }).pods[0].evictedAt, 60);
});

test("evictionTimeline: events, with until", () => {
  const r = tools.evictionTimeline({
    events: [
      { at: 0, type: "createNode", node: { name: "n1" } },
      { at: 0, type: "createPod", pod: { name: "web", nodeName: "n1", tolerations: [{ key: "k", operator: "Exists", effect: "NoExecute", tolerationSeconds: 100 }] } },
      { at: 10, type: "addTaint", node: "n1", taint: "k:NoExecute" },
      { at: 50, type: "removeTaint", node: "n1", taint: "k:NoExecute" },
      { at: 70, type: "addTaint", node: "n1", taint: "k:NoExecute" },
    ],
    until: 150,
  });
  assert.deepEqual(r.actions.map((a) => [a.at, a.action, a.fireAt]), [[10, "schedule", 110], [50, "cancel", null], [70, "schedule", 170]]);
  assert.deepEqual(r.pendingEvictions, [{ pod: { namespace: "default", name: "web" }, fireAt: 170 }]);
  assert.equal(r.pods[0].pendingEvictionAt, 170);
  assert.equal(r.events[0].message, "Cancelling deletion of Pod default/web");
});

test("evictionTimeline: errors", () => {
  assertTaintlabError(thrown(() => tools.evictionTimeline({ events: [{ type: "createNode", node: "n" }] })), {
    code: "missing-field", argument: "scenario", path: "scenario.events[0].at",
  });
  const e = thrown(() => tools.evictionTimeline({ events: [{ at: 0, type: "createNod", node: {} }] }));
  assertTaintlabError(e, { code: "invalid-value", path: "scenario.events[0].type" });
  assert.match(e.message, /did you mean "createNode"/);
  assertTaintlabError(thrown(() => tools.evictionTimeline({ pods: [] })), { code: "missing-field", path: "scenario.node" });
  assertTaintlabError(thrown(() => tools.evictionTimeline({ node: "n1:", events: [] })), { code: "invalid-argument" });
});

// --- nodeFailure ---------------------------------------------------------------------

test("nodeFailure: grace period by release, DefaultTolerationSeconds, recovery", () => {
  const scenario = { node: { name: "n1" }, pods: [{ name: "web" }, { name: "agent", tolerations: [{ operator: "Exists" }] }], defaultTolerationSeconds: true };
  const r = tools.nodeFailure(scenario);
  assert.equal(r.gracePeriod, 50);
  assert.equal(r.monitorPeriod, 5);
  assert.equal(r.readyUnknownAt, 55);
  // The pass after the grace period marks Ready Unknown; the next one observes it and taints.
  assert.equal(r.noExecuteTaintedAt, 60);
  assert.deepEqual(r.pods.map((p) => [p.name, p.outcome, p.evictedAt]), [["web", "evicted", 360], ["agent", "stays-bound", null]]);
  assert.deepEqual(r.finalTaints.map((t) => `${t.key}:${t.effect}`), ["node.kubernetes.io/unreachable:NoSchedule", "node.kubernetes.io/unreachable:NoExecute"]);
  const notReady = r.changes.find((c) => c.change === "ready-unknown");
  assert.deepEqual(notReady.event, { type: "Normal", reason: "NodeNotReady", message: "Node n1 status is now: NodeNotReady" });
  const old = tools.nodeFailure(scenario, { kubernetesVersion: "1.31" });
  assert.equal(old.gracePeriod, 40);
  assert.equal(old.pods[0].evictedAt, 350);
  const recovers = tools.nodeFailure({ ...scenario, heartbeatResumesAt: 200 });
  assert.equal(recovers.pods[0].outcome, "stays-bound");
  assert.ok(recovers.noExecuteRemovedAt >= 200);
  const stopped = tools.nodeFailure({ ...scenario, tainter: "stopped" });
  assert.equal(stopped.noExecuteTaintedAt, null);
  assert.equal(stopped.pods[0].outcome, "stays-bound");
});

test("nodeFailure: errors", () => {
  assertTaintlabError(thrown(() => tools.nodeFailure({ node: { name: "n" }, tainter: "slow" })), { code: "invalid-value", path: "scenario.tainter" });
  assertTaintlabError(thrown(() => tools.nodeFailure({ node: { name: "n" }, gracePeriod: "50s" })), { code: "wrong-type", path: "scenario.gracePeriod" });
  assertTaintlabError(thrown(() => tools.nodeFailure({})), { code: "missing-field", path: "scenario.node" });
});

// --- validate ------------------------------------------------------------------------

test("validate: upstream paths and messages, pointed back at the text", () => {
  const text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  tolerations:\n  - key: a\n    operator: Exists\n    value: b\n  - operator: Equal\n";
  const r = tools.validate(text);
  assert.equal(r.valid, false);
  assert.equal(
    r.message,
    "Pod \"web\" is invalid: [spec.tolerations[0].operator: Invalid value: \"b\": value must be empty when `operator` is 'Exists', spec.tolerations[1].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\"]",
  );
  assert.deepEqual(r.errors[0].location, { document: 1, line: 7, column: 5, path: "spec.tolerations[0].operator" });
  assert.equal(r.errors[1].location.line, 10);
  assert.equal(r.results[0].kind, "Pod");
  assert.equal(tools.validate({ pod: GPU_POD }).valid, true);
});

test("validate: versions, gates, nodes and updates", () => {
  const lt = { tolerations: [{ key: "sla", operator: "Lt", value: "950", effect: "NoSchedule" }] };
  assert.equal(tools.validate(lt).errors[0].message, 'spec.tolerations[0].operator: Unsupported value: "Lt": supported values: "Equal", "Exists", "Lt", "Gt"');
  assert.equal(tools.validate(lt, { comparisonOperators: true }).valid, true);
  assert.equal(tools.validate(lt, { comparisonOperators: true, kubernetesVersion: "1.34" }).errors[0].detail, 'supported values: "Equal", "Exists"');
  const dup = { node: { name: "n", taints: "a=1:NoSchedule a=2:NoSchedule" } };
  assert.equal(tools.validate(dup).errors[0].badValue, '{"Key":"a","Value":"2","Effect":"NoSchedule","TimeAdded":null}');
  assert.equal(tools.validate(dup, { kubernetesVersion: "1.33" }).errors[0].badValue, 'core.Taint{Key:"a", Value:"2", Effect:"NoSchedule", TimeAdded:<nil>}');
  const upd = tools.validate({ pod: { name: "p", tolerations: [] }, oldPod: { name: "p", tolerations: [{ key: "a", operator: "Exists" }] } });
  assert.equal(upd.errors[0].type, "Forbidden");
  assert.equal(upd.message, "Pod \"p\" is invalid: spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds");
  const seconds = tools.validate({ tolerations: [{ key: "a", operator: "Exists", effect: "NoExecute", tolerationSeconds: 60 }], oldTolerations: [{ key: "a", operator: "Exists", effect: "NoExecute", tolerationSeconds: 30 }] });
  assert.equal(seconds.valid, true, "tolerationSeconds may change");
  const deploy = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "d" }, spec: { template: { spec: { tolerations: [{ key: "a", effect: "NoSchedul" }] } } } };
  assert.match(tools.validate(deploy).message, /^Deployment\.apps "d" is invalid: spec\.template\.spec\.tolerations\[0\]\.effect: Unsupported value: "NoSchedul"/);
});

test("validate: errors", () => {
  assertTaintlabError(thrown(() => tools.validate({})), { code: "missing-field", argument: "subject" });
  assertTaintlabError(thrown(() => tools.validate({ tolerations: [{ key: false }] })), { code: "wrong-type", path: "subject.tolerations[0].key" });
  assertTaintlabError(thrown(() => tools.validate("kind: Pod\nmetadata: {name: [}\n")), { code: "yaml-syntax", argument: "subject", line: 2 });
});

// --- admission -----------------------------------------------------------------------

test("admitPod: DefaultTolerationSeconds by default, origins, rejections", () => {
  const r = tools.admitPod({ name: "web" });
  assert.equal(r.admitted, true);
  assert.deepEqual(r.finalTolerations, [
    { key: "node.kubernetes.io/not-ready", operator: "Exists", value: "", effect: "NoExecute", tolerationSeconds: 300 },
    { key: "node.kubernetes.io/unreachable", operator: "Exists", value: "", effect: "NoExecute", tolerationSeconds: 300 },
  ]);
  assert.deepEqual(r.tolerations.map((t) => [t.origin, t.plugin]), [["default-toleration-seconds", "DefaultTolerationSeconds"], ["default-toleration-seconds", "DefaultTolerationSeconds"]]);
  const covered = tools.admitPod({ name: "web", tolerations: [{ operator: "Exists" }] });
  assert.equal(covered.finalTolerations.length, 1, "a wildcard covers both");
  const custom = tools.admitPod({ name: "w" }, { defaultTolerationSeconds: { notReadySeconds: 60 } });
  assert.equal(custom.finalTolerations[0].tolerationSeconds, 60);
  assert.equal(custom.finalTolerations[1].tolerationSeconds, 300);
  const gpu = tools.admitPod({ name: "w", requestedResources: ["cpu", "nvidia.com/gpu"] }, { extendedResourceToleration: true, defaultTolerationSeconds: false });
  assert.deepEqual(gpu.finalTolerations, [{ key: "nvidia.com/gpu", operator: "Exists", value: "", effect: "NoSchedule", tolerationSeconds: null }]);
  const rejected = tools.admitPod({ name: "w", tolerations: "[{key: x, operator: Exists}]" }, { podTolerationRestriction: { whitelist: "[{key: zone, operator: Exists}]" } });
  assert.deepEqual(rejected, {
    admitted: false, plugin: "PodTolerationRestriction", phase: "mutating",
    message: "pod tolerations (possibly merged with namespace default tolerations) conflict with its cluster whitelist",
  });
  const badAnnotation = tools.admitPod({ name: "w" }, { podTolerationRestriction: true, namespace: { defaultTolerations: "[{" } });
  assert.equal(badAnnotation.admitted, false);
  assert.equal(tools.admitPod({ name: "w" }, { operation: "DELETE" }).finalTolerations.length, 0);
  assertTaintlabError(thrown(() => tools.admitPod({ name: "w" }, { operation: "create" })), { code: "invalid-value", path: "options.operation" });
});

test("admitNode and daemonSet", () => {
  assert.deepEqual(tools.admitNode({ name: "n" }), { taints: [{ key: "node.kubernetes.io/not-ready", value: "", effect: "NoSchedule" }], added: true });
  assert.equal(tools.admitNode({ name: "n" }, { operation: "UPDATE" }).added, false);
  const ds = tools.daemonSet(
    { apiVersion: "apps/v1", kind: "DaemonSet", metadata: { name: "agent" }, spec: { template: { spec: { containers: [{ name: "a", image: "a" }] } } } },
    [{ name: "n1", taints: "node.kubernetes.io/unreachable:NoExecute dedicated=infra:NoSchedule" }, { name: "n2", taints: "node.kubernetes.io/memory-pressure:NoSchedule" }],
  );
  assert.deepEqual(ds.added.map((t) => `${t.key}:${t.effect}`), [
    "node.kubernetes.io/not-ready:NoExecute", "node.kubernetes.io/unreachable:NoExecute", "node.kubernetes.io/disk-pressure:NoSchedule",
    "node.kubernetes.io/memory-pressure:NoSchedule", "node.kubernetes.io/pid-pressure:NoSchedule", "node.kubernetes.io/unschedulable:NoSchedule",
  ]);
  assert.deepEqual(ds.nodes.map((n) => [n.node, n.shouldRun, n.shouldContinueRunning, n.blockingTaint?.key ?? null]), [
    ["n1", false, true, "dedicated"], ["n2", true, true, null],
  ]);
  assert.equal(tools.daemonSet({ name: "cni" }, null, { hostNetwork: true }).added.length, 7);
  assertTaintlabError(thrown(() => tools.daemonSet({ name: "x" }, null, { hostNetwork: "yes" })), { code: "wrong-type", path: "options.hostNetwork" });
});

// --- parse ---------------------------------------------------------------------------

test("parse: every input form, with locations", () => {
  const text = [
    "kubectl taint nodes n1 dedicated=gpu:NoSchedule",
    "---",
    GPU_NODE.trim(),
    "---",
    GPU_POD.trim(),
    "---",
    "tolerations:",
    "- {key: a, operator: Exists}",
    "---",
    "Taints:             b=1:NoExecute",
    "---",
    "0/3 nodes are available: 3 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
  ].join("\n");
  const p = tools.parse(text);
  assert.equal(p.errors, 0);
  const forms = new Set(p.documents.map((d) => d.form));
  for (const f of ["kubectl-taint", "yaml", "describe-node", "event-message"]) assert.ok(forms.has(f), f);
  assert.deepEqual(p.taintCommands[0].args, ["nodes", "n1", "dedicated=gpu:NoSchedule"]);
  assert.equal(p.taintCommands[0].verb, "taint");
  assert.equal(p.taintCommands[0].error, null);
  // Each block says what it was read as and what was read from it.
  assert.deepEqual(p.blocks.map((b) => [b.form, b.read]), [
    ["kubectl-taint", { taintCommands: 1 }],
    ["yaml", { nodes: 1 }],
    ["yaml", { pods: 1, pending: 1 }],
    ["yaml", { tolerations: 1 }],
    ["describe-node", { taints: 1 }],
    ["event-message", { events: 1 }],
  ]);
  assert.match(p.blocks[0].summary, /^line 1, kubectl taint\/label: 1 kubectl taint command$/);
  assert.equal(p.nodes[0].name, "gpu-1");
  assert.deepEqual(p.nodes[0].taintLocations[0], { document: 2, line: 9, column: 5, path: "spec.taints[0]" });
  assert.equal(p.pods[0].name, "trainer");
  assert.equal(p.pods[0].tolerationLocations[0].line, 19);
  assert.equal(p.pods[0].qosClass, "BestEffort");
  assert.equal(p.tolerations[0].tolerations[0].key, "a");
  // A describe `Taints:` block alone is a bare taint list, read from describe output.
  const described = p.taints.find((l) => l.form === "describe-node");
  assert.deepEqual(described.taints, [{ key: "b", value: "1", effect: "NoExecute" }]);
  const ev = p.events[0];
  assert.equal(ev.fit.totalNodes, 3);
  assert.deepEqual(ev.namedTaints, [{ key: "dedicated", value: "gpu" }]);
  assert.deepEqual(ev.versions, { min: "1.24.0", below: "1.34.3" });
  // A parsed node and pod go straight back in.
  assert.equal(tl.explain(p.pods[0], p.nodes[0]).verdict, "schedulable");
});

test("parse: diagnostics, strict mode, options", () => {
  const p = tools.parse("spec:\n  tolerations:\n  - {key: a, value: on, efect: NoSchedule}\n");
  assert.equal(p.errors, 1);
  const err = p.diagnostics.find((d) => d.severity === "error");
  assert.deepEqual([err.code, err.location.line, err.location.path], ["wrong-type", 3, "spec.tolerations[0].value"]);
  assert.ok(p.diagnostics.some((d) => d.code === "unknown-field"));
  const e = thrown(() => tools.parse("spec:\n  tolerations:\n  - {key: a, value: on}\n", { strict: true }));
  assertTaintlabError(e, { code: "wrong-type", argument: "text", line: 3, path: "spec.tolerations[0].value" });
  assert.equal(tools.parse("{key: a, value: b, effect: NoSchedule}", { prefer: "tolerations" }).tolerations.length, 1);
  assert.equal(tools.parse("{key: a, value: b, effect: NoSchedule}").taints.length, 1);
  assert.equal(tools.parse("[1,", { syntax: "json" }).diagnostics[0].code, "json-syntax");
  assert.equal(tools.parse("x".repeat(100), { limits: { maxInputBytes: 10 } }).diagnostics[0].code, "input-too-large");
  assertTaintlabError(thrown(() => tools.parse(42)), { code: "wrong-type", argument: "text" });
  assertTaintlabError(thrown(() => tools.parse("", { prefer: "pods" })), { code: "invalid-value", path: "options.prefer" });
});

// --- kubectlTaint, describe ----------------------------------------------------------

test("kubectlTaint: kubectl's output and the nodes afterwards", () => {
  const nodes = [{ name: "n1" }, { name: "n2", labels: { pool: "gpu" }, taints: "gpu=false:NoSchedule" }];
  const r = tools.kubectlTaint("kubectl taint nodes n1 gpu=true:NoSchedule", nodes);
  assert.equal(r.stdout, "node/n1 tainted\n");
  assert.equal(r.exitCode, 0);
  assert.deepEqual(r.nodes[0].taints, [{ key: "gpu", value: "true", effect: "NoSchedule" }]);
  assert.deepEqual(r.results[0], { node: "n1", ok: true, operation: "tainted", taints: [{ key: "gpu", value: "true", effect: "NoSchedule" }], error: null });
  const clash = tools.kubectlTaint(["nodes", "n2", "gpu=true:NoSchedule"], nodes);
  assert.equal(clash.exitCode, 1);
  assert.equal(clash.stderr, "error: node n2 already has gpu taint(s) with same effect(s) and --overwrite is false\n");
  const over = tools.kubectlTaint("nodes -l pool=gpu gpu=true:NoSchedule --overwrite", nodes);
  assert.equal(over.stdout, "node/n2 modified\n");
  const removed = tools.kubectlTaint("kubectl taint nodes n2 gpu-", nodes);
  assert.equal(removed.stdout, "node/n2 untainted\n");
  assert.deepEqual(removed.nodes[1].taints, []);
  const usage = tools.kubectlTaint("kubectl taint nodes n1 gpu=true:Sometimes", nodes);
  assert.equal(usage.error.kind, "usage");
  assert.match(usage.stderr, /\nSee 'kubectl taint -h' for help and examples\n$/);
  const dry = tools.kubectlTaint("kubectl taint nodes n1 a=b:NoSchedule --dry-run=client", nodes);
  assert.equal(dry.stdout, "node/n1 tainted (dry run)\n");
  assert.deepEqual(dry.nodes[0].taints, []);
  assertTaintlabError(thrown(() => tools.kubectlTaint("kubectl get nodes", nodes)), { code: "not-found", argument: "command" });
  assertTaintlabError(thrown(() => tools.kubectlTaint(["nodes", 1], nodes)), { code: "wrong-type", path: "command[1]" });
});

test("describe: the Taints and Tolerations blocks", () => {
  assert.equal(tools.describe({ node: GPU_NODE }), "Taints:             dedicated=gpu:NoSchedule\n");
  assert.equal(tools.describe({ taints: "b=1:NoSchedule a:NoExecute" }), "Taints:             a:NoExecute\n                    b=1:NoSchedule\n");
  assert.equal(tools.describe({ taints: [] }), "Taints:             <none>\n");
  assert.equal(
    tools.describe({ tolerations: [UNREACHABLE_300, { operator: "Exists" }, { key: "sla", operator: "Lt", value: "950", effect: "NoSchedule" }] }),
    "Tolerations:  op=Exists\n              node.kubernetes.io/unreachable:NoExecute op=Exists for 300s\n              sla=950:NoSchedule\n",
  );
  assert.equal(tools.describe({ pod: GPU_POD }, { raw: true }), "Tolerations:\tdedicated=gpu:NoSchedule\n");
  assertTaintlabError(thrown(() => tools.describe({})), { code: "missing-field", argument: "subject" });
  assertTaintlabError(thrown(() => tools.describe({ taints: "a:NoSchedule" }, { column: -1 })), { code: "invalid-value", path: "options.column" });
});

// --- Kubewarden policy ---------------------------------------------------------------

const POD = (tolerations) => ({
  apiVersion: "v1", kind: "Pod", metadata: { name: "web", namespace: "apps" },
  spec: { containers: [{ name: "c", image: "nginx" }], tolerations },
});

test("policyDecision: the policy's answer for objects, requests and reviews", () => {
  const denied = policy.policyDecision(POD([{ operator: "Exists" }]));
  assert.equal(denied.accepted, false);
  assert.equal(denied.code, 403);
  assert.equal(denied.violations[0].kind, "wildcard");
  assert.match(denied.message, /^spec\.tolerations\[0\]/);
  assert.equal(denied.request.operation, "CREATE");
  assert.equal(denied.request.namespace, "apps");
  const ok = policy.policyDecision(POD([{ key: "a", operator: "Exists" }]));
  assert.equal(ok.accepted, true);
  assert.equal(ok.nodeChecks, "not-needed");
  const review = { apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", request: { ...ok.request, object: POD([{ operator: "Exists" }]) } };
  assert.equal(policy.policyDecision(review).accepted, false);
  assert.equal(policy.policyDecision(JSON.stringify(review)).accepted, false);
  const allowed = policy.policyDecision(POD([{ operator: "Exists" }]), { settings: { denyWildcardTolerations: false } });
  assert.equal(allowed.accepted, true);
  const s = { nodeChecks: { enabled: true, unschedulable: "deny" } };
  assert.equal(policy.policyDecision(POD([]), { settings: s }).nodeChecks, "skipped");
  const withNodes = policy.policyDecision(POD([]), { settings: s, nodes: [{ name: "n", taints: [{ key: "k", value: "v", effect: "NoSchedule" }] }] });
  assert.equal(withNodes.nodeChecks, "done");
  assert.equal(withNodes.accepted, false);
  assert.equal(withNodes.violations[0].kind, "nodes");
  const nodeList = { apiVersion: "v1", kind: "NodeList", items: [{ apiVersion: "v1", kind: "Node", metadata: { name: "n" }, spec: { taints: [{ key: "k", value: "v", effect: "NoSchedule" }] } }] };
  assert.equal(policy.policyDecision(POD([]), { settings: s, nodes: nodeList }).accepted, false);
  assert.equal(policy.policyDecision(POD([]), { settings: s, nodes: JSON.stringify(nodeList) }).accepted, false);
  assertTaintlabError(thrown(() => policy.policyDecision(POD([]), { settings: s, nodes: [{ name: "n", taints: "k=v:NoSchedule" }] })), {
    code: "wrong-type", argument: "options.nodes", path: "options.nodes[0].taints",
  });
});

test("policyDecision and validatePolicySettings: errors", () => {
  const e = thrown(() => policy.policyDecision(POD([]), { settings: { denyWildcard: true } }));
  assertTaintlabError(e, { code: "invalid-settings", argument: "options", path: "options.settings" });
  assertTaintlabError(thrown(() => policy.policyDecision('{"kind":\n  }')), { code: "json-syntax", argument: "request", line: 2, column: 3 });
  assertTaintlabError(thrown(() => policy.policyDecision({ metadata: { name: "x" } })), { code: "missing-field", path: "request.kind" });
  assertTaintlabError(thrown(() => policy.policyDecision(POD([]), { kubernetesVersion: "one" })), { code: "invalid-version" });
  assert.deepEqual(policy.validatePolicySettings({}), { valid: true, message: null });
  const bad = policy.validatePolicySettings({ maxTolerationSeconds: -5 });
  assert.equal(bad.valid, false);
  assert.match(bad.message, /^invalid settings: /);
  assert.equal(policy.validatePolicySettings("{}").valid, true);
  assertTaintlabError(thrown(() => policy.validatePolicySettings("{")), { code: "json-syntax", argument: "settings" });
});

// --- analyze -------------------------------------------------------------------------

test("analyze: admission, DaemonSet defaults, explanations, eviction, panes", () => {
  const text = [
    "kubectl taint nodes n1 node.kubernetes.io/unreachable:NoExecute",
    "---",
    "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  template:\n    spec:\n      containers: [{name: a, image: a}]",
    "---",
    "apiVersion: v1\nkind: Pod\nmetadata: {name: web}",
  ].join("\n");
  const a = tl.analyze(text);
  assert.equal(a.admission, true);
  assert.deepEqual(a.nodes.map((n) => n.name), ["n1"]);
  const [agent, web] = a.pods;
  assert.ok(agent.tolerations.every((t) => t.origin === "daemonset"));
  assert.equal(agent.nodes[0].explanation.eviction.kind, "never");
  assert.equal(agent.nodes[0].eviction.pods[0].evictedAt, null);
  assert.deepEqual(web.tolerations.map((t) => t.origin), ["default-toleration-seconds", "default-toleration-seconds"]);
  // The NoExecute taint is tolerated (for 300 s), so the filter passes.
  assert.equal(web.schedule.scheduled, true);
  assert.equal(web.nodes[0].eviction.pods[0].evictedAt, 300);
  assert.match(a.panes.nodes, /^kubectl taint nodes n1/);
  assert.deepEqual(a.blocks.map((b) => [b.formLabel, b.read, b.pane]), [
    ["kubectl taint/label", { taintCommands: 1 }, "text"],
    ["YAML", { workloads: 1 }, "text"],
    ["YAML", { pods: 1, pending: 1 }, "text"],
  ]);
  // kubectl label lines are listed with their verb.
  const labeled = tools.parse("kubectl label nodes n1 disk=ssd\nkubectl taint nodes n1 a=b:NoSchedule\n");
  assert.deepEqual(labeled.taintCommands.map((c) => [c.verb, c.args]), [
    ["label", ["nodes", "n1", "disk=ssd"]],
    ["taint", ["nodes", "n1", "a=b:NoSchedule"]],
  ]);
  assert.match(a.panes.pods, /kind: DaemonSet[\s\S]*---\napiVersion: v1\nkind: Pod/);
  const off = tl.analyze(text, { admission: false });
  assert.equal(off.pods[1].nodes[0].eviction.pods[0].evictedAt, 0);
  const fields = tl.analyze({ nodes: [{ name: "gpu", taints: "dedicated=gpu:NoSchedule" }], pods: [{ name: "p", tolerations: "[{key: dedicated, operator: Exists}]" }] });
  assert.equal(fields.pods[0].schedule.scheduled, true);
  assert.equal(fields.panes, null, "object input has no text panes");
  assertTaintlabError(thrown(() => tl.analyze({ nodes: [{ name: "n", taints: "a=b:Nope" }] })), { code: "invalid-value", argument: "input.nodes[0].taints", line: 1 });
  assertTaintlabError(thrown(() => tl.analyze("x", { admission: { operation: "NOPE" } })), { code: "invalid-value", path: "options.admission.operation" });
});
