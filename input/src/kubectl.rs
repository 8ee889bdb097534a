//! `kubectl taint` command lines and bare taint specs.
//!
//! Command lines are split into arguments the way a POSIX shell does for the cases
//! people paste: single and double quotes, backslash escapes, `\` line continuations,
//! `$ ` prompts, `#` comments, and several commands joined with `;`, `&&`, `||` or `|`.
//! The arguments after `kubectl taint` are then handed to
//! [`taintlab_core::kubectl::parse_taint_command`], which reproduces kubectl's flag
//! parsing, validation and messages; [`TaintCommandLine::apply`] runs the command
//! against nodes.

use serde::Serialize;
use taintlab_core::kubectl::{self, CommandError, TaintRun};
use taintlab_core::{KubeVersion, Node};

use crate::diag::Location;
use crate::tree::Kind;

/// The kubectl subcommand of a [`TaintCommandLine`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(rename_all = "kebab-case")]
pub enum CommandVerb {
    /// `kubectl taint nodes ...`.
    #[default]
    Taint,
    /// `kubectl label nodes ...` (node labels only).
    Label,
}

impl CommandVerb {
    /// True for `kubectl taint`.
    pub fn is_taint(&self) -> bool {
        *self == Self::Taint
    }

    /// `taint` or `label`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Taint => "taint",
            Self::Label => "label",
        }
    }
}

/// A `kubectl taint` (or `kubectl label` on nodes) command found in the paste. Both
/// kinds share one list, in paste order, since both edit the pasted nodes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
pub struct TaintCommandLine {
    /// Which subcommand: `taint` or `label` (absent from JSON for `taint`).
    #[serde(default, skip_serializing_if = "CommandVerb::is_taint")]
    pub verb: CommandVerb,
    /// The command as written (continuation lines joined with `\n`).
    pub text: String,
    /// Where it starts (the `k` of `kubectl`).
    pub location: Location,
    /// The arguments kubectl sees after `kubectl` and `taint` (global flags written
    /// before `taint` included), quotes removed.
    pub args: Vec<String>,
    /// Where each argument starts.
    pub arg_locations: Vec<Location>,
    /// kubectl's error for the command itself (before any node is touched), as it
    /// prints it on stderr; `None` when the command is valid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The kubectl release whose messages are used.
    #[serde(skip)]
    pub version: KubeVersion,
    /// What kubectl printed after the command in the paste (`node/x tainted`, `error:
    /// node x already has ...`), line by line: what happened to which node.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub results: Vec<CommandResult>,
}

/// One line kubectl printed for a `kubectl taint` (or `kubectl label`) command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
pub struct CommandResult {
    /// The node the line is about; the command's only node when kubectl does not name
    /// it (`error: taint "k" not found`); empty when unknown.
    pub node: String,
    /// What happened.
    pub outcome: Outcome,
    /// The line as printed.
    pub line: String,
    /// Where it is.
    pub location: Location,
}

/// What a kubectl output line says happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// `node/x tainted`: taints were added.
    Tainted,
    /// `node/x untainted`: taints were removed.
    Untainted,
    /// `node/x modified`: taints were added and removed.
    Modified,
    /// `node/x unchanged` or a dry run.
    Unchanged,
    /// `error: node x already has <key> taint(s) with same effect(s) and --overwrite is
    /// false`: nothing changed on that node.
    AlreadyHasTaint,
    /// `error: taint "k" not found`: the removal found nothing.
    TaintNotFound,
    /// `Error from server (NotFound): nodes "x" not found`.
    NodeNotFound,
    /// `node/x labeled` (or `unlabeled`): `kubectl label` changed the node's labels.
    Labeled,
    /// `node/x not labeled`: `kubectl label` changed nothing.
    NotLabeled,
    /// `error: 'k' already has a value (v), and --overwrite is false`.
    AlreadyHasLabel,
    /// `label "k" not found.`: a removal found nothing (kubectl prints it on stdout and
    /// carries on).
    LabelNotFound,
    /// Another error.
    Error,
}

