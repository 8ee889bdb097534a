//! Output: colour (only on a terminal, `NO_COLOR` honoured), located diagnostics printed
//! like a compiler's, JSON re-indented without reordering, YAML.

use std::io::IsTerminal;

use serde_json::Value;
use serde_json::value::RawValue;
use taintlab_input::Severity;
use taintlab_scenario::{Finding, FindingKind};

use crate::Color;
use crate::load::Loaded;

/// Writes to standard output; when it is closed (`taintlab ... | head -1`), ends the
/// program quietly with exit code 141, as a shell reports a SIGPIPE death.
pub fn write_stdout(s: &str) {
    use std::io::Write;
    crate::progress::clear();
    let mut out = std::io::stdout().lock();
    if out
        .write_all(s.as_bytes())
        .and_then(|()| out.flush())
        .is_err()
    {
        std::process::exit(141);
    }
}

/// `print!` through [`write_stdout`].
#[macro_export]
macro_rules! say {
    ($($t:tt)*) => {
        $crate::out::write_stdout(&format!($($t)*))
    };
}

/// `println!` through [`write_stdout`].
#[macro_export]
macro_rules! sayln {
    () => {
        $crate::out::write_stdout("\n")
    };
    ($($t:tt)*) => {
        $crate::out::write_stdout(&format!("{}\n", format_args!($($t)*)))
    };
}

/// ANSI styling, on or off.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    on: bool,
}

fn color_on(c: Option<Color>, terminal: bool) -> bool {
    let c = c.unwrap_or(Color::Auto);
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    match c {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => terminal && !no_color,
    }
}

impl Style {
    /// For standard output.
    pub fn stdout(c: Option<Color>) -> Self {
        Self {
            on: color_on(c, std::io::stdout().is_terminal()),
        }
    }

    /// For standard error.
    pub fn stderr(c: Option<Color>) -> Self {
        Self {
            on: color_on(c, std::io::stderr().is_terminal()),
        }
    }

    fn paint(&self, code: &str, s: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }

    /// No styling: for text built before it is known where it goes.
    pub fn plain() -> Self {
        Self { on: false }
    }

    /// Whether it paints.
    pub fn is_on(&self) -> bool {
        self.on
    }

    /// Red.
    pub fn red(&self, s: &str) -> String {
        self.paint("31", s)
    }
    /// Green.
    pub fn green(&self, s: &str) -> String {
        self.paint("32", s)
    }
    /// Yellow.
    pub fn yellow(&self, s: &str) -> String {
        self.paint("33", s)
    }
    /// Bold.
    pub fn bold(&self, s: &str) -> String {
        self.paint("1", s)
    }
    /// Dim.
    pub fn dim(&self, s: &str) -> String {
        self.paint("2", s)
    }
}

/// `taintlab: error: message` on stderr.
pub fn print_error(style: &Style, message: &str) {
    crate::progress::clear();
    eprintln!("taintlab: {}: {message}", style.red(&style.bold("error")));
}

/// A finding's kind as a short word.
fn kind_word(f: &Finding) -> &'static str {
    match f.kind {
        FindingKind::Kubectl => "kubectl: ",
        FindingKind::Admission => "admission: ",
        FindingKind::Configuration => "configuration: ",
        // The input layer's and validation messages speak for themselves.
        _ => "",
    }
}

/// A finding on stderr as `file:line:col: error: message`, then the offending line
/// with a caret under the column.
pub fn print_finding(l: &Loaded, f: &Finding) {
    crate::progress::clear();
    eprint!("{}", format_finding(l, f, &l.err_style));
}

