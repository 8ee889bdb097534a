//! The kinds of object that carry a pod spec, and where it sits in each: the one table
//! of workload kinds that the input layer, the scenario, the policy and every edge read.
//!
//! Field paths are the API server's: a Deployment's tolerations are reported at
//! `spec.template.spec.tolerations`, a PodTemplate's at `template.spec.tolerations` (a
//! PodTemplate has no `spec` of its own), a CronJob's at
//! `spec.jobTemplate.spec.template.spec.tolerations`. Error messages name the kind
//! qualified by its API group (`Deployment.apps "web" is invalid: ...`), as
//! `apierrors.NewInvalid` does with the group kind.

/// A kind of object whose spec holds a pod spec (directly or as a template).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WorkloadKind {
    /// `v1` Pod.
    Pod,
    /// `v1` PodTemplate.
    PodTemplate,
    /// `apps/v1` Deployment.
    Deployment,
    /// `apps/v1` ReplicaSet.
    ReplicaSet,
    /// `apps/v1` StatefulSet.
    StatefulSet,
    /// `apps/v1` DaemonSet.
    DaemonSet,
    /// `batch/v1` Job.
    Job,
    /// `batch/v1` CronJob.
    CronJob,
    /// `v1` ReplicationController.
    ReplicationController,
}

impl WorkloadKind {
    /// Every workload kind, in documentation order.
    pub const ALL: [WorkloadKind; 9] = [
        WorkloadKind::Pod,
        WorkloadKind::PodTemplate,
        WorkloadKind::Deployment,
        WorkloadKind::ReplicaSet,
        WorkloadKind::StatefulSet,
        WorkloadKind::DaemonSet,
        WorkloadKind::Job,
        WorkloadKind::CronJob,
        WorkloadKind::ReplicationController,
    ];

