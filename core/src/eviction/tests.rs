//! Tests of the eviction module: the pure functions, every rule of
//! `pkg/controller/tainteviction/taint_eviction.go` (`processPodOnNode`,
//! `getMinTolerationTime`) and its edge cases, the step API, and property tests.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use proptest::prelude::*;

use super::*;
use crate::model::{Operator, Pod, Taint, TaintEffect, Toleration, keys};
use crate::version::Semantics;

const NS: &str = "default";

fn taint(key: &str, effect: TaintEffect) -> Taint {
    Taint::new(key, "", effect)
}

fn ne(key: &str) -> Taint {
    taint(key, TaintEffect::NoExecute)
}

fn tol(key: &str, op: Operator, effect: TaintEffect, secs: Option<i64>) -> Toleration {
    Toleration::new(key, op, "", effect).with_seconds(secs)
}

fn exists_ne(key: &str, secs: Option<i64>) -> Toleration {
    tol(key, Operator::Exists, TaintEffect::NoExecute, secs)
}

fn pod_in(ns: &str, name: &str, node: &str, tolerations: Vec<Toleration>) -> Pod {
    Pod {
        namespace: ns.into(),
        name: name.into(),
        node_name: node.into(),
        tolerations,
        ..Pod::default()
    }
}

fn pod(name: &str, tolerations: Vec<Toleration>) -> Pod {
    pod_in(NS, name, "node1", tolerations)
}

fn create_node(at: i64, taints: Vec<Taint>) -> TimedEvent {
    TimedEvent::new(
        at,
        SimEvent::CreateNode {
            name: "node1".into(),
            taints,
        },
    )
}

fn set_taints(at: i64, taints: Vec<Taint>) -> TimedEvent {
    TimedEvent::new(
        at,
        SimEvent::UpdateNode {
            name: "node1".into(),
            taints,
        },
    )
}

fn create_pod(at: i64, p: Pod) -> TimedEvent {
    TimedEvent::new(at, SimEvent::CreatePod(p))
}

fn update_pod(at: i64, p: Pod) -> TimedEvent {
    TimedEvent::new(at, SimEvent::UpdatePod(p))
}

fn run(events: Vec<TimedEvent>, until: i64) -> SimulationResult {
    simulate(events, until, Semantics::newest())
}

/// `(t, "ns/name", kind)` for every action.
fn trace(r: &SimulationResult) -> Vec<(i64, String, ActionKind)> {
    r.actions
        .iter()
        .map(|a| {
            let key = r
                .pod_key(a.pod)
                .map(|k| alloc::format!("{k}"))
                .unwrap_or_default();
            (a.at, key, a.kind)
        })
        .collect()
}

/// `(t, message)` for every recorded event.
fn messages(r: &SimulationResult) -> Vec<(i64, String)> {
    r.events
        .iter()
        .map(|e| (e.at, r.event_message(e)))
        .collect()
}

fn act(at: i64, pod: &str, kind: ActionKind) -> (i64, String, ActionKind) {
    (at, alloc::format!("{NS}/{pod}"), kind)
}

fn schedule(fire_at: i64) -> ActionKind {
    ActionKind::Schedule { fire_at }
}

fn keep(fire_at: i64) -> ActionKind {
    ActionKind::Keep { fire_at }
}

// ---------------------------------------------------------------- pure functions

#[test]
fn matching_uses_first_toleration_in_pod_order_per_taint() {
    let taints = [ne("a"), ne("b")];
    let tols = [
        exists_ne("b", Some(20)),
        tol("", Operator::Exists, TaintEffect::Empty, Some(5)),
        exists_ne("a", Some(1)),
    ];
    let used = get_matching_tolerations(&taints, &tols, false).unwrap_or_default();
    // `a` is first tolerated by the catch-all, not by the later, shorter `a` toleration.
    assert_eq!(used, [&tols[1], &tols[0]]);
    assert_eq!(get_min_toleration_time(used), 5);
}

#[test]
fn matching_edge_cases() {
    let tols = [exists_ne("a", None)];
    assert_eq!(get_matching_tolerations(&[], &tols, false), Some(vec![]));
    assert_eq!(get_matching_tolerations(&[ne("a")], &[], false), None);
    assert_eq!(
        get_matching_tolerations(&[ne("a"), ne("b")], &tols, false),
        None
    );
    let both = get_matching_tolerations(&[ne("a"), ne("a")], &tols, false);
    assert_eq!(both, Some(vec![&tols[0], &tols[0]]));
}

