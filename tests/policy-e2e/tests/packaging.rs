//! The packaging files agree with each other and with the module: metadata rules cover
//! every kind the policy judges, the annotated module carries exactly `metadata.yml` (as
//! `kwctl annotate` would write it), the Artifact Hub package embeds the same rules and
//! form, and every example's settings pass `validate_settings` in the real module.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use taintlab_policy_e2e::{Policy, metadata_section, wasm_bytes};

fn policy_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../wasm/kubewarden")
}

fn yaml(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn yaml_docs(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_yaml::Deserializer::from_str(&text)
        .map(|d| {
            serde::Deserialize::deserialize(d).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        })
        .collect()
}

fn resources(rules: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for r in rules.as_array().into_iter().flatten() {
        for g in r["apiGroups"].as_array().into_iter().flatten() {
            for res in r["resources"].as_array().into_iter().flatten() {
                out.push((
                    g.as_str().unwrap_or("").to_string(),
                    res.as_str().unwrap_or("").to_string(),
                ));
            }
        }
        let ops: Vec<&str> = r["operations"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        assert!(ops.contains(&"CREATE"), "{r}");
    }
    out
}

#[test]
fn metadata_is_complete() {
    let meta = yaml(&policy_dir().join("metadata.yml"));
    let res = resources(&meta["rules"]);
    for (g, r) in [
        ("", "pods"),
        ("", "replicationcontrollers"),
        ("apps", "deployments"),
        ("apps", "replicasets"),
        ("apps", "statefulsets"),
        ("apps", "daemonsets"),
        ("batch", "jobs"),
        ("batch", "cronjobs"),
        ("", "nodes"),
    ] {
        assert!(
            res.contains(&(g.to_string(), r.to_string())),
            "metadata rules lack {g}/{r}"
        );
    }
    assert_eq!(meta["mutating"], json!(true));
    assert_eq!(meta["executionMode"], json!("kubewarden-wapc"));
    assert_eq!(
        meta["contextAwareResources"],
        json!([{"apiVersion": "v1", "kind": "Node"}])
    );
    assert_eq!(
        meta["hostCapabilities"],
        json!(["kubernetes/list_resources_all"])
    );
    assert!(meta["backgroundAudit"].is_boolean());
    let a = &meta["annotations"];
    for key in [
        "io.kubewarden.policy.title",
        "io.kubewarden.policy.version",
        "io.kubewarden.policy.description",
        "io.kubewarden.policy.url",
        "io.kubewarden.policy.source",
        "io.kubewarden.policy.ociUrl",
        "io.kubewarden.policy.license",
        "io.kubewarden.policy.category",
        "io.kubewarden.policy.severity",
        "io.artifacthub.displayName",
        "io.artifacthub.resources",
        "io.artifacthub.keywords",
    ] {
        assert!(
            a[key].as_str().is_some_and(|s| !s.is_empty()),
            "missing annotation {key}"
        );
    }
    let author = a["io.kubewarden.policy.author"].as_str().unwrap_or("");
    assert!(
        author.contains(" <") && author.ends_with('>'),
        "author must be `Name <email>`: {author}"
    );
}

/// The `io.kubewarden.metadata` section of the module under test (the annotated module
/// `cargo xtask policy` writes) round-trips to `metadata.yml`: every field as written
/// there, the README as the usage annotation, the protocol version the module itself
/// answers, and otherwise only the defaults policy-evaluator's `Metadata` fills in.
#[test]
fn annotated_module_carries_metadata_yml() {
    let module = wasm_bytes();
    let section = metadata_section(&module).unwrap_or_else(|e| panic!("{e}"));
    let meta = yaml(&policy_dir().join("metadata.yml"));
    let readme = std::fs::read_to_string(policy_dir().join("README.md")).unwrap();

    let policy = Policy::load(&module).expect("the annotated module loads");
    assert_eq!(
        Some(&policy.protocol_version().unwrap()),
        section.get("protocolVersion"),
        "protocolVersion must be what the module answers"
    );

    let meta = meta.as_object().expect("metadata.yml is a mapping");
    for (key, want) in meta {
        if key != "annotations" {
            assert_eq!(section.get(key), Some(want), "{key}");
        }
    }
    let mut annotations = meta["annotations"].clone();
    annotations["io.kubewarden.policy.usage"] = json!(readme);
    assert_eq!(section["annotations"], annotations);

    let defaults = json!({
        "backgroundAudit": true,
        "executionMode": "kubewarden-wapc",
        "policyType": "kubernetes",
        "contextAwareResources": []
    });
    for (key, value) in section.as_object().unwrap() {
        if key == "protocolVersion" || meta.contains_key(key) {
            continue;
        }
        assert_eq!(
            defaults.get(key),
            Some(value),
            "{key} is neither in metadata.yml nor a default"
        );
    }
}

#[test]
fn artifacthub_package_matches_metadata_and_form() {
    let meta = yaml(&policy_dir().join("metadata.yml"));
    let pkg = yaml(&policy_dir().join("artifacthub-pkg.yml"));
    let questions = yaml(&policy_dir().join("questions-ui.yml"));
    assert_eq!(
        pkg["version"],
        meta["annotations"]["io.kubewarden.policy.version"]
    );
    assert_eq!(
        pkg["displayName"],
        meta["annotations"]["io.artifacthub.displayName"]
    );
    let ann = &pkg["annotations"];
    let rules: Value =
        serde_yaml::from_str(ann["kubewarden/rules"].as_str().unwrap_or("")).unwrap();
    assert_eq!(rules, meta["rules"]);
    let form: Value =
        serde_yaml::from_str(ann["kubewarden/questions-ui"].as_str().unwrap_or("")).unwrap();
    assert_eq!(form, questions);
    let car: Value = serde_yaml::from_str(
        ann["kubewarden/contextAwareResources"]
            .as_str()
            .unwrap_or(""),
    )
    .unwrap();
    assert_eq!(car, meta["contextAwareResources"]);
    assert_eq!(ann["kubewarden/mutation"], json!("true"));
    let image = pkg["containersImages"][0]["image"].as_str().unwrap_or("");
    let oci = meta["annotations"]["io.kubewarden.policy.ociUrl"]
        .as_str()
        .unwrap_or("?");
    assert!(image.starts_with(oci), "{image} vs {oci}");
}

#[test]
fn every_example_policy_has_valid_settings() {
    let policy = Policy::load_default();
    let dir = policy_dir().join("examples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    files.sort();
    let mut policies = 0;
    let mut kinds_seen = Vec::new();
    for file in &files {
        for doc in yaml_docs(file) {
            kinds_seen.push(doc["kind"].as_str().unwrap_or("").to_string());
            if doc["kind"] != json!("ClusterAdmissionPolicy") {
                continue;
            }
            policies += 1;
            let settings = &doc["spec"]["settings"];
            let answer = policy
                .validate_settings_raw(settings.to_string().as_bytes())
                .unwrap();
            assert_eq!(
                answer,
                json!({"valid": true}),
                "{}: {settings}",
                file.display()
            );
            let uses_nodes = settings["nodeChecks"]["enabled"] == json!(true);
            assert_eq!(
                doc["spec"]["contextAwareResources"]
                    == json!([{"apiVersion": "v1", "kind": "Node"}]),
                uses_nodes,
                "{}: contextAwareResources must list v1/Node exactly when node checks are on",
                file.display()
            );
            let res = resources(&doc["spec"]["rules"]);
            let guards_nodes = settings["nodeGuard"]["enabled"] == json!(true);
            assert_eq!(
                res.contains(&(String::new(), "nodes".into())),
                guards_nodes,
                "{}",
                file.display()
            );
        }
    }
    assert!(
        policies >= 4,
        "one ClusterAdmissionPolicy per mode, found {policies}"
    );
    for k in ["ClusterRole", "ClusterRoleBinding", "PolicyServer"] {
        assert!(kinds_seen.iter().any(|s| s == k), "examples lack a {k}");
    }
}

/// The policy README's kwctl commands name fixture files that exist, and the module
/// `cargo xtask policy` writes.
#[test]
fn readme_kwctl_commands_name_real_files() {
    let readme = std::fs::read_to_string(policy_dir().join("README.md")).unwrap();
    let root = policy_dir().join("../..");
    let mut named = 0;
    for (at, _) in readme.match_indices("tests/policy-e2e/fixtures/") {
        let rest = &readme[at..];
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '`' || c == ')')
            .unwrap_or(rest.len());
        let path = rest[..end].trim_end_matches(['.', ',', ':']);
        if path.ends_with(".json") || path.ends_with(".yml") {
            named += 1;
            assert!(root.join(path).is_file(), "README names missing {path}");
        }
    }
    assert!(named >= 4, "README names {named} fixture files");
    assert!(readme.contains("target/wasm32-wasip1/policy/annotated-policy.wasm"));
}
