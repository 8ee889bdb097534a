//! Tests of the node lifecycle module: the tainting passes, health timing, zone states
//! and the node-failure scenario.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use proptest::prelude::*;

use super::*;
use crate::eviction::PodKey;
use crate::model::{Node, Operator, Pod, Toleration};
use crate::version::Semantics;

fn cond(type_: &str, status: &str) -> NodeCondition {
    NodeCondition {
        type_: type_.into(),
        status: ConditionStatus::parse(status),
    }
}

fn ns(key: &str) -> Taint {
    taint_template(key, TaintEffect::NoSchedule)
}

fn ne(key: &str) -> Taint {
    taint_template(key, TaintEffect::NoExecute)
}

// ---------------------------------------------------------------- versions and messages

#[test]
fn grace_period_default_changed_in_1_32() {
    assert_eq!(
        default_node_monitor_grace_period(KubeVersion::new(31, 9)),
        40
    );
    assert_eq!(
        default_node_monitor_grace_period(KubeVersion::new(32, 0)),
        50
    );
    assert_eq!(
        NodeMonitorTiming::defaults(KubeVersion::new(30, 0)).grace_period,
        40
    );
    assert_eq!(NodeMonitorTiming::default().grace_period, 50);
    assert_eq!(NodeMonitorTiming::default().monitor_period, 5);
    assert_eq!(NODE_STARTUP_GRACE_PERIOD, 60);
}

#[test]
fn status_messages_are_byte_exact() {
    assert_eq!(NODE_STATUS_UNKNOWN_REASON, "NodeStatusUnknown");
    assert_eq!(
        NODE_STATUS_UNKNOWN_MESSAGE,
        "Kubelet stopped posting node status."
    );
    assert_eq!(
        NODE_STATUS_NEVER_UPDATED_MESSAGE,
        "Kubelet never posted node status."
    );
    assert_eq!(
        node_status_change_message("node1", NODE_NOT_READY_EVENT_REASON),
        "Node node1 status is now: NodeNotReady"
    );
}

// ---------------------------------------------------------------- NoSchedule pass

#[test]
fn no_schedule_pass_follows_condition_order_and_ignores_other_taints() {
    let pass = no_schedule_tainting_pass(
        &[
            cond("DiskPressure", "True"),
            cond("Ready", "False"),
            cond("MemoryPressure", "Unknown"),
            cond("Custom", "True"),
        ],
        true,
        &[ns("dedicated"), ne(keys::NOT_READY), ns(keys::PID_PRESSURE)],
    );
    assert_eq!(
        pass.desired,
        [
            ns(keys::DISK_PRESSURE),
            ns(keys::NOT_READY),
            ns(keys::UNSCHEDULABLE)
        ]
    );
    assert_eq!(pass.to_add, pass.desired);
    assert_eq!(pass.to_remove, [ns(keys::PID_PRESSURE)]);
    assert!(!pass.is_noop());
}

#[test]
fn no_schedule_pass_matches_by_key_and_effect_only() {
    let mut custom = ns(keys::UNREACHABLE);
    custom.value = "x".into();
    custom.time_added = Some("2024-01-01T00:00:00Z".into());
    let pass = no_schedule_tainting_pass(&[cond("Ready", "Unknown")], false, &[custom]);
    assert!(pass.is_noop());
    assert_eq!(pass.desired, [ns(keys::UNREACHABLE)]);
}

#[test]
fn no_schedule_pass_unusual_statuses_add_nothing() {
    let pass = no_schedule_tainting_pass(
        &[cond("Ready", "maybe"), cond("NetworkUnavailable", "False")],
        false,
        &[],
    );
    assert!(pass.desired.is_empty());
}

// ---------------------------------------------------------------- NoExecute decisions

