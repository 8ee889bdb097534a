// Every function of the package with its types (checked with `tsc --noEmit`, under
// NodeNext and Bundler resolution). Not run: it only has to type-check.
import { analyze, explain, info, schedule, tolerates } from "taintlab";
import {
  admitNode,
  admitPod,
  daemonSet,
  describe,
  evictionTimeline,
  kubectlTaint,
  nodeFailure,
  parse,
  validate,
} from "taintlab/tools";
import { policyDecision, validatePolicySettings } from "taintlab/policy";
import type {
  AdmissionResult,
  Analysis,
  Block,
  CommandVerb,
  DaemonSetResult,
  EvictionTimeline,
  Explanation,
  FilterPlugin,
  Form,
  NodeResources,
  PlacementExplanation,
  NodeFailureTimeline,
  ParseResult,
  ScheduleResult,
  TaintlabError,
  Toleration,
  TolerationSpec,
  Verdict,
} from "taintlab";
import type { KubectlTaintResult, ValidationResult } from "taintlab/tools";
// The result types of the tools' functions are exported from the tools module too.
import type { AdmissionResult as ToolsAdmissionResult, ParseResult as ToolsParseResult } from "taintlab/tools";
import type { PolicyDecision, PolicySettings } from "taintlab/policy";
import initWeb, { explain as webExplain } from "taintlab/web";
import initPolicyWeb, { policyDecision as webPolicyDecision } from "taintlab/policy/web";
import { TaintCheck, type TaintCheckRenderDetail, loadWhatIf, whatIfLines } from "taintlab/element";
import { shareFragment, playgroundState, whatIfFromState } from "taintlab/element/share";

const gpu: TolerationSpec = { key: "dedicated", operator: "Equal", value: "gpu", effect: "NoSchedule" };

const ok: boolean = tolerates(gpu, "dedicated=gpu:NoSchedule", { kubernetesVersion: "1.34" });
const any: boolean = tolerates([gpu, "{key: a, operator: Exists}"], { key: "a", effect: "NoExecute" });

const x: Explanation = explain({ name: "trainer", tolerations: [gpu] }, { name: "gpu-1", taints: "dedicated=gpu:NoSchedule" });
const verdict: Verdict = x.verdict;
const coveredBy: number | undefined = x.taints[0]?.toleratedBy?.toleration;
const left: number[] = x.untoleratedTaints;
const evictAfter: number | null = x.eviction.seconds;

const s: ScheduleResult = schedule(
  [{ name: "web" }, { apiVersion: "v1", kind: "Pod", metadata: { name: "api" }, spec: { tolerations: [] } }],
  "kubectl taint nodes n1 a=b:NoSchedule",
  { comparisonOperators: true },
);
const message: string | null = s.pods[0]?.message ?? null;
const scores: (number | null)[] = s.pods.flatMap((p) => p.nodes.map((c) => c.score));

// Placement: node selectors, affinity, host ports, requests against allocatable.
const placed: ScheduleResult = schedule(
  [
    { name: "api", nodeSelector: { dedicated: "payments" }, tolerations: "[{key: dedicated, operator: Exists}]" },
    {
      name: "gpu",
      priority: 100,
      schedulingGates: [],
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } },
      containers: [{ name: "c", resources: { requests: { "nvidia.com/gpu": 1, cpu: "500m" } }, ports: [{ containerPort: 80, hostPort: 8080 }] }],
    },
  ],
  [{ name: "payments-1", labels: { dedicated: "payments" }, allocatable: { cpu: "4", "nvidia.com/gpu": 2, pods: "110" } }],
);
const rejectedBy: FilterPlugin | null = placed.pods[0]?.nodes[0]?.rejectedBy ?? null;
const shortBy: number[] = placed.pods.flatMap((p) => p.nodes.flatMap((c) => c.insufficient.map((r) => r.shortfall)));
const combined: number | undefined = placed.pods[0]?.nodes[0]?.scores?.combined;
const victims: string[] = placed.pods[1]?.nomination?.victims.map((v) => v.name) ?? [];
const bars: NodeResources | undefined = placed.nodeResources[0];
const steps: PlacementExplanation | null = explain({ name: "api", nodeSelector: { disktype: "ssd" } }, { name: "n" }).placement;
const firstFilter: FilterPlugin | undefined = steps?.filters[0]?.plugin;

