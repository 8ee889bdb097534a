//! `taintlab what-if`: the cluster second by second after timed actions (taints, cordon,
//! drain, a node that stops reporting, returns or is deleted, a workload scaled), from
//! the core's simulation (`taintlab_core::simulation::simulate`).
//!
//! The starting cluster is the scenario's ([`Scenario::what_if_cluster`]): nodes after
//! the pasted `kubectl taint`/`label` lines, pods as the scheduler sees them with their
//! owners, labels and grace periods, workloads with their replicas, and
//! PodDisruptionBudgets; what it had to assume is printed as warnings. Every answer is
//! the simulation's.

use clap::ArgMatches;
use taintlab_core::KubeVersion;
use taintlab_core::kubectl::taint::parse_taint;
use taintlab_core::simulation::{
    self, Action, ActionKind, ControllerKind, DrainOptions, Event, PodState, Source, Timeline,
    WhatIf,
};

use super::load_for_what_if;
use crate::load::find_node;
use crate::out::{Style, print_error};
use crate::{EXIT_INPUT, EXIT_NO, Format, WhatIfArgs};

/// The clap ids of the action flags.
const ACTION_FLAGS: &[&str] = &[
    "taint",
    "untaint",
    "cordon",
    "uncordon",
    "drain",
    "fail",
    "recover",
    "delete_node",
    "scale",
];

/// One action flag as given: its flag, value and position on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Given {
    /// The clap id (`taint`, `drain`, ... or `at`).
    pub id: String,
    /// The value.
    pub value: String,
    /// Its index among the command line's arguments.
    pub index: usize,
}

/// The action flags and `--at` values of a `what-if` command line, in command-line order.
pub fn given(m: &ArgMatches) -> Vec<Given> {
    let mut out = Vec::new();
    for id in ACTION_FLAGS.iter().chain(&["at"]) {
        let (Some(values), Some(indices)) = (m.get_raw(id), m.indices_of(id)) else {
            continue;
        };
        for (v, i) in values.zip(indices) {
            out.push(Given {
                id: (*id).to_string(),
                value: v.to_string_lossy().into_owned(),
                index: i,
            });
        }
    }
    out.sort_by_key(|g| g.index);
    out
}

fn flag(id: &str) -> String {
    format!("--{}", id.replace('_', "-"))
}

/// A non-negative number of seconds.
fn seconds(what: &str, s: &str) -> Result<i64, String> {
    s.trim_end_matches('s')
        .parse::<i64>()
        .ok()
        .filter(|n| *n >= 0)
        .ok_or_else(|| format!("{what}: {s:?} is not a number of seconds (0 or more)"))
}