/// Reads a line kubectl prints for `kubectl taint` or `kubectl label`; `None` for other
/// lines.
pub(crate) fn result_line(
    line: &str,
    location: Location,
    cmd: &TaintCommandLine,
) -> Option<CommandResult> {
    let l = line.trim().trim_end_matches('\r');
    let only_node = || {
        let mut slashed = Vec::new();
        for a in &cmd.args {
            if let Some(n) = a
                .strip_prefix("node/")
                .or_else(|| a.strip_prefix("nodes/"))
                .or_else(|| a.strip_prefix("no/"))
            {
                slashed.push(n);
            }
        }
        if let [one] = slashed.as_slice() {
            return Some((*one).to_string());
        }
        let i = cmd
            .args
            .iter()
            .position(|a| matches!(a.as_str(), "node" | "nodes" | "no"))?;
        let mut names: Vec<&String> = Vec::new();
        for a in &cmd.args[i + 1..] {
            if a.starts_with('-') || a.contains(['=', ':']) || a.ends_with('-') {
                break;
            }
            names.push(a);
        }
        (names.len() == 1).then(|| names[0].clone())
    };
    let (node, outcome) = if let Some(r) = l.strip_prefix("node/") {
        let (name, what) = r.split_once(' ')?;
        let o = match what.split_whitespace().next()? {
            _ if what.contains("dry run)") && what.contains("labeled") => Outcome::Unchanged,
            "labeled" | "unlabeled" => Outcome::Labeled,
            "not" if what.starts_with("not labeled") => Outcome::NotLabeled,
            "tainted" => Outcome::Tainted,
            "untainted" => Outcome::Untainted,
            "modified" if what.contains("dry run") => Outcome::Unchanged,
            "modified" => Outcome::Modified,
            "unchanged" => Outcome::Unchanged,
            _ => return None,
        };
        (name.to_string(), o)
    } else if let Some(r) = l.strip_prefix("error: node ") {
        let (name, rest) = r.split_once(' ')?;
        if !rest.starts_with("already has") {
            return None;
        }
        (name.to_string(), Outcome::AlreadyHasTaint)
    } else if (l.starts_with("error: taint \"") || l.starts_with("taint \""))
        && l.ends_with("not found")
    {
        (only_node().unwrap_or_default(), Outcome::TaintNotFound)
    } else if l.trim_start_matches("error: ").starts_with('\'')
        && l.ends_with("and --overwrite is false")
        && l.contains("' already has a value (")
    {
        (only_node().unwrap_or_default(), Outcome::AlreadyHasLabel)
    } else if l.starts_with("label \"") && l.ends_with("\" not found.") {
        (only_node().unwrap_or_default(), Outcome::LabelNotFound)
    } else if let Some(r) = l.strip_prefix("Error from server (NotFound): nodes \"") {
        (
            r.split('"').next().unwrap_or("").to_string(),
            Outcome::NodeNotFound,
        )
    } else if l.starts_with("error: ") {
        (only_node().unwrap_or_default(), Outcome::Error)
    } else {
        return None;
    };
    Some(CommandResult {
        node,
        outcome,
        line: l.to_string(),
        location,
    })
}

impl TaintCommandLine {
    /// The command parsed and validated by `kubectl taint`'s rules (a `kubectl label`
    /// line gets [`CommandError::Unsupported`]; see [`TaintCommandLine::label_command`]).
    pub fn command(&self) -> Result<kubectl::TaintCommand, CommandError> {
        match self.verb {
            CommandVerb::Taint => kubectl::parse_taint_command(&self.args, self.version),
            CommandVerb::Label => Err(CommandError::Unsupported(String::from(
                "this is a kubectl label command",
            ))),
        }
    }

    /// A `kubectl label` line parsed and validated by kubectl's rules (a `kubectl taint`
    /// line gets [`CommandError::Unsupported`]).
    pub fn label_command(&self) -> Result<kubectl::LabelCommand, CommandError> {
        match self.verb {
            CommandVerb::Label => kubectl::parse_label_command(&self.args, self.version),
            CommandVerb::Taint => Err(CommandError::Unsupported(String::from(
                "this is a kubectl taint command",
            ))),
        }
    }

    /// Runs the command against `nodes` (the visited nodes are the ones it names, or
    /// all / the selected ones with `--all` / `-l`), with kubectl's output. For a
    /// `kubectl label` line the per-node [`TaintRun::results`] are empty (see
    /// [`kubectl::run_kubectl_label`] for them).
    pub fn apply(&self, nodes: &[Node]) -> TaintRun {
        match self.verb {
            CommandVerb::Taint => kubectl::run_kubectl_taint(&self.args, nodes, self.version),
            CommandVerb::Label => {
                let run = kubectl::run_kubectl_label(&self.args, nodes, self.version);
                TaintRun {
                    results: Vec::new(),
                    nodes: run.nodes,
                    stdout: run.stdout,
                    stderr: run.stderr,
                    exit_code: run.exit_code,
                    warnings: run.warnings,
                    command_error: run.command_error,
                }
            }
        }
    }

