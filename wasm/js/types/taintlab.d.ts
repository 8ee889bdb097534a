/* Taintlab: Kubernetes taints and tolerations, exactly as upstream behaves.
 *
 * Every function takes plain objects (or text in any form Taintlab reads) and returns
 * plain objects. Seconds are numbers, never BigInt. Errors are thrown as `Error`
 * objects named "TaintlabError" (see `TaintlabError`). API validation, `kubectl taint`
 * and `describe`, and the Kubewarden policy decision are in the separate module
 * `taintlab/tools`.
 */

// ------------------------------------------------------------------------------------
// Kubernetes values
// ------------------------------------------------------------------------------------

/** A taint effect. Any other string is kept (validation reports it). */
export type TaintEffect = "NoSchedule" | "PreferNoSchedule" | "NoExecute" | "" | (string & {});
/** A toleration operator. `""` matches like `Equal`. `Lt`/`Gt` need the comparison gate. */
export type TolerationOperator = "Equal" | "Exists" | "Lt" | "Gt" | "" | (string & {});
/** A pod QoS class. */
export type QosClass = "BestEffort" | "Burstable" | "Guaranteed";
/** An admission operation. */
export type AdmissionOperation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";

/** A taint as returned: every field present. */
export interface Taint {
  key: string;
  value: string;
  effect: TaintEffect;
  /** RFC 3339 time, only when the input had one. */
  timeAdded?: string;
}

/** A toleration as returned: every field present. */
export interface Toleration {
  key: string;
  operator: TolerationOperator;
  value: string;
  effect: TaintEffect;
  /** `null` means forever; zero or negative means immediate eviction. */
  tolerationSeconds: number | null;
}

/** A taint as accepted: Kubernetes' own field names, optional fields may be left out. */
export interface TaintSpec {
  key?: string;
  value?: string;
  effect?: TaintEffect;
  timeAdded?: string | null;
}

/** A toleration as accepted. */
export interface TolerationSpec {
  key?: string;
  operator?: TolerationOperator;
  value?: string;
  effect?: TaintEffect;
  tolerationSeconds?: number | null;
}

/**
 * Text in any form Taintlab reads: YAML or JSON (objects, lists, `kubectl get -o yaml`),
 * `kubectl taint` lines, taint specs (`dedicated=gpu:NoSchedule`), `kubectl describe`
 * output, FailedScheduling messages. One text may hold several documents (`---`).
 */
export type Text = string;

/** One taint: an object, or text holding exactly one (`"dedicated=gpu:NoSchedule"`). */
export type TaintInput = TaintSpec | Text;
/** One toleration: an object, or text holding exactly one (`"{key: a, operator: Exists}"`). */
export type TolerationInput = TolerationSpec | Text;
/** Taints: an array (objects or text), or text with any number of them. */
export type TaintsInput = ReadonlyArray<TaintInput> | Text;
/** Tolerations: an array (objects or text), or text with any number of them. */
export type TolerationsInput = ReadonlyArray<TolerationInput> | Text;

/** A node condition. */
export interface NodeCondition {
  type: string;
  status: "True" | "False" | "Unknown" | (string & {});
}

/** Taintlab's node shape (a parsed node can be passed back as it is). */
export interface NodeSpec {
  /** Default `"node"` (`"node-N"` in a list). */
  name?: string;
  taints?: TaintsInput;
  /** Cordoned. */
  unschedulable?: boolean;
  labels?: Record<string, string>;
  conditions?: ReadonlyArray<NodeCondition>;
  /**
   * `status.allocatable` (`{cpu: "4", memory: "16Gi", pods: "110", "nvidia.com/gpu": 2}`),
   * read by the input layer as a pasted Node's. Without it NodeResourcesFit is not run on
   * the node (`resourcesChecked: false`).
   */
  allocatable?: Record<string, string | number>;
  /** `status.capacity`. */
  capacity?: Record<string, string | number>;
  /** Accepted and ignored: what `parse` adds. */
  location?: unknown;
  taintLocations?: unknown;
  unschedulableLocation?: unknown;
  kubeletVersion?: unknown;
  form?: unknown;
}

