//! Splits a paste into its forms and reads each with its parser.
//!
//! The paste is read line by line. `kubectl ...` command lines (after an optional prompt)
//! are commands; lines kubectl itself prints (`Warning: ...`, klog lines, `error: ...`,
//! `node/x tainted`, table headers) are skipped and reported; `kubectl describe` output
//! starts at a `Name:` header or a `Taints:` / `Tolerations:` block; FailedScheduling
//! messages are events; lines made only of taint specs are specs. Everything else is
//! YAML or JSON (JSON when it starts with `{` or `[`), parsed as one stream with its
//! original line numbers, so locations always point into the paste.

use std::borrow::Cow;

use crate::commands;
use crate::describe;
use crate::diag::{Code, Location};
use crate::event;
use crate::json;
use crate::kubectl::{self, CommandKind};
use crate::model::{DocumentInfo, Form, Parsed};
use crate::reduce::Reducer;
use crate::table;
use crate::yaml;
use crate::{Options, Syntax};

/// Line access by byte offset, without an index of every line (a 64 MiB input can have
/// millions of lines).
struct Lines<'a> {
    text: &'a str,
}

impl<'a> Lines<'a> {
    /// The line starting at `off` (without `\n`) and the offset of the next line.
    fn at(&self, off: usize) -> (&'a str, usize) {
        let rest = self.text.get(off..).unwrap_or("");
        match rest.find('\n') {
            Some(i) => (&rest[..i], off + i + 1),
            None => (rest, self.text.len()),
        }
    }

    /// Up to `max` lines from `off`, numbered from `first_no`.
    fn window(&self, mut off: usize, first_no: usize, max: usize) -> Vec<(usize, &'a str)> {
        let mut out = Vec::new();
        while off < self.text.len() && out.len() < max {
            let (l, next) = self.at(off);
            out.push((first_no + out.len(), l));
            off = next;
        }
        out
    }
}

/// Indented lines from `off` on (the content of a YAML or JSON region): how many, and
/// the offset after them. Stops before a line that may be a describe `Events:` label,
/// which the caller checks in full.
fn skip_content_lines(b: &[u8], mut off: usize) -> (usize, usize) {
    let spaces = u64::from_le_bytes([b' '; 8]);
    let mut n = 0;
    while off < b.len() && matches!(b[off], b' ' | b'\t') {
        let mut j = off;
        while let Some(w) = crate::json::word(b, j)
            && w == spaces
        {
            j += 8;
        }
        while j < b.len() && matches!(b[j], b' ' | b'\t') {
            j += 1;
        }
        // Also before a Terraform block (`toleration {`), which is never YAML or JSON
        // content: the caller checks it in full.
        if b[j..].starts_with(b"Events:")
            || b[j..].starts_with(b"```")
            || b[j..].starts_with(b"toleration")
            || b[j..].starts_with(b"taint")
        {
            break;
        }
        n += 1;
        // The end of the line, eight bytes at a time.
        loop {
            match crate::json::word(b, j) {
                Some(w) => {
                    let nl = crate::json::has_byte(w, b'\n');
                    if nl != 0 {
                        off = j + (nl.trailing_zeros() / 8) as usize + 1;
                        break;
                    }
                    j += 8;
                }
                None => {
                    off = match b[j..].iter().position(|&c| c == b'\n') {
                        Some(k) => j + k + 1,
                        None => b.len(),
                    };
                    break;
                }
            }
        }
    }
    (n, off)
}

/// Lines kubectl prints besides the content: warnings, klog lines, errors, results.
fn is_kubectl_noise(line: &str) -> bool {
    let l = line.trim_end_matches('\r');
    if l.starts_with("Warning: ")
        || l.starts_with("error: ")
        || l.starts_with("Error from server")
        || l.starts_with("See 'kubectl")
        || l.starts_with("No resources found")
        || l.starts_with("The connection to the server")
    {
        return true;
    }
    // The error line of make when a recipe (kubectl, terraform) failed:
    // `make: *** [Makefile:8: validate] Error 1`, `make[1]: *** ...`.
    if let Some(r) = l.strip_prefix("make") {
        let r = r
            .strip_prefix('[')
            .and_then(|r| r.split_once(']'))
            .filter(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .map_or(r, |(_, r)| r);
        if r.starts_with(": *** ") {
            return true;
        }
    }
    // klog: `W0512 10:00:00.123456   12345 file.go:70] ...`
    let b = l.as_bytes();
    if b.len() > 22
        && matches!(b[0], b'I' | b'W' | b'E' | b'F')
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[5] == b' '
        && l.contains("] ")
    {
        return true;
    }
    // `node/worker-1 tainted`, `node/worker-1 modified (dry run)`.
    if let Some(rest) = l.strip_prefix("node/") {
        let mut it = rest.split_whitespace();
        let _name = it.next();
        return matches!(
            it.next(),
            Some(
                "tainted"
                    | "untainted"
                    | "modified"
                    | "cordoned"
                    | "uncordoned"
                    | "drained"
                    | "labeled"
                    | "annotated"
                    | "unchanged"
            )
        );
    }
    false
}

/// A table header of `kubectl get` without `-o` (`NAME   STATUS   ROLES`, `LAST SEEN   TYPE`).
fn is_table_header(line: &str) -> bool {
    let l = line.trim_end();
    !l.starts_with(' ')
        && l.contains("  ")
        && l.split_whitespace().count() >= 2
        && l.chars()
            .all(|c| c.is_ascii_uppercase() || c == ' ' || c == '-' || c == '(' || c == ')')
}

/// A FailedScheduling message that is not a field of a YAML/JSON object.
fn is_event_line(line: &str) -> bool {
    let t = line.trim_start();
    if t.starts_with(['{', '-']) || !event::looks_like_failed_scheduling(line) {
        return false;
    }
    // `"message": "0/3 ..."` is a JSON field; a quoted message alone is a message.
    if let Some(r) = t.strip_prefix(['"', '\''])
        && let Some(end) = r.find(['"', '\''])
        && r[end + 1..].trim_start().starts_with(':')
    {
        return false;
    }
    // `message: 0/3 ...` is a YAML field.
    let key_end = t.find(':').unwrap_or(0);
    !(key_end > 0
        && t[..key_end]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
        && t[..1].chars().all(|c| c.is_ascii_lowercase()))
}

/// A message line and the lines that continue it: while a line ends in the head's
/// colon (`0/6 nodes are available:`) or in a comma between reasons, the next line,
/// unless blank or a fence, is more of the same message (one reason a line as a page
/// lays it out, or a break inside a reason such as `{k: v}, ` / `that the pod didn't
/// tolerate`). Returns the joined text, its line count and the offset after it.
fn wrapped_message(lines: &Lines<'_>, first: &str, mut next: usize) -> (String, usize, usize) {
    let open = |l: &str| {
        let t = l.trim_end();
        t.ends_with(',') || t.ends_with("nodes are available:")
    };
    let mut joined = first.to_string();
    let mut count = 1;
    let mut last = first;
    while open(last) && next < lines.text.len() {
        let (l, nx) = lines.at(next);
        let t = l.trim();
        if t.is_empty() || t.starts_with("```") || t.starts_with("~~~") {
            break;
        }
        joined.truncate(joined.trim_end().len());
        joined.push('\n');
        joined.push_str(t);
        count += 1;
        last = l;
        next = nx;
    }
    (joined, count, next)
}

/// Whether the line at `off`, indented by `indent`, is inside a block scalar: the
/// nearest non-blank line above it that is indented less (looking back at most 200
/// lines, not before the region's first line at `start`) ends in `|` or `>` (with
/// chomping or indentation indicators). `None` when no such line is found.
fn in_block_scalar(text: &str, start: usize, off: usize, indent: usize) -> Option<bool> {
    let mut end = off;
    for _ in 0..200 {
        if end <= start {
            return None;
        }
        let body = &text[..end - 1];
        let from = body.rfind('\n').map_or(0, |i| i + 1);
        let line = body[from..].trim_end_matches('\r');
        end = from;
        if from < start {
            return None;
        }
        if line.trim().is_empty() || indent_of(line) >= indent {
            continue;
        }
        let last = line.split_whitespace().last().unwrap_or("");
        let scalar = last.starts_with(['|', '>'])
            && last[1..]
                .chars()
                .all(|ch| matches!(ch, '-' | '+' | '0'..='9'));
        return Some(scalar);
    }
    None
}

/// Leading spaces and tabs of a line.
fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

/// A line of prose ending in a colon that introduces a block: at column 1, three words
/// or more before the colon, nothing YAML would quote or nest.
fn is_prose_label(line: &str) -> bool {
    let t = line.trim_end();
    let Some(key) = t.strip_suffix(':') else {
        return false;
    };
    // A markdown bullet (`- Fix: patch the pod to add:`): YAML would need the colon
    // before the line's end to open a mapping, so three words or more are prose.
    if let Some(item) = key.strip_prefix("- ").or_else(|| key.strip_prefix("* ")) {
        return item.split_whitespace().count() >= 3
            && item.len() <= 200
            && !item.contains(['"', '\'', '{', '[', '#', '='])
            && item.chars().any(|c| c.is_lowercase());
    }
    !line.starts_with([' ', '\t', '-', '#', '"', '\''])
        && key.len() <= 200
        && key.split_whitespace().count() >= 3
        && !key.contains(['"', '\'', '{', '[', ':', '#', '='])
        && key.chars().any(|c| c.is_lowercase())
}

/// A line made only of taint specs (`dedicated=gpu:NoSchedule other:NoExecute`).
fn is_spec_line(line: &str) -> bool {
    // A first word that `is_spec_word` rejects by its first character ends the check
    // before the line is split (a one-line JSON paste is one word of megabytes).
    if line
        .trim_start()
        .starts_with(['-', '#', '{', '[', '"', '\''])
    {
        return false;
    }
    let mut any = false;
    for w in line.split_whitespace() {
        if !kubectl::is_spec_word(w) {
            return false;
        }
        any = true;
    }
    any
}

#[derive(PartialEq)]
enum Mode {
    Normal,
    /// After `kubectl describe`: its output.
    Describe,
    /// After `kubectl get` without `-o`, and other commands: table or status lines.
    Table,
}

/// An open YAML/JSON region: where it starts, and kubectl lines inside it to blank out.
struct Region {
    /// 0-based line and byte offset of its first line.
    line: usize,
    off: usize,
    /// Byte ranges of lines to blank out.
    blank: Vec<(usize, usize)>,
}

struct Ctx<'a, 'o> {
    /// The pod the last `kubectl describe pod NAME` named: its events belong to it.
    described_pod: Option<String>,
    /// The line (0-based) right under a `kubectl get pods -o wide` command, where its
    /// rows may start without their header, and whether the command had `-A`.
    pods_wide_rows: Option<(usize, bool)>,
    lines: Lines<'a>,
    opts: &'o Options,
    out: Parsed,
    next_doc: usize,
    region: Option<Region>,
    /// What the last command says follows it.
    mode: Mode,
    /// The `kubectl taint` command whose output may follow.
    last_cmd: Option<usize>,
    /// The run of kubectl output lines skipped so far (1-based, first and last).
    skipped: Option<(usize, usize)>,
}

/// The line the reader is at.
struct At<'a> {
    /// Its 0-based number, its byte offset and the offset of the line after it.
    i: usize,
    off: usize,
    next: usize,
    line: &'a str,
    trimmed: &'a str,
    /// Starts with a space or a tab.
    indented: bool,
}