    /// kubectl's stderr for a command-level error of this line's subcommand.
    pub fn error_stderr(&self, e: &CommandError) -> String {
        match self.verb {
            CommandVerb::Taint => e.stderr(),
            CommandVerb::Label => kubectl::label_error_stderr(e),
        }
    }
}

/// A shell word and where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Word {
    pub text: String,
    pub line: usize,
    pub col: usize,
    /// `;`, `&&`, `||`, `|` separate commands; they come as their own words.
    pub separator: bool,
}

/// Byte offset where `kubectl` starts in a line, if the line is a kubectl command: after
/// an optional prompt (`$ `, `user@host:~$ `, `[root@host dir]# `, zsh `% `, themed
/// `~ ❯ ` and `➜  dir git:(main) ✗ `, PowerShell `PS C:\> `, a markdown `> `), and
/// after environment assignments (`KUBECONFIG=... `), `sudo`, `time` or a `set -x`
/// `+ `. The `k` alias and OpenShift's `oc` count when a kubectl verb follows them.
pub(crate) fn command_start(line: &str) -> Option<usize> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let words = first_words(line, 16);
    for (k, &(at, w)) in words.iter().enumerate() {
        let next = words.get(k + 1).map(|x| x.1);
        let is_cmd = matches!(w, "kubectl" | "kubectl.exe" | "microk8s.kubectl")
            || (matches!(w, "k" | "oc") && next.is_some_and(|n| KUBECTL_VERBS.contains(&n)));
        if is_cmd && prefix_is_prompt(&words[..k]) {
            return Some(at);
        }
    }
    None
}

/// The first `max` words of `line` with their byte offsets, as `split_whitespace` splits
/// it. Found by bytes, decoding only at bytes that start a non-ASCII character (which may
/// be a Unicode space): every line goes through [`command_start`], and a one-line JSON
/// paste is one word of megabytes.
fn first_words(line: &str, max: usize) -> Vec<(usize, &str)> {
    // The length of the whitespace character at byte `i` (a character boundary), or 0.
    let space = |i: usize| match line.as_bytes()[i] {
        b'\t'..=b'\r' | b' ' => 1,
        0xC0.. => line[i..]
            .chars()
            .next()
            .filter(|c| c.is_whitespace())
            .map_or(0, char::len_utf8),
        _ => 0,
    };
    let mut words = Vec::new();
    let mut i = 0;
    while words.len() < max {
        loop {
            let n = if i < line.len() { space(i) } else { 0 };
            if n == 0 {
                break;
            }
            i += n;
        }
        if i == line.len() {
            break;
        }
        let start = i;
        // To the next byte that may start whitespace (ASCII up to the space, or a
        // non-ASCII character's first byte; never 0x80-0xBF, inside a character).
        while i < line.len() && space(i) == 0 {
            let rest = &line.as_bytes()[i + 1..];
            i += 1 + rest
                .iter()
                .position(|&b| b <= b' ' || b >= 0xC0)
                .unwrap_or(rest.len());
        }
        words.push((start, &line[start..i]));
    }
    words
}

/// A kubectl command quoted as inline code in a line of prose, or in single quotes in a
/// tool's message: the line with everything
/// outside the backticks blanked (columns stay those of the paste), and the byte offset
/// where the command starts in it.
pub(crate) fn inline_command(line: &str) -> Option<(String, usize)> {
    if line.len() > 100_000 {
        return None;
    }
    // Backticks (markdown) or single quotes (a command quoted in a tool's error:
    // `unable to taint node with 'kubectl taint nodes ...': Exitcode: 1`).
    let mut open = None;
    for p in ["`kubectl ", "`k ", "`oc ", "'kubectl "] {
        if let Some(i) = line.find(p) {
            open = Some(open.map_or(i, |o: usize| o.min(i)));
        }
    }
    let open = open?;
    let quote = line[open..].chars().next()?;
    let close = open + 1 + line[open + 1..].find(quote)?;
    let mut blanked = String::with_capacity(line.len());
    let mut start = 0;
    for (b, ch) in line.char_indices() {
        if b == open + 1 {
            start = blanked.len();
        }
        if b > open && b < close {
            blanked.push(ch);
        } else {
            blanked.push(' ');
        }
    }
    let cmd = blanked[start..].trim_end();
    let mut words = cmd.split_whitespace();
    let first = words.next()?;
    let ok = first == "kubectl" || words.next().is_some_and(|v| KUBECTL_VERBS.contains(&v));
    ok.then(|| (blanked.trim_end().to_string(), start))
}