#[test]
fn matching_respects_the_comparison_gate() {
    let t = [Taint::new("sla", "800", TaintEffect::NoExecute)];
    let tols = [Toleration::new(
        "sla",
        Operator::Gt,
        "750",
        TaintEffect::NoExecute,
    )];
    assert_eq!(get_matching_tolerations(&t, &tols, false), None);
    assert_eq!(
        get_matching_tolerations(&t, &tols, true),
        Some(vec![&tols[0]])
    );
}

#[test]
fn min_toleration_time_rules() {
    let s = |v: i64| exists_ne("k", Some(v));
    let forever = exists_ne("k", None);
    assert_eq!(
        get_min_toleration_time(&[]),
        0,
        "empty used list is 0, not forever"
    );
    assert_eq!(
        get_min_toleration_time(core::slice::from_ref(&forever)),
        FOREVER
    );
    assert_eq!(get_min_toleration_time(&[forever.clone(), s(7), s(3)]), 3);
    assert_eq!(
        get_min_toleration_time(&[s(1), s(0)]),
        0,
        "<= 0 short-circuits"
    );
    assert_eq!(get_min_toleration_time(&[forever, s(-5), s(2)]), 0);
    // Upstream quirk: i64::MAX is the "none seen" sentinel.
    assert_eq!(get_min_toleration_time(&[s(i64::MAX)]), FOREVER);
    assert_eq!(get_min_toleration_time(&[s(i64::MAX - 1)]), i64::MAX - 1);
}

#[test]
fn delay_conversion_wraps_like_go_durations() {
    assert_eq!(toleration_delay(FOREVER), EvictionDelay::Forever);
    assert_eq!(toleration_delay(0), EvictionDelay::Immediate);
    assert_eq!(toleration_delay(300), EvictionDelay::After { seconds: 300 });
    let largest = i64::MAX / 1_000_000_000;
    assert_eq!(
        toleration_delay(largest),
        EvictionDelay::After { seconds: largest }
    );
    // One more second overflows the int64 nanoseconds into a negative duration.
    assert_eq!(toleration_delay(largest + 1), EvictionDelay::Forever);
    // 2^55 s * 10^9 = 2^64 * 1953125: wraps to exactly zero, an immediate deletion.
    assert_eq!(toleration_delay(1 << 55), EvictionDelay::Immediate);
}

#[test]
fn verdict_summarises_a_fresh_pod() {
    let tols = [exists_ne("a", Some(30))];
    assert_eq!(
        no_execute_verdict(&[taint("a", TaintEffect::NoSchedule)], &tols, false),
        NoExecuteVerdict::NotAffected
    );
    assert_eq!(
        no_execute_verdict(&[ne("a")], &tols, false),
        NoExecuteVerdict::Tolerated(EvictionDelay::After { seconds: 30 })
    );
    assert_eq!(
        no_execute_verdict(&[ne("b")], &tols, false),
        NoExecuteVerdict::Untolerated
    );
}

// ---------------------------------------------------------------- taint_eviction.go rules

#[test]
fn rule1_only_no_execute_taints_matter() {
    let r = run(
        vec![
            create_node(0, vec![]),
            create_pod(0, pod("p", vec![])),
            set_taints(10, vec![taint("a", TaintEffect::NoSchedule)]),
            set_taints(20, vec![taint("a", TaintEffect::PreferNoSchedule)]),
        ],
        100,
    );
    assert!(r.actions.is_empty());
    assert_eq!(r.remaining_pods.len(), 1);

    // A NoSchedule-only change does not even wake the controller: no `keep` is logged.
    let r = run(
        vec![
            create_node(0, vec![ne("k")]),
            create_pod(0, pod("p", vec![exists_ne("k", Some(100))])),
            set_taints(10, vec![ne("k"), taint("x", TaintEffect::NoSchedule)]),
        ],
        50,
    );
    assert_eq!(trace(&r), [act(0, "p", schedule(100))]);
}

#[test]
fn rule2_untolerated_deletes_at_observation_cancel_first() {
    let r = run(
        vec![
            create_node(0, vec![ne("a")]),
            create_pod(0, pod("p", vec![exists_ne("a", Some(100))])),
            set_taints(30, vec![ne("a"), ne("b")]),
        ],
        1000,
    );
    assert_eq!(
        trace(&r),
        [
            act(0, "p", schedule(100)),
            act(30, "p", ActionKind::Cancel),
            act(30, "p", ActionKind::Evict)
        ]
    );
    assert_eq!(
        messages(&r),
        [
            (30, "Cancelling deletion of Pod default/p".into()),
            (30, "Marking for deletion Pod default/p".into())
        ]
    );
    assert!(r.remaining_pods.is_empty());
}