const t: EvictionTimeline = evictionTimeline({
  node: { name: "n1", taints: "node.kubernetes.io/unreachable:NoExecute" },
  pods: [{ name: "web", tolerations: [{ key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute", tolerationSeconds: 300 }] }],
  taintedAt: 60,
});
const evictedAt: number | null = t.pods[0]?.evictedAt ?? null;
const t2: EvictionTimeline = evictionTimeline({
  events: [
    { at: 0, type: "createNode", node: { name: "n1" } },
    { at: 5, type: "addTaint", node: "n1", taint: "k:NoExecute" },
    { at: 9, type: "deletePod", pod: "default/web" },
  ],
  until: 100,
});

const f: NodeFailureTimeline = nodeFailure({ node: { name: "n1" }, pods: "kind: Pod\nmetadata: {name: web}\n", defaultTolerationSeconds: true, tainter: { after: 10 } });
const fate: "evicted" | "stays-bound" | "pending-eviction" | undefined = f.pods[0]?.outcome;

const v: ValidationResult = validate({ tolerations: [{ operator: "Lt", value: "5" }] }, { kubernetesVersion: "1.35", comparisonOperators: true });
const firstError: string | undefined = v.errors[0]?.message;
const v2: ValidationResult = validate("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n");

const a: AdmissionResult & ToolsAdmissionResult = admitPod({ name: "web", qosClass: "Burstable" }, {
  podTolerationRestriction: { whitelist: [{ key: "team", operator: "Exists" }] },
  namespace: { defaultTolerations: '[{"key":"team","operator":"Exists"}]' },
  extendedResourceToleration: true,
});
const finals: Toleration[] = a.admitted ? a.finalTolerations : [];
const rejection: string | null = a.admitted ? null : a.message;

const n: { taints: unknown[]; added: boolean } = admitNode({ name: "n" }, { operation: "CREATE" });
const ds: DaemonSetResult = daemonSet({ name: "agent", kind: "DaemonSet" }, [{ name: "n1" }], { hostNetwork: true });

const p: ParseResult & ToolsParseResult = parse("dedicated=gpu:NoSchedule", { prefer: "taints", strict: false, limits: { maxDepth: 64 } });
const line: number | undefined = p.diagnostics[0]?.location.line;
const verbs: CommandVerb[] = p.taintCommands.map((c) => c.verb);
const read: Block[] = p.blocks;
const pending: number = (read[0]?.read.pending ?? 0) + verbs.length;
const form: Form = read[0]?.form ?? "pod-table";

const k: KubectlTaintResult = kubectlTaint("kubectl taint nodes n1 a=b:NoSchedule", [{ name: "n1" }]);
const k2: KubectlTaintResult = kubectlTaint(["nodes", "--all", "a-"], "kubectl taint nodes n1 a=b:NoSchedule");
const stdout: string = k.stdout + k2.stderr;

const d: string = describe({ node: { name: "n", taints: "a:NoSchedule" } }, { column: 20 });

const settings: PolicySettings = { denyWildcardTolerations: true, maxTolerationSeconds: 3600, nodeChecks: { enabled: true, unschedulable: "warn" } };
const pd: PolicyDecision = policyDecision({ apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec: {} }, { settings, nodes: [{ name: "n1", taints: [{ key: "a", effect: "NoSchedule" }] }], userInfo: { username: "alice", groups: ["dev"] } });
const accepted: boolean = pd.accepted && validatePolicySettings(settings).valid;

const an: Analysis = analyze({ nodes: [{ name: "n", taints: "a=b:NoSchedule" }], pods: [{ tolerations: "[{key: a, operator: Exists}]" }] }, { admission: { defaultTolerationSeconds: false }, daemonSet: false });
const panes: string = an.panes ? an.panes.nodes + an.panes.pods : "";
const version: string = info().kubernetes.newest;

try {
  explain("spec:\n  tolerations: {}\n", "a:NoSchedule");
} catch (e) {
  const err = e as TaintlabError;
  const where: string = `${err.argument} ${err.location.line}:${err.location.column} ${err.location.path} ${err.code}`;
  console.log(where, err.diagnostics.length);
}

// The browser pieces.
await initWeb();
const wx: Explanation = webExplain({ name: "p" }, { name: "n" });
await initPolicyWeb();
const wp: boolean = webPolicyDecision({ kind: "Pod", metadata: { name: "p" } }).accepted;
const el: TaintCheck = document.createElement("taint-check");
el.addEventListener("taint-check-render", (ev) => {
  const detail: TaintCheckRenderDetail = ev.detail;
  console.log(detail.analysis.pods.length, detail.first, detail.whatIf?.timeline.summary.evicted ?? 0);
});
await el.activate();
const fragment: string = await shareFragment(playgroundState({ nodes: "", pods: "" }));
// What-if mode: action lines, the link's scenario.actions/until, the module loaded on demand.
const whatIfState = playgroundState({ nodes: "", pods: "", actions: whatIfLines("at 0 drain n1 --ignore-daemonsets; fail n2"), until: 900 });
const opened: { actions: string; until: number } = whatIfFromState(whatIfState);
const tab: "timeline" | undefined = whatIfState.tab;
await loadWhatIf();

console.log(ok, any, verdict, coveredBy, left, evictAfter, message, scores, rejectedBy, shortBy, combined, victims, bars, firstFilter, evictedAt, t2, fate, firstError, v2, finals, rejection, n, ds, line, stdout, d, accepted, panes, version, wx, wp, fragment, opened, tab);
