//! Reading the command line's inputs: files, directories (recursively, `.yaml`, `.yml`
//! and `.json`), `-` for standard input. Several files of one pane are joined into one
//! text with `---` between them, and every location in that text maps back to its file.

use std::io::Read;
use std::path::{Path, PathBuf};

use serde_json::Value;
use taintlab_input::{Diagnostic, DocumentNode, DocumentValue, Limits, Location};

use crate::out::{Style, snippet};

/// One input file.
#[derive(Clone, Debug)]
pub struct File {
    /// How it is named in messages: the path as given or found, `<stdin>` for `-`.
    pub name: String,
    /// Its text.
    pub text: String,
}

/// The texts of one pane joined, with where each file starts.
#[derive(Clone, Debug, Default)]
pub struct Joined {
    /// The files, in order.
    pub files: Vec<File>,
    /// The joined text.
    pub text: String,
    /// The 1-based line of the joined text where each file starts.
    starts: Vec<usize>,
}

/// A location in one file.
#[derive(Clone, Debug)]
pub struct FileLocation<'a> {
    /// The file.
    pub file: &'a File,
    /// 1-based line in the file (0 when unknown).
    pub line: usize,
    /// 1-based column (0 when unknown).
    pub column: usize,
}

impl Joined {
    /// Joins `files`: one file is its text unchanged; several start with a `---` line
    /// and are separated by one (a file not ending in a newline gets one).
    pub fn new(files: Vec<File>) -> Self {
        let mut text = String::new();
        let mut starts = Vec::with_capacity(files.len());
        let mut line = 1;
        if files.len() > 1 {
            // A document start first, so that a JSON file first is not taken for the
            // whole text being JSON: every file is one or more YAML documents (JSON is
            // YAML's flow style).
            text.push_str("---\n");
            line += 1;
        }
        for (i, f) in files.iter().enumerate() {
            if i > 0 {
                if !text.is_empty() && !text.ends_with('\n') {
                    text.push('\n');
                    line += 1;
                }
                text.push_str("---\n");
                line += 1;
            }
            starts.push(line);
            text.push_str(&f.text);
            line += f.text.matches('\n').count();
        }
        Self {
            files,
            text,
            starts,
        }
    }

    /// True when no file was given.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The file and the line in it of a location in the joined text.
    pub fn locate(&self, l: &Location) -> Option<FileLocation<'_>> {
        if self.files.is_empty() {
            return None;
        }
        let i = match self.starts.binary_search(&l.line.max(1)) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let file = self.files.get(i)?;
        let line = if l.line == 0 {
            0
        } else {
            l.line + 1 - self.starts[i]
        };
        Some(FileLocation {
            file,
            line,
            column: l.column,
        })
    }
}

/// Reads every input named by `paths`: `-` is standard input (read once), a directory
/// is walked recursively in name order for `.yaml`, `.yml` and `.json` files. The
/// progress bar (shown for a large input on a terminal) counts the bytes.
pub fn read_all(paths: &[PathBuf]) -> Result<Vec<File>, String> {
    // Every file first, so that the bar knows the total.
    let mut sources: Vec<Option<PathBuf>> = Vec::new();
    let mut stdin_read = false;
    for p in paths {
        if p.as_os_str() == "-" {
            if !stdin_read {
                sources.push(None);
            }
            stdin_read = true;
        } else if p.is_dir() {
            let mut found = Vec::new();
            walk(p, &mut found)?;
            if found.is_empty() {
                return Err(format!(
                    "{}: no .yaml, .yml or .json file in this directory",
                    p.display()
                ));
            }
            sources.extend(found.into_iter().map(Some));
        } else {
            sources.push(Some(p.clone()));
        }
    }
    let size = |p: &Path| std::fs::metadata(p).map_or(0, |m| m.len());
    crate::progress::start_reading(sources.iter().flatten().map(|p| size(p)).sum());
    let mut out = Vec::with_capacity(sources.len());
    for s in sources {
        out.push(match s {
            None => {
                let bytes = read_counted(std::io::stdin().lock())
                    .map_err(|e| format!("cannot read standard input: {e}"))?;
                File {
                    name: "<stdin>".into(),
                    text: utf8(bytes, "<stdin>")?,
                }
            }
            Some(p) => read_file(&p)?,
        });
    }
    crate::progress::parsing();
    Ok(out)
}