#[test]
fn rule3_lengthening_does_not_move_the_timer() {
    let r = run(
        vec![
            create_node(0, vec![ne("k")]),
            create_pod(0, pod("p", vec![exists_ne("k", Some(10))])),
            update_pod(5, pod("p", vec![exists_ne("k", Some(1000))])),
        ],
        2000,
    );
    assert_eq!(
        trace(&r),
        [
            act(0, "p", schedule(10)),
            act(5, "p", keep(10)),
            act(10, "p", ActionKind::Evict)
        ]
    );
}

#[test]
fn rule3_shortening_does_not_move_the_timer() {
    let r = run(
        vec![
            create_node(0, vec![ne("k")]),
            create_pod(0, pod("p", vec![exists_ne("k", Some(300))])),
            update_pod(10, pod("p", vec![exists_ne("k", Some(20))])),
        ],
        1000,
    );
    assert_eq!(r.eviction_time(&PodKey::new(NS, "p")), Some(300));
}

#[test]
fn rule3_zero_second_taint_keeps_the_old_timer() {
    let tols = vec![exists_ne("a", Some(300)), exists_ne("b", Some(0))];
    let r = run(
        vec![
            create_node(0, vec![ne("a")]),
            create_pod(0, pod("p", tols)),
            set_taints(10, vec![ne("a"), ne("b")]),
        ],
        1000,
    );
    assert_eq!(
        trace(&r),
        [
            act(0, "p", schedule(300)),
            act(10, "p", keep(300)),
            act(300, "p", ActionKind::Evict)
        ]
    );
}

#[test]
fn rule3_not_ready_unreachable_swap_keeps_the_clock() {
    let tols = vec![
        exists_ne(keys::NOT_READY, Some(300)),
        exists_ne(keys::UNREACHABLE, Some(300)),
    ];
    let r = run(
        vec![
            create_node(0, vec![]),
            create_pod(0, pod("p", tols)),
            set_taints(10, vec![ne(keys::NOT_READY)]),
            set_taints(200, vec![ne(keys::UNREACHABLE)]),
        ],
        1000,
    );
    assert_eq!(
        trace(&r),
        [
            act(10, "p", schedule(310)),
            act(200, "p", keep(310)),
            act(310, "p", ActionKind::Evict)
        ]
    );
}

#[test]
fn rule3_keep_rule_holds_within_one_second() {
    // Same second, later event: the timer is older, so it is kept.
    let r = run(
        vec![
            create_node(0, vec![ne("k")]),
            create_pod(5, pod("p", vec![exists_ne("k", Some(300))])),
            update_pod(5, pod("p", vec![exists_ne("k", Some(1))])),
        ],
        1000,
    );
    assert_eq!(
        trace(&r)[..2],
        [act(5, "p", schedule(305)), act(5, "p", keep(305))]
    );
}

#[test]
fn rule4_cancel_when_all_no_execute_taints_disappear() {
    let r = run(
        vec![
            create_node(0, vec![ne("k"), taint("s", TaintEffect::NoSchedule)]),
            create_pod(0, pod("p", vec![exists_ne("k", Some(100))])),
            set_taints(50, vec![taint("s", TaintEffect::NoSchedule)]),
        ],
        1000,
    );
    assert_eq!(
        trace(&r),
        [act(0, "p", schedule(100)), act(50, "p", ActionKind::Cancel)]
    );
    assert_eq!(
        messages(&r),
        [(50, "Cancelling deletion of Pod default/p".into())]
    );
    assert_eq!(r.remaining_pods.len(), 1);
}

#[test]
fn rule4_cancel_when_the_minimum_becomes_infinite() {
    // The timed taint goes away while a forever-tolerated one stays.
    let tols = vec![exists_ne("a", None), exists_ne("b", Some(30))];
    let r = run(
        vec![
            create_node(0, vec![ne("a"), ne("b")]),
            create_pod(0, pod("p", tols.clone())),
            set_taints(10, vec![ne("a")]),
        ],
        1000,
    );
    assert_eq!(
        trace(&r),
        [act(0, "p", schedule(30)), act(10, "p", ActionKind::Cancel)]
    );

    // A forever toleration inserted *before* the timed one.
    let forever_first = vec![
        tol("b", Operator::Exists, TaintEffect::Empty, None),
        exists_ne("b", Some(30)),
    ];
    let r = run(
        vec![
            create_node(0, vec![ne("b")]),
            create_pod(0, pod("p", vec![exists_ne("b", Some(30))])),
            update_pod(10, pod("p", forever_first)),
        ],
        1000,
    );
    assert_eq!(
        trace(&r),
        [act(0, "p", schedule(30)), act(10, "p", ActionKind::Cancel)]
    );
}

