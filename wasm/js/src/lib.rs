//! # taintlab-js
//!
//! The Taintlab engine for JavaScript (npm package `taintlab`): a wasm-bindgen API over
//! `taintlab-core` (the semantics), `taintlab-input` (reading what people paste) and
//! `taintlab-policy` (the Kubewarden policy's decision), shaped for JavaScript: camelCase
//! names, plain objects in and out, numbers (never BigInt) for seconds, and errors thrown
//! as `Error` objects named `TaintlabError` that carry the location of the problem.
//!
//! The functions themselves live in the `taintlab-json` crate ([`api`]) and work on JSON
//! values, so they are tested natively and the command-line tool prints the same JSON;
//! this file only converts values at the boundary. The TypeScript declarations
//! are hand-written in `types/taintlab.d.ts` and emitted into every build.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use taintlab_json::{api, error, value};

use wasm_bindgen::prelude::*;

use crate::error::{ApiError, ApiResult};

/// The allocator of the wasm modules: Talc, which grows wasm memory as needed, in place of
/// the standard library's dlmalloc (smaller code in every module).
#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[cfg(feature = "engine")]
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = include_str!("../types/taintlab.d.ts");

#[cfg(feature = "tools")]
#[wasm_bindgen(typescript_custom_section)]
const TOOLS_TYPES: &'static str = include_str!("../types/tools.d.ts");

#[cfg(feature = "whatif")]
#[wasm_bindgen(typescript_custom_section)]
const WHATIF_TYPES: &'static str = include_str!("../types/whatif.d.ts");

#[cfg(feature = "policy")]
#[wasm_bindgen(typescript_custom_section)]
const POLICY_TYPES: &'static str = include_str!("../types/policy.d.ts");

/// A JavaScript argument as plain data (`undefined` is `null`; BigInts within 64 bits
/// are exact integers).
#[cfg(any(feature = "engine", feature = "tools", feature = "whatif"))]
fn arg(v: JsValue, name: &str) -> Result<value::V, JsValue> {
    value::from_js(&v).map_err(|e| {
        throw(ApiError::value(
            "wrong-type",
            name,
            name,
            format!("cannot be read as plain data: {e}"),
        ))
    })
}

/// A JavaScript argument as a `serde_json::Value`, through serde-wasm-bindgen (the
/// policy reads JSON).
#[cfg(feature = "policy")]
fn json_arg(v: JsValue, name: &str) -> Result<serde_json::Value, JsValue> {
    serde_wasm_bindgen::from_value(v).map_err(|e| {
        throw(ApiError::value(
            "wrong-type",
            name,
            name,
            format!("cannot be read as plain data: {e}"),
        ))
    })
}

/// The error as a JavaScript `Error` named `TaintlabError` with `code`, `argument`,
/// `location` and `diagnostics` properties.
fn throw(e: ApiError) -> JsValue {
    let err = js_sys::Error::new(&e.message);
    err.set_name("TaintlabError");
    if let Ok(props) = js_sys::JSON::parse(&e.props_json()) {
        let _ = js_sys::Object::assign(err.as_ref(), &props.into());
    }
    err.into()
}

/// The JSON text of a result as a plain JavaScript value.
fn ret(r: ApiResult) -> Result<JsValue, JsValue> {
    match r {
        Ok(json) => js_sys::JSON::parse(&json),
        Err(e) => Err(throw(e)),
    }
}

/// Reads the arguments and runs `f` on them. One copy per argument count serves every
/// export: the conversion written out in each of the engine's ten exports cost its
/// module 1,338 B gzipped.
#[cfg(any(feature = "engine", feature = "tools", feature = "whatif"))]
fn call<const N: usize>(
    args: [(JsValue, &str); N],
    f: fn(&[value::V; N]) -> ApiResult,
) -> Result<JsValue, JsValue> {
    let mut values: [value::V; N] = std::array::from_fn(|_| value::V::Null);
    for (slot, (v, name)) in values.iter_mut().zip(args) {
        *slot = arg(v, name)?;
    }
    ret(f(&values))
}