/// What a recogniser read: how many lines, and the byte offset after them.
type Step = (usize, usize);

/// Reads a paste in any form.
pub(crate) fn parse_auto(text: &str, opts: &Options) -> Parsed {
    let unquoted = unquote_markdown(text);
    let text: &str = &unquoted;
    let mut c = Ctx {
        described_pod: None,
        pods_wide_rows: None,
        lines: Lines { text },
        opts,
        out: Parsed::default(),
        next_doc: 1,
        region: None,
        mode: Mode::Normal,
        last_cmd: None,
        skipped: None,
    };
    // `i` is the 0-based line number of the line at byte offset `off`.
    let mut i = 0;
    let mut off = 0;
    while off < text.len() {
        // Inside YAML or JSON, indented lines are content: nothing else to check. Runs
        // of them are skipped without splitting them into lines one call at a time.
        if c.region.is_some() && c.mode == Mode::Normal {
            let (n, o) = skip_content_lines(text.as_bytes(), off);
            if n > 0 {
                i += n;
                off = o;
                continue;
            }
        }
        let (line, next) = c.lines.at(off);
        let at = At {
            i,
            off,
            next,
            line,
            trimmed: line.trim(),
            indented: line.starts_with([' ', '\t']),
        };
        if c.is_content(&at) {
            i += 1;
            off = next;
            continue;
        }
        if c.out.documents.len() > opts.limits.max_documents {
            c.out.push_error(
                Code::TooManyDocuments,
                Location::at(0, i + 1, 1),
                format!(
                    "more than {} documents in one paste; the rest is not read",
                    opts.limits.max_documents
                ),
            );
            break;
        }
        // The forms a line can start, tried in this order: the first that recognises
        // it reads it (the order decides, e.g., that `node/a tainted` under a taint
        // command is that command's answer, not skipped kubectl output). Any other line
        // is YAML or JSON.
        let (lines, end) = c
            .ansible_result(&at)
            .or_else(|| c.command(&at))
            .or_else(|| c.fence(&at))
            .or_else(|| c.blank(&at))
            .or_else(|| c.terraform_error(&at))
            .or_else(|| c.tool_error(&at))
            .or_else(|| c.terraform_block(&at))
            .or_else(|| c.events_table(&at))
            .or_else(|| c.node_table(&at))
            .or_else(|| c.priority_class_table(&at))
            .or_else(|| c.pod_table(&at))
            .or_else(|| c.pod_rows(&at))
            .or_else(|| c.taint_rows(&at))
            .or_else(|| c.klog_event(&at))
            .or_else(|| c.taint_result(&at))
            .or_else(|| c.kubectl_noise(&at))
            .or_else(|| c.event_message(&at))
            .or_else(|| c.table_output(&at))
            .or_else(|| c.describe(&at))
            .or_else(|| c.taint_specs(&at))
            .or_else(|| c.prose_label(&at))
            .unwrap_or_else(|| c.structured(&at));
        i += lines;
        off = end;
    }
    c.flush(text.len(), i);
    c.flush_skipped();
    taintlab_core::sort::sort_by_key(&mut c.out.diagnostics, |d| {
        (d.location.line, d.location.column)
    });
    c.out
}