/// The actions of the flags: each at its own `@SECONDS`, else at the last `--at` before
/// it (0 before any). The second element names each action's flag for messages.
pub fn actions(
    given: &[Given],
    drain: &DrainOptions,
    namespace: Option<&str>,
    version: KubeVersion,
) -> Result<Vec<(Action, String)>, String> {
    let mut at = 0;
    let mut out = Vec::new();
    for g in given {
        let f = flag(&g.id);
        if g.id == "at" {
            at = seconds("--at", &g.value)?;
            continue;
        }
        let (value, when) = match g.value.rsplit_once('@') {
            Some((v, t)) => (v, seconds(&format!("{f} {}", g.value), t)?),
            None => (g.value.as_str(), at),
        };
        let named = format!("{f} {}", g.value);
        let node = || -> Result<String, String> {
            if value.is_empty() {
                Err(format!("{named}: a node name is needed"))
            } else {
                Ok(value.to_string())
            }
        };
        let kind = match g.id.as_str() {
            "taint" => {
                let (node, spec) = value
                    .split_once('=')
                    .ok_or_else(|| format!("{named}: expected NODE=KEY[=VALUE]:EFFECT"))?;
                let taint = parse_taint(spec, version).map_err(|e| format!("{named}: {e}"))?;
                if taint.effect.is_empty() {
                    return Err(format!("{named}: invalid taint spec: {spec}"));
                }
                ActionKind::AddTaint {
                    node: node.to_string(),
                    taint,
                }
            }
            "untaint" => {
                let (node, spec) = value
                    .split_once('=')
                    .ok_or_else(|| format!("{named}: expected NODE=KEY[:EFFECT]"))?;
                let spec = spec.strip_suffix('-').unwrap_or(spec);
                let taint = parse_taint(spec, version).map_err(|e| format!("{named}: {e}"))?;
                ActionKind::RemoveTaint {
                    node: node.to_string(),
                    key: taint.key,
                    effect: taint.effect,
                }
            }
            "cordon" => ActionKind::Cordon { node: node()? },
            "uncordon" => ActionKind::Uncordon { node: node()? },
            "drain" => ActionKind::Drain {
                node: node()?,
                options: drain.clone(),
            },
            "fail" => ActionKind::NodeStopsReporting { node: node()? },
            "recover" => ActionKind::NodeReturns { node: node()? },
            "delete_node" => ActionKind::DeleteNode { node: node()? },
            "scale" => {
                let (target, n) = value
                    .rsplit_once('=')
                    .ok_or_else(|| format!("{named}: expected KIND/NAME=REPLICAS"))?;
                let (kind, name) = target
                    .split_once('/')
                    .ok_or_else(|| format!("{named}: expected KIND/NAME=REPLICAS"))?;
                let kind = ControllerKind::scale_target(kind).ok_or_else(|| {
                    format!(
                        "{named}: {kind:?} cannot be scaled: {}",
                        ControllerKind::SCALE_TARGETS
                    )
                })?;
                let replicas = n
                    .parse::<i32>()
                    .ok()
                    .filter(|r| *r >= 0)
                    .ok_or_else(|| format!("{named}: {n:?} is not a replica count"))?;
                let (namespace, name) = match name.split_once('/') {
                    Some((ns, n)) => (ns.to_string(), n.to_string()),
                    None => (namespace.unwrap_or("default").to_string(), name.to_string()),
                };
                ActionKind::Scale {
                    kind,
                    namespace,
                    name,
                    replicas,
                }
            }
            other => return Err(format!("unknown action flag {other}")),
        };
        out.push((Action::new(when, kind), named));
    }
    Ok(out)
}

fn object(e: &Event) -> String {
    if e.object.namespace.is_empty() {
        format!("{}/{}", e.object.kind.as_str(), e.object.name)
    } else {
        format!(
            "{}/{}/{}",
            e.object.kind.as_str(),
            e.object.namespace,
            e.object.name
        )
    }
}

/// The timeline for people: every event and drain line with its second, then the
/// summary.
pub fn text(t: &Timeline, actions: &[(Action, String)], style: &Style) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{}\n",
        style.bold(&format!("what if, from 0s to {}s:", t.until))
    ));
    for (a, named) in actions {
        out.push_str(&format!("  {:>6}  {named}\n", format!("{}s", a.at)));
    }
    out.push('\n');
    if t.events.is_empty() {
        out.push_str("nothing happens\n");
    }
    for e in &t.events {
        let at = format!("{:>6}", format!("{}s", e.at));
        let line = match e.source {
            Source::Event => {
                let ty = if e.event_type == simulation::WARNING {
                    style.yellow(&format!("{:<7}", e.event_type))
                } else {
                    format!("{:<7}", e.event_type)
                };
                format!("{at}  {ty}  {:<20}  {}  {}", e.reason, object(e), e.message)
            }
            Source::DrainStdout | Source::DrainStderr => {
                format!("{at}  {}  {}", style.dim("kubectl drain:"), e.message)
            }
        };
        out.push_str(&line);
        out.push('\n');
    }
    let s = &t.summary;
    out.push('\n');
    out.push_str(&format!(
        "{} evicted, {} replaced, {} rescheduled, {} still Pending{}\n",
        s.evicted,
        s.replaced,
        s.rescheduled,
        s.still_pending.len(),
        if s.drains_unfinished {
            "; a drain had not finished"
        } else {
            ""
        }
    ));
    for p in &s.still_pending {
        let Some(r) = t.pods.get(p.pod) else { continue };
        let why = if p.message.is_empty() {
            "never attempted".to_string()
        } else {
            p.message.clone()
        };
        out.push_str(&format!(
            "  {} {}/{}: {why}\n",
            style.red("Pending"),
            r.namespace,
            r.name
        ));
    }
    for line in still_terminating(t) {
        out.push_str(&format!("  {} {line}\n", style.yellow("Terminating")));
    }
    out
}