#[test]
fn no_execute_tainting_queues_or_swaps() {
    let d = no_execute_tainting(&ConditionStatus::Unknown, &[ns(keys::UNREACHABLE)]);
    assert_eq!(d.immediate, None);
    assert_eq!(
        d.queued,
        Some(NoExecuteTaintUpdate {
            add: Some(ne(keys::UNREACHABLE)),
            remove: vec![ne(keys::NOT_READY)],
        })
    );
    assert!(!d.dequeue);

    let d = no_execute_tainting(&ConditionStatus::False, &[ne(keys::UNREACHABLE)]);
    assert_eq!(d.queued, None);
    assert_eq!(
        d.immediate,
        Some(NoExecuteTaintUpdate {
            add: Some(ne(keys::NOT_READY)),
            remove: vec![ne(keys::UNREACHABLE)],
        })
    );
}

#[test]
fn no_execute_tainting_on_ready_removes_present_taints_and_dequeues() {
    let d = no_execute_tainting(
        &ConditionStatus::True,
        &[
            ne(keys::NOT_READY),
            ns(keys::UNREACHABLE),
            ne(keys::UNREACHABLE),
        ],
    );
    assert_eq!(
        d.immediate,
        Some(NoExecuteTaintUpdate {
            add: None,
            remove: vec![ne(keys::UNREACHABLE), ne(keys::NOT_READY)],
        })
    );
    assert!(d.dequeue);
    let d = no_execute_tainting(&ConditionStatus::True, &[ns(keys::UNREACHABLE)]);
    assert_eq!(d.immediate, None);
    assert!(d.dequeue);
    let d = no_execute_tainting(&ConditionStatus::parse("weird"), &[ne(keys::UNREACHABLE)]);
    assert_eq!(d, NoExecuteTaintingDecision::default());
}

#[test]
fn tainter_skips_a_recovered_node() {
    assert_eq!(tainter_update(&ConditionStatus::True), None);
    assert_eq!(
        tainter_update(&ConditionStatus::False).and_then(|u| u.add),
        Some(ne(keys::NOT_READY))
    );
}

#[test]
fn apply_taint_update_replaces_in_place_appends_and_removes() {
    let existing = [ns("a"), ne(keys::NOT_READY), ns("b")];
    let out = apply_taint_update(
        &existing,
        &[ne(keys::UNREACHABLE), ns("a")],
        &[ne(keys::NOT_READY)],
        Some("2026-01-01T00:00:00Z"),
    );
    let stamped = |mut t: Taint| {
        t.time_added = Some("2026-01-01T00:00:00Z".into());
        t
    };
    assert_eq!(
        out,
        [stamped(ns("a")), ns("b"), stamped(ne(keys::UNREACHABLE))]
    );
}

// ---------------------------------------------------------------- health timing

#[test]
fn mark_unknown_sets_four_conditions_and_appends_missing_ones() {
    let (out, changes) = mark_node_status_unknown(&[
        cond("Ready", "True"),
        cond("NetworkUnavailable", "False"),
        cond("DiskPressure", "Unknown"),
        cond("MemoryPressure", "False"),
    ]);
    assert_eq!(
        out,
        [
            cond("Ready", "Unknown"),
            cond("NetworkUnavailable", "False"),
            cond("DiskPressure", "Unknown"),
            cond("MemoryPressure", "Unknown"),
            cond("PIDPressure", "Unknown"),
        ]
    );
    let summary: Vec<(&str, &str, bool)> = changes
        .iter()
        .map(|c| (c.type_, c.reason, c.appended))
        .collect();
    assert_eq!(
        summary,
        [
            ("Ready", NODE_STATUS_UNKNOWN_REASON, false),
            ("MemoryPressure", NODE_STATUS_UNKNOWN_REASON, false),
            ("PIDPressure", NODE_STATUS_NEVER_UPDATED_REASON, true),
        ]
    );
}

