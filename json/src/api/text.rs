//! `parse` (every input form), `kubectlTaint` and `describe`.

use crate::value::V;
use taintlab_core::KubeVersion;
use taintlab_core::kubectl::{
    CommandError, DESCRIBE_NODE_VALUE_COLUMN, align_tabbed, describe_taints, describe_tolerations,
    run_kubectl_taint,
};
use taintlab_input::{
    ContainerResources, FitMessage, Limits, Options, Parsed, Prefer, ReasonKind, SchedulingEvent,
    Severity, Syntax, Workload,
};

use taintlab_scenario::{Block, form_label};

use crate::error::{ApiError, ApiResult};
use crate::read::{self, Obj};
use crate::write::{self, J};

fn form(f: taintlab_input::Form) -> String {
    write::kebab(&format!("{f:?}"))
}

fn containers(j: &mut J, key: &str, cs: &[ContainerResources]) {
    j.key(key).arr();
    for c in cs {
        j.open().s("name", &c.name).s("image", &c.image);
        for (k, map) in [("requests", &c.requests), ("limits", &c.limits)] {
            j.key(k).open();
            for (name, q) in map {
                j.key(name).str(q);
            }
            j.close();
        }
        j.close();
    }
    j.end();
}

fn workload(j: &mut J, w: &Workload) {
    let requested: Vec<String> = w.requested_resources().into_iter().collect();
    j.open()
        .s("name", &w.pod.name)
        .s("namespace", &w.pod.namespace)
        .s("nodeName", &w.pod.node_name)
        .key("tolerations");
    write::tolerations(j, &w.pod.tolerations);
    j.s("preemptionPolicy", w.pod.preemption_policy.as_str())
        .s("kind", &w.kind)
        .s("apiVersion", &w.api_version)
        .on("priority", w.priority.map(i64::from))
        .s("priorityClassName", &w.priority_class_name)
        .b("hostNetwork", w.host_network)
        .s("runtimeClassName", &w.runtime_class_name)
        .s("qosClass", w.qos_class().as_str())
        .os(
            "statedQosClass",
            w.stated_qos_class.as_ref().map(|q| q.as_str()),
        )
        .strs("requestedResources", &requested);
    containers(j, "containers", &w.containers);
    containers(j, "initContainers", &w.init_containers);
    j.key("location");
    write::location(j, &w.location);
    j.key("tolerationLocations");
    write::locations(j, &w.toleration_locations);
    j.s("form", &form(w.form)).close();
}

fn reason_kind(j: &mut J, k: &ReasonKind) {
    let (name, taint) = match k {
        ReasonKind::UntoleratedTaints => ("untoleratedTaints", None),
        ReasonKind::UntoleratedTaint { key, value } => ("untoleratedTaint", Some((key, value))),
        ReasonKind::LegacyTaint { key, value } => ("legacyTaint", Some((key, value))),
        ReasonKind::TaintsNotTolerated => ("taintsNotTolerated", None),
        ReasonKind::Unschedulable => ("unschedulable", None),
        ReasonKind::UnknownConditions => ("unknownConditions", None),
        ReasonKind::PreemptionNotHelpful => ("preemptionNotHelpful", None),
        ReasonKind::NoPreemptionVictims => ("noPreemptionVictims", None),
        ReasonKind::Other => ("other", None),
    };
    j.open().s("type", name);
    if let Some((key, value)) = taint {
        j.s("key", key).s("value", value);
    }
    j.close();
}

fn fit(j: &mut J, f: Option<&FitMessage>) {
    let Some(f) = f else {
        j.null();
        return;
    };
    j.open()
        .n("totalNodes", i64::from(f.total_nodes))
        .os("preFilter", f.pre_filter.as_deref())
        .key("reasons")
        .arr();
    for r in &f.reasons {
        j.open()
            .n("count", i64::from(r.count))
            .s("reason", &r.reason)
            .key("kind");
        reason_kind(j, &r.kind);
        j.close();
    }
    j.end().close();
}

