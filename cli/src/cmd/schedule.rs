//! `taintlab schedule`: the pod × node matrix.

use std::io::IsTerminal;

use taintlab_scenario::{CellKind, CellView, Scenario};

use super::{analyze, emit, load, short_filter};
use crate::out::Style;
use crate::{Format, ScheduleArgs};

/// Runs `schedule`.
pub fn run(a: &ScheduleArgs) -> u8 {
    let (l, s) = match load(&a.common) {
        Ok(x) => x,
        Err(code) => return code,
    };
    match a.output {
        Format::Text => {
            let style = Style::stdout(a.common.color);
            crate::say!("{}", render(&s, &style, terminal_width(), a.wide));
            0
        }
        Format::Json | Format::Yaml => match analyze(&l) {
            Ok(json) => emit(&l, &json, a.output == Format::Yaml),
            Err(c) => c,
        },
    }
}

/// The terminal's width when standard output is one (`COLUMNS` first), else none.
fn terminal_width() -> Option<usize> {
    if let Some(c) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse::<usize>().ok())
        .filter(|&c| c > 0)
    {
        return Some(c);
    }
    if !std::io::stdout().is_terminal() {
        return None;
    }
    terminal_size::terminal_size().map(|(w, _)| usize::from(w.0))
}

/// A cell's text (plain) and whether it fits.
fn cell_text(c: &CellView) -> String {
    let mut t = match c.kind {
        CellKind::Schedulable => format!("✓ {}", c.combined_score.unwrap_or_default()),
        CellKind::Penalized => format!("~ {}", c.combined_score.unwrap_or_default()),
        CellKind::Blocked => match (c.rejected_by, c.hold) {
            (Some(f), _) => format!("✗ {}", short_filter(f)),
            (None, Some(h)) => format!("- {}", h.name()),
            (None, None) => "✗".into(),
        },
        CellKind::BoundHere => "=".into(),
        CellKind::Elsewhere => "·".into(),
    };
    if c.evicted() && c.kind != CellKind::Blocked {
        t.push('!');
    }
    t
}

fn paint(style: &Style, c: &CellView, text: &str) -> String {
    match c.kind {
        CellKind::Schedulable | CellKind::BoundHere => style.green(text),
        CellKind::Penalized => style.yellow(text),
        CellKind::Blocked => style.red(text),
        CellKind::Elsewhere => style.dim(text),
    }
}

fn width(s: &str) -> usize {
    s.chars().count()
}

fn pad(styled: String, plain: &str, w: usize) -> String {
    format!("{styled}{}", " ".repeat(w.saturating_sub(width(plain))))
}

/// The matrix, or one line per pod when the matrix is wider than `max_width`.
pub fn render(s: &Scenario, style: &Style, max_width: Option<usize>, wide: bool) -> String {
    let mut out = String::new();
    if s.pods.is_empty() || s.nodes.is_empty() {
        out.push_str(&format!(
            "{} pod(s), {} node(s): nothing to schedule\n",
            s.pods.len(),
            s.nodes.len()
        ));
        return out;
    }
    let labels: Vec<String> = s.pods.iter().map(|p| p.label()).collect();
    let first = labels.iter().map(|l| width(l)).max().unwrap_or(3).max(3);
    let cells: Vec<Vec<(String, CellView)>> = (0..s.pods.len())
        .map(|p| {
            (0..s.nodes.len())
                .filter_map(|n| s.cell(p, n).map(|c| (cell_text(&c), c)))
                .collect()
        })
        .collect();
    let col_widths: Vec<usize> = s
        .nodes
        .iter()
        .enumerate()
        .map(|(n, node)| {
            cells
                .iter()
                .filter_map(|row| row.get(n).map(|(t, _)| width(t)))
                .max()
                .unwrap_or(1)
                .max(width(&node.node.name))
        })
        .collect();
    let total = first + col_widths.iter().map(|w| w + 2).sum::<usize>();
    let fits = wide || max_width.is_none_or(|m| total <= m);
    if fits {
        out.push_str(&pad(style.bold("POD"), "POD", first));
        for (node, w) in s.nodes.iter().zip(&col_widths) {
            out.push_str("  ");
            out.push_str(&pad(style.bold(&node.node.name), &node.node.name, *w));
        }
        out.truncate(out.trim_end_matches(' ').len());
        out.push('\n');
        for (label, row) in labels.iter().zip(&cells) {
            out.push_str(&pad(label.clone(), label, first));
            for ((t, c), w) in row.iter().zip(&col_widths) {
                out.push_str("  ");
                out.push_str(&pad(paint(style, c, t), t, *w));
            }
            out.truncate(out.trim_end_matches(' ').len());
            out.push('\n');
        }
    } else {
        out.push_str(&format!(
            "{} nodes: one line per pod (--wide prints the matrix)\n",
            s.nodes.len()
        ));
        out.push_str(&format!(
            "{}  {}\n",
            pad(style.bold("POD"), "POD", first),
            style.bold("FITS")
        ));
        for (p, label) in labels.iter().enumerate() {
            let fitting = cells[p]
                .iter()
                .filter(|(_, c)| matches!(c.kind, CellKind::Schedulable | CellKind::Penalized))
                .count();
            let text = format!("{fitting}/{}", s.nodes.len());
            let painted = if fitting == 0 {
                style.red(&text)
            } else {
                style.green(&text)
            };
            out.push_str(&format!(
                "{}  {painted}\n",
                pad(label.clone(), label, first)
            ));
        }
    }
    let pending: Vec<(usize, &str)> = (0..s.pods.len())
        .filter_map(|p| s.message(p).map(|m| (p, m)))
        .collect();
    out.push('\n');
    for (p, m) in &pending {
        out.push_str(&format!(
            "{} {}: {m}\n",
            style.red("FailedScheduling"),
            labels[*p]
        ));
    }
    if !pending.is_empty() {
        out.push('\n');
    }
    out.push_str(&format!(
        "{} pod(s) on {} node(s): {} fit nowhere\n",
        s.pods.len(),
        s.nodes.len(),
        pending.len()
    ));
    if fits {
        out.push_str(&style.dim(
            "✓ fits (modelled score)  ~ fits, PreferNoSchedule penalty  ✗ rejected by (filter)  - not evaluated (why)  = bound here  · bound elsewhere  ! evicted when running",
        ));
        out.push('\n');
    }
    out
}
