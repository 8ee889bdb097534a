//! Op handlers, one module per area. Each module's `run` returns `None` for ops it does
//! not know, so a new area is one more line in [`run`].

use serde_json::Value;

mod admission;
mod daemonset;
mod disruption;
mod drain;
mod eviction;
mod go_text;
mod kubectl;
mod label;
mod matching;
mod node_lifecycle;
mod placement;
mod resources;
mod scheduling;
mod validation;
mod whatif;

/// The handler's answer: `None` for an unknown op, `Err` for malformed input.
pub type OpResult = Option<Result<Value, String>>;

/// Runs `op` on `input`. `expected` is passed only for presentation flags such as
/// `tolerationsOrderSignificant`; handlers never copy results from it.
pub fn run(op: &str, input: &Value, expected: &Value) -> OpResult {
    matching::run(op, input, expected)
        .or_else(|| scheduling::run(op, input, expected))
        .or_else(|| eviction::run(op, input, expected))
        .or_else(|| node_lifecycle::run(op, input, expected))
        .or_else(|| admission::run(op, input, expected))
        .or_else(|| daemonset::run(op, input, expected))
        .or_else(|| validation::run(op, input, expected))
        .or_else(|| kubectl::run(op, input, expected))
        .or_else(|| label::run(op, input, expected))
        .or_else(|| placement::run(op, input, expected))
        .or_else(|| go_text::run(op, input, expected))
        .or_else(|| resources::run(op, input, expected))
        .or_else(|| disruption::run(op, input, expected))
        .or_else(|| drain::run(op, input, expected))
        .or_else(|| whatif::run(op, input, expected))
}
