use super::world::ClusterEvent;
use super::*;
use crate::disruption::{IntOrPercent, PdbSpec, PodDisruptionBudget, PodRecord};
use crate::labels::LabelSelector as MetaSelector;
use alloc::vec;

fn node(name: &str) -> Node {
    Node {
        name: name.into(),
        ..Node::default()
    }
}

fn pod(name: &str) -> PodRecord {
    let mut p = PodRecord::running("default", name).owned_by("apps/v1", "ReplicaSet", "rs");
    p.node_name = "n1".into();
    p.uid = format!("uid-{name}");
    p
}

fn cluster(pods: Vec<PodRecord>, v: KubeVersion) -> StaticCluster {
    StaticCluster {
        nodes: vec![node("n1"), node("n2")],
        pods,
        daemon_sets: vec!["kube-system/ds".into()],
        version: v,
        ..StaticCluster::default()
    }
}

#[test]
fn plain_drain_prints_kubectl_lines_with_times() {
    let run = run_kubectl_drain(
        &["n1"],
        cluster(vec![pod("web-1")], KubeVersion::NEWEST),
        600,
    );
    assert_eq!(
        run.stdout,
        "node/n1 cordoned\nevicting pod default/web-1\npod/web-1 evicted\nnode/n1 drained\n"
    );
    assert_eq!(run.stderr, "");
    assert_eq!(run.exit_code, Some(0));
    // The pod's grace period is 30 s: evicted at 0, gone at 30.
    let evicted = run
        .lines
        .iter()
        .find(|l| l.text == "pod/web-1 evicted")
        .unwrap();
    assert_eq!(evicted.t, 30);
    assert!(run.cluster.nodes[0].unschedulable);
}

#[test]
fn daemon_set_pod_without_flag_fails_the_node() {
    let mut ds = pod("ds-x").owned_by("apps/v1", "DaemonSet", "ds");
    ds.namespace = "kube-system".into();
    let run = run_kubectl_drain(&["n1"], cluster(vec![ds], KubeVersion::NEWEST), 600);
    assert_eq!(run.stdout, "node/n1 cordoned\n");
    assert_eq!(
        run.stderr,
        "error: unable to drain node \"n1\" due to error: cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/ds-x, continuing command...\n\
There are pending nodes to be drained:\n n1\n\
cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/ds-x\n"
    );
    assert_eq!(run.exit_code, Some(1));
}

#[test]
fn unmanaged_pod_text_per_release() {
    let mut naked = pod("bare");
    naked.controller = None;
    let stderr = |v| run_kubectl_drain(&["n1"], cluster(vec![naked.clone()], v), 60).stderr;
    assert!(stderr(KubeVersion::new(29, 0)).contains("due to error:cannot delete Pods declare no controller (use --force to override): default/bare"));
    assert!(
        stderr(KubeVersion::new(31, 0))
            .contains("due to error: cannot delete cannot delete Pods that declare no controller")
    );
    assert!(stderr(KubeVersion::new(36, 0)).contains("due to error: cannot delete Pods that declare no controller (use --force to override): default/bare"));
}

#[test]
fn budget_makes_the_eviction_wait_and_retry() {
    let mut c = cluster(vec![pod("web-1")], KubeVersion::NEWEST);
    let mut other = pod("web-2");
    other.node_name = "n2".into();
    c.pods.push(other);
    let mut pdb = PodDisruptionBudget::new("default", "web");
    pdb.spec = PdbSpec {
        min_available: Some(IntOrPercent::Int(2)),
        selector: Some(MetaSelector::default()),
        ..PdbSpec::default()
    };
    c.pdbs.push(pdb);
    // A replacement becomes ready on n2 at second 12.
    let mut repl = pod("web-3");
    repl.node_name = "n2".into();
    repl.ready = false;
    c.events.push((1, ClusterEvent::AddPod(repl)));
    c.events.push((
        12,
        ClusterEvent::SetReady {
            namespace: "default".into(),
            name: "web-3".into(),
            ready: true,
        },
    ));
    let run = run_kubectl_drain(&["n1"], c, 600);
    let retry = "error when evicting pods/\"web-1\" -n \"default\" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.";
    let retries: Vec<i64> = run
        .lines
        .iter()
        .filter(|l| l.text == retry)
        .map(|l| l.t)
        .collect();
    assert_eq!(retries, [0, 5, 10]);
    let evicting: Vec<i64> = run
        .lines
        .iter()
        .filter(|l| l.text == "evicting pod default/web-1")
        .map(|l| l.t)
        .collect();
    assert_eq!(evicting, [0, 5, 10, 15]);
    let done = run
        .lines
        .iter()
        .find(|l| l.text == "pod/web-1 evicted")
        .unwrap();
    assert_eq!(done.t, 45);
    assert_eq!(run.exit_code, Some(0));
}

