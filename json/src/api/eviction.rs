//! `evictionTimeline` (the taint-eviction controller) and `nodeFailure` (the node
//! lifecycle controller, then the taint-eviction controller).

use crate::value::V;
use taintlab_core::eviction::{PodKey, SimEvent, SimulationResult, TimedEvent, simulate};
use taintlab_core::node_lifecycle::{
    DefaultTolerationSeconds, NoExecuteTainterThrottle, NodeChange, NodeFailureScenario,
    NodeMonitorTiming, PodOutcome, simulate_node_failure,
};
use taintlab_core::{Node, Pod, Semantics, Taint, TaintEffect};

use crate::error::{ApiError, ApiResult};
use crate::read::{self, Obj, VERSION_OPTIONS, index};
use crate::write::{self, J};

fn pod_ref(j: &mut J, k: &PodKey) {
    j.open()
        .s("namespace", &k.namespace)
        .s("name", &k.name)
        .close();
}

/// The controller's log. `end` is the last time anything happened (at least
/// `last_event`).
pub fn simulation(j: &mut J, r: &SimulationResult, until: Option<i64>, last_event: i64) {
    let empty = PodKey::new("", "");
    let key = |id: taintlab_core::eviction::PodId| r.pod_key(id).unwrap_or(&empty);
    let end = r.actions.iter().map(|a| a.at).fold(last_event, i64::max);
    j.open().on("until", until).n("end", end).key("pods").arr();
    for (i, k) in r.pods.iter().enumerate() {
        let pending = r
            .pending_evictions
            .iter()
            .find(|p| p.pod.index() == i)
            .map(|p| p.fire_at);
        j.open()
            .s("namespace", &k.namespace)
            .s("name", &k.name)
            .on("evictedAt", r.eviction_time(k))
            .on("pendingEvictionAt", pending)
            .b("remains", r.remaining_pods.iter().any(|p| p.index() == i))
            .close();
    }
    j.end().key("actions").arr();
    for a in &r.actions {
        j.open().n("at", a.at).key("pod");
        pod_ref(j, key(a.pod));
        j.s("action", a.kind.as_str())
            .on("fireAt", a.kind.fire_at())
            .close();
    }
    j.end().key("events").arr();
    for e in &r.events {
        j.open().n("at", e.at).key("pod");
        pod_ref(j, key(e.pod));
        j.s("type", e.kind.event_type())
            .s("reason", e.kind.reason())
            .s("message", &r.event_message(e))
            .close();
    }
    j.end().key("pendingEvictions").arr();
    for p in &r.pending_evictions {
        j.open().key("pod");
        pod_ref(j, key(p.pod));
        j.n("fireAt", p.fire_at).close();
    }
    j.end().close();
}

const EVENT_TYPES: [&str; 8] = [
    "createNode",
    "updateNode",
    "deleteNode",
    "addTaint",
    "removeTaint",
    "createPod",
    "updatePod",
    "deletePod",
];