/// One YAML or JSON document read whole through the input layer
/// ([`taintlab_input::document`], with its limits: alias expansion, depth, size) as a
/// JSON value: policy settings, an AdmissionRequest, admission options, the configuration
/// file. YAML scalars resolve as kubectl resolves them (YAML 1.1: `yes` is `true`).
/// `name` names the text in messages: an error reads `name:line:column: message`
/// followed by the line and a caret under the column, and a warning (a repeated key) is
/// printed on standard error the same way.
pub fn read_document(name: &str, text: &str) -> Result<Value, String> {
    let located = |d: &Diagnostic| {
        let l = &d.location;
        let at = match (l.line, l.column) {
            (0, _) => String::new(),
            (line, 0) => format!(":{line}"),
            (line, column) => format!(":{line}:{column}"),
        };
        let shown = snippet(text, l.line, l.column, &Style::plain());
        format!("{name}{at}: {}\n{shown}", d.message)
            .trim_end()
            .to_string()
    };
    let doc = taintlab_input::document(text, &Limits::default()).map_err(|d| located(&d))?;
    for w in &doc.warnings {
        crate::progress::clear();
        eprintln!("taintlab: warning: {}", located(w));
    }
    json_value(doc.root).map_err(|d| located(&d))
}

/// The JSON value of a document's node.
fn json_value(n: DocumentNode) -> Result<Value, Diagnostic> {
    Ok(match n.value {
        DocumentValue::Null => Value::Null,
        DocumentValue::Bool(b) => Value::Bool(b),
        DocumentValue::Number(text) => match serde_json::from_str::<serde_json::Number>(&text) {
            Ok(num) => Value::Number(num),
            Err(_) => {
                return Err(Diagnostic::error(
                    taintlab_input::Code::WrongType,
                    Location::at(1, n.line, n.column),
                    format!("{text} is out of the range of a JSON number"),
                ));
            }
        },
        DocumentValue::String(s) => Value::String(s),
        DocumentValue::List(items) => Value::Array(
            items
                .into_iter()
                .map(json_value)
                .collect::<Result<_, _>>()?,
        ),
        DocumentValue::Map(entries) => {
            let mut m = serde_json::Map::with_capacity(entries.len());
            for (k, v) in entries {
                m.insert(k, json_value(v)?);
            }
            Value::Object(m)
        }
    })
}