/// An Ansible task result quoting a command (`fatal: [cp1]: FAILED! => {"cmd":
/// ["kubectl", "taint", ...], "stderr": "...", "stdout": "..."}`): the command's words
/// (all at the column of `"cmd"`) and the lines it printed.
pub(crate) fn ansible_result(line: &str, line_no: usize) -> Option<(Vec<Word>, Vec<String>)> {
    if line.len() > 4_000_000 || !line.contains("FAILED! => {") && !line.contains("=> {\"") {
        return None;
    }
    let at = line.find("=> {")? + 3;
    let cmd_at = line[at..].find("\"cmd\":")? + at;
    if !line[cmd_at..].contains("kubectl") {
        return None;
    }
    let (v, _) = crate::json::parse_first(&line[at..])?;
    let col = line[..cmd_at].chars().count() + 1;
    let words: Vec<Word> = match &v.get("cmd")?.value.kind {
        Kind::Seq(items) => {
            let mut words = Vec::new();
            for x in items {
                if let Kind::Str(t) = &x.kind {
                    words.push(Word {
                        text: t.to_string(),
                        line: line_no,
                        col,
                        separator: false,
                    });
                }
            }
            words
        }
        Kind::Str(cmd) => {
            let (mut w, _, err) = shell_words(&[(line_no, cmd.as_str())], 0);
            if err.is_some() {
                return None;
            }
            for x in &mut w {
                x.col = col;
            }
            w
        }
        _ => return None,
    };
    let mut outs = Vec::new();
    for key in ["stdout", "stderr"] {
        if let Some(Kind::Str(t)) = v.get(key).map(|e| &e.value.kind) {
            outs.extend(t.lines().map(str::to_string));
        }
    }
    Some((words, outs))
}

const KUBECTL_VERBS: [&str; 14] = [
    "taint", "get", "describe", "cordon", "uncordon", "drain", "apply", "label", "edit", "delete",
    "create", "events", "patch", "logs",
];

/// Whether the words before `kubectl` are a prompt and shell prefixes.
fn prefix_is_prompt(words: &[(usize, &str)]) -> bool {
    let mut end = words.len();
    // Words that may stand between the prompt and kubectl.
    while end > 0 {
        let w = words[end - 1].1;
        let env = w.split_once('=').is_some_and(|(n, _)| {
            !n.is_empty()
                && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !n.starts_with(|c: char| c.is_ascii_digit())
        });
        if env
            || matches!(
                w,
                "sudo" | "time" | "+" | "++" | "microk8s" | "k3s" | "command" | "exec"
            )
        {
            end -= 1;
        } else {
            break;
        }
    }
    let rest = &words[..end];
    let Some(last) = rest.last().map(|x| x.1) else {
        return true;
    };
    // A lone `#` starts a comment (or a markdown heading), not a root prompt.
    if rest.len() == 1 && last == "#" {
        return false;
    }
    if rest.len() > 8 {
        return false;
    }
    let themed = rest
        .iter()
        .any(|(_, w)| w.contains(['❯', '➜', '»', 'λ', '➤']));
    themed
        || last.ends_with(['$', '#', '%', '>', '❯', '✗', '✔', '»', 'λ', ':'])
            && !(last.ends_with(':') && rest.len() > 1 && !last.contains(['@', '~', '/']))
        || (rest.len() == 1 && last == "PS")
}

