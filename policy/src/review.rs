//! The pod spec under review ([`PodReview`]) and what the checks share about it: the
//! tolerations Kubernetes adds by itself, the tolerations the pod will carry at the
//! scheduler, and the compact form warnings print. The governance rules ([`crate::pod`]),
//! the mutation ([`crate::mutate`]) and the node checks ([`crate::nodes`]) all read it.

use serde_json::Value;
use taintlab_core::admission::default_toleration_seconds as dts;
use taintlab_core::model::keys;
use taintlab_core::{Operator, TaintEffect, Toleration, WorkloadKind};

use crate::request::{Kind, Request};
use crate::settings::{RuleView, Settings, SystemTolerations};

/// Everything known about the pod spec under review.
pub struct PodReview<'a> {
    /// The request.
    pub req: &'a Request<'a>,
    /// Its kind.
    pub kind: Kind,
    /// The settings.
    pub settings: &'a Settings,
    /// Top-level settings merged with the namespace rule.
    pub view: RuleView<'a>,
    /// Dotted path of the pod spec (`spec.template.spec`).
    pub spec_path: &'static str,
    /// Dotted path of the tolerations (`spec.template.spec.tolerations`).
    pub tolerations_path: String,
    /// Tolerations after the policy's own mutation (original entries first, in order).
    pub tolerations: Vec<Toleration>,
    /// Per entry of `tolerations`: judged by the governance rules (new on UPDATE, not
    /// added by the policy).
    pub judged: Vec<bool>,
    /// Per entry: one of the tolerations Kubernetes adds itself (auto-allowed unless
    /// `systemTolerations: validate`).
    pub system: Vec<bool>,
    /// The old object's tolerations (UPDATE).
    pub old_tolerations: Option<Vec<Toleration>>,
    /// Why the requesting subject is exempt from the governance rules, if it is.
    pub exemption: Option<String>,
    /// The pod spec as submitted (only the fields the policy reads).
    pub spec: Option<&'a Value>,
    /// Kind of the object's controller owner, if any.
    pub controller: Option<String>,
    /// `TaintTolerationComparisonOperators` in force.
    pub gate: bool,
}

impl PodReview<'_> {
    pub(crate) fn at(&self, i: usize) -> String {
        format!("{}[{i}]", self.tolerations_path)
    }

    /// Whether the pod is (or templates) a DaemonSet pod.
    pub fn is_daemon(&self) -> bool {
        self.kind == Kind::Workload(WorkloadKind::DaemonSet)
            || (self.kind == Kind::Workload(WorkloadKind::Pod)
                && self.controller.as_deref() == Some("DaemonSet"))
    }

    /// Indices of the tolerations the governance rules and warnings look at.
    pub(crate) fn judged_indices(&self) -> impl Iterator<Item = usize> + '_ {
        let auto = self.settings.system_tolerations == SystemTolerations::Allow;
        (0..self.tolerations.len()).filter(move |&i| {
            self.judged.get(i).copied().unwrap_or(false)
                && !(auto && self.system.get(i).copied().unwrap_or(false))
        })
    }
}

/// The tolerations Kubernetes adds by itself, in exactly the shape it adds them:
/// not-ready / unreachable NoExecute (DefaultTolerationSeconds, with seconds; the
/// DaemonSet controller's without), memory-pressure NoSchedule (PodTolerationRestriction
/// for non-BestEffort pods), and for DaemonSet pods the rest of the DaemonSet set.
pub fn is_system_toleration(t: &Toleration, daemon: bool) -> bool {
    if t.operator != Operator::Exists || !t.value.is_empty() {
        return false;
    }
    match (t.key.as_str(), &t.effect) {
        (keys::NOT_READY | keys::UNREACHABLE, TaintEffect::NoExecute) => {
            t.toleration_seconds.is_some() || daemon
        }
        (keys::MEMORY_PRESSURE, TaintEffect::NoSchedule) => t.toleration_seconds.is_none(),
        (
            keys::DISK_PRESSURE
            | keys::PID_PRESSURE
            | keys::UNSCHEDULABLE
            | keys::NETWORK_UNAVAILABLE,
            TaintEffect::NoSchedule,
        ) => daemon && t.toleration_seconds.is_none(),
        _ => false,
    }
}

/// Compact form for warnings: `key=value:Effect`, `key:Effect` (Exists), `*` for an
/// empty key or effect, `<`/`>` for `Lt`/`Gt`.
pub fn short(t: &Toleration) -> String {
    let mut s = if t.key.is_empty() {
        String::from("*")
    } else {
        t.key.clone()
    };
    match t.operator {
        Operator::Exists => {}
        Operator::Lt => {
            s.push('<');
            s.push_str(&t.value);
        }
        Operator::Gt => {
            s.push('>');
            s.push_str(&t.value);
        }
        _ => {
            s.push('=');
            s.push_str(&t.value);
        }
    }
    s.push(':');
    s.push_str(if t.effect.is_empty() {
        "*"
    } else {
        t.effect.as_str()
    });
    s
}

/// Tolerations the pod will actually carry when it reaches the scheduler: templates get
/// DefaultTolerationSeconds' defaults (Pods already went through it), daemon pods the
/// DaemonSet controller's set.
pub fn effective_tolerations(review: &PodReview<'_>) -> Vec<Toleration> {
    let mut out = review.tolerations.clone();
    if review.kind == Kind::Workload(WorkloadKind::DaemonSet) {
        let host_network = review
            .spec
            .and_then(|s| s.get("hostNetwork"))
            .and_then(Value::as_bool)
            .unwrap_or(false);
        taintlab_core::daemonset::add_or_update_daemon_pod_tolerations(&mut out, host_network);
    } else if review.kind != Kind::Workload(WorkloadKind::Pod) {
        let missing = dts::missing_defaults(&out);
        if missing.not_ready {
            out.push(dts::not_ready_toleration(dts::DEFAULT_TOLERATION_SECONDS));
        }
        if missing.unreachable {
            out.push(dts::unreachable_toleration(dts::DEFAULT_TOLERATION_SECONDS));
        }
    }
    out
}
