//! Label selectors for `kubectl taint -l ...`: the set-based selectors of
//! [`crate::labels`] (apimachinery `labels.Parse`), which kubectl sends to the API server
//! as the list call's `labelSelector`.

pub use crate::labels::{Requirement, SelectorOperator};

/// The parsed `-l` / `--selector` value (`labels.Selector`).
pub type LabelSelector = crate::labels::Selector;

#[cfg(test)]
mod tests {
    use crate::kubectl::run_kubectl_taint;
    use crate::{KubeVersion, Node};
    use alloc::string::String;
    use alloc::vec::Vec;

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

    #[test]
    fn set_based_selectors_pick_nodes() {
        let nodes = [
            node("a", &[("role", "gpu")]),
            node("b", &[("role", "tpu"), ("spot", "")]),
            node("c", &[("role", "cpu")]),
            node("d", &[("role", "tpu")]),
        ];
        let run = run_kubectl_taint(
            &["nodes", "-l", "role in (gpu, tpu),!spot", "k=v:NoSchedule"],
            &nodes,
            KubeVersion::NEWEST,
        );
        assert_eq!(run.stdout, "node/a tainted\nnode/d tainted\n");
        let tainted: Vec<&str> = run
            .nodes
            .iter()
            .filter(|n| !n.taints.is_empty())
            .map(|n| n.name.as_str())
            .collect();
        assert_eq!(tainted, ["a", "d"]);
    }

    #[test]
    fn malformed_selectors_are_kubectl_errors() {
        let nodes = [node("a", &[("role", "gpu")])];
        let run = run_kubectl_taint(
            &["nodes", "-l", "role in gpu", "k=v:NoSchedule"],
            &nodes,
            KubeVersion::NEWEST,
        );
        assert_eq!(run.exit_code, 1);
        assert!(
            run.stderr
                .contains("unable to parse requirement: found 'gpu' expected: '('"),
            "{}",
            run.stderr
        );
        assert!(run.nodes.iter().all(|n| n.taints.is_empty()));
    }
}
