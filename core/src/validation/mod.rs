//! API validation of tolerations (pods) and taints (nodes) with the apiserver's exact
//! messages (`pkg/apis/core/validation/validation.go` and the apimachinery message
//! helpers).
//!
//! * [`FieldError`] mirrors apimachinery's `field.Error`; [`FieldError::message`] is Go's
//!   `Error()` and [`api_status_message`] the `<Kind> "<name>" is invalid: ...` text.
//! * The label checks ([`qualified_name_errors`], [`label_value_errors`]) are public so
//!   `kubectl taint` and other front ends reuse the same messages.
//! * Messages changed between releases (`bytes` versus `characters`, the Duplicate
//!   rendering), so every function takes a [`KubeVersion`](crate::KubeVersion).
//!
//! The submodules follow the seams of upstream: `field` (apimachinery's `field.Error`),
//! `quote` (Go's `%q` and JSON string encoding), `go_value` (Go renderings of structs),
//! `names` (label and qualified-name checks), `parse_int` (`strconv.ParseInt`),
//! `tolerations` and `taints` (`ValidateTolerations`, `validateNodeTaints`).

mod field;
mod go_value;
mod names;
mod parse_int;
mod quote;
mod taints;
mod tolerations;

pub use field::{
    BadValue, FieldError, FieldErrorType, TaintRendering, aggregate_message, api_status_message,
};
pub use names::{
    EMPTY_ERROR, dns1123_subdomain_errors, is_label_value, is_qualified_name, label_value_errors,
    max_len_error, qualified_name_errors,
};
pub use parse_int::go_parse_int64;
pub use quote::{go_quote, json_quote};
pub use taints::validate_node_taints;
pub use tolerations::{
    allow_comparison_operators, comparison_operators_in_use, validate_pod_tolerations_update,
    validate_tolerations,
};

/// Default path of pod tolerations (`spec.template.spec.tolerations` in workloads).
pub const POD_TOLERATIONS_PATH: &str = "spec.tolerations";
/// Path upstream reports node taint errors under. Upstream quirk: it is
/// `metadata.taints`, not `spec.taints`.
pub const NODE_TAINTS_PATH: &str = "metadata.taints";
/// Maximum length of a label value and of the name part of a label key.
pub const LABEL_MAX_LENGTH: usize = 63;
/// Maximum length of a DNS-1123 subdomain (the prefix of a label key).
pub const DNS1123_SUBDOMAIN_MAX_LENGTH: usize = 253;