#[test]
fn timeout_while_blocked_reports_global_timeout() {
    let mut c = cluster(vec![pod("web-1")], KubeVersion::NEWEST);
    let mut pdb = PodDisruptionBudget::new("default", "web");
    pdb.spec = PdbSpec {
        max_unavailable: Some(IntOrPercent::Int(0)),
        selector: Some(MetaSelector::default()),
        ..PdbSpec::default()
    };
    c.pdbs.push(pdb);
    c.workloads.items.push(crate::disruption::Workload::new(
        "apps/v1",
        "ReplicaSet",
        "default",
        "rs",
        1,
    ));
    let run = run_kubectl_drain(&["n1", "--timeout=12s"], c, 600);
    assert!(run.stderr.ends_with(
        "There are pending pods in node \"n1\" when an error occurred: error when evicting pods/\"web-1\" -n \"default\": global timeout reached: 12s\n\
pod/web-1\n\
error: unable to drain node \"n1\" due to error: error when evicting pods/\"web-1\" -n \"default\": global timeout reached: 12s, continuing command...\n\
There are pending nodes to be drained:\n n1\n\
error when evicting pods/\"web-1\" -n \"default\": global timeout reached: 12s\n"
    ), "{}", run.stderr);
    assert_eq!(run.ended_at, 15);
}

#[test]
fn cordon_and_uncordon_messages() {
    let nodes = [
        node("a"),
        Node {
            unschedulable: true,
            ..node("b")
        },
    ];
    let run = run_cordon(&["a", "b"], true, &nodes, KubeVersion::NEWEST);
    assert_eq!(run.stdout, "node/a cordoned\nnode/b already cordoned\n");
    let run = run_cordon(
        &["node/b", "--dry-run=client"],
        false,
        &nodes,
        KubeVersion::NEWEST,
    );
    assert_eq!(run.stdout, "node/b uncordoned (dry run)\n");
    assert!(run.nodes[1].unschedulable);
    let run = run_cordon(&["zz"], true, &nodes, KubeVersion::NEWEST);
    assert_eq!(
        run.stderr,
        "Error from server (NotFound): nodes \"zz\" not found\n"
    );
    assert_eq!(run.exit_code, 1);
    let run = run_cordon::<&str>(&[], true, &nodes, KubeVersion::NEWEST);
    assert_eq!(
        run.stderr,
        "error: USAGE: cordon NODE [flags]\nSee 'kubectl cordon -h' for help and examples\n"
    );
}

#[test]
fn durations_print_like_go() {
    assert_eq!(go_duration_string(5_000), "5s");
    assert_eq!(go_duration_string(90_000), "1m30s");
    assert_eq!(go_duration_string(3_600_000), "1h0m0s");
    assert_eq!(go_duration_string(1_500), "1.5s");
    assert_eq!(parse_go_duration("1m30s"), Ok(90_000));
    assert_eq!(parse_go_duration("0"), Ok(0));
    assert_eq!(
        parse_go_duration("60"),
        Err("time: missing unit in duration \"60\"".into())
    );
}

#[test]
fn durations_parse_like_go() {
    // Values worked out by hand from src/time/format.go ParseDuration.
    let ok = |s: &str, ms: i64| assert_eq!(parse_go_duration(s), Ok(ms), "{s}");
    ok("1.5h", 5_400_000);
    ok(".5s", 500);
    ok("1.s", 1_000);
    ok("+2m", 120_000);
    ok("-1.5ms", -1);
    ok("1h2m3.25s", 3_723_250);
    ok("1\u{b5}s", 0);
    ok("2500\u{3bc}s", 2);
    ok("0.0000000001s", 0);
    ok("9223372036854775807ns", 9_223_372_036_854);
    ok("-9223372036854775808ns", -9_223_372_036_854);
    ok("1.00000000000000000000001s", 1_000);
    let invalid = |s: &str| {
        assert_eq!(
            parse_go_duration(s),
            Err(format!("time: invalid duration \"{s}\"")),
            "{s}"
        )
    };
    invalid("");
    invalid("-");
    invalid(".s");
    invalid("s");
    invalid("9223372036854775808ns");
    invalid("9223372036854775809ns");
    invalid("2562048h");
    invalid("99999999999999999999s");
    assert_eq!(
        parse_go_duration("1.2.3s"),
        Err("time: missing unit in duration \"1.2.3s\"".into())
    );
    assert_eq!(
        parse_go_duration("3d"),
        Err("time: unknown unit \"d\" in duration \"3d\"".into())
    );
}

