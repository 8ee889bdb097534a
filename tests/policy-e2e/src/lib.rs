//! End-to-end harness for the Taintlab Kubewarden policy.
//!
//! Loads the built policy module (the annotated one `cargo xtask policy` writes) through the same waPC stack Kubewarden's evaluator uses
//! (`wapc` + `wasmtime-provider` with WASI preview 1), answers the policy's host calls
//! from kwctl replay sessions, and turns a `ValidationResponse` into the
//! `AdmissionResponse` policy-server would send (including the RFC 6902 JSON Patch
//! computed with `json_patch::diff`).
//!
//! Fixtures use kwctl's formats, so anyone with kwctl can replay them:
//! `kwctl run -r request.json --settings-path settings.json
//! [--allow-context-aware --replay-host-capabilities-interactions session.yml]
//! annotated-policy.wasm`.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde::Deserialize;
use serde_json::{Value, json};
use wapc::WapcHost;
use wasmtime_provider::WasmtimeEngineProviderBuilder;

/// Environment variable naming the policy module to test.
pub const WASM_ENV: &str = "TAINTLAB_POLICY_WASM";
/// File name cargo gives the policy module.
pub const WASM_FILE: &str = "taintlab_kubewarden.wasm";

/// The workspace root (two levels above this crate).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The cargo target directory: `CARGO_TARGET_DIR` at run time, then at build time, then
/// `<workspace>/target`.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .or_else(|| option_env!("CARGO_TARGET_DIR").map(PathBuf::from))
        .map(|p| {
            if p.is_relative() {
                workspace_root().join(p)
            } else {
                p
            }
        })
        .unwrap_or_else(|| workspace_root().join("target"))
}

/// Where the policy module is expected: `$TAINTLAB_POLICY_WASM`, else the most recently
/// written of `<target>/wasm32-wasip1/policy/annotated-policy.wasm` (the module to ship,
/// written last by `cargo xtask policy`), `.../policy/policy.wasm` (after `wasm-opt`),
/// `.../policy/taintlab_kubewarden.wasm` and
/// `<target>/wasm32-wasip1/release/taintlab_kubewarden.wasm`.
pub fn wasm_path() -> PathBuf {
    if let Some(p) = std::env::var_os(WASM_ENV) {
        return PathBuf::from(p);
    }
    let base = target_dir().join("wasm32-wasip1");
    let candidates = [
        base.join("policy").join("annotated-policy.wasm"),
        base.join("policy").join("policy.wasm"),
        base.join("policy").join(WASM_FILE),
        base.join("release").join(WASM_FILE),
    ];
    candidates
        .iter()
        .filter_map(|p| Some((std::fs::metadata(p).ok()?.modified().ok()?, p)))
        .max_by_key(|(t, _)| *t)
        .map(|(_, p)| p.clone())
        .unwrap_or_else(|| base.join("release").join(WASM_FILE))
}

/// Reads the policy module, or fails with instructions.
pub fn wasm_bytes() -> Vec<u8> {
    let path = wasm_path();
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read the policy module {} ({e}). Build it first with `cargo xtask policy` \
             (cargo build -p taintlab-kubewarden --target wasm32-wasip1 --profile policy, then wasm-opt -O4 \
             into target/wasm32-wasip1/policy/policy.wasm) or point {WASM_ENV} at a module.",
            path.display()
        )
    })
}

/// Name of the custom section Kubewarden's tools read a policy's metadata from
/// (policy-evaluator `constants::KUBEWARDEN_CUSTOM_SECTION_METADATA`).
pub const METADATA_SECTION: &str = "io.kubewarden.metadata";

/// Reads an unsigned LEB128 at `*at` (wasm's u32 encoding).
fn leb_u32(bytes: &[u8], at: &mut usize) -> Result<usize, String> {
    let mut n: u64 = 0;
    for shift in [0, 7, 14, 21, 28] {
        let b = *bytes.get(*at).ok_or("truncated LEB128")?;
        *at += 1;
        n |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return u32::try_from(n)
                .map(|v| v as usize)
                .map_err(|_| String::from("LEB128 over 32 bits"));
        }
    }
    Err(String::from("LEB128 longer than 5 bytes"))
}

