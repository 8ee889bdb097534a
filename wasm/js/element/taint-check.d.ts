import type { Analysis } from "../web/taintlab.js";
import type { WhatIfResult } from "../web/taintlab_whatif.js";

/** Loads the engine once per page (every widget shares it). */
export declare function loadEngine(): Promise<unknown>;
/** Loads the what-if module once per page (only widgets in what-if mode call it). */
export declare function loadWhatIf(): Promise<unknown>;
export { fromFence, isFence, fenceWords, FENCE_OPTIONS, lostIndentation, whatIfLines } from "./fence.js";
export type { Fence } from "./fence.js";
/** The widget's languages (BCP 47 tags). */
export declare const LANGS: readonly ["en", "zh-CN", "pt-BR"];
/** The widget language for a BCP 47 tag (Chinese variants: zh-CN, Portuguese: pt-BR, else en). */
export declare function langFromTag(tag: string): "en" | "zh-CN" | "pt-BR";
/**
 * Page-wide settings. `playground`: the playground's base URL for every widget's "Open in
 * playground" link (without one, here, in `<meta name="taint-check:playground">` or in the
 * widget's `playground` attribute, the link is hidden).
 */
export declare function configure(options: { playground?: string | null }): void;
/** Removes the indentation HTML adds around embedded YAML. */
export declare function dedent(text: string): string;

/** Detail of the `taint-check-render` event, fired after every render. */
export interface TaintCheckRenderDetail {
  analysis: Analysis;
  /** In what-if mode, `whatIf`'s result (null while there are no actions). */
  whatIf: WhatIfResult | null;
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
 * `admission="off"`, `node-name`, `pod-name`, `heading`, `playground`, `loading="eager"`,
 * `lang`, `fence` (a code fence's info string, for a `<pre>` child), `what-if` (action
 * lines, one per line or per `;`: what-if mode, set before the element is connected) and
 * `until` (the last simulated second, default 1800).
 */
export declare class TaintCheck extends HTMLElement {
  static readonly observedAttributes: string[];
  /** Loads the engine and renders now (normally when the widget nears the viewport). */
  activate(): Promise<void>;
  /** Re-reads the host page's light or dark look. */
  updateScheme(): void;
  /** Re-reads the page's language and the playground URL, and renders again. */
  refresh(): void;
}

declare global {
  interface HTMLElementTagNameMap {
    "taint-check": TaintCheck;
  }
  interface HTMLElementEventMap {
    "taint-check-render": CustomEvent<TaintCheckRenderDetail>;
  }
}
