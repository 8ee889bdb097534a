// Starts the background worker's wasm module (Trunk builds taintlab-worker.js and
// taintlab-worker_bg.wasm without content hashes, so the names are fixed).
importScripts('./taintlab-worker.js');
wasm_bindgen({ module_or_path: './taintlab-worker_bg.wasm' });
