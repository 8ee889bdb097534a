//! What shapes a scenario besides the pasted texts: the release and gate, the admission
//! plugins and their configuration, and the DaemonSet toggle.

use taintlab_core::admission::Operation;
use taintlab_core::admission::default_toleration_seconds::DefaultTolerationSecondsConfig;
use taintlab_core::admission::pod_toleration_restriction::NamespaceAnnotation;
use taintlab_core::{KubeVersion, QosClass, Semantics, Toleration};

use crate::pane::{PaneKind, ParsedPane};

/// Everything besides the texts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Kubernetes release and the `TaintTolerationComparisonOperators` gate.
    pub semantics: Semantics,
    /// The admission plugins run on every pod as on CREATE; `None` skips admission (pods
    /// from `kubectl get -o yaml` already went through it).
    pub admission: Option<AdmissionOptions>,
    /// Which pods get the DaemonSet controller's tolerations: `None` the DaemonSet
    /// workloads, `Some(true)` every pod, `Some(false)` none.
    pub daemon_set: Option<bool>,
}

/// Tolerations given in configuration: as text in any toleration form (read by the
/// input layer, with its limits), or already read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TolerationsInput {
    /// Text: a `tolerations:` list, YAML or JSON, describe output...
    Text(String),
    /// Tolerations.
    List(Vec<Toleration>),
    /// A text already read by [`read_tolerations`] elsewhere (the playground's worker,
    /// which links the input layer): its tolerations or its first error.
    Read(Result<Vec<Toleration>, String>),
}

impl Default for TolerationsInput {
    fn default() -> Self {
        Self::List(Vec::new())
    }
}

impl TolerationsInput {
    /// The tolerations, or the first error of the text (`line N: message`).
    pub fn read(&self) -> Result<Vec<Toleration>, String> {
        match self {
            Self::List(l) => Ok(l.clone()),
            Self::Read(r) => r.clone(),
            #[cfg(feature = "read-text")]
            Self::Text(t) => read_tolerations(t),
            #[cfg(not(feature = "read-text"))]
            Self::Text(_) => Err(
                "the text was not read (taintlab-scenario is built without `read-text`; read it with `read_tolerations` and pass `TolerationsInput::Read`)".into(),
            ),
        }
    }
}

/// Reads tolerations from text in any toleration form: every bare list and every pod's
/// tolerations, in order; an error stops with `line N: message`.
pub fn read_tolerations(text: &str) -> Result<Vec<Toleration>, String> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let p = ParsedPane::parse(text, PaneKind::Pods, KubeVersion::NEWEST);
    if let Some(e) = p.errors().next() {
        return Err(format!("line {}: {}", e.location.line, e.message));
    }
    let mut out = Vec::new();
    for l in &p.parsed.toleration_lists {
        out.extend(l.tolerations.iter().cloned());
    }
    for w in &p.parsed.workloads {
        out.extend(w.pod.tolerations.iter().cloned());
    }
    Ok(out)
}

/// A namespace annotation's value read as the API server reads it (a JSON list of
/// tolerations); `None` is an absent annotation. The JSON reader's message is kept for
/// the rejection the plugin gives when it reads an invalid value.
pub fn annotation_from_json(value: Option<&str>) -> NamespaceAnnotation {
    NamespaceAnnotation::from_annotation_value(value, |json| {
        serde_json::from_str::<Vec<Toleration>>(json).map_err(|e| e.to_string())
    })
}

/// PodTolerationRestriction's cluster configuration.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RestrictionOptions {
    /// `default`: merged into pods whose namespace has no default annotation.
    pub default: TolerationsInput,
    /// `whitelist`: checked when the namespace has no whitelist annotation.
    pub whitelist: TolerationsInput,
}

/// The admission plugins and their configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdmissionOptions {
    /// The request's operation (CREATE by default).
    pub operation: Operation,
    /// DefaultTolerationSeconds (on in every cluster), `None` when disabled.
    pub default_toleration_seconds: Option<DefaultTolerationSecondsConfig>,
    /// PodTolerationRestriction, `None` when disabled.
    pub pod_toleration_restriction: Option<RestrictionOptions>,
    /// ExtendedResourceToleration.
    pub extended_resource_toleration: bool,
    /// The namespace's `scheduler.alpha.kubernetes.io/defaultTolerations`.
    pub namespace_default: NamespaceAnnotation,
    /// The namespace's `scheduler.alpha.kubernetes.io/tolerationsWhitelist`.
    pub namespace_whitelist: NamespaceAnnotation,
    /// The QoS class of every pod, instead of each pod's own.
    pub qos_class: Option<QosClass>,
    /// The requested resource names of every pod, instead of each pod's own.
    pub requested_resources: Option<Vec<String>>,
}

impl Default for AdmissionOptions {
    /// The kube-apiserver defaults: DefaultTolerationSeconds with 300 s, on CREATE.
    fn default() -> Self {
        Self {
            operation: Operation::Create,
            default_toleration_seconds: Some(DefaultTolerationSecondsConfig::default()),
            pod_toleration_restriction: None,
            extended_resource_toleration: false,
            namespace_default: NamespaceAnnotation::Absent,
            namespace_whitelist: NamespaceAnnotation::Absent,
            qos_class: None,
            requested_resources: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerations_are_read_from_any_form() {
        let t = TolerationsInput::Text(
            "- {key: a, operator: Exists}\n- {key: b, operator: Exists}\n".into(),
        );
        assert_eq!(t.read().map(|l| l.len()), Ok(2));
        let bad = TolerationsInput::Text("tolerations:\n- key: a\n  effect: NoSchedul\n".into());
        let e = bad.read().expect_err("invalid effect");
        assert!(e.starts_with("line 3: "), "{e}");
        assert_eq!(read_tolerations("  \n"), Ok(Vec::new()));
        // A reading done elsewhere is taken as it is, error included.
        let read = TolerationsInput::Read(read_tolerations("- {key: a, operator: Exists}\n"));
        assert_eq!(read.read().map(|l| l[0].key.clone()), Ok("a".into()));
        assert_eq!(TolerationsInput::Read(Err(e.clone())).read(), Err(e));
    }

    #[test]
    fn annotations_are_json() {
        assert_eq!(annotation_from_json(None), NamespaceAnnotation::Absent);
        assert_eq!(
            annotation_from_json(Some("")),
            NamespaceAnnotation::Tolerations(Vec::new())
        );
        assert!(matches!(
            annotation_from_json(Some("[{\"key\": \"a\", \"operator\": \"Exists\"}]")),
            NamespaceAnnotation::Tolerations(l) if l.len() == 1
        ));
        assert!(matches!(
            annotation_from_json(Some("nope")),
            NamespaceAnnotation::Invalid(_)
        ));
    }
}