/// The custom sections of a wasm module, `(name, data)` in order, read the way
/// policy-evaluator's `Metadata::from_contents` walks the module's sections.
pub fn custom_sections(module: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    if module.get(..8) != Some(b"\0asm\x01\0\0\0".as_slice()) {
        return Err(String::from("not a WebAssembly module"));
    }
    let mut at = 8;
    let mut out = Vec::new();
    while at < module.len() {
        let id = module[at];
        at += 1;
        let len = leb_u32(module, &mut at)?;
        let end = at
            .checked_add(len)
            .filter(|e| *e <= module.len())
            .ok_or("section runs past the end")?;
        if id == 0 {
            let body = &module[at..end];
            let mut p = 0;
            let name_len = leb_u32(body, &mut p)?;
            let name = body
                .get(p..p + name_len)
                .ok_or("custom section name runs past the section")?;
            let name = std::str::from_utf8(name).map_err(|e| e.to_string())?;
            out.push((name.to_string(), body[p + name_len..].to_vec()));
        }
        at = end;
    }
    Ok(out)
}

/// The JSON of the module's `io.kubewarden.metadata` section; an error when there is
/// none or more than one.
pub fn metadata_section(module: &[u8]) -> Result<Value, String> {
    let found: Vec<Vec<u8>> = custom_sections(module)?
        .into_iter()
        .filter(|(n, _)| n == METADATA_SECTION)
        .map(|(_, d)| d)
        .collect();
    match found.as_slice() {
        [data] => serde_json::from_slice(data).map_err(|e| format!("metadata is not JSON: {e}")),
        [] => Err(format!(
            "{} has no {METADATA_SECTION} section: test the annotated module \
             (`cargo xtask policy` writes target/wasm32-wasip1/policy/annotated-policy.wasm; \
             point {WASM_ENV} at it)",
            wasm_path().display()
        )),
        more => Err(format!("{} {METADATA_SECTION} sections", more.len())),
    }
}

/// One recorded host interaction (kwctl `--replay-host-capabilities-interactions`).
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type")]
pub enum Exchange {
    /// kwctl writes `type: Exchange`.
    Exchange {
        /// The request as YAML text, tagged with its kind (`!KubernetesListResourceAll`).
        request: String,
        /// What the host answered.
        response: ReplayResponse,
    },
}

/// The host's answer in a replay session.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type")]
pub enum ReplayResponse {
    /// The payload handed to the guest.
    Success {
        /// Raw payload (JSON text for Kubernetes capabilities).
        payload: String,
    },
    /// An error returned to the guest.
    Error {
        /// Error text.
        message: String,
    },
}

/// Parses a kwctl replay session file.
pub fn read_session(yaml: &str) -> Result<Vec<Exchange>, String> {
    serde_yaml::from_str(yaml).map_err(|e| format!("cannot read replay session: {e}"))
}

/// What the fake host does with host calls.
#[derive(Default)]
struct HostState {
    exchanges: VecDeque<Exchange>,
    /// Every call the guest made: (binding, namespace, operation, payload JSON).
    calls: Vec<(String, String, String, Value)>,
    /// Answer every `list_resources_all` with this payload (benchmarks), instead of
    /// popping the session.
    fixed: Option<Vec<u8>>,
}

/// The request a replay exchange expects, as JSON: the tag (`KubernetesListResourceAll`)
/// and the fields, with absent fields meaning `null` (as kwctl's typed comparison does).
fn expected_request(yaml: &str) -> Result<(String, Value), String> {
    let v: serde_yaml::Value =
        serde_yaml::from_str(yaml).map_err(|e| format!("bad recorded request: {e}"))?;
    match v {
        serde_yaml::Value::Tagged(t) => {
            let tag = t.tag.to_string().trim_start_matches('!').to_string();
            let body = serde_json::to_value(&t.value).map_err(|e| e.to_string())?;
            Ok((tag, body))
        }
        _ => Err(String::from("recorded request has no !Tag")),
    }
}

fn same_request(expected: &Value, actual: &Value) -> bool {
    let (Some(e), Some(a)) = (expected.as_object(), actual.as_object()) else {
        return expected == actual;
    };
    let keys: std::collections::BTreeSet<&String> = e.keys().chain(a.keys()).collect();
    keys.into_iter()
        .all(|k| e.get(k).unwrap_or(&Value::Null) == a.get(k).unwrap_or(&Value::Null))
}