    /// The kind by its name alone (`Deployment`), whatever its group.
    pub fn from_name(kind: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == kind)
    }

    /// The kind by API group and name; a kind of the same name in another group (a
    /// custom resource) is not a workload kind.
    pub fn from_group_kind(group: &str, kind: &str) -> Option<Self> {
        Self::from_name(kind).filter(|k| k.group() == group)
    }

    /// The kind of an object by its `apiVersion` (`apps/v1`, `v1`) and `kind`.
    pub fn from_api_version_kind(api_version: &str, kind: &str) -> Option<Self> {
        let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
        Self::from_group_kind(group, kind)
    }

    /// The kind's name (`Deployment`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Pod => "Pod",
            Self::PodTemplate => "PodTemplate",
            Self::Deployment => "Deployment",
            Self::ReplicaSet => "ReplicaSet",
            Self::StatefulSet => "StatefulSet",
            Self::DaemonSet => "DaemonSet",
            Self::Job => "Job",
            Self::CronJob => "CronJob",
            Self::ReplicationController => "ReplicationController",
        }
    }

    /// The API group (`""` for the core group).
    pub fn group(self) -> &'static str {
        match self {
            Self::Pod | Self::PodTemplate | Self::ReplicationController => "",
            Self::Deployment | Self::ReplicaSet | Self::StatefulSet | Self::DaemonSet => "apps",
            Self::Job | Self::CronJob => "batch",
        }
    }

    /// The `apiVersion` of the kind's served version (`apps/v1`).
    pub fn api_version(self) -> &'static str {
        match self.group() {
            "apps" => "apps/v1",
            "batch" => "batch/v1",
            _ => "v1",
        }
    }

    /// The resource (`deployments`), as in RBAC rules and admission requests.
    pub fn resource(self) -> &'static str {
        match self {
            Self::Pod => "pods",
            Self::PodTemplate => "podtemplates",
            Self::Deployment => "deployments",
            Self::ReplicaSet => "replicasets",
            Self::StatefulSet => "statefulsets",
            Self::DaemonSet => "daemonsets",
            Self::Job => "jobs",
            Self::CronJob => "cronjobs",
            Self::ReplicationController => "replicationcontrollers",
        }
    }

    /// The kind qualified by its group as the API server prints it in errors
    /// (`Deployment.apps`; core kinds stay bare).
    pub fn qualified_name(self) -> &'static str {
        match self {
            Self::Pod => "Pod",
            Self::PodTemplate => "PodTemplate",
            Self::Deployment => "Deployment.apps",
            Self::ReplicaSet => "ReplicaSet.apps",
            Self::StatefulSet => "StatefulSet.apps",
            Self::DaemonSet => "DaemonSet.apps",
            Self::Job => "Job.batch",
            Self::CronJob => "CronJob.batch",
            Self::ReplicationController => "ReplicationController",
        }
    }

    /// The field names from the object to its pod spec.
    pub fn pod_spec_fields(self) -> &'static [&'static str] {
        match self {
            Self::Pod => &["spec"],
            Self::PodTemplate => &["template", "spec"],
            Self::CronJob => &["spec", "jobTemplate", "spec", "template", "spec"],
            _ => &["spec", "template", "spec"],
        }
    }

    /// The pod template (`metadata` + `spec`) fields, for kinds that have one.
    pub fn pod_template_fields(self) -> Option<&'static [&'static str]> {
        let spec = self.pod_spec_fields();
        (self != Self::Pod).then(|| &spec[..spec.len() - 1])
    }

    /// The dotted field path of the pod spec (`spec.template.spec`), as in API errors.
    pub fn pod_spec_path(self) -> &'static str {
        match self {
            Self::Pod => "spec",
            Self::PodTemplate => "template.spec",
            Self::CronJob => "spec.jobTemplate.spec.template.spec",
            _ => "spec.template.spec",
        }
    }

    /// The JSON pointer of the pod spec (`/spec/template/spec`), as in JSON patches.
    pub fn pod_spec_pointer(self) -> &'static str {
        match self {
            Self::Pod => "/spec",
            Self::PodTemplate => "/template/spec",
            Self::CronJob => "/spec/jobTemplate/spec/template/spec",
            _ => "/spec/template/spec",
        }
    }

    /// The dotted field path of the tolerations (`spec.template.spec.tolerations`).
    pub fn tolerations_path(self) -> &'static str {
        match self {
            Self::Pod => "spec.tolerations",
            Self::PodTemplate => "template.spec.tolerations",
            Self::CronJob => "spec.jobTemplate.spec.template.spec.tolerations",
            _ => "spec.template.spec.tolerations",
        }
    }

    /// True for the kinds whose pods the DaemonSet controller creates.
    pub fn is_daemon_set(self) -> bool {
        self == Self::DaemonSet
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;

    #[test]
    fn paths_agree_with_the_field_list() {
        for k in WorkloadKind::ALL {
            let fields = k.pod_spec_fields();
            assert_eq!(k.pod_spec_path(), fields.join("."), "{k:?}");
            let pointer: String = fields.iter().map(|f| format!("/{f}")).collect();
            assert_eq!(k.pod_spec_pointer(), pointer, "{k:?}");
            assert_eq!(
                k.tolerations_path(),
                format!("{}.tolerations", k.pod_spec_path())
            );
            assert_eq!(WorkloadKind::from_name(k.name()), Some(k));
            assert_eq!(
                WorkloadKind::from_api_version_kind(k.api_version(), k.name()),
                Some(k)
            );
            let q = k.qualified_name();
            if k.group().is_empty() {
                assert_eq!(q, k.name());
            } else {
                assert_eq!(q, format!("{}.{}", k.name(), k.group()));
            }
        }
    }

    #[test]
    fn other_groups_are_not_workloads() {
        assert_eq!(
            WorkloadKind::from_api_version_kind("example.com/v1", "Deployment"),
            None
        );
        assert_eq!(
            WorkloadKind::from_api_version_kind("extensions/v1beta1", "Deployment"),
            None
        );
        assert_eq!(WorkloadKind::from_name("Node"), None);
        assert_eq!(
            WorkloadKind::PodTemplate.pod_template_fields(),
            Some(&["template"][..])
        );
        assert_eq!(WorkloadKind::Pod.pod_template_fields(), None);
    }
}