/// A FailedScheduling event read from text.
pub fn event(j: &mut J, e: &SchedulingEvent) {
    j.open().s("message", &e.message).key("location");
    write::location(j, &e.location);
    j.b("noNodes", e.no_nodes).key("fit");
    fit(j, e.fit.as_ref());
    j.strs("postFilter", &e.post_filter).key("preemption");
    match &e.preemption {
        Some(p) => {
            j.open()
                .s("text", &p.text)
                .b("notEligible", p.not_eligible)
                .key("nodes");
            fit(j, p.nodes.as_ref());
            j.close();
        }
        None => {
            j.null();
        }
    }
    let min = e.versions.min.map(|v| v.to_string());
    let below = e.versions.below.map(|v| v.to_string());
    j.b("doublePeriod", e.double_period)
        .b("truncated", e.truncated)
        .key("versions")
        .open()
        .os("min", min.as_deref())
        .os("below", below.as_deref())
        .close()
        .key("namedTaints")
        .arr();
    for (k, v) in e.named_taints() {
        j.open().s("key", k).s("value", v).close();
    }
    j.end().close();
}

/// What each block of a text was read as and what was read from it (the scenario's
/// blocks view, rendered as the playground, `<taint-check>` and the CLI render it);
/// `pane` names the pane the text was pasted in, for `analyze`. Writes the items of an
/// array, so several panes' blocks can share one.
pub fn blocks(j: &mut J, blocks: &[Block], pane: Option<&str>) {
    for b in blocks {
        j.open()
            .c("document", b.document)
            .c("lastDocument", b.last_document)
            .s("form", &form(b.form))
            .s("formLabel", form_label(b.form))
            .c("line", b.line)
            .c("endLine", b.end_line)
            .key("read")
            .open();
        for (fact, n) in &b.facts {
            j.c(fact.id(), *n);
        }
        j.close()
            .s("summary", &b.summary())
            .c("errors", b.errors)
            .c("warnings", b.warnings);
        if let Some(pane) = pane {
            j.s("pane", pane);
        }
        j.close();
    }
}

/// Everything read from text.
pub fn parsed(j: &mut J, p: &Parsed) {
    j.open().key("documents").arr();
    for d in &p.documents {
        j.open()
            .c("index", d.index)
            .s("form", &form(d.form))
            .c("line", d.line)
            .c("endLine", d.end_line)
            .close();
    }
    j.end().key("blocks").arr();
    blocks(j, &taintlab_scenario::blocks(p), None);
    j.end().key("nodes").arr();
    for n in &p.nodes {
        j.open();
        write::node_fields(j, &n.node);
        j.key("location");
        write::location(j, &n.location);
        j.key("taintLocations");
        write::locations(j, &n.taint_locations);
        j.key("unschedulableLocation");
        write::opt_location(j, n.unschedulable_location.as_ref());
        j.os("kubeletVersion", n.kubelet_version.as_deref())
            .s("form", &form(n.form))
            .close();
    }
    j.end().key("pods").arr();
    for w in &p.workloads {
        workload(j, w);
    }
    j.end().key("taints").arr();
    for l in &p.taint_lists {
        j.open().key("taints");
        write::taints(j, &l.taints);
        j.key("locations");
        write::locations(j, &l.locations);
        j.key("location");
        write::location(j, &l.location);
        j.s("form", &form(l.form)).close();
    }
    j.end().key("tolerations").arr();
    for l in &p.toleration_lists {
        j.open().key("tolerations");
        write::tolerations(j, &l.tolerations);
        j.key("locations");
        write::locations(j, &l.locations);
        j.key("location");
        write::location(j, &l.location);
        j.s("form", &form(l.form)).close();
    }
    j.end().key("taintCommands").arr();
    for c in &p.taint_commands {
        j.open()
            .s("verb", c.verb.as_str())
            .s("text", &c.text)
            .strs("args", &c.args)
            .key("location");
        write::location(j, &c.location);
        j.key("argLocations");
        write::locations(j, &c.arg_locations);
        j.os("error", c.error.as_deref()).close();
    }
    j.end().key("events").arr();
    for e in &p.events {
        event(j, e);
    }
    j.end().key("diagnostics");
    write::diagnostics(j, &p.diagnostics);
    j.c("errors", p.errors().count())
        .c("warnings", p.warnings().count())
        .close();
}

