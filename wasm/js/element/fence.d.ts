/** The word that marks a code fence as a `<taint-check>` widget. */
export declare const TAINT_CHECK_WORD: "taint-check";
/** A first line (`# taint-check: version=1.33`) that marks a plain YAML fence as a widget. */
export declare const DIRECTIVE: RegExp;
/** The options a fence may set, the element attribute each one becomes, and how it is checked. */
export declare const FENCE_OPTIONS: Record<string, { attribute: string; switch?: boolean; check?: RegExp; expect?: string; bare?: string }>;
/**
 * The action lines of a `what-if` attribute or fence option (one per line or per `;`),
 * joined with newlines as the playground's Actions box and share links hold them.
 */
export declare function whatIfLines(value: string | null | undefined): string;
/** Splits an info string into words (spaces, commas and braces separate; quotes keep them). */
export declare function fenceWords(info: string): string[];
/** Whether a fenced code block (info string, text) is a `<taint-check>` widget. */
export declare function isFence(info: string, text?: string): boolean;
/** What a fenced code block written for `<taint-check>` says. */
export interface Fence {
  /** Whether the fence is a widget at all. */
  widget: boolean;
  /** The example: the text without the directive line, `\n` line endings. */
  yaml: string;
  /** The element attributes its options set (`""` for a switch). */
  attributes: Record<string, string>;
  /** Options that are not understood; a widget shows them instead of a verdict. */
  errors: string[];
}
/** Reads a fenced code block: its text and its info string (`yaml taint-check version=1.33`). */
export declare function fromFence(text: string, info?: string): Fence;
/**
 * Whether YAML lost its indentation (every line of a document at column 0, a field with
 * an empty value followed by another field): where, or null.
 */
export declare function lostIndentation(text: string): { key: string; line: number; next: string; nextLine: number } | null;