/// The recognisers, one per form a line can start.
impl<'a> Ctx<'a, '_> {
    /// Whether the line is content of the open YAML or JSON region: indented, and
    /// neither a describe `Events:` label, a Terraform block nor a fence that closes
    /// the block.
    fn is_content(&self, at: &At<'_>) -> bool {
        let Some(r) = &self.region else {
            return false;
        };
        if !at.indented
            || self.mode != Mode::Normal
            || table::is_events_label(at.line)
            || crate::hcl::block_start(at.line)
        {
            return false;
        }
        // A code fence indented under a markdown bullet closes the block it opened: at
        // the region's own indentation or less (two more under a bullet's text) it is no
        // YAML content (a block scalar's lines are indented deeper than its key). Deeper,
        // it closes the block too unless it is inside a block scalar (a closing fence
        // typed at the depth of the last key).
        let closing_fence = at.trimmed.starts_with("```") && {
            // Under a bullet (`- text`) its text's column, two further in.
            let first = self.lines.at(r.off).0;
            let bullet = first.trim_start().starts_with(['-', '*']);
            let indent = indent_of(at.line);
            indent <= indent_of(first) + if bullet { 2 } else { 0 }
                || in_block_scalar(self.lines.text, r.off, at.off, indent) == Some(false)
        };
        !closing_fence
    }

    /// Ends the open YAML/JSON region and the run of skipped kubectl lines before the
    /// line at `at`.
    fn end_before(&mut self, at: &At<'_>) {
        self.flush(at.off, at.i);
        self.flush_skipped();
    }

    /// The step over `n` lines from byte offset `off`.
    fn lines_from(&self, mut off: usize, n: usize) -> Step {
        for _ in 0..n {
            off = self.lines.at(off).1;
        }
        (n, off)
    }

    /// A command in an Ansible task result, with what it printed.
    fn ansible_result(&mut self, at: &At<'a>) -> Option<Step> {
        let (words, outs) = kubectl::ansible_result(at.line, at.i + 1)?;
        self.end_before(at);
        let no = at.i + 1;
        for (first, kind) in kubectl::kubectl_commands(words) {
            if let CommandKind::NodeEdit(verb, args) = kind {
                let doc = self.new_doc(Form::KubectlTaint, no, no);
                let k = self.out.taint_commands.len();
                commands::push_taint_command(
                    &mut self.out,
                    doc,
                    at.trimmed.to_string(),
                    &first,
                    verb,
                    args,
                    self.opts.kubectl_version,
                );
                for o in &outs {
                    let loc = Location::at(doc, no, 1);
                    if let Some(res) = kubectl::result_line(o, loc, &self.out.taint_commands[k]) {
                        self.out.taint_commands[k].results.push(res);
                    }
                }
            }
        }
        Some((1, at.next))
    }

    /// A `kubectl` command line (with its continuation lines), or one quoted as inline
    /// code in prose (`` `kubectl taint ...` ``): commands that edit nodes are read,
    /// the others say what output follows them.
    fn command(&mut self, at: &At<'a>) -> Option<Step> {
        let direct = kubectl::command_start(at.line);
        let inline = match direct {
            None => kubectl::inline_command(at.line),
            Some(_) => None,
        };
        let start = direct.or(inline.as_ref().map(|x| x.1))?;
        self.end_before(at);
        let i = at.i;
        let window = match &inline {
            Some((blanked, _)) => vec![(i + 1, blanked.as_str())],
            None => self.lines.window(at.off, i + 1, 500),
        };
        let (words, used, err) = kubectl::shell_words(&window, start);
        let used = used.clamp(1, window.len().max(1));
        let mut cmd_text = String::new();
        for (k, (_, l)) in window[..used].iter().enumerate() {
            if k > 0 {
                cmd_text.push('\n');
            }
            cmd_text.push_str(l.trim_end_matches('\r'));
        }
        if let Some((msg, l, col)) = err {
            let doc = self.new_doc(Form::KubectlTaint, i + 1, i + used);
            self.out
                .push_error(Code::KubectlCommand, Location::at(doc, l, col), msg);
        } else {
            self.mode = Mode::Normal;
            for (first, kind) in kubectl::kubectl_commands(words) {
                match kind {
                    CommandKind::NodeEdit(verb, args) => {
                        self.described_pod = None;
                        self.pods_wide_rows = None;
                        let doc = self.new_doc(Form::KubectlTaint, first.line, i + used);
                        self.last_cmd = Some(self.out.taint_commands.len());
                        commands::push_taint_command(
                            &mut self.out,
                            doc,
                            cmd_text.clone(),
                            &first,
                            verb,
                            args,
                            self.opts.kubectl_version,
                        );
                    }
                    CommandKind::Other {
                        verb,
                        output,
                        pod,
                        pods_wide,
                    } => {
                        self.last_cmd = None;
                        self.described_pod = pod;
                        self.pods_wide_rows = pods_wide.map(|all| (i + used, all));
                        self.mode = match (verb.as_str(), output.as_deref()) {
                            ("describe", _) => Mode::Describe,
                            (_, Some("yaml" | "json")) => Mode::Normal,
                            _ => Mode::Table,
                        };
                    }
                }
            }
        }
        Some(self.lines_from(at.off, used))
    }

    /// Markdown code fences: the block around them is read, the fence is not text.
    fn fence(&mut self, at: &At<'a>) -> Option<Step> {
        // A code block's language tag left alone by a web page that dropped the fence.
        let lone_tag = self.region.is_none()
            && !at.indented
            && matches!(
                at.trimmed,
                "yaml"
                    | "yml"
                    | "json"
                    | "bash"
                    | "shell"
                    | "sh"
                    | "zsh"
                    | "console"
                    | "text"
                    | "powershell"
            );
        // HTML `<pre>` blocks of issue pages.
        let pre = matches!(
            at.trimmed,
            "<pre>" | "</pre>" | "<pre><code>" | "</code></pre>"
        );
        if !(at.trimmed.starts_with("```") || at.trimmed.starts_with("~~~") || lone_tag || pre) {
            return None;
        }
        self.end_before(at);
        if self.mode == Mode::Table {
            self.mode = Mode::Normal;
        }
        Some((1, at.next))
    }

    /// A blank line, or a wrapper left alone on its line (the closing backtick of
    /// inline code, the corners and side of Terraform's error box): it ends a table.
    fn blank(&mut self, at: &At<'a>) -> Option<Step> {
        let t = at.trimmed;
        let only_wrappers = !t.is_empty()
            && t.len() <= 3
            && t.chars()
                .all(|ch| matches!(ch, '`' | '"' | '\'' | ')' | ']' | '*' | '╷' | '╵' | '│'));
        if !(t.is_empty() || (only_wrappers && self.region.is_none())) {
            return None;
        }
        if self.mode == Mode::Table && self.region.is_none() {
            self.flush_skipped();
            self.mode = Mode::Normal;
        }
        Some((1, at.next))
    }

    /// Terraform's error block about a toleration or taint argument or block name:
    /// explained once, the block read whole.
    fn terraform_error(&mut self, at: &At<'a>) -> Option<Step> {
        if (self.region.is_some() && at.indented) || !at.line.contains("Error: ") {
            return None;
        }
        let (why, used) =
            crate::tool::terraform_diagnostic(&self.lines.window(at.off, at.i + 1, 12))?;
        self.end_before(at);
        self.out
            .push_warning(Code::ToolError, Location::at(0, at.i + 1, 1), why);
        Some(self.lines_from(at.off, used))
    }

    /// A tool's error about a toleration or taint: explained once.
    fn tool_error(&mut self, at: &At<'a>) -> Option<Step> {
        if self.region.is_some() && at.indented {
            return None;
        }
        let line = at.line;
        let mut why = crate::tool::explain(line)?;
        self.end_before(at);
        // A message wrapped after `Invalid value:`: read with its next lines.
        let mut used = 1;
        if line.trim_end().ends_with(':') {
            let window = self.lines.window(at.off, at.i + 1, 4);
            let mut joined = line.trim_end().to_string();
            for (k, (_, l)) in window.iter().enumerate().skip(1) {
                if l.trim().is_empty() || kubectl::command_start(l).is_some() {
                    break;
                }
                joined.push(' ');
                joined.push_str(l.trim());
                if let Some(w) = crate::tool::explain(&joined)
                    && w != why
                {
                    why = w;
                    used = k + 1;
                }
            }
        }
        // A message a terminal wrapped inside a word (`when 'tolerationSe` /
        // `conds' is set`): the short tail is part of it.
        if used == 1
            && line
                .trim_end()
                .ends_with(|ch: char| ch.is_ascii_alphanumeric())
        {
            let (tail, _) = self.lines.at(at.next);
            if !tail.is_empty()
                && tail.len() < 40
                && tail.starts_with(|ch: char| ch.is_ascii_lowercase())
                && kubectl::command_start(tail).is_none()
                && !tail.contains(": ")
            {
                used = 2;
            }
        }
        self.out
            .push_warning(Code::ToolError, Location::at(0, at.i + 1, 1), why);
        Some(self.lines_from(at.off, used))
    }

    /// Terraform configuration: toleration and taint blocks checked.
    fn terraform_block(&mut self, at: &At<'a>) -> Option<Step> {
        if !crate::hcl::block_start(at.line) {
            return None;
        }
        self.end_before(at);
        let doc = self.next_doc;
        let mut r = crate::hcl::read_block(&self.lines.text[at.off..], at.i + 1, doc);
        self.new_doc(Form::Terraform, at.i + 1, at.i + r.lines);
        self.out.diagnostics.append(&mut r.diagnostics);
        self.mode = Mode::Normal;
        Some((r.lines, at.off + r.bytes))
    }

    /// Events tables: describe's `Events:` section, `kubectl get events`.
    fn events_table(&mut self, at: &At<'a>) -> Option<Step> {
        let used = read_events_table(self, at.off, at.i, at.line)?;
        self.flush_skipped();
        self.mode = Mode::Normal;
        Some(self.lines_from(at.off, used))
    }

    /// `kubectl get nodes` tables and custom columns with taints.
    fn node_table(&mut self, at: &At<'a>) -> Option<Step> {
        if self.region.is_some() {
            return None;
        }
        let h = table::node_header(at.line)?;
        self.flush_skipped();
        let (body, end) = table_rows(self, at.next, at.i + 2, false);
        let doc = self.new_doc(Form::NodeTable, at.i + 1, at.i + 1 + body.len());
        table::read_nodes(&h, &body, doc, &mut self.out);
        self.mode = Mode::Normal;
        Some((1 + body.len(), end))
    }

    /// `kubectl get priorityclass` tables.
    fn priority_class_table(&mut self, at: &At<'a>) -> Option<Step> {
        if at.indented {
            return None;
        }
        let h = table::priority_class_header(at.line)?;
        self.end_before(at);
        let (body, end) = table_rows(self, at.next, at.i + 2, false);
        let doc = self.new_doc(Form::PriorityClassTable, at.i + 1, at.i + 1 + body.len());
        table::read_priority_classes(&h, &body, doc, &mut self.out);
        self.mode = Mode::Normal;
        Some((1 + body.len(), end))
    }

    /// `kubectl get pods -o wide` tables: pods bound to the node of their row. The
    /// header is never a line of YAML (no colon, at column 1), so it also ends prose
    /// read so far.
    fn pod_table(&mut self, at: &At<'a>) -> Option<Step> {
        if at.indented {
            return None;
        }
        let h = table::pod_header(at.line)?;
        self.end_before(at);
        let single_spaced = table::columns(at.line).len() < 4;
        let (body, end) = table_rows(self, at.next, at.i + 2, single_spaced);
        let doc = self.new_doc(Form::PodTable, at.i + 1, at.i + 1 + body.len());
        table::read_pods(&h, &body, doc, &mut self.out);
        self.mode = Mode::Normal;
        Some((1 + body.len(), end))
    }

    /// Rows of `kubectl get pods -o wide` right under the command, without the
    /// header a `| grep` dropped: the header is the one kubectl prints for them.
    fn pod_rows(&mut self, at: &At<'a>) -> Option<Step> {
        let (row, all) = self.pods_wide_rows?;
        if at.indented || row != at.i {
            return None;
        }
        let h = table::pod_header_for_row(at.line, all)?;
        self.pods_wide_rows = None;
        self.end_before(at);
        let (body, end) = table_rows(self, at.off, at.i + 1, false);
        let doc = self.new_doc(Form::PodTable, at.i + 1, at.i + body.len());
        table::read_pods(&h, &body, doc, &mut self.out);
        self.mode = Mode::Normal;
        Some((body.len(), end))
    }

    /// go-template / jsonpath lines of node names and their taints.
    fn taint_rows(&mut self, at: &At<'a>) -> Option<Step> {
        if at.indented || !table::taint_row(at.line)?.distinctive {
            return None;
        }
        self.end_before(at);
        let mut body = vec![(at.i + 1, at.line)];
        let mut end = at.next;
        while end < self.lines.text.len() {
            let (l, nx) = self.lines.at(end);
            if table::taint_row(l).is_none() {
                break;
            }
            body.push((at.i + 1 + body.len(), l));
            end = nx;
        }
        let doc = self.new_doc(Form::NodeTable, at.i + 1, at.i + body.len());
        table::read_taint_rows(&body, doc, &mut self.out);
        self.mode = Mode::Normal;
        Some((body.len(), end))
    }

    /// A FailedScheduling message in a log line (klog `err="..."`).
    fn klog_event(&mut self, at: &At<'a>) -> Option<Step> {
        if !(is_kubectl_noise(at.line) && event::looks_like_failed_scheduling(at.line)) {
            return None;
        }
        self.flush(at.off, at.i);
        let doc = self.new_doc(Form::EventMessage, at.i + 1, at.i + 1);
        let ev = event::parse_message(at.line, Location::at(doc, at.i + 1, 1));
        self.out.events.push(ev);
        Some((1, at.next))
    }

    /// kubectl's answer to the taint command above. Any other line ends its answers.
    fn taint_result(&mut self, at: &At<'a>) -> Option<Step> {
        if let Some(k) = self.last_cmd
            && let Some(cmd) = self.out.taint_commands.get(k)
        {
            let loc = Location::at(cmd.location.document, at.i + 1, 1);
            if let Some(res) = kubectl::result_line(at.line, loc, cmd) {
                self.out.taint_commands[k].results.push(res);
                return Some((1, at.next));
            }
        }
        self.last_cmd = None;
        None
    }

    /// Lines kubectl prints besides the content (warnings, klog lines, errors):
    /// skipped, blanked out of the YAML around them.
    fn kubectl_noise(&mut self, at: &At<'a>) -> Option<Step> {
        if !is_kubectl_noise(at.line) {
            return None;
        }
        if let Some(r) = &mut self.region {
            r.blank.push((at.off, at.off + at.line.len()));
        }
        self.skip(at.i);
        Some((1, at.next))
    }

    /// FailedScheduling messages (with the lines that continue them).
    fn event_message(&mut self, at: &At<'a>) -> Option<Step> {
        let line = at.line;
        if !is_event_line(line) || (self.region.is_some() && at.indented) {
            return None;
        }
        self.flush(at.off, at.i);
        // 1.5's two-line message: `pod (x) failed to fit in any node` and, on the
        // next line, `fit failure summary on nodes : ...`.
        let (second, after) = self.lines.at(at.next);
        let two = line.trim_end().ends_with("failed to fit in any node")
            && second.trim_start().starts_with("fit failure");
        let (joined, lines, end) = if two {
            (format!("{}\n{}", line.trim_end(), second.trim()), 2, after)
        } else {
            wrapped_message(&self.lines, line, at.next)
        };
        let doc = self.new_doc(Form::EventMessage, at.i + 1, at.i + lines);
        let ev = event::parse_message(&joined, Location::at(doc, at.i + 1, 1));
        self.out.events.push(ev);
        Some((lines, end))
    }

    /// What `kubectl get` without `-o` (and other commands) printed: a table header,
    /// or any line while the command's output lasts, is skipped. Any other line ends
    /// the run of skipped lines.
    fn table_output(&mut self, at: &At<'a>) -> Option<Step> {
        let line = at.line;
        // kubectl prints no line that starts with `#`: a comment (a YAML file's, often
        // naming the command that printed a table) ends what the command printed.
        if self.mode == Mode::Table
            && (line.starts_with("---")
                || at.trimmed.starts_with('#')
                || line.starts_with("apiVersion:")
                || line.starts_with("kind:")
                || line.starts_with(['{', '[']))
        {
            self.flush_skipped();
            self.mode = Mode::Normal;
        }
        if self.mode == Mode::Table || (self.region.is_none() && is_table_header(line)) {
            self.mode = Mode::Table;
            self.skip(at.i);
            return Some((1, at.next));
        }
        self.flush_skipped();
        None
    }

    /// `kubectl describe` output: one object per `Name:` header at column 1.
    fn describe(&mut self, at: &At<'a>) -> Option<Step> {
        let (i, line) = (at.i, at.line);
        if !(self.mode == Mode::Describe
            || (describe::is_describe_start(line) && !(self.region.is_some() && at.indented)))
        {
            return None;
        }
        self.flush(at.off, i);
        // Describe output names its own pod.
        self.described_pod = None;
        let mut block: Vec<(usize, &str)> = vec![(i + 1, line)];
        let mut end_off = at.next;
        while end_off < self.lines.text.len() {
            let (l, nx) = self.lines.at(end_off);
            if kubectl::command_start(l).is_some()
                || l.starts_with("---")
                || l.starts_with("apiVersion:")
                || l.starts_with('{')
                || !(describe::is_describe_line(l) || l.starts_with("fit failure summary on nodes"))
            {
                break;
            }
            block.push((i + 1 + block.len(), l));
            end_off = nx;
        }
        let mut obj_start = 0;
        for k in 0..=block.len() {
            let boundary = k == block.len() || (k > obj_start && block[k].1.starts_with("Name:"));
            if boundary {
                let chunk = &block[obj_start..k];
                let doc = self.next_doc;
                self.next_doc += 1;
                let form = describe::parse_object(chunk, doc, &mut self.out);
                let first = chunk.first().map(|x| x.0).unwrap_or(i + 1);
                let last = chunk.last().map(|x| x.0).unwrap_or(first);
                self.out.documents.push(DocumentInfo {
                    index: doc,
                    form,
                    line: first,
                    end_line: last,
                });
                obj_start = k;
            }
        }
        self.mode = Mode::Normal;
        Some((block.len(), end_off))
    }

    /// Lines made only of taint specs (`dedicated=gpu:NoSchedule other:NoExecute`), and
    /// comments between them.
    fn taint_specs(&mut self, at: &At<'a>) -> Option<Step> {
        let i = at.i;
        if self.region.is_some() || at.indented || !is_spec_line(at.line) {
            return None;
        }
        let mut block: Vec<(usize, &str)> = vec![(i + 1, at.line)];
        let mut end_off = at.next;
        while end_off < self.lines.text.len() {
            let (l, nx) = self.lines.at(end_off);
            if !(is_spec_line(l) || l.trim().starts_with('#')) {
                break;
            }
            block.push((i + 1 + block.len(), l));
            end_off = nx;
        }
        let doc = self.new_doc(Form::TaintSpec, i + 1, i + block.len());
        let mut specs = Vec::new();
        for (no, l) in &block {
            let l = l.split(" #").next().unwrap_or(l);
            let l = if l.trim_start().starts_with('#') {
                ""
            } else {
                l
            };
            let mut pos = 0;
            for w in l.split_whitespace() {
                let at = l[pos..].find(w).map(|p| p + pos).unwrap_or(pos);
                pos = at + w.len();
                specs.push((
                    w.to_string(),
                    Location::at(doc, *no, l[..at].chars().count() + 1),
                ));
            }
        }
        commands::bare_specs(
            &mut self.out,
            &specs,
            Location::at(doc, i + 1, 1),
            Form::TaintSpec,
            self.opts.kubectl_version,
        );
        Some((block.len(), end_off))
    }

    /// A line of prose that introduces what follows ("here is the relevant part of
    /// the pod:"): YAML would read it as a key holding the block below, which then
    /// is no object at all. One note; the block is read on its own, and YAML read
    /// before it ends there.
    fn prose_label(&mut self, at: &At<'a>) -> Option<Step> {
        let (i, off, line) = (at.i, at.off, at.line);
        if at.indented || !is_prose_label(line) {
            return None;
        }
        // Prose right before it (same paragraph, not a bullet): the label ends that
        // paragraph, one note for both.
        let text = self.lines.text;
        if let Some(r) = &self.region
            && !line.starts_with(['-', '*'])
            && text[r.off..off]
                .trim_end_matches(['\r', '\n'])
                .rsplit('\n')
                .next()
                .is_some_and(|l| !l.trim().is_empty())
            && !looks_structured(&text[r.off..off])
        {
            self.flush(at.next, i + 1);
            return Some((1, at.next));
        }
        self.end_before(at);
        self.out.push_warning(
            Code::Unrecognized,
            Location::at(0, i + 1, 1),
            format!(
                "line {} not read: looks like prose, not an input Taintlab reads",
                i + 1
            ),
        );
        Some((1, at.next))
    }

    /// Any other line is YAML or JSON: it opens a region, read when a line of another
    /// form (or the end) closes it.
    fn structured(&mut self, at: &At<'a>) -> Step {
        if self.region.is_none() {
            self.region = Some(Region {
                line: at.i,
                off: at.off,
                blank: Vec::new(),
            });
        }
        (1, at.next)
    }
}

