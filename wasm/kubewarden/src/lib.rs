//! Taintlab toleration governance as a Kubewarden policy: the waPC glue.
//!
//! All decisions are made by `taintlab_policy::payload` (shared with the test harness and
//! the playground). This crate registers the three waPC functions Kubewarden calls and
//! performs the one host call the policy needs: `kubewarden/kubernetes/list_resources_all`
//! for Nodes, with field masks, when node checks are enabled.
//!
//! Build: `cargo build -p taintlab-kubewarden --target wasm32-wasip1 --release`.

#![warn(missing_docs)]

use kubewarden_policy_sdk::protocol_version_guest;
use kubewarden_policy_sdk::wapc_guest::{self as guest, CallResult};
use taintlab_policy::nodes::NodeListRequest;
use taintlab_policy::payload;

/// waPC binding of Kubewarden host capabilities.
pub const HOST_BINDING: &str = "kubewarden";
/// Namespace of the Kubernetes capabilities.
pub const HOST_NAMESPACE: &str = "kubernetes";
/// Operation listing every object of a kind.
pub const HOST_LIST_ALL: &str = "list_resources_all";

/// Registers `validate`, `validate_settings` and `protocol_version` with the waPC host.
#[unsafe(no_mangle)]
pub extern "C" fn wapc_init() {
    guest::register_function("validate", validate);
    guest::register_function("validate_settings", validate_settings);
    guest::register_function("protocol_version", protocol_version_guest);
}

/// Lists Nodes through the host (the JSON request is what the SDK's
/// `ListAllResourcesRequest` serialises to).
fn list_nodes(request: &NodeListRequest) -> Result<Vec<u8>, String> {
    let msg = request.to_json();
    guest::host_call(HOST_BINDING, HOST_NAMESPACE, HOST_LIST_ALL, &msg).map_err(|e| {
        // wapc-guest prefixes the host's text with "Host error: ".
        let text = e.to_string();
        match text.strip_prefix("Host error: ") {
            Some(rest) => rest.to_string(),
            None => text,
        }
    })
}

/// `validate`: a `ValidationRequest` in, a `ValidationResponse` out. Never a guest
/// error: unreadable input is rejected with a message.
pub fn validate(payload: &[u8]) -> CallResult {
    Ok(payload::validate_bytes(payload, list_nodes))
}

/// `validate_settings`: `{"valid": bool, "message": ...}`, never a guest error.
pub fn validate_settings(payload: &[u8]) -> CallResult {
    Ok(payload::validate_settings_bytes(payload))
}