/// The pods still terminating at the end, one line each: where, since when and why, what
/// replaced them, and why the deletion is not over when their node no longer reports
/// (the kubelet confirms a graceful deletion, so on a node that is not ready it never
/// ends, and a StatefulSet waits for it before it creates the pod again).
fn still_terminating(t: &Timeline) -> Vec<String> {
    // What replaced each pod, and each node's last state, found in one pass each.
    let mut replaced_by: Vec<Option<usize>> = vec![None; t.pods.len()];
    for (i, p) in t.pods.iter().enumerate() {
        if let Some(slot) = p.replaces.and_then(|r| replaced_by.get_mut(r)) {
            slot.get_or_insert(i);
        }
    }
    let mut last_change = vec![None; t.nodes.len()];
    for c in &t.node_changes {
        if let Some(slot) = last_change.get_mut(c.node) {
            *slot = Some(c);
        }
    }
    let mut lines = Vec::new();
    for span in t.spans.iter().filter(|x| x.to.is_none()) {
        let PodState::Terminating { cause } = span.state else {
            continue;
        };
        let Some(p) = t.pods.get(span.pod) else {
            continue;
        };
        let node = span.node.and_then(|n| t.nodes.get(n));
        let mut line = format!("{}/{}", p.namespace, p.name);
        if let Some(name) = node {
            line.push_str(&format!(" on {name}"));
        }
        line.push_str(&format!(" since {}s ({})", span.from, cause.as_str()));
        let mut why = Vec::new();
        match replaced_by
            .get(span.pod)
            .copied()
            .flatten()
            .and_then(|r| t.pods.get(r))
        {
            Some(r) => line.push_str(&format!(", replaced by {}", r.name)),
            None => {
                line.push_str(", not replaced");
                if let Some(o) = &p.owner
                    && o.kind == ControllerKind::StatefulSet
                {
                    why.push(format!(
                        "StatefulSet {} creates {} again only once it is gone",
                        o.name, p.name
                    ));
                }
            }
        }
        let last = span
            .node
            .and_then(|n| last_change.get(n).copied().flatten());
        if let (Some(name), Some(c)) = (node, last)
            && c.exists
            && !c.ready
        {
            why.push(format!(
                "{name} is not ready, so no kubelet confirms the deletion (kubectl delete pod --force, or deleting the Node, ends it)"
            ));
        }
        if !why.is_empty() {
            line.push_str(": ");
            line.push_str(&why.join("; "));
        }
        lines.push(line);
    }
    lines
}

