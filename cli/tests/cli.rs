//! The built `taintlab` binary on fixture files: exit codes, the FailedScheduling text
//! and the JSON the scenario and the npm package give for the same texts, standard
//! input, directories, located errors, colour, completions and the kubectl plugin name.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use taintlab_core::KubeVersion;
use taintlab_scenario::{Options, PaneKind, ParsedPane, Scenario};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(fixtures().join(name)).expect("fixture")
}

/// Runs the binary in the fixtures directory, with no colour variables set.
fn run(args: &[&str]) -> Output {
    run_with(args, None, &[])
}

fn run_with(args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_taintlab"));
    c.args(args)
        .current_dir(fixtures())
        .env_remove("NO_COLOR")
        .env_remove("COLUMNS")
        .env_remove("TAINTLAB_CONFIG")
        .env("XDG_CONFIG_HOME", fixtures().join("no-such-config-dir"))
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().expect("the binary runs");
    if let Some(text) = stdin {
        // A command that rejects its arguments exits without reading its input, so the
        // write may find the pipe closed: that is the command's answer, not a failure.
        let written = child
            .stdin
            .take()
            .expect("stdin")
            .write_all(text.as_bytes());
        if let Err(e) = written {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
        }
    }
    child.wait_with_output().expect("output")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8 stderr")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exit code")
}

/// JSON text without the whitespace outside strings.
fn compact(json: &str) -> String {
    let mut out = String::new();
    let (mut in_string, mut escaped) = (false, false);
    for c in json.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}

/// The scenario of a Nodes pane and a Pods pane, as the playground builds it.
fn scenario(nodes: &str, pods: &str) -> Scenario {
    let v = KubeVersion::NEWEST;
    let options = Options {
        admission: Some(Default::default()),
        ..Options::default()
    };
    let n = ParsedPane::parse(nodes, PaneKind::Nodes, v);
    let p = ParsedPane::parse(pods, PaneKind::Pods, v);
    Scenario::build(&[&n, &p], &options)
}

fn npm_analyze(input: serde_json::Value) -> String {
    let options = serde_json::json!({
        "kubernetesVersion": KubeVersion::NEWEST.to_string(),
        "comparisonOperators": false,
        "admission": true,
    });
    taintlab_json::api::analyze(&input.into(), &options.into()).expect("analyze")
}

