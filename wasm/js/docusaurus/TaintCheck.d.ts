import type { ReactElement } from "react";

/** Attributes of the <taint-check> element (see taintlab/element). */
export interface TaintCheckProps {
  /** Nodes and pods, any form Taintlab reads. */
  yaml?: string;
  children?: string;
  taints?: string;
  tolerations?: string;
  version?: string;
  "comparison-operators"?: boolean;
  /** A code fence's info string: the element reads its options. */
  fence?: string;
  admission?: "off" | "on";
  "node-name"?: string;
  "pod-name"?: string;
  heading?: string;
  playground?: string;
  loading?: "eager" | "lazy";
  /** Defaults to the page's locale. */
  lang?: string;
  id?: string;
  [attribute: string]: string | boolean | undefined;
}

/** Loads the element once per page (in the browser). */
export declare function loadElement(): Promise<unknown>;
/** A <taint-check> widget. */
export default function TaintCheck(props: TaintCheckProps): ReactElement;
