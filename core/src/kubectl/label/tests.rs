use super::*;
use alloc::string::ToString;

fn node(name: &str, labels: &[(&str, &str)]) -> Node {
    Node {
        name: name.into(),
        labels: labels
            .iter()
            .map(|(k, v)| (String::from(*k), String::from(*v)))
            .collect(),
        ..Node::default()
    }
}

fn run(args: &[&str], nodes: &[Node]) -> LabelRun {
    run_kubectl_label(args, nodes, KubeVersion::NEWEST)
}

fn labels(n: &Node) -> Vec<(&str, &str)> {
    n.labels
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

#[test]
fn adds_a_label() {
    let nodes = [node(
        "general-1",
        &[("kubernetes.io/hostname", "general-1")],
    )];
    let r = run(&["nodes", "general-1", "dedicated=payments"], &nodes);
    assert_eq!(r.stdout, "node/general-1 labeled\n");
    assert_eq!(r.stderr, "");
    assert_eq!(r.exit_code, 0);
    assert_eq!(
        labels(&r.nodes[0]),
        [
            ("dedicated", "payments"),
            ("kubernetes.io/hostname", "general-1")
        ]
    );
}

#[test]
fn existing_value_needs_overwrite() {
    let nodes = [node("n1", &[("disktype", "hdd"), ("zone", "a")])];
    let r = run(&["node", "n1", "disktype=ssd"], &nodes);
    assert_eq!(
        r.stderr,
        "error: 'disktype' already has a value (hdd), and --overwrite is false\n"
    );
    assert_eq!(r.exit_code, 1);
    assert_eq!(r.stdout, "");
    assert_eq!(r.nodes[0].labels["disktype"], "hdd");
    // Two clashes on one node: two lines, no prefix.
    let r = run(&["no", "n1", "disktype=ssd", "zone=b"], &nodes);
    assert_eq!(
        r.stderr,
        "'disktype' already has a value (hdd), and --overwrite is false\n'zone' already has a value (a), and --overwrite is false\n"
    );
    let r = run(&["nodes/n1", "disktype=ssd", "--overwrite"], &nodes);
    assert_eq!(r.stdout, "node/n1 labeled\n");
    assert_eq!(r.nodes[0].labels["disktype"], "ssd");
    // Same value again: nothing changes.
    let r = run(&["nodes", "n1", "disktype=hdd", "--overwrite"], &nodes);
    assert_eq!(r.stdout, "node/n1 not labeled\n");
}

fn run_at(minor: u16, args: &[&str], nodes: &[Node]) -> LabelRun {
    run_kubectl_label(args, nodes, KubeVersion::new(minor, 0))
}

#[test]
fn messages_name_the_changed_keys_from_1_36() {
    let nodes = [node("n1", &[("aa", "bb"), ("zone", "a")])];
    // Before 1.36 the JSON length decides: `aa-` with `e=f` shrinks the object.
    let args = ["nodes", "n1", "aa-", "e=f"];
    assert_eq!(run_at(35, &args, &nodes).stdout, "node/n1 unlabeled\n");
    assert_eq!(run_at(36, &args, &nodes).stdout, "node/n1 modified\n");
    assert_eq!(run_at(37, &args, &nodes).stdout, "node/n1 modified\n");
    let args = ["nodes", "n1", "aa-", "--overwrite"];
    assert_eq!(run_at(35, &args, &nodes).stdout, "node/n1 labeled\n");
    assert_eq!(run_at(36, &args, &nodes).stdout, "node/n1 unlabeled\n");
    let args = ["nodes", "n1", "zone=b", "--overwrite"];
    assert_eq!(run_at(36, &args, &nodes).stdout, "node/n1 labeled\n");
    // A node with no labels: the empty map made 1.35 say `labeled`.
    let bare = [node("bare", &[])];
    let args = ["nodes", "bare", "gpu-"];
    assert_eq!(
        run_at(35, &args, &bare).stdout,
        "label \"gpu\" not found.\nnode/bare labeled\n"
    );
    assert_eq!(
        run_at(36, &args, &bare).stdout,
        "label \"gpu\" not found.\nnode/bare not labeled\n"
    );
}

#[test]
fn dry_run_suffix_from_1_26() {
    let nodes = [node("n1", &[("zone", "a")])];
    let args = ["nodes", "n1", "gpu=true", "--dry-run=client"];
    assert_eq!(run_at(25, &args, &nodes).stdout, "node/n1 labeled\n");
    assert_eq!(
        run_at(26, &args, &nodes).stdout,
        "node/n1 labeled (dry run)\n"
    );
    assert!(
        !run_at(25, &args, &nodes).nodes[0]
            .labels
            .contains_key("gpu")
    );
}

#[test]
fn removals() {
    let nodes = [node("n1", &[("disktype", "ssd"), ("zone", "a")])];
    let r = run(&["nodes", "n1", "disktype-"], &nodes);
    assert_eq!(r.stdout, "node/n1 unlabeled\n");
    assert_eq!(labels(&r.nodes[0]), [("zone", "a")]);
    let r = run(&["nodes", "n1", "disktype-", "--overwrite"], &nodes);
    assert_eq!(r.stdout, "node/n1 unlabeled\n");
    // A missing key is a stdout line, not an error.
    let r = run(&["nodes", "n1", "gpu-"], &nodes);
    assert_eq!(r.stdout, "label \"gpu\" not found.\nnode/n1 not labeled\n");
    assert_eq!(r.exit_code, 0);
    assert_eq!(r.stderr, "");
    // A client dry run does not print it.
    let r = run(&["nodes", "n1", "gpu-", "--dry-run=client"], &nodes);
    assert_eq!(r.stdout, "node/n1 not labeled (dry run)\n");
}

#[test]
fn dry_runs_do_not_persist() {
    let nodes = [node("n1", &[("zone", "a")])];
    let r = run(&["nodes", "n1", "gpu=true", "--dry-run=server"], &nodes);
    assert_eq!(r.stdout, "node/n1 labeled (server dry run)\n");
    assert!(!r.nodes[0].labels.contains_key("gpu"));
}

#[test]
fn all_and_selector() {
    let nodes = [
        node("b", &[("pool", "gpu")]),
        node("a", &[("pool", "gpu")]),
        node("c", &[("pool", "cpu")]),
    ];
    let r = run(&["nodes", "--all", "team=ml"], &nodes);
    assert_eq!(r.stdout, "node/a labeled\nnode/b labeled\nnode/c labeled\n");
    assert!(r.nodes.iter().all(|n| n.labels["team"] == "ml"));
    let r = run(&["nodes", "-l", "pool=gpu", "team=ml"], &nodes);
    assert_eq!(r.stdout, "node/a labeled\nnode/b labeled\n");
    assert!(!r.nodes[2].labels.contains_key("team"));
    let r = run(&["nodes", "c", "-l", "pool=gpu", "team=ml"], &nodes);
    assert_eq!(
        r.stderr,
        "error: name cannot be provided when a selector is specified\n"
    );
    let r = run(&["nodes", "--all", "-l", "pool=gpu", "team=ml"], &nodes);
    assert_eq!(
        r.stderr,
        "error: cannot set --all and --selector at the same time\n"
    );
    // `--all` with names: the names are used.
    let r = run(&["nodes", "c", "--all", "team=ml"], &nodes);
    assert_eq!(r.stdout, "node/c labeled\n");
}

#[test]
fn command_errors() {
    let nodes = [node("n1", &[])];
    let cases: &[(&[&str], &str)] = &[
        (
            &["nodes", "n1", "a=b=c"],
            "error: invalid label spec: a=b=c\n",
        ),
        (
            &["nodes", "n1", "a=b", "c"],
            "error: all resources must be specified before label changes: c\n",
        ),
        (
            &["nodes", "n1", "a=b", "a-"],
            "error: can not both modify and remove a label in the same command\n",
        ),
        (
            &["nodes", "n1"],
            "error: at least one label update is required\n",
        ),
        (
            &["a=b"],
            "error: one or more resources must be specified as <resource> <name> or <resource>/<name>\n",
        ),
        (
            &["nodes", "a=b"],
            "error: resource(s) were provided, but no name was specified\n",
        ),
        (
            &["nodes", "nodes/n1", "a=b"],
            "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'\n",
        ),
        (
            &["widgets", "n1", "a=b"],
            "error: the server doesn't have a resource type \"widgets\"\n",
        ),
        (
            &["nodes", "n1", "a=b", "--bogus"],
            "error: unknown flag: --bogus\nSee 'kubectl label --help' for usage.\n",
        ),
    ];
    for (args, want) in cases {
        let r = run(args, &nodes);
        assert_eq!(&r.stderr, want, "{args:?}");
        assert_eq!(r.exit_code, 1);
        assert!(r.command_error.is_some());
        assert_eq!(r.nodes, nodes);
    }
    let r = run(&["nodes", "n1", "a=-bad"], &nodes);
    assert!(
        r.stderr
            .starts_with("error: invalid label value: \"a=-bad\": a valid label must be"),
        "{}",
        r.stderr
    );
}

#[test]
fn bad_keys_are_rejected_by_the_server() {
    let nodes = [node("n1", &[("zone", "a")]), node("n2", &[])];
    let r = run(&["nodes", "n1", "bad_=x"], &nodes);
    assert!(
        r.stderr.starts_with(
            "The Node \"n1\" is invalid: metadata.labels: Invalid value: \"bad_\": name part must consist of"
        ),
        "{}",
        r.stderr
    );
    assert_eq!(r.exit_code, 1);
    assert_eq!(r.stdout, "");
    assert!(!r.nodes[0].labels.contains_key("bad_"));
    // Several nodes: one line each, as the server's status.
    let r = run(&["nodes", "n1", "n2", "bad_=x"], &nodes);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{}", r.stderr);
    assert!(lines[1].starts_with("Error from server (Invalid): Node \"n2\" is invalid: metadata.labels: Invalid value: \"bad_\""));
    // A client dry run never reaches the server.
    let r = run(&["nodes", "n1", "bad_=x", "--dry-run=client"], &nodes);
    assert_eq!(r.stdout, "node/n1 labeled (dry run)\n");
}

#[test]
fn missing_nodes_and_repeats() {
    let nodes = [node("n1", &[("zone", "a")])];
    let r = run(&["nodes", "ghost", "a=b"], &nodes);
    assert_eq!(
        r.stderr,
        "Error from server (NotFound): nodes \"ghost\" not found\n"
    );
    let r = run(&["nodes", "n1", "ghost", "n1", "a=b"], &nodes);
    assert_eq!(r.stdout, "node/n1 labeled\n");
    assert_eq!(
        r.stderr,
        "Error from server (NotFound): nodes \"ghost\" not found\n'a' already has a value (b), and --overwrite is false\n"
    );
    assert_eq!(r.nodes[0].labels["a"], "b");
}

#[test]
fn recognises_node_commands() {
    assert!(is_node_label_command(&["nodes", "n1", "a=b"]));
    assert!(is_node_label_command(&["--overwrite", "node/n1", "a=b"]));
    assert!(is_node_label_command(&["-l", "x=y", "no", "a=b"]));
    assert!(!is_node_label_command(&["pods", "p", "a=b"]));
    assert!(!is_node_label_command(&["ns/default", "a=b"]));
    let op = LabelOperation::NotLabeled;
    assert_eq!(op.as_str().to_string(), "not labeled");
}

#[test]
fn never_panics() {
    let tokens = [
        "nodes",
        "node/n1",
        "n1",
        "a=b",
        "a-",
        "-",
        "=x",
        "a=b=c",
        "--all",
        "-l",
        "x in (",
        "--overwrite",
        "--dry-run",
        "-lx=y",
        "no/",
        "/n1",
        "é=ü",
        "--",
        "a=",
        "",
    ];
    let nodes = [node("n1", &[("a", "z")]), node("", &[])];
    for a in tokens {
        for b in tokens {
            for c in tokens {
                for minor in [25, 35, 37] {
                    let r = run_at(minor, &[a, b, c], &nodes);
                    assert!(r.exit_code == 0 || !r.stderr.is_empty(), "{a} {b} {c}");
                    assert_eq!(r.nodes.len(), 2);
                }
            }
        }
    }
}