#[test]
fn rule4_cancel_when_the_pod_is_deleted() {
    let r = run(
        vec![
            create_node(0, vec![ne("k")]),
            create_pod(0, pod("p", vec![exists_ne("k", Some(60))])),
            TimedEvent::new(10, SimEvent::DeletePod(PodKey::new(NS, "p"))),
        ],
        1000,
    );
    assert_eq!(
        trace(&r),
        [act(0, "p", schedule(60)), act(10, "p", ActionKind::Cancel)]
    );
    assert_eq!(
        messages(&r),
        [(10, "Cancelling deletion of Pod default/p".into())]
    );
    assert!(r.remaining_pods.is_empty());
}

#[test]
fn rule5_re_adding_after_cancel_starts_a_fresh_clock() {
    let r = run(
        vec![
            create_node(0, vec![ne("k")]),
            create_pod(0, pod("p", vec![exists_ne("k", Some(100))])),
            set_taints(50, vec![]),
            set_taints(70, vec![ne("k")]),
        ],
        1000,
    );
    assert_eq!(r.eviction_time(&PodKey::new(NS, "p")), Some(170));
}

#[test]
fn rule6_node_deletion_does_not_cancel() {
    let r = run(
        vec![
            create_node(0, vec![ne("k")]),
            create_pod(0, pod("p", vec![exists_ne("k", Some(100))])),
            TimedEvent::new(
                10,
                SimEvent::DeleteNode {
                    name: "node1".into(),
                },
            ),
            // The node has left taintedNodes: a pod update leaves the timer alone.
            update_pod(20, pod("p", vec![exists_ne("k", None)])),
        ],
        1000,
    );
    assert_eq!(
        trace(&r),
        [act(0, "p", schedule(100)), act(100, "p", ActionKind::Evict)]
    );
    assert_eq!(
        messages(&r),
        [(100, "Marking for deletion Pod default/p".into())]
    );
}

#[test]
fn rule7_non_positive_seconds_without_a_timer_delete_at_once() {
    for secs in [0, -5] {
        let r = run(
            vec![
                create_node(0, vec![]),
                create_pod(0, pod("p", vec![exists_ne("k", Some(secs))])),
                set_taints(10, vec![ne("k")]),
            ],
            1000,
        );
        assert_eq!(
            trace(&r),
            [act(10, "p", ActionKind::Evict)],
            "seconds {secs}"
        );
    }
}

#[test]
fn rule8_pods_arriving_on_a_tainted_node_get_their_own_clock() {
    let tols = vec![exists_ne("k", Some(100))];
    let r = run(
        vec![
            create_node(0, vec![ne("k")]),
            create_pod(0, pod("early", tols.clone())),
            create_pod(40, pod("late", tols.clone())),
            // Created unbound, then scheduled onto the node.
            create_pod(50, pod_in(NS, "bound", "", tols.clone())),
            update_pod(60, pod("bound", tols)),
        ],
        1000,
    );
    assert_eq!(r.eviction_time(&PodKey::new(NS, "early")), Some(100));
    assert_eq!(r.eviction_time(&PodKey::new(NS, "late")), Some(140));
    assert_eq!(r.eviction_time(&PodKey::new(NS, "bound")), Some(160));
}

#[test]
fn rule9_evicted_pods_leave_the_simulation() {
    let r = run(
        vec![
            create_node(0, vec![ne("k")]),
            create_pod(0, pod("p", vec![])),
            set_taints(10, vec![ne("k"), ne("other")]),
        ],
        100,
    );
    // Evicted once at creation; the later taint change finds no pod.
    assert_eq!(trace(&r), [act(0, "p", ActionKind::Evict)]);
    assert!(r.remaining_pods.is_empty());
}

#[test]
fn rule10_timers_fire_before_events_of_the_same_second() {
    let r = run(
        vec![
            create_node(0, vec![ne("k")]),
            create_pod(0, pod("p", vec![exists_ne("k", Some(100))])),
            set_taints(100, vec![]),
        ],
        1000,
    );
    assert_eq!(
        trace(&r),
        [act(0, "p", schedule(100)), act(100, "p", ActionKind::Evict)]
    );
}

// ---------------------------------------------------------------- edge cases

#[test]
fn edge_time_added_is_not_the_start_of_the_clock() {
    let mut t = ne("k");
    t.time_added = Some("2020-01-01T00:00:00Z".into());
    let r = run(
        vec![
            create_node(0, vec![]),
            create_pod(0, pod("p", vec![exists_ne("k", Some(300))])),
            set_taints(100, vec![t]),
        ],
        1000,
    );
    assert_eq!(r.eviction_time(&PodKey::new(NS, "p")), Some(400));
}

