/** remark plugin: ```yaml taint-check fences become <taint-check> widgets. */
export default function remarkTaintCheck(): (tree: unknown, file?: { path?: string }) => void;