/// `parse(text, options?)`.
pub fn parse(text: &V, options: &V) -> ApiResult {
    let o = Obj::options(
        options,
        &["kubernetesVersion", "prefer", "syntax", "strict", "limits"],
    )?;
    let V::Str(text) = text else {
        return Err(ApiError::value(
            "wrong-type",
            "text",
            "text",
            format!("must be a string, got {}", read::type_name(text)),
        ));
    };
    let mut opts = Options {
        kubectl_version: read::kube_version(&o)?,
        prefer: match o.choice("prefer", &["taints", "tolerations"])? {
            Some("tolerations") => Prefer::Tolerations,
            _ => Prefer::Taints,
        },
        ..Options::default()
    };
    opts.syntax = match o.choice("syntax", &["yaml", "json"])? {
        Some("yaml") => Some(Syntax::Yaml),
        Some(_) => Some(Syntax::Json),
        None => None,
    };
    if let Some(l) = o.get("limits") {
        let l = Obj::new(
            l,
            "options",
            &o.at("limits"),
            "an object of limits",
            &["maxInputBytes", "maxDepth", "maxAliasNodes", "maxDocuments"],
            &[],
            false,
        )?;
        let d = Limits::default();
        let size = |key: &str, def: usize| -> ApiResult<usize> {
            match l.int(key)? {
                None => Ok(def),
                Some(n) => usize::try_from(n)
                    .map_err(|_| l.error(key, "invalid-value", "must not be negative")),
            }
        };
        opts.limits = Limits {
            max_input_bytes: size("maxInputBytes", d.max_input_bytes)?,
            max_depth: size("maxDepth", d.max_depth)?,
            max_alias_nodes: size("maxAliasNodes", d.max_alias_nodes)?,
            max_documents: size("maxDocuments", d.max_documents)?,
        };
    }
    let p = match opts.syntax {
        Some(Syntax::Yaml) => taintlab_input::parse_yaml(text, &opts),
        Some(Syntax::Json) => taintlab_input::parse_json(text, &opts),
        None => taintlab_input::parse_with(text, &opts),
    };
    if o.bool("strict")?.unwrap_or(false)
        && let Some(d) = p.diagnostics.iter().find(|d| d.severity == Severity::Error)
    {
        return Err(ApiError::diagnostic("text", d, &p.diagnostics, true));
    }
    let mut j = J::new();
    parsed(&mut j, &p);
    Ok(j.finish())
}

/// The arguments after `kubectl taint`: an array of strings, or a command line (the
/// `kubectl taint` prefix is optional).
fn command_args(v: &V, version: KubeVersion) -> ApiResult<Vec<String>> {
    match v {
        V::Arr(items) => items
            .iter()
            .enumerate()
            .map(|(i, a)| match a {
                V::Str(s) => Ok(s.clone()),
                other => Err(ApiError::value(
                    "wrong-type",
                    "command",
                    &read::index("command", i),
                    format!("must be a string, got {}", read::type_name(other)),
                )),
            })
            .collect(),
        V::Str(s) => {
            let line = if s.trim_start().starts_with("kubectl") || s.trim_start().starts_with('$') {
                s.clone()
            } else {
                format!("kubectl taint {s}")
            };
            let opts = Options {
                kubectl_version: version,
                ..Options::default()
            };
            let p = taintlab_input::parse_with(&line, &opts);
            // `kubectl label` lines share the command list; they are not this function's.
            let taints: Vec<_> = p
                .taint_commands
                .into_iter()
                .filter(|c| c.verb.is_taint())
                .collect();
            let n = taints.len();
            let mut cmds = taints.into_iter();
            match (cmds.next(), n) {
                (Some(c), 1) => Ok(c.args),
                (_, 0) => Err(ApiError::text(
                    "not-found",
                    "command",
                    "no `kubectl taint` command found",
                    &p.diagnostics,
                )),
                _ => Err(ApiError::text(
                    "ambiguous",
                    "command",
                    format!("expected one `kubectl taint` command, found {n}"),
                    &p.diagnostics,
                )),
            }
        }
        other => Err(ApiError::value(
            "wrong-type",
            "command",
            "command",
            format!(
                "must be a command line or an array of arguments, got {}",
                read::type_name(other)
            ),
        )),
    }
}