#[test]
fn monitor_passes_follow_the_phase() {
    let t = NodeMonitorTiming {
        grace_period: 50,
        monitor_period: 5,
        monitor_phase: 2,
    };
    assert_eq!(t.pass_at_or_after(2), 2);
    assert_eq!(t.pass_at_or_after(3), 7);
    assert_eq!(t.pass_after(2), 7);
    assert_eq!(t.pass_at_or_after(-4), -3);
    assert!(!t.grace_expired(50, 0), "strictly after probe + grace");
    assert!(t.grace_expired(51, 0));
    assert_eq!(t.ready_unknown_at(0), 52);
    let zero = NodeMonitorTiming {
        monitor_period: 0,
        ..t
    };
    assert_eq!(zero.period(), 1);
    assert_eq!(t.pass_after(i64::MAX), i64::MAX);
    assert_eq!(t.pass_at_or_after(i64::MAX - 1), i64::MAX);
    assert_eq!(
        t.pass_at_or_after(i64::MIN),
        i64::MIN,
        "i64::MIN - 2 is a multiple of 5"
    );
    assert_eq!(t.pass_at_or_after(i64::MIN + 1), i64::MIN + 5);
}

// ---------------------------------------------------------------- zones

#[test]
fn zone_states_and_rates() {
    assert_eq!(compute_zone_state(0, 1), ZoneState::FullDisruption);
    assert_eq!(compute_zone_state(0, 0), ZoneState::Normal);
    assert_eq!(
        compute_zone_state(1, 2),
        ZoneState::Normal,
        "needs more than 2 not ready"
    );
    assert_eq!(compute_zone_state(2, 3), ZoneState::PartialDisruption);
    assert_eq!(compute_zone_state(3, 3), ZoneState::Normal, "0.5 < 0.55");
    assert_eq!(
        zone_tainting_rate(ZoneState::Normal, 10, false),
        NODE_EVICTION_RATE
    );
    assert_eq!(
        zone_tainting_rate(ZoneState::PartialDisruption, 51, false),
        SECONDARY_NODE_EVICTION_RATE
    );
    assert_eq!(
        zone_tainting_rate(ZoneState::PartialDisruption, 50, false),
        0.0
    );
    assert_eq!(
        zone_tainting_rate(ZoneState::FullDisruption, 3, false),
        NODE_EVICTION_RATE
    );
    assert_eq!(zone_tainting_rate(ZoneState::FullDisruption, 3, true), 0.0);
}

// ---------------------------------------------------------------- default tolerations

#[test]
fn default_toleration_seconds_use_the_loose_covers_check() {
    let d = DefaultTolerationSeconds::default();
    let added = apply_default_toleration_seconds(&[], d);
    assert_eq!(
        added,
        [
            Toleration::new(
                keys::NOT_READY,
                Operator::Exists,
                "",
                TaintEffect::NoExecute
            )
            .with_seconds(Some(300)),
            Toleration::new(
                keys::UNREACHABLE,
                Operator::Exists,
                "",
                TaintEffect::NoExecute
            )
            .with_seconds(Some(300)),
        ]
    );
    // Equal "foo" matches no taint but still "covers" not-ready.
    let odd = [Toleration::new(
        keys::NOT_READY,
        Operator::Equal,
        "foo",
        TaintEffect::NoExecute,
    )];
    assert_eq!(apply_default_toleration_seconds(&odd, d).len(), 2);
    let all = [Toleration::new(
        "",
        Operator::Exists,
        "",
        TaintEffect::Empty,
    )];
    assert_eq!(apply_default_toleration_seconds(&all, d).len(), 1);
    let no_schedule = [Toleration::new(
        keys::NOT_READY,
        Operator::Exists,
        "",
        TaintEffect::NoSchedule,
    )];
    assert_eq!(apply_default_toleration_seconds(&no_schedule, d).len(), 3);
}

// ---------------------------------------------------------------- node failure scenario

fn node() -> Node {
    Node {
        name: "node1".into(),
        ..Node::default()
    }
}

fn pod(name: &str, tolerations: Vec<Toleration>) -> Pod {
    Pod {
        namespace: "default".into(),
        name: name.into(),
        tolerations,
        ..Pod::default()
    }
}