/** Taintlab's pod shape (a parsed pod can be passed back as it is). */
export interface PodSpec {
  /** Default `"pod"` (`"pod-N"` in a list). */
  name?: string;
  /** Default `"default"`. */
  namespace?: string;
  /** A pod with `nodeName` set never passes through the scheduler. */
  nodeName?: string;
  tolerations?: TolerationsInput;
  preemptionPolicy?: "PreemptLowerPriority" | "Never";
  /** `Pod` (default), `Deployment`, `DaemonSet`, ... (DaemonSet pods get the DaemonSet tolerations in `analyze`). */
  kind?: string;
  hostNetwork?: boolean;
  /** For PodTolerationRestriction (default BestEffort). */
  qosClass?: QosClass;
  /** For ExtendedResourceToleration (the containers' requests are added). */
  requestedResources?: ReadonlyArray<string>;
  /*
   * The pod spec's placement fields, with Kubernetes' names and shapes, read by the input
   * layer as `spec.<field>` of a Pod (a wrong value is thrown at `pods[0].<field>...`).
   */
  /** `spec.nodeSelector`: every label must match (NodeAffinity). */
  nodeSelector?: Record<string, string>;
  /** `spec.affinity` (`nodeAffinity` is modelled; pod (anti-)affinity gives a warning). */
  affinity?: { nodeAffinity?: unknown; podAffinity?: unknown; podAntiAffinity?: unknown };
  /** Kubernetes containers (`resources.requests`/`limits`, `ports[].hostPort`), or the `{name, image, requests, limits}` shape `parse` returns. */
  containers?: ReadonlyArray<KubernetesContainer>;
  initContainers?: ReadonlyArray<KubernetesContainer>;
  /** `spec.overhead`. */
  overhead?: Record<string, string | number>;
  /** Pod-level `spec.resources` (releases that have it). */
  resources?: { requests?: Record<string, string | number>; limits?: Record<string, string | number> };
  /** A gated pod is held: no scheduling cycle, no FailedScheduling event. */
  schedulingGates?: ReadonlyArray<{ name: string }>;
  /** Another scheduler's pod is not placed by the default scheduler. */
  schedulerName?: string;
  /** `spec.priority` (DefaultPreemption). */
  priority?: number | null;
  priorityClassName?: string;
  /** Accepted and ignored: what `parse` adds. */
  apiVersion?: unknown;
  runtimeClassName?: unknown;
  statedQosClass?: unknown;
  location?: unknown;
  tolerationLocations?: unknown;
  form?: unknown;
}

/** A container of a plain pod: Kubernetes' fields (`parse`'s `requests`/`limits` shape also reads). */
export interface KubernetesContainer {
  name?: string;
  image?: string;
  resources?: { requests?: Record<string, string | number>; limits?: Record<string, string | number> };
  ports?: ReadonlyArray<{ containerPort?: number; hostPort?: number; protocol?: "TCP" | "UDP" | "SCTP"; hostIP?: string }>;
  /** `Always` makes an init container a sidecar. */
  restartPolicy?: string;
  requests?: Record<string, string | number>;
  limits?: Record<string, string | number>;
  [field: string]: unknown;
}

/**
 * A Kubernetes object (`Node`, `Pod`, `Deployment`, `DaemonSet`, ...): recognised by a
 * `metadata` or `spec` field and read exactly like pasted JSON.
 */
export interface KubernetesObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; [field: string]: unknown };
  spec?: { [field: string]: unknown };
  status?: { [field: string]: unknown };
  [field: string]: unknown;
}

/** One node: Taintlab's shape, a Kubernetes Node, or text holding exactly one node (bare taints make a node named "node"). */
export type NodeInput = NodeSpec | KubernetesObject | Text;
/** One pod: Taintlab's shape, a Kubernetes Pod or workload, or text holding exactly one. */
export type PodInput = PodSpec | KubernetesObject | Text;
/** Nodes: an array of node inputs, or one input (text may hold many). */
export type NodesInput = ReadonlyArray<NodeInput> | NodeInput;
/** Pods: an array of pod inputs, or one input (text may hold many). */
export type PodsInput = ReadonlyArray<PodInput> | PodInput;

/** A node as returned. */
export interface Node {
  name: string;
  taints: Taint[];
  unschedulable: boolean;
  labels: Record<string, string>;
  conditions: NodeCondition[];
}

/** A pod's identity. */
export interface PodRef {
  namespace: string;
  name: string;
}

// ------------------------------------------------------------------------------------
// Options and errors
// ------------------------------------------------------------------------------------

/** The cluster being modelled. */
export interface VersionOptions {
  /** Kubernetes release, `"1.34"`, `"v1.34.3"`; default the newest modelled (see `info()`). */
  kubernetesVersion?: string;
  /** The `TaintTolerationComparisonOperators` feature gate (Lt/Gt; 1.35+). Default false. */
  comparisonOperators?: boolean;
}

/** Where something is: document, line and column in text (1-based; 0 when unknown), and the field path. */
export interface Location {
  document: number;
  line: number;
  column: number;
  path: string;
}

/** Stable identifiers of problems. */
export type DiagnosticCode =
  | "yaml-syntax" | "json-syntax" | "input-too-large" | "too-deep" | "alias-bomb"
  | "unknown-anchor" | "too-many-documents" | "wrong-type" | "unknown-field"
  | "duplicate-key" | "bad-key" | "invalid-value" | "missing-field" | "ignored-kind"
  | "unrecognized" | "kubectl-command" | "describe" | "event" | "lossy" | "skipped-line"
  | "tool-error" | "not-modelled";

