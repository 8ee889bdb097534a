//! `whatIf(input, actions, options?)`: the pasted cluster through core's cluster-wide
//! what-if simulation ([`taintlab_core::simulation`]), with the scenario's starting
//! cluster ([`Scenario::what_if_cluster`]) and the one text form of actions
//! ([`taintlab_scenario::parse_action`]) that the command line and share links use.
//!
//! The result is the `WhatIfResult` document that `taintlab what-if -o json` prints too
//! ([`document`]): `{apiVersion, kind, kubernetesVersion, actions, notes, timeline}`,
//! the actions as lines, the notes on what was assumed to build the cluster, and
//! `timeline` being core's `Timeline` as serialized by its serde derives.

use taintlab_core::KubeVersion;
use taintlab_core::simulation::{Action, Timeline};
use taintlab_scenario::{PaneKind, Scenario, WhatIfNote, format_action, parse_action};

use crate::api::analyze::{Panes, options as scenario_options, panes};
use crate::error::{ApiError, ApiResult};
use crate::read::index;
use crate::value::{V, to_serde};

/// Simulated seconds when `options.until` is not given: half an hour, six times the
/// default `tolerationSeconds` (300) that pods get for not-ready and unreachable nodes,
/// so that a node failure's evictions and their replacements are inside.
pub const DEFAULT_UNTIL: i64 = 1800;

/// The actions: a string (one action per line), an array of lines, or an array of
/// action objects in core's serde shape (`{at, action: "addTaint", node, taint}`...).
fn actions(v: &V, version: taintlab_core::KubeVersion) -> ApiResult<Vec<Action>> {
    let wrong = |path: &str, what: String| ApiError::value("invalid-action", "actions", path, what);
    match v {
        V::Str(text) => {
            let mut out = Vec::new();
            for (i, line) in text.lines().enumerate() {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                out.push(
                    parse_action(line, version)
                        .map_err(|e| wrong("actions", format!("line {}: {e}", i + 1)))?,
                );
            }
            Ok(out)
        }
        V::Arr(items) => items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let path = index("actions", i);
                match item {
                    V::Str(line) => parse_action(line.trim(), version)
                        .map_err(|e| wrong(&path, format!("{line:?}: {e}"))),
                    V::Obj(_) => serde_json::from_value::<Action>(to_serde(item))
                        .map_err(|e| wrong(&path, format!("is not an action: {e}"))),
                    other => Err(ApiError::value(
                        "wrong-type",
                        "actions",
                        &path,
                        format!(
                            "must be an action line or an action object, got {}",
                            other.type_name()
                        ),
                    )),
                }
            })
            .collect(),
        other => Err(ApiError::value(
            "wrong-type",
            "actions",
            "actions",
            format!(
                "must be action lines (a string or an array), got {}",
                other.type_name()
            ),
        )),
    }
}

fn pane_name(p: PaneKind) -> &'static str {
    match p {
        PaneKind::Nodes => "nodes",
        PaneKind::Pods => "pods",
        _ => "text",
    }
}

/// `whatIf(input, actions, options?)`.
pub fn what_if(input: &V, actions_arg: &V, options: &V) -> ApiResult {
    let o = scenario_options(options, &["until"])?;
    // `scenario_options` checked that `options` is an object (or nothing) whose keys
    // are known.
    let until = match options.get("until") {
        None | Some(V::Null) => DEFAULT_UNTIL,
        Some(v) => match v.as_int() {
            Some(n) if n >= 0 => n,
            _ => {
                return Err(ApiError::value(
                    "invalid-argument",
                    "options",
                    "options.until",
                    "must be a whole number of seconds, 0 or more",
                ));
            }
        },
    };
    let version = o.semantics.version;
    let list = actions(actions_arg, version)?;
    let Panes { panes, .. } = panes(input, &o)?;
    let refs: Vec<_> = panes.iter().collect();
    let s = Scenario::build_for_what_if(&refs, &o);
    let start = s.what_if_cluster();
    let timeline = s.what_if(&list, until).map_err(|e| {
        // Core names the field as `actions[i].…` or `cluster.…`.
        let argument = if e.field.starts_with("actions") {
            "actions"
        } else {
            "input"
        };
        ApiError::value("invalid-argument", argument, &e.field, e.message)
    })?;
    document(version, &list, &start.notes, &timeline)
}

