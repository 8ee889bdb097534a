/* Taintlab what-if: taint, cordon, drain or lose nodes and watch the whole cluster respond
 * second by second. A separate wasm module (`taintlab/whatif`), so that the engine that
 * documentation pages load does not carry the simulator.
 */
import type {
  AnalyzeOptions, Info, NodesInput, PodsInput, Taint, TaintEffect, Text,
} from "./taintlab.js";
export type { TaintlabError, Location, Diagnostic, ErrorCode, Info } from "./taintlab.js";

/** `kubectl drain`'s flags. */
export interface DrainOptions {
  ignoreDaemonsets?: boolean;
  deleteEmptydirData?: boolean;
  force?: boolean;
  disableEviction?: boolean;
  gracePeriod?: number;
  timeout?: number;
  skipWaitForDeleteTimeout?: number;
}

/** An action as an object (core's shape); `at` is in seconds from the start. */
export type WhatIfAction = { at: number } & (
  | { action: "addTaint"; node: string; taint: { key: string; value?: string; effect: TaintEffect } }
  | { action: "removeTaint"; node: string; key: string; effect: TaintEffect }
  | { action: "cordon" | "uncordon" | "nodeStopsReporting" | "nodeReturns" | "deleteNode"; node: string }
  | { action: "drain"; node: string; options?: DrainOptions }
  | { action: "scale"; kind: WorkloadKind; namespace: string; name: string; replicas: number }
);

/** Action lines, one per line or one per array item: `at 60 taint n1 k=v:NoExecute`,
 * `at 0 drain n2 --ignore-daemonsets`, `fail n3`, `recover n3`, `cordon n1`,
 * `uncordon n1`, `delete n1`, `scale deployment/web 5 -n shop`. */
export type WhatIfActions = Text | ReadonlyArray<string | WhatIfAction>;

export interface WhatIfOptions extends AnalyzeOptions {
  /** Last simulated second (default 1800: half an hour). */
  until?: number;
}

export type WorkloadKind =
  | "Deployment" | "ReplicaSet" | "StatefulSet" | "Job" | "DaemonSet" | "ReplicationController";

export interface ObjectRef {
  kind: "Pod" | "Node" | WorkloadKind;
  namespace: string;
  name: string;
}

/** A Kubernetes Event, or a line `kubectl drain` printed. */
export interface WhatIfEvent {
  at: number;
  source: "Event" | "DrainStdout" | "DrainStderr";
  reason: string;
  eventType: "Normal" | "Warning" | string;
  object: ObjectRef;
  message: string;
}

export type TerminationCause =
  | "TaintEviction" | "DrainEviction" | "DrainDeletion" | "Preemption" | "ScaleDown" | "NodeDeleted";

export type PodState =
  | { state: "pending" }
  | { state: "running" }
  | { state: "terminating"; cause: TerminationCause };

/** A stretch of one pod's life on one node (or Pending). */
export type PodSpan = PodState & {
  /** Index into `timeline.pods`. */
  pod: number;
  /** Index into `timeline.nodes`; null while Pending. */
  node: number | null;
  from: number;
  /** null: still so at `until`. */
  to: number | null;
};

export interface PodRecord {
  namespace: string;
  name: string;
  owner: { kind: WorkloadKind; name: string } | null;
  created: number;
  gone: number | null;
  /** Index of the pod this one replaces. */
  replaces: number | null;
}

export interface NodeChange {
  at: number;
  node: number;
  taints: Taint[];
  unschedulable: boolean;
  ready: boolean;
  exists: boolean;
}

export interface WhatIfSummary {
  evicted: number;
  replaced: number;
  rescheduled: number;
  /** Pods Pending at the end, with their last FailedScheduling message. */
  stillPending: { pod: number; message: string }[];
  capacity: {
    node: number;
    open: boolean;
    cpuMilliFree: number | null;
    memoryFree: number | null;
    podsFree: number | null;
  }[];
  drainsUnfinished: boolean;
}

export interface Timeline {
  until: number;
  nodes: string[];
  pods: PodRecord[];
  events: WhatIfEvent[];
  spans: PodSpan[];
  nodeChanges: NodeChange[];
  summary: WhatIfSummary;
}

/** The command line's `taintlab what-if -o json` document, with the notes. */
export interface WhatIfResult {
  apiVersion: "taintlab.dev/v1";
  kind: "WhatIfResult";
  kubernetesVersion: string;
  /** The actions in their line form (null for one that has none, such as a created pod). */
  actions: (string | null)[];
  /** What was assumed to build the starting cluster (a workload made up from its pods...). */
  notes: { message: string; pane?: "nodes" | "pods" | "text"; line?: number }[];
  timeline: Timeline;
}

export function whatIf(
  input: Text | { nodes?: NodesInput; pods?: PodsInput },
  actions: WhatIfActions,
  options?: WhatIfOptions,
): WhatIfResult;

export function info(): Info;