/** A warning or an error found while reading text. */
export interface Diagnostic {
  severity: "error" | "warning";
  code: DiagnosticCode;
  message: string;
  location: Location;
}

/** The codes a `TaintlabError` can have. */
export type ErrorCode =
  | DiagnosticCode
  | "not-found" | "ambiguous" | "invalid-argument" | "invalid-version" | "invalid-settings"
  | "internal";

/**
 * What every function throws: an `Error` named "TaintlabError".
 *
 * ```js
 * try { explain(podYaml, nodeYaml) } catch (e) {
 *   if (e.name === "TaintlabError") console.log(e.argument, e.location.line, e.location.path)
 * }
 * ```
 */
export interface TaintlabError extends Error {
  name: "TaintlabError";
  code: ErrorCode;
  /** The argument with the problem, with indexes: `pods[1]`, `options.kubernetesVersion`. */
  argument: string;
  /** Inside that argument: line and column for text, the field path for objects. */
  location: Location;
  /** Every diagnostic of the text the error comes from. */
  diagnostics: Diagnostic[];
}

// ------------------------------------------------------------------------------------
// Matching and scheduling
// ------------------------------------------------------------------------------------

/** Why a toleration does or does not tolerate a taint (checked in this order: effect, key, operator). */
export type MatchOutcome =
  | "tolerated" | "effect-mismatch" | "key-mismatch" | "value-mismatch"
  | "comparison-gate-off" | "not-an-integer" | "comparison-false" | "unknown-operator";

/** What the scheduler makes of a pod on a node. */
export type Verdict = "schedulable" | "penalized" | "unschedulable" | "untolerated" | "bypassed";

/** The first toleration (pod order) that tolerates a taint. */
export interface ToleratedBy {
  /** Index in the pod's tolerations. */
  toleration: number;
  via: "exists-any-key" | "exists" | "equal" | "less-than" | "greater-than";
  /** The toleration has no effect, so it matches every effect. */
  anyEffect: boolean;
  /** `{key: dedicated, operator: Equal, value: "gpu", effect: NoSchedule}` */
  text: string;
}

/** One taint of the node, seen from the pod. */
export interface TaintExplanation {
  /** Index in the node's taints. */
  index: number;
  taint: Taint;
  /** `key=value:Effect` */
  text: string;
  /** Which part of the scheduler reads it, by effect. */
  role: "filter" | "filter-and-eviction" | "score" | "none";
  tolerated: boolean;
  toleratedBy: ToleratedBy | null;
  /** One per toleration, in pod order. */
  outcomes: MatchOutcome[];
  /** An untolerated NoSchedule/NoExecute taint. */
  blocksScheduling: boolean;
  /** An untolerated PreferNoSchedule taint (lowers the score). */
  scorePenalty: boolean;
  /** For NoExecute taints: what it means for a running pod. */
  noExecute: { kind: "untolerated" | "tolerated-forever" | "tolerated-for"; seconds: number | null } | null;
}

/** When a pod running on the node is evicted for its NoExecute taints. */
export interface EvictionSummary {
  kind: "not-applicable" | "immediate" | "after" | "never";
  seconds: number | null;
}

/** `explain`: one pod on one node. */
/** The default profile's filter plugins modelled, in order. */
export type FilterPlugin = "NodeUnschedulable" | "NodeName" | "TaintToleration" | "NodeAffinity" | "NodePorts" | "NodeResourcesFit";

/** Why the scheduler does not evaluate a pod on a node. */
export type Hold = "bound" | "gated" | "other-scheduler" | "scheduler-error" | "no-daemon-pod";

export type StatusCode = "Success" | "Unschedulable" | "UnschedulableAndUnresolvable";

/** The modelled scores of a feasible node: normalized (0..100) per plugin, and their weighted sum. */
export interface CellScores {
  /** Weight 3. */
  taintToleration: number;
  /** Preferred node-affinity terms, weight 2. */
  nodeAffinity: number;
  /** LeastAllocated, weight 1; null when the node's allocatable is unknown. */
  nodeResourcesFit: number | null;
  /** Weight 1; null when the allocatable is unknown or the plugin skips the pod. */
  balancedAllocation: number | null;
  /** TaintToleration×3 + NodeAffinity×2 + NodeResourcesFit + BalancedAllocation. ImageLocality, InterPodAffinity and PodTopologySpread are not modelled, so the highest sum is not necessarily the scheduler's pick. */
  combined: number;
}