/// The rows of a `kubectl get` table from byte offset `off` (line `no`, 1-based): up
/// to a blank or indented line, a command, a fence or a line without columns. Returns
/// them and the offset after them. A `single_spaced` table (a page collapsed its runs
/// of spaces) has rows without column gaps.
fn table_rows<'a>(
    c: &Ctx<'a, '_>,
    mut off: usize,
    mut no: usize,
    single_spaced: bool,
) -> (Vec<(usize, &'a str)>, usize) {
    let mut body = Vec::new();
    let len = c.lines.text.len();
    while off < len {
        let (l, nx) = c.lines.at(off);
        let t = l.trim();
        if t.is_empty()
            || l.starts_with([' ', '\t'])
            || kubectl::command_start(l).is_some()
            || t.starts_with("```")
            || (table::columns(l).len() < 2
                && !(single_spaced && t.split_whitespace().count() >= 4))
        {
            break;
        }
        body.push((no, l));
        no += 1;
        off = nx;
    }
    (body, off)
}

/// Markdown quotes (`> ` at the start of a line, nested `>> `): the markers become
/// spaces, so every offset, line and column stays that of the paste and the quoted text
/// is read as if it were indented.
fn unquote_markdown(text: &str) -> Cow<'_, str> {
    // `>` is rare outside quotes: look for it, then at the byte before it.
    let b = text.as_bytes();
    let quoted = text
        .match_indices('>')
        .any(|(i, _)| i == 0 || b[i - 1] == b'\n');
    if !quoted {
        return Cow::Borrowed(text);
    }
    let mut b = text.as_bytes().to_vec();
    let mut at_start = true;
    let mut i = 0;
    while i < b.len() {
        if at_start {
            while i < b.len() && b[i] == b'>' {
                b[i] = b' ';
                i += 1;
                if i < b.len() && b[i] == b' ' {
                    i += 1;
                }
            }
            at_start = false;
            continue;
        }
        if b[i] == b'\n' {
            at_start = true;
        }
        i += 1;
    }
    // Only ASCII `>` became ASCII spaces: still UTF-8.
    Cow::Owned(String::from_utf8(b).unwrap_or_else(|_| text.to_string()))
}