/// Splits shell text into words, starting at `lines[0]` column `start` (byte offset),
/// reading further lines while a quote is open or a line ends in `\`. Returns the words
/// and the number of lines used, or an error message with its line and column.
pub(crate) fn shell_words(
    lines: &[(usize, &str)],
    start: usize,
) -> (Vec<Word>, usize, Option<(String, usize, usize)>) {
    #[derive(PartialEq)]
    enum Q {
        None,
        Single,
        Double,
    }
    let mut words: Vec<Word> = Vec::new();
    let mut cur = String::new();
    let mut cur_start: Option<(usize, usize)> = None;
    let mut q = Q::None;
    let mut used = 0;
    let flush =
        |words: &mut Vec<Word>, cur: &mut String, cur_start: &mut Option<(usize, usize)>| {
            if let Some((line, col)) = cur_start.take() {
                words.push(Word {
                    text: std::mem::take(cur),
                    line,
                    col,
                    separator: false,
                });
            }
        };
    for (li, (line_no, raw)) in lines.iter().enumerate() {
        used = li + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let from = if li == 0 { start.min(line.len()) } else { 0 };
        let mut chars: Vec<(usize, char)> = Vec::new();
        for (i, c) in line[from..].char_indices() {
            chars.push((i + from, c));
        }
        let col_of = |byte: usize| line[..byte].chars().count() + 1;
        let mut k = 0;
        let mut continued = false;
        while k < chars.len() {
            let (b, c) = chars[k];
            let start_word = |cs: &mut Option<(usize, usize)>| {
                if cs.is_none() {
                    *cs = Some((*line_no, col_of(b)));
                }
            };
            match q {
                Q::Single => {
                    if c == '\'' {
                        q = Q::None;
                    } else {
                        cur.push(c);
                    }
                }
                Q::Double => match c {
                    '"' => q = Q::None,
                    '\\' => match chars.get(k + 1).map(|x| x.1) {
                        Some(n @ ('"' | '\\' | '$' | '`')) => {
                            cur.push(n);
                            k += 1;
                        }
                        None => continued = true,
                        _ => cur.push('\\'),
                    },
                    _ => cur.push(c),
                },
                Q::None => match c {
                    ' ' | '\t' => flush(&mut words, &mut cur, &mut cur_start),
                    '\\' => match chars.get(k + 1) {
                        None => {
                            continued = true;
                        }
                        Some(&(_, n)) => {
                            start_word(&mut cur_start);
                            cur.push(n);
                            k += 1;
                        }
                    },
                    '\'' => {
                        start_word(&mut cur_start);
                        q = Q::Single;
                    }
                    '"' => {
                        start_word(&mut cur_start);
                        q = Q::Double;
                    }
                    '#' if cur_start.is_none() => break,
                    ';' | '|' | '&' => {
                        flush(&mut words, &mut cur, &mut cur_start);
                        let mut sep = c.to_string();
                        if let Some(&(_, n)) = chars.get(k + 1)
                            && (c == '|' || c == '&')
                            && n == c
                        {
                            sep.push(n);
                            k += 1;
                        }
                        words.push(Word {
                            text: sep,
                            line: *line_no,
                            col: col_of(b),
                            separator: true,
                        });
                    }
                    _ => {
                        start_word(&mut cur_start);
                        cur.push(c);
                    }
                },
            }
            k += 1;
        }
        match q {
            Q::None if continued => continue,
            Q::None => break,
            // A quote spans lines: the newline is part of the word.
            _ => {
                if !continued {
                    cur.push('\n');
                }
            }
        }
    }
    if q != Q::None {
        let (line, col) = cur_start.unwrap_or((lines.first().map(|l| l.0).unwrap_or(0), 1));
        return (
            words,
            used,
            Some(("this quote is never closed".into(), line, col)),
        );
    }
    flush(&mut words, &mut cur, &mut cur_start);
    (words, used, None)
}

/// Global kubectl flags that take a value as the next word.
const GLOBAL_VALUE_FLAGS: [&str; 17] = [
    "-n",
    "--namespace",
    "--context",
    "--kubeconfig",
    "--cluster",
    "--user",
    "-s",
    "--server",
    "--token",
    "--as",
    "--as-group",
    "--as-uid",
    "--request-timeout",
    "-v",
    "--cache-dir",
    "--certificate-authority",
    "--tls-server-name",
];

/// What one kubectl command line is.
pub(crate) enum CommandKind {
    /// `kubectl taint ...` or `kubectl label` on nodes: which, and the arguments
    /// (without the verb) with their words.
    NodeEdit(CommandVerb, Vec<Word>),
    /// Another subcommand (`get`, `describe`, ...) with its `-o` format, if any.
    Other {
        verb: String,
        output: Option<String>,
        /// The pod a `describe pod NAME` (`pod/NAME`, `po NAME`) names.
        pod: Option<String>,
        /// `get pods -o wide`: whether with `-A` (`--all-namespaces`), so a
        /// `NAMESPACE` column leads. Its rows may follow without their header (a
        /// `| grep` dropped it).
        pods_wide: Option<bool>,
    },
}

