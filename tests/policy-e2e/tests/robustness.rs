//! Bad input never traps the module: malformed ValidationRequests and settings each get a
//! well-formed answer with a clear message, and the instance keeps working afterwards.

use serde_json::{Value, json};
use taintlab_policy_e2e::Policy;

fn pod_request(object: Value) -> Value {
    json!({
        "uid": "u1",
        "kind": {"group": "", "version": "v1", "kind": "Pod"},
        "resource": {"group": "", "version": "v1", "resource": "pods"},
        "operation": "CREATE",
        "namespace": "team-a",
        "userInfo": {"username": "alice", "groups": ["dev"]},
        "object": object
    })
}

fn pod_with(tolerations: Value) -> Value {
    pod_request(
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "team-a"},
        "spec": {"containers": [{"name": "c", "image": "i"}], "tolerations": tolerations}}),
    )
}

fn wrap(request: Value) -> Vec<u8> {
    json!({"request": request, "settings": {}})
        .to_string()
        .into_bytes()
}

fn with(mut base: Value, pointer: &str, value: Value) -> Value {
    if let Some(slot) = base.pointer_mut(pointer) {
        *slot = value;
        return base;
    }
    // Create the last key when it is missing.
    let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", pointer));
    if let Some(Value::Object(map)) = base.pointer_mut(parent) {
        map.insert(key.to_string(), value);
    }
    base
}

fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