/** A resource NodeResourcesFit finds short on a node (cpu in milli-cores, memory in bytes). */
export interface InsufficientResource {
  resource: string;
  /** The reason in the FailedScheduling histogram (`Insufficient cpu`, `Too many pods`). */
  reason: string;
  requested: number;
  /** What the node's running pods already request. */
  used: number;
  /** The node's allocatable. */
  capacity: number;
  /** `requested − (capacity − used)`. */
  shortfall: number;
}

/** One pod on one node through the full filter chain. */
export interface PlacementCellFields {
  /** The first filter plugin that rejected the node. */
  rejectedBy: FilterPlugin | null;
  /** Every plugin that rejected it (one from 1.27; 1.25 – 1.26 run every filter). */
  rejectedByAll: FilterPlugin[];
  /** Unschedulable: preemption may help. */
  code: StatusCode | null;
  /** The node's reasons as counted in the FailedScheduling message. */
  reasons: string[];
  hold: Hold | null;
  /** False when the node's allocatable is unknown (resources not checked there). */
  resourcesChecked: boolean;
  scores: CellScores | null;
  insufficient: InsufficientResource[];
}

/** Every filter in order, with the checks behind each. */
export interface PlacementExplanation extends PlacementCellFields {
  /** `not-evaluated`: an earlier filter failed (from 1.27) or the pod never reached the filters; `not-checked`: NodeResourcesFit on a node of unknown allocatable. */
  filters: { plugin: FilterPlugin; state: "passed" | "failed" | "not-evaluated" | "not-checked"; code: StatusCode | null; reasons: string[] }[];
  /** NodeResourcesFit's arithmetic per resource the pod requests (and the pod count); null when the allocatable is unknown. */
  resources: { resource: string; requested: number; used: number; allocatable: number; headroom: number }[] | null;
  /** Each `nodeSelector` entry against the node's labels. */
  nodeSelector: { key: string; wanted: string; nodeValue: string | null; matches: boolean }[];
  /** Whether each required node-affinity term matches (terms are ORed). */
  affinityTerms: boolean[];
  /** The pod's host ports already taken on the node. */
  portConflicts: { hostPort: number; protocol: string; hostIP: string }[];
}

export interface Explanation {
  pod: PodRef;
  node: string;
  /** The taint filters' verdict (NodeUnschedulable and TaintToleration); `fits` and `placement` have the full chain's. */
  verdict: Verdict;
  /** The pod can land on the node: it passes every modelled filter (node affinity, ports and resources included) and is not held; for a bound pod, its taints let it stay. */
  fits: boolean;
  /** `spec.nodeName` preset: the scheduler never sees the pod. */
  bypassesScheduler: boolean;
  /** One plain-English sentence. */
  summary: string;
  tolerations: Toleration[];
  /** The NodeUnschedulable check (cordon). */
  cordon: { nodeUnschedulable: boolean; toleratedBy: ToleratedBy | null; outcomes: MatchOutcome[] };
  taints: TaintExplanation[];
  /** Indexes of the taints no toleration tolerates: what is left. */
  untoleratedTaints: number[];
  /** Indexes of the tolerations that tolerate none of the node's taints. */
  unusedTolerations: number[];
  /** The first rejection of the full filter chain. */
  filter: {
    rejectedBy: FilterPlugin | null;
    code: StatusCode;
    /** The node's reason in the FailedScheduling message, in this release's wording. */
    reason: string | null;
    firstUntolerated: number | null;
  };
  /** Untolerated PreferNoSchedule taints (before normalization). */
  rawScore: number;
  scoreWeight: number;
  /** The kubelet's NoExecute admission check. */
  kubeletAdmits: boolean;
  eviction: EvictionSummary;
  /** Every filter in order (null when the pair is out of range). */
  placement: PlacementExplanation | null;
  /** `explain` only: what was not read, warnings (once per block), unmodelled fields. */
  diagnostics?: AnalysisDiagnostic[];
  kubernetesVersion: string;
}

/** One pod on one node in `schedule` (the full chain's fields, and the taint view's `verdict`, `score`, `weightedScore`). */
export interface ScheduleCell extends PlacementCellFields {
  node: string;
  /** The taint filters' verdict. */
  verdict: Verdict;
  /** Passes every modelled filter. */
  fits: boolean;
  /** Normalized TaintToleration score, 0..100 (null unless the node fits). */
  score: number | null;
  /** `score` times the plugin weight (3). */
  weightedScore: number | null;
  untoleratedPreferNoSchedule: number;
  firstUntolerated: number | null;
  /** The node's (first) reason in the FailedScheduling message. */
  reason: string | null;
}