/// Reads an events table starting at this line (an `Events:` label, or a header);
/// returns the number of lines it used.
fn read_events_table(c: &mut Ctx, off: usize, i: usize, line: &str) -> Option<usize> {
    let label = table::is_events_label(line);
    if !label && table::is_get_events_row(line) {
        return Some(table_body(c, off, i, table::Header::get_events(), 0));
    }
    let mut window = c.lines.window(off, i + 1, 2);
    let header_at = if label {
        if line.contains("<none>") {
            c.flush(off, i);
            c.new_doc(Form::EventMessage, i + 1, i + 1);
            return Some(1);
        }
        usize::from(window.len() > 1)
    } else {
        0
    };
    let h = match table::header(window.get(header_at)?.1) {
        Some(h) => h,
        // `Events:` followed by rows without their header (docs write `  ...` rows).
        None if label => table::Header::describe(),
        None => return None,
    };
    let header_at = if label && table::header(window[header_at].1).is_none() {
        0
    } else {
        header_at
    };
    let skip = 1 + header_at;
    window.clear();
    Some(table_body(c, off, i, h, skip))
}

/// Reads the body of an events table whose first `skip` lines (label, header) are at
/// line `i`; returns the number of lines used.
fn table_body(c: &mut Ctx, off: usize, i: usize, h: table::Header, skip: usize) -> usize {
    c.flush(off, i);
    // The body: up to a blank line, a command, or the start of YAML/JSON.
    let mut body = Vec::new();
    let mut end = off;
    for _ in 0..skip {
        end = c.lines.at(end).1;
    }
    let mut no = i + 1 + skip;
    while end < c.lines.text.len() {
        let (l, nx) = c.lines.at(end);
        let t = l.trim();
        if t.is_empty()
            || kubectl::command_start(l).is_some()
            || t.starts_with("```")
            || (l.starts_with("---") && !(table::is_rule(l) && t != "---"))
            || l.starts_with("apiVersion:")
            || l.starts_with(['{', '['])
        {
            break;
        }
        body.push((no, l));
        no += 1;
        end = nx;
    }
    let used = skip + body.len();
    let doc = c.new_doc(Form::EventMessage, i + 1, i + used.max(1));
    let rows = table::rows(&h, &body);
    // `FailedCreate` rows quoting the API server's rejection.
    for r in &rows {
        if let Some(why) = crate::tool::explain(&r.text) {
            c.out
                .push_warning(Code::ToolError, Location::at(doc, r.line, 1), why);
        }
    }
    let pod = c.described_pod.take();
    let mut evs = table::events(&rows, doc, pod.as_deref());
    c.out.events.append(&mut evs);
    used
}

