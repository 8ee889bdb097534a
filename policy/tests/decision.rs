//! Table tests of the decision function: every kind, every setting.

mod common;

use common::*;
use serde_json::{Value, json};
use taintlab_policy::{ViolationKind, evaluate, node_list_request, parse_node_list};

fn kinds_of(d: &taintlab_policy::Decision) -> Vec<ViolationKind> {
    d.violations.iter().map(|v| v.kind).collect()
}

// ---------------------------------------------------------------------------------------
// Kinds and operations
// ---------------------------------------------------------------------------------------

#[test]
fn wildcard_is_denied_for_every_kind_with_its_path() {
    for kind in pod_kinds() {
        let d = eval(json!({}), &create(kind, json!([{"operator": "Exists"}])));
        assert!(!d.accepted, "{kind}");
        assert_eq!(d.code, Some(403));
        assert_eq!(
            d.message.as_deref(),
            Some(
                format!(
                    "{}[0]: wildcard toleration {{key: <any>, operator: Exists, effect: <any>}} tolerates every taint",
                    tolerations_path(kind)
                )
                .as_str()
            ),
            "{kind}"
        );
        assert_eq!(
            d.audit_annotations.get("rules").map(String::as_str),
            Some("wildcard")
        );
    }
}

#[test]
fn plain_tolerations_are_accepted_for_every_kind() {
    for kind in pod_kinds() {
        let d = eval(
            json!({}),
            &create(
                kind,
                json!([{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}]),
            ),
        );
        assert!(d.accepted, "{kind}: {:?}", d.message);
        assert!(d.warnings.is_empty(), "{kind}: {:?}", d.warnings);
        assert!(d.mutated_object.is_none());
    }
}

#[test]
fn delete_connect_subresources_and_foreign_kinds_are_accepted() {
    let wild = json!([{"operator": "Exists"}]);
    let mut del = request(
        "Pod",
        "DELETE",
        None,
        Some(object("Pod", "p", "team-a", spec(wild.clone()))),
    );
    assert!(eval(json!({}), &del).accepted);
    del["operation"] = json!("CONNECT");
    assert!(eval(json!({}), &del).accepted);

    let mut sub = create("Pod", wild.clone());
    sub["subResource"] = json!("ephemeralcontainers");
    assert!(eval(json!({}), &sub).accepted);

    let mut crd = create("Deployment", wild.clone());
    crd["kind"] = json!({"group": "example.com", "version": "v1", "kind": "Deployment"});
    assert!(eval(json!({}), &crd).accepted);

    let mut cm = create("Pod", wild);
    cm["kind"] = json!({"group": "", "version": "v1", "kind": "ConfigMap"});
    assert!(eval(json!({}), &cm).accepted);
}

#[test]
fn admission_review_is_unwrapped() {
    let review = json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
        "request": create("Pod", json!([{"operator": "Exists"}]))});
    assert!(!eval(json!({}), &review).accepted);
}

// ---------------------------------------------------------------------------------------
// Wildcards and protected taints
// ---------------------------------------------------------------------------------------

#[test]
fn wildcard_variants() {
    let d = eval(
        json!({}),
        &create(
            "Pod",
            json!([{"operator": "Exists", "effect": "NoSchedule"}]),
        ),
    );
    assert_eq!(
        d.message.as_deref(),
        Some(
            "spec.tolerations[0]: wildcard toleration {key: <any>, operator: Exists, effect: NoSchedule} tolerates every NoSchedule taint"
        )
    );
    let off = eval(
        json!({"denyWildcardTolerations": false}),
        &create("Pod", json!([{"operator": "Exists"}])),
    );
    assert!(off.accepted);
    // Not a wildcard: a key with Exists.
    assert!(
        eval(
            json!({}),
            &create("Pod", json!([{"key": "a", "operator": "Exists"}]))
        )
        .accepted
    );
}

