//! `noScheduleTaintingPass` and `noExecuteTainting` (node lifecycle controller).

use serde_json::{Value, json};
use taintlab_core::node_lifecycle::{self, NoExecuteTaintUpdate};
use taintlab_core::{ConditionStatus, NodeCondition};

use super::OpResult;
use crate::convert::*;

pub fn run(op: &str, input: &Value, _expected: &Value) -> OpResult {
    let result = match op {
        "noScheduleTaintingPass" => no_schedule_tainting_pass(input),
        "noExecuteTainting" => no_execute_tainting(input),
        _ => return None,
    };
    Some(result)
}

fn conditions(v: &Value) -> R<Vec<NodeCondition>> {
    v.as_array()
        .ok_or_else(|| format!("not a condition list: {v}"))?
        .iter()
        .map(|c| {
            Ok(NodeCondition {
                type_: str_field(c, "type")?.into(),
                status: ConditionStatus::parse(str_field(c, "status")?),
            })
        })
        .collect()
}

fn no_schedule_tainting_pass(input: &Value) -> R<Value> {
    let pass = node_lifecycle::no_schedule_tainting_pass(
        &conditions(field(input, "conditions")?)?,
        bool_field(input, "unschedulable")?,
        &taints_field(input, "existingTaints")?,
    );
    Ok(json!({
        "desired": taints_json(&pass.desired),
        "taintsToAdd": taints_json(&pass.to_add),
        "taintsToRemove": taints_json(&pass.to_remove),
    }))
}

/// `{add, remove}`; `remove` is a single taint when there is one (the swaps), a list
/// otherwise (recovery removes both NoExecute taints).
fn update_json(u: &NoExecuteTaintUpdate) -> Value {
    let remove = match u.remove.as_slice() {
        [one] => taint_json(one),
        many => taints_json(many),
    };
    json!({"add": u.add.as_ref().map(taint_json), "remove": remove})
}

fn no_execute_tainting(input: &Value) -> R<Value> {
    let decision = node_lifecycle::no_execute_tainting(
        &ConditionStatus::parse(str_field(input, "observedReadyStatus")?),
        &taints_field(input, "existingTaints")?,
    );
    Ok(json!({
        "immediate": decision.immediate.as_ref().map(update_json),
        "queued": decision.queued.as_ref().map(update_json),
        "dequeue": decision.dequeue,
    }))
}
