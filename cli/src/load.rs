//! From the command line's inputs and flags to the scenario, exactly as the npm
//! package's `analyze` builds it: one combined text (no `--nodes`) or the playground's
//! two panes (`--nodes` is the Nodes pane, `-f` the Pods pane).

use std::io::IsTerminal;

use serde_json::{Value, json};
use taintlab_core::{KubeVersion, Semantics};
use taintlab_input::{Code, Severity};
use taintlab_scenario::{
    AdmissionOptions, Finding, FindingKind, Options, PaneKind, ParsedPane, RestrictionOptions,
    Scenario, TolerationsInput,
};

use crate::input::{FileLocation, Joined, read_all};
use crate::out::{Style, print_error, print_finding};
use crate::{Common, DaemonSet, EXIT_INPUT};

/// What was read and how it is modelled.
pub struct Loaded {
    /// `-f`: the whole scenario, or the Pods pane with `--nodes`.
    pub main: Joined,
    /// `--nodes`: the Nodes pane.
    pub nodes: Option<Joined>,
    /// The panes as read.
    pub panes: Vec<ParsedPane>,
    /// The scenario's options.
    pub options: Options,
    /// The same options as npm `analyze` takes them.
    pub js_options: Value,
    /// Colour on stderr.
    pub err_style: Style,
}

/// The release and gate of the flags; an unknown release is an input error.
pub fn semantics(c: &Common) -> Result<Semantics, String> {
    let version = match &c.kubernetes_version {
        None => KubeVersion::NEWEST,
        Some(s) => KubeVersion::parse(s).ok_or_else(|| {
            format!(
                "--kubernetes-version: must be a Kubernetes release such as \"1.34\" or \"v1.34.3\", got {s:?}"
            )
        })?,
    };
    Ok(Semantics::at(version).with_comparison_operators(c.comparison_operators))
}

impl Loaded {
    /// Reads the inputs of `c` (files, or the cluster through kubectl; `target` is the
    /// pod `why` asks about); on failure the error is printed and the exit code returned.
    pub fn read_for(c: &Common, target: Option<&str>) -> Result<Self, u8> {
        let err_style = Style::stderr(c.color);
        let fail = |m: String| {
            print_error(&err_style, &m);
            EXIT_INPUT
        };
        let semantics = semantics(c).map_err(fail)?;
        let live = c.files.is_empty()
            && c.nodes.is_empty()
            && (c.cluster || crate::bin_name() == "kubectl taintlab");
        if live {
            let (nodes, pods) = crate::kube::fetch(c, target).map_err(fail)?;
            return Ok(Self::build(
                c,
                None,
                semantics,
                Joined::new(pods),
                Some(Joined::new(nodes)),
                true,
                err_style,
            ));
        }
        let dash = |v: &[std::path::PathBuf]| v.iter().any(|p| p.as_os_str() == "-");
        if dash(&c.files) && dash(&c.nodes) {
            return Err(fail(
                "standard input can be read once: give - to -f or to --nodes, not both".into(),
            ));
        }
        if c.cluster {
            return Err(fail(
                "--cluster reads the cluster instead of -f and --nodes: give one or the other"
                    .into(),
            ));
        }
        let mut files = c.files.clone();
        if files.is_empty() && c.nodes.is_empty() {
            if std::io::stdin().is_terminal() {
                return Err(fail(
                    "no input: give -f FILE (or a directory, or - for standard input) and --nodes FILE"
                        .into(),
                ));
            }
            files.push("-".into());
        }
        let main = Joined::new(read_all(&files).map_err(fail)?);
        let nodes = if c.nodes.is_empty() {
            None
        } else {
            Some(Joined::new(read_all(&c.nodes).map_err(fail)?))
        };
        let admission = match &c.admission {
            None => None,
            Some(p) => Some(admission_file(p, semantics).map_err(fail)?),
        };
        Ok(Self::build(
            c, admission, semantics, main, nodes, false, err_style,
        ))
    }