/** The FailedScheduling event and the PodScheduled condition. */
export interface FailedSchedulingEvent {
  type: "Warning";
  reason: "FailedScheduling";
  action: "Scheduling";
  /** Truncated to 1024 bytes as the scheduler does. */
  message: string;
  conditionReason: "Unschedulable" | "SchedulerError";
  conditionMessage: string;
}

/** One pod in `schedule`. */
export interface PodSchedule {
  namespace: string;
  name: string;
  bypassesScheduler: boolean;
  outcome: "feasible" | "unschedulable" | "bound" | "gated" | "other-scheduler" | "scheduler-error" | "pre-score-error" | "scheduler-panic" | null;
  scheduled: boolean;
  feasibleNodes: number;
  /** The feasible nodes with the best combined modelled score (see `CellScores.combined`). */
  bestNodes: string[];
  /** The FailedScheduling message of the full chain, null when the pod fits somewhere (or is held). */
  message: string | null;
  event: FailedSchedulingEvent | null;
  /** The message's PostFilter part from `preemption: ` on. */
  preemption: string | null;
  /** When preemption helps: the node DefaultPreemption nominates and the pods it evicts. */
  nomination: { node: string; victims: { namespace: string; name: string; priority: number }[] } | null;
  nodes: ScheduleCell[];
}

/** Requested/allocatable per resource on one node (cpu in milli-cores, memory in bytes, `pods` counts pods). */
export interface NodeResources {
  allocatableKnown: boolean;
  runningPods: number;
  bars: { resource: string; requested: number; allocatable: number }[];
}

/** `schedule`: every pod on every node. */
export interface ScheduleResult {
  nodes: string[];
  /** Aligned with `nodes`. */
  nodeResources: NodeResources[];
  pods: PodSchedule[];
  unmodelledScorePlugins: string[];
  unmodelledFilterPlugins: string[];
  /** What was not read (once per block), warnings, unknown allocatable, unmodelled fields. */
  diagnostics: AnalysisDiagnostic[];
  kubernetesVersion: string;
}

// ------------------------------------------------------------------------------------
// Eviction
// ------------------------------------------------------------------------------------

/** An event of an eviction scenario. */
export type EvictionEvent =
  | { at: number; type: "createNode" | "updateNode"; node: NodeInput }
  | { at: number; type: "deleteNode"; node: string | NodeInput }
  | { at: number; type: "addTaint" | "removeTaint"; node: string; taint: TaintInput }
  | { at: number; type: "createPod" | "updatePod"; pod: PodInput }
  | { at: number; type: "deletePod"; pod: string | PodInput };

/** `evictionTimeline` scenario: the full event list, or a node, its pods, and when its NoExecute taints appear. */
export type EvictionScenario =
  | { events: ReadonlyArray<EvictionEvent>; until?: number }
  | { node: NodeInput; pods?: PodsInput; taintedAt?: number; until?: number }
  | { node: NodeInput; pod: PodInput; taintedAt?: number; until?: number };

/** A decision of the taint-eviction controller. */
export interface EvictionAction {
  at: number;
  pod: PodRef;
  action: "schedule" | "keep" | "cancel" | "evict";
  /** When the timer fires (schedule, keep). */
  fireAt: number | null;
}

/** A Kubernetes Event the controller records on a pod. */
export interface EvictionEventRecord {
  at: number;
  pod: PodRef;
  type: "Normal";
  reason: "TaintManagerEviction";
  /** `Marking for deletion Pod ns/name` or `Cancelling deletion of Pod ns/name`. */
  message: string;
}

/** `evictionTimeline`: what the controller did. */
export interface EvictionTimeline {
  /** The end time given, or null (then every timer runs out). */
  until: number | null;
  /** The last time anything happened. */
  end: number;
  pods: { namespace: string; name: string; evictedAt: number | null; pendingEvictionAt: number | null; remains: boolean }[];
  actions: EvictionAction[];
  events: EvictionEventRecord[];
  pendingEvictions: { pod: PodRef; fireAt: number }[];
}

/** `nodeFailure` scenario: the kubelet stops reporting after `lastHeartbeat`. */
export interface NodeFailureScenario {
  node: NodeInput;
  pods?: PodsInput;
  /** Default 0. */
  lastHeartbeat?: number;
  heartbeatResumesAt?: number | null;
  /** `--node-monitor-grace-period`; default by release (50 s, 40 s before 1.32). */
  gracePeriod?: number;
  /** `--node-monitor-period`, default 5. */
  monitorPeriod?: number;
  monitorPhase?: number;
  /** The rate-limited NoExecute tainter. */
  tainter?: "immediate" | "stopped" | { after: number };
  /** Apply DefaultTolerationSeconds to the pods first (default false: pods as given). */
  defaultTolerationSeconds?: boolean | { notReady?: number; unreachable?: number };
  until?: number;
}