impl Ctx<'_, '_> {
    /// Counts the line (0-based `i`) into the run of skipped kubectl output lines.
    fn skip(&mut self, i: usize) {
        let s = self.skipped.get_or_insert((i + 1, i + 1));
        s.1 = i + 1;
    }

    /// Reports the run of skipped kubectl output lines, if any.
    fn flush_skipped(&mut self) {
        if let Some((a, b)) = self.skipped.take() {
            let what = if a == b {
                format!("line {a}")
            } else {
                format!("lines {a}-{b}")
            };
            self.out.push_warning(
                Code::SkippedLine,
                Location::at(0, a, 1),
                format!(
                    "{what}: kubectl output (warnings, results or a table), not input; skipped"
                ),
            );
        }
    }

    fn new_doc(&mut self, form: Form, line: usize, end_line: usize) -> usize {
        let doc = self.next_doc;
        self.next_doc += 1;
        self.out.documents.push(DocumentInfo {
            index: doc,
            form,
            line,
            end_line,
        });
        doc
    }

    /// Parses the open structured region, which ends at byte `end` (line `end_line`,
    /// 0-based, exclusive).
    fn flush(&mut self, end: usize, end_line: usize) {
        let Some(r) = self.region.take() else { return };
        let raw = &self.lines.text[r.off..end];
        let text: Cow<str> = if r.blank.is_empty() {
            Cow::Borrowed(raw)
        } else {
            // Blank out kubectl's lines, keeping line numbers and columns.
            let mut t = String::with_capacity(raw.len());
            let mut pos = r.off;
            for (a, b) in &r.blank {
                t.push_str(&self.lines.text[pos..*a]);
                pos = *b;
            }
            t.push_str(&self.lines.text[pos..end]);
            Cow::Owned(t)
        };
        self.read_block(&text, r.line, end_line, true);
    }

    /// Reads YAML or JSON text whose first line is line `line0` (0-based) of the paste.
    /// When YAML does not parse and the text holds several paragraphs (prose between
    /// YAML blocks: "the pod:", "and the node:"), each paragraph is read on its own;
    /// a paragraph that is not YAML at all gets one note, not a syntax error.
    fn read_block(&mut self, text: &str, line0: usize, end_line: usize, split: bool) {
        let first = text.trim_start().chars().next();
        let syntax = match self.opts.syntax {
            Some(s) => s,
            None if matches!(first, Some('{' | '[')) => Syntax::Json,
            None => Syntax::Yaml,
        };
        let snap = Snap::of(&self.out);
        let next_before = self.next_doc;
        let mut next = self.next_doc;
        read_structured(
            text,
            line0 as u32,
            syntax,
            self.next_doc,
            end_line,
            self.opts,
            &mut self.out,
            &mut next,
        );
        self.next_doc = next;
        let broken = self.out.diagnostics[snap.diagnostics..]
            .iter()
            .any(|d| matches!(d.code, Code::YamlSyntax | Code::JsonSyntax));
        if !broken {
            return;
        }
        if split && syntax == Syntax::Yaml && self.opts.syntax.is_none() {
            let paragraphs = paragraphs(text);
            if paragraphs.len() > 1 {
                snap.restore(&mut self.out);
                self.next_doc = next_before;
                for (start, end, first_line) in paragraphs {
                    let para = &text[start..end];
                    let lines = para.lines().count().max(1);
                    // A code block's language tag left on the first line.
                    let tag_len = para.find('\n').unwrap_or(para.len());
                    let para: Cow<str> =
                        if lines > 1 && matches!(para[..tag_len].trim(), "yaml" | "yml" | "json") {
                            Cow::Owned(format!("{}{}", " ".repeat(tag_len), &para[tag_len..]))
                        } else {
                            Cow::Borrowed(para)
                        };
                    let l0 = line0 + first_line;
                    self.read_block(&para, l0, l0 + lines, false);
                }
                return;
            }
        }
        // Text that is not YAML at all (prose, a log, a table): one note for the
        // block instead of a syntax error.
        if !looks_structured(text) {
            self.out.diagnostics.truncate(snap.diagnostics);
            let last = line0 + text.trim_end().lines().count().max(1);
            let what = if last == line0 + 1 {
                format!("line {}", line0 + 1)
            } else {
                format!("lines {}–{}", line0 + 1, last)
            };
            self.out.push_warning(
                Code::Unrecognized,
                Location::at(0, line0 + 1, 1),
                format!(
                    "{what} not read: looks like {}, not an input Taintlab reads",
                    looks_like(text)
                ),
            );
        }
    }
}

/// How much of a parse existed at one point, to undo what a failed read added.
struct Snap {
    documents: usize,
    nodes: usize,
    workloads: usize,
    taint_lists: usize,
    toleration_lists: usize,
    taint_commands: usize,
    events: usize,
    diagnostics: usize,
}

impl Snap {
    fn of(p: &Parsed) -> Self {
        Self {
            documents: p.documents.len(),
            nodes: p.nodes.len(),
            workloads: p.workloads.len(),
            taint_lists: p.taint_lists.len(),
            toleration_lists: p.toleration_lists.len(),
            taint_commands: p.taint_commands.len(),
            events: p.events.len(),
            diagnostics: p.diagnostics.len(),
        }
    }

    fn restore(&self, p: &mut Parsed) {
        p.documents.truncate(self.documents);
        p.nodes.truncate(self.nodes);
        p.workloads.truncate(self.workloads);
        p.taint_lists.truncate(self.taint_lists);
        p.toleration_lists.truncate(self.toleration_lists);
        p.taint_commands.truncate(self.taint_commands);
        p.events.truncate(self.events);
        p.diagnostics.truncate(self.diagnostics);
    }
}

/// The paragraphs of a text (runs of lines between blank lines): byte range and the
/// 0-based number of the first line.
fn paragraphs(text: &str) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    let mut off = 0;
    for (no, l) in text.split_inclusive('\n').enumerate() {
        if l.trim().is_empty() {
            if let Some((s, n)) = start.take() {
                out.push((s, off, n));
            }
        } else if start.is_none() {
            start = Some((off, no));
        }
        off += l.len();
    }
    if let Some((s, n)) = start {
        out.push((s, text.len(), n));
    }
    out
}