macro_rules! export {
    ($(#[$doc:meta])* $js:literal, $name:ident => $f:path, ($($a:ident),*)) => {
        $(#[$doc])*
        #[wasm_bindgen(js_name = $js, skip_typescript)]
        pub fn $name($($a: JsValue),*) -> Result<JsValue, JsValue> {
            call([$(($a, stringify!($a))),*], |[$($a),*]| $f($($a),*))
        }
    };
    ($(#[$doc:meta])* $js:literal, $name:ident => $f:path, ($($a:ident),*), $conv:ident) => {
        $(#[$doc])*
        #[wasm_bindgen(js_name = $js, skip_typescript)]
        pub fn $name($($a: JsValue),*) -> Result<JsValue, JsValue> {
            ret($f($(&$conv($a, stringify!($a))?),*))
        }
    };
}

#[cfg(feature = "engine")]
export!(
    /// Whether a toleration (or any of a list) tolerates a taint.
    "tolerates", tolerates => api::tolerates, (toleration, taint, options)
);
#[cfg(feature = "engine")]
export!(
    /// One pod on one node: which toleration covered which taint, what is left, the verdict.
    "explain", explain => api::explain, (pod, node, options)
);
#[cfg(feature = "engine")]
export!(
    /// Every pod on every node: verdicts, scores, FailedScheduling messages.
    "schedule", schedule => api::schedule, (pods, nodes, options)
);
#[cfg(feature = "tools")]
export!(
    /// The taint-eviction controller over a scenario.
    "evictionTimeline", eviction_timeline => api::eviction_timeline, (scenario, options)
);
#[cfg(feature = "tools")]
export!(
    /// A node whose kubelet stops reporting, and what becomes of its pods.
    "nodeFailure", node_failure => api::node_failure, (scenario, options)
);
#[cfg(feature = "tools")]
export!(
    /// The API server's validation of tolerations and taints.
    "validate", validate => api::validate, (subject, options)
);
#[cfg(feature = "tools")]
export!(
    /// The pod admission plugins that add or check tolerations.
    "admitPod", admit_pod => api::admit_pod, (pod, options)
);
#[cfg(feature = "tools")]
export!(
    /// TaintNodesByCondition on a node.
    "admitNode", admit_node => api::admit_node, (node, options)
);
#[cfg(feature = "tools")]
export!(
    /// The DaemonSet controller's tolerations and node checks.
    "daemonSet", daemon_set => api::daemon_set, (pod, nodes, options)
);
#[cfg(feature = "tools")]
export!(
    /// Reads text in every accepted form.
    "parse", parse => api::parse, (text, options)
);
#[cfg(feature = "tools")]
export!(
    /// Runs a `kubectl taint` command against nodes.
    "kubectlTaint", kubectl_taint => api::kubectl_taint, (command, nodes, options)
);
#[cfg(feature = "tools")]
export!(
    /// The `Taints:` / `Tolerations:` blocks of `kubectl describe`.
    "describe", describe => api::describe, (subject, options)
);
#[cfg(feature = "policy")]
export!(
    /// The Kubewarden policy's decision on an admission request.
    "policyDecision", policy_decision => api::policy_decision, (request, options), json_arg
);
#[cfg(feature = "policy")]
export!(
    /// Checks Kubewarden policy settings.
    "validatePolicySettings", validate_policy_settings => api::validate_policy_settings, (settings), json_arg
);
#[cfg(feature = "engine")]
export!(
    /// Everything a documentation example shows, in one call.
    "analyze", analyze => api::analyze, (input, options)
);

#[cfg(feature = "whatif")]
export!(
    /// The cluster-wide what-if simulation: actions on the pasted cluster, second by second.
    "whatIf", what_if => api::what_if, (input, actions, options)
);

/// The package version and the Kubernetes releases modelled.
#[wasm_bindgen(js_name = "info", skip_typescript)]
pub fn info() -> Result<JsValue, JsValue> {
    ret(Ok(api::info()))
}
