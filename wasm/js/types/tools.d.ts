/* Taintlab tools: the API server's validation, `kubectl taint` and `kubectl describe`, the
 * admission plugins and the DaemonSet controller, the taint-eviction and node-failure
 * timelines, and the input reader. A separate wasm module from the engine (`taintlab`), so
 * that documentation pages, which load the engine for `<taint-check>`'s `analyze`, never
 * download it.
 */
import type {
  AdmissionOperation, AdmissionOptions, AdmissionResult, DaemonSetResult, EvictionScenario,
  EvictionTimeline, Info, KubernetesObject, Location, Node, NodeFailureScenario,
  NodeFailureTimeline, NodeInput, NodesInput, ParseOptions, ParseResult, PodInput, Taint,
  TaintsInput, TolerationsInput, Text, VersionOptions,
} from "./taintlab.js";
export type { TaintlabError, Location, Diagnostic, ErrorCode, Info } from "./taintlab.js";
export type {
  AdmissionOperation, AdmissionOptions, AdmissionResult, DaemonSetResult, EvictionScenario,
  EvictionTimeline, NodeFailureScenario, NodeFailureTimeline, ParseOptions, ParseResult,
} from "./taintlab.js";

// ------------------------------------------------------------------------------------
// Validation
// ------------------------------------------------------------------------------------

/** An apimachinery field error, with upstream's path and message. */
export interface FieldError {
  type: "Invalid" | "NotSupported" | "Required" | "Duplicate" | "Forbidden";
  reason: "FieldValueInvalid" | "FieldValueNotSupported" | "FieldValueRequired" | "FieldValueDuplicate" | "FieldValueForbidden";
  /** `spec.tolerations[0].operator` */
  field: string;
  badValue: string | null;
  detail: string;
  /** `<field>: <Type>: <badValue>: <detail>` */
  message: string;
  /** Where the offending item is in the input text, when it came from text. */
  location: Location | null;
}

/** The validation of one object. */
export interface ObjectValidation {
  /** `Pod`, `Deployment.apps`, `Node`, or `""` for bare lists. */
  kind: string;
  name: string;
  valid: boolean;
  errors: FieldError[];
  /** The API server's message: `Pod "web" is invalid: ...`. */
  message: string | null;
}

/** `validate`. */
export interface ValidationResult {
  valid: boolean;
  errors: FieldError[];
  message: string | null;
  results: ObjectValidation[];
}

/** What `validate` checks: a pod (optionally as an update of an old one), a node, bare lists, or text / Kubernetes objects (every pod and node in them). */
export type ValidateSubject =
  | { pod?: PodInput; oldPod?: PodInput; node?: NodeInput; tolerations?: TolerationsInput; oldTolerations?: TolerationsInput; taints?: TaintsInput; path?: string }
  | KubernetesObject
  | Text;

// ------------------------------------------------------------------------------------
// kubectl
// ------------------------------------------------------------------------------------

/** `kubectlTaint`: kubectl's output and the nodes afterwards. */
export interface KubectlTaintResult {
  /** The arguments after `kubectl taint`. */
  args: string[];
  stdout: string;
  stderr: string;
  exitCode: number;
  warnings: string[];
  nodes: Node[];
  results: { node: string; ok: boolean; operation: "tainted" | "untainted" | "modified" | null; taints: Taint[] | null; error: string | null }[];
  /** A command-level error (nothing was changed). */
  error: { kind: "flag" | "usage" | "plain" | "unsupported"; message: string } | null;
}

/** What `describe` renders. */
export type DescribeSubject = { node?: NodeInput; pod?: PodInput; taints?: TaintsInput; tolerations?: TolerationsInput };

/** `describe` options. */
export interface DescribeOptions {
  kubernetesVersion?: string;
  /** Return the text before tabwriter alignment (tabs). */
  raw?: boolean;
  /** Column where values start (default 20 for node blocks, like `kubectl describe node`). */
  column?: number;
}

// ------------------------------------------------------------------------------------
// Functions
// ------------------------------------------------------------------------------------

/** The API server's validation of tolerations and taints, with upstream's messages. */
export function validate(subject: ValidateSubject, options?: VersionOptions): ValidationResult;
/** Runs `kubectl taint` (a command line or its arguments) against nodes, with kubectl's output. */
export function kubectlTaint(command: string | ReadonlyArray<string>, nodes: NodesInput, options?: { kubernetesVersion?: string }): KubectlTaintResult;
/** The `Taints:` and `Tolerations:` blocks of `kubectl describe`. */
export function describe(subject: DescribeSubject, options?: DescribeOptions): string;
/** The NoExecute taint-eviction controller, second by second. */
export function evictionTimeline(scenario: EvictionScenario, options?: VersionOptions): EvictionTimeline;
/** A kubelet stops reporting: when the taints appear and when each pod is evicted. */
export function nodeFailure(scenario: NodeFailureScenario, options?: VersionOptions): NodeFailureTimeline;
/** DefaultTolerationSeconds, PodTolerationRestriction and ExtendedResourceToleration, in apiserver order. */
export function admitPod(pod: PodInput, options?: AdmissionOptions & VersionOptions): AdmissionResult;
/** TaintNodesByCondition: the `not-ready:NoSchedule` taint of new nodes. */
export function admitNode(node: NodeInput, options?: { operation?: AdmissionOperation; kubernetesVersion?: string }): { taints: Taint[]; added: boolean };
/** The DaemonSet controller's tolerations, and whether a daemon pod runs on each node. */
export function daemonSet(pod: PodInput, nodes?: NodesInput | null, options?: VersionOptions & { hostNetwork?: boolean }): DaemonSetResult;
/** Reads text in every accepted form, with the location of everything. */
export function parse(text: string, options?: ParseOptions): ParseResult;
/** The package version and the Kubernetes releases modelled. */
export function info(): Info;
