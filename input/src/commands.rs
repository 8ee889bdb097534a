//! What the kubectl reader found, recorded into the parse: each `kubectl taint` (and
//! `kubectl label` on nodes) command with kubectl's verdict on it, and bare taint specs as taint lists. The reading itself
//! (shell words, prompts, command classification) is in [`crate::kubectl`].

use taintlab_core::KubeVersion;
use taintlab_core::kubectl::{self, CommandError};

use crate::diag::{Code, Location};
use crate::kubectl::{CommandVerb, TaintCommandLine, Word};
use crate::model::{Form, Parsed, TaintList};

/// Records a `kubectl taint` or `kubectl label` (on nodes) command: its arguments, and
/// kubectl's verdict on it.
pub(crate) fn push_taint_command(
    out: &mut Parsed,
    doc: usize,
    text: String,
    start: &Word,
    verb: CommandVerb,
    args: Vec<Word>,
    version: KubeVersion,
) {
    let location = Location::at(doc, start.line, start.col);
    let mut arg_locations = Vec::new();
    let mut arg_texts = Vec::new();
    for w in args {
        arg_locations.push(Location::at(doc, w.line, w.col));
        arg_texts.push(w.text);
    }
    let mut cmd = TaintCommandLine {
        verb,
        text,
        location: location.clone(),
        args: arg_texts,
        arg_locations,
        error: None,
        version,
        results: Vec::new(),
    };
    let checked = match verb {
        CommandVerb::Taint => cmd.command().map(|_| ()),
        CommandVerb::Label => cmd.label_command().map(|_| ()),
    };
    if let Err(e) = checked {
        let stderr = cmd.error_stderr(&e);
        let loc = match &e {
            // Point at the spec that failed when the message names it.
            CommandError::Usage(m) | CommandError::Plain(m) => cmd
                .args
                .iter()
                .position(|a| {
                    !a.is_empty()
                        && m.contains(a.as_str())
                        && (a.contains([':', '=']) || a.ends_with('-') || m.ends_with(a.as_str()))
                })
                .and_then(|i| cmd.arg_locations.get(i).cloned())
                .unwrap_or_else(|| location.clone()),
            _ => location.clone(),
        };
        out.push_error(
            Code::KubectlCommand,
            loc,
            format!(
                "kubectl rejects this command: {}",
                stderr.trim_end().replace('\n', " / ")
            ),
        );
        cmd.error = Some(stderr);
    }
    out.taint_commands.push(cmd);
}

/// Bare taint specs (`dedicated=gpu:NoSchedule`, several per line): additions become a
/// taint list; removals need a node and a command, so they are reported.
pub(crate) fn bare_specs(
    out: &mut Parsed,
    specs: &[(String, Location)],
    location: Location,
    form: Form,
    version: KubeVersion,
) {
    let mut list = TaintList {
        taints: Vec::new(),
        locations: Vec::new(),
        location,
        form,
    };
    for (spec, loc) in specs {
        if spec.ends_with('-') {
            out.push_warning(
                Code::KubectlCommand,
                loc.clone(),
                format!(
                    "\"{spec}\" removes a taint, which needs a node: write it in a command such as kubectl taint nodes NODE {spec}"
                ),
            );
            continue;
        }
        match kubectl::parse_taints(&[spec.as_str()], version) {
            Ok(p) => {
                for t in p.to_add {
                    list.taints.push(t);
                    list.locations.push(loc.clone());
                }
            }
            Err(e) => out.push_error(
                Code::InvalidValue,
                loc.clone(),
                format!("this taint spec is not valid (kubectl says: {e})"),
            ),
        }
    }
    if !list.taints.is_empty() {
        out.taint_lists.push(list);
    }
}