#[test]
fn delete_local_data_is_gone_after_1_30() {
    let e =
        parse_drain_command(&["n1", "--delete-local-data"], KubeVersion::new(31, 0)).unwrap_err();
    assert_eq!(
        e.stderr(),
        "error: unknown flag: --delete-local-data\nSee 'kubectl drain --help' for usage.\n"
    );
    let c = parse_drain_command(&["n1", "--delete-local-data"], KubeVersion::new(30, 0)).unwrap();
    assert!(c.options.filter.delete_emptydir_data);
    assert_eq!(c.notices.len(), 1);
}

/// A StatefulSet pod replaced under the same name while its eviction waits for a budget:
/// before 1.35 kubectl waits on the original pod's uid, so the replacement's eviction is
/// reported at once; from 1.35 it waits for the replacement to go.
#[test]
fn recreated_pod_under_the_same_name_per_release() {
    let run = |v: KubeVersion| {
        let mut c = cluster(vec![pod("web-0")], v);
        let mut pdb = PodDisruptionBudget::new("default", "web");
        pdb.spec = PdbSpec {
            min_available: Some(IntOrPercent::Int(1)),
            selector: Some(MetaSelector::default()),
            ..PdbSpec::default()
        };
        c.pdbs.push(pdb);
        let mut twin = pod("web-x");
        twin.node_name = "n2".into();
        c.events.push((2, ClusterEvent::AddPod(twin)));
        c.events.push((
            3,
            ClusterEvent::RemovePod {
                namespace: "default".into(),
                name: "web-0".into(),
            },
        ));
        let mut again = pod("web-0");
        again.uid = "uid-web-0-second".into();
        c.events.push((4, ClusterEvent::AddPod(again)));
        run_kubectl_drain(&["n1"], c, 600)
    };
    let old = run(KubeVersion::new(34, 0));
    let evicted = |r: &DrainRun| {
        r.lines
            .iter()
            .find(|l| l.text == "pod/web-0 evicted")
            .map(|l| l.t)
    };
    assert_eq!(evicted(&old), Some(5));
    let new = run(KubeVersion::new(35, 0));
    assert_eq!(evicted(&new), Some(35));
}

#[test]
fn blank_selector_is_an_error() {
    let e = parse_drain_command(&["-l", ""], KubeVersion::NEWEST).unwrap_err();
    assert_eq!(
        e.stderr(),
        "error: resource(s) were provided, but no name was specified\n"
    );
}

mod properties {
    use super::*;
    use crate::disruption::{ApiError, PodRecord};
    use crate::kubectl::drain::session::DrainWorld;
    use proptest::prelude::*;

    /// Delegates to a [`StaticCluster`] and checks, at every eviction the API allows,
    /// that a Ready pod covered by the budget leaves at least `desiredHealthy` Ready pods.
    struct Checked {
        inner: StaticCluster,
        violations: Vec<String>,
        evictions: usize,
    }

    impl DrainWorld for Checked {
        fn set_unschedulable(&mut self, node: &str, u: bool, dry: bool) {
            self.inner.set_unschedulable(node, u, dry);
        }
        fn is_unschedulable(&self, node: &str) -> bool {
            self.inner.is_unschedulable(node)
        }
        fn pods_on_node(&self, node: &str) -> Vec<PodRecord> {
            self.inner.pods_on_node(node)
        }
        fn daemon_set_exists(&self, ns: &str, name: &str) -> bool {
            self.inner.daemon_set_exists(ns, name)
        }
        fn evict(
            &mut self,
            ns: &str,
            name: &str,
            now: i64,
            grace: Option<i64>,
            dry: bool,
        ) -> Result<(), ApiError> {
            let was_ready = self.inner.get_pod(ns, name).is_some_and(|p| p.ready);
            let r = self.inner.evict(ns, name, now, grace, dry);
            if r.is_ok() && was_ready {
                self.evictions += 1;
                for b in &self.inner.pdbs {
                    let healthy = self
                        .inner
                        .pods
                        .iter()
                        .filter(|p| b.selects(p) && p.ready && p.deletion_timestamp.is_none())
                        .count() as i32;
                    if healthy < b.status.desired_healthy {
                        self.violations.push(format!(
                            "t={now}: {name} evicted, {healthy} healthy < {}",
                            b.status.desired_healthy
                        ));
                    }
                }
            }
            r
        }
        fn delete(
            &mut self,
            ns: &str,
            name: &str,
            now: i64,
            grace: Option<i64>,
            dry: bool,
        ) -> Result<(), ApiError> {
            self.inner.delete(ns, name, now, grace, dry)
        }
        fn get_pod(&self, ns: &str, name: &str) -> Option<PodRecord> {
            self.inner.get_pod(ns, name)
        }
    }