/// Whether most lines of a block are YAML or JSON syntax (`key: value`, `- item`,
/// brackets, comments).
fn looks_structured(text: &str) -> bool {
    let mut yes = 0;
    let mut all = 0;
    for l in text.lines() {
        let t = l.trim();
        if t.is_empty() {
            continue;
        }
        all += 1;
        let key = t.split_once(':').is_some_and(|(k, v)| {
            !k.is_empty()
                && (v.is_empty() || v.starts_with(' '))
                && !k.trim_matches(['"', '\'']).contains(' ')
        });
        // Go template source (`{{- range .items}}`) is not JSON.
        if (key
            || t.starts_with("- ")
            || t == "-"
            || t.starts_with(['{', '[', '}', ']', '#', '"'])
            || t == "---")
            && !t.starts_with("{{")
        {
            yes += 1;
        }
    }
    all == 0 || yes * 3 >= all * 2
}

/// A guess at what unread text is, for the note that says it was not read.
pub(crate) fn looks_like(text: &str) -> &'static str {
    let mut lines: Vec<&str> = Vec::new();
    for l in text.lines() {
        if !l.trim().is_empty() {
            lines.push(l);
        }
    }
    let n = lines.len().max(1);
    let count = |f: &dyn Fn(&str) -> bool| lines.iter().filter(|l| f(l)).count();
    let logs = count(&|l: &str| {
        let t = l.trim_start();
        let b = t.as_bytes();
        (b.len() > 10 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-')
            || (b.len() > 5
                && matches!(b[0], b'I' | b'W' | b'E' | b'F')
                && b[1..5].iter().all(u8::is_ascii_digit))
            || t.contains("level=")
            || t.starts_with('[') && t.contains(']')
    });
    let table = count(&|l: &str| l.trim().contains("   ") || l.contains('\t'));
    let prompt = count(&|l: &str| {
        let t = l.trim_start();
        t.starts_with("$ ") || t.starts_with("# ") || t.starts_with("> ") || t.contains("$ ")
    });
    if logs * 2 >= n {
        "a log"
    } else if table * 2 >= n {
        "a table or column output"
    } else if prompt * 2 >= n {
        "a shell session"
    } else {
        "prose"
    }
}