    #[allow(clippy::too_many_arguments)]
    fn build(
        c: &Common,
        admission: Option<(AdmissionOptions, Value)>,
        semantics: Semantics,
        main: Joined,
        nodes: Option<Joined>,
        from_cluster: bool,
        err_style: Style,
    ) -> Self {
        let v = semantics.version;
        let panes = match &nodes {
            None => vec![ParsedPane::parse(&main.text, PaneKind::Combined, v)],
            Some(n) => vec![
                ParsedPane::parse(&n.text, PaneKind::Nodes, v),
                if main.is_empty() {
                    ParsedPane::empty(PaneKind::Pods)
                } else {
                    ParsedPane::parse(&main.text, PaneKind::Pods, v)
                },
            ],
        };
        let daemon_set = match c.daemonset.unwrap_or(DaemonSet::Auto) {
            DaemonSet::Auto => None,
            DaemonSet::All => Some(true),
            DaemonSet::None => Some(false),
        };
        // Pods read from the cluster already went through admission.
        let on = !c.no_admission && !from_cluster;
        let (admission, js_admission) = match (&admission, on) {
            (Some(a), true) => (Some(a.0.clone()), a.1.clone()),
            (None, true) => (Some(AdmissionOptions::default()), json!(true)),
            (_, false) => (None, json!(false)),
        };
        let options = Options {
            semantics,
            admission,
            daemon_set,
        };
        let mut js_options = json!({
            "kubernetesVersion": v.to_string(),
            "comparisonOperators": c.comparison_operators,
            "admission": js_admission,
        });
        if let Some(d) = daemon_set {
            js_options["daemonSet"] = json!(d);
        }
        Self {
            main,
            nodes,
            panes,
            options,
            js_options,
            err_style,
        }
    }

    /// The scenario.
    pub fn scenario(&self) -> Scenario {
        let refs: Vec<&ParsedPane> = self.panes.iter().collect();
        Scenario::build(&refs, &self.options)
    }

    /// The scenario as a what-if run builds it, as the playground's worker and npm
    /// `whatIf` do ([`Scenario::build_for_what_if`]: no pod is scheduled up front).
    pub fn what_if_scenario(&self) -> Scenario {
        let refs: Vec<&ParsedPane> = self.panes.iter().collect();
        Scenario::build_for_what_if(&refs, &self.options)
    }

    /// What npm `analyze` returns for the same texts and options (compact JSON).
    pub fn analyze_json(&self) -> Result<String, String> {
        let input = match &self.nodes {
            None => json!(self.main.text),
            Some(n) if self.main.is_empty() => json!({"nodes": n.text}),
            Some(n) => json!({"nodes": n.text, "pods": self.main.text}),
        };
        taintlab_json::api::analyze(&input.into(), &self.js_options.clone().into())
            .map_err(|e| e.message.clone())
    }

    /// The file and line of a finding's location.
    pub fn locate(
        &self,
        pane: Option<PaneKind>,
        l: &taintlab_input::Location,
    ) -> Option<FileLocation<'_>> {
        match pane? {
            PaneKind::Nodes => self.nodes.as_ref()?.locate(l),
            PaneKind::Pods | PaneKind::Combined => self.main.locate(l),
        }
    }

    /// Prints the findings on stderr (warnings unless `quiet`); returns the exit code
    /// when the input could not be read (an error that lost what it was reading).
    pub fn report(&self, s: &Scenario, quiet: bool) -> Result<(), u8> {
        let fatal: Vec<&Finding> = s.findings.iter().filter(|f| is_fatal(f)).collect();
        if !fatal.is_empty() {
            for f in fatal {
                print_finding(self, f);
            }
            return Err(EXIT_INPUT);
        }
        for f in &s.findings {
            if !quiet || f.severity == Severity::Error {
                print_finding(self, f);
            }
        }
        Ok(())
    }
}

