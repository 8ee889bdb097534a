//! Every shipped conformance case passes, and the runner rejects what it must.

use std::fs;

#[test]
fn every_shipped_case_passes() {
    let report = taintlab_conformance::run_dir(&taintlab_conformance::shipped_vectors_dir());
    let text = report.render(true);
    println!("{text}");
    assert!(
        report.passed() >= 1076,
        "expected at least 1076 cases:\n{text}"
    );
    assert!(report.all_passed(), "{text}");
}

#[test]
fn unknown_ops_and_wrong_expectations_fail() {
    let dir = std::env::temp_dir().join(format!("taintlab-conformance-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("bad.json"),
        r#"{"call": "toleratesTaint(toleration, taint, gate)", "cases": [
            {"name": "wrong on purpose", "input": {"toleration": {"key": "k", "operator": "Exists", "value": "", "effect": "", "tolerationSeconds": null}, "taint": {"key": "k", "value": "", "effect": "NoSchedule"}, "comparisonOperatorsEnabled": false}, "expected": {"tolerated": false}},
            {"name": "no such op", "op": "noSuchFunction", "input": {}, "expected": {}}
        ]}"#,
    )
    .unwrap();
    let report = taintlab_conformance::run_dir(&dir);
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(report.passed(), 0);
    assert_eq!(report.failed(), 2);
    assert!(!report.all_passed());
    let text = report.render(true);
    assert!(
        text.contains("FAIL [toleratesTaint] wrong on purpose"),
        "{text}"
    );
    assert!(text.contains("UNKNOWN OP [noSuchFunction]"), "{text}");
}

#[test]
fn empty_or_missing_directory_is_not_a_pass() {
    let report = taintlab_conformance::run_dir(std::path::Path::new("/nonexistent/taintlab"));
    assert!(!report.all_passed());
}