#[test]
fn protected_taints_catch_every_spelling() {
    let s = json!({"denyWildcardTolerations": false,
        "protectedTaints": [{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]});
    let cases = [
        (json!({"operator": "Exists"}), false),
        (json!({"operator": "Exists", "effect": "NoSchedule"}), false),
        (json!({"operator": "Exists", "effect": "NoExecute"}), true),
        (
            json!({"key": "node-role.kubernetes.io/control-plane", "operator": "Exists"}),
            false,
        ),
        (
            json!({"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}),
            false,
        ),
        (
            json!({"key": "node-role.kubernetes.io/control-plane", "operator": "Exists", "effect": "PreferNoSchedule"}),
            true,
        ),
        (
            json!({"key": "node-role.kubernetes.io/master", "operator": "Exists"}),
            true,
        ),
    ];
    for (t, ok) in cases {
        let d = eval(s.clone(), &create("Deployment", json!([t.clone()])));
        assert_eq!(d.accepted, ok, "{t}: {:?}", d.message);
        if !ok {
            assert!(
                d.message.as_deref().unwrap_or("").ends_with(
                    "tolerates protected taint node-role.kubernetes.io/control-plane:NoSchedule"
                ),
                "{:?}",
                d.message
            );
            assert_eq!(kinds_of(&d), vec![ViolationKind::Protected]);
        }
    }
}

#[test]
fn protected_patterns_list_every_hit() {
    let s = json!({"denyWildcardTolerations": false, "protectedTaints": [
        {"keyPattern": "node-role.kubernetes.io/*"},
        {"key": "dedicated", "value": "gpu"}
    ]});
    let d = eval(s.clone(), &create("Pod", json!([{"operator": "Exists"}])));
    assert_eq!(
        d.message.as_deref(),
        Some(
            "spec.tolerations[0]: toleration {key: <any>, operator: Exists, effect: <any>} tolerates protected taints node-role.kubernetes.io/*, dedicated=gpu"
        )
    );
    assert!(
        eval(
            s.clone(),
            &create("Pod", json!([{"key": "dedicated", "value": "cpu"}]))
        )
        .accepted
    );
    assert!(
        !eval(
            s,
            &create("Pod", json!([{"key": "dedicated", "operator": "Exists"}]))
        )
        .accepted
    );
}

// ---------------------------------------------------------------------------------------
// Exemptions
// ---------------------------------------------------------------------------------------

#[test]
fn exemptions() {
    let s = json!({
        "exemptNamespaces": ["kube-*"],
        "exemptUsers": ["admin-*"],
        "exemptGroups": ["system:masters"],
        "exemptServiceAccounts": ["argocd:*"]
    });
    let wild = create("Deployment", json!([{"operator": "Exists"}]));
    assert!(!eval(s.clone(), &wild).accepted);

    let ns = request(
        "Deployment",
        "CREATE",
        Some(object(
            "Deployment",
            "w",
            "kube-system",
            spec(json!([{"operator": "Exists"}])),
        )),
        None,
    );
    let d = eval(s.clone(), &ns);
    assert!(d.accepted);
    assert_eq!(
        d.audit_annotations.get("exempt").map(String::as_str),
        Some("namespace kube-system")
    );

    let d = eval(s.clone(), &as_user(wild.clone(), "admin-bob", &[]));
    assert!(d.accepted);
    assert_eq!(
        d.audit_annotations.get("exempt").map(String::as_str),
        Some("user admin-bob")
    );

    let d = eval(
        s.clone(),
        &as_user(wild.clone(), "carol", &["system:masters"]),
    );
    assert!(d.accepted);
    assert_eq!(
        d.audit_annotations.get("exempt").map(String::as_str),
        Some("group system:masters")
    );

    let d = eval(
        s.clone(),
        &as_user(
            wild.clone(),
            "system:serviceaccount:argocd:application-controller",
            &[],
        ),
    );
    assert!(d.accepted);
    assert_eq!(
        d.audit_annotations.get("exempt").map(String::as_str),
        Some("service account argocd:application-controller")
    );
    assert!(
        !eval(
            s.clone(),
            &as_user(wild.clone(), "system:serviceaccount:other:argocd", &[])
        )
        .accepted
    );
    // API validation still applies to exempt subjects.
    let broken = as_user(
        create("Pod", json!([{"key": "a", "operator": "Bogus"}])),
        "admin-bob",
        &[],
    );
    let d = eval(s, &broken);
    assert!(!d.accepted);
    assert_eq!(d.code, Some(422));
}

// ---------------------------------------------------------------------------------------
// Allow-list and system tolerations
// ---------------------------------------------------------------------------------------

fn dts_defaults() -> Value {
    json!([
        {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
        {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}
    ])
}

#[test]
fn empty_allow_list_still_admits_system_tolerations() {
    let s = json!({"allowedTolerations": []});
    let mut tols = dts_defaults();
    tols.as_array_mut().unwrap().push(json!({"key": "node.kubernetes.io/memory-pressure", "operator": "Exists", "effect": "NoSchedule"}));
    let d = eval(s.clone(), &create("Pod", tols));
    assert!(d.accepted, "{:?}", d.message);
    let d = eval(
        s.clone(),
        &create("Pod", json!([{"key": "dedicated", "operator": "Exists"}])),
    );
    assert_eq!(
        d.message.as_deref(),
        Some(
            "spec.tolerations[0]: toleration {key: dedicated, operator: Exists, effect: <any>} is not in the allowed tolerations for namespace \"team-a\""
        )
    );
    // systemTolerations: validate judges them too.
    let d = eval(
        json!({"allowedTolerations": [], "systemTolerations": "validate"}),
        &create("Pod", dts_defaults()),
    );
    assert_eq!(d.violations.len(), 2);
}

#[test]
fn daemonset_set_only_for_daemon_pods() {
    let daemon = json!([
        {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"},
        {"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"},
        {"key": "node.kubernetes.io/network-unavailable", "operator": "Exists", "effect": "NoSchedule"}
    ]);
    let s = json!({"allowedTolerations": []});
    assert!(eval(s.clone(), &create("DaemonSet", daemon.clone())).accepted);
    let d = eval(s.clone(), &create("Deployment", daemon.clone()));
    assert_eq!(d.violations.len(), 3, "{:?}", d.message);
    // A Pod owned by a DaemonSet is a daemon pod.
    let mut pod = object("Pod", "ds-abc", "team-a", spec(daemon));
    pod["metadata"]["ownerReferences"] = json!([{"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "ds", "uid": "1", "controller": true}]);
    assert!(eval(s, &request("Pod", "CREATE", Some(pod), None)).accepted);
}

#[test]
fn allow_list_entries_and_namespace_rules() {
    let s = json!({
        "allowedTolerations": [{"key": "dedicated", "values": ["shared"]}],
        "namespaceRules": [{"namespaces": ["team-*"], "allowedTolerations": [
            {"key": "dedicated", "values": ["gpu"], "effects": ["NoSchedule"]},
            {"keyPattern": "example.com/*"}
        ]}]
    });
    let ok = eval(
        s.clone(),
        &create(
            "Job",
            json!([{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"},
        {"key": "example.com/x", "operator": "Exists"}]),
        ),
    );
    assert!(ok.accepted, "{:?}", ok.message);
    let bad = eval(
        s.clone(),
        &create(
            "Job",
            json!([{"key": "dedicated", "value": "shared", "effect": "NoSchedule"}]),
        ),
    );
    assert!(!bad.accepted, "the rule replaces the top-level list");
    let other_ns = request(
        "Job",
        "CREATE",
        Some(object(
            "Job",
            "j",
            "prod",
            spec(json!([{"key": "dedicated", "value": "shared"}])),
        )),
        None,
    );
    assert!(eval(s, &other_ns).accepted);
}

// ---------------------------------------------------------------------------------------
// tolerationSeconds
// ---------------------------------------------------------------------------------------

#[test]
fn max_and_required_seconds() {
    let s = json!({"maxTolerationSeconds": 600});
    let d = eval(
        s.clone(),
        &create(
            "Deployment",
            json!([
                {"key": "a", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 900},
                {"key": "b", "operator": "Exists", "effect": "NoExecute"},
                {"key": "c", "operator": "Exists"},
                {"key": "d", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 600},
                {"key": "e", "operator": "Exists", "effect": "NoSchedule"}
            ]),
        ),
    );
    let msgs: Vec<&str> = d.violations.iter().map(|v| v.message.as_str()).collect();
    assert_eq!(
        msgs,
        vec![
            "spec.template.spec.tolerations[0].tolerationSeconds: 900 exceeds the maximum of 600",
            "spec.template.spec.tolerations[1]: NoExecute toleration {key: b, operator: Exists, effect: NoExecute} must set tolerationSeconds (at most 600)",
            "spec.template.spec.tolerations[2]: toleration {key: c, operator: Exists, effect: <any>} tolerates NoExecute taints forever; give it an effect, and tolerationSeconds (at most 600) if it is NoExecute",
        ]
    );
    // Pods carry DefaultTolerationSeconds' 300 s tolerations; they always pass.
    assert!(
        eval(
            json!({"maxTolerationSeconds": 60}),
            &create("Pod", dts_defaults())
        )
        .accepted
    );

    let req = json!({"requireTolerationSeconds": true});
    let d = eval(
        req.clone(),
        &create(
            "Pod",
            json!([{"key": "b", "operator": "Exists", "effect": "NoExecute"}]),
        ),
    );
    assert_eq!(
        d.message.as_deref(),
        Some(
            "spec.tolerations[0]: NoExecute toleration {key: b, operator: Exists, effect: NoExecute} must set tolerationSeconds"
        )
    );
    assert!(eval(req, &create("Pod", json!([{"key": "b", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 5}]))).accepted);
}

#[test]
fn clamping_rewrites_seconds_in_place() {
    let s = json!({"maxTolerationSeconds": 600, "clampTolerationSeconds": true});
    let d = eval(
        s.clone(),
        &create(
            "Deployment",
            json!([
                {"key": "a", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 900},
                {"key": "b", "operator": "Exists", "effect": "NoExecute"},
                {"key": "c", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 60}
            ]),
        ),
    );
    assert!(d.accepted, "{:?}", d.message);
    assert_eq!(
        mutated_tolerations(&d, "Deployment"),
        json!([
            {"key": "a", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 600},
            {"key": "b", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 600},
            {"key": "c", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 60}
        ])
    );
    assert_eq!(d.mutations.len(), 2);
    // Empty effects cannot be clamped: still a violation.
    assert!(
        !eval(
            s.clone(),
            &create("Pod", json!([{"key": "x", "operator": "Exists"}]))
        )
        .accepted
    );
    // Re-admission of the mutated object changes nothing.
    let again = request("Deployment", "CREATE", d.mutated_object.clone(), None);
    let d2 = eval(s, &again);
    assert!(d2.accepted && d2.mutated_object.is_none());
}

// ---------------------------------------------------------------------------------------
// UPDATE
// ---------------------------------------------------------------------------------------

#[test]
fn update_judges_only_new_tolerations() {
    let old_tols = json!([{"operator": "Exists"}]);
    let new_tols = json!([{"operator": "Exists"}, {"key": "a", "operator": "Exists"}]);
    let old = object("Deployment", "web", "team-a", spec(old_tols));
    let new = object("Deployment", "web", "team-a", spec(new_tols.clone()));
    let upd = request("Deployment", "UPDATE", Some(new.clone()), Some(old.clone()));
    assert!(eval(json!({}), &upd).accepted);
    assert!(!eval(json!({"onlyNewTolerationsOnUpdate": false}), &upd).accepted);
    // A new wildcard is judged.
    let upd2 = request(
        "Deployment",
        "UPDATE",
        Some(object(
            "Deployment",
            "web",
            "team-a",
            spec(json!([{"operator": "Exists"}, {"operator": "Exists", "effect": "NoSchedule"}])),
        )),
        Some(old),
    );
    let d = eval(json!({}), &upd2);
    assert_eq!(d.violations.len(), 1);
    assert!(
        d.violations[0]
            .message
            .starts_with("spec.template.spec.tolerations[1]")
    );
}

#[test]
fn pod_update_uses_upstream_update_validation() {
    let old = object(
        "Pod",
        "p",
        "team-a",
        spec(json!([{"key": "a", "operator": "Exists", "effect": "NoSchedule"}])),
    );
    let new = object(
        "Pod",
        "p",
        "team-a",
        spec(json!([{"key": "b", "operator": "Exists", "effect": "NoSchedule"}])),
    );
    let d = eval(json!({}), &request("Pod", "UPDATE", Some(new), Some(old)));
    assert_eq!(
        d.message.as_deref(),
        Some(
            "spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds"
        )
    );
    assert_eq!(d.code, Some(422));
}

// ---------------------------------------------------------------------------------------
// API validation and versions
// ---------------------------------------------------------------------------------------

#[test]
fn api_validation_messages() {
    let d = eval(
        json!({}),
        &create(
            "Deployment",
            json!([{"key": "", "operator": "Equal", "value": "x"}]),
        ),
    );
    assert_eq!(d.code, Some(422));
    assert_eq!(
        d.message.as_deref(),
        Some(
            "spec.template.spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\""
        )
    );
    let d = eval(
        json!({}),
        &create(
            "Pod",
            json!([{"key": "a", "effect": "NoSchedule", "tolerationSeconds": 5}]),
        ),
    );
    assert_eq!(
        d.message.as_deref(),
        Some(
            "spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set"
        )
    );
    let off = eval(
        json!({"validateTolerations": false}),
        &create(
            "Pod",
            json!([{"key": "a", "effect": "NoSchedule", "tolerationSeconds": 5}]),
        ),
    );
    assert!(off.accepted);
    // Mixed API and governance violations: 403, all in one message.
    let d = eval(
        json!({}),
        &create(
            "Pod",
            json!([{"operator": "Exists"}, {"key": "a", "operator": "Bogus"}]),
        ),
    );
    assert_eq!(d.code, Some(403));
    assert_eq!(d.violations.len(), 2);
    assert_eq!(
        d.message.as_deref(),
        Some(
            "spec.tolerations[1].operator: Unsupported value: \"Bogus\": supported values: \"Equal\", \"Exists\"; spec.tolerations[0]: wildcard toleration {key: <any>, operator: Exists, effect: <any>} tolerates every taint"
        )
    );
}

#[test]
fn kubernetes_version_and_gate() {
    let long = "k".repeat(64);
    let t = json!([{"key": long, "operator": "Exists"}]);
    let new = eval(
        json!({"kubernetesVersion": "1.35"}),
        &create("Pod", t.clone()),
    );
    assert!(
        new.message
            .as_deref()
            .unwrap()
            .contains("must be no more than 63 bytes"),
        "{:?}",
        new.message
    );
    let old = eval(json!({"kubernetesVersion": "1.33"}), &create("Pod", t));
    assert!(
        old.message
            .as_deref()
            .unwrap()
            .contains("must be no more than 63 characters"),
        "{:?}",
        old.message
    );

    let lt = json!([{"key": "tier", "operator": "Lt", "value": "5", "effect": "NoSchedule"}]);
    let d = eval(json!({}), &create("Pod", lt.clone()));
    assert_eq!(
        d.message.as_deref(),
        Some(
            "spec.tolerations[0].operator: Unsupported value: \"Lt\": supported values: \"Equal\", \"Exists\", \"Lt\", \"Gt\""
        )
    );
    assert!(eval(json!({"comparisonOperators": true}), &create("Pod", lt)).accepted);
}

// ---------------------------------------------------------------------------------------
// Warnings
// ---------------------------------------------------------------------------------------

#[test]
fn warnings_for_suspicious_tolerations() {
    let d = eval(
        json!({"denyWildcardTolerations": false}),
        &create(
            "Deployment",
            json!([
                {"key": "dedicated", "effect": "NoSchedule"},
                {"key": "dedicated", "effect": "NoSchedule"},
                {"key": "x", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 0},
                {"key": "node.kubernetes.io/unschedulable", "operator": "Exists"},
            ]),
        ),
    );
    assert!(d.accepted);
    assert_eq!(
        d.warnings,
        vec![
            "spec.template.spec.tolerations[0]: dedicated=:NoSchedule matches only taints with an empty value; use operator Exists for any value",
            "spec.template.spec.tolerations[1]: dedicated=:NoSchedule matches only taints with an empty value; use operator Exists for any value",
            "spec.template.spec.tolerations[1]: duplicates spec.template.spec.tolerations[0]",
            "spec.template.spec.tolerations[2]: tolerationSeconds 0 evicts the pod as soon as the taint appears",
            "spec.template.spec.tolerations[3]: node.kubernetes.io/unschedulable:* ignores cordons (node.kubernetes.io/unschedulable)",
        ]
    );
    let d = eval(
        json!({"denyWildcardTolerations": false}),
        &create("Deployment", json!([{"operator": "Exists"}])),
    );
    assert_eq!(
        d.warnings,
        vec![
            "spec.template.spec.tolerations[0]: *:* ignores cordons (node.kubernetes.io/unschedulable)",
            "spec.template.spec.tolerations[0]: *:* keeps the pod on failed nodes forever (no tolerationSeconds)",
        ]
    );
    assert!(d.warnings.iter().all(|w| w.len() <= 120));
    // None for DaemonSets, none when switched off.
    assert!(
        eval(
            json!({"denyWildcardTolerations": false}),
            &create("DaemonSet", json!([{"operator": "Exists"}]))
        )
        .warnings
        .is_empty()
    );
    assert!(
        eval(
            json!({"denyWildcardTolerations": false, "warnings": false}),
            &create("Deployment", json!([{"operator": "Exists"}]))
        )
        .warnings
        .is_empty()
    );
}

// ---------------------------------------------------------------------------------------
// Mutation
// ---------------------------------------------------------------------------------------

#[test]
fn default_tolerations_are_added_once_and_arrays_created() {
    let s = json!({"defaultTolerations": [{"key": "team", "operator": "Equal", "value": "a", "effect": "NoSchedule"}]});
    for kind in pod_kinds() {
        let d = eval(s.clone(), &create(kind, Value::Null));
        assert!(d.accepted, "{kind}");
        assert_eq!(
            mutated_tolerations(&d, kind),
            json!([{"key": "team", "operator": "Equal", "value": "a", "effect": "NoSchedule"}]),
            "{kind}"
        );
        assert_eq!(
            d.audit_annotations.get("mutations").map(String::as_str),
            Some("1")
        );
        // Idempotent.
        let again = request(kind, "CREATE", d.mutated_object.clone(), None);
        let d2 = eval(s.clone(), &again);
        assert!(d2.accepted && d2.mutated_object.is_none(), "{kind}");
    }
    // Covered by a broader toleration: nothing added.
    let d = eval(
        s.clone(),
        &create("Pod", json!([{"key": "team", "operator": "Exists"}])),
    );
    assert!(d.mutated_object.is_none());
    // Not on UPDATE unless asked.
    let obj = object("Pod", "p", "team-a", spec(Value::Null));
    let upd = request("Pod", "UPDATE", Some(obj.clone()), Some(obj));
    assert!(eval(s.clone(), &upd).mutated_object.is_none());
    let mut on_update = s;
    on_update["mutateOnUpdate"] = json!(true);
    assert!(eval(on_update, &upd).mutated_object.is_some());
}

#[test]
fn mutation_keeps_unknown_fields() {
    let s = json!({"defaultTolerations": [{"key": "team", "operator": "Exists", "effect": "NoSchedule"}]});
    let mut obj = object(
        "Deployment",
        "web",
        "team-a",
        spec(json!([{"key": "a", "operator": "Exists", "futureField": 1}])),
    );
    obj["spec"]["someNewField"] = json!({"x": [1, 2]});
    let d = eval(s, &request("Deployment", "CREATE", Some(obj.clone()), None));
    let m = d.mutated_object.unwrap();
    assert_eq!(m["spec"]["someNewField"], obj["spec"]["someNewField"]);
    assert_eq!(
        m["spec"]["template"]["spec"]["tolerations"][0]["futureField"],
        json!(1)
    );
}

#[test]
fn extended_resources_and_default_seconds() {
    let mut pod_spec = spec(Value::Null);
    pod_spec["containers"][0]["resources"] =
        json!({"requests": {"nvidia.com/gpu": "1", "cpu": "1", "example.com/fpga": "2"}});
    pod_spec["initContainers"] =
        json!([{"name": "init", "image": "x", "resources": {"requests": {"acme.io/dongle": "1"}}}]);
    let req = request(
        "Deployment",
        "CREATE",
        Some(object("Deployment", "w", "team-a", pod_spec.clone())),
        None,
    );

    let d = eval(json!({"extendedResourceTolerations": true}), &req);
    assert_eq!(
        mutated_tolerations(&d, "Deployment"),
        json!([
            {"key": "acme.io/dongle", "operator": "Exists", "effect": "NoSchedule"},
            {"key": "example.com/fpga", "operator": "Exists", "effect": "NoSchedule"},
            {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
        ])
    );
    let d = eval(
        json!({"extendedResourceTolerations": ["nvidia.com/*"]}),
        &req,
    );
    assert_eq!(
        mutated_tolerations(&d, "Deployment"),
        json!([
            {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
        ])
    );

    let d = eval(
        json!({"defaultTolerationSeconds": {"notReady": 60, "unreachable": 120}}),
        &req,
    );
    assert_eq!(
        mutated_tolerations(&d, "Deployment"),
        json!([
            {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 60},
            {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 120}
        ])
    );
    // A wildcard-ish NoExecute toleration already covers both (upstream's rule).
    let covered = create(
        "Deployment",
        json!([{"key": "x", "operator": "Exists"}, {"operator": "Exists", "effect": "NoExecute"}]),
    );
    let d = eval(
        json!({"denyWildcardTolerations": false, "defaultTolerationSeconds": {"notReady": 60}}),
        &covered,
    );
    assert!(d.mutated_object.is_none());
}

#[test]
fn dedicated_nodes_add_toleration_and_affinity() {
    let s = json!({
        "protectedTaints": [{"key": "dedicated", "value": "gpu"}],
        "namespaceRules": [{"namespaces": ["ml-*"], "dedicatedNodes": {
            "toleration": {"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"},
            "nodeSelectorRequirement": {"key": "pool", "operator": "In", "values": ["gpu"]}
        }}]
    });
    let mut pod_spec = spec(Value::Null);
    pod_spec["affinity"] = json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]},
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]}
    ]}}});
    let req = request(
        "Deployment",
        "CREATE",
        Some(object("Deployment", "train", "ml-team", pod_spec)),
        None,
    );
    let d = eval(s.clone(), &req);
    assert!(d.accepted, "{:?}", d.message);
    let m = d.mutated_object.clone().unwrap();
    let terms = &m["spec"]["template"]["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
        ["nodeSelectorTerms"];
    assert_eq!(
        terms,
        &json!([
            {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}, {"key": "pool", "operator": "In", "values": ["gpu"]}]},
            {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}],
             "matchExpressions": [{"key": "pool", "operator": "In", "values": ["gpu"]}]}
        ])
    );
    assert_eq!(
        mutated_tolerations(&d, "Deployment"),
        json!([{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}])
    );
    // Idempotent; and the policy's own toleration is not judged against protectedTaints
    // when the mutated object comes back (mutating then validating deployment).
    let again = eval(s.clone(), &request("Deployment", "CREATE", Some(m), None));
    assert!(
        again.accepted && again.mutated_object.is_none(),
        "{:?}",
        again.message
    );
    // Elsewhere, the same toleration written by a user is protected.
    let d = eval(
        s,
        &create(
            "Deployment",
            json!([{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}]),
        ),
    );
    assert!(!d.accepted);
}