/// `kubectlTaint(command, nodes, options?)`.
pub fn kubectl_taint(command: &V, nodes: &V, options: &V) -> ApiResult {
    let o = Obj::options(options, &["kubernetesVersion"])?;
    let version = read::kube_version(&o)?;
    let args = command_args(command, version)?;
    let nodes = read::core_nodes(&read::nodes(nodes, "nodes", version)?);
    let run = run_kubectl_taint(&args, &nodes, version);
    let mut j = J::new();
    j.open()
        .strs("args", &args)
        .s("stdout", &run.stdout)
        .s("stderr", &run.stderr)
        .n("exitCode", i64::from(run.exit_code))
        .strs("warnings", &run.warnings)
        .key("nodes")
        .arr();
    for n in &run.nodes {
        write::node(&mut j, n);
    }
    j.end().key("results").arr();
    for r in &run.results {
        j.open().s("node", &r.node);
        match &r.outcome {
            Ok(u) => {
                j.b("ok", true)
                    .s("operation", u.operation.as_str())
                    .key("taints");
                write::taints(&mut j, &u.taints);
                j.key("error").null();
            }
            Err(e) => {
                j.b("ok", false)
                    .key("operation")
                    .null()
                    .key("taints")
                    .null()
                    .s("error", &e.message(&r.node));
            }
        }
        j.close();
    }
    j.end().key("error");
    match &run.command_error {
        Some(e) => {
            let kind = match e {
                CommandError::Flag(_) => "flag",
                CommandError::Usage(_) => "usage",
                CommandError::Plain(_) => "plain",
                CommandError::Unsupported(_) => "unsupported",
            };
            j.open().s("kind", kind).s("message", e.message()).close();
        }
        None => {
            j.null();
        }
    }
    j.close();
    Ok(j.finish())
}

