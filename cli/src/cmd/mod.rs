//! The subcommands.

pub mod check;
pub mod policy;
pub mod schedule;
pub mod timeline;
pub mod validate;
pub mod whatif;
pub mod why;

use taintlab_core::scheduling::FilterPlugin;
use taintlab_scenario::Scenario;

use crate::Common;
use crate::load::Loaded;
use crate::out::print_error;

/// Reads the inputs, builds the scenario and prints its findings on stderr; an
/// unreadable input is the exit code.
pub fn load(c: &Common) -> Result<(Loaded, Scenario), u8> {
    load_for(c, None)
}

/// [`load`] for one pod (`why POD`): from the cluster, its workload object is read too.
pub fn load_for(c: &Common, target: Option<&str>) -> Result<(Loaded, Scenario), u8> {
    load_with(c, target, Loaded::scenario)
}

/// [`load`] for `what-if`: the scenario without the scheduling matrix of every pasted
/// pod on every node, which a what-if run never reads ([`Loaded::what_if_scenario`]).
pub fn load_for_what_if(c: &Common) -> Result<(Loaded, Scenario), u8> {
    load_with(c, None, Loaded::what_if_scenario)
}

fn load_with(
    c: &Common,
    target: Option<&str>,
    build: fn(&Loaded) -> Scenario,
) -> Result<(Loaded, Scenario), u8> {
    let l = Loaded::read_for(c, target)?;
    crate::progress::phase(BUILDING);
    let s = build(&l);
    crate::progress::clear();
    l.report(&s, c.quiet)?;
    Ok((l, s))
}

/// The progress bar's message while the scenario is built.
pub const BUILDING: &str = "building the scenario (admission, scheduling, eviction)";

/// npm `analyze`'s JSON for the inputs, or the exit code after printing why not.
pub fn analyze(l: &Loaded) -> Result<String, u8> {
    crate::progress::phase("computing the JSON");
    let json = l.analyze_json();
    crate::progress::clear();
    json.map_err(|e| {
        print_error(&l.err_style, &e);
        crate::EXIT_INPUT
    })
}

/// Prints JSON (or YAML); an internal failure is an input error.
pub fn emit(l: &Loaded, json: &str, yaml: bool) -> u8 {
    match crate::out::print_structured(json, yaml) {
        Ok(()) => 0,
        Err(e) => {
            print_error(&l.err_style, &e);
            crate::EXIT_INPUT
        }
    }
}

/// A filter's short name in the matrix.
pub fn short_filter(p: FilterPlugin) -> &'static str {
    match p {
        FilterPlugin::NodeUnschedulable => "cordon",
        FilterPlugin::NodeName => "nodeName",
        FilterPlugin::TaintToleration => "taint",
        FilterPlugin::NodeAffinity => "affinity",
        FilterPlugin::NodePorts => "ports",
        FilterPlugin::NodeResourcesFit => "resources",
    }
}