#[test]
fn edge_first_match_per_taint_not_minimum_over_all() {
    let forever_first = vec![
        tol("", Operator::Exists, TaintEffect::Empty, None),
        exists_ne("k", Some(60)),
    ];
    let mut timed_first = forever_first.clone();
    timed_first.reverse();
    let r = run(
        vec![
            create_node(0, vec![ne("k")]),
            create_pod(0, pod("forever", forever_first)),
            create_pod(0, pod("timed", timed_first)),
        ],
        1000,
    );
    assert_eq!(
        trace(&r),
        [
            act(0, "timed", schedule(60)),
            act(60, "timed", ActionKind::Evict)
        ]
    );
    assert_eq!(r.remaining_pods.len(), 1);
}

#[test]
fn edge_marking_event_at_fire_time_only() {
    let mut sim = EvictionSimulator::new(Semantics::newest());
    sim.apply(create_node(0, vec![ne("k")])).unwrap_or(());
    sim.apply(create_pod(0, pod("p", vec![exists_ne("k", Some(30))])))
        .unwrap_or(());
    assert!(sim.events().is_empty(), "no event when the timer is armed");
    sim.advance_to(29);
    assert!(sim.events().is_empty());
    sim.advance_to(30);
    assert_eq!(sim.events().len(), 1);
    assert_eq!(sim.events()[0].kind, EventKind::MarkingForDeletion);
}

#[test]
fn edge_no_cancelling_event_without_a_pending_timer() {
    let r = run(
        vec![
            create_node(0, vec![ne("k")]),
            create_pod(0, pod("p", vec![exists_ne("k", None)])),
            set_taints(10, vec![]),
            TimedEvent::new(20, SimEvent::DeletePod(PodKey::new(NS, "p"))),
        ],
        100,
    );
    assert!(r.actions.is_empty());
    assert!(r.events.is_empty());
}

#[test]
fn edge_huge_toleration_seconds_follow_go_overflow() {
    let r = run(
        vec![
            create_node(0, vec![ne("k")]),
            create_pod(0, pod("max", vec![exists_ne("k", Some(i64::MAX))])),
            create_pod(0, pod("wraps", vec![exists_ne("k", Some(10_000_000_000))])),
            create_pod(0, pod("zero", vec![exists_ne("k", Some(1 << 55))])),
        ],
        i64::MAX,
    );
    assert_eq!(trace(&r), [act(0, "zero", ActionKind::Evict)]);
    assert_eq!(r.remaining_pods.len(), 2);
}

// ---------------------------------------------------------------- intake, multi-node

#[test]
fn pod_update_without_relevant_change_is_ignored() {
    let p = pod("p", vec![exists_ne("k", Some(100))]);
    let mut relabelled = p.clone();
    relabelled.preemption_policy = crate::model::PreemptionPolicy::Never;
    let r = run(
        vec![
            create_node(0, vec![ne("k")]),
            create_pod(0, p),
            update_pod(10, relabelled),
        ],
        50,
    );
    assert_eq!(trace(&r), [act(0, "p", schedule(100))]);
}

#[test]
fn identical_node_update_is_ignored_but_value_or_order_change_is_not() {
    let tols = vec![exists_ne("a", Some(100)), exists_ne("b", Some(100))];
    let r = run(
        vec![
            create_node(0, vec![ne("a"), ne("b")]),
            create_pod(0, pod("p", tols)),
            set_taints(10, vec![ne("a"), ne("b")]),
            set_taints(20, vec![ne("b"), ne("a")]),
        ],
        50,
    );
    assert_eq!(
        trace(&r),
        [act(0, "p", schedule(100)), act(20, "p", keep(100))]
    );
}

#[test]
fn nodes_and_namespaces_are_independent() {
    let on =
        |ns: &str, name: &str, node: &str| pod_in(ns, name, node, vec![exists_ne("k", Some(10))]);
    let r = run(
        vec![
            TimedEvent::new(
                0,
                SimEvent::CreateNode {
                    name: "a".into(),
                    taints: vec![],
                },
            ),
            TimedEvent::new(
                0,
                SimEvent::CreateNode {
                    name: "b".into(),
                    taints: vec![],
                },
            ),
            create_pod(0, on("ns1", "web", "a")),
            create_pod(0, on("ns2", "web", "a")),
            create_pod(0, on("ns1", "db", "b")),
            TimedEvent::new(
                5,
                SimEvent::UpdateNode {
                    name: "a".into(),
                    taints: vec![ne("k")],
                },
            ),
        ],
        100,
    );
    assert_eq!(
        messages(&r),
        [
            (15, "Marking for deletion Pod ns1/web".into()),
            (15, "Marking for deletion Pod ns2/web".into())
        ]
    );
    let remaining: Vec<_> = r
        .remaining_pods
        .iter()
        .filter_map(|&id| r.pod_key(id))
        .collect();
    assert_eq!(remaining, [&PodKey::new("ns1", "db")]);
}

