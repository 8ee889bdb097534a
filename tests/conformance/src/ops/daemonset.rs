//! DaemonSet controller: `addOrUpdateDaemonPodTolerations` and `daemonTaintCheck`.

use serde_json::{Value, json};
use taintlab_core::daemonset;

use super::OpResult;
use crate::convert::*;

pub fn run(op: &str, input: &Value, _expected: &Value) -> OpResult {
    let result = match op {
        "addOrUpdateDaemonPodTolerations" => (|| {
            let mut tols = tolerations_field(input, "tolerations")?;
            daemonset::add_or_update_daemon_pod_tolerations(
                &mut tols,
                bool_field(input, "hostNetwork")?,
            );
            Ok(json!({"tolerations": tolerations_json(&tols)}))
        })(),
        "daemonTaintCheck" => (|| {
            let taints = taints_field(input, "taints")?;
            let tols = tolerations_field(input, "tolerations")?;
            let check = daemonset::daemon_taint_check(&taints, &tols, gate(input)?);
            Ok(json!({
                "shouldRun": check.should_run,
                "shouldContinueRunning": check.should_continue_running,
            }))
        })(),
        _ => return None,
    };
    Some(result)
}