/// Splits the words of a line into commands and classifies the kubectl ones.
pub(crate) fn kubectl_commands(words: Vec<Word>) -> Vec<(Word, CommandKind)> {
    let mut out = Vec::new();
    for cmd in words.split(|w| w.separator) {
        let Some(first) = cmd.first() else { continue };
        if !matches!(
            first.text.as_str(),
            "kubectl" | "kubectl.exe" | "microk8s.kubectl" | "k" | "oc"
        ) {
            continue;
        }
        let mut i = 1;
        let mut verb_at = None;
        while i < cmd.len() {
            let t = cmd[i].text.as_str();
            if t.starts_with('-') {
                if GLOBAL_VALUE_FLAGS.contains(&t) {
                    i += 1;
                }
                i += 1;
                continue;
            }
            verb_at = Some(i);
            break;
        }
        let Some(v) = verb_at else {
            out.push((
                first.clone(),
                CommandKind::Other {
                    verb: String::new(),
                    output: None,
                    pod: None,
                    pods_wide: None,
                },
            ));
            continue;
        };
        let label_args = cmd[v].text == "label" && {
            let mut texts: Vec<&str> = Vec::new();
            for w in &cmd[v + 1..] {
                texts.push(&w.text);
            }
            kubectl::is_node_label_command(&texts)
        };
        if cmd[v].text == "taint" || label_args {
            let verb = if label_args {
                CommandVerb::Label
            } else {
                CommandVerb::Taint
            };
            let mut args: Vec<Word> = Vec::new();
            for w in cmd[1..v].iter().chain(&cmd[v + 1..]) {
                args.push(w.clone());
            }
            out.push((first.clone(), CommandKind::NodeEdit(verb, args)));
        } else {
            let mut output = None;
            for (j, w) in cmd.iter().enumerate() {
                if w.text == "-o" || w.text == "--output" {
                    output = cmd.get(j + 1).map(|n| n.text.clone());
                } else if let Some(f) = w.text.strip_prefix("-o").filter(|f| !f.starts_with('-')) {
                    output = Some(f.trim_start_matches('=').to_string());
                } else if let Some(f) = w.text.strip_prefix("--output=") {
                    output = Some(f.to_string());
                }
            }
            // `describe pod web-0`, `describe pods/web-0`, `describe po web-0 -n x`.
            let mut rest: Vec<&str> = Vec::new();
            for w in &cmd[v + 1..] {
                if !w.text.starts_with('-') {
                    rest.push(&w.text);
                }
            }
            let pod = match rest.as_slice() {
                [kind, name, ..] if matches!(*kind, "pod" | "pods" | "po") => {
                    Some(name.to_string())
                }
                [one, ..] => one
                    .strip_prefix("pod/")
                    .or_else(|| one.strip_prefix("pods/"))
                    .map(str::to_string),
                _ => None,
            };
            let all_namespaces = cmd[v + 1..].iter().any(|w| {
                matches!(
                    w.text.as_str(),
                    "-A" | "--all-namespaces" | "--all-namespaces=true"
                )
            });
            let pods_wide = (cmd[v].text == "get"
                && output.as_deref() == Some("wide")
                && matches!(rest.first(), Some(&("pod" | "pods" | "po"))))
            .then_some(all_namespaces);
            out.push((
                first.clone(),
                CommandKind::Other {
                    verb: cmd[v].text.clone(),
                    output,
                    pod,
                    pods_wide,
                },
            ));
        }
    }
    out
}

