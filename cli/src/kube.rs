//! The kubectl plugin's live mode: the cluster is read by running the user's own
//! `kubectl get ... -o json`, so every credential plugin keeps working and no
//! credential passes through this program.

use std::process::Command;

use crate::Common;
use crate::input::File;

/// kubectl's global flags from ours: `--context`, `--kubeconfig`.
fn global_flags(c: &Common) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(ctx) = &c.context {
        out.push(format!("--context={ctx}"));
    }
    if let Some(k) = &c.kubeconfig {
        out.push(format!("--kubeconfig={}", k.display()));
    }
    out
}

/// `-n NS`, `-A` or nothing (kubectl's current namespace).
fn namespace_flags(c: &Common) -> Vec<String> {
    if c.all_namespaces {
        vec!["--all-namespaces".into()]
    } else if let Some(ns) = &c.namespace {
        vec![format!("--namespace={ns}")]
    } else {
        Vec::new()
    }
}

/// Runs `kubectl <args>` and returns its standard output, named by the command line.
fn kubectl(c: &Common, args: &[String]) -> Result<File, String> {
    let mut all = global_flags(c);
    all.extend(args.iter().cloned());
    let line = format!("kubectl {}", all.join(" "));
    if c.verbose {
        eprintln!("+ {line}");
    }
    let out = Command::new("kubectl")
        .args(&all)
        .output()
        .map_err(|e| format!("cannot run kubectl ({e}); install it or give -f and --nodes"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "`{line}` failed (exit {}): {}",
            out.status.code().unwrap_or(-1),
            err.trim_end()
        ));
    }
    crate::progress::read(out.stdout.len() as u64);
    let text = String::from_utf8(out.stdout)
        .map_err(|_| format!("`{line}` printed something that is not UTF-8"))?;
    Ok(File { name: line, text })
}

/// The nodes and the pods of the cluster: `kubectl get nodes -o json`, the pods (of
/// `-n`, `-A` or the current namespace; running pods are the nodes' load), and for
/// `why KIND/NAME` of another kind, that workload.
pub fn fetch(c: &Common, target: Option<&str>) -> Result<(Vec<File>, Vec<File>), String> {
    let json = || vec!["-o".to_string(), "json".to_string()];
    let mut get_nodes = vec!["get".to_string(), "nodes".to_string()];
    get_nodes.extend(json());
    let nodes = vec![kubectl(c, &get_nodes)?];
    let mut pods = Vec::new();
    let mut get_pods = vec!["get".to_string(), "pods".to_string()];
    get_pods.extend(namespace_flags(c));
    get_pods.extend(json());
    pods.push(kubectl(c, &get_pods)?);
    if let Some((kind, name)) = target.and_then(|t| t.split_once('/')) {
        let k = kind.to_ascii_lowercase();
        if !matches!(k.as_str(), "pod" | "pods" | "po") && !name.contains('/') {
            let mut get = vec!["get".to_string(), format!("{k}/{name}")];
            if let Some(ns) = &c.namespace {
                get.push(format!("--namespace={ns}"));
            }
            get.extend(json());
            // A namespace prefix (`shop/web`) is not a kind: kubectl says so, and the
            // pod list already read is enough.
            match kubectl(c, &get) {
                Ok(f) => pods.push(f),
                Err(e) if e.contains("the server doesn't have a resource type") => {}
                Err(e) => return Err(e),
            }
        }
    }
    crate::progress::parsing();
    Ok((nodes, pods))
}
