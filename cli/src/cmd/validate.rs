//! `taintlab validate`: API validation in the API server's words, located.

use taintlab_input::Severity;
use taintlab_scenario::{Finding, FindingKind};

use super::{analyze, emit};
use crate::load::{Loaded, is_fatal};
use crate::out::{Style, format_finding, print_finding, raw_field};
use crate::{EXIT_INPUT, EXIT_NO, Format, ValidateArgs};

/// Whether a finding is what `validate` reports on stdout: the API server's validation
/// and the values the input layer kept for it (an unknown effect, a missing key).
fn is_validation(f: &Finding) -> bool {
    f.severity == Severity::Error
        && matches!(f.kind, FindingKind::Validation | FindingKind::Input(_))
        && !is_fatal(f)
}

/// A validation finding at its field's own line when the input layer located that
/// field (the scenario locates validation errors at the toleration).
fn at_field(f: &Finding, all: &[Finding]) -> Finding {
    let mut out = f.clone();
    if f.kind == FindingKind::Validation
        && let Some(i) = all.iter().find(|i| {
            matches!(i.kind, FindingKind::Input(_))
                && i.pane == f.pane
                && i.location.document == f.location.document
                && !i.location.path.is_empty()
                && i.location.path == f.location.path
        })
    {
        out.location.line = i.location.line;
        out.location.column = i.location.column;
    }
    out
}

/// Runs `validate`.
pub fn run(a: &ValidateArgs) -> u8 {
    let l = match Loaded::read_for(&a.common, None) {
        Ok(l) => l,
        Err(c) => return c,
    };
    crate::progress::phase(super::BUILDING);
    let s = l.scenario();
    crate::progress::clear();
    if s.findings.iter().any(is_fatal) {
        for f in s.findings.iter().filter(|f| is_fatal(f)) {
            print_finding(&l, f);
        }
        return EXIT_INPUT;
    }
    for f in s.findings.iter().filter(|f| !is_validation(f)) {
        if !a.common.quiet || f.severity == Severity::Error {
            print_finding(&l, f);
        }
    }
    // The input layer flags a bad value the API server also rejects; where validation
    // reports on the same document, its wording (upstream's field path) is the one shown.
    let validated: Vec<(Option<taintlab_scenario::PaneKind>, usize)> = s
        .findings
        .iter()
        .filter(|f| f.kind == FindingKind::Validation)
        .map(|f| (f.pane, f.location.document))
        .collect();
    let errors: Vec<&Finding> = s
        .findings
        .iter()
        .filter(|f| is_validation(f))
        .filter(|f| {
            f.kind == FindingKind::Validation || !validated.contains(&(f.pane, f.location.document))
        })
        .collect();
    let code = if errors.is_empty() { 0 } else { EXIT_NO };
    match a.output {
        Format::Text => {
            let style = Style::stdout(a.common.color);
            for f in &errors {
                crate::say!("{}", format_finding(&l, &at_field(f, &s.findings), &style));
            }
            let messages: Vec<&str> = s
                .pods
                .iter()
                .filter_map(|p| p.status_message.as_deref())
                .collect();
            if !messages.is_empty() {
                crate::sayln!();
                for m in messages {
                    crate::sayln!("{m}");
                }
            }
            crate::sayln!(
                "{} pod(s), {} node(s): {} validation error(s)",
                s.pods.len(),
                s.nodes.len(),
                errors.len()
            );
            code
        }
        Format::Json | Format::Yaml => {
            let json = match analyze(&l) {
                Ok(j) => j,
                Err(c) => return c,
            };
            match raw_field(&json, "diagnostics") {
                Ok(d) => match emit(&l, d.get(), a.output == Format::Yaml) {
                    0 => code,
                    c => c,
                },
                Err(e) => {
                    crate::out::print_error(&l.err_style, &e);
                    EXIT_INPUT
                }
            }
        }
    }
}
