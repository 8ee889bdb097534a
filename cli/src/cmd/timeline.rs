//! `taintlab timeline`: the taint-eviction controller's timeline of every pod on every
//! node with NoExecute taints (the taints appear at second 0, the pod already runs).

use taintlab_core::eviction::ActionKind;

use super::{analyze, emit, load};
use crate::load::{find_node, find_pod};
use crate::out::{Style, print_error, raw_field, raw_items};
use crate::{EXIT_INPUT, Format, TimelineArgs};

/// Runs `timeline`.
pub fn run(a: &TimelineArgs) -> u8 {
    let (l, s) = match load(&a.common) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let pods: Vec<usize> = match &a.pod {
        Some(q) => match find_pod(&s, q, a.common.namespace.as_deref()) {
            Ok(p) => vec![p],
            Err(e) => {
                print_error(&l.err_style, &e);
                return EXIT_INPUT;
            }
        },
        None => (0..s.pods.len()).collect(),
    };
    let nodes: Vec<usize> = match &a.node {
        Some(q) => match find_node(&s, q) {
            Ok(n) => vec![n],
            Err(e) => {
                print_error(&l.err_style, &e);
                return EXIT_INPUT;
            }
        },
        None => (0..s.nodes.len()).collect(),
    };
    let pairs: Vec<(usize, usize)> = pods
        .iter()
        .flat_map(|&p| nodes.iter().map(move |&n| (p, n)))
        .filter(|&(p, n)| s.eviction(p, n).is_some())
        .collect();
    match a.output {
        Format::Text => {
            let style = Style::stdout(a.common.color);
            if pairs.is_empty() {
                crate::sayln!("no pod runs on a node with NoExecute taints: nothing is evicted");
            }
            for (p, n) in pairs {
                let Some(r) = s.eviction(p, n) else { continue };
                crate::sayln!(
                    "{} on {} {}",
                    style.bold(&s.pods[p].label()),
                    style.bold(&s.nodes[n].node.name),
                    style.dim("(its NoExecute taints appear at 0s)")
                );
                for act in &r.actions {
                    let what = match act.kind {
                        ActionKind::Schedule { fire_at } => {
                            format!("eviction scheduled for {fire_at}s")
                        }
                        ActionKind::Keep { fire_at } => {
                            format!("pending eviction kept at {fire_at}s")
                        }
                        ActionKind::Cancel => "pending eviction cancelled".into(),
                        ActionKind::Evict => style.red("evicted"),
                    };
                    crate::sayln!("  {:>8}  {what}", format!("{}s", act.at));
                }
                for e in &r.events {
                    crate::sayln!(
                        "  {:>8}  {}",
                        format!("{}s", e.at),
                        style.dim(&format!(
                            "Normal  TaintManagerEviction  {}",
                            r.event_message(e)
                        ))
                    );
                }
                if r.actions.is_empty() {
                    crate::sayln!("  {}", style.green("tolerated forever: never evicted"));
                }
                crate::sayln!();
            }
            0
        }
        Format::Json | Format::Yaml => {
            let json = match analyze(&l) {
                Ok(j) => j,
                Err(c) => return c,
            };
            match timeline_json(&json, &s, &pairs) {
                Ok(t) => emit(&l, &t, a.output == Format::Yaml),
                Err(e) => {
                    print_error(&l.err_style, &e);
                    EXIT_INPUT
                }
            }
        }
    }
}

/// `[{pod, namespace, node, eviction}]` with npm `analyze`'s eviction objects.
fn timeline_json(
    json: &str,
    s: &taintlab_scenario::Scenario,
    pairs: &[(usize, usize)],
) -> Result<String, String> {
    let pods = raw_items(raw_field(json, "pods")?.get())?;
    let mut out = String::from("[");
    for (i, &(p, n)) in pairs.iter().enumerate() {
        let pod = pods.get(p).ok_or("pod out of range")?;
        let nodes = raw_items(raw_field(pod.get(), "nodes")?.get())?;
        let node = nodes.get(n).ok_or("node out of range")?;
        let eviction = raw_field(node.get(), "eviction")?;
        if i > 0 {
            out.push(',');
        }
        let q = |x: &str| serde_json::to_string(x).unwrap_or_default();
        out.push_str(&format!(
            "{{\"pod\":{},\"namespace\":{},\"node\":{},\"eviction\":{}}}",
            q(&s.pods[p].pod.name),
            q(&s.pods[p].pod.namespace),
            q(&s.nodes[n].node.name),
            eviction.get()
        ));
    }
    out.push(']');
    Ok(out)
}