/// Reads `{at, type, ...}` events, keeping each node's taints so that `addTaint` and
/// `removeTaint` can be turned into complete updates.
fn read_events(list: &V, sem: Semantics) -> ApiResult<Vec<TimedEvent>> {
    let V::Arr(items) = list else {
        return Err(ApiError::value(
            "wrong-type",
            "scenario",
            "scenario.events",
            format!("must be an array of events, got {}", read::type_name(list)),
        ));
    };
    let mut known: Vec<(String, Vec<Taint>)> = Vec::new();
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let path = index("scenario.events", i);
        let e = Obj::new(
            item,
            "scenario",
            &path,
            "an event",
            &["at", "type", "node", "pod", "taint"],
            &[],
            false,
        )?;
        let at = e
            .int("at")?
            .ok_or_else(|| e.error("at", "missing-field", "is required (seconds)"))?;
        let kind = e.choice("type", &EVENT_TYPES)?.ok_or_else(|| {
            e.error(
                "type",
                "missing-field",
                format!("is required: one of {}", EVENT_TYPES.join(", ")),
            )
        })?;
        let need = |key: &str| -> ApiResult<&V> {
            e.get(key)
                .ok_or_else(|| e.error(key, "missing-field", format!("is required for {kind}")))
        };
        let node_name = |v: &V, key: &str| -> ApiResult<String> {
            match v {
                V::Str(s) if !s.contains([':', '\n', '=']) => Ok(s.clone()),
                other => Ok(read::core_node(other, &e.at(key), sem.version)?.name),
            }
        };
        let event = match kind {
            "createNode" | "updateNode" => {
                let n = read::core_node(need("node")?, &e.at("node"), sem.version)?;
                match known.iter_mut().find(|(name, _)| *name == n.name) {
                    Some(slot) => slot.1 = n.taints.clone(),
                    None => known.push((n.name.clone(), n.taints.clone())),
                }
                if kind == "createNode" {
                    SimEvent::CreateNode {
                        name: n.name,
                        taints: n.taints,
                    }
                } else {
                    SimEvent::UpdateNode {
                        name: n.name,
                        taints: n.taints,
                    }
                }
            }
            "deleteNode" => SimEvent::DeleteNode {
                name: node_name(need("node")?, "node")?,
            },
            "addTaint" | "removeTaint" => {
                let name = node_name(need("node")?, "node")?;
                let taint = read::taint(need("taint")?, &e.at("taint"), sem.version)?;
                let slot = match known.iter().position(|(n, _)| *n == name) {
                    Some(i) => i,
                    None => {
                        known.push((name.clone(), Vec::new()));
                        known.len() - 1
                    }
                };
                let taints = &mut known[slot].1;
                // Same key and effect replaces, as `kubectl taint --overwrite` does.
                taints.retain(|t| !(t.key == taint.key && t.effect == taint.effect));
                if kind == "addTaint" {
                    taints.push(taint);
                }
                SimEvent::UpdateNode {
                    name,
                    taints: taints.clone(),
                }
            }
            "createPod" | "updatePod" => {
                let p = read::core_pod(need("pod")?, &e.at("pod"), sem.version)?;
                if kind == "createPod" {
                    SimEvent::CreatePod(p)
                } else {
                    SimEvent::UpdatePod(p)
                }
            }
            _ => {
                let v = need("pod")?;
                let key = match v {
                    V::Str(s) => match s.split_once('/') {
                        Some((ns, name)) => PodKey::new(ns, name),
                        None => PodKey::new("default", s),
                    },
                    other => {
                        let p = read::core_pod(other, &e.at("pod"), sem.version)?;
                        PodKey::new(&p.namespace, &p.name)
                    }
                };
                SimEvent::DeletePod(key)
            }
        };
        out.push(TimedEvent::new(at, event));
    }
    Ok(out)
}

/// `evictionTimeline(scenario, options?)`.
pub fn eviction_timeline(scenario: &V, options: &V) -> ApiResult {
    let o = Obj::options(options, &VERSION_OPTIONS)?;
    let sem = read::semantics(&o)?;
    let s = Obj::new(
        scenario,
        "scenario",
        "scenario",
        "a scenario object",
        &["events", "node", "pods", "pod", "taintedAt", "until"],
        &[],
        false,
    )?;
    let until = s.int("until")?;
    let events = if let Some(list) = s.get("events") {
        for other in ["node", "pods", "pod", "taintedAt"] {
            if s.has(other) {
                return Err(s.error(other, "invalid-argument", "cannot be combined with events"));
            }
        }
        read_events(list, sem)?
    } else {
        let node = s
            .get("node")
            .ok_or_else(|| s.error("node", "missing-field", "is required (or give events)"))?;
        let node = read::core_node(node, &s.at("node"), sem.version)?;
        let mut pods = match (s.get("pods"), s.get("pod")) {
            (Some(p), None) => read::pods(p, &s.at("pods"), sem.version)?,
            (None, Some(p)) => vec![read::pod(p, &s.at("pod"), sem.version)?],
            (None, None) => Vec::new(),
            (Some(_), Some(_)) => {
                return Err(s.error("pod", "invalid-argument", "give pod or pods, not both"));
            }
        };
        let tainted_at = s.int("taintedAt")?.unwrap_or(0);
        simple_scenario(
            &node,
            &mut pods.iter_mut().map(|p| &mut p.pod).collect::<Vec<_>>(),
            tainted_at,
        )
    };
    let end = until.unwrap_or(i64::MAX);
    let last = events
        .iter()
        .map(|e| e.at)
        .filter(|at| *at <= end)
        .max()
        .unwrap_or(0);
    let r = simulate(events, end, sem);
    let mut j = J::new();
    simulation(&mut j, &r, until, last);
    Ok(j.finish())
}

/// The node with every pod bound to it at 0; its `NoExecute` taints appear at
/// `tainted_at` (with the rest of its taints from the start).
pub fn simple_scenario(node: &Node, pods: &mut [&mut Pod], tainted_at: i64) -> Vec<TimedEvent> {
    let mut early: Vec<Taint> = node.taints.clone();
    if tainted_at > 0 {
        early.retain(|t| t.effect != TaintEffect::NoExecute);
    }
    let mut events = vec![TimedEvent::new(
        0,
        SimEvent::CreateNode {
            name: node.name.clone(),
            taints: early,
        },
    )];
    for p in pods.iter_mut() {
        p.node_name = node.name.clone();
        events.push(TimedEvent::new(0, SimEvent::CreatePod((**p).clone())));
    }
    if tainted_at > 0 {
        events.push(TimedEvent::new(
            tainted_at,
            SimEvent::UpdateNode {
                name: node.name.clone(),
                taints: node.taints.clone(),
            },
        ));
    }
    events
}