/// Reads to the end, telling the progress bar every chunk.
fn read_counted(mut r: impl Read) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let mut chunk = vec![0; 1 << 20];
    loop {
        match r.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(n) => {
                bytes.extend_from_slice(&chunk[..n]);
                crate::progress::read(n as u64);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

fn utf8(bytes: Vec<u8>, name: &str) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{name}: not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

fn read_file(p: &Path) -> Result<File, String> {
    let name = p.display().to_string();
    let bytes = std::fs::File::open(p)
        .and_then(read_counted)
        .map_err(|e| format!("{name}: cannot read: {e}"))?;
    Ok(File {
        text: utf8(bytes, &name)?,
        name,
    })
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: cannot read directory: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            walk(&p, out)?;
        } else if matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml" | "json")
        ) {
            out.push(p);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> File {
        File {
            name: name.into(),
            text: text.into(),
        }
    }

    #[test]
    fn locations_map_back_to_their_files() {
        let j = Joined::new(vec![
            file("a.yaml", "a: 1\nb: 2\n"),
            file("b.yaml", "c: 3"),
            file("c.yaml", "d: 4\n"),
        ]);
        assert_eq!(j.text, "---\na: 1\nb: 2\n---\nc: 3\n---\nd: 4\n");
        let at = |line| {
            let l = j.locate(&Location::at(1, line, 2)).unwrap();
            (l.file.name.clone(), l.line)
        };
        assert_eq!(at(3), ("a.yaml".into(), 2));
        assert_eq!(at(5), ("b.yaml".into(), 1));
        assert_eq!(at(7), ("c.yaml".into(), 1));
        assert_eq!(j.locate(&Location::at(0, 0, 0)).unwrap().line, 0);
    }

    /// Nine levels of aliases, each nine times the one before: about 400 million nodes
    /// once expanded, in 306 bytes.
    fn alias_bomb() -> String {
        let mut text = String::from("a: &a [x,x,x,x,x,x,x,x,x]\n");
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
        for w in names.windows(2) {
            let uses = vec![format!("*{}", w[0]); 9].join(",");
            text.push_str(&format!("{}: &{} [{uses}]\n", w[1], w[1]));
        }
        text
    }

    #[test]
    fn an_alias_bomb_is_an_error_at_the_alias_that_passes_the_limit() {
        let bomb = alias_bomb();
        assert_eq!(bomb.len(), 306);
        let e = read_document("bomb.yaml", &bomb).unwrap_err();
        assert!(
            e.starts_with(
                "bomb.yaml:6:8: aliases in this document expand to more than 100000 nodes"
            ),
            "{e}"
        );
        assert!(
            e.ends_with(" 6 | f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n   |        ^"),
            "{e}"
        );
    }

    #[test]
    fn a_syntax_error_names_its_line_and_points_at_it() {
        let e = read_document("s.yaml", "protectedTaints:\n- key: a\n   value: b\n").unwrap_err();
        assert_eq!(
            e,
            "s.yaml:3:9: this is not valid YAML: mapping values are not allowed in this context\n 3 |    value: b\n   |         ^"
        );
        let e = read_document("s.json", "{\"a\": [1,\n 2,,]}").unwrap_err();
        assert!(
            e.starts_with("s.json:2:4: this is not valid JSON: expected a value, found ','"),
            "{e}"
        );
        let e = read_document("empty.yaml", "# nothing\n").unwrap_err();
        assert!(
            e.starts_with("empty.yaml: the text holds no document"),
            "{e}"
        );
    }

    #[test]
    fn yaml_and_json_give_the_same_value() {
        let yaml =
            "protectedTaints:\n- {key: dedicated, value: gpu}\nlimit: 30\nratio: 0.5\nnone: ~\n";
        let json = r#"{"protectedTaints": [{"key": "dedicated", "value": "gpu"}],
            "limit": 30, "ratio": 0.5, "none": null}"#;
        let y = read_document("s.yaml", yaml).unwrap();
        assert_eq!(y, read_document("s.json", json).unwrap());
        assert_eq!(y, serde_json::from_str::<Value>(json).unwrap());
    }

    #[test]
    fn yaml_scalars_resolve_as_kubectl_resolves_them() {
        // YAML 1.1, as sigs.k8s.io/yaml (kubectl, the API server) reads them; a YAML 1.2
        // reader gives the string "yes", the number 12 and the key "on".
        let v = read_document("s.yaml", "a: yes\nb: 'yes'\nc: 0x1F\nd: 012\non: 1\n").unwrap();
        assert_eq!(
            v,
            serde_json::json!({"a": true, "b": "yes", "c": 31, "d": 10, "true": 1})
        );
    }

    #[test]
    fn one_file_is_read_unchanged() {
        let j = Joined::new(vec![file("a.json", "{\"a\": 1}")]);
        assert_eq!(j.text, "{\"a\": 1}");
        assert!(Joined::new(Vec::new()).is_empty());
    }
}
