import type { Analysis } from "../web/taintlab.js";

/** Loads the engine once per page (every widget shares it). */
export declare function loadEngine(): Promise<unknown>;
export { fromFence, isFence, fenceWords, FENCE_OPTIONS } from "./fence.js";
export type { Fence } from "./fence.js";
/** Removes the indentation HTML adds around embedded YAML. */
export declare function dedent(text: string): string;

/** Detail of the `taint-check-render` event, fired after every render. */
export interface TaintCheckRenderDetail {
  analysis: Analysis;
  /** The widget's first live render. */
  first: boolean;
  /** `performance.now()` at the render. */
  at: number;
}

/**
 * `<taint-check>`: a live taint/toleration example.
 *
 * Content: a child `<script type="application/yaml">` (or `<pre>`), or the `taints` and
 * `tolerations` attributes. Other attributes: `version`, `comparison-operators`,
 * `admission="off"`, `node-name`, `pod-name`, `heading`, `playground`, `loading="eager"`.
 */
export declare class TaintCheck extends HTMLElement {
  static readonly observedAttributes: string[];
  /** Loads the engine and renders now (normally when the widget nears the viewport). */
  activate(): Promise<void>;
  /** Re-reads the host page's light or dark look. */
  updateScheme(): void;
}

declare global {
  interface HTMLElementTagNameMap {
    "taint-check": TaintCheck;
  }
  interface HTMLElementEventMap {
    "taint-check-render": CustomEvent<TaintCheckRenderDetail>;
  }
}
