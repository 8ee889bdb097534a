//! Every fixture directory through the real waPC host, compared with its expected
//! AdmissionResponse; and the same payload through the native decision function, which
//! must answer byte for byte the same (the playground shows exactly the policy's answer).

use std::path::Path;

use serde_json::{Value, json};
use taintlab_policy_e2e::{
    Exchange, Policy, ReplayResponse, admission_response, apply_patch, callback_failure,
    read_session, unwrap_review,
};

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Answers the native decision's node list request from the same replay session, a
/// failed call worded as Kubewarden's evaluator words it (as the waPC host does).
fn native_list(
    session: &[Exchange],
) -> impl FnOnce(&taintlab_policy::NodeListRequest) -> Result<Vec<u8>, String> + '_ {
    move |_| match session.first() {
        Some(Exchange::Exchange {
            response: ReplayResponse::Success { payload },
            ..
        }) => Ok(payload.clone().into_bytes()),
        Some(Exchange::Exchange {
            response: ReplayResponse::Error { message },
            ..
        }) => Err(callback_failure(message)),
        None => Err(callback_failure("the list of recorded responses is empty")),
    }
}

fn check_case(policy: &Policy, dir: &Path) -> Result<(), String> {
    let request = read_json(&dir.join("request.json"));
    let settings = read_json(&dir.join("settings.json"));
    let expected = read_json(&dir.join("expected.json"));
    let session = match std::fs::read_to_string(dir.join("session.yml")) {
        Ok(yaml) => read_session(&yaml)?,
        Err(_) => Vec::new(),
    };

    let vs = policy.validate_settings_raw(settings.to_string().as_bytes())?;
    if vs != json!({"valid": true}) {
        return Err(format!("settings rejected: {vs}"));
    }
    policy.replay(session.clone());
    policy.take_calls();
    let response = policy.validate(&request, &settings)?;
    let calls = policy.take_calls();
    if calls.len() != session.len() {
        return Err(format!(
            "{} host calls for {} recorded exchanges: {calls:?}",
            calls.len(),
            session.len()
        ));
    }
    if policy.leftover_exchanges() != 0 {
        return Err(String::from("recorded exchanges left over"));
    }

    // Parity with the native decision function.
    let payload = json!({"request": unwrap_review(&request), "settings": settings}).to_string();
    let native = taintlab_policy::payload::response_json(&taintlab_policy::payload::validate(
        payload.as_bytes(),
        native_list(&session),
    ));
    if native != response {
        return Err(format!(
            "native and wasm answers differ:\n native {native}\n   wasm {response}"
        ));
    }

    let inner = unwrap_review(&request);
    let uid = inner.get("uid").and_then(Value::as_str).unwrap_or("");
    let object = inner.get("object").filter(|o| !o.is_null());
    let ar = admission_response(uid, object, &response);

    let mut problems = Vec::new();
    let mut expect = |what: &str, want: Option<&Value>, got: Option<&Value>| {
        let want = want.filter(|v| !v.is_null());
        let got = got.filter(|v| !v.is_null());
        if want != got {
            problems.push(format!("{what}: expected {want:?}, got {got:?}"));
        }
    };
    expect("allowed", expected.get("allowed"), ar.get("allowed"));
    expect(
        "message",
        expected.get("message"),
        ar.pointer("/status/message"),
    );
    expect("code", expected.get("code"), ar.pointer("/status/code"));
    expect("warnings", expected.get("warnings"), ar.get("warnings"));
    expect("patch", expected.get("patch"), ar.get("patchDecoded"));
    if let Some(want) = expected.get("auditAnnotations") {
        expect("auditAnnotations", Some(want), ar.get("auditAnnotations"));
    }
    if let (Some(patch), Some(obj)) = (ar.get("patchDecoded"), object) {
        let patched = apply_patch(obj, patch)?;
        if Some(&patched) != response.get("mutated_object") {
            problems.push(String::from("the patch does not reproduce mutated_object"));
        }
        if patch.as_array().is_some_and(|ops| {
            ops.iter()
                .any(|op| op["op"] != "add" && op["op"] != "replace")
        }) {
            problems.push(format!(
                "patch has operations other than add/replace: {patch}"
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n  "))
    }
}

#[test]
fn fixtures_through_the_wapc_host() {
    let policy = Policy::load_default();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("request.json").exists())
        .collect();
    dirs.sort();
    assert!(
        dirs.len() >= 30,
        "expected the fixture set, found {}",
        dirs.len()
    );
    let mut failures = Vec::new();
    for dir in &dirs {
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        match check_case(&policy, dir) {
            Ok(()) => println!("ok   {name}"),
            Err(e) => {
                println!("FAIL {name}\n  {e}");
                failures.push(name.to_string());
            }
        }
    }
    assert!(failures.is_empty(), "failing fixtures: {failures:?}");
}

#[test]
fn protocol_version_is_v1() {
    let policy = Policy::load_default();
    assert_eq!(policy.protocol_version().unwrap(), json!("v1"));
}

/// The settings the Rancher form produces from its defaults (nested by the dotted
/// variable names) pass `validate_settings`, so the form can never produce a policy
/// that fails to load.
#[test]
fn questions_ui_defaults_are_valid_settings() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../wasm/kubewarden/questions-ui.yml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc: Value = serde_yaml::from_str(&text).expect("questions-ui.yml is YAML");
    fn collect(questions: &Value, out: &mut serde_json::Map<String, Value>) {
        for q in questions.as_array().into_iter().flatten() {
            let (Some(var), Some(default)) = (q["variable"].as_str(), q.get("default")) else {
                continue;
            };
            if !default.is_null() {
                let mut parts = var.split('.').peekable();
                let mut cur = &mut *out;
                while let Some(p) = parts.next() {
                    if parts.peek().is_none() {
                        cur.insert(p.to_string(), default.clone());
                    } else {
                        let next = cur.entry(p.to_string()).or_insert_with(|| json!({}));
                        let Some(m) = next.as_object_mut() else { break };
                        cur = m;
                    }
                }
            }
            collect(&q["subquestions"], out);
        }
    }
    let mut settings = serde_json::Map::new();
    collect(&doc["questions"], &mut settings);
    let settings = Value::Object(settings);
    let policy = Policy::load_default();
    let answer = policy
        .validate_settings_raw(settings.to_string().as_bytes())
        .unwrap();
    assert_eq!(answer, json!({"valid": true}), "{settings}");
    // Turning the optional modes on keeps them valid.
    let mut on = settings.clone();
    on["nodeChecks"]["enabled"] = json!(true);
    on["nodeGuard"]["enabled"] = json!(true);
    let answer = policy
        .validate_settings_raw(on.to_string().as_bytes())
        .unwrap();
    assert_eq!(answer, json!({"valid": true}), "{on}");
}