/// Whether a word looks like a taint spec (`key=value:Effect`, `key:Effect`, `key-`).
pub(crate) fn is_spec_word(w: &str) -> bool {
    !w.is_empty()
        && !w.ends_with(':')
        && !w.starts_with(['-', '#', '{', '[', '"', '\''])
        && (w.contains(['=', ':']) || w.ends_with('-'))
        && w.chars().all(|c| !c.is_whitespace() && c != ',')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        let lines: Vec<(usize, &str)> = text
            .split('\n')
            .enumerate()
            .map(|(i, l)| (i + 1, l))
            .collect();
        let (w, _, err) = shell_words(&lines, 0);
        assert!(err.is_none(), "{err:?}");
        w.into_iter().map(|w| w.text).collect()
    }

    #[test]
    fn shell_quoting() {
        assert_eq!(
            words(r#"kubectl taint nodes 'node 1' "a=b c:NoSchedule" d\ e=f:NoExecute"#),
            [
                "kubectl",
                "taint",
                "nodes",
                "node 1",
                "a=b c:NoSchedule",
                "d e=f:NoExecute"
            ]
        );
        assert_eq!(
            words("kubectl taint nodes n1 \\\n  a=b:NoSchedule # comment"),
            ["kubectl", "taint", "nodes", "n1", "a=b:NoSchedule"]
        );
        assert_eq!(
            words("kubectl taint no a k- && kubectl get nodes"),
            [
                "kubectl", "taint", "no", "a", "k-", "&&", "kubectl", "get", "nodes"
            ]
        );
        assert_eq!(words("a=\"x\\\"y\""), ["a=x\"y"]);
    }

    #[test]
    fn unterminated_quote() {
        let (_, _, err) = shell_words(&[(3, "kubectl taint nodes n 'a=b:NoSchedule")], 0);
        assert_eq!(err, Some(("this quote is never closed".into(), 3, 23)));
    }

    #[test]
    fn first_words_split_as_split_whitespace() {
        let spaces = [
            " ", "\t", "\n", "\x0b", "\x0c", "\r", "\u{85}", "\u{a0}", "\u{1680}", "\u{2000}",
            "\u{200a}", "\u{2028}", "\u{2029}", "\u{202f}", "\u{205f}", "\u{3000}",
        ];
        // Not whitespace, some sharing a first byte with a Unicode space.
        let others = [
            "a", "\u{80}", "\u{a1}", "\u{1681}", "\u{200b}", "\u{3001}", "é", "❯", "𝄞",
        ];
        let mut lines = vec![String::new()];
        for s in spaces {
            for o in others {
                lines.push(format!("{s}{o}{s}{s}{o}{o}{s}"));
                lines.push(format!("{o}{s}{o}"));
            }
        }
        lines.push("k  get\u{3000}nodes\u{a0}-o\x0bwide \u{2003}x".into());
        for line in &lines {
            let want: Vec<(usize, &str)> = line
                .split_whitespace()
                .map(|w| (w.as_ptr() as usize - line.as_ptr() as usize, w))
                .collect();
            assert_eq!(first_words(line, usize::MAX), want, "{line:?}");
            assert_eq!(first_words(line, 2), want[..want.len().min(2)], "{line:?}");
        }
    }

    #[test]
    fn prompts() {
        assert_eq!(command_start("$ kubectl taint nodes a k-"), Some(2));
        assert_eq!(command_start("user@host:~$ kubectl get nodes"), Some(13));
        assert_eq!(command_start("  kubectl taint"), Some(2));
        assert_eq!(
            command_start("PS C:\\Users\\me> kubectl taint nodes a k-"),
            Some(16)
        );
        assert_eq!(command_start("# kubectl taint nodes a k-"), None);
        assert_eq!(command_start("echo kubectl"), None);
        assert_eq!(command_start("~ ❯ kubectl taint nodes a k-"), Some(6));
        assert_eq!(command_start("[root@cp-1 ~]# kubectl get nodes"), Some(15));
        assert_eq!(command_start("me@mac ~ % kubectl get nodes"), Some(11));
        assert_eq!(
            command_start("➜  infra git:(main) ✗ k taint no a k-"),
            Some("➜  infra git:(main) ✗ ".len())
        );
        assert_eq!(
            command_start("$ KUBECONFIG=~/.kube/lab sudo kubectl describe node a"),
            Some("$ KUBECONFIG=~/.kube/lab sudo ".len())
        );
        assert_eq!(
            command_start("+ kubectl --kubeconfig /etc/k.conf taint nodes a k-"),
            Some(2)
        );
        assert_eq!(
            command_start("I ran it and then used kubectl to look"),
            None
        );
        assert_eq!(command_start("k is a letter"), None);
        let (blanked, start) =
            inline_command("Run `kubectl taint nodes n1 a=b:NoSchedule` and retry.").unwrap();
        assert_eq!(&blanked[start..], "kubectl taint nodes n1 a=b:NoSchedule");
        assert_eq!(start, 5);
        assert!(inline_command("use `k` as an alias").is_none());
    }

    #[test]
    fn classifies_commands() {
        let lines = [(
            1,
            "kubectl --context prod taint nodes n1 a=b:NoSchedule; kubectl get nodes -o yaml",
        )];
        let (w, _, _) = shell_words(&lines, 0);
        let cmds = kubectl_commands(w);
        assert_eq!(cmds.len(), 2);
        match &cmds[0].1 {
            CommandKind::NodeEdit(CommandVerb::Taint, args) => {
                let a: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
                assert_eq!(a, ["--context", "prod", "nodes", "n1", "a=b:NoSchedule"]);
            }
            _ => panic!(),
        }
        match &cmds[1].1 {
            CommandKind::Other { verb, output, .. } => {
                assert_eq!(verb, "get");
                assert_eq!(output.as_deref(), Some("yaml"));
            }
            _ => panic!(),
        }
    }

    fn label_lines(paste: &str) -> Vec<(CommandVerb, Vec<String>, Option<String>)> {
        crate::parse(paste)
            .taint_commands
            .into_iter()
            .map(|c| (c.verb, c.args, c.error))
            .collect()
    }

    #[test]
    fn label_commands_on_nodes_are_read_in_paste_order() {
        let paste = "$ kubectl taint nodes payments-1 dedicated=payments:NoSchedule\n\
                     user@host:~$ kubectl label nodes general-1 'dedicated=payments' \\\n  --overwrite\n\
                     kubectl label node/general-2 \"disktype=ssd\" gpu-\n\
                     ~ \u{276f} k label no --all -l 'pool in (a,b)' team=ml\n";
        let got = label_lines(paste);
        assert_eq!(got.len(), 4, "{got:?}");
        assert_eq!(got[0].0, CommandVerb::Taint);
        assert_eq!(got[1].0, CommandVerb::Label);
        assert_eq!(
            got[1].1,
            ["nodes", "general-1", "dedicated=payments", "--overwrite"]
        );
        assert_eq!(got[2].1, ["node/general-2", "disktype=ssd", "gpu-"]);
        assert_eq!(got[3].1, ["no", "--all", "-l", "pool in (a,b)", "team=ml"]);
        // `--all` with `-l` is kubectl's error, recorded on the line.
        assert_eq!(
            got[3].2.as_deref(),
            Some("error: cannot set --all and --selector at the same time\n")
        );
        assert!(got[..3].iter().all(|c| c.2.is_none()), "{got:?}");
    }

    #[test]
    fn label_commands_on_other_resources_are_not_node_commands() {
        let got = label_lines("kubectl label pods web app=web\nkubectl label ns default team=a\n");
        assert!(got.is_empty(), "{got:?}");
    }

    #[test]
    fn label_command_errors_use_kubectl_label_texts() {
        let p = crate::parse("kubectl label nodes n1 a=b --bogus\nkubectl label nodes n1 a=b=c\n");
        assert_eq!(p.taint_commands.len(), 2);
        assert_eq!(
            p.taint_commands[0].error.as_deref(),
            Some("error: unknown flag: --bogus\nSee 'kubectl label --help' for usage.\n")
        );
        assert_eq!(
            p.taint_commands[1].error.as_deref(),
            Some("error: invalid label spec: a=b=c\n")
        );
        assert!(
            p.diagnostics
                .iter()
                .any(|d| d.message.contains("invalid label spec: a=b=c")),
            "{:?}",
            p.diagnostics
        );
        let out = crate::parse(
            "$ kubectl label node/general-1 dedicated=payments gpu-\nlabel \"gpu\" not found.\nnode/general-1 labeled\n$ kubectl label nodes general-1 dedicated=x\nerror: 'dedicated' already has a value (payments), and --overwrite is false\n",
        );
        let seen: Vec<Vec<(String, Outcome)>> = out
            .taint_commands
            .iter()
            .map(|c| {
                c.results
                    .iter()
                    .map(|r| (r.node.clone(), r.outcome.clone()))
                    .collect()
            })
            .collect();
        let n = || String::from("general-1");
        assert_eq!(
            seen,
            [
                vec![(n(), Outcome::LabelNotFound), (n(), Outcome::Labeled)],
                vec![(n(), Outcome::AlreadyHasLabel)]
            ]
        );
        let run = p.taint_commands[0].apply(&[]);
        assert_eq!(run.exit_code, 1);
        assert!(p.taint_commands[1].command().is_err());
    }
}