/** `nodeFailure`: the node lifecycle controller's timeline and each pod's fate. */
export interface NodeFailureTimeline {
  node: string;
  gracePeriod: number;
  monitorPeriod: number;
  changes: {
    at: number;
    change: "last-heartbeat" | "ready-unknown" | "queued-for-no-execute-tainting" | "taint-added" | "taint-removed" | "heartbeat-resumed";
    taint: Taint | null;
    /** The Event recorded on the node (NodeNotReady). */
    event: { type: "Normal"; reason: string; message: string } | null;
  }[];
  readyUnknownAt: number | null;
  noExecuteTaintedAt: number | null;
  noExecuteRemovedAt: number | null;
  finalTaints: Taint[];
  pods: {
    namespace: string;
    name: string;
    tolerations: Toleration[];
    timerArmedAt: number | null;
    timerDueAt: number | null;
    outcome: "evicted" | "stays-bound" | "pending-eviction";
    evictedAt: number | null;
    pendingEvictionAt: number | null;
  }[];
  eviction: EvictionTimeline;
  kubernetesVersion: string;
}

// ------------------------------------------------------------------------------------
// Admission
// ------------------------------------------------------------------------------------

/** The pod admission plugins to run, with their configuration. */
export interface AdmissionOptions {
  /** Default CREATE. */
  operation?: AdmissionOperation;
  /** Enabled by default, 300 s each. */
  defaultTolerationSeconds?: boolean | { notReadySeconds?: number; unreachableSeconds?: number };
  /** Off by default; `true` is an empty cluster configuration. */
  podTolerationRestriction?: boolean | { default?: TolerationsInput; whitelist?: TolerationsInput };
  /** Off by default. */
  extendedResourceToleration?: boolean;
  /** The namespace's annotations: the annotation text (a JSON list), or tolerations. */
  namespace?: {
    defaultTolerations?: string | ReadonlyArray<TolerationInput> | null;
    tolerationsWhitelist?: string | ReadonlyArray<TolerationInput> | null;
  };
  /** Overrides the pod's QoS class. */
  qosClass?: QosClass;
  /** Overrides the pod's requested resource names. */
  requestedResources?: ReadonlyArray<string>;
}

/** Where a toleration of an admitted pod came from. */
export type TolerationOrigin =
  | "pod" | "default-toleration-seconds" | "namespace-default" | "cluster-default"
  | "memory-pressure" | "extended-resource";

/** `admitPod`. */
export type AdmissionResult =
  | {
      admitted: true;
      tolerations: { toleration: Toleration; origin: TolerationOrigin; plugin: string | null }[];
      dropped: { toleration: Toleration; origin: TolerationOrigin; reason: "superseded" | "overwritten" }[];
      finalTolerations: Toleration[];
    }
  | {
      admitted: false;
      plugin: string;
      phase: "mutating" | "validating";
      /** Upstream's error text. */
      message: string;
    };

/** `daemonSet`. */
export interface DaemonSetResult {
  /** The pod's tolerations after the DaemonSet controller added its own. */
  tolerations: Toleration[];
  added: Toleration[];
  hostNetwork: boolean;
  nodes: {
    node: string;
    shouldRun: boolean;
    shouldContinueRunning: boolean;
    blockingTaint: Taint | null;
    evictingTaint: Taint | null;
  }[];
}

// ------------------------------------------------------------------------------------
// Text, kubectl
// ------------------------------------------------------------------------------------

/** How a document was written. */
export type Form =
  | "yaml" | "json" | "kubectl-taint" | "describe-node" | "describe-pod" | "event-message"
  | "taint-spec" | "node-table" | "pod-table" | "priority-class-table" | "terraform";

/** The kubectl subcommand of a command line read from text (both edit the pasted nodes). */
export type CommandVerb = "taint" | "label";

/** What one block of a text was read as and what was read from it: the same view the playground, `<taint-check>` and the CLI show. */
export interface Block {
  /** First and last document of the block (consecutive kubectl lines, taint specs or event messages are one block). */
  document: number;
  lastDocument: number;
  form: Form;
  /** The form in words: `kubectl get pods -o wide`, `YAML`, `kubectl describe node`, ... */
  formLabel: string;
  line: number;
  endLine: number;
  /** Counts above zero only; `cordoned` breaks down `nodes`, `bound` and `pending` break down `pods`. */
  read: {
    nodes?: number; cordoned?: number; pods?: number; bound?: number; pending?: number;
    workloads?: number; taints?: number; tolerations?: number; taintCommands?: number;
    labelCommands?: number; events?: number; priorityClasses?: number;
    disruptionBudgets?: number;
  };
  /** In English: `lines 3–9, kubectl get pods -o wide: 3 pods (2 bound, 1 pending)`. */
  summary: string;
  /** Diagnostics located in the block. */
  errors: number;
  warnings: number;
}