#[test]
fn moving_a_pod_to_another_node_updates_the_index() {
    let p = |node: &str| pod_in(NS, "p", node, vec![]);
    let r = run(
        vec![
            TimedEvent::new(
                0,
                SimEvent::CreateNode {
                    name: "a".into(),
                    taints: vec![],
                },
            ),
            TimedEvent::new(
                0,
                SimEvent::CreateNode {
                    name: "b".into(),
                    taints: vec![],
                },
            ),
            create_pod(0, p("a")),
            update_pod(5, p("b")),
            TimedEvent::new(
                10,
                SimEvent::UpdateNode {
                    name: "a".into(),
                    taints: vec![ne("k")],
                },
            ),
            TimedEvent::new(
                20,
                SimEvent::UpdateNode {
                    name: "b".into(),
                    taints: vec![ne("k")],
                },
            ),
        ],
        100,
    );
    assert_eq!(trace(&r), [act(20, "p", ActionKind::Evict)]);
}

#[test]
fn pending_evictions_after_the_end_and_events_after_it_are_ignored() {
    let r = run(
        vec![
            set_taints(200, vec![]),
            create_node(0, vec![ne("k")]),
            create_pod(0, pod("p", vec![exists_ne("k", Some(300))])),
        ],
        100,
    );
    assert_eq!(r.pending_evictions.len(), 1);
    assert_eq!(r.pending_evictions[0].fire_at, 300);
    assert_eq!(trace(&r), [act(0, "p", schedule(300))]);
}

#[test]
fn step_api_refuses_the_past_and_reports_state() {
    let mut sim = EvictionSimulator::new(Semantics::newest());
    assert_eq!(sim.now(), i64::MIN);
    assert!(sim.apply(create_node(10, vec![ne("k")])).is_ok());
    assert!(
        sim.apply(create_pod(10, pod("p", vec![exists_ne("k", Some(5))])))
            .is_ok()
    );
    let err = sim.apply(set_taints(9, vec![]));
    assert_eq!(err, Err(OutOfOrderEvent { at: 9, clock: 10 }));
    assert_eq!(sim.next_timer(), Some(15));
    let key = PodKey::new(NS, "p");
    assert_eq!(sim.pending_eviction(&key), Some(15));
    assert!(sim.pod_exists(&key));
    assert_eq!(sim.tainted_nodes(), [("node1", &[ne("k")][..])]);
    let mid = sim.snapshot();
    assert_eq!(mid.pending_evictions.len(), 1);
    let end = sim.finish(20);
    assert_eq!(end.eviction_time(&key), Some(15));
    assert_eq!(end.actions.len(), 2);
}

// ---------------------------------------------------------------- properties

fn tol_pool() -> impl Strategy<Value = Toleration> {
    let key = prop::sample::select(vec!["", "k", "a", keys::NOT_READY, keys::UNREACHABLE]);
    let op = prop::sample::select(vec![
        Operator::Exists,
        Operator::Equal,
        Operator::Empty,
        Operator::Gt,
    ]);
    let value = prop::sample::select(vec!["", "v", "700"]);
    let effect = prop::sample::select(vec![
        TaintEffect::NoExecute,
        TaintEffect::Empty,
        TaintEffect::NoSchedule,
    ]);
    let secs = prop_oneof![Just(None), (-10i64..=600).prop_map(Some)];
    (key, op, value, effect, secs)
        .prop_map(|(k, o, v, e, s)| Toleration::new(k, o, v, e).with_seconds(s))
}

fn taint_pool() -> impl Strategy<Value = Taint> {
    let key = prop::sample::select(vec!["k", "a", keys::NOT_READY, keys::UNREACHABLE]);
    let value = prop::sample::select(vec!["", "v", "800"]);
    let effect = prop::sample::select(vec![
        TaintEffect::NoExecute,
        TaintEffect::NoExecute,
        TaintEffect::NoSchedule,
    ]);
    (key, value, effect).prop_map(|(k, v, e)| Taint::new(k, v, e))
}