fn change(j: &mut J, at: i64, c: &NodeChange, node: &str) {
    let (name, taint) = match c {
        NodeChange::LastHeartbeat => ("last-heartbeat", None),
        NodeChange::ReadyUnknown => ("ready-unknown", None),
        NodeChange::QueuedForNoExecuteTainting => ("queued-for-no-execute-tainting", None),
        NodeChange::TaintAdded(t) => ("taint-added", Some(t)),
        NodeChange::TaintRemoved(t) => ("taint-removed", Some(t)),
        NodeChange::HeartbeatResumed => ("heartbeat-resumed", None),
    };
    j.open().n("at", at).s("change", name).key("taint");
    write::opt_taint(j, taint);
    j.key("event");
    match c.node_event(node) {
        Some((reason, message)) => {
            j.open()
                .s("type", "Normal")
                .s("reason", reason)
                .s("message", &message)
                .close();
        }
        None => {
            j.null();
        }
    }
    j.close();
}

/// `nodeFailure(scenario, options?)`.
pub fn node_failure(scenario: &V, options: &V) -> ApiResult {
    let o = Obj::options(options, &VERSION_OPTIONS)?;
    let sem = read::semantics(&o)?;
    let s = Obj::new(
        scenario,
        "scenario",
        "scenario",
        "a node-failure scenario",
        &[
            "node",
            "pods",
            "lastHeartbeat",
            "heartbeatResumesAt",
            "gracePeriod",
            "monitorPeriod",
            "monitorPhase",
            "tainter",
            "defaultTolerationSeconds",
            "until",
        ],
        &[],
        false,
    )?;
    let node = s
        .get("node")
        .ok_or_else(|| s.error("node", "missing-field", "is required"))?;
    let node = read::core_node(node, &s.at("node"), sem.version)?;
    let pods = match s.get("pods") {
        Some(p) => read::core_pods(&read::pods(p, &s.at("pods"), sem.version)?),
        None => Vec::new(),
    };
    let mut sc = NodeFailureScenario::new(node, pods, s.int("lastHeartbeat")?.unwrap_or(0), sem);
    sc.heartbeat_resumes_at = s.int("heartbeatResumesAt")?;
    let defaults = NodeMonitorTiming::defaults(sem.version);
    sc.timing = NodeMonitorTiming {
        grace_period: s.int("gracePeriod")?.unwrap_or(defaults.grace_period),
        monitor_period: s.int("monitorPeriod")?.unwrap_or(defaults.monitor_period),
        monitor_phase: s.int("monitorPhase")?.unwrap_or(defaults.monitor_phase),
    };
    sc.tainter = match s.get("tainter") {
        None => NoExecuteTainterThrottle::Immediate,
        Some(V::Str(t)) if t == "immediate" => NoExecuteTainterThrottle::Immediate,
        Some(V::Str(t)) if t == "stopped" => NoExecuteTainterThrottle::Stopped,
        Some(v @ V::Obj(_)) => {
            let t = Obj::new(
                v,
                "scenario",
                &s.at("tainter"),
                "a tainter delay",
                &["after"],
                &[],
                false,
            )?;
            let after = t
                .int("after")?
                .ok_or_else(|| t.error("after", "missing-field", "is required (seconds)"))?;
            NoExecuteTainterThrottle::After(after)
        }
        Some(_) => {
            return Err(s.error(
                "tainter",
                "invalid-value",
                "must be \"immediate\", \"stopped\" or {after: seconds}",
            ));
        }
    };
    sc.default_toleration_seconds = match s.get("defaultTolerationSeconds") {
        None | Some(V::Bool(false)) => None,
        Some(V::Bool(true)) => Some(DefaultTolerationSeconds::default()),
        Some(v) => {
            let d = Obj::new(
                v,
                "scenario",
                &s.at("defaultTolerationSeconds"),
                "true, false or {notReady, unreachable}",
                &["notReady", "unreachable"],
                &[],
                false,
            )?;
            let base = DefaultTolerationSeconds::default();
            Some(DefaultTolerationSeconds {
                not_ready: d.int("notReady")?.unwrap_or(base.not_ready),
                unreachable: d.int("unreachable")?.unwrap_or(base.unreachable),
            })
        }
    };
    sc.until = s.int("until")?;
    let t = simulate_node_failure(&sc);
    let mut j = J::new();
    j.open()
        .s("node", &sc.node.name)
        .n("gracePeriod", t.grace_period)
        .n("monitorPeriod", t.monitor_period)
        .key("changes")
        .arr();
    for e in &t.node {
        change(&mut j, e.at, &e.change, &sc.node.name);
    }
    j.end()
        .on("readyUnknownAt", t.ready_unknown_at)
        .on("noExecuteTaintedAt", t.no_execute_tainted_at)
        .on("noExecuteRemovedAt", t.no_execute_removed_at)
        .key("finalTaints");
    write::taints(&mut j, &t.final_taints);
    j.key("pods").arr();
    for f in &t.pods {
        let (outcome, evicted, pending) = match f.outcome {
            PodOutcome::Evicted { at } => ("evicted", Some(at), None),
            PodOutcome::StaysBound => ("stays-bound", None, None),
            PodOutcome::PendingEviction { fire_at } => ("pending-eviction", None, Some(fire_at)),
        };
        j.open()
            .s("namespace", &f.pod.namespace)
            .s("name", &f.pod.name)
            .key("tolerations");
        write::tolerations(&mut j, &f.tolerations);
        j.on("timerArmedAt", f.first_scheduled.map(|(a, _)| a))
            .on("timerDueAt", f.first_scheduled.map(|(_, d)| d))
            .s("outcome", outcome)
            .on("evictedAt", evicted)
            .on("pendingEvictionAt", pending)
            .close();
    }
    let last = t
        .node
        .iter()
        .map(|e| e.at)
        .max()
        .unwrap_or(sc.last_heartbeat);
    j.end().key("eviction");
    simulation(&mut j, &t.eviction, sc.until, last);
    j.s("kubernetesVersion", &sem.version.to_string()).close();
    Ok(j.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::tests::{v, val};
    use serde_json::json;

    #[test]
    fn simple_timeline_evicts_after_toleration_seconds() {
        let sc = val(json!({
            "node": {"name": "n1", "taints": "node.kubernetes.io/unreachable:NoExecute"},
            "pods": [
                {"name": "web", "tolerations": [{"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}]},
                {"name": "batch"},
                {"name": "agent", "tolerations": [{"operator": "Exists"}]},
            ],
            "taintedAt": 60,
        }));
        let r = v(eviction_timeline(&sc, &V::Null));
        let pods = r["pods"].as_array().unwrap();
        let by = |name: &str| pods.iter().find(|p| p["name"] == name).unwrap().clone();
        assert_eq!(by("web")["evictedAt"], 360);
        assert_eq!(by("batch")["evictedAt"], 60);
        assert_eq!(by("agent")["evictedAt"], serde_json::Value::Null);
        assert_eq!(by("agent")["remains"], true);
        assert_eq!(r["end"], 360);
        assert!(
            r["events"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["message"] == "Marking for deletion Pod default/web")
        );
    }

    #[test]
    fn event_lists_with_add_and_remove_taint() {
        let sc = val(json!({"events": [
            {"at": 0, "type": "createNode", "node": {"name": "n1"}},
            {"at": 0, "type": "createPod", "pod": {"name": "web", "nodeName": "n1", "tolerations": [{"key": "k", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 100}]}},
            {"at": 10, "type": "addTaint", "node": "n1", "taint": "k:NoExecute"},
            {"at": 50, "type": "removeTaint", "node": "n1", "taint": "k:NoExecute"},
        ], "until": 500}));
        let r = v(eviction_timeline(&sc, &V::Null));
        let kinds: Vec<&str> = r["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["action"].as_str().unwrap())
            .collect();
        assert_eq!(kinds, ["schedule", "cancel"]);
        assert_eq!(r["actions"][0]["fireAt"], 110);
        assert_eq!(r["until"], 500);
        let bad = val(json!({"events": [{"at": 0, "type": "explode"}]}));
        let e = eviction_timeline(&bad, &V::Null).unwrap_err();
        assert_eq!(e.location.path, "scenario.events[0].type");
    }

    #[test]
    fn node_failure_uses_the_release_grace_period() {
        let sc = val(
            json!({"node": {"name": "n1"}, "pods": [{"name": "web"}], "defaultTolerationSeconds": true}),
        );
        let new = v(node_failure(&sc, &V::Null));
        assert_eq!(new["gracePeriod"], 50);
        assert_eq!(new["pods"][0]["outcome"], "evicted");
        let old = v(node_failure(
            &sc,
            &val(json!({"kubernetesVersion": "1.31"})),
        ));
        assert_eq!(old["gracePeriod"], 40);
        let diff = new["pods"][0]["evictedAt"].as_i64().unwrap()
            - old["pods"][0]["evictedAt"].as_i64().unwrap();
        assert_eq!(diff, 10);
        assert!(
            new["changes"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["change"] == "ready-unknown"
                    && c["event"]["message"] == "Node n1 status is now: NodeNotReady")
        );
    }
}