/// How Kubewarden's evaluator hands a failed host call to the guest: policy-evaluator's
/// `runtimes::callback::send_request_and_wait_for_response` turns the callback
/// handler's error `e` into `format!("Callback evaluation failure: {e:?}")`, and for
/// the `anyhow!("{message}")` a kwctl replay session's `type: Error` response becomes
/// (kwctl `callback_handler/proxy.rs`) that is `Callback evaluation failure: <message>`.
/// The same holds for the handler's own errors (an exhausted session, an unexpected
/// request).
pub fn callback_failure(host_error: &str) -> String {
    format!("Callback evaluation failure: {host_error}")
}

/// What the callback handler answers, before the evaluator wraps an error.
fn answer(st: &mut HostState, request: &Value) -> Result<Vec<u8>, String> {
    if let Some(fixed) = &st.fixed {
        return Ok(fixed.clone());
    }
    let Some(Exchange::Exchange {
        request: recorded,
        response,
    }) = st.exchanges.pop_front()
    else {
        return Err(String::from("the list of recorded responses is empty"));
    };
    let (tag, expected) = expected_request(&recorded)?;
    if tag != "KubernetesListResourceAll" || !same_request(&expected, request) {
        return Err(format!(
            "Replay error: unexpected request. Was expecting !{tag} {expected}, got {request} instead"
        ));
    }
    match response {
        ReplayResponse::Success { payload } => Ok(payload.into_bytes()),
        ReplayResponse::Error { message } => Err(message),
    }
}

fn host_call(
    state: &Mutex<HostState>,
    binding: &str,
    ns: &str,
    op: &str,
    payload: &[u8],
) -> Result<Vec<u8>, String> {
    let mut st = state
        .lock()
        .map_err(|_| String::from("host state poisoned"))?;
    let request: Value = serde_json::from_slice(payload).unwrap_or(Value::Null);
    st.calls
        .push((binding.into(), ns.into(), op.into(), request.clone()));
    if (binding, ns, op) != ("kubewarden", "kubernetes", "list_resources_all") {
        return Err(format!("unsupported host call {binding}/{ns}/{op}"));
    }
    answer(&mut st, &request).map_err(|e| callback_failure(&e))
}

/// A loaded policy instance.
pub struct Policy {
    host: WapcHost,
    state: Arc<Mutex<HostState>>,
    /// Time to compile the module and instantiate it (Cranelift, no cache).
    pub load_time: Duration,
}

impl Policy {
    /// Compiles and instantiates the module.
    pub fn load(module: &[u8]) -> Result<Self, String> {
        let start = Instant::now();
        let state = Arc::new(Mutex::new(HostState::default()));
        let cb_state = Arc::clone(&state);
        let engine = WasmtimeEngineProviderBuilder::new()
            .module_bytes(module)
            .build()
            .map_err(|e| format!("cannot build the wasmtime engine: {e}"))?;
        let host = WapcHost::new(
            Box::new(engine),
            Some(Box::new(move |_id, binding, ns, op, payload| {
                host_call(&cb_state, binding, ns, op, payload).map_err(|e| e.into())
            })),
        )
        .map_err(|e| format!("cannot instantiate the policy: {e}"))?;
        Ok(Self {
            host,
            state,
            load_time: start.elapsed(),
        })
    }