fn outcome(t: &NodeFailureTimeline, name: &str) -> PodOutcome {
    let key = PodKey::new("default", name);
    t.pods
        .iter()
        .find(|f| f.pod == key)
        .map(|f| f.outcome)
        .unwrap_or(PodOutcome::StaysBound)
}

fn changes(t: &NodeFailureTimeline) -> Vec<(i64, String)> {
    t.node
        .iter()
        .map(|e| {
            let what = match &e.change {
                NodeChange::LastHeartbeat => "heartbeat".into(),
                NodeChange::ReadyUnknown => "ready-unknown".into(),
                NodeChange::QueuedForNoExecuteTainting => "queued".into(),
                NodeChange::TaintAdded(t) => {
                    alloc::format!("+{}", crate::matching::taint_to_string(t))
                }
                NodeChange::TaintRemoved(t) => {
                    alloc::format!("-{}", crate::matching::taint_to_string(t))
                }
                NodeChange::HeartbeatResumed => "resumed".into(),
            };
            (e.at, what)
        })
        .collect()
}

fn defaults_scenario(pods: Vec<Pod>) -> NodeFailureScenario {
    let mut s = NodeFailureScenario::new(node(), pods, 0, Semantics::newest());
    s.default_toleration_seconds = Some(DefaultTolerationSeconds::default());
    s
}

#[test]
fn default_failure_evicts_after_about_six_minutes() {
    let forever = Toleration::new(
        keys::UNREACHABLE,
        Operator::Exists,
        "",
        TaintEffect::NoExecute,
    );
    let t = simulate_node_failure(&defaults_scenario(vec![
        pod("web", vec![]),
        pod("agent", vec![forever]),
    ]));
    let u = |k: &str| alloc::format!("+{k}:NoSchedule");
    assert_eq!(
        changes(&t),
        [
            (0, "heartbeat".into()),
            (55, "ready-unknown".into()),
            (55, u(keys::UNREACHABLE)),
            (60, "queued".into()),
            (60, alloc::format!("+{}:NoExecute", keys::UNREACHABLE)),
        ]
    );
    assert_eq!(t.ready_unknown_at, Some(55));
    assert_eq!(t.no_execute_tainted_at, Some(60));
    // 50 s grace + 5 s to the next pass + 5 s to the observing pass + 300 s.
    assert_eq!(outcome(&t, "web"), PodOutcome::Evicted { at: 360 });
    assert_eq!(t.pods[0].first_scheduled, Some((60, 360)));
    // The forever toleration "covers" unreachable, so only not-ready gets a default.
    assert_eq!(outcome(&t, "agent"), PodOutcome::StaysBound);
    assert_eq!(t.pods[1].tolerations.len(), 2);
    assert_eq!(
        t.final_taints,
        [ns(keys::UNREACHABLE), ne(keys::UNREACHABLE)]
    );
    assert_eq!(
        t.node[1].change.node_event("node1"),
        Some((
            "NodeNotReady",
            String::from("Node node1 status is now: NodeNotReady")
        ))
    );
}

#[test]
fn older_releases_use_a_40_second_grace() {
    let mut s = defaults_scenario(vec![pod("web", vec![])]);
    s.semantics = Semantics::at(KubeVersion::new(31, 0));
    s.timing = NodeMonitorTiming::defaults(s.semantics.version);
    let t = simulate_node_failure(&s);
    assert_eq!(t.ready_unknown_at, Some(45));
    assert_eq!(outcome(&t, "web"), PodOutcome::Evicted { at: 350 });
}

#[test]
fn pods_without_the_defaults_go_as_soon_as_the_taint_lands() {
    let s = NodeFailureScenario::new(node(), vec![pod("bare", vec![])], 0, Semantics::newest());
    let t = simulate_node_failure(&s);
    assert_eq!(outcome(&t, "bare"), PodOutcome::Evicted { at: 60 });
}

