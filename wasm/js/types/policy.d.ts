/* Taintlab: the Kubewarden policy's decision (toleration governance), without a cluster.
 * A separate wasm module from the engine (`taintlab`), loaded only by pages that use it.
 */
import type { AdmissionOperation, Info, KubernetesObject, TaintEffect, TaintSpec, TolerationOperator, VersionOptions } from "./taintlab.js";
export type { TaintlabError, Location, Diagnostic, ErrorCode, Info } from "./taintlab.js";

// ------------------------------------------------------------------------------------
// Kubewarden policy
// ------------------------------------------------------------------------------------

/** A toleration in policy settings. */
export interface PolicyToleration {
  key?: string;
  operator?: TolerationOperator;
  value?: string;
  effect?: TaintEffect;
  tolerationSeconds?: number;
}

/** An allow-list entry. */
export interface AllowedToleration {
  key?: string;
  keyPattern?: string;
  values?: string[];
  effects?: TaintEffect[];
  maxTolerationSeconds?: number;
}

/** The Taintlab Kubewarden policy settings (see the policy's README). */
export interface PolicySettings {
  denyWildcardTolerations?: boolean;
  protectedTaints?: { key?: string; keyPattern?: string; value?: string; effect?: TaintEffect }[];
  allowedTolerations?: AllowedToleration[] | null;
  systemTolerations?: "allow" | "validate";
  maxTolerationSeconds?: number | null;
  requireTolerationSeconds?: boolean;
  clampTolerationSeconds?: boolean;
  onlyNewTolerationsOnUpdate?: boolean;
  validateTolerations?: boolean;
  warnings?: boolean;
  kubernetesVersion?: string | null;
  comparisonOperators?: boolean;
  exemptNamespaces?: string[];
  exemptUsers?: string[];
  exemptGroups?: string[];
  exemptServiceAccounts?: string[];
  namespaceRules?: {
    namespaces: string[];
    allowedTolerations?: AllowedToleration[];
    defaultTolerations?: PolicyToleration[];
    maxTolerationSeconds?: number;
    defaultTolerationSeconds?: { notReady?: number | null; unreachable?: number | null };
    dedicatedNodes?: {
      toleration: PolicyToleration;
      nodeSelectorRequirement: { key: string; operator: string; values?: string[] };
    };
  }[];
  defaultTolerations?: PolicyToleration[];
  extendedResourceTolerations?: boolean | string[];
  defaultTolerationSeconds?: { notReady?: number | null; unreachable?: number | null } | null;
  mutateOnUpdate?: boolean;
  nodeChecks?: {
    enabled?: boolean;
    unschedulable?: "ignore" | "warn" | "deny";
    unmatchedTolerations?: "ignore" | "warn" | "deny";
    protectTaintsOfNodes?: string;
    labelSelector?: string;
    onListError?: "ignore" | "warn" | "deny";
    skipControlledPods?: boolean;
  };
  nodeGuard?: {
    enabled?: boolean;
    protectedTaintKeys?: string[];
    allowedUsers?: string[];
    allowedGroups?: string[];
    allowedServiceAccounts?: string[];
    validateTaints?: boolean;
  };
}

/** Nodes for the policy's node checks. */
export type PolicyNodes =
  | ReadonlyArray<KubernetesObject | { name?: string; taints?: ReadonlyArray<TaintSpec>; unschedulable?: boolean; labels?: Record<string, string> }>
  | { kind?: "NodeList"; items: ReadonlyArray<KubernetesObject> }
  | string;

/** `policyDecision` options. */
export interface PolicyOptions extends VersionOptions {
  /** Settings object or JSON text; default the policy's defaults. */
  settings?: PolicySettings | string;
  /**
   * The cluster's nodes, for the node checks (skipped when left out): Kubernetes Node
   * objects, a NodeList or its JSON (what the Kubewarden host returns), or plain nodes with
   * taint objects. This module does not read text: use `parse` from "taintlab" for that.
   */
  nodes?: PolicyNodes;
  /** When `request` is a Kubernetes object: the operation (default CREATE). */
  operation?: AdmissionOperation;
  /** When `request` is a Kubernetes object: the requesting user. */
  userInfo?: { username?: string; groups?: string[] };
  /** When `request` is a Kubernetes object: the old object of an UPDATE. */
  oldObject?: KubernetesObject;
  /** When `request` is a Kubernetes object: the namespace (default its own, or "default"). */
  namespace?: string;
}

/** `policyDecision`: the Kubewarden policy's answer. */
export interface PolicyDecision {
  accepted: boolean;
  message: string | null;
  /** HTTP status of a rejection: 400, 403, 422 or 500. */
  code: number | null;
  warnings: string[];
  /** The object after mutation, when the policy changed it. */
  mutatedObject: KubernetesObject | null;
  auditAnnotations: Record<string, string>;
  violations: { kind: "api" | "wildcard" | "protected" | "not-allowed" | "seconds" | "nodes" | "node-guard"; message: string }[];
  mutations: string[];
  /** Whether the node checks ran: not needed, done with `options.nodes`, or skipped (no nodes given). */
  nodeChecks: "not-needed" | "done" | "skipped";
  /** The AdmissionRequest evaluated. */
  request: { [field: string]: unknown };
}

// ------------------------------------------------------------------------------------
// Functions
// ------------------------------------------------------------------------------------

/** The Taintlab Kubewarden policy's decision on an AdmissionRequest, an AdmissionReview or a Kubernetes object. */
export function policyDecision(request: KubernetesObject | string, options?: PolicyOptions): PolicyDecision;
/** Checks Kubewarden policy settings. */
export function validatePolicySettings(settings: PolicySettings | string): { valid: boolean; message: string | null };
/** The package version and the Kubernetes releases modelled. */
export function info(): Info;
