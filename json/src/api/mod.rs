//! The JavaScript API, as plain functions over JSON so that it can be tested natively.
//! Every function takes the JavaScript arguments as [`serde_json::Value`]s (`undefined`
//! arrives as `null`) and returns the JSON text of the result, or an
//! [`ApiError`](crate::error::ApiError) that becomes a thrown `TaintlabError`.

pub mod admission;
pub mod analyze;
pub mod eviction;
pub mod policy;
pub mod scheduling;
pub mod text;
pub mod validation;
pub mod whatif;

use taintlab_core::KubeVersion;

use crate::write::J;

pub use admission::{admit_node, admit_pod, daemon_set};
pub use analyze::analyze;
pub use eviction::{eviction_timeline, node_failure};
pub use policy::{policy_decision, validate_policy_settings};
pub use scheduling::{explain, schedule, tolerates};
pub use text::{describe, kubectl_taint, parse};
pub use validation::validate;
pub use whatif::what_if;

/// `info()`: the package version and the Kubernetes releases modelled.
pub fn info() -> String {
    let mut j = J::new();
    j.open()
        .s("version", env!("CARGO_PKG_VERSION"))
        .key("kubernetes")
        .open()
        .s("oldest", &KubeVersion::OLDEST.to_string())
        .s("newest", &KubeVersion::NEWEST.to_string())
        .close()
        .close();
    j.finish()
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::error::ApiResult;
    use crate::value::V;
    use serde_json::Value;

    /// A JSON value as the API receives it from JavaScript.
    pub fn val(v: Value) -> V {
        V::from(v)
    }

    /// The result of a call, parsed (panics with the error or the text).
    pub fn v(r: ApiResult) -> Value {
        let text = r.unwrap_or_else(|e| panic!("{e}"));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
    }

    #[test]
    fn info_names_the_releases() {
        let i = v(Ok(super::info()));
        assert_eq!(i["kubernetes"]["newest"], "1.37.0");
    }
}
