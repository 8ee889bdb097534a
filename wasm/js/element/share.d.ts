/** Share-link format version of the playground. */
export declare const SHARE_VERSION: "1";
/** The playground opened when no URL is configured. */
export declare const DEFAULT_PLAYGROUND: string;
/** The playground state a widget sends (fields left out take the playground's defaults). */
export interface PlaygroundState {
  nodes: string;
  pods: string;
  version?: string;
  comparisonOperators: boolean;
  admission: { enabled: boolean };
  /** What-if examples: the action lines and the last second (0: the playground picks). */
  scenario?: { actions: string; until: number };
  /** `"timeline"`: open on the What-if tab. */
  tab?: "timeline";
}
export declare function base64url(bytes: Uint8Array): string;
export declare function deflateRawStored(bytes: Uint8Array): Uint8Array;
export declare function deflateRaw(bytes: Uint8Array): Promise<Uint8Array>;
/** base64url (or standard base64, padding optional) to bytes; null when it is not base64. */
export declare function fromBase64url(text: string): Uint8Array | null;
/** Largest state a link may inflate to (8 MiB, the playground's limit). */
export declare const MAX_STATE_BYTES: number;
/** Raw inflate (DecompressionStream); rejects beyond MAX_STATE_BYTES. */
export declare function inflateRaw(bytes: Uint8Array): Promise<Uint8Array>;
/** The state a playground fragment carries (null when none); rejects another version or a damaged payload. */
export declare function stateFromFragment(fragment: string): Promise<Record<string, unknown> | null>;
/** The fragment (without `#`): `v=1&s=<base64url(deflate-raw(JSON))>`. */
export declare function shareFragment(state: object): Promise<string>;
export declare function playgroundState(input: {
  nodes: string;
  pods: string;
  version?: string;
  comparisonOperators?: boolean;
  admission?: boolean;
  /** Action lines of a what-if example (one per line); given, even empty, the state opens the What-if tab. */
  actions?: string | null;
  /** The last simulated second (0 or missing: the playground picks). */
  until?: number;
}): PlaygroundState;
/**
 * The action lines and last second a link's state carries, as the playground's decoder
 * reads them ("" and 0 when missing); throws where the decoder refuses the link.
 */
export declare function whatIfFromState(state: object | null): { actions: string; until: number };
export declare function playgroundUrl(base: string | undefined, state: object): Promise<string>;