    fn drive(mut world: Checked, args: &[&str]) -> (Checked, Vec<OutputLine>) {
        let cmd = parse_drain_command(args, KubeVersion::NEWEST).unwrap();
        let names = cmd.resolve_nodes(&world.inner.nodes).unwrap();
        let mut session = DrainSession::new(cmd, names);
        world.inner.resync(0);
        let mut now = 0;
        while now <= 400 {
            let world_next = world.inner.advance(now);
            let Some(wake) = session.step(&mut world, now) else {
                break;
            };
            now = world_next
                .filter(|w| *w > now)
                .map_or(wake, |w| w.min(wake))
                .max(now + 1);
        }
        (world, session.output().to_vec())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        /// A drain never takes a budget below its desired healthy count, whatever the
        /// pods' readiness, the budget's form and the replacements that show up.
        #[test]
        fn drains_never_evict_past_a_budget(
            on_n1 in prop::collection::vec((any::<bool>(), 0i64..40), 1..7),
            on_n2 in prop::collection::vec(any::<bool>(), 0..5),
            min in prop::option::of(0i32..8),
            max_pct in 0i32..101,
            replacement_at in prop::option::of(1i64..60),
        ) {
            let build = || {
                let mut pods = Vec::new();
                for (i, (ready, grace)) in on_n1.iter().enumerate() {
                    let mut p = pod(&format!("a{i}")).with_label("app", "web");
                    p.ready = *ready;
                    p.termination_grace_period_seconds = *grace;
                    pods.push(p);
                }
                for (i, ready) in on_n2.iter().enumerate() {
                    let mut p = pod(&format!("b{i}")).with_label("app", "web");
                    p.node_name = "n2".into();
                    p.ready = *ready;
                    pods.push(p);
                }
                let total = pods.len() as i32;
                let mut c = cluster(pods, KubeVersion::NEWEST);
                let mut pdb = PodDisruptionBudget::new("default", "web");
                pdb.generation = 0;
                pdb.spec = PdbSpec {
                    min_available: min.map(IntOrPercent::Int),
                    max_unavailable: if min.is_none() {
                        Some(IntOrPercent::percent(max_pct))
                    } else {
                        None
                    },
                    selector: Some(MetaSelector {
                        match_labels: [("app".into(), "web".into())].into(),
                        ..MetaSelector::default()
                    }),
                    ..PdbSpec::default()
                };
                c.pdbs.push(pdb);
                c.workloads.items.push(crate::disruption::Workload::new(
                    "apps/v1",
                    "ReplicaSet",
                    "default",
                    "rs",
                    total,
                ));
                if let Some(t) = replacement_at {
                    let mut r = pod("r0").with_label("app", "web");
                    r.node_name = "n2".into();
                    c.events.push((t, ClusterEvent::AddPod(r)));
                }
                Checked { inner: c, violations: Vec::new(), evictions: 0 }
            };
            let (world, lines) = drive(build(), &["n1", "--timeout=300s"]);
            prop_assert!(world.violations.is_empty(), "{:?}", world.violations);
            // Each pod on n1 is tried at least once.
            let evicting = lines.iter().filter(|l| l.text.starts_with("evicting pod")).count();
            prop_assert!(evicting >= on_n1.len());
            // Same input, same output.
            let (again, lines_again) = drive(build(), &["n1", "--timeout=300s"]);
            prop_assert_eq!(lines, lines_again);
            prop_assert_eq!(world.evictions, again.evictions);
        }
    }
}

#[test]
fn a_node_named_twice_is_judged_on_its_state_before_the_command() {
    let nodes = [node("a")];
    let run = run_cordon(&["a", "a"], true, &nodes, KubeVersion::NEWEST);
    assert_eq!(run.stdout, "node/a cordoned\nnode/a cordoned\n");
    assert!(run.nodes[0].unschedulable);
}