#[test]
fn recovery_before_the_grace_runs_out_changes_nothing() {
    let mut s = defaults_scenario(vec![pod("web", vec![])]);
    s.heartbeat_resumes_at = Some(55);
    let t = simulate_node_failure(&s);
    assert_eq!(
        changes(&t),
        [(0, "heartbeat".into()), (55, "resumed".into())]
    );
    assert_eq!(t.ready_unknown_at, None);
    assert_eq!(outcome(&t, "web"), PodOutcome::StaysBound);
}

#[test]
fn recovery_before_the_no_execute_pass_only_flips_the_no_schedule_taint() {
    let mut s = defaults_scenario(vec![pod("web", vec![])]);
    s.heartbeat_resumes_at = Some(60);
    let t = simulate_node_failure(&s);
    assert_eq!(t.no_execute_tainted_at, None);
    assert_eq!(t.final_taints, []);
    assert_eq!(outcome(&t, "web"), PodOutcome::StaysBound);
}

#[test]
fn recovery_removes_the_no_execute_taint_and_cancels_evictions() {
    let mut s = defaults_scenario(vec![
        pod("web", vec![]),
        pod(
            "short",
            vec![
                Toleration::new(
                    keys::UNREACHABLE,
                    Operator::Exists,
                    "",
                    TaintEffect::NoExecute,
                )
                .with_seconds(Some(10)),
            ],
        ),
    ]);
    s.heartbeat_resumes_at = Some(202);
    let t = simulate_node_failure(&s);
    // Status update at 202 drops NoSchedule; the pass at 205 drops NoExecute.
    assert_eq!(
        changes(&t)[5..],
        [
            (202, "resumed".into()),
            (202, alloc::format!("-{}:NoSchedule", keys::UNREACHABLE)),
            (205, alloc::format!("-{}:NoExecute", keys::UNREACHABLE)),
        ]
    );
    assert_eq!(t.no_execute_removed_at, Some(205));
    assert_eq!(outcome(&t, "web"), PodOutcome::StaysBound);
    assert_eq!(outcome(&t, "short"), PodOutcome::Evicted { at: 70 });
    assert_eq!(
        t.eviction
            .events
            .iter()
            .map(|e| t.eviction.event_message(e))
            .collect::<Vec<_>>(),
        [
            "Marking for deletion Pod default/short",
            "Cancelling deletion of Pod default/web"
        ]
    );
    assert_eq!(t.final_taints, []);
}

#[test]
fn throttled_and_stopped_tainters() {
    let mut s = defaults_scenario(vec![pod("web", vec![])]);
    s.tainter = NoExecuteTainterThrottle::After(30);
    let t = simulate_node_failure(&s);
    assert_eq!(t.no_execute_tainted_at, Some(90));
    assert_eq!(outcome(&t, "web"), PodOutcome::Evicted { at: 390 });

    // Recovery while waiting for a token: the tainter skips the node.
    s.heartbeat_resumes_at = Some(80);
    let t = simulate_node_failure(&s);
    assert_eq!(t.no_execute_tainted_at, None);
    assert_eq!(outcome(&t, "web"), PodOutcome::StaysBound);

    // Single-node cluster: every zone fully disrupted, tainting stops.
    s.heartbeat_resumes_at = None;
    s.tainter = NoExecuteTainterThrottle::Stopped;
    let t = simulate_node_failure(&s);
    assert_eq!(t.no_execute_tainted_at, None);
    assert_eq!(t.final_taints, [ns(keys::UNREACHABLE)]);
    assert_eq!(outcome(&t, "web"), PodOutcome::StaysBound);
}

#[test]
fn existing_not_ready_no_execute_is_swapped_without_rate_limit() {
    let mut n = node();
    n.taints = vec![ne(keys::NOT_READY)];
    let mut s = NodeFailureScenario::new(n, vec![], 0, Semantics::newest());
    s.tainter = NoExecuteTainterThrottle::Stopped;
    let t = simulate_node_failure(&s);
    assert_eq!(t.no_execute_tainted_at, Some(60));
    assert_eq!(
        t.final_taints,
        [ns(keys::UNREACHABLE), ne(keys::UNREACHABLE)]
    );
}