    /// Loads the module found by [`wasm_path`].
    pub fn load_default() -> Self {
        let bytes = wasm_bytes();
        Self::load(&bytes).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Raw waPC call.
    pub fn call(&self, op: &str, payload: &[u8]) -> Result<Vec<u8>, String> {
        self.host.call(op, payload).map_err(|e| e.to_string())
    }

    /// `protocol_version` as the host sees it.
    pub fn protocol_version(&self) -> Result<Value, String> {
        let out = self.call("protocol_version", b"")?;
        serde_json::from_slice(&out).map_err(|e| e.to_string())
    }

    /// `validate_settings` on raw settings bytes.
    pub fn validate_settings_raw(&self, settings: &[u8]) -> Result<Value, String> {
        let out = self.call("validate_settings", settings)?;
        serde_json::from_slice(&out)
            .map_err(|e| format!("validate_settings returned non-JSON: {e}"))
    }

    /// `validate` on a raw `ValidationRequest` payload; returns the `ValidationResponse`.
    pub fn validate_raw(&self, payload: &[u8]) -> Result<Value, String> {
        let out = self.call("validate", payload)?;
        serde_json::from_slice(&out).map_err(|e| format!("validate returned non-JSON: {e}"))
    }

    /// `validate` for an AdmissionRequest (or AdmissionReview, unwrapped like kwctl) and
    /// settings; returns the `ValidationResponse`.
    pub fn validate(&self, request: &Value, settings: &Value) -> Result<Value, String> {
        let request = unwrap_review(request);
        let payload = json!({"request": request, "settings": settings});
        self.validate_raw(payload.to_string().as_bytes())
    }

    /// Queues replay exchanges for the next host calls.
    pub fn replay(&self, exchanges: Vec<Exchange>) {
        if let Ok(mut st) = self.state.lock() {
            st.exchanges = exchanges.into();
        }
    }

    /// Answers every node list call with this payload (for benchmarks).
    pub fn answer_node_lists_with(&self, payload: Option<Vec<u8>>) {
        if let Ok(mut st) = self.state.lock() {
            st.fixed = payload;
        }
    }

    /// Host calls made so far (and clears the log).
    pub fn take_calls(&self) -> Vec<(String, String, String, Value)> {
        self.state
            .lock()
            .map(|mut st| std::mem::take(&mut st.calls))
            .unwrap_or_default()
    }

    /// Exchanges not consumed yet.
    pub fn leftover_exchanges(&self) -> usize {
        self.state.lock().map(|st| st.exchanges.len()).unwrap_or(0)
    }
}

/// kwctl accepts an AdmissionReview and unwraps `.request`.
pub fn unwrap_review(v: &Value) -> &Value {
    if v.get("kind").and_then(Value::as_str) == Some("AdmissionReview") {
        v.get("request").unwrap_or(v)
    } else {
        v
    }
}

/// The AdmissionResponse policy-server builds from a `ValidationResponse`
/// (`AdmissionResponse::from_policy_validation_response`), plus the decoded patch for
/// assertions under the extra key `patchDecoded`.
pub fn admission_response(uid: &str, object: Option<&Value>, response: &Value) -> Value {
    let accepted = response
        .get("accepted")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let mutated = response.get("mutated_object").filter(|v| !v.is_null());
    let mut out = json!({"uid": uid, "allowed": accepted});
    let Some(map) = out.as_object_mut() else {
        return out;
    };
    if mutated.is_some() && object.is_none() {
        map.insert("allowed".into(), Value::Bool(false));
        map.insert(
            "status".into(),
            json!({"message": "Incoming object is null, which happens only with DELETE operations, but the policy is attempting a mutation. This is not allowed"}),
        );
        return out;
    }
    if let (Some(m), Some(o)) = (mutated, object) {
        let patch = json_patch::diff(o, m);
        if !patch.0.is_empty() {
            let text = serde_json::to_string(&patch).unwrap_or_default();
            map.insert("patchType".into(), Value::String("JSONPatch".into()));
            map.insert(
                "patch".into(),
                Value::String(base64::engine::general_purpose::STANDARD.encode(&text)),
            );
            map.insert(
                "patchDecoded".into(),
                serde_json::to_value(&patch).unwrap_or(Value::Null),
            );
        }
    }
    let message = response.get("message").filter(|v| !v.is_null());
    let code = response.get("code").filter(|v| !v.is_null());
    if message.is_some() || code.is_some() {
        let mut status = serde_json::Map::new();
        if let Some(m) = message {
            status.insert("message".into(), m.clone());
        }
        if let Some(c) = code {
            status.insert("code".into(), c.clone());
        }
        map.insert("status".into(), Value::Object(status));
    }
    map.insert(
        "auditAnnotations".into(),
        response
            .get("audit_annotations")
            .cloned()
            .unwrap_or(Value::Null),
    );
    map.insert(
        "warnings".into(),
        response.get("warnings").cloned().unwrap_or(Value::Null),
    );
    out
}

/// Applies an RFC 6902 patch to a copy of `object` (to prove the patch reproduces the
/// mutated object).
pub fn apply_patch(object: &Value, patch: &Value) -> Result<Value, String> {
    let patch: json_patch::Patch =
        serde_json::from_value(patch.clone()).map_err(|e| e.to_string())?;
    let mut doc = object.clone();
    json_patch::patch(&mut doc, &patch).map_err(|e| e.to_string())?;
    Ok(doc)
}