#[test]
fn why_prints_the_scenarios_failed_scheduling_text_and_exits_1() {
    let o = run(&[
        "why",
        "web",
        "-f",
        "manifests/web.yaml",
        "--nodes",
        "nodes.json",
    ]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let s = scenario(&fixture("nodes.json"), &fixture("manifests/web.yaml"));
    let expected = s.message(0).expect("web fits nowhere");
    let out = stdout(&o);
    assert!(
        out.contains(&format!("Warning  FailedScheduling  {expected}\n")),
        "{out}"
    );
    // Per node: the first filter that rejects it, and what to change.
    assert!(
        out.contains("worker-1  rejected   NodeUnschedulable"),
        "{out}"
    );
    assert!(out.contains("(nvidia.com/gpu=present:NoSchedule)"), "{out}");
    assert!(out.contains("kubectl uncordon worker-1"), "{out}");
    assert!(out.contains("- key: \"dedicated\"\n"), "{out}");
    assert!(out.contains("value: \"db\"\n"), "{out}");
}

#[test]
fn why_exits_0_when_the_pod_fits_and_2_for_an_unknown_pod() {
    let args = ["-f", "manifests", "--nodes", "nodes.json"];
    let ok = run(&[&["why", "job/trainer"][..], &args].concat());
    assert_eq!(code(&ok), 0, "{}", stderr(&ok));
    assert!(
        stdout(&ok).contains("it fits 1 of 3 nodes"),
        "{}",
        stdout(&ok)
    );
    let missing = run(&[&["why", "nope"][..], &args].concat());
    assert_eq!(code(&missing), 2);
    assert!(stdout(&missing).is_empty());
    assert!(
        stderr(&missing).contains("job/ml/trainer"),
        "{}",
        stderr(&missing)
    );
}

#[test]
fn why_one_node_in_depth() {
    let o = run(&[
        "why",
        "ml/trainer",
        "-f",
        "manifests",
        "--nodes",
        "nodes.json",
        "--node",
        "db-1",
    ]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(
        out.contains("rejected by TaintToleration: node(s) had untolerated taint(s) (dedicated=db:NoSchedule)"),
        "{out}"
    );
    assert!(out.contains("maintenance:PreferNoSchedule"), "{out}");
    let gpu = run(&[
        "why",
        "trainer",
        "-f",
        "manifests",
        "--nodes",
        "nodes.json",
        "--node",
        "gpu-1",
    ]);
    assert_eq!(code(&gpu), 0);
    assert!(
        stdout(&gpu).contains("tolerated by [0]"),
        "{}",
        stdout(&gpu)
    );
}

#[test]
fn schedule_json_is_npm_analyze_for_the_same_panes() {
    let o = run(&[
        "schedule",
        "-f",
        "manifests/web.yaml",
        "--nodes",
        "nodes.json",
        "-o",
        "json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let expected = npm_analyze(serde_json::json!({
        "nodes": fixture("nodes.json"),
        "pods": fixture("manifests/web.yaml"),
    }));
    assert_eq!(compact(&stdout(&o)), compact(&expected));
    // And the message in it is the scenario's.
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let s = scenario(&fixture("nodes.json"), &fixture("manifests/web.yaml"));
    assert_eq!(v["pods"][0]["schedule"]["message"], s.message(0).unwrap());
}

#[test]
fn one_combined_text_is_npm_analyze_of_the_text() {
    let o = run(&["schedule", "-f", "eviction.yaml", "-o", "json"]);
    assert_eq!(code(&o), 0);
    let expected = npm_analyze(serde_json::json!(fixture("eviction.yaml")));
    assert_eq!(compact(&stdout(&o)), compact(&expected));
}

#[test]
fn why_and_timeline_json_are_parts_of_npm_analyze() {
    let analyze: serde_json::Value =
        serde_json::from_str(&npm_analyze(serde_json::json!(fixture("eviction.yaml"))))
            .expect("JSON");
    let o = run(&["why", "impatient", "-f", "eviction.yaml", "-o", "json"]);
    assert_eq!(code(&o), 0);
    let why: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(why, analyze["pods"][1]);
    let t = run(&["timeline", "-f", "eviction.yaml", "-o", "json"]);
    assert_eq!(code(&t), 0);
    let timeline: serde_json::Value = serde_json::from_str(&stdout(&t)).expect("JSON");
    let items = timeline.as_array().expect("array");
    assert_eq!(items.len(), 3);
    assert_eq!(items[1]["pod"], "impatient");
    assert_eq!(
        items[1]["eviction"],
        analyze["pods"][1]["nodes"][0]["eviction"]
    );
    assert_eq!(items[1]["eviction"]["pods"][0]["evictedAt"], 10);
    let yaml = run(&["timeline", "-f", "eviction.yaml", "-o", "yaml"]);
    assert_eq!(code(&yaml), 0);
    assert!(
        stdout(&yaml).contains("evictedAt: 600"),
        "{}",
        stdout(&yaml)
    );
}

#[test]
fn timeline_text() {
    let o = run(&["timeline", "-f", "eviction.yaml", "--pod", "patient"]);
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    assert!(out.contains("eviction scheduled for 600s"), "{out}");
    assert!(
        out.contains("Marking for deletion Pod default/patient"),
        "{out}"
    );
    assert!(!out.contains("impatient"), "{out}");
}

#[test]
fn standard_input_is_read_with_dash_and_when_piped() {
    let text = fixture("mix.yaml");
    let from_file = run(&["schedule", "-f", "mix.yaml"]);
    let dash = run_with(&["schedule", "-f", "-"], Some(&text), &[]);
    let piped = run_with(&["schedule"], Some(&text), &[]);
    assert_eq!(code(&from_file), 0);
    assert_eq!(stdout(&dash), stdout(&from_file));
    assert_eq!(stdout(&piped), stdout(&from_file));
    assert!(
        stdout(&from_file).contains("blue  ✗ cordon  ✗ taint  ✓ 300"),
        "{}",
        stdout(&from_file)
    );
    // Nodes piped in, as `kubectl get nodes -o json | taintlab ...`.
    let nodes = run_with(
        &["why", "web", "-f", "manifests/web.yaml", "--nodes", "-"],
        Some(&fixture("nodes.json")),
        &[],
    );
    assert_eq!(code(&nodes), 1, "{}", stderr(&nodes));
    let twice = run_with(&["schedule", "-f", "-", "--nodes", "-"], Some(&text), &[]);
    assert_eq!(code(&twice), 2);
    assert!(stderr(&twice).contains("standard input can be read once"));
}

#[test]
fn directories_are_read_recursively_and_check_gates() {
    let o = run(&["check", "-f", "manifests", "--nodes", "nodes.json"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let out = stdout(&o);
    // db.json and trainer.yaml in team/, web.yaml; README.txt is not read.
    assert!(out.contains("ok   statefulset/shop/db"), "{out}");
    assert!(out.contains("ok   job/ml/trainer"), "{out}");
    assert!(
        out.contains("manifests/web.yaml:1:1: error: deployment/shop/web fits no node: 0/3 nodes are available"),
        "{out}"
    );
    assert!(
        out.lines().last().unwrap().starts_with(
            "taintlab check: 3 workload(s) on 3 node(s): 2 passed, 1 failed (1 fit nowhere"
        ),
        "{out}"
    );
    let good = run(&["check", "-f", "good", "--nodes", "nodes.json"]);
    assert_eq!(code(&good), 0, "{}", stdout(&good));
    let gh = run(&[
        "check",
        "-f",
        "manifests",
        "--nodes",
        "nodes.json",
        "-o",
        "github",
    ]);
    assert!(
        stdout(&gh).starts_with(
            "::error file=manifests/web.yaml,line=1,col=1,title=taintlab check%3A deployment/shop/web (no-fit)::0/3 nodes"
        ),
        "{}",
        stdout(&gh)
    );
    let json = run(&[
        "check",
        "-f",
        "manifests",
        "--nodes",
        "nodes.json",
        "-o",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&json)).expect("JSON");
    assert_eq!(v["failed"], 1);
    assert_eq!(v["workloads"][2]["failures"][0]["reason"], "no-fit");
}

#[test]
fn a_broken_file_is_a_located_error_exit_2_and_nothing_on_stdout() {
    let o = run(&["schedule", "-f", "broken.yaml"]);
    assert_eq!(code(&o), 2);
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.starts_with("broken.yaml:8:14: error: this is not valid YAML"),
        "{err}"
    );
    assert!(err.contains(" 8 |      operator: Exists\n"), "{err}");
    // In a directory of several files, the location is the broken file's own.
    let dir = std::env::temp_dir().join(format!("taintlab-cli-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("a.yaml"), fixture("manifests/web.yaml")).unwrap();
    std::fs::write(dir.join("sub/z.yaml"), fixture("broken.yaml")).unwrap();
    let d = dir.to_str().unwrap();
    let o = run(&["check", "-f", d, "--nodes", "nodes.json"]);
    assert_eq!(code(&o), 2);
    assert!(stdout(&o).is_empty());
    let expected = format!("{d}/sub/z.yaml:8:14: error: ");
    assert!(stderr(&o).starts_with(&expected), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
    // A missing file too.
    let missing = run(&["validate", "-f", "no-such-file.yaml"]);
    assert_eq!(code(&missing), 2);
    assert!(stderr(&missing).contains("no-such-file.yaml: cannot read"));
}

#[test]
fn validate_speaks_the_api_servers_words() {
    let o = run(&["validate", "-f", "invalid.yaml"]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(
        out.starts_with("invalid.yaml:8:13: error: spec.tolerations[0].effect: Unsupported value: \"NoSchedul\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"\n"),
        "{out}"
    );
    assert!(out.contains(" 8 |     effect: NoSchedul\n"), "{out}");
    assert!(
        out.contains(
            "invalid.yaml:10:15: error: spec.tolerations[1].operator: Unsupported value: \"Exist\""
        ),
        "{out}"
    );
    assert!(out.contains("Pod \"bad-effect\" is invalid: ["), "{out}");
    let ok = run(&["validate", "-f", "good"]);
    assert_eq!(code(&ok), 0, "{}", stdout(&ok));
}

#[test]
fn policy_run_and_check() {
    let o = run(&[
        "policy",
        "run",
        "--settings",
        "settings.json",
        "wildcard-request.json",
    ]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("rejected (403): spec.tolerations[0]: wildcard toleration"),
        "{}",
        stdout(&o)
    );
    // JSON: what npm policyDecision returns for the same request and settings.
    let j = run(&[
        "policy",
        "run",
        "--settings",
        "settings.json",
        "wildcard-request.json",
        "-o",
        "json",
    ]);
    let request: serde_json::Value =
        serde_json::from_str(&fixture("wildcard-request.json")).unwrap();
    let settings: serde_json::Value = serde_json::from_str(&fixture("settings.json")).unwrap();
    let npm =
        taintlab_json::api::policy_decision(&request, &serde_json::json!({ "settings": settings }))
            .expect("decision");
    assert_eq!(compact(&stdout(&j)), compact(&npm));
    // A plain object is wrapped in a CREATE request; default settings accept this one.
    let pod = run(&["policy", "run", "manifests/web.yaml"]);
    assert_eq!(code(&pod), 0, "{}{}", stdout(&pod), stderr(&pod));
    let check = run(&[
        "policy",
        "check",
        "-f",
        "manifests",
        "--settings",
        "settings.json",
    ]);
    assert_eq!(code(&check), 0, "{}{}", stdout(&check), stderr(&check));
    assert!(
        stdout(&check).ends_with("3 workload(s): 3 accepted, 0 rejected\n"),
        "{}",
        stdout(&check)
    );
    let bad = run(&[
        "policy",
        "run",
        "--settings",
        "broken.yaml",
        "wildcard-request.json",
    ]);
    assert_eq!(code(&bad), 2);
    assert_eq!(
        stderr(&bad),
        "taintlab: error: broken.yaml:8:14: this is not valid YAML: mapping values are not allowed in this context\n 8 |      operator: Exists\n   |              ^\n"
    );
    assert!(stdout(&bad).is_empty());
}

#[test]
fn policy_settings_in_yaml_and_in_json_decide_alike() {
    let with = |settings: &str, args: &[&str]| {
        let o = run(&[
            &["policy"][..],
            &args[..1],
            &["--settings", settings],
            &args[1..],
        ]
        .concat());
        (code(&o), stdout(&o), stderr(&o))
    };
    // The request the protected taint's settings reject, a pod they accept.
    for (args, exit) in [
        (&["run", "wildcard-request.json"][..], 1),
        (&["run", "wildcard-request.json", "-o", "json"], 1),
        (&["run", "manifests/web.yaml", "-o", "json"], 0),
        (&["check", "-f", "manifests", "-o", "json"], 0),
    ] {
        let json = with("settings.json", args);
        assert_eq!(with("settings.yaml", args), json, "{args:?}");
        assert_eq!(json.0, exit, "{args:?}: {}{}", json.1, json.2);
    }
    // The request in YAML too.
    let request: serde_json::Value =
        serde_json::from_str(&fixture("wildcard-request.json")).unwrap();
    let dir = std::env::temp_dir().join(format!("taintlab-policy-yaml-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let yaml = dir.join("request.yaml");
    std::fs::write(&yaml, taintlab_input::emit::to_yaml(&request)).unwrap();
    let from_yaml = with(
        "settings.yaml",
        &["run", yaml.to_str().unwrap(), "-o", "json"],
    );
    let from_json = with(
        "settings.json",
        &["run", "wildcard-request.json", "-o", "json"],
    );
    assert_eq!((from_yaml.0, from_yaml.1), (from_json.0, from_json.1));
    // A repeated key: the last wins, as in Go's decoders, with a located warning.
    let twice = dir.join("twice.yaml");
    std::fs::write(
        &twice,
        format!("protectedTaints: []\n{}", fixture("settings.yaml")),
    )
    .unwrap();
    let o = with(twice.to_str().unwrap(), &["run", "wildcard-request.json"]);
    assert_eq!(
        (o.0, &o.1),
        (
            1,
            &with("settings.yaml", &["run", "wildcard-request.json"]).1
        )
    );
    let name = twice.display();
    assert!(
        o.2.starts_with(&format!("taintlab: warning: {name}:3:1: key \"protectedTaints\" appears twice in this mapping (first on line 1)")),
        "{}",
        o.2
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_alias_bomb_in_a_settings_file_is_a_located_error() {
    for args in [
        &[
            "policy",
            "run",
            "--settings",
            "alias-bomb.yaml",
            "wildcard-request.json",
        ][..],
        &[
            "policy",
            "check",
            "-f",
            "manifests",
            "--settings",
            "alias-bomb.yaml",
        ],
        &["check", "-f", "manifests", "--settings", "alias-bomb.yaml"],
        &["policy", "run", "alias-bomb.yaml"],
    ] {
        let o = run(args);
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(stdout(&o).is_empty(), "{args:?}");
        assert!(
            stderr(&o).starts_with("taintlab: error: alias-bomb.yaml:6:8: aliases in this document expand to more than 100000 nodes (an \"alias bomb\")"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn no_escape_codes_without_a_terminal_or_with_no_color() {
    let args = ["why", "web", "-f", "manifests", "--nodes", "nodes.json"];
    let plain = run(&args);
    assert!(!stdout(&plain).contains('\x1b'));
    let no_color = run_with(
        &[&args[..], &["--color", "auto"]].concat(),
        None,
        &[("NO_COLOR", "1")],
    );
    assert!(!stdout(&no_color).contains('\x1b'));
    assert!(!stderr(&no_color).contains('\x1b'));
    let forced = run(&[&args[..], &["--color", "always"]].concat());
    assert!(stdout(&forced).contains("\x1b[31m"), "{}", stdout(&forced));
    let schedule = run(&["schedule", "-f", "mix.yaml"]);
    assert!(!stdout(&schedule).contains('\x1b'));
}

#[test]
fn a_matrix_wider_than_the_terminal_becomes_one_line_per_pod() {
    let narrow = run_with(
        &["schedule", "-f", "manifests", "--nodes", "nodes.json"],
        None,
        &[("COLUMNS", "30")],
    );
    let out = stdout(&narrow);
    assert!(out.starts_with("3 nodes: one line per pod"), "{out}");
    assert!(out.contains("shop/web    0/3"), "{out}");
    let wide = run_with(
        &[
            "schedule",
            "-f",
            "manifests",
            "--nodes",
            "nodes.json",
            "--wide",
        ],
        None,
        &[("COLUMNS", "30")],
    );
    assert!(
        stdout(&wide).starts_with("POD         gpu-1"),
        "{}",
        stdout(&wide)
    );
}

#[test]
fn completions_are_generated() {
    for (shell, marker) in [
        ("bash", "_taintlab()"),
        ("zsh", "#compdef taintlab"),
        ("fish", "complete -c taintlab"),
    ] {
        let o = run(&["completion", shell]);
        assert_eq!(code(&o), 0);
        assert!(stdout(&o).contains(marker), "{shell}: {}", stdout(&o));
        assert!(stdout(&o).contains("schedule"), "{shell}");
    }
    let bad = run(&["completion", "tcsh"]);
    assert_eq!(code(&bad), 2);
}

#[test]
fn help_has_examples_and_exit_codes_and_a_bad_flag_exits_2() {
    let o = run(&["why", "--help"]);
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    assert!(
        out.contains("Examples:") && out.contains("Exit codes:"),
        "{out}"
    );
    let bad = run(&["schedule", "--no-such-flag"]);
    assert_eq!(code(&bad), 2);
    let version = run(&[
        "schedule",
        "-f",
        "mix.yaml",
        "--kubernetes-version",
        "banana",
    ]);
    assert_eq!(code(&version), 2);
    assert!(stderr(&version).contains("--kubernetes-version"));
}

#[cfg(unix)]
#[test]
fn it_runs_as_the_kubectl_plugin() {
    let dir = std::env::temp_dir().join(format!("taintlab-plugin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("kubectl-taintlab");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_taintlab"), &link).unwrap();
    let o = Command::new(&link)
        .arg("--help")
        .output()
        .expect("the plugin runs");
    assert_eq!(o.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("Usage: kubectl taintlab <COMMAND>"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let why = Command::new(&link)
        .args(["why", "web", "-f", "mix.yaml"])
        .current_dir(fixtures())
        .output()
        .expect("the plugin runs");
    assert_eq!(why.status.code(), Some(2), "no pod named web in mix.yaml");
    let blue = Command::new(&link)
        .args(["why", "blue", "-f", "mix.yaml"])
        .current_dir(fixtures())
        .output()
        .expect("the plugin runs");
    assert_eq!(blue.status.code(), Some(0));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn many_nodes_with_the_same_answer_are_one_row() {
    let mut text = String::new();
    for i in 0..25 {
        text.push_str(&format!("kubectl taint nodes n{i:02} a=b:NoSchedule\n"));
    }
    text.push_str("kubectl taint nodes open x=y:PreferNoSchedule\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n");
    let o = run_with(&["why", "p"], Some(&text), &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("n00 and 24 more  rejected   TaintToleration    node(s) had untolerated taint(s) (a=b:NoSchedule)"),
        "{out}"
    );
    assert!(out.contains("open             fits"), "{out}");
    assert!(
        out.contains("to run on n00 and 24 more: add to the pod's tolerations"),
        "{out}"
    );
}

#[test]
fn the_full_filter_chain_node_affinity_and_resources() {
    let o = run(&["why", "trainer", "-f", "placement.yaml"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("it fits 1 of 3 nodes"), "{out}");
    assert!(
        out.contains("small  rejected   NodeResourcesFit   Insufficient cpu"),
        "{out}"
    );
    assert!(
        out.contains(
            "cpu-1  rejected   NodeAffinity       node(s) didn't match Pod's node affinity/selector"
        ),
        "{out}"
    );
    assert!(
        out.contains("cpu: requests 2000m, 0m of 1000m allocatable in use (short by 1000m)"),
        "{out}"
    );
    assert!(
        out.contains(
            "nodeSelector pool=gpu: the node has pool=cpu (kubectl label node cpu-1 pool=gpu)"
        ),
        "{out}"
    );
    let huge = run(&["why", "huge", "-f", "placement.yaml"]);
    assert_eq!(code(&huge), 1);
    let s = Scenario::from_text(
        &fixture("placement.yaml"),
        &Options {
            admission: Some(Default::default()),
            ..Options::default()
        },
    );
    let message = s.message(1).expect("huge fits nowhere");
    assert!(message.contains("Insufficient cpu"), "{message}");
    assert!(
        stdout(&huge).contains(&format!("FailedScheduling  {message}\n")),
        "{}",
        stdout(&huge)
    );
    let depth = run(&["why", "trainer", "-f", "placement.yaml", "--node", "small"]);
    assert_eq!(code(&depth), 1);
    assert!(
        stdout(&depth).contains("NodeResourcesFit   failed: Insufficient cpu"),
        "{}",
        stdout(&depth)
    );
    let matrix = run(&["schedule", "-f", "placement.yaml"]);
    assert!(
        stdout(&matrix).contains("huge     ✗ resources  ✗ resources  ✗ resources"),
        "{}",
        stdout(&matrix)
    );
}

/// Runs the binary through a `kubectl-taintlab` symlink with the stand-in `kubectl`
/// (tests/fixtures/kubectl/kubectl) first on PATH; returns the output and the
/// arguments kubectl was called with, one call per line.
#[cfg(unix)]
fn run_plugin(args: &[&str]) -> (Output, String) {
    let dir = std::env::temp_dir().join(format!(
        "taintlab-live-{}-{}",
        std::process::id(),
        args.join("_").replace('/', "-")
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("kubectl-taintlab");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_taintlab"), &link).unwrap();
    let log = dir.join("kubectl.log");
    let path = format!(
        "{}:{}",
        fixtures().join("kubectl").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = Command::new(&link)
        .args(args)
        .env("PATH", path)
        .env("TAINTLAB_KUBECTL_LOG", &log)
        .env_remove("NO_COLOR")
        .env_remove("TAINTLAB_CONFIG")
        .env("XDG_CONFIG_HOME", fixtures().join("no-such-config-dir"))
        .stdin(Stdio::null())
        .output()
        .expect("the plugin runs");
    let calls = std::fs::read_to_string(&log).unwrap_or_default();
    std::fs::remove_dir_all(&dir).unwrap();
    (o, calls)
}

#[cfg(unix)]
#[test]
fn the_plugin_reads_the_cluster_through_the_users_kubectl() {
    let (o, calls) = run_plugin(&[
        "why",
        "web-7d9f8c6b5d-x2k4q",
        "-n",
        "shop",
        "--context",
        "prod",
        "--kubeconfig",
        "/home/me/.kube/config",
        "-v",
    ]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert_eq!(
        calls,
        "--context=prod --kubeconfig=/home/me/.kube/config get nodes -o json\n\
         --context=prod --kubeconfig=/home/me/.kube/config get pods --namespace=shop -o json\n"
    );
    let err = stderr(&o);
    assert!(
        err.starts_with(
            "+ kubectl --context=prod --kubeconfig=/home/me/.kube/config get nodes -o json\n"
        ),
        "{err}"
    );
    // The pods kubectl returns already went through admission: none is added, and the
    // answer is the scenario's for the same two texts without admission.
    let v = KubeVersion::NEWEST;
    let n = ParsedPane::parse(&fixture("nodes.json"), PaneKind::Nodes, v);
    let p = ParsedPane::parse(&fixture("kubectl/pods.json"), PaneKind::Pods, v);
    let s = Scenario::build(&[&n, &p], &Options::default());
    let expected = s.message(0).expect("web is Pending");
    assert!(
        stdout(&o).contains(&format!("FailedScheduling  {expected}\n")),
        "{}",
        stdout(&o)
    );
    // -A, and a workload named by kind.
    let (all, calls) = run_plugin(&["why", "deployment/web", "-A"]);
    assert_eq!(code(&all), 1, "{}", stderr(&all));
    assert_eq!(
        calls,
        "get nodes -o json\nget pods --all-namespaces -o json\nget deployment/web -o json\n"
    );
    assert!(stdout(&all).starts_with("Deployment web in namespace shop"));
    // The running pod is there too, bound to its node.
    let (schedule, _) = run_plugin(&["schedule", "-n", "shop"]);
    assert_eq!(code(&schedule), 0, "{}", stderr(&schedule));
    assert!(
        stdout(&schedule).contains("shop/db-0                  ·        =        ·\n"),
        "{}",
        stdout(&schedule)
    );
    // kubectl's failure is the error, exit 2.
    let (bad, _) = run_plugin(&["why", "nope/web"]);
    assert_eq!(code(&bad), 2);
    assert!(stdout(&bad).is_empty());
}

/// The shared fixture table (tests/parity/pastes, the playground/npm parity pastes):
/// `schedule -o json` prints npm `analyze(text)` token for token, and a paste the input
/// layer cannot read is exit 2 with nothing on stdout.
#[test]
fn the_parity_pastes_give_npm_analyzes_json() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/parity/pastes");
    let mut pastes: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the parity pastes")
        .map(|e| e.unwrap().path())
        .collect();
    pastes.sort();
    assert!(pastes.len() >= 30, "{}", pastes.len());
    let (mut compared, mut unreadable) = (0, 0);
    for paste in &pastes {
        let text = std::fs::read_to_string(paste).unwrap();
        let o = run(&["schedule", "-o", "json", "-f", paste.to_str().unwrap()]);
        let npm = npm_analyze(serde_json::json!(text));
        let v: serde_json::Value = serde_json::from_str(&npm).unwrap();
        let fatal = v["diagnostics"].as_array().unwrap().iter().any(|d| {
            d["severity"] == "error"
                && !["validation", "kubectl", "admission", "scheduling"]
                    .contains(&d["code"].as_str().unwrap())
                && !(["invalid-value", "missing-field"].contains(&d["code"].as_str().unwrap())
                    && d["location"]["path"]
                        .as_str()
                        .is_some_and(|p| !p.is_empty()))
        });
        if code(&o) == 2 {
            assert!(
                fatal,
                "{}: exit 2 without an unreadable part: {}",
                paste.display(),
                stderr(&o)
            );
            assert!(stdout(&o).is_empty(), "{}", paste.display());
            unreadable += 1;
            continue;
        }
        assert_eq!(code(&o), 0, "{}: {}", paste.display(), stderr(&o));
        assert_eq!(compact(&stdout(&o)), compact(&npm), "{}", paste.display());
        compared += 1;
    }
    assert!(
        compared >= 25 && unreadable >= 2,
        "{compared} compared, {unreadable} unreadable"
    );
}

#[test]
fn a_config_file_sets_defaults_and_flags_win() {
    let dir = std::env::temp_dir().join(format!("taintlab-config-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("taintlab")).unwrap();
    let file = dir.join("taintlab/config.yaml");
    std::fs::write(
        &file,
        "kubernetesVersion: \"1.30\"\nadmission: false\ncolor: never\n",
    )
    .unwrap();
    let xdg = dir.to_str().unwrap();
    let version = |o: &Output| -> serde_json::Value {
        serde_json::from_str::<serde_json::Value>(&stdout(o)).unwrap()["kubernetesVersion"].clone()
    };
    let o = run_with(
        &["schedule", "-f", "mix.yaml", "-o", "json"],
        None,
        &[("XDG_CONFIG_HOME", xdg)],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(version(&o), "1.30.0");
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["admission"], false);
    let flag = run_with(
        &[
            "schedule",
            "-f",
            "mix.yaml",
            "-o",
            "json",
            "--kubernetes-version",
            "1.31",
        ],
        None,
        &[("XDG_CONFIG_HOME", xdg)],
    );
    assert_eq!(version(&flag), "1.31.0");
    let explicit = run_with(
        &[
            "schedule",
            "-f",
            "mix.yaml",
            "-o",
            "json",
            "--config",
            file.to_str().unwrap(),
        ],
        None,
        &[],
    );
    assert_eq!(version(&explicit), "1.30.0");
    std::fs::write(&file, "kubernetesVersoin: \"1.30\"\n").unwrap();
    let bad = run_with(
        &["schedule", "-f", "mix.yaml"],
        None,
        &[("XDG_CONFIG_HOME", xdg)],
    );
    assert_eq!(code(&bad), 2);
    assert!(
        stderr(&bad).contains("unknown key \"kubernetesVersoin\""),
        "{}",
        stderr(&bad)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A `kubectl get nodes -o json` of 60 tainted nodes, over 4 MB (the progress bar's
/// threshold).
fn large_nodes() -> String {
    let pad = "x".repeat(80_000);
    let items: Vec<String> = (0..60)
        .map(|i| {
            format!(
                r#"{{"apiVersion":"v1","kind":"Node","metadata":{{"name":"n{i}","annotations":{{"pad":"{pad}"}}}},"spec":{{"taints":[{{"key":"a","value":"b","effect":"NoSchedule"}}]}}}}"#
            )
        })
        .collect();
    let nodes = format!(
        r#"{{"apiVersion":"v1","kind":"List","items":[{}]}}"#,
        items.join(",")
    );
    assert!(nodes.len() > 4_000_000);
    nodes
}

#[test]
fn a_large_input_without_a_terminal_prints_no_progress_bar() {
    let nodes = large_nodes();
    let dir = std::env::temp_dir().join(format!("taintlab-large-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("nodes.json");
    std::fs::write(&file, &nodes).unwrap();
    let file = file.to_str().unwrap().to_string();
    // From a pipe (text) and from a file (JSON, which adds a phase), without --quiet:
    // stderr is not a terminal.
    for (from, stdin, format) in [
        ("-", Some(nodes.as_str()), "text"),
        (file.as_str(), None, "json"),
    ] {
        let o = run_with(
            &[
                "why",
                "web",
                "-f",
                "manifests/web.yaml",
                "--nodes",
                from,
                "-o",
                format,
            ],
            stdin,
            &[],
        );
        assert_eq!(code(&o), 1, "{}", stderr(&o));
        if format == "text" {
            assert!(
                stdout(&o)
                    .contains("0/60 nodes are available: 60 node(s) had untolerated taint(s)."),
                "{}",
                stdout(&o)
            );
            assert!(stdout(&o).contains("n0 and 59 more"), "{}", stdout(&o));
        }
        assert!(stderr(&o).is_empty(), "{from} -o {format}: {}", stderr(&o));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs the binary with a pseudo-terminal as its stdin, stdout and stderr (util-linux
/// `script`), returning everything the terminal received.
fn run_on_a_terminal(args: &[&str], env: &[(&str, &str)]) -> String {
    let quote = |s: &str| format!("'{}'", s.replace('\'', "'\\''"));
    let mut line = quote(env!("CARGO_BIN_EXE_taintlab"));
    for a in args {
        line.push(' ');
        line.push_str(&quote(a));
    }
    let mut c = Command::new("script");
    c.args(["-q", "-e", "-c", &line, "/dev/null"])
        .current_dir(fixtures())
        .env_remove("NO_COLOR")
        .env_remove("TAINTLAB_CONFIG")
        .env("TERM", "xterm")
        .env("XDG_CONFIG_HOME", fixtures().join("no-such-config-dir"))
        .stdin(Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    let o = c.output().expect("util-linux script runs");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_large_input_on_a_terminal_shows_a_progress_bar_that_clears_before_the_answer() {
    let nodes = large_nodes();
    let dir = std::env::temp_dir().join(format!("taintlab-tty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("nodes.json");
    std::fs::write(&file, &nodes).unwrap();
    let file = file.to_str().unwrap();
    let args = [
        "why",
        "web",
        "-f",
        "manifests/web.yaml",
        "--nodes",
        file,
        "--color",
        "never",
    ];
    let shown = run_on_a_terminal(&args, &[]);
    let bar = shown
        .find("taintlab: reading")
        .unwrap_or_else(|| panic!("no bar: {shown:?}"));
    let answer = shown
        .find("0/60 nodes are available")
        .unwrap_or_else(|| panic!("no answer: {shown:?}"));
    assert!(bar < answer, "{shown:?}");
    // The last line of the bar is erased before the answer is printed.
    let erased = shown[bar..answer]
        .rfind("\x1b[2K")
        .or(shown[bar..answer].rfind("\x1b[K"));
    assert!(erased.is_some(), "{shown:?}");
    assert!(!shown[answer..].contains("taintlab: "), "{shown:?}");
    // --quiet, and a small input, draw nothing.
    let quiet: Vec<&str> = args.iter().copied().chain(["-q"]).collect();
    assert!(!run_on_a_terminal(&quiet, &[]).contains("taintlab: "));
    let small = run_on_a_terminal(
        &[
            "why",
            "web",
            "-f",
            "manifests/web.yaml",
            "--nodes",
            "nodes.json",
        ],
        &[],
    );
    assert!(small.contains("0/3 nodes are available"), "{small:?}");
    assert!(!small.contains("taintlab: reading"), "{small:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sarif_for_code_scanning() {
    let o = run(&[
        "check",
        "-f",
        "manifests",
        "--nodes",
        "nodes.json",
        "-q",
        "-o",
        "sarif",
    ]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["version"], "2.1.0");
    let results = v["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["ruleId"], "no-fit");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "manifests/web.yaml"
    );
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["region"]["startLine"],
        1
    );
    let p = run(&["policy", "run", "wildcard-request.json", "-o", "sarif"]);
    assert_eq!(code(&p), 1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&p)).expect("JSON");
    assert_eq!(v["runs"][0]["results"][0]["ruleId"], "policy");
}

#[test]
fn a_closed_stdout_ends_quietly() {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let o = Command::new(env!("CARGO_BIN_EXE_taintlab"))
        .args(["schedule", "-f", "mix.yaml", "-q"])
        .current_dir(fixtures())
        .env("XDG_CONFIG_HOME", fixtures().join("no-such-config-dir"))
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(141));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn admission_options_from_a_file_are_npms() {
    let args = [
        "-f",
        "manifests",
        "--nodes",
        "nodes.json",
        "--admission",
        "admission.yaml",
        "-q",
    ];
    let o = run(&[&["check"][..], &args].concat());
    assert_eq!(code(&o), 1);
    assert!(
        stdout(&o).contains("statefulset/shop/db is rejected by admission: pod tolerations (possibly merged with namespace default tolerations) conflict with its cluster whitelist"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("ok   job/ml/trainer"), "{}", stdout(&o));
    // The JSON is npm analyze's with the same admission options.
    let j = run(&[&["schedule", "-o", "json"][..], &args].concat());
    let files = [
        "manifests/team/db.json",
        "manifests/team/trainer.yaml",
        "manifests/web.yaml",
    ];
    let pods = format!("---\n{}", files.map(fixture).join("---\n"));
    let admission = serde_json::json!({
        "defaultTolerationSeconds": {"notReadySeconds": 60, "unreachableSeconds": 60},
        "podTolerationRestriction": {"whitelist": [
            {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
            {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"},
            {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute"},
        ]},
    });
    let options = serde_json::json!({
        "kubernetesVersion": KubeVersion::NEWEST.to_string(),
        "comparisonOperators": false,
        "admission": admission,
    });
    let npm = taintlab_json::api::analyze(
        &serde_json::json!({"nodes": fixture("nodes.json"), "pods": pods}).into(),
        &options.into(),
    )
    .expect("analyze");
    assert_eq!(compact(&stdout(&j)), compact(&npm));
    let v: serde_json::Value = serde_json::from_str(&npm).unwrap();
    assert_eq!(
        v["pods"][1]["tolerations"][1]["toleration"]["tolerationSeconds"],
        60
    );
    let bad = run(&["schedule", "-f", "mix.yaml", "--admission", "settings.json"]);
    assert_eq!(code(&bad), 2);
    assert!(stderr(&bad).contains("unknown field"), "{}", stderr(&bad));
}

#[test]
fn a_host_port_in_use() {
    let o = run(&["why", "web", "-f", "ports.yaml", "-q"]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(
        out.contains("n1    rejected   NodePorts          node(s) didn't have free ports for the requested pod ports"),
        "{out}"
    );
    assert!(
        out.contains("uses a host port this pod asks for (8080/TCP)"),
        "{out}"
    );
}

#[test]
fn what_if_taint_drain_and_failure_second_by_second() {
    let args = [
        "what-if",
        "-f",
        "whatif.yaml",
        "--taint",
        "node1=k=v:NoExecute",
        "--at",
        "60",
        "--drain",
        "node2",
        "--fail",
        "node3",
        "--until",
        "1800",
    ];
    let o = run(&args);
    // The Deployment's replacement is Pending at the end: the answer is "no".
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    let out = stdout(&o);
    for (at, line) in [
        // The untolerated NoExecute taint at 0s; batch tolerates it for 120 s.
        (
            "0s",
            "TaintManagerEviction  Pod/shop/api  Marking for deletion Pod shop/api",
        ),
        (
            "120s",
            "TaintManagerEviction  Pod/shop/batch  Marking for deletion Pod shop/batch",
        ),
        // kubectl drain refuses the unmanaged pod without --force.
        (
            "60s",
            "kubectl drain:  error: unable to drain node \"node2\" due to error: cannot delete Pods that declare no controller (use --force to override): shop/cache, continuing command...",
        ),
        (
            "115s",
            "NodeNotReady          Node/node3  Node node3 status is now: NodeNotReady",
        ),
    ] {
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with(at) && l.ends_with(line)),
            "{at} {line}\n{out}"
        );
    }
    assert!(
        out.contains("3 evicted, 1 replaced, 0 rescheduled, 1 still Pending"),
        "{out}"
    );
    // The pod evicted from the node that stopped reporting never finishes terminating.
    let terminating: Vec<&str> = out
        .lines()
        .filter(|l| l.trim_start().starts_with("Terminating "))
        .collect();
    assert_eq!(terminating.len(), 1, "{out}");
    assert!(
        terminating[0].contains(" on node3 since 415s (taint-eviction), replaced by web-")
            && terminating[0].ends_with(": node3 is not ready, so no kubelet confirms the deletion (kubectl delete pod --force, or deleting the Node, ends it)"),
        "{out}"
    );

    // JSON: the same run as data, the core simulation's Timeline.
    let json_args: Vec<&str> = args.iter().copied().chain(["-o", "json"]).collect();
    let o = run(&json_args);
    assert_eq!(code(&o), 1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["kind"], "WhatIfResult");
    assert_eq!(v["apiVersion"], "taintlab.dev/v1");
    // The actions as lines, and the notes: the document npm `whatIf` returns.
    assert_eq!(
        v["actions"],
        serde_json::json!([
            "at 0 taint node1 k=v:NoExecute",
            "at 60 drain node2",
            "at 60 fail node3"
        ])
    );
    assert_eq!(v["notes"], serde_json::json!([]));
    let t = &v["timeline"];
    assert_eq!(t["until"], 1800);
    let evicted: Vec<(i64, &str)> = t["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["reason"] == "TaintManagerEviction")
        .map(|e| {
            (
                e["at"].as_i64().unwrap(),
                e["object"]["name"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(evicted[..2], [(0, "api"), (120, "batch")]);
    assert_eq!(t["summary"]["evicted"], 3);
    let pending = t["summary"]["stillPending"].as_array().unwrap();
    assert_eq!(pending.len(), 1);
    let pod = &t["pods"][pending[0]["pod"].as_u64().unwrap() as usize];
    assert!(pod["name"].as_str().unwrap().starts_with("web-"), "{pod}");
    // YAML: the same data.
    let yaml_args: Vec<&str> = args.iter().copied().chain(["-o", "yaml"]).collect();
    let o = run(&yaml_args);
    assert!(
        stdout(&o).contains("kind: \"WhatIfResult\""),
        "{}",
        stdout(&o)
    );
}

#[test]
fn what_if_says_why_a_stateful_sets_pod_is_not_replaced() {
    // db-0's node stops reporting: evicted after 55 s + 300 s, it stays terminating, and
    // the StatefulSet waits for it to be gone.
    let o = run(&[
        "what-if",
        "-f",
        "whatif-statefulset.yaml",
        "--fail",
        "n1",
        "--until",
        "900",
    ]);
    let out = stdout(&o);
    assert!(
        out.contains("1 evicted, 0 replaced, 0 rescheduled, 0 still Pending"),
        "{out}"
    );
    assert!(
        out.lines().any(|l| l.trim_start()
            == "Terminating shop/db-0 on n1 since 355s (taint-eviction), not replaced: StatefulSet db creates db-0 again only once it is gone; n1 is not ready, so no kubelet confirms the deletion (kubectl delete pod --force, or deleting the Node, ends it)"),
        "{out}"
    );
}

#[test]
fn what_if_json_is_npm_what_if_with_its_notes() {
    // Tables print no owners: the notes say what was assumed, in JSON as in npm.
    let o = run(&[
        "what-if",
        "-f",
        "whatif-tables.txt",
        "--drain",
        "n1",
        "--force",
        "--until",
        "120",
        "-o",
        "json",
    ]);
    let expected = taintlab_json::api::what_if(
        &serde_json::json!(fixture("whatif-tables.txt")).into(),
        &serde_json::json!(["at 0 drain n1 --force"]).into(),
        &serde_json::json!({ "until": 120 }).into(),
    )
    .expect("whatIf");
    assert_eq!(compact(&stdout(&o)), compact(&expected));
    let v: serde_json::Value = serde_json::from_str(&expected).unwrap();
    let notes = v["notes"].as_array().unwrap();
    assert!(
        notes.iter().any(|n| n["message"]
            .as_str()
            .unwrap()
            .contains("kube-system/kube-proxy-8xk2p, shop/lonely")),
        "{notes:?}"
    );
}

#[test]
fn what_if_actions_at_their_own_seconds_and_errors_name_the_flag() {
    // --force lets the drain evict the unmanaged pod; the drain finishes: exit 0.
    let o = run(&[
        "what-if",
        "-f",
        "whatif.yaml",
        "--drain",
        "node2@10",
        "--force",
        "--until",
        "100",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("    10s  --drain node2@10"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.trim_start().starts_with("10s") && l.ends_with("evicting pod shop/cache")),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.trim_start().starts_with("40s") && l.ends_with("node/node2 drained")),
        "{out}"
    );
    // An unknown node, a bad taint, an action after --until: exit 2, nothing on stdout.
    for (args, message) in [
        (
            vec!["--drain", "node9"],
            "--drain node9: no node \"node9\"; the nodes are: node1, node2, node3",
        ),
        (
            vec!["--taint", "node1=k=v"],
            "--taint node1=k=v: invalid taint spec: k=v",
        ),
        (
            vec!["--cordon", "node1@700"],
            "--cordon node1@700: at 700s, after --until 600s",
        ),
    ] {
        let mut full = vec!["what-if", "-f", "whatif.yaml"];
        full.extend(args);
        let o = run(&full);
        assert_eq!(code(&o), 2, "{}", stderr(&o));
        assert!(stdout(&o).is_empty());
        assert!(stderr(&o).contains(message), "{}", stderr(&o));
    }
}

#[cfg(unix)]
#[test]
fn what_if_runs_on_the_cluster_read_through_the_users_kubectl() {
    let (o, calls) = run_plugin(&[
        "what-if", "-n", "shop", "--drain", "db-1", "--force", "--until", "200", "-q",
    ]);
    assert_eq!(
        calls.lines().collect::<Vec<_>>(),
        ["get nodes -o json", "get pods --namespace=shop -o json"]
    );
    // web fits no node before or after; the drain evicts db-0 (no controller: --force).
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let out = stdout(&o);
    for (at, line) in [
        ("0s", "kubectl drain:  node/db-1 cordoned"),
        ("0s", "kubectl drain:  evicting pod shop/db-0"),
        ("30s", "kubectl drain:  pod/db-0 evicted"),
        ("30s", "kubectl drain:  node/db-1 drained"),
    ] {
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with(at) && l.ends_with(line)),
            "{at} {line}\n{out}"
        );
    }
    assert!(
        out.contains("  Pending shop/web-7d9f8c6b5d-x2k4q: 0/3 nodes are available"),
        "{out}"
    );
}
