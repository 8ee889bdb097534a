//! # taintlab-policy
//!
//! The decision function behind the Taintlab Kubewarden policy (toleration governance),
//! kept free of waPC so that the policy glue, the test harness and the browser
//! playground all compute exactly the same answer.
//!
//! * [`Settings`]: the policy settings (camelCase JSON, unknown fields rejected) with
//!   [`Settings::validate`].
//! * [`evaluate`]: `(AdmissionRequest JSON, settings, optional node list) -> Decision`.
//! * [`node_list_request`]: whether a request needs the cluster's nodes, and the exact
//!   `list_resources_all` request (with field masks) to make; [`parse_node_list`] reads
//!   the host's answer.
//! * [`payload`]: the Kubewarden wire format (`ValidationRequest` in,
//!   `ValidationResponse` out) around the above.
//!
//! Matching, API validation, admission plugins and the scheduler message come from
//! `taintlab-core`; this crate only decides what to do with them.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cluster;
pub mod glob;
pub mod guard;
pub mod jsonread;
pub mod jsonscan;
pub mod jsonwrite;
pub mod mutate;
pub mod nodelist;
pub mod nodes;
pub mod payload;
pub mod placement;
pub mod pod;
pub mod request;
pub mod review;
pub mod settings;

use std::collections::BTreeMap;

use serde_json::Value;
use taintlab_core::labels::Selector;

pub use nodes::{NodeListRequest, node_list_request, node_list_request_raw, parse_node_list};
pub use request::{Kind, Malformed, Operation};
pub use settings::{Action, Settings};

/// HTTP status code for requests the policy cannot read.
pub const CODE_BAD_REQUEST: u16 = 400;
/// HTTP status code for governance rejections.
pub const CODE_FORBIDDEN: u16 = 403;
/// HTTP status code when only API validation failed (what the apiserver itself uses).
pub const CODE_INVALID: u16 = 422;
/// HTTP status code when the node list was required and could not be obtained.
pub const CODE_UNAVAILABLE: u16 = 500;

/// Maximum length of one warning. The AdmissionResponse API asks for at most 120
/// characters "if possible" and may truncate beyond 256; the policy keeps its own texts
/// short and cuts anything longer (a long scheduler message) at 256.
pub const WARNING_MAX_CHARS: usize = 256;

/// At most this many warnings are returned; the rest are counted in one last warning.
pub const MAX_WARNINGS: usize = 20;
/// At most this many violations are spelled out in the rejection message.
pub const MAX_LISTED_VIOLATIONS: usize = 20;

/// What kind of rule a violation broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ViolationKind {
    /// Upstream API validation (the apiserver would reject it too).
    Api,
    /// Wildcard toleration.
    Wildcard,
    /// Tolerates a protected taint (settings or node label selector).
    Protected,
    /// Not covered by the allow-list.
    NotAllowed,
    /// `tolerationSeconds` missing or above the maximum.
    Seconds,
    /// Node checks: no node accepts the pod, or a toleration matches no node taint.
    Nodes,
    /// Node guard: protected node taints changed by a subject that may not.
    NodeGuard,
}

impl ViolationKind {
    /// Every kind, in the order audit annotations list them.
    pub const ALL: [ViolationKind; 7] = [
        Self::Api,
        Self::Wildcard,
        Self::Protected,
        Self::NotAllowed,
        Self::Seconds,
        Self::Nodes,
        Self::NodeGuard,
    ];

    /// Short name for audit annotations.
    pub fn name(self) -> &'static str {
        match self {
            Self::Api => "api",
            Self::Wildcard => "wildcard",
            Self::Protected => "protected",
            Self::NotAllowed => "not-allowed",
            Self::Seconds => "seconds",
            Self::Nodes => "nodes",
            Self::NodeGuard => "node-guard",
        }
    }
}

/// One broken rule, with the field it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Which rule.
    pub kind: ViolationKind,
    /// The full text, starting with the field path.
    pub message: String,
}

/// The policy's answer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decision {
    /// Whether the request is admitted.
    pub accepted: bool,
    /// Rejection message: every violation, each starting with its field path, joined
    /// with `"; "`.
    pub message: Option<String>,
    /// HTTP status code of a rejection.
    pub code: Option<u16>,
    /// Warnings for the client (each at most [`WARNING_MAX_CHARS`] characters).
    pub warnings: Vec<String>,
    /// The whole object after mutation, when the policy changed it.
    pub mutated_object: Option<Value>,
    /// Compact summary for the audit log.
    pub audit_annotations: BTreeMap<String, String>,
    /// The violations behind a rejection, structured (for the playground).
    pub violations: Vec<Violation>,
    /// What the mutation did, one line per change (for the playground).
    pub mutations: Vec<String>,
    /// Warnings dropped beyond [`MAX_WARNINGS`] (reported as one summary warning).
    pub warnings_omitted: usize,
}

impl Decision {
    /// A plain acceptance.
    pub fn accept() -> Self {
        Self {
            accepted: true,
            ..Self::default()
        }
    }

    /// A rejection of a request the policy cannot read.
    pub fn malformed(m: Malformed) -> Self {
        Self {
            accepted: false,
            message: Some(m.0),
            code: Some(CODE_BAD_REQUEST),
            ..Self::default()
        }
    }