#[test]
fn pressure_taints_follow_their_conditions_through_the_failure() {
    let mut n = node();
    n.conditions = vec![cond("Ready", "True"), cond("MemoryPressure", "True")];
    n.taints = vec![ns(keys::MEMORY_PRESSURE), ns("dedicated")];
    n.unschedulable = true;
    let mut s = NodeFailureScenario::new(n, vec![], 0, Semantics::newest());
    s.heartbeat_resumes_at = Some(100);
    let t = simulate_node_failure(&s);
    let at_55: Vec<_> = changes(&t).into_iter().filter(|c| c.0 == 55).collect();
    // Memory pressure becomes Unknown (no taint); cordon adds `unschedulable`.
    assert_eq!(
        at_55,
        [
            (55, "ready-unknown".into()),
            (55, alloc::format!("+{}:NoSchedule", keys::UNREACHABLE)),
            (55, alloc::format!("+{}:NoSchedule", keys::UNSCHEDULABLE)),
            (55, alloc::format!("-{}:NoSchedule", keys::MEMORY_PRESSURE)),
        ]
    );
    assert_eq!(
        t.final_taints,
        [
            ns("dedicated"),
            ns(keys::UNSCHEDULABLE),
            ns(keys::MEMORY_PRESSURE)
        ]
    );
}

#[test]
fn a_finite_end_reports_pending_evictions() {
    let mut s = defaults_scenario(vec![pod("web", vec![])]);
    s.until = Some(200);
    let t = simulate_node_failure(&s);
    assert_eq!(
        outcome(&t, "web"),
        PodOutcome::PendingEviction { fire_at: 360 }
    );
}

proptest! {
    /// With the default timing and 300 s default tolerations, a pod is evicted between
    /// 355 and 360 s after the last heartbeat, whatever the heartbeat time and the
    /// monitor loop's phase: 50 s grace, ≤ 5 s to the next pass, 5 s to the observing
    /// pass, 300 s of toleration.
    #[test]
    fn default_end_to_end_window(h in -10_000i64..10_000, phase in 0i64..5) {
        let mut s = defaults_scenario(vec![pod("web", vec![])]);
        s.last_heartbeat = h;
        s.timing.monitor_phase = phase;
        let t = simulate_node_failure(&s);
        let PodOutcome::Evicted { at } = outcome(&t, "web") else {
            return Err(TestCaseError::fail("not evicted"));
        };
        prop_assert!(at - h > 355 && at - h <= 360, "evicted {} s after the heartbeat", at - h);
        prop_assert_eq!(t.no_execute_tainted_at.map(|n| at - n), Some(300));
    }

    /// Recovery at any time never evicts a pod with the defaults earlier than without
    /// recovery, and recovery before the NoExecute taint lands evicts nobody.
    #[test]
    fn recovery_only_helps(r in 1i64..1000, secs in prop::option::of(0i64..400)) {
        let tols = vec![
            Toleration::new(keys::UNREACHABLE, Operator::Exists, "", TaintEffect::NoExecute)
                .with_seconds(secs),
        ];
        let base = simulate_node_failure(&defaults_scenario(vec![pod("p", tols.clone())]));
        let mut s = defaults_scenario(vec![pod("p", tols)]);
        s.heartbeat_resumes_at = Some(r);
        let t = simulate_node_failure(&s);
        match (outcome(&base, "p"), outcome(&t, "p")) {
            (_, PodOutcome::StaysBound) => {}
            (PodOutcome::Evicted { at: a }, PodOutcome::Evicted { at: b }) => {
                prop_assert_eq!(a, b);
                prop_assert!(b <= r.max(60) + 5);
            }
            (a, b) => return Err(TestCaseError::fail(alloc::format!("{a:?} vs {b:?}"))),
        }
        if r <= 60 {
            prop_assert_eq!(outcome(&t, "p"), PodOutcome::StaysBound);
        }
    }
}