fn event_pool() -> impl Strategy<Value = (i64, SimEvent)> {
    let node = prop::sample::select(vec!["n1", "n2"]);
    let ns = prop::sample::select(vec!["x", "y"]);
    let name = prop::sample::select(vec!["p1", "p2", "p3"]);
    let pod_node = prop::sample::select(vec!["n1", "n2", ""]);
    let pod = (
        ns.clone(),
        name.clone(),
        pod_node,
        prop::collection::vec(tol_pool(), 0..4),
    )
        .prop_map(|(ns, name, node, tols)| pod_in(ns, name, node, tols))
        .boxed();
    let event = prop_oneof![
        (node.clone(), prop::collection::vec(taint_pool(), 0..3)).prop_map(|(n, t)| {
            SimEvent::CreateNode {
                name: n.into(),
                taints: t,
            }
        }),
        (node.clone(), prop::collection::vec(taint_pool(), 0..3)).prop_map(|(n, t)| {
            SimEvent::UpdateNode {
                name: n.into(),
                taints: t,
            }
        }),
        node.prop_map(|n| SimEvent::DeleteNode { name: n.into() }),
        pod.clone().prop_map(SimEvent::CreatePod),
        pod.prop_map(SimEvent::UpdatePod),
        (ns, name).prop_map(|(ns, n)| SimEvent::DeletePod(PodKey::new(ns, n))),
    ];
    (0i64..40, event)
}

/// Events with non-decreasing times (gaps of 0..40 s).
fn timeline() -> impl Strategy<Value = Vec<TimedEvent>> {
    prop::collection::vec(event_pool(), 0..30).prop_map(|evs| {
        let mut t = 0;
        evs.into_iter()
            .map(|(gap, e)| {
                t += gap;
                TimedEvent::new(t, e)
            })
            .collect()
    })
}