/** A node read from text. */
export interface ParsedNode extends Node {
  location: Location;
  taintLocations: Location[];
  unschedulableLocation: Location | null;
  kubeletVersion: string | null;
  form: Form;
}

/** Requests and limits of one container, as written. */
export interface ContainerResources {
  name: string;
  image: string;
  requests: Record<string, string>;
  limits: Record<string, string>;
}

/** A pod (or a workload's pod template) read from text. */
export interface ParsedPod {
  name: string;
  namespace: string;
  nodeName: string;
  tolerations: Toleration[];
  preemptionPolicy: "PreemptLowerPriority" | "Never";
  kind: string;
  apiVersion: string;
  priority: number | null;
  priorityClassName: string;
  hostNetwork: boolean;
  runtimeClassName: string;
  qosClass: QosClass;
  statedQosClass: QosClass | null;
  requestedResources: string[];
  containers: ContainerResources[];
  initContainers: ContainerResources[];
  location: Location;
  tolerationLocations: Location[];
  form: Form;
}

/** A counted reason of a FailedScheduling message. */
export interface EventReason {
  count: number;
  reason: string;
  kind:
    | { type: "untoleratedTaints" | "taintsNotTolerated" | "unschedulable" | "unknownConditions" | "preemptionNotHelpful" | "noPreemptionVictims" | "other" }
    | { type: "untoleratedTaint" | "legacyTaint"; key: string; value: string };
}

/** The `0/N nodes are available: ...` part. */
export interface FitMessage {
  totalNodes: number;
  /** A PreFilter message, when the scheduler stopped before looking at nodes. */
  preFilter: string | null;
  reasons: EventReason[];
}

/** A FailedScheduling message read from text. */
export interface SchedulingEvent {
  message: string;
  location: Location;
  noNodes: boolean;
  fit: FitMessage | null;
  postFilter: string[];
  preemption: { text: string; notEligible: boolean; nodes: FitMessage | null } | null;
  /** The preemption part ends in `..` (1.25 to 1.29). */
  doublePeriod: boolean;
  truncated: boolean;
  /** The releases whose wording matches: `min` inclusive, `below` exclusive. */
  versions: { min: string | null; below: string | null };
  /** Taints the message names (`{key: value}` wordings). */
  namedTaints: { key: string; value: string }[];
}

/** `parse`: everything read, with locations, and every diagnostic. */
export interface ParseResult {
  documents: { index: number; form: Form; line: number; endLine: number }[];
  /** What each block was read as and what was read from it. */
  blocks: Block[];
  nodes: ParsedNode[];
  pods: ParsedPod[];
  taints: { taints: Taint[]; locations: Location[]; location: Location; form: Form }[];
  tolerations: { tolerations: Toleration[]; locations: Location[]; location: Location; form: Form }[];
  /** `kubectl taint` and `kubectl label` (on nodes) lines, in paste order; `args` follow the verb. */
  taintCommands: { verb: CommandVerb; text: string; args: string[]; location: Location; argLocations: Location[]; error: string | null }[];
  events: SchedulingEvent[];
  diagnostics: Diagnostic[];
  errors: number;
  warnings: number;
}

/** `parse` options. */
export interface ParseOptions {
  /** The kubectl release whose messages `kubectl taint` errors use. */
  kubernetesVersion?: string;
  /** How an ambiguous bare `{key, value, effect}` object is read. Default "taints". */
  prefer?: "taints" | "tolerations";
  /** Force YAML or JSON (default: detected). */
  syntax?: "yaml" | "json";
  /** Throw the first error instead of returning it in `diagnostics`. */
  strict?: boolean;
  limits?: { maxInputBytes?: number; maxDepth?: number; maxAliasNodes?: number; maxDocuments?: number };
}

// ------------------------------------------------------------------------------------
// analyze
// ------------------------------------------------------------------------------------

/** `analyze` options. */
export interface AnalyzeOptions extends VersionOptions {
  /** Run the admission plugins as a cluster does (default true: DefaultTolerationSeconds). */
  admission?: boolean | AdmissionOptions;
  /** Give pods the DaemonSet tolerations (default: only `kind: DaemonSet`). */
  daemonSet?: boolean;
  /**
   * Ignored: anonymous nodes (bare taint lists) are named `node-1`, `node-2`, ... in paste
   * order, as in the playground. Kept so older callers do not throw.
   * @deprecated
   */
  nodeName?: string;
  /**
   * Ignored: anonymous pods (bare toleration lists) are named `pod-1`, `pod-2`, ... in
   * paste order, as in the playground.
   * @deprecated
   */
  podName?: string;
}

/** Which pane a part of the input was read in: `text` for one combined text, `nodes` and `pods` for `{nodes, pods}`. */
export type AnalysisPane = "text" | "nodes" | "pods";