/// Parses YAML or JSON text that starts at line `base + 1` and reduces its documents.
#[allow(clippy::too_many_arguments)]
pub(crate) fn read_structured(
    text: &str,
    base: u32,
    syntax: Syntax,
    first_doc: usize,
    end_line: usize,
    opts: &Options,
    out: &mut Parsed,
    next_doc: &mut usize,
) {
    let mut diags = Vec::new();
    let (mut docs, mut form) = match syntax {
        Syntax::Json => (
            json::parse_stream(text, base, first_doc, &opts.limits, &mut diags),
            Form::Json,
        ),
        Syntax::Yaml => (
            yaml::parse_stream(text, base, first_doc, &opts.limits, &mut diags),
            Form::Yaml,
        ),
    };
    // Text that starts like JSON but is YAML flow style (`{key: a, effect: NoSchedule}`).
    if form == Form::Json && opts.syntax.is_none() && docs.iter().all(|d| d.root.is_none()) {
        let mut ydiags = Vec::new();
        let ydocs = yaml::parse_stream(text, base, first_doc, &opts.limits, &mut ydiags);
        if ydiags.is_empty() && ydocs.iter().any(|d| d.root.is_some()) {
            docs = ydocs;
            diags = ydiags;
            form = Form::Yaml;
        }
    }
    out.diagnostics.append(&mut diags);
    let count = docs.len();
    for (k, d) in docs.iter().enumerate() {
        let last = docs
            .get(k + 1)
            .map(|n| n.line as usize - 1)
            .unwrap_or(end_line);
        out.documents.push(DocumentInfo {
            index: d.index,
            form,
            line: d.line as usize,
            end_line: last.max(d.line as usize),
        });
        if let Some(root) = &d.root {
            let mut r = Reducer {
                out,
                form,
                doc: d.index,
                prefer: opts.prefer,
                version: opts.kubectl_version,
            };
            r.document(root);
        }
    }
    if count > 0 {
        let mut last = docs[0].index;
        for d in &docs {
            last = last.max(d.index);
        }
        *next_doc = last + 1;
    } else {
        *next_doc = first_doc.max(*next_doc);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_lines_are_skipped_up_to_an_events_label() {
        let text = "{\n    \"a\": 1,\n\t\"b\": \"a long line of more than eight bytes\"\n                \"c\"\n  Events:  <none>\n}\n";
        let b = text.as_bytes();
        assert_eq!(skip_content_lines(b, 0), (0, 0));
        let first = text.find('\n').unwrap() + 1;
        let events = text.find("  Events:").unwrap();
        assert_eq!(skip_content_lines(b, first), (3, events));
        // Without a final newline.
        let t = "x\n   last line without newline";
        assert_eq!(skip_content_lines(t.as_bytes(), 2), (1, t.len()));
        assert_eq!(skip_content_lines(b"", 0), (0, 0));
    }

    #[test]
    fn noise_lines() {
        assert!(is_kubectl_noise(
            "Warning: v1 ComponentStatus is deprecated in v1.19+"
        ));
        assert!(is_kubectl_noise(
            "W0512 10:00:00.123456   12345 warnings.go:70] metadata.name: this is used"
        ));
        assert!(is_kubectl_noise("node/worker-1 tainted"));
        assert!(is_kubectl_noise("node/worker-1 modified (dry run)"));
        assert!(!is_kubectl_noise("node/worker-1"));
        assert!(!is_kubectl_noise("kind: Node"));
        assert!(is_kubectl_noise("make: *** [Makefile:8: validate] Error 1"));
        assert!(is_kubectl_noise("make[2]: *** [plan] Error 1"));
        assert!(!is_kubectl_noise("make: all"));
        assert!(!is_kubectl_noise("make[x]: *** y"));
    }

    #[test]
    fn table_headers() {
        assert!(is_table_header(
            "NAME       STATUS   ROLES           AGE   VERSION"
        ));
        assert!(is_table_header(
            "LAST SEEN   TYPE      REASON             OBJECT          MESSAGE"
        ));
        assert!(!is_table_header("apiVersion: v1"));
        assert!(!is_table_header("NAME"));
    }

    #[test]
    fn event_lines() {
        assert!(is_event_line(
            "0/3 nodes are available: 3 node(s) had untolerated taint(s)."
        ));
        assert!(is_event_line(
            "  Warning  FailedScheduling  5s  default-scheduler  0/3 nodes are available: 3 Insufficient cpu."
        ));
        assert!(!is_event_line(
            "message: 0/3 nodes are available: 3 Insufficient cpu."
        ));
        assert!(!is_event_line(
            "  \"message\": \"0/3 nodes are available: 3 Insufficient cpu.\","
        ));
    }

    #[test]
    fn fences_closed_at_the_depth_of_a_key() {
        // The closing fence typed under the last item's keys ends the YAML.
        let text = "```\n tolerations:\n  - effect: NoExecute\n    key: node.kubernetes.io/unreachable\n    operator: Exists\n    tolerationSeconds: 60\n    ```\n\nShould the check fail?\n```\n";
        let p = crate::parse(text);
        assert_eq!(p.errors().count(), 0, "{:?}", p.diagnostics);
        assert_eq!(p.toleration_lists.len(), 1);
        assert_eq!(p.toleration_lists[0].tolerations.len(), 1);
        // In a block scalar the same fence is content.
        let t = "data:\n  readme: |\n    intro\n    ```\n    tolerations: none\n    ```\n";
        let at = |needle: &str| t.find(needle).unwrap();
        assert_eq!(in_block_scalar(t, 0, at("    ```\n    tol"), 4), Some(true));
        let t = " tolerations:\n  - effect: NoExecute\n    key: a\n    ```\n";
        assert_eq!(
            in_block_scalar(t, 0, t.find("    ```").unwrap(), 4),
            Some(false)
        );
        // Nothing less indented above, within the region: undecided.
        assert_eq!(in_block_scalar("    a: b\n    ```\n", 0, 9, 4), None);
        assert_eq!(in_block_scalar("x\n  ```\n", 2, 2, 2), None);
    }

    #[test]
    fn wrapped_messages_are_joined() {
        // One reason a line under the head, as a page lays out a describe row.
        let text = "Warning  FailedScheduling  4m  default-scheduler  0/6 nodes are available:\n  3 Insufficient memory,\n  1 node(s) had taint {a: b}, that the pod didn't tolerate,\n  2 node(s) didn't match Pod's node affinity/selector.\n  Normal   Pulled  1m  kubelet  done\n";
        let lines = Lines { text };
        let (first, next) = lines.at(0);
        let (joined, count, end) = wrapped_message(&lines, first, next);
        assert_eq!(count, 4);
        assert_eq!(&text[end..], "  Normal   Pulled  1m  kubelet  done\n");
        assert!(joined.ends_with("\n2 node(s) didn't match Pod's node affinity/selector."));
        let p = crate::parse(text);
        assert_eq!(p.events.len(), 1);
        let fit = p.events[0].fit.as_ref().unwrap();
        assert_eq!((fit.total_nodes, fit.reasons.len()), (6, 3));
        // A break inside a reason, after the comma of `{k: v}, `; a fence ends it.
        let text = "```\n0/5 nodes are available: 2 node(s) had taint {a: b}, \nthat the pod didn't tolerate, 3 node(s) had volume node affinity conflict.\n```\n";
        let p = crate::parse(text);
        assert_eq!(p.events.len(), 1);
        let fit = p.events[0].fit.as_ref().unwrap();
        assert_eq!(
            fit.reasons[0].reason,
            "node(s) had taint {a: b}, that the pod didn't tolerate"
        );
        assert_eq!(fit.reasons.len(), 2);
        // A complete message is not joined with the line under it, nor one whose
        // continuation is blank or a fence.
        for text in [
            "0/2 nodes are available: 2 Insufficient cpu.\n3 Insufficient memory,\n",
            "0/2 nodes are available:\n\n2 Insufficient cpu.\n",
            "0/2 nodes are available: 1 Insufficient cpu,\n```\n",
        ] {
            let lines = Lines { text };
            let (first, next) = lines.at(0);
            assert_eq!(wrapped_message(&lines, first, next).1, 1, "{text:?}");
        }
    }

    #[test]
    fn prose_labels() {
        assert!(is_prose_label("here is the relevant part of the pod:"));
        assert!(is_prose_label("and the node looks like this:  "));
        assert!(is_prose_label("- Fix: Patch pod to add:"));
        for l in [
            "tolerations:",
            "  here is the indented part of it:",
            "node selector terms:x",
            "key: value with words:",
            "- matchExpressions:",
            "- key: \"a b c\":",
            "PREDICATES THAT FAILED NOW:",
        ] {
            assert!(!is_prose_label(l), "{l}");
        }
    }

    #[test]
    fn two_line_message_of_1_5() {
        let p = parse_auto(
            "pod (web-1) failed to fit in any node\nfit failure summary on nodes : PodToleratesNodeTaints (2), MatchNodeSelector (1)\n",
            &Options::default(),
        );
        assert_eq!(p.events.len(), 1);
        let f = p.events[0].fit.as_ref().unwrap();
        assert_eq!(f.reasons.len(), 2);
        assert_eq!(p.events[0].object.as_deref(), Some("web-1"));
        // Alone, each line is still read.
        let p = parse_auto(
            "pod (web-1) failed to fit in any node\n",
            &Options::default(),
        );
        assert_eq!(p.events.len(), 1);
    }

    #[test]
    fn bullet_lists_are_not_tolerations() {
        let p = parse_auto(
            "- Fault: Taint a node but forget the toleration.\n- Effect: Pod won't get scheduled.\n",
            &Options::default(),
        );
        assert!(p.toleration_lists.is_empty() && p.taint_lists.is_empty());
        assert_eq!(p.errors().count(), 0);
        assert_eq!(
            p.diagnostics
                .iter()
                .filter(|d| d.code == Code::Unrecognized)
                .count(),
            1
        );
        // A toleration list with misspelt fields is still one, with its typos told.
        let p = parse_auto(
            "- Key: dedicated\n  Effect: NoSchedule\n",
            &Options::default(),
        );
        assert_eq!(p.toleration_lists.len(), 1);
        assert!(p.diagnostics.iter().any(|d| d.code == Code::UnknownField));
    }

    #[test]
    fn pod_rows_under_a_get_pods_wide_command() {
        let rows = "web-1   1/1   Running   0   9m   10.244.1.8   gpu-1   <none>   <none>\nweb-2   0/1   Pending   0   9m   <none>   <none>   <none>   <none>\n";
        let text = format!("\u{276f} k get pods -o wide | grep web\n{rows}");
        let p = parse_auto(&text, &Options::default());
        assert_eq!(p.workloads.len(), 2);
        assert_eq!(p.workloads[0].pod.node_name, "gpu-1");
        assert_eq!(p.workloads[0].location.line, 2);
        assert_eq!(p.workloads[1].placement.phase, "Pending");
        assert_eq!(p.errors().count(), 0);
        let text = format!(
            "$ kubectl get po -A -owide | grep web\nprod   {}",
            &rows[..rows.find('\n').unwrap()]
        );
        let p = parse_auto(&text, &Options::default());
        assert_eq!(p.workloads.len(), 1);
        assert_eq!(p.workloads[0].namespace, "prod");
        // Only right under the command, and only for pods -o wide.
        for text in [
            rows.to_string(),
            format!("$ kubectl get pods -o wide | grep web\n\n{rows}"),
            format!("$ kubectl get pods | grep web\n{rows}"),
            format!("$ kubectl get nodes -o wide | grep web\n{rows}"),
        ] {
            assert!(
                parse_auto(&text, &Options::default()).workloads.is_empty(),
                "{text}"
            );
        }
    }

    #[test]
    fn comments_naming_a_command_are_not_its_output() {
        let text = "# A Deployment and its pods as `kubectl get pods -o wide` prints them: the\n# rows named <deployment>-<hash>-<5 characters> are the Deployment's.\napiVersion: v1\nkind: Node\nmetadata: {name: n1}\n";
        let p = parse_auto(text, &Options::default());
        assert_eq!(p.nodes.len(), 1);
        assert!(
            !p.diagnostics.iter().any(|d| d.code == Code::SkippedLine),
            "{:?}",
            p.diagnostics
        );
        // What the command printed is still skipped up to the comment.
        let text = "$ kubectl get pods\nNAME   READY   STATUS    RESTARTS   AGE\nweb    1/1     Running   0          1m\n# the node:\napiVersion: v1\nkind: Node\nmetadata: {name: n1}\n";
        let p = parse_auto(text, &Options::default());
        assert_eq!(p.nodes.len(), 1);
        let skipped: Vec<_> = p
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::SkippedLine)
            .map(|d| d.location.line)
            .collect();
        assert_eq!(skipped, [2], "{:?}", p.diagnostics);
    }

    #[test]
    fn fences_under_bullets() {
        let text = "- Effect: the pod won't get scheduled.\n\n  ```bash\n  kubectl taint node w1 tier=batch:NoSchedule\n  ```\n\n- Fix: patch the pod to add:\n    ```yaml\n    tolerations:\n    - key: tier\n      operator: Exists\n    ```\n";
        let p = parse_auto(text, &Options::default());
        assert_eq!(p.taint_commands.len(), 1);
        assert_eq!(p.toleration_lists.len(), 1);
        assert_eq!(p.errors().count(), 0);
        // A fence inside a block scalar, deeper than its key, stays content.
        let text = "data:\n  readme: |\n    ```\n    tolerations: none\n    ```\ntolerations:\n- key: a\n  operator: Exists\n";
        let p = parse_auto(text, &Options::default());
        assert_eq!(p.toleration_lists.len(), 1);
        assert_eq!(p.errors().count(), 0);
    }
}