proptest! {
    /// Law: a single NoExecute taint added at `t0` and never removed evicts a pod at
    /// `t0 + max(0, s)`, where `s` is the seconds of the first toleration (pod order) that
    /// tolerates it; at `t0` when none does; never when that toleration has no seconds.
    #[test]
    fn single_taint_law(
        t0 in 1i64..1000,
        taint in taint_pool().prop_filter("NoExecute", |t| t.effect == TaintEffect::NoExecute),
        pods in prop::collection::vec(prop::collection::vec(tol_pool(), 0..4), 1..6),
        gate in any::<bool>(),
    ) {
        let semantics = Semantics::newest().with_comparison_operators(gate);
        let mut events = vec![create_node(0, vec![])];
        for (i, tols) in pods.iter().enumerate() {
            events.push(create_pod(0, pod(&alloc::format!("p{i}"), tols.clone())));
        }
        events.push(set_taints(t0, vec![taint.clone()]));
        let r = simulate(events, i64::MAX, semantics);
        for (i, tols) in pods.iter().enumerate() {
            let key = PodKey::new(NS, &alloc::format!("p{i}"));
            let first = tols.iter().find(|t| crate::matching::tolerates(t, &taint, gate));
            let expected = match first {
                None => Some(t0),
                Some(t) => t.toleration_seconds.map(|s| t0 + s.max(0)),
            };
            prop_assert_eq!(r.eviction_time(&key), expected, "pod {} tolerations {:?}", i, tols);
        }
    }

    /// Law (keep rule): once the timer is armed at `t0` for `s0 >= 1` seconds, pod updates
    /// before it fires that keep the used toleration finite (any value, even <= 0) do not
    /// move it: eviction happens at exactly `t0 + s0`.
    #[test]
    fn keep_rule_law(
        t0 in 0i64..100,
        s0 in 1i64..500,
        updates in prop::collection::vec((0.0f64..1.0, -50i64..1000), 0..5),
    ) {
        let mut events = vec![
            create_node(0, vec![]),
            create_pod(0, pod("p", vec![exists_ne("k", Some(s0))])),
            set_taints(t0, vec![ne("k")]),
        ];
        let mut offsets: Vec<(i64, i64)> = updates
            .iter()
            .map(|&(f, s)| ((f * (s0 as f64)) as i64, s))
            .collect();
        offsets.sort();
        for (off, s) in offsets {
            events.push(update_pod(t0 + off, pod("p", vec![exists_ne("k", Some(s))])));
        }
        let r = run(events, i64::MAX);
        prop_assert_eq!(r.eviction_time(&PodKey::new(NS, "p")), Some(t0 + s0));
    }

    /// The simulator is deterministic, the step API agrees with the batch API, and the
    /// timer log is consistent: a timer is armed only when none is pending, for exactly
    /// the minimum toleration time of the pod's current tolerations against its node's
    /// current NoExecute taints; `keep` names the pending timer; `cancel` needs a pending
    /// timer; a timer-driven eviction happens exactly at its fire time; every cancel and
    /// eviction records its event.
    #[test]
    fn simulator_invariants(events in timeline(), gate in any::<bool>()) {
        let semantics = Semantics::newest().with_comparison_operators(gate);
        let until = 2000;
        let a = simulate(events.clone(), until, semantics);
        let b = simulate(events.clone(), until, semantics);
        prop_assert_eq!(&a, &b);

        // Replay step by step alongside a naive model of the world.
        let mut sim = EvictionSimulator::new(semantics);
        let mut node_taints: BTreeMap<String, Vec<Taint>> = BTreeMap::new();
        let mut pods: BTreeMap<PodKey, Pod> = BTreeMap::new();
        let mut pending: BTreeMap<PodId, i64> = BTreeMap::new();
        let mut seen = 0;
        for e in events.clone() {
            let at = e.at;
            match &e.event {
                SimEvent::CreateNode { name, taints } | SimEvent::UpdateNode { name, taints } => {
                    node_taints.insert(name.clone(), no_execute_taints(taints));
                }
                SimEvent::DeleteNode { name } => { node_taints.remove(name); }
                SimEvent::CreatePod(p) | SimEvent::UpdatePod(p) => {
                    pods.insert(PodKey::new(&p.namespace, &p.name), p.clone());
                }
                SimEvent::DeletePod(k) => { pods.remove(k); }
            }
            prop_assert!(sim.apply(e).is_ok());
            for act in &sim.actions()[seen..] {
                let key = sim.pod_key(act.pod).cloned().unwrap_or_default();
                match act.kind {
                    ActionKind::Schedule { fire_at } => {
                        prop_assert!(!pending.contains_key(&act.pod), "armed twice");
                        prop_assert_eq!(act.at, at, "timers are armed by events only");
                        let p = pods.get(&key);
                        prop_assert!(p.is_some());
                        let p = p.cloned().unwrap_or_default();
                        let taints = node_taints.get(&p.node_name).cloned().unwrap_or_default();
                        let used = get_matching_tolerations(&taints, &p.tolerations, gate);
                        prop_assert!(used.is_some());
                        let m = get_min_toleration_time(used.unwrap_or_default());
                        prop_assert!(m >= 1);
                        prop_assert_eq!(fire_at, at + m);
                        pending.insert(act.pod, fire_at);
                    }
                    ActionKind::Keep { fire_at } => {
                        prop_assert_eq!(pending.get(&act.pod), Some(&fire_at));
                    }
                    ActionKind::Cancel => {
                        prop_assert!(pending.remove(&act.pod).is_some());
                    }
                    ActionKind::Evict => {
                        if let Some(f) = pending.remove(&act.pod) {
                            prop_assert_eq!(f, act.at, "a pending timer only ends by firing");
                        } else {
                            prop_assert_eq!(act.at, at, "immediate evictions happen at events");
                        }
                        pods.remove(&key);
                    }
                }
            }
            seen = sim.actions().len();
        }
        let stepped = sim.finish(until);
        prop_assert_eq!(&stepped, &a);

        let count = |k: ActionKind| a.actions.iter().filter(|x| x.kind == k).count();
        let marks = a.events.iter().filter(|e| e.kind == EventKind::MarkingForDeletion).count();
        let cancels = a.events.iter().filter(|e| e.kind == EventKind::CancellingDeletion).count();
        prop_assert_eq!(marks, count(ActionKind::Evict));
        prop_assert_eq!(cancels, count(ActionKind::Cancel));
        prop_assert!(a.actions.windows(2).all(|w| w[0].at <= w[1].at));
        prop_assert!(a.pending_evictions.iter().all(|p| p.fire_at > until));
    }

    /// Arbitrary (unsorted, extreme) input never panics and is deterministic.
    #[test]
    fn never_panics_on_extreme_input(
        raw in prop::collection::vec((any::<i64>(), event_pool()), 0..20),
        secs in prop::collection::vec(any::<i64>(), 0..4),
        until in any::<i64>(),
    ) {
        let mut events: Vec<TimedEvent> = raw
            .into_iter()
            .map(|(at, (_, e))| TimedEvent::new(at, e))
            .collect();
        let tols: Vec<Toleration> = secs.iter().map(|&s| exists_ne("k", Some(s))).collect();
        events.push(create_pod(0, pod_in("x", "p1", "n1", tols)));
        let node = SimEvent::CreateNode { name: "n1".into(), taints: vec![ne("k")] };
        events.push(TimedEvent::new(1, node));
        let a = simulate(events.clone(), until, Semantics::newest());
        let b = simulate(events, until, Semantics::newest());
        prop_assert_eq!(a, b);
    }

    /// The fused hot-path computation agrees with the two public functions.
    #[test]
    fn fused_minimum_matches_public_functions(
        taints in prop::collection::vec(taint_pool(), 0..4),
        tols in prop::collection::vec(tol_pool(), 0..5),
        gate in any::<bool>(),
    ) {
        let expected = get_matching_tolerations(&taints, &tols, gate).map(get_min_toleration_time);
        prop_assert_eq!(min_toleration_for(&taints, &tols, gate), expected);
    }
}

use alloc::collections::BTreeMap;