/// The admission options of a file in npm's `options.admission` shape, as the
/// scenario's options and as the JSON npm `analyze` takes.
fn admission_file(
    path: &std::path::Path,
    semantics: Semantics,
) -> Result<(AdmissionOptions, Value), String> {
    use taintlab_json::api::admission::{ADMISSION_OPTIONS, admission_config};
    use taintlab_json::read::Obj;
    use taintlab_json::value::V;
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let json = crate::input::read_document(&name, &text)?;
    let v = V::from(&json);
    let o = Obj::new(
        &v,
        "admission",
        "admission",
        "admission options",
        &ADMISSION_OPTIONS,
        &[],
        false,
    )
    .map_err(|e| format!("{name}: {}", e.message))?;
    let a =
        admission_config(&o, semantics.version).map_err(|e| format!("{name}: {}", e.message))?;
    // Field for field as npm `analyze` hands them to the scenario.
    let options = AdmissionOptions {
        operation: a.operation,
        default_toleration_seconds: a.plugins.default_toleration_seconds,
        pod_toleration_restriction: a.plugins.pod_toleration_restriction.map(|r| {
            RestrictionOptions {
                default: TolerationsInput::List(r.default),
                whitelist: TolerationsInput::List(r.whitelist),
            }
        }),
        extended_resource_toleration: a.plugins.extended_resource_toleration,
        namespace_default: a.namespace.default_tolerations,
        namespace_whitelist: a.namespace.tolerations_whitelist,
        qos_class: a.qos_class,
        requested_resources: a.requested_resources,
    };
    Ok((options, json))
}

/// Whether a finding means something could not be read at all (the npm package's rule:
/// an invalid value or missing field that keeps its object is for validation).
pub fn is_fatal(f: &Finding) -> bool {
    match f.kind {
        FindingKind::Input(code) => {
            let kept = matches!(code, Code::InvalidValue | Code::MissingField)
                && !f.location.path.is_empty();
            f.severity == Severity::Error && !kept
        }
        FindingKind::Configuration => true,
        // Kubectl, validation, admission and scheduling findings are answers.
        _ => false,
    }
}

/// Finds a pod by `NAME`, `NAMESPACE/NAME` or `KIND/NAME` (`pod/web`,
/// `deployment/web`), optionally in `namespace`.
pub fn find_pod(s: &Scenario, query: &str, namespace: Option<&str>) -> Result<usize, String> {
    let (prefix, name) = match query.split_once('/') {
        Some((a, b)) => (Some(a), b),
        None => (None, query),
    };
    let kind_matches = |kind: &str, p: &str| {
        let k = kind.to_ascii_lowercase();
        let p = p.to_ascii_lowercase();
        p == k || p == format!("{k}s") || (k == "pod" && p == "po")
    };
    let found: Vec<usize> = (0..s.pods.len())
        .filter(|&i| {
            let p = &s.pods[i];
            let ns_ok = namespace.is_none_or(|n| p.pod.namespace == n);
            let prefix_ok = prefix.is_none_or(|x| x == p.pod.namespace || kind_matches(&p.kind, x));
            p.pod.name == name && ns_ok && prefix_ok
        })
        .collect();
    match found.as_slice() {
        [one] => Ok(*one),
        [] => {
            let known: Vec<String> = s
                .pods
                .iter()
                .map(|p| format!("{}/{}", p.kind.to_ascii_lowercase(), p.label()))
                .collect();
            Err(if known.is_empty() {
                format!("no pod {query:?}: the input holds no pod or workload")
            } else {
                format!("no pod {query:?}; the pods are: {}", known.join(", "))
            })
        }
        many => Err(format!(
            "{query:?} names {} pods ({}); give NAMESPACE/NAME, KIND/NAME or -n",
            many.len(),
            many.iter()
                .map(|&i| format!(
                    "{}/{}",
                    s.pods[i].kind.to_ascii_lowercase(),
                    s.pods[i].label()
                ))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Finds a node by name.
pub fn find_node(s: &Scenario, name: &str) -> Result<usize, String> {
    s.nodes
        .iter()
        .position(|n| n.node.name == name)
        .ok_or_else(|| {
            let known: Vec<&str> = s.nodes.iter().map(|n| n.node.name.as_str()).collect();
            format!("no node {name:?}; the nodes are: {}", known.join(", "))
        })
}