/// A finding as `file:line:col: error: message`, then the offending line with a caret
/// under the column.
pub fn format_finding(l: &Loaded, f: &Finding, style: &Style) -> String {
    let severity = match f.severity {
        Severity::Error => style.red(&style.bold("error")),
        Severity::Warning => style.yellow(&style.bold("warning")),
    };
    let located = l.locate(f.pane, &f.location);
    let prefix = match &located {
        Some(at) if at.line > 0 && at.column > 0 => {
            format!("{}:{}:{}", at.file.name, at.line, at.column)
        }
        Some(at) if at.line > 0 => format!("{}:{}", at.file.name, at.line),
        Some(at) => at.file.name.clone(),
        None => "taintlab".into(),
    };
    // Validation messages start with their field path already.
    let mut out = format!(
        "{}: {severity}: {}{}\n",
        style.bold(&prefix),
        kind_word(f),
        f.message
    );
    if let Some(at) = located {
        out.push_str(&snippet(&at.file.text, at.line, at.column, style));
    }
    out
}

/// Line `line` (1-based) of `text` behind its number, then a caret under `column` when
/// it is known: what follows a located message. Empty when the line is unknown.
pub fn snippet(text: &str, line: usize, column: usize, style: &Style) -> String {
    let mut out = String::new();
    if line > 0
        && let Some(text) = text.lines().nth(line - 1)
    {
        let gutter = line.to_string();
        out.push_str(&format!(" {gutter} | {text}\n"));
        if column > 0 {
            let pad: String = text
                .chars()
                .take(column - 1)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            out.push_str(&format!(
                " {} | {pad}{}\n",
                " ".repeat(gutter.len()),
                style.red(&style.bold("^"))
            ));
        }
    }
    out
}

/// JSON text re-indented with two spaces, every token and key order unchanged.
pub fn pretty_json(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len() * 2);
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut chars = compact.chars().peekable();
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                let close = if c == '{' { '}' } else { ']' };
                if chars.peek() == Some(&close) {
                    out.push(close);
                    chars.next();
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            c if c.is_whitespace() => {}
            c => out.push(c),
        }
    }
    out.push('\n');
    out
}

/// JSON text as YAML (keys sorted: YAML output is for reading).
pub fn to_yaml(json: &str) -> Result<String, String> {
    let v: Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    Ok(taintlab_input::emit::to_yaml(&v))
}

/// Prints JSON text as `format` (JSON re-indented, or YAML).
pub fn print_structured(json: &str, yaml: bool) -> Result<(), String> {
    if yaml {
        crate::say!("{}", to_yaml(json)?);
    } else {
        crate::say!("{}", pretty_json(json));
    }
    Ok(())
}

/// The raw text of `field` of a JSON object (order and bytes kept).
pub fn raw_field<'a>(json: &'a str, field: &str) -> Result<&'a RawValue, String> {
    let map: std::collections::BTreeMap<&str, &RawValue> =
        serde_json::from_str(json).map_err(|e| e.to_string())?;
    map.get(field)
        .copied()
        .ok_or_else(|| format!("no field {field:?}"))
}

/// The raw items of a JSON array.
pub fn raw_items(json: &str) -> Result<Vec<&RawValue>, String> {
    serde_json::from_str(json).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pretty_json_keeps_order_and_strings() {
        let s = r#"{"z":1,"a":[],"s":"x, {y}: \"q\"","o":{"b":[1,{}]}}"#;
        let p = pretty_json(s);
        assert!(p.starts_with("{\n  \"z\": 1,\n  \"a\": [],\n  \"s\": \"x, {y}: \\\"q\\\"\""));
        let back: Value = serde_json::from_str(&p).unwrap();
        assert_eq!(back, serde_json::from_str::<Value>(s).unwrap());
        let compact: String = {
            // Removing the added whitespace gives the input back.
            let v: Value = serde_json::from_str(&p).unwrap();
            serde_json::to_string(&v).unwrap()
        };
        assert_eq!(
            compact,
            serde_json::to_string(&serde_json::from_str::<Value>(s).unwrap()).unwrap()
        );
    }

    #[test]
    fn raw_fields_keep_their_text() {
        let s = r#"{"b":{"y":1,"x":2},"a":[3]}"#;
        assert_eq!(raw_field(s, "b").unwrap().get(), r#"{"y":1,"x":2}"#);
        assert_eq!(
            raw_items(raw_field(s, "a").unwrap().get()).unwrap().len(),
            1
        );
        assert!(raw_field(s, "c").is_err());
    }
}