/// `(name, payload, expected acceptance or None when either is fine)`.
fn malformed_requests() -> Vec<(&'static str, Vec<u8>, Option<bool>)> {
    let ok = pod_with(json!([{"key": "a", "operator": "Exists"}]));
    let mut cases: Vec<(&'static str, Vec<u8>, Option<bool>)> = vec![
        ("empty payload", b"".to_vec(), Some(false)),
        ("truncated JSON", br#"{"request": {"uid": "#.to_vec(), Some(false)),
        ("null payload", b"null".to_vec(), Some(false)),
        ("array payload", b"[]".to_vec(), Some(false)),
        ("number payload", b"42".to_vec(), Some(false)),
        ("string payload", br#""validate""#.to_vec(), Some(false)),
        ("invalid UTF-8", vec![b'{', 0xff, 0xfe, b'}'], Some(false)),
        ("nested 10000 deep", format!(r#"{{"request": {}}}"#, nested(10_000)).into_bytes(), Some(false)),
        ("no request", br#"{"settings": {}}"#.to_vec(), Some(false)),
        ("request null", br#"{"request": null, "settings": {}}"#.to_vec(), Some(false)),
        ("request number", wrap(json!(5)), Some(false)),
        ("request array", wrap(json!([])), Some(false)),
        ("request empty object", wrap(json!({})), Some(false)),
        ("kind is a string", wrap(with(ok.clone(), "/kind", json!("Pod"))), Some(false)),
        ("kind.kind missing", wrap(with(ok.clone(), "/kind", json!({"group": ""}))), Some(false)),
        ("kind.kind number", wrap(with(ok.clone(), "/kind/kind", json!(1))), Some(false)),
        ("operation missing", wrap(with(ok.clone(), "/operation", Value::Null)), Some(false)),
        ("operation lower case", wrap(with(ok.clone(), "/operation", json!("create"))), Some(false)),
        ("operation number", wrap(with(ok.clone(), "/operation", json!(1))), Some(false)),
        ("namespace number", wrap(with(ok.clone(), "/namespace", json!(7))), Some(false)),
        ("subResource number", wrap(with(ok.clone(), "/subResource", json!(7))), Some(false)),
        ("userInfo.groups string", wrap(with(ok.clone(), "/userInfo/groups", json!("dev"))), Some(false)),
        ("userInfo.groups numbers", wrap(with(ok.clone(), "/userInfo/groups", json!([1, 2]))), Some(false)),
        ("object missing on CREATE", wrap(with(ok.clone(), "/object", Value::Null)), Some(false)),
        ("object is a string", wrap(with(ok.clone(), "/object", json!("pod"))), Some(false)),
        ("spec is an array", wrap(with(ok.clone(), "/object/spec", json!([]))), Some(false)),
        ("tolerations is a string", wrap(pod_with(json!("all"))), Some(false)),
        ("toleration is a number", wrap(pod_with(json!([5]))), Some(false)),
        ("toleration is null", wrap(pod_with(json!([null]))), Some(false)),
        ("key is a number", wrap(pod_with(json!([{"key": 1}]))), Some(false)),
        ("operator is an object", wrap(pod_with(json!([{"key": "a", "operator": {}}]))), Some(false)),
        ("tolerationSeconds string", wrap(pod_with(json!([{"key": "a", "effect": "NoExecute", "tolerationSeconds": "60"}]))), Some(false)),
        ("tolerationSeconds float", wrap(pod_with(json!([{"key": "a", "effect": "NoExecute", "tolerationSeconds": 1.5}]))), Some(false)),
        ("tolerationSeconds 1e30", br#"{"settings":{},"request":{"kind":{"kind":"Pod"},"operation":"CREATE","object":{"spec":{"tolerations":[{"key":"a","effect":"NoExecute","tolerationSeconds":1e30}]}}}}"#.to_vec(), Some(false)),
        ("tolerationSeconds 1e400", br#"{"settings":{},"request":{"kind":{"kind":"Pod"},"operation":"CREATE","object":{"spec":{"tolerations":[{"key":"a","effect":"NoExecute","tolerationSeconds":1e400}]}}}}"#.to_vec(), Some(false)),
        ("tolerationSeconds i64::MAX", wrap(pod_with(json!([{"key": "a", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": i64::MAX}]))), Some(true)),
        ("tolerationSeconds i64::MIN", wrap(pod_with(json!([{"key": "a", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": i64::MIN}]))), Some(true)),
        ("tolerationSeconds u64::MAX", wrap(pod_with(json!([{"key": "a", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": u64::MAX}]))), Some(false)),
        ("unknown operator", wrap(pod_with(json!([{"key": "a", "operator": "In"}]))), Some(false)),
        ("unknown effect", wrap(pod_with(json!([{"key": "a", "operator": "Exists", "effect": "NoRun"}]))), Some(false)),
        ("non-ASCII key", wrap(pod_with(json!([{"key": "ключ\u{200b}", "operator": "Exists"}]))), Some(false)),
        ("1 MB key", wrap(pod_with(json!([{"key": "k".repeat(1 << 20), "operator": "Exists"}]))), Some(false)),
        ("Lt with a non-number", wrap(pod_with(json!([{"key": "a", "operator": "Lt", "value": "ten"}]))), Some(false)),
        ("extra unknown fields", wrap(pod_with(json!([{"key": "a", "operator": "Exists", "x-extra": [1, {"y": null}]}]))), Some(true)),
        ("DELETE without object", wrap(with(with(ok.clone(), "/operation", json!("DELETE")), "/object", Value::Null)), Some(true)),
        ("CONNECT", wrap(with(ok.clone(), "/operation", json!("CONNECT"))), Some(true)),
        ("subresource status", wrap(with(pod_with(json!([{"operator": "Exists"}])), "/subResource", json!("status"))), Some(true)),
        ("unknown kind", wrap(with(ok.clone(), "/kind", json!({"group": "", "version": "v1", "kind": "Secret"}))), Some(true)),
        ("Pod in the apps group", wrap(with(ok.clone(), "/kind", json!({"group": "apps", "version": "v1", "kind": "Pod"}))), Some(true)),
        ("AdmissionReview with null request", wrap(json!({"kind": "AdmissionReview", "request": null})), Some(false)),
        ("settings is a number", br#"{"request": {}, "settings": 5}"#.to_vec(), Some(false)),
        ("settings unknown field", json!({"request": ok.clone(), "settings": {"denyWildcard": true}}).to_string().into_bytes(), Some(false)),
        ("settings wrong type", json!({"request": ok.clone(), "settings": {"denyWildcardTolerations": "yes"}}).to_string().into_bytes(), Some(false)),
        ("CronJob jobTemplate string", wrap(json!({"kind": {"group": "batch", "version": "v1", "kind": "CronJob"}, "operation": "CREATE",
            "object": {"spec": {"jobTemplate": "x"}}})), Some(false)),
        ("Deployment template null", wrap(json!({"kind": {"group": "apps", "version": "v1", "kind": "Deployment"}, "operation": "CREATE",
            "object": {"spec": {"template": null}}})), Some(true)),
        ("UPDATE with malformed oldObject", wrap(with(with(ok.clone(), "/operation", json!("UPDATE")), "/oldObject", json!({"spec": {"tolerations": 3}}))), Some(true)),
        ("100k identical tolerations", wrap(pod_with(Value::Array(vec![json!({"key": "a", "operator": "Exists"}); 100_000]))), Some(true)),
        ("20k invalid tolerations", wrap(pod_with(Value::Array(vec![json!({"key": "bad key", "operator": "Equal", "value": "bad value"}); 20_000]))), Some(false)),
        ("10k distinct wildcards", wrap(pod_with(Value::Array((0..10_000).map(|i| json!({"operator": "Exists", "tolerationSeconds": i, "effect": "NoExecute"})).collect()))), Some(false)),
    ];
    // Pod UPDATE with 50k tolerations before and after (upstream's update check is
    // quadratic; the policy's is not).
    let many: Vec<Value> = (0..50_000)
        .map(|i| json!({"key": format!("k{i}"), "operator": "Exists"}))
        .collect();
    let mut more = many.clone();
    more.push(json!({"key": "extra", "operator": "Exists"}));
    let upd = with(
        with(pod_with(Value::Array(more)), "/operation", json!("UPDATE")),
        "/oldObject",
        json!({"spec": {"tolerations": many}}),
    );
    cases.push(("UPDATE with 50k tolerations", wrap(upd), Some(true)));
    // Node guard on, Node objects with broken taints.
    let node = |taints: Value| {
        json!({"settings": {"nodeGuard": {"enabled": true, "protectedTaintKeys": ["*"]}},
            "request": {"kind": {"group": "", "version": "v1", "kind": "Node"}, "operation": "UPDATE",
                "object": {"spec": {"taints": taints}}, "oldObject": {"spec": {}}}})
        .to_string()
        .into_bytes()
    };
    cases.push(("Node taints string", node(json!("x")), Some(false)));
    cases.push((
        "Node taint key number",
        node(json!([{"key": 1, "effect": "NoSchedule"}])),
        Some(false),
    ));
    cases.push((
        "Node taint without effect",
        node(json!([{"key": "a"}])),
        Some(false),
    ));
    cases
}

#[test]
fn malformed_requests_get_clear_answers() {
    let policy = Policy::load_default();
    let cases = malformed_requests();
    assert!(cases.len() >= 50, "{} cases", cases.len());
    let mut failures = Vec::new();
    for (name, payload, want) in &cases {
        let start = std::time::Instant::now();
        let answer = policy.validate_raw(payload);
        let took = start.elapsed();
        match answer {
            Err(e) => failures.push(format!("{name}: trapped or failed: {e}")),
            Ok(resp) => {
                let accepted = resp.get("accepted").and_then(Value::as_bool);
                let message = resp.get("message").and_then(Value::as_str).unwrap_or("");
                let mut line = format!(
                    "{name}: accepted={accepted:?} ({took:?}) {}",
                    message.chars().take(140).collect::<String>()
                );
                if accepted.is_none() {
                    failures.push(format!("{name}: no accepted field: {resp}"));
                }
                if accepted == Some(false) && message.is_empty() {
                    failures.push(format!("{name}: rejected without a message"));
                }
                if let (Some(w), Some(a)) = (want, accepted)
                    && *w != a
                {
                    failures.push(format!("{name}: expected accepted={w}, got {a}: {message}"));
                }
                if message.len() > 2 << 20 {
                    failures.push(format!("{name}: message of {} bytes", message.len()));
                }
                if let Some(w) = resp.get("warnings").and_then(Value::as_array) {
                    line.push_str(&format!(" [{} warnings]", w.len()));
                    if w.len() > taintlab_policy::MAX_WARNINGS + 1 {
                        failures.push(format!("{name}: {} warnings", w.len()));
                    }
                }
                println!("{line}");
            }
        }
    }
    // The instance still answers normally.
    let ok = policy
        .validate_raw(&wrap(pod_with(json!([{"key": "a", "operator": "Exists"}]))))
        .unwrap();
    assert_eq!(ok.get("accepted"), Some(&json!(true)));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `(name, settings bytes, expected message fragment)`.
fn malformed_settings() -> Vec<(&'static str, String, &'static str)> {
    let s = |v: Value| v.to_string();
    vec![
        (
            "truncated",
            String::from("{\"protectedTaints\": ["),
            "not JSON",
        ),
        (
            "array",
            String::from("[]"),
            "invalid settings: expected a JSON object, got an array",
        ),
        (
            "number",
            String::from("5"),
            "invalid settings: expected a JSON object, got a number",
        ),
        (
            "deep nesting",
            format!("{{\"x\": {}}}", nested(5000)),
            "not JSON",
        ),
        (
            "huge number",
            String::from("{\"maxTolerationSeconds\": 1e400}"),
            "not JSON",
        ),
        (
            "unknown field",
            s(json!({"denyWildcard": true})),
            "denyWildcard: unknown field, expected one of denyWildcardTolerations",
        ),
        (
            "unknown nested field",
            s(json!({"nodeChecks": {"enable": true}})),
            "nodeChecks.enable: unknown field",
        ),
        (
            "wrong type",
            s(json!({"denyWildcardTolerations": "yes"})),
            "denyWildcardTolerations: expected true or false, got a string",
        ),
        (
            "list expected",
            s(json!({"protectedTaints": {}})),
            "protectedTaints: expected a list, got an object",
        ),
        (
            "pattern without key",
            s(json!({"protectedTaints": [{}]})),
            "protectedTaints[0]: key or keyPattern is required",
        ),
        (
            "key and keyPattern",
            s(json!({"protectedTaints": [{"key": "a", "keyPattern": "a*"}]})),
            "protectedTaints[0]: give either key or keyPattern, not both",
        ),
        (
            "bracket glob",
            s(json!({"protectedTaints": [{"keyPattern": "node-role.kubernetes.io/[a-z]*"}]})),
            "unsupported glob syntax '['",
        ),
        (
            "bad effect",
            s(json!({"protectedTaints": [{"key": "a", "effect": "Sometimes"}]})),
            "protectedTaints[0].effect: \"Sometimes\" is not one of NoSchedule, PreferNoSchedule, NoExecute",
        ),
        (
            "bad value",
            s(json!({"protectedTaints": [{"key": "a", "value": "not valid!"}]})),
            "protectedTaints[0].value: \"not valid!\" is not a valid taint value",
        ),
        (
            "bad key",
            s(json!({"protectedTaints": [{"key": "a/b/c"}]})),
            "protectedTaints[0].key: \"a/b/c\" is not a valid taint key",
        ),
        (
            "values of the wrong type",
            s(json!({"allowedTolerations": [{"key": "a", "values": [5]}]})),
            "allowedTolerations[0].values[0]: expected a string, got a number",
        ),
        (
            "negative max",
            s(json!({"maxTolerationSeconds": -1})),
            "maxTolerationSeconds: must not be negative, got -1",
        ),
        (
            "fractional max",
            s(json!({"maxTolerationSeconds": 1.5})),
            "maxTolerationSeconds: expected a 64-bit integer",
        ),
        (
            "string max",
            s(json!({"maxTolerationSeconds": "60"})),
            "maxTolerationSeconds: expected an integer, got a string",
        ),
        (
            "clamp without max",
            s(json!({"clampTolerationSeconds": true})),
            "clampTolerationSeconds: needs maxTolerationSeconds",
        ),
        (
            "version",
            s(json!({"kubernetesVersion": "2.0"})),
            "kubernetesVersion: \"2.0\" is not a Kubernetes release",
        ),
        (
            "gate before 1.35",
            s(json!({"kubernetesVersion": "1.33", "comparisonOperators": true})),
            "comparisonOperators: the TaintTolerationComparisonOperators gate exists from 1.35 on",
        ),
        (
            "upper-case namespace glob",
            s(json!({"exemptNamespaces": ["Team-*"]})),
            "exemptNamespaces[0]: \"Team-*\": character 'T' can never match",
        ),
        (
            "empty glob",
            s(json!({"exemptUsers": [""]})),
            "exemptUsers[0]: \"\": must not be empty",
        ),
        (
            "service account form",
            s(json!({"exemptServiceAccounts": ["argocd"]})),
            "exemptServiceAccounts[0]: \"argocd\" must have the form namespace:name",
        ),
        (
            "rule without namespaces",
            s(json!({"namespaceRules": [{"maxTolerationSeconds": 5}]})),
            "namespaceRules[0].namespaces: must list at least one namespace glob",
        ),
        (
            "wildcard default",
            s(json!({"defaultTolerations": [{"operator": "Exists"}]})),
            "defaultTolerations[0]: wildcard toleration while denyWildcardTolerations is true",
        ),
        (
            "invalid default",
            s(json!({"defaultTolerations": [{"key": "a", "operator": "Exists", "value": "x"}]})),
            "defaultTolerations[0].operator: Invalid value: \"x\": value must be empty when `operator` is 'Exists'",
        ),
        (
            "default over the maximum",
            s(
                json!({"maxTolerationSeconds": 60, "defaultTolerations": [{"key": "a", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 61}]}),
            ),
            "defaultTolerations[0]: tolerationSeconds must be set and at most maxTolerationSeconds (60)",
        ),
        (
            "default without required seconds",
            s(
                json!({"requireTolerationSeconds": true, "defaultTolerations": [{"key": "a", "operator": "Exists", "effect": "NoExecute"}]}),
            ),
            "defaultTolerations[0]: tolerationSeconds is required by requireTolerationSeconds",
        ),
        (
            "default unknown field",
            s(json!({"defaultTolerations": [{"key": "a", "seconds": 5}]})),
            "defaultTolerations[0].seconds: unknown field",
        ),
        (
            "extended resources type",
            s(json!({"extendedResourceTolerations": "yes"})),
            "extendedResourceTolerations: expected true, false or a list of resource-name globs, got a string",
        ),
        (
            "bad action",
            s(json!({"nodeChecks": {"enabled": true, "unschedulable": "maybe"}})),
            "nodeChecks.unschedulable: \"maybe\" is not one of ignore, warn, deny",
        ),
        (
            "deny without enabled",
            s(json!({"nodeChecks": {"unmatchedTolerations": "deny"}})),
            "nodeChecks.unmatchedTolerations: deny needs nodeChecks.enabled: true",
        ),
        (
            "bad selector",
            s(json!({"nodeChecks": {"enabled": true, "labelSelector": "pool in gpu"}})),
            "nodeChecks.labelSelector: unable to parse requirement",
        ),
        (
            "silent list errors",
            s(json!({"nodeChecks": {"enabled": true, "onListError": "ignore"}})),
            "nodeChecks.onListError: must be warn or deny",
        ),
        (
            "guard that does nothing",
            s(json!({"nodeGuard": {"enabled": true, "validateTaints": false}})),
            "nodeGuard: enabled with no protectedTaintKeys and validateTaints false does nothing",
        ),
        (
            "dedicated without requirement",
            s(
                json!({"namespaceRules": [{"namespaces": ["a"], "dedicatedNodes": {"toleration": {"key": "d", "operator": "Exists"}}}]}),
            ),
            "namespaceRules[0].dedicatedNodes.nodeSelectorRequirement: required",
        ),
        (
            "bad requirement operator",
            s(
                json!({"namespaceRules": [{"namespaces": ["a"], "dedicatedNodes": {"toleration": {"key": "d", "operator": "Exists"},
            "nodeSelectorRequirement": {"key": "pool", "operator": "Equals", "values": ["x"]}}}]}),
            ),
            "nodeSelectorRequirement.operator: \"Equals\" is not one of In, NotIn, Exists, DoesNotExist, Gt, Lt",
        ),
        (
            "bad systemTolerations",
            s(json!({"systemTolerations": "sometimes"})),
            "systemTolerations: \"sometimes\" is not one of allow, validate",
        ),
    ]
}

#[test]
fn malformed_settings_get_clear_answers() {
    let policy = Policy::load_default();
    let cases = malformed_settings();
    assert!(cases.len() >= 35);
    let mut failures = Vec::new();
    for (name, settings, fragment) in &cases {
        match policy.validate_settings_raw(settings.as_bytes()) {
            Err(e) => failures.push(format!("{name}: trapped or failed: {e}")),
            Ok(resp) => {
                let valid = resp.get("valid").and_then(Value::as_bool);
                let message = resp.get("message").and_then(Value::as_str).unwrap_or("");
                println!("{name}: valid={valid:?} {message}");
                if valid != Some(false) {
                    failures.push(format!("{name}: expected valid=false, got {resp}"));
                } else if !message.contains(fragment) {
                    failures.push(format!("{name}: message {message:?} lacks {fragment:?}"));
                }
            }
        }
        // The same settings in a validate call: a rejection, not a trap.
        let payload = format!("{{\"request\": {{}}, \"settings\": {settings}}}");
        if let Err(e) = policy.validate_raw(payload.as_bytes()) {
            failures.push(format!("{name}: validate trapped: {e}"));
        }
    }
    for good in ["", "{}", "null", r#"{"denyWildcardTolerations": null}"#] {
        let resp = policy.validate_settings_raw(good.as_bytes()).unwrap();
        assert_eq!(resp, json!({"valid": true}), "{good:?}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
