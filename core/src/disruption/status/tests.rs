use super::*;
use crate::disruption::{PdbSpec, PodDisruptionBudget, PodRecord};
use alloc::vec;

fn foo_bar() -> Option<LabelSelector> {
    Some(LabelSelector {
        match_labels: [("foo".into(), "bar".into())].into(),
        ..LabelSelector::default()
    })
}

fn pdb(min: Option<IntOrPercent>, max: Option<IntOrPercent>) -> PodDisruptionBudget {
    let mut p = PodDisruptionBudget::new("default", "foobar");
    p.generation = 0;
    p.spec = PdbSpec {
        min_available: min,
        max_unavailable: max,
        selector: foo_bar(),
        unhealthy_pod_eviction_policy: None,
    };
    p
}

fn pod(name: &str) -> PodRecord {
    PodRecord::running("default", name).with_label("foo", "bar")
}

fn counts(s: &PdbSync) -> (i32, i32, i32, i32) {
    (
        s.status.disruptions_allowed,
        s.status.current_healthy,
        s.status.desired_healthy,
        s.status.expected_pods,
    )
}

#[test]
fn scaled_values_round_up_for_both_fields() {
    let p = |s: &str| IntOrPercent::Str(s.into());
    assert_eq!(
        get_scaled_value_from_int_or_percent(&p("50%"), 3, true),
        Ok(2)
    );
    assert_eq!(
        get_scaled_value_from_int_or_percent(&p("50%"), 3, false),
        Ok(1)
    );
    assert_eq!(
        get_scaled_value_from_int_or_percent(&p("34%"), 3, true),
        Ok(2)
    );
    assert_eq!(
        get_scaled_value_from_int_or_percent(&IntOrPercent::Int(4), 3, true),
        Ok(4)
    );
    assert_eq!(
        get_scaled_value_from_int_or_percent(&p("5"), 3, true),
        Err("invalid value for IntOrString: invalid type: string is not a percentage".into())
    );
    assert!(
        get_scaled_value_from_int_or_percent(&p("x%"), 3, true)
            .unwrap_err()
            .contains("strconv.Atoi")
    );
}

#[test]
fn unavailable_pods_lower_current_healthy() {
    // disruption_test.go TestUnavailable
    let budget = pdb(Some(IntOrPercent::Int(3)), None);
    let mut pods: Vec<PodRecord> = (0..4).map(|i| pod(&format!("yo-yo-yo {i}"))).collect();
    assert_eq!(
        counts(&compute_status(&budget, &pods, &Workloads::default(), 0)),
        (1, 4, 3, 4)
    );
    pods[0].ready = false;
    assert_eq!(
        counts(&compute_status(&budget, &pods, &Workloads::default(), 0)),
        (0, 3, 3, 4)
    );
}

#[test]
fn replica_set_scale_is_the_denominator() {
    // disruption_test.go TestIntegerMaxUnavailableWithScaling
    let budget = pdb(None, Some(IntOrPercent::Int(2)));
    let mut rs = Workload::new("apps/v1", "ReplicaSet", "default", "foobar", 7);
    rs.uid = "rs-uid".into();
    let mut p = pod("pod").owned_by("apps/v1", "ReplicaSet", "foobar");
    p.controller.as_mut().unwrap().uid = "rs-uid".into();
    let mut ws = Workloads { items: vec![rs] };
    let pods = [p];
    assert_eq!(
        counts(&compute_status(&budget, &pods, &ws, 0)),
        (0, 1, 5, 7)
    );
    ws.items[0].replicas = Some(5);
    assert_eq!(
        counts(&compute_status(&budget, &pods, &ws, 0)),
        (0, 1, 3, 5)
    );
}

#[test]
fn daemon_set_pods_fail_safe_with_max_unavailable() {
    let budget = pdb(None, Some(IntOrPercent::Int(1)));
    let pods = [pod("ds-a").owned_by("apps/v1", "DaemonSet", "ds")];
    let sync = compute_status(&budget, &pods, &Workloads::default(), 0);
    assert_eq!(
        sync.error.as_deref(),
        Some("daemonsets.apps does not implement the scale subresource")
    );
    assert_eq!(sync.status.disruptions_allowed, 0);
    assert_eq!(sync.status.conditions[0].reason, "SyncFailed");
}

#[test]
fn disrupted_pods_expire_after_two_minutes() {
    // disruption_test.go TestUpdateDisruptedPods
    let mut budget = pdb(Some(IntOrPercent::Int(1)), None);
    let now = 1000;
    budget.status.disrupted_pods = [
        ("p1".into(), now),
        ("p2".into(), now - 300),
        ("p3".into(), now),
        ("notthere".into(), now),
    ]
    .into();
    let mut p1 = pod("p1");
    p1.deletion_timestamp = Some(now);
    let pods = [p1, pod("p2"), pod("p3")];
    let sync = compute_status(&budget, &pods, &Workloads::default(), now);
    assert_eq!(counts(&sync), (0, 1, 1, 3));
    assert_eq!(sync.status.disrupted_pods, [("p3".into(), now)].into());
    assert_eq!(sync.recheck_at, Some(now + DELETION_TIMEOUT_SECONDS));
    assert_eq!(
        sync.events.iter().map(|e| e.reason).collect::<Vec<_>>(),
        ["NotDeleted"]
    );
}