/// The `WhatIfResult` document of a run: `{apiVersion: taintlab.dev/v1, kind:
/// WhatIfResult, kubernetesVersion, actions, notes, timeline}`. Each action is its line
/// ([`format_action`]; `null` for one that carries a whole object), each note
/// `{message, pane?, line?}`. npm `whatIf` and `taintlab what-if -o json` both write it.
pub fn document(
    version: KubeVersion,
    actions: &[Action],
    notes: &[WhatIfNote],
    timeline: &Timeline,
) -> ApiResult {
    let lines: Vec<serde_json::Value> = actions
        .iter()
        .map(|a| format_action(a).map_or(serde_json::Value::Null, serde_json::Value::String))
        .collect();
    let notes: Vec<serde_json::Value> = notes
        .iter()
        .map(|n| {
            let mut m = serde_json::Map::new();
            m.insert("message".into(), n.message.clone().into());
            if let Some(src) = &n.source {
                m.insert("pane".into(), pane_name(src.pane).into());
                m.insert("line".into(), src.location.line.into());
            }
            serde_json::Value::Object(m)
        })
        .collect();
    let ser = |e: serde_json::Error| {
        ApiError::value("internal", "input", "input", format!("cannot write: {e}"))
    };
    // Written out so that the fields keep their order (the timeline's is the core's).
    Ok(format!(
        r#"{{"apiVersion":"taintlab.dev/v1","kind":"WhatIfResult","kubernetesVersion":{},"actions":{},"notes":{},"timeline":{}}}"#,
        serde_json::to_string(&version.to_string()).map_err(ser)?,
        serde_json::to_string(&lines).map_err(ser)?,
        serde_json::to_string(&notes).map_err(ser)?,
        serde_json::to_string(timeline).map_err(ser)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::tests::{v, val};
    use serde_json::json;

    /// Two nodes; a ReplicaSet's pod and an unmanaged pod on n1, the ReplicaSet's other
    /// pod on n2, and a budget that allows no disruption of the ReplicaSet's pods.
    const CLUSTER: &str = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus:\n  allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n2}\nstatus:\n  allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: web-1\n  namespace: shop\n  labels: {app: web}\n  ownerReferences:\n  - {apiVersion: apps/v1, kind: ReplicaSet, name: web, controller: true, uid: u1}\nspec:\n  nodeName: n1\n  containers: [{name: web, image: web}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: solo, namespace: shop}\nspec:\n  nodeName: n1\n  containers: [{name: solo, image: solo}]\n";

    fn run(actions: serde_json::Value, options: serde_json::Value) -> serde_json::Value {
        v(what_if(&val(json!(CLUSTER)), &val(actions), &val(options)))
    }

    #[test]
    fn a_no_execute_taint_evicts_and_the_replica_set_replaces_on_the_other_node() {
        let r = run(
            json!(["at 0 taint n1 k=v:NoExecute"]),
            json!({"until": 600}),
        );
        assert_eq!(r["kind"], "WhatIfResult");
        assert_eq!(r["actions"], json!(["at 0 taint n1 k=v:NoExecute"]));
        let t = &r["timeline"];
        assert_eq!(t["until"], 600);
        assert_eq!(t["summary"]["evicted"], 2);
        assert_eq!(t["summary"]["replaced"], 1, "{t}");
        assert_eq!(t["summary"]["rescheduled"], 1);
        let events = t["events"].as_array().unwrap();
        let evicted: Vec<_> = events
            .iter()
            .filter(|e| e["reason"] == "TaintManagerEviction")
            .map(|e| e["object"]["name"].as_str().unwrap())
            .collect();
        assert_eq!(evicted.len(), 2, "{events:?}");
        assert!(evicted.contains(&"web-1") && evicted.contains(&"solo"));
        // The ReplicaSet was not pasted: made up from its pod, with a note.
        let notes = r["notes"].as_array().unwrap();
        assert!(
            notes
                .iter()
                .any(|n| n["message"].as_str().unwrap().contains("web")),
            "{notes:?}"
        );
        let scheduled = events
            .iter()
            .find(|e| e["reason"] == "Scheduled")
            .expect("the replacement is scheduled");
        assert!(
            scheduled["message"].as_str().unwrap().ends_with("to n2"),
            "{scheduled}"
        );
    }

    #[test]
    fn lines_text_and_objects_are_the_same_actions() {
        let until = json!({"until": 300});
        let text = run(
            json!("cordon n2\n# then\nat 30 drain n1 --force"),
            until.clone(),
        );
        let lines = run(
            json!(["cordon n2", "at 30 drain n1 --force"]),
            until.clone(),
        );
        let objects = run(
            json!([
                {"at": 0, "action": "cordon", "node": "n2"},
                {"at": 30, "action": "drain", "node": "n1", "options": {"force": true}}
            ]),
            until,
        );
        assert_eq!(text, lines);
        assert_eq!(text, objects);
        let pending = text["timeline"]["summary"]["stillPending"]
            .as_array()
            .unwrap();
        assert_eq!(pending.len(), 1, "{text}");
        assert!(
            pending[0]["message"]
                .as_str()
                .unwrap()
                .starts_with("0/2 nodes are available: ")
        );
    }

    #[test]
    fn until_defaults_to_half_an_hour() {
        assert_eq!(
            run(json!([]), json!(null))["timeline"]["until"],
            DEFAULT_UNTIL
        );
    }

    #[test]
    fn errors_name_the_action_or_the_option() {
        let err = |a: serde_json::Value, o: serde_json::Value| {
            what_if(&val(json!(CLUSTER)), &val(a), &val(o)).unwrap_err()
        };
        let e = err(json!(["cordon n1", "explode n1"]), json!(null));
        assert_eq!(e.argument, "actions");
        assert!(
            e.message.starts_with("actions[1]: \"explode n1\""),
            "{}",
            e.message
        );
        let e = err(json!("cordon n1\n\nat soon fail n2"), json!(null));
        assert!(e.message.contains("line 3"), "{}", e.message);
        let e = err(json!([42]), json!(null));
        assert_eq!(e.code, "wrong-type");
        let e = err(
            json!([{"at": 0, "action": "melt", "node": "n1"}]),
            json!(null),
        );
        assert!(
            e.message.starts_with("actions[0]: is not an action"),
            "{}",
            e.message
        );
        let e = err(json!([]), json!({"until": -1}));
        assert!(e.message.starts_with("options.until"), "{}", e.message);
        let e = err(json!([]), json!({"untill": 5}));
        assert!(e.message.contains("until"), "{}", e.message);
    }
}