#[test]
fn dedicated_nodes_without_affinity_create_one_term() {
    let s = json!({"namespaceRules": [{"namespaces": ["*"], "dedicatedNodes": {
        "toleration": {"key": "dedicated", "operator": "Exists", "effect": "NoSchedule"},
        "nodeSelectorRequirement": {"key": "pool", "operator": "Exists"}
    }}]});
    let d = eval(s, &create("Pod", Value::Null));
    let m = d.mutated_object.unwrap();
    assert_eq!(
        m["spec"]["affinity"],
        json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
        {"nodeSelectorTerms": [{"matchExpressions": [{"key": "pool", "operator": "Exists"}]}]}}})
    );
}

#[test]
fn rejection_drops_the_mutation() {
    let s = json!({"defaultTolerations": [{"key": "team", "operator": "Exists", "effect": "NoSchedule"}]});
    let d = eval(s, &create("Pod", json!([{"operator": "Exists"}])));
    assert!(!d.accepted);
    assert!(d.mutated_object.is_none());
}

// ---------------------------------------------------------------------------------------
// Node guard
// ---------------------------------------------------------------------------------------

fn node(taints: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}, "spec": {"taints": taints}})
}

fn node_request(op: &str, new: Value, old: Option<Value>) -> Value {
    let mut r = request("Node", op, Some(new), old);
    r["kind"] = json!({"group": "", "version": "v1", "kind": "Node"});
    r["resource"] = json!({"group": "", "version": "v1", "resource": "nodes"});
    r
}