    /// Adds a warning, shortened to the apiserver's limit.
    pub fn warn(&mut self, text: String) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(truncate_warning(text));
        } else {
            self.warnings_omitted += 1;
        }
    }

    /// Turns the collected violations into the final answer: rejected when there is at
    /// least one (then no mutation is returned), accepted otherwise.
    pub fn finish(mut self) -> Self {
        if self.warnings_omitted > 0 {
            let n = self.warnings_omitted;
            self.warnings.push(format!("... and {n} more warnings"));
            self.warnings_omitted = 0;
        }
        if self.violations.is_empty() {
            self.accepted = true;
            if !self.mutations.is_empty() {
                self.audit_annotations
                    .insert(String::from("mutations"), self.mutations.len().to_string());
            }
            return self;
        }
        self.accepted = false;
        self.mutated_object = None;
        let only_api = self.violations.iter().all(|v| v.kind == ViolationKind::Api);
        self.code = Some(if only_api {
            CODE_INVALID
        } else {
            CODE_FORBIDDEN
        });
        let mut texts: Vec<&str> = self
            .violations
            .iter()
            .take(MAX_LISTED_VIOLATIONS)
            .map(|v| v.message.as_str())
            .collect();
        let more = self.violations.len().saturating_sub(MAX_LISTED_VIOLATIONS);
        let tail = format!("... and {more} more violations");
        if more > 0 {
            texts.push(&tail);
        }
        self.message = Some(texts.join("; "));
        let kinds: Vec<&str> = ViolationKind::ALL
            .iter()
            .filter(|k| self.violations.iter().any(|v| v.kind == **k))
            .map(|k| k.name())
            .collect();
        self.audit_annotations.insert(
            String::from("violations"),
            self.violations.len().to_string(),
        );
        self.audit_annotations
            .insert(String::from("rules"), kinds.join(","));
        self
    }
}

/// Shortens a warning to [`WARNING_MAX_CHARS`] characters, ending in `...` when cut.
pub fn truncate_warning(text: String) -> String {
    if text.chars().count() <= WARNING_MAX_CHARS {
        return text;
    }
    let mut out: String = text.chars().take(WARNING_MAX_CHARS - 3).collect();
    out.push_str("...");
    out
}

/// Evaluates one AdmissionRequest (the `request` object of a Kubewarden
/// `ValidationRequest`, or a whole AdmissionReview) against the settings.
///
/// `nodes` is the cluster's node list when the caller fetched it (see
/// [`node_list_request`]); `None` skips the node checks.
///
/// Never panics: unreadable requests are rejected with code 400 and a message naming the
/// offending field. DELETE, CONNECT, subresources and kinds the policy does not govern
/// are accepted unchanged.
pub fn evaluate(
    request: &Value,
    settings: &Settings,
    nodes: Option<&[taintlab_core::Node]>,
) -> Decision {
    let cluster = nodes.map(|n| {
        let protect = settings
            .node_checks
            .protect_taints_of_nodes
            .as_deref()
            .and_then(|s| Selector::parse(s).ok());
        cluster::Cluster::from_nodes(n, protect.as_ref())
    });
    match serde_json::to_vec(request) {
        Ok(raw) => evaluate_raw(&raw, settings, cluster.as_ref()),
        Err(e) => Decision::malformed(Malformed(e.to_string())),
    }
}

/// [`evaluate`] on the raw AdmissionRequest (or AdmissionReview) JSON, with the nodes
/// already grouped ([`cluster::Cluster`]), as the waPC glue calls it: the request is
/// scanned, not parsed, and only the parts a decision needs become `Value`s.
pub fn evaluate_raw(
    request: &[u8],
    settings: &Settings,
    cluster: Option<&cluster::Cluster>,
) -> Decision {
    match request::parse_raw(request) {
        Ok(req) => decide(&req, settings, cluster),
        Err(m) => Decision::malformed(m),
    }
}

/// The decision for an already read request.
pub fn decide(
    req: &request::Request<'_>,
    settings: &Settings,
    cluster: Option<&cluster::Cluster>,
) -> Decision {
    if !req.sub_resource.is_empty()
        || !matches!(req.operation, Operation::Create | Operation::Update)
    {
        return Decision::accept();
    }
    match req.kind {
        None => Decision::accept(),
        Some(Kind::Node) => guard::evaluate_node(req, settings),
        Some(kind) => pod::evaluate_pod(req, kind, settings, cluster),
    }
}

/// Why a subject is exempt (`user alice`, `group system:masters`, ...), if it is.
pub fn subject_exemption(
    user: &request::UserInfo,
    users: &[String],
    groups: &[String],
    service_accounts: &[String],
) -> Option<String> {
    if glob::any_matches(users, &user.username) {
        return Some(format!("user {}", user.username));
    }
    if let Some(g) = user.groups.iter().find(|g| glob::any_matches(groups, g)) {
        return Some(format!("group {g}"));
    }
    let (ns, name) = user
        .username
        .strip_prefix("system:serviceaccount:")?
        .split_once(':')?;
    service_accounts
        .iter()
        .any(|p| {
            p.split_once(':')
                .is_some_and(|(pn, pname)| glob::matches(pn, ns) && glob::matches(pname, name))
        })
        .then(|| format!("service account {ns}:{name}"))
}

/// Quotes a user-supplied string for messages, the way the apiserver does (Go `%q`),
/// with the Unicode tables of the newest modelled release's Go. Used where no release
/// is chosen yet (reading the request and the settings); see [`quote_for`].
pub fn quote(s: &str) -> String {
    taintlab_core::validation::go_quote(s)
}

/// [`quote`] as the Go release that built Kubernetes `version` prints it (core's
/// `GoUnicode::for_release`: which code points `%q` leaves as they are).
pub fn quote_for(s: &str, version: taintlab_core::KubeVersion) -> String {
    use taintlab_core::validation::{GoUnicode, go_quote_with};
    go_quote_with(s, GoUnicode::for_release(version))
}