/** One pod of `analyze`. */
export interface AnalyzedPod {
  name: string;
  namespace: string;
  kind: string;
  location: Location | null;
  /** `object` (a pod or workload) or `toleration-list` (a bare list: an anonymous pod `pod-<n>`). */
  origin: "object" | "toleration-list";
  pane: AnalysisPane;
  /** False when an admission plugin rejected it (the pod would not be created; the matrix still shows it, as the playground does). */
  admitted: boolean;
  rejection: string | null;
  /** The tolerations the pod ends up with, and where each came from. */
  tolerations: { toleration: Toleration; origin: TolerationOrigin | "daemonset"; location: Location | null }[];
  dropped: { toleration: Toleration; origin: TolerationOrigin | "daemonset"; reason: "superseded" | "overwritten" }[];
  /** The API server's validation of the written tolerations, at upstream's field paths (`template.spec.tolerations[0].operator` for a PodTemplate). */
  validation: { type: string; field: string; message: string }[];
  /** The API server's status message for those errors (`PodTemplate "t" is invalid: ...`). */
  statusMessage: string | null;
  schedule: PodSchedule;
  /** One entry per node, in node order. */
  nodes: { node: number; explanation: Explanation; eviction: EvictionTimeline | null }[];
}

/** A `kubectl taint` line of the input, run as kubectl runs it (each command on its own). */
export interface AnalyzedCommand {
  command: string;
  location: Location;
  pane: AnalysisPane;
  stdout: string;
  stderr: string;
  exitCode: number;
  /** kubectl refused the command itself (bad flags, bad taint spec): it changed nothing; the other commands keep their effects. */
  rejected: boolean;
  /** Nodes created because the command named them and no such node was given. */
  created: string[];
}

/** A diagnostic of `analyze`: the input layer's (its codes), or `kubectl` (a command kubectl refused or that failed), `validation` (the API server would reject the tolerations), `admission` (a plugin rejects the pod), `configuration`. */
export interface AnalysisDiagnostic {
  severity: "error" | "warning";
  code: DiagnosticCode | "kubectl" | "validation" | "admission" | "configuration" | "scheduling";
  message: string;
  /** For `validation`, the toleration's line and column with upstream's field path. */
  location: Location;
  /** null for the configuration. */
  pane: AnalysisPane | null;
}

/**
 * `analyze`: everything a documentation example shows, built by the same scenario
 * pipeline as the playground. Text never throws: what cannot be read is a diagnostic.
 */
export interface Analysis {
  kubernetesVersion: string;
  comparisonOperators: boolean;
  admission: boolean;
  /** Nodes in paste order (bare taint lists are nodes `node-1`, `node-2`, ...), then nodes created by `kubectl taint` lines. */
  nodes: (Node & { location: Location | null; origin: "object" | "taint-list" | "command"; pane: AnalysisPane; resources: NodeResources | null })[];
  pods: AnalyzedPod[];
  commands: AnalyzedCommand[];
  /** Every warning and error: reading, kubectl, validation, admission. */
  diagnostics: AnalysisDiagnostic[];
  /** Number of errors among `diagnostics`. */
  errors: number;
  /** Text input split into the playground's two panes (null for object input). */
  panes: { nodes: string; pods: string } | null;
  /** What each block of the text input was read as, with the pane it was read in (empty for object input). */
  blocks: (Block & { pane: AnalysisPane })[];
}

/** The package version and the Kubernetes releases modelled. */
export interface Info {
  version: string;
  kubernetes: { oldest: string; newest: string };
}

// ------------------------------------------------------------------------------------
// Functions
// ------------------------------------------------------------------------------------

/** Whether the toleration (or any of the tolerations) tolerates the taint. */
export function tolerates(toleration: TolerationInput | ReadonlyArray<TolerationInput>, taint: TaintInput, options?: VersionOptions): boolean;
/** One pod on one node: which toleration covered which taint, what is left, the verdict. */
export function explain(pod: PodInput, node: NodeInput, options?: VersionOptions): Explanation;
/** Every pod on every node: verdicts, scores and each pod's FailedScheduling message. */
export function schedule(pods: PodsInput, nodes: NodesInput, options?: VersionOptions): ScheduleResult;
/** Everything a documentation example shows: admission, schedule, explanations and NoExecute timelines.
 * (`evictionTimeline`, `nodeFailure`, `admitPod`, `admitNode`, `daemonSet` and `parse` are in
 * `taintlab/tools`.) */
export function analyze(input: Text | { nodes?: NodesInput; pods?: PodsInput }, options?: AnalyzeOptions): Analysis;
/** The package version and the Kubernetes releases modelled. */
export function info(): Info;