#[test]
fn node_guard() {
    let s = json!({"nodeGuard": {"enabled": true, "protectedTaintKeys": ["node-role.kubernetes.io/*"],
        "allowedGroups": ["system:masters"], "allowedServiceAccounts": ["kube-system:node-controller"]}});
    let old =
        node(json!([{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]));
    let new = node(json!([{"key": "team", "value": "a", "effect": "NoSchedule"}]));
    let r = node_request("UPDATE", new.clone(), Some(old.clone()));
    let d = eval(s.clone(), &r);
    assert_eq!(
        d.message.as_deref(),
        Some(
            "spec.taints: user \"alice\" may not remove protected taints: node-role.kubernetes.io/control-plane:NoSchedule"
        )
    );
    assert!(eval(s.clone(), &as_user(r.clone(), "root", &["system:masters"])).accepted);
    let r2 = node_request("UPDATE", old.clone(), Some(new.clone()));
    assert!(
        eval(s.clone(), &r2)
            .message
            .unwrap()
            .contains("may not add protected taints")
    );
    // Unprotected changes pass; invalid taints fail with upstream's messages.
    let r3 = node_request(
        "UPDATE",
        node(
            json!([{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"},
        {"key": "x", "effect": "NoSchedule"}]),
        ),
        Some(old),
    );
    assert!(eval(s.clone(), &r3).accepted);
    let r4 = node_request(
        "CREATE",
        node(json!([{"key": "x", "effect": "Bogus"}, {"key": "x", "effect": "Bogus"}])),
        None,
    );
    let d = eval(s.clone(), &r4);
    assert_eq!(d.code, Some(422));
    assert!(
        d.message
            .unwrap()
            .starts_with("metadata.taints[0].effect: Unsupported value: \"Bogus\"")
    );
    // Disabled: Nodes are not judged.
    assert!(eval(json!({}), &r2).accepted);
}

// ---------------------------------------------------------------------------------------
// Node checks
// ---------------------------------------------------------------------------------------

fn node_list(nodes: &[(&str, Value, Value)]) -> Vec<u8> {
    let items: Vec<Value> = nodes
        .iter()
        .map(|(name, labels, taints)| json!({"metadata": {"name": name, "labels": labels}, "spec": {"taints": taints}}))
        .collect();
    serde_json::to_vec(&json!({"apiVersion": "v1", "kind": "NodeList", "items": items})).unwrap()
}

fn cluster() -> Vec<taintlab_core::Node> {
    parse_node_list(&node_list(&[
        (
            "cp-1",
            json!({"node-role.kubernetes.io/control-plane": ""}),
            json!([{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]),
        ),
        (
            "gpu-1",
            json!({"pool": "gpu"}),
            json!([{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]),
        ),
        (
            "gpu-2",
            json!({"pool": "gpu"}),
            json!([{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]),
        ),
    ]))
    .unwrap()
}

#[test]
fn node_list_request_shape() {
    let s = settings(
        json!({"nodeChecks": {"enabled": true, "labelSelector": "kubernetes.io/os=linux",
        "protectTaintsOfNodes": "node-role.kubernetes.io/control-plane"}}),
    );
    let r = node_list_request(&create("Deployment", Value::Null), &s).unwrap();
    assert_eq!(
        serde_json::to_value(&r).unwrap(),
        json!({
            "api_version": "v1", "kind": "Node", "label_selector": "kubernetes.io/os=linux", "field_selector": null,
            "field_masks": ["metadata.name", "metadata.labels", "spec.taints", "spec.unschedulable"]
        })
    );
    assert!(node_list_request(&create("Deployment", Value::Null), &settings(json!({}))).is_none());
    // Bound pods and controlled pods need nothing.
    let mut bound = spec(Value::Null);
    bound["nodeName"] = json!("n1");
    let s2 = settings(json!({"nodeChecks": {"enabled": true}}));
    assert!(
        node_list_request(
            &request("Pod", "CREATE", Some(object("Pod", "p", "a", bound)), None),
            &s2
        )
        .is_none()
    );
    let mut owned = object("Pod", "p", "a", spec(Value::Null));
    owned["metadata"]["ownerReferences"] =
        json!([{"kind": "ReplicaSet", "name": "r", "uid": "1", "controller": true}]);
    assert!(node_list_request(&request("Pod", "CREATE", Some(owned), None), &s2).is_none());
    // No unschedulable check and no tolerations: nothing to look at.
    let s3 = settings(json!({"nodeChecks": {"enabled": true, "unschedulable": "ignore"}}));
    assert!(node_list_request(&create("Deployment", Value::Null), &s3).is_none());
    assert!(
        node_list_request(
            &create("Deployment", json!([{"key": "a", "operator": "Exists"}])),
            &s3
        )
        .is_some()
    );
}

#[test]
fn unschedulable_uses_the_scheduler_message() {
    let nodes = cluster();
    let s = settings(json!({"nodeChecks": {"enabled": true, "unschedulable": "deny"}}));
    let d = evaluate(&create("Deployment", Value::Null), &s, Some(&nodes));
    assert!(!d.accepted);
    assert_eq!(
        d.message.as_deref(),
        Some(
            "spec.template.spec: no node accepts the pod's tolerations: 0/3 nodes are available: 3 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
        )
    );
    // Older releases name the taint (the generic text arrived in 1.34.3).
    let s133 = settings(
        json!({"kubernetesVersion": "1.33", "nodeChecks": {"enabled": true, "unschedulable": "deny"}}),
    );
    let d = evaluate(&create("Deployment", Value::Null), &s133, Some(&nodes));
    assert!(
        d.message
            .as_deref()
            .unwrap()
            .contains("1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }"),
        "{:?}",
        d.message
    );
    let ok = evaluate(
        &create(
            "Deployment",
            json!([{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]),
        ),
        &s,
        Some(&nodes),
    );
    assert!(ok.accepted, "{:?}", ok.message);
    let warn = settings(json!({"nodeChecks": {"enabled": true}}));
    let d = evaluate(&create("Deployment", Value::Null), &warn, Some(&nodes));
    assert!(d.accepted);
    assert_eq!(d.warnings.len(), 1);
    assert!(d.warnings[0].contains("0/3 nodes are available"));
}

#[test]
fn unmatched_tolerations_and_protected_node_taints() {
    let nodes = cluster();
    let s = settings(
        json!({"nodeChecks": {"enabled": true, "unschedulable": "ignore", "unmatchedTolerations": "warn"}}),
    );
    let d = evaluate(
        &create(
            "Pod",
            json!([{"key": "dedicted", "value": "gpu", "effect": "NoSchedule"}]),
        ),
        &s,
        Some(&nodes),
    );
    assert_eq!(
        d.warnings,
        vec!["spec.tolerations[0]: dedicted=gpu:NoSchedule matches no taint on any of 3 nodes"]
    );

    let p = settings(
        json!({"nodeChecks": {"enabled": true, "unschedulable": "ignore", "unmatchedTolerations": "ignore",
        "protectTaintsOfNodes": "node-role.kubernetes.io/control-plane"}}),
    );
    let d = evaluate(
        &create(
            "Pod",
            json!([{"key": "node-role.kubernetes.io/control-plane", "operator": "Exists"}]),
        ),
        &p,
        Some(&nodes),
    );
    assert_eq!(
        d.message.as_deref(),
        Some(
            "spec.tolerations[0]: toleration {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: <any>} tolerates taints of nodes matching \"node-role.kubernetes.io/control-plane\": node-role.kubernetes.io/control-plane:NoSchedule (1 node)"
        )
    );
    assert!(
        evaluate(
            &create("Pod", json!([{"key": "dedicated", "operator": "Exists"}])),
            &p,
            Some(&nodes)
        )
        .accepted
    );
}

#[test]
fn daemonsets_get_the_daemon_tolerations_before_the_node_check() {
    let nodes = parse_node_list(&node_list(&[(
        "n1",
        json!({}),
        json!([{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}]),
    )]))
    .unwrap();
    let s = settings(json!({"nodeChecks": {"enabled": true, "unschedulable": "deny"}}));
    assert!(evaluate(&create("DaemonSet", Value::Null), &s, Some(&nodes)).accepted);
    assert!(!evaluate(&create("Deployment", Value::Null), &s, Some(&nodes)).accepted);
}

/// The waPC path (`payload::validate`, one scan of the payload that also reads the
/// object) answers exactly like `evaluate` on the parsed request.
#[test]
fn payload_path_matches_evaluate() {
    let settings_list = [
        json!({}),
        json!({"protectedTaints": [{"key": "dedicated"}], "maxTolerationSeconds": 60, "clampTolerationSeconds": true}),
        json!({"allowedTolerations": [], "defaultTolerations": [{"key": "t", "operator": "Exists", "effect": "NoSchedule"}]}),
    ];
    let tolerations = [
        Value::Null,
        json!([{"operator": "Exists"}]),
        json!([{"key": "dedicated", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 600}]),
        json!([{"key": "a", "operator": "Bogus"}]),
        json!("not a list"),
    ];
    for s in &settings_list {
        for kind in pod_kinds() {
            for t in &tolerations {
                let req = create(kind, t.clone());
                let via_eval = taintlab_policy::payload::response_json(&eval(s.clone(), &req));
                // As serialised (`kind` before `object`: one pass), and with `object`
                // first (the object is then read in a second pass).
                let mut rest = req.clone();
                let object = rest.as_object_mut().unwrap().remove("object").unwrap();
                let rest_text = rest.to_string();
                let object_first = format!("{{\"object\":{object},{}", &rest_text[1..]);
                for request_text in [req.to_string(), object_first] {
                    let payload = format!("{{\"request\":{request_text},\"settings\":{s}}}");
                    let via_payload = taintlab_policy::payload::response_json(
                        &taintlab_policy::payload::validate(payload.as_bytes(), |_| {
                            Err(String::from("no nodes"))
                        }),
                    );
                    assert_eq!(via_eval, via_payload, "{kind} {t} {s}");
                }
            }
        }
    }
}