/// Runs `what-if`.
pub fn run(a: &WhatIfArgs, matches: Option<&ArgMatches>) -> u8 {
    let (l, s) = match load_for_what_if(&a.common) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let fail = |m: String| {
        print_error(&l.err_style, &m);
        EXIT_INPUT
    };
    let drain = DrainOptions {
        ignore_daemonsets: a.ignore_daemonsets,
        delete_emptydir_data: a.delete_emptydir_data,
        force: a.force,
        disable_eviction: a.disable_eviction,
        grace_period: a.grace_period,
        timeout: a.timeout,
        skip_wait_for_delete_timeout: a.skip_wait_for_delete_timeout,
    };
    let given = matches.map(given).unwrap_or_default();
    let actions = match actions(
        &given,
        &drain,
        a.common.namespace.as_deref(),
        s.semantics.version,
    ) {
        Ok(x) => x,
        Err(e) => return fail(e),
    };
    let until = match seconds("--until", &a.until) {
        Ok(u) => u,
        Err(e) => return fail(e),
    };
    // Every node an action names is one of the input's (no action adds a node).
    for (x, named) in &actions {
        if let Some(node) = x.node()
            && let Err(e) = find_node(&s, node)
        {
            return fail(format!("{named}: {e}"));
        }
    }
    if let Some((late, named)) = actions.iter().find(|(x, _)| x.at > until) {
        return fail(format!("{named}: at {}s, after --until {until}s", late.at));
    }
    let start = s.what_if_cluster();
    // Warnings on stderr in every format; JSON and YAML also carry them in the document.
    if !a.common.quiet {
        for n in &start.notes {
            eprintln!("taintlab: warning: what-if: {}", n.message);
        }
    }
    let start_notes = start.notes;
    let cluster = start.cluster;
    let plain: Vec<Action> = actions.iter().map(|(x, _)| x.clone()).collect();
    let mut w = WhatIf::new(cluster, s.semantics, plain.clone(), until);
    // The control plane's options as every edge derives them from the scenario's
    // options: with --no-admission the pasted pods are taken as admitted, but the
    // cluster's API server still gives the pods its controllers create upstream's 300 s.
    w.options = taintlab_scenario::what_if::simulation_options(&l.options);
    crate::progress::phase("simulating");
    let result = simulation::simulate(&w);
    crate::progress::clear();
    let t = match result {
        Ok(t) => t,
        Err(e) => {
            // `actions[i].node` names the flag that gave it.
            let named = e
                .field
                .strip_prefix("actions[")
                .and_then(|r| r.split(']').next())
                .and_then(|i| i.parse::<usize>().ok())
                .and_then(|i| actions.get(i))
                .map(|(_, n)| format!("{n}: "))
                .unwrap_or_default();
            return fail(format!("what-if: {named}{e}"));
        }
    };
    let code = if t.summary.still_pending.is_empty() && !t.summary.drains_unfinished {
        0
    } else {
        EXIT_NO
    };
    match a.output {
        Format::Text => {
            crate::say!("{}", text(&t, &actions, &Style::stdout(a.common.color)));
            code
        }
        Format::Json | Format::Yaml => {
            // The document npm `whatIf` returns for the same texts and actions.
            let doc = match taintlab_json::api::whatif::document(
                s.semantics.version,
                &plain,
                &start_notes,
                &t,
            ) {
                Ok(d) => d,
                Err(e) => return fail(e.to_string()),
            };
            match crate::out::print_structured(&doc, a.output == Format::Yaml) {
                Ok(()) => code,
                Err(e) => fail(e),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use taintlab_core::TaintEffect;

    fn g(id: &str, value: &str, index: usize) -> Given {
        Given {
            id: id.into(),
            value: value.into(),
            index,
        }
    }

    #[test]
    fn actions_take_their_own_time_or_the_last_at() {
        let v = KubeVersion::NEWEST;
        let given = [
            g("taint", "n1=k=v:NoExecute", 2),
            g("at", "60", 4),
            g("drain", "n2", 6),
            g("fail", "n3@90", 8),
            g("scale", "deploy/web=3", 10),
        ];
        let a = actions(&given, &DrainOptions::default(), Some("shop"), v).unwrap();
        let at: Vec<i64> = a.iter().map(|(x, _)| x.at).collect();
        assert_eq!(at, [0, 60, 90, 60]);
        assert!(matches!(&a[0].0.kind, ActionKind::AddTaint { node, taint }
            if node == "n1" && taint.key == "k" && taint.value == "v"
                && taint.effect == TaintEffect::NoExecute));
        assert!(matches!(&a[2].0.kind, ActionKind::NodeStopsReporting { node } if node == "n3"));
        assert!(
            matches!(&a[3].0.kind, ActionKind::Scale { kind, namespace, name, replicas }
            if *kind == ControllerKind::Deployment && namespace == "shop" && name == "web"
                && *replicas == 3)
        );
        assert_eq!(a[1].1, "--drain n2");
    }

    #[test]
    fn the_scenarios_cluster_moves_into_the_simulation() {
        use taintlab_scenario::{AdmissionOptions, Options, PaneKind, ParsedPane, Scenario};
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/whatif.yaml"
        ))
        .unwrap();
        let v = KubeVersion::NEWEST;
        let pane = ParsedPane::parse(&text, PaneKind::Combined, v);
        let options = Options {
            admission: Some(AdmissionOptions::default()),
            ..Options::default()
        };
        let s = Scenario::build(&[&pane], &options);
        let start = s.what_if_cluster();
        assert!(start.notes.is_empty(), "{:?}", start.notes);
        let c = start.cluster;
        let nodes: Vec<&str> = c.nodes.iter().map(|n| n.node.name.as_str()).collect();
        assert_eq!(nodes, ["node1", "node2", "node3"]);
        assert!(c.nodes.iter().all(|n| n.allocatable.is_some()));
        let pods: Vec<(&str, &str)> = c
            .pods
            .iter()
            .map(|p| (p.pod.pod.name.as_str(), p.pod.pod.node_name.as_str()))
            .collect();
        assert_eq!(
            pods,
            [("api", "node1"), ("batch", "node1"), ("cache", "node2")]
        );
        // Admission ran: DefaultTolerationSeconds' two tolerations besides batch's own.
        assert_eq!(c.pods[1].pod.pod.tolerations.len(), 3);
        assert!(c.pods.iter().all(|p| p.owner.is_none()));
        assert_eq!(c.workloads.len(), 1);
        let w = &c.workloads[0];
        assert_eq!(
            (w.kind, w.namespace.as_str(), w.name.as_str(), w.replicas),
            (ControllerKind::Deployment, "shop", "web", 1)
        );
        assert_eq!(
            w.template
                .spec
                .placement
                .node_selector
                .get("kubernetes.io/hostname"),
            Some(&"node3".to_string())
        );
    }

    #[test]
    fn bad_actions_name_their_flag() {
        let v = KubeVersion::NEWEST;
        let err = |id: &str, value: &str| {
            actions(&[g(id, value, 1)], &DrainOptions::default(), None, v).unwrap_err()
        };
        // kubectl's parseTaint: without an effect, `k=v` is taken for the key.
        assert!(
            err("taint", "n1=k=v")
                .starts_with("--taint n1=k=v: invalid taint spec: k=v, name part must consist")
        );
        assert!(err("taint", "n1").contains("expected NODE=KEY[=VALUE]:EFFECT"));
        assert!(err("taint", "n1=k=v:Sometimes").starts_with("--taint n1=k=v:Sometimes: "));
        assert!(err("drain", "n1@soon").contains("not a number of seconds"));
        assert!(err("at", "-5").starts_with("--at: "));
        assert!(err("scale", "pod/web=2").contains("\"pod\" cannot be scaled"));
        // A DaemonSet has no scale subresource; the playground and npm refuse it alike.
        assert!(err("scale", "ds/agent=2").contains("\"ds\" cannot be scaled"));
        assert!(err("scale", "deploy/web=x").contains("not a replica count"));
        assert!(err("cordon", "").contains("a node name is needed"));
        let untaint = actions(
            &[g("untaint", "n1=k:NoSchedule-", 1)],
            &DrainOptions::default(),
            None,
            v,
        )
        .unwrap();
        assert!(
            matches!(&untaint[0].0.kind, ActionKind::RemoveTaint { key, effect, .. }
            if key == "k" && *effect == TaintEffect::NoSchedule)
        );
    }
}
