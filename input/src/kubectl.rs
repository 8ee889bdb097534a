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

/// A `kubectl taint` command found in the paste.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
pub struct TaintCommandLine {
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
}

impl TaintCommandLine {
    /// The command parsed and validated by kubectl's rules.
    pub fn command(&self) -> Result<kubectl::TaintCommand, CommandError> {
        kubectl::parse_taint_command(&self.args, self.version)
    }

    /// Runs the command against `nodes` (the visited nodes are the ones it names, or
    /// all / the selected ones with `--all` / `-l`), with kubectl's output.
    pub fn apply(&self, nodes: &[Node]) -> TaintRun {
        kubectl::run_kubectl_taint(&self.args, nodes, self.version)
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

/// Byte offset where `kubectl` starts in a line, if the line is a kubectl command (after
/// an optional prompt such as `$ `, `user@host:~$ `, `% `, `PS C:\> `).
pub(crate) fn command_start(line: &str) -> Option<usize> {
    let trimmed = line.trim_start();
    let lead = line.len() - trimmed.len();
    let mut offset = 0;
    // Prompts: a first word ending in `$`, `#`, `%` or `>`, or `PS <path>>`.
    let rest = if let Some(i) = find_prompt_end(trimmed) {
        offset = i;
        &trimmed[i..]
    } else {
        trimmed
    };
    let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let word = &rest[..word_end];
    if matches!(word, "kubectl" | "kubectl.exe") {
        Some(lead + offset)
    } else {
        None
    }
}

fn find_prompt_end(s: &str) -> Option<usize> {
    if let Some(r) = s.strip_prefix("PS ") {
        let gt = r.find("> ")?;
        return Some(3 + gt + 2);
    }
    let first_end = s.find(' ')?;
    let first = &s[..first_end];
    // A lone `#` starts a comment, not a root prompt.
    if first.ends_with(['$', '%', '>']) || (first.ends_with('#') && first.len() > 1) {
        let rest = s[first_end..].trim_start();
        return Some(s.len() - rest.len());
    }
    None
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
        let chars: Vec<(usize, char)> = line[from..]
            .char_indices()
            .map(|(i, c)| (i + from, c))
            .collect();
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
    /// `kubectl taint ...`: the arguments (without `taint`) and their words.
    Taint(Vec<Word>),
    /// Another subcommand (`get`, `describe`, ...) with its `-o` format, if any.
    Other {
        verb: String,
        output: Option<String>,
    },
}

/// Splits the words of a line into commands and classifies the kubectl ones.
pub(crate) fn kubectl_commands(words: Vec<Word>) -> Vec<(Word, CommandKind)> {
    let mut out = Vec::new();
    for cmd in words.split(|w| w.separator) {
        let Some(first) = cmd.first() else { continue };
        if first.text != "kubectl" && first.text != "kubectl.exe" {
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
                },
            ));
            continue;
        };
        if cmd[v].text == "taint" {
            let args: Vec<Word> = cmd[1..v].iter().chain(&cmd[v + 1..]).cloned().collect();
            out.push((first.clone(), CommandKind::Taint(args)));
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
            out.push((
                first.clone(),
                CommandKind::Other {
                    verb: cmd[v].text.clone(),
                    output,
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
            CommandKind::Taint(args) => {
                let a: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
                assert_eq!(a, ["--context", "prod", "nodes", "n1", "a=b:NoSchedule"]);
            }
            _ => panic!(),
        }
        match &cmds[1].1 {
            CommandKind::Other { verb, output } => {
                assert_eq!(verb, "get");
                assert_eq!(output.as_deref(), Some("yaml"));
            }
            _ => panic!(),
        }
    }
}