/// `describe(subject, options?)`: the `Taints:` and `Tolerations:` blocks of `kubectl
/// describe`.
pub fn describe(subject: &V, options: &V) -> ApiResult {
    let o = Obj::options(options, &["kubernetesVersion", "raw", "column"])?;
    let version = read::kube_version(&o)?;
    let s = Obj::new(
        subject,
        "subject",
        "subject",
        "{node}, {pod}, {taints} or {tolerations}",
        &["node", "pod", "taints", "tolerations"],
        &[],
        false,
    )?;
    let mut raw = String::new();
    let mut node_block = false;
    if let Some(n) = s.get("node") {
        raw.push_str(&describe_taints(
            &read::node(n, &s.at("node"), version)?.node.taints,
        ));
        node_block = true;
    }
    if let Some(t) = s.get("taints") {
        raw.push_str(&describe_taints(&read::taints(
            t,
            "subject",
            &s.at("taints"),
            version,
        )?));
        node_block = true;
    }
    if let Some(p) = s.get("pod") {
        raw.push_str(&describe_tolerations(
            &read::pod(p, &s.at("pod"), version)?.pod.tolerations,
        ));
    }
    if let Some(t) = s.get("tolerations") {
        raw.push_str(&describe_tolerations(&read::tolerations(
            t,
            "subject",
            &s.at("tolerations"),
            version,
        )?));
    }
    if raw.is_empty() {
        return Err(s.error(
            "node",
            "missing-field",
            "give node, pod, taints or tolerations",
        ));
    }
    if o.bool("raw")?.unwrap_or(false) {
        let mut j = J::new();
        j.str(&raw);
        return Ok(j.finish());
    }
    let default_column = if node_block {
        DESCRIBE_NODE_VALUE_COLUMN
    } else {
        0
    };
    let column = match o.int("column")? {
        None => default_column,
        Some(c) => usize::try_from(c)
            .map_err(|_| o.error("column", "invalid-value", "must not be negative"))?,
    };
    let mut j = J::new();
    j.str(&align_tabbed(&raw, column));
    Ok(j.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::tests::{v, val};
    use serde_json::json;

    #[test]
    fn parse_reads_every_form_with_locations() {
        let text = "kubectl taint nodes n1 dedicated=gpu:NoSchedule\n---\napiVersion: v1\nkind: Node\nmetadata: {name: gpu-1}\nspec:\n  taints:\n  - {key: nvidia.com/gpu, value: present, effect: NoSchedule}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  tolerations:\n  - {key: a, operator: Exists}\n";
        let p = v(parse(&val(json!(text)), &V::Null));
        assert_eq!(
            p["taintCommands"][0]["args"],
            json!(["nodes", "n1", "dedicated=gpu:NoSchedule"])
        );
        assert_eq!(p["nodes"][0]["name"], "gpu-1");
        assert_eq!(p["nodes"][0]["taintLocations"][0]["line"], 8);
        assert_eq!(p["pods"][0]["tolerationLocations"][0]["line"], 15);
        assert_eq!(p["documents"].as_array().unwrap().len(), 3);
        assert_eq!(p["errors"], 0);
        let ev = v(parse(
            &val(json!(
                "0/3 nodes are available: 3 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
            )),
            &V::Null,
        ));
        assert_eq!(ev["events"][0]["namedTaints"][0]["key"], "dedicated");
        assert_eq!(ev["events"][0]["versions"]["min"], "1.24.0");
        let bad = v(parse(
            &val(json!("spec:\n  tolerations:\n  - {key: a, value: on}\n")),
            &V::Null,
        ));
        assert_eq!(bad["errors"], 1);
        let e = parse(
            &val(json!("spec:\n  tolerations:\n  - {key: a, value: on}\n")),
            &val(json!({"strict": true})),
        )
        .unwrap_err();
        assert_eq!(e.location.line, 3);
    }

    #[test]
    fn kubectl_taint_reproduces_output() {
        let r = v(kubectl_taint(
            &val(json!("kubectl taint nodes n1 gpu=true:NoSchedule")),
            &val(json!([{"name": "n1"}])),
            &V::Null,
        ));
        assert_eq!(r["stdout"], "node/n1 tainted\n");
        assert_eq!(r["nodes"][0]["taints"][0]["key"], "gpu");
        let r = v(kubectl_taint(
            &val(json!(["nodes", "n1", "gpu=true:NoSchedule"])),
            &val(json!([{"name": "n1", "taints": "gpu=false:NoSchedule"}])),
            &V::Null,
        ));
        assert_eq!(r["exitCode"], 1);
        assert_eq!(r["results"][0]["ok"], false);
        let r = v(kubectl_taint(
            &val(json!("nodes n1 gpu=true:Bogus")),
            &val(json!([{"name": "n1"}])),
            &V::Null,
        ));
        assert_eq!(r["error"]["kind"], "usage");
        assert!(
            r["stderr"]
                .as_str()
                .unwrap()
                .contains("See 'kubectl taint -h'")
        );
    }

    #[test]
    fn describe_blocks() {
        let d = v(describe(
            &val(json!({"node": {"name": "n", "taints": "b=1:NoSchedule a:NoExecute"}})),
            &V::Null,
        ));
        assert_eq!(
            d,
            "Taints:             a:NoExecute\n                    b=1:NoSchedule\n"
        );
        let d = v(describe(
            &val(
                json!({"tolerations": [{"key": "k", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}]}),
            ),
            &V::Null,
        ));
        assert_eq!(d, "Tolerations:  k:NoExecute op=Exists for 300s\n");
        let raw = v(describe(
            &val(json!({"taints": []})),
            &val(json!({"raw": true})),
        ));
        assert_eq!(raw, "Taints:\t<none>\n");
    }

    #[test]
    fn commands_carry_their_verb_and_blocks_say_what_was_read() {
        let text = "kubectl taint nodes n1 a=b:NoSchedule\nkubectl label nodes n1 disk=ssd\n---\nNAME    READY   STATUS    RESTARTS   AGE   IP         NODE     NOMINATED NODE   READINESS GATES\nweb-1   1/1     Running   0          5m    10.0.0.4   n1       <none>           <none>\nweb-2   0/1     Pending   0          5m    <none>     <none>   <none>           <none>\n";
        let p = v(parse(&val(json!(text)), &V::Null));
        assert_eq!(p["taintCommands"][0]["verb"], "taint");
        assert_eq!(p["taintCommands"][1]["verb"], "label");
        assert_eq!(
            p["taintCommands"][1]["args"],
            json!(["nodes", "n1", "disk=ssd"])
        );
        let b = &p["blocks"];
        assert_eq!(b.as_array().unwrap().len(), 2, "{b}");
        assert_eq!(b[0]["form"], "kubectl-taint");
        assert_eq!(
            b[0]["read"],
            json!({"taintCommands": 1, "labelCommands": 1})
        );
        assert_eq!(b[1]["form"], "pod-table");
        assert_eq!(b[1]["read"], json!({"pods": 2, "bound": 1, "pending": 1}));
        assert_eq!(
            b[1]["summary"],
            "lines 4–6, kubectl get pods -o wide: 2 pods (1 bound, 1 pending)"
        );
        // kubectlTaint takes only a taint command.
        let e = kubectl_taint(
            &val(json!("kubectl label nodes n1 disk=ssd")),
            &val(json!([{"name": "n1"}])),
            &V::Null,
        )
        .unwrap_err();
        assert_eq!(e.code, "not-found");
    }

    /// The variant names of a Rust enum as serde's `rename_all = "kebab-case"` writes
    /// them, read from its source file.
    fn serialized_variants(source: &str, enum_name: &str) -> Vec<String> {
        let start = source
            .find(&format!("pub enum {enum_name} {{"))
            .unwrap_or_else(|| panic!("enum {enum_name} not found"));
        let body = &source[start..];
        let body = &body[body.find('{').unwrap() + 1..body.find("\n}").unwrap()];
        let variants: Vec<String> = body
            .lines()
            .map(str::trim)
            .filter(|l| !l.starts_with("//") && !l.starts_with('#') && !l.is_empty())
            .map(|l| {
                let name: String = l
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                write::kebab(&name)
            })
            .collect();
        assert!(variants.len() > 1, "{enum_name}: {variants:?}");
        variants
    }

    /// Every `Form` and diagnostic `Code` the input layer can write appears in the
    /// TypeScript types, so a new Rust variant cannot ship without its type.
    #[test]
    fn typescript_unions_name_every_rust_variant() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
        let read = |p: &str| {
            std::fs::read_to_string(format!("{root}/{p}")).unwrap_or_else(|e| panic!("{p}: {e}"))
        };
        let dts = read("wasm/js/types/taintlab.d.ts");
        let union = |name: &str| -> String {
            let at = dts
                .find(&format!("export type {name} ="))
                .unwrap_or_else(|| panic!("type {name} not in taintlab.d.ts"));
            let rest = &dts[at..];
            rest[..rest.find(';').unwrap()].to_string()
        };
        for (source, rust, ts) in [
            ("input/src/model.rs", "Form", "Form"),
            ("input/src/diag.rs", "Code", "DiagnosticCode"),
            ("input/src/kubectl.rs", "CommandVerb", "CommandVerb"),
        ] {
            let u = union(ts);
            for name in serialized_variants(&read(source), rust) {
                assert!(
                    u.contains(&format!("\"{name}\"")),
                    "{rust}::{name} is missing from the TypeScript type {ts}: {u}"
                );
            }
        }
        // The kebab names match serde's (spot check of a multi-word variant).
        assert_eq!(
            write::kebab(&format!("{:?}", taintlab_input::Form::PriorityClassTable)),
            "priority-class-table"
        );
    }
}
