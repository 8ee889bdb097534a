//! YAML reader: the events of [`crate::yaml_events`], turned into the located, pruned
//! value tree.
//!
//! Scalars resolve with YAML 1.1 rules ([`crate::yaml11`]); merge keys (`<<`) follow
//! go-yaml v2; anchors are kept per document; alias expansion, nesting depth and the
//! number of documents are limited ([`Limits`]). A syntax error ends its document only:
//! reading resumes at the next `---` line, so one broken document does not hide the
//! others.

use crate::yaml_events::{Event, Marker, Parser, Style, Tag};

use crate::diag::{Code, Diagnostic, Location};
use crate::tree::{Ctx, Doc, Entry, Kind, Limits, Pos, Shape, Value, insert};
use crate::yaml11;

/// Why a document stopped early.
enum Stop {
    /// A syntax error: the parser cannot continue.
    Syntax(Diagnostic),
    /// A limit or structural error: the rest of the document is skipped.
    Doc(Diagnostic),
}

/// The anchors of the current document by the reader's anchor id (each `&name` gets a
/// fresh id, so a redefined name is a new entry), with the value and its node count: a
/// list kept sorted by id rather than a `HashMap`, which kept a hash table's code in the
/// npm module for this one map.
#[derive(Default)]
struct Anchors(Vec<(usize, (Value, usize))>);

impl Anchors {
    fn insert(&mut self, id: usize, v: (Value, usize)) {
        match self.0.binary_search_by_key(&id, |e| e.0) {
            Ok(i) => self.0[i].1 = v,
            Err(i) => self.0.insert(i, (id, v)),
        }
    }

    fn get(&self, id: usize) -> Option<&(Value, usize)> {
        let i = self.0.binary_search_by_key(&id, |e| e.0).ok()?;
        Some(&self.0[i].1)
    }

    fn clear(&mut self) {
        self.0.clear();
    }
}

struct Builder<'a> {
    parser: Parser<'a>,
    limits: &'a Limits,
    base_line: u32,
    doc: usize,
    anchors: Anchors,
    alias_nodes: usize,
    diags: &'a mut Vec<Diagnostic>,
    /// The context of each document's root: [`Ctx::Object`] for pastes, [`Ctx::Any`]
    /// for a document read whole ([`crate::document`]).
    root: Ctx,
}

/// Reads a YAML stream. `text` starts at line `base_line + 1` of the paste; documents
/// are numbered from `first_index`. Returns the documents; problems go to `diags`.
///
/// A document holding a character outside YAML's printable set is rejected as a whole,
/// as the API server and kubectl reject it (see [`disallowed_chars`]); the others are
/// read as usual.
pub(crate) fn parse_stream(
    text: &str,
    base_line: u32,
    first_index: usize,
    limits: &Limits,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Doc> {
    parse_stream_in(Ctx::Object, text, base_line, first_index, limits, diags)
}

/// [`parse_stream`] with each document's root read in `root` (pastes: [`Ctx::Object`],
/// which keeps only what the semantics read; [`Ctx::Any`] keeps everything).
pub(crate) fn parse_stream_in(
    root: Ctx,
    text: &str,
    base_line: u32,
    first_index: usize,
    limits: &Limits,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Doc> {
    let bad = disallowed_chars(text);
    if bad.is_empty() {
        return parse_clean_stream(root, text, base_line, first_index, limits, diags);
    }
    // The event reader ends the stream at a NUL and accepts the other controls, so parse a copy
    // with each rejected character replaced by a letter (same lines and columns), then
    // reject the documents that held one.
    let clean: String = text
        .chars()
        .map(|c| if is_yaml_printable(c) { c } else { 'x' })
        .collect();
    let mut parsed_diags = Vec::new();
    let mut docs = parse_clean_stream(
        root,
        &clean,
        base_line,
        first_index,
        limits,
        &mut parsed_diags,
    );
    let message = |b: &BadChar, index: usize, line: u32| {
        Diagnostic::error(
            Code::YamlSyntax,
            Location::at(index, line as usize, b.column as usize),
            format!(
                "{} is not allowed in YAML, so the document is not read; kubectl and the API server reject it with \"error converting YAML to JSON: yaml: control characters are not allowed\"",
                describe_char(b.ch)
            ),
        )
    };
    // Text before the first document belongs to it unless a `---` line separates them.
    let first_is_explicit = docs.first().is_some_and(|d| {
        text.lines()
            .nth(d.line.saturating_sub(base_line + 1) as usize)
            .is_some_and(|l| l.starts_with("---"))
    });
    let mut rejected = vec![false; docs.len()];
    let mut rejected_diags: Vec<Diagnostic> = Vec::new();
    let mut preamble: Option<Diagnostic> = None;
    for b in &bad {
        let line = base_line + b.line;
        // The document the character is in: the last one starting at or before its line
        // (documents are in line order).
        let slot = docs
            .partition_point(|d| d.line <= line)
            .checked_sub(1)
            .or((!first_is_explicit && !docs.is_empty()).then_some(0));
        match slot {
            Some(slot) if !rejected[slot] => {
                rejected[slot] = true;
                docs[slot].root = None;
                rejected_diags.push(message(b, docs[slot].index, line));
            }
            Some(_) => {}
            // Before the first `---`: kubectl's document splitter makes that text (here
            // only comments) a document of its own, which fails; the next one is read.
            None if preamble.is_none() => {
                let index = docs.first().map_or(first_index, |d| d.index);
                preamble = Some(message(b, index, line));
            }
            None => {}
        }
    }
    // What the parser said about a rejected document describes the copy, not the text.
    // In document order, so sorted.
    let rejected_index: Vec<usize> = docs
        .iter()
        .zip(&rejected)
        .filter(|(_, r)| **r)
        .map(|(d, _)| d.index)
        .collect();
    parsed_diags.retain(|d| rejected_index.binary_search(&d.location.document).is_err());
    diags.extend(parsed_diags);
    diags.extend(preamble);
    diags.extend(rejected_diags);
    if docs.is_empty() {
        // Nothing but comments around the character: still one (unreadable) document.
        docs.push(Doc {
            index: first_index,
            line: base_line + bad[0].line,
            root: None,
        });
    }
    docs
}

/// A character go-yaml's reader refuses, with its place (line 1-based within the text,
/// column 1-based in characters).
struct BadChar {
    line: u32,
    column: u32,
    ch: char,
}

/// go-yaml v2's reader (`yaml_parser_update_buffer` in `readerc.go`, used by
/// sigs.k8s.io/yaml's `YAMLToJSON` in kubectl and the API server) accepts only TAB, LF,
/// CR, U+0020-U+007E, NEL (U+0085), U+00A0-U+D7FF, U+E000-U+FFFD and U+10000 and above;
/// anything else fails with `yaml: control characters are not allowed`.
fn is_yaml_printable(c: char) -> bool {
    matches!(c,
        '\t' | '\n' | '\r' | '\u{20}'..='\u{7e}' | '\u{85}' | '\u{a0}'..='\u{d7ff}'
        | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
}

/// Every character [`is_yaml_printable`] refuses, in text order.
fn disallowed_chars(text: &str) -> Vec<BadChar> {
    let mut out = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        for (j, ch) in line.chars().enumerate() {
            if !is_yaml_printable(ch) {
                out.push(BadChar {
                    line: i as u32 + 1,
                    column: j as u32 + 1,
                    ch,
                });
            }
        }
    }
    out
}

/// `the control character U+0000 (NUL)`, `the noncharacter U+FFFE`.
pub(crate) fn describe_char(c: char) -> String {
    const C0: [&str; 32] = [
        "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR",
        "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB",
        "ESC", "FS", "GS", "RS", "US",
    ];
    let u = c as u32;
    match u {
        0..=0x1f => format!("the control character U+{u:04X} ({})", C0[u as usize]),
        0x7f => String::from("the control character U+007F (DEL)"),
        0x80..=0x9f => format!("the C1 control character U+{u:04X}"),
        _ => format!("the noncharacter U+{u:04X}"),
    }
}

/// [`parse_stream`] on text without rejected characters.
fn parse_clean_stream(
    root: Ctx,
    text: &str,
    base_line: u32,
    first_index: usize,
    limits: &Limits,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Doc> {
    let mut docs = Vec::new();
    let mut start = 0usize;
    let mut base = base_line;
    let mut index = first_index;
    loop {
        let slice = text.get(start..).unwrap_or("");
        let resume_after = parse_part(root, slice, base, &mut index, limits, &mut docs, diags);
        let Some(err_line) = resume_after else { break };
        // Resume at the first `---` line after the error line (1-based, in the slice).
        match next_document_marker(slice, err_line) {
            Some((offset, lines_skipped)) => {
                start += offset;
                base += lines_skipped;
            }
            None => break,
        }
        if docs.len() > limits.max_documents {
            break;
        }
    }
    docs
}

/// What a pruned copy of a value looks like.
fn prune_kind(kind: &Kind) -> Kind {
    match kind {
        Kind::Map(_) | Kind::Pruned(Shape::Map) => Kind::Pruned(Shape::Map),
        Kind::Seq(_) | Kind::Pruned(Shape::Seq) => Kind::Pruned(Shape::Seq),
        _ => Kind::Pruned(Shape::Scalar),
    }
}

/// Byte offset and line count of the first line starting with `---` after line `after`
/// (1-based) of `text`.
fn next_document_marker(text: &str, after: u32) -> Option<(usize, u32)> {
    let mut offset = 0usize;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let n = i as u32 + 1;
        if n > after.max(1) && line.starts_with("---") {
            let rest = &line[3..];
            if rest.is_empty() || rest.starts_with(|c: char| c.is_whitespace()) {
                return Some((offset, n - 1));
            }
        }
        offset += line.len();
    }
    None
}

/// Parses until the end of `text` or a syntax error; on a syntax error returns its
/// 1-based line in `text`.
fn parse_part(
    root: Ctx,
    text: &str,
    base_line: u32,
    index: &mut usize,
    limits: &Limits,
    docs: &mut Vec<Doc>,
    diags: &mut Vec<Diagnostic>,
) -> Option<u32> {
    let mut b = Builder {
        parser: Parser::new_from_str(text),
        limits,
        base_line,
        doc: *index,
        anchors: Anchors::default(),
        alias_nodes: 0,
        diags,
        root,
    };
    loop {
        let (ev, mark) = match b.parser.next_token() {
            Ok(x) => x,
            Err(e) => {
                let m = *e.marker();
                b.doc = *index;
                let d = b.syntax(m, e.info());
                b.diags.push(d);
                return Some((m.line() as u32).max(1));
            }
        };
        match ev {
            Event::StreamStart => {}
            Event::StreamEnd => return None,
            Event::DocumentStart => {
                if docs.len() >= limits.max_documents {
                    b.diags.push(Diagnostic::error(
                        Code::TooManyDocuments,
                        Location::at(*index, b.line(mark) as usize, 0),
                        format!(
                            "more than {} documents in one paste; the rest is not read",
                            limits.max_documents
                        ),
                    ));
                    return None;
                }
                b.doc = *index;
                b.anchors.clear();
                b.alias_nodes = 0;
                let line = b.line(mark);
                // On a syntax error, resume after the start of this document: errors
                // such as an unclosed bracket are found late, and the next `---` may
                // come before the place the parser gives up.
                let doc_start = (mark.line() as u32).max(1);
                let result = b.document();
                *index += 1;
                match result {
                    Ok(root) => docs.push(Doc {
                        index: b.doc,
                        line,
                        root: Some(root),
                    }),
                    Err(Stop::Doc(d)) => {
                        b.diags.push(d);
                        docs.push(Doc {
                            index: b.doc,
                            line,
                            root: None,
                        });
                        if let Err(Stop::Syntax(d)) = b.drain_document() {
                            b.diags.push(d);
                            return Some(doc_start);
                        }
                    }
                    Err(Stop::Syntax(d)) => {
                        b.diags.push(d);
                        docs.push(Doc {
                            index: b.doc,
                            line,
                            root: None,
                        });
                        return Some(doc_start);
                    }
                }
            }
            _ => {}
        }
    }
}

impl Builder<'_> {
    fn line(&self, m: Marker) -> u32 {
        (m.line() as u32).saturating_add(self.base_line)
    }

    fn pos(&self, m: Marker) -> Pos {
        Pos {
            line: self.line(m),
            col: m.col() as u32 + 1,
        }
    }

    fn loc(&self, p: Pos) -> Location {
        Location::at(self.doc, p.line as usize, p.col as usize)
    }

    fn syntax(&self, m: Marker, info: &str) -> Diagnostic {
        let p = self.pos(m);
        if info.contains("recursion limit") {
            return Diagnostic::error(
                Code::TooDeep,
                self.loc(p),
                "nesting is too deep for the YAML reader; Kubernetes objects need far fewer levels, so the document is not read",
            );
        }
        Diagnostic::error(
            Code::YamlSyntax,
            self.loc(p),
            format!("this is not valid YAML: {info}"),
        )
    }

    fn next(&mut self) -> Result<(Event, Marker), Stop> {
        match self.parser.next_token() {
            Ok(x) => Ok(x),
            Err(e) => Err(Stop::Syntax(self.syntax(*e.marker(), e.info()))),
        }
    }

    fn document(&mut self) -> Result<Value, Stop> {
        let (ev, mark) = self.next()?;
        let root = self.build(ev, mark, self.root, 1)?;
        let (ev, mark) = self.next()?;
        // `matches!` here and below rather than `==`: Event's derived PartialEq (tags,
        // scalar text) is otherwise linked into the npm module for these three checks.
        if !matches!(ev, Event::DocumentEnd) {
            return Err(Stop::Syntax(
                self.syntax(mark, "expected the end of the document"),
            ));
        }
        Ok(root)
    }

    /// Skips events up to the end of the current document.
    fn drain_document(&mut self) -> Result<(), Stop> {
        loop {
            let (ev, _) = self.next()?;
            if matches!(ev, Event::DocumentEnd | Event::StreamEnd) {
                return Ok(());
            }
        }
    }

    fn too_deep(&self, m: Marker) -> Stop {
        Stop::Doc(Diagnostic::error(
            Code::TooDeep,
            self.loc(self.pos(m)),
            format!(
                "nesting is deeper than {} levels; Kubernetes objects need far fewer, so the document is not read",
                self.limits.max_depth
            ),
        ))
    }

    fn build(&mut self, ev: Event, mark: Marker, ctx: Ctx, depth: usize) -> Result<Value, Stop> {
        let pos = self.pos(mark);
        match ev {
            Event::Scalar(text, style, anchor, tag) => {
                let kind = self.scalar(text, style, tag.as_ref(), pos)?;
                let v = Value::new(pos, kind);
                if anchor > 0 {
                    self.anchors.insert(anchor, (v.clone(), 1));
                }
                Ok(v)
            }
            Event::Alias(id) => self.alias(id, pos),
            Event::SequenceStart(anchor, _) => {
                if depth > self.limits.max_depth {
                    return Err(self.too_deep(mark));
                }
                let ctx = if anchor > 0 { Ctx::Any } else { ctx };
                let v = if ctx.keeps_seq() {
                    let elem = ctx.element();
                    let mut items = Vec::new();
                    loop {
                        let (ev, m) = self.next()?;
                        if matches!(ev, Event::SequenceEnd) {
                            break;
                        }
                        items.push(self.build(ev, m, elem, depth + 1)?);
                    }
                    Value::new(pos, Kind::Seq(items))
                } else {
                    self.skip(depth)?;
                    Value::new(pos, Kind::Pruned(Shape::Seq))
                };
                if anchor > 0 {
                    let n = v.node_count();
                    self.anchors.insert(anchor, (v.clone(), n));
                }
                Ok(v)
            }
            Event::MappingStart(anchor, _) => {
                if depth > self.limits.max_depth {
                    return Err(self.too_deep(mark));
                }
                let ctx = if anchor > 0 { Ctx::Any } else { ctx };
                let v = if ctx.keeps_map() {
                    self.mapping(pos, ctx, depth)?
                } else {
                    self.skip(depth)?;
                    Value::new(pos, Kind::Pruned(Shape::Map))
                };
                if anchor > 0 {
                    let n = v.node_count();
                    self.anchors.insert(anchor, (v.clone(), n));
                }
                Ok(v)
            }
            _ => Err(Stop::Syntax(self.syntax(mark, "unexpected event"))),
        }
    }

    fn alias(&mut self, id: usize, pos: Pos) -> Result<Value, Stop> {
        let Some((v, n)) = self.anchors.get(id) else {
            return Err(Stop::Doc(Diagnostic::error(
                Code::UnknownAnchor,
                self.loc(pos),
                "this alias names an anchor that is not defined earlier in the same document",
            )));
        };
        self.alias_nodes = self.alias_nodes.saturating_add(*n);
        if self.alias_nodes > self.limits.max_alias_nodes {
            return Err(Stop::Doc(Diagnostic::error(
                Code::AliasBomb,
                self.loc(pos),
                format!(
                    "aliases in this document expand to more than {} nodes (an \"alias bomb\"); the document is not read",
                    self.limits.max_alias_nodes
                ),
            )));
        }
        let mut v = v.clone();
        v.pos = pos;
        Ok(v)
    }

    /// Skips the rest of a collection whose start was consumed. Anchors inside are
    /// still built, since aliases elsewhere may use them.
    fn skip(&mut self, depth: usize) -> Result<(), Stop> {
        let mut level = 1usize;
        while level > 0 {
            let (ev, mark) = self.next()?;
            match ev {
                Event::SequenceStart(a, _) | Event::MappingStart(a, _) if a > 0 => {
                    self.build(ev, mark, Ctx::Any, depth + level)?;
                }
                Event::SequenceStart(..) | Event::MappingStart(..) => {
                    level += 1;
                    if depth + level > self.limits.max_depth + 1 {
                        return Err(self.too_deep(mark));
                    }
                }
                Event::SequenceEnd | Event::MappingEnd => level -= 1,
                Event::Scalar(_, _, a, _) if a > 0 => {
                    self.build(ev, mark, Ctx::Any, depth + level)?;
                }
                Event::Alias(id) if self.anchors.get(id).is_none() => {
                    self.alias(id, self.pos(mark))?;
                }
                Event::DocumentEnd | Event::StreamEnd => {
                    return Err(Stop::Syntax(
                        self.syntax(mark, "unexpected end of document"),
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn mapping(&mut self, pos: Pos, ctx: Ctx, depth: usize) -> Result<Value, Stop> {
        let mut entries: Vec<Entry> = Vec::new();
        let mut merged: Vec<String> = Vec::new();
        let mut first_key: Option<Pos> = None;
        loop {
            let (ev, m) = self.next()?;
            if matches!(ev, Event::MappingEnd) {
                break;
            }
            let key_pos = self.pos(m);
            first_key.get_or_insert(key_pos);
            let key = match ev {
                Event::Scalar(text, style, anchor, tag) => {
                    let merge = style == Style::Plain && tag.is_none() && text == "<<";
                    let kind = self.scalar(text, style, tag.as_ref(), key_pos)?;
                    if anchor > 0 {
                        self.anchors
                            .insert(anchor, (Value::new(key_pos, kind.clone()), 1));
                    }
                    if merge {
                        let (ev, m) = self.next()?;
                        let v = self.build(ev, m, Ctx::Any, depth + 1)?;
                        self.merge(&mut entries, &mut merged, v)?;
                        continue;
                    }
                    self.key_string(&kind, key_pos)
                }
                Event::Alias(id) => {
                    let v = self.alias(id, key_pos)?;
                    self.key_string(&v.kind, key_pos)
                }
                other => {
                    // A collection as a key: skip it and its value.
                    self.build(other, m, Ctx::Scalar, depth + 1)?;
                    Err(Diagnostic::error(
                        Code::BadKey,
                        self.loc(key_pos),
                        "a list or an object is used as a map key; JSON, and so Kubernetes, only has string keys",
                    ))
                }
            };
            let (ev, m) = self.next()?;
            match key {
                Ok(key) => {
                    let child = ctx.field(&key);
                    let value = match child {
                        Some(c) => self.build(ev, m, c, depth + 1)?,
                        None if ctx.keeps_pruned_keys() => self.prune(ev, m, depth + 1)?,
                        None => {
                            self.prune(ev, m, depth + 1)?;
                            continue;
                        }
                    };
                    let was_merged = merged.contains(&key);
                    if let Some(prev) = insert(
                        &mut entries,
                        Entry {
                            key: key.clone(),
                            key_pos,
                            value,
                        },
                    ) {
                        if was_merged {
                            merged.retain(|k| *k != key);
                        } else {
                            self.diags.push(Diagnostic::warning(
                                Code::DuplicateKey,
                                self.loc(key_pos),
                                format!(
                                    "key \"{key}\" appears twice in this mapping (first on line {}); the last one wins, and kubectl --validate=strict rejects the object",
                                    prev.line
                                ),
                            ));
                        }
                    }
                }
                Err(d) => {
                    self.diags.push(d);
                    self.prune(ev, m, depth + 1)?;
                }
            }
        }
        let pos = first_key.unwrap_or(pos);
        Ok(Value::new(pos, Kind::Map(entries)))
    }

    /// A value whose content the schema does not need: collections are skipped,
    /// scalars are kept as pruned markers too (their text is not needed).
    fn prune(&mut self, ev: Event, mark: Marker, depth: usize) -> Result<Value, Stop> {
        let pos = self.pos(mark);
        match ev {
            Event::SequenceStart(a, _) | Event::MappingStart(a, _) if a > 0 => {
                let v = self.build(ev, mark, Ctx::Any, depth)?;
                Ok(Value::new(pos, prune_kind(&v.kind)))
            }
            Event::SequenceStart(..) => {
                if depth > self.limits.max_depth {
                    return Err(self.too_deep(mark));
                }
                self.skip(depth)?;
                Ok(Value::new(pos, Kind::Pruned(Shape::Seq)))
            }
            Event::MappingStart(..) => {
                if depth > self.limits.max_depth {
                    return Err(self.too_deep(mark));
                }
                self.skip(depth)?;
                Ok(Value::new(pos, Kind::Pruned(Shape::Map)))
            }
            Event::Scalar(_, _, a, _) if a > 0 => {
                self.build(ev, mark, Ctx::Any, depth)?;
                Ok(Value::new(pos, Kind::Pruned(Shape::Scalar)))
            }
            Event::Scalar(..) => Ok(Value::new(pos, Kind::Pruned(Shape::Scalar))),
            other => {
                let v = self.build(other, mark, Ctx::Scalar, depth)?;
                Ok(Value::new(pos, prune_kind(&v.kind)))
            }
        }
    }

    /// go-yaml v2 merge: a mapping, or a list of mappings where earlier ones win; merged
    /// keys replace earlier keys, and later explicit keys replace merged ones.
    fn merge(
        &mut self,
        entries: &mut Vec<Entry>,
        merged: &mut Vec<String>,
        v: Value,
    ) -> Result<(), Stop> {
        let wrong = |b: &Self, p: Pos| {
            Stop::Doc(Diagnostic::error(
                Code::WrongType,
                b.loc(p),
                "a merge key (<<) needs an object or a list of objects as its value",
            ))
        };
        let maps: Vec<Value> = match v.kind {
            Kind::Map(_) => vec![v],
            Kind::Seq(items) => {
                let mut out = Vec::new();
                for item in items.into_iter().rev() {
                    if !matches!(item.kind, Kind::Map(_)) {
                        return Err(wrong(self, item.pos));
                    }
                    out.push(item);
                }
                out
            }
            _ => return Err(wrong(self, v.pos)),
        };
        for m in maps {
            if let Kind::Map(es) = m.kind {
                for e in es {
                    if !merged.contains(&e.key) {
                        merged.push(e.key.clone());
                    }
                    insert(entries, e);
                }
            }
        }
        Ok(())
    }

    /// The JSON key sigs.k8s.io/yaml makes of a YAML key.
    fn key_string(&self, kind: &Kind, pos: Pos) -> Result<String, Diagnostic> {
        let bad = |what: &str| {
            Diagnostic::error(
                Code::BadKey,
                self.loc(pos),
                format!(
                    "{what} cannot be a map key: kubectl cannot convert it to JSON (quote the key)"
                ),
            )
        };
        match kind {
            Kind::Str(s) => Ok(s.clone()),
            Kind::Bool(b, _) => Ok(if *b { "true".into() } else { "false".into() }),
            Kind::Null(_) => Err(bad("null")),
            Kind::Num(n) => {
                if n.float {
                    let f: f64 = match n.source.as_str() {
                        s if s.contains("nan") || s.contains("NaN") || s.contains("NAN") => {
                            f64::NAN
                        }
                        s if s.starts_with('-') && n.json.is_empty() => f64::NEG_INFINITY,
                        _ if n.json.is_empty() => f64::INFINITY,
                        _ => taintlab_core::float::parse_f64(&n.json).unwrap_or(0.0),
                    };
                    Ok(yaml11::go_format_float32_g(f))
                } else if n.json.parse::<i64>().is_ok() {
                    Ok(n.json.clone())
                } else {
                    Err(bad("an integer this large"))
                }
            }
            _ => Err(bad("this value")),
        }
    }

    fn scalar(
        &mut self,
        text: String,
        style: Style,
        tag: Option<&Tag>,
        pos: Pos,
    ) -> Result<Kind, Stop> {
        let core_tag = tag.and_then(|t| {
            (t.handle == "tag:yaml.org,2002:" || t.handle == "!!").then_some(t.suffix.as_str())
        });
        let Some(tag_name) = core_tag else {
            if tag.is_some() || style != Style::Plain {
                return Ok(Kind::Str(text));
            }
            return Ok(yaml11::resolve_plain(&text));
        };
        let resolved = yaml11::resolve_plain(&text);
        let ok = match (tag_name, &resolved) {
            ("str" | "binary" | "timestamp", _) => return Ok(Kind::Str(text)),
            ("null", Kind::Null(_)) | ("bool", Kind::Bool(..)) => true,
            ("int", Kind::Num(n)) => !n.float,
            ("float", Kind::Num(n)) => {
                if !n.float {
                    // go-yaml turns an integer tagged !!float into a float64.
                    let f = taintlab_core::float::parse_f64(&n.json).unwrap_or(0.0);
                    return Ok(Kind::Num(Box::new(crate::tree::Number {
                        json: yaml11::go_json_float(f),
                        source: n.source.clone(),
                        float: true,
                    })));
                }
                true
            }
            ("merge", _) => return Ok(Kind::Str(text)),
            _ => false,
        };
        if ok {
            Ok(resolved)
        } else {
            Err(Stop::Doc(Diagnostic::error(
                Code::WrongType,
                self.loc(pos),
                format!(
                    "`{text}` cannot be read as !!{tag_name} (kubectl: cannot decode `{text}` as a !!{tag_name})"
                ),
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Vec<Doc>, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let docs = parse_stream(text, 0, 1, &Limits::default(), &mut diags);
        (docs, diags)
    }

    /// The YAML error diagnostics: (document, line, column, message).
    fn errors(diags: &[Diagnostic]) -> Vec<(usize, usize, usize, String)> {
        diags
            .iter()
            .map(|d| {
                (
                    d.location.document,
                    d.location.line,
                    d.location.column,
                    d.message.clone(),
                )
            })
            .collect()
    }

    #[test]
    fn control_characters_reject_their_document_only() {
        let text = "a: 1\n---\nb: x\u{0}y\n---\nc: 3\n";
        let (docs, diags) = parse(text);
        assert_eq!(docs.len(), 3);
        assert!(docs[0].root.is_some());
        assert!(docs[1].root.is_none());
        assert!(docs[2].root.is_some());
        let e = errors(&diags);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!((e[0].0, e[0].1, e[0].2), (2, 3, 5));
        assert!(
            e[0].3
                .starts_with("the control character U+0000 (NUL) is not allowed in YAML")
        );
        assert!(e[0].3.contains("yaml: control characters are not allowed"));
    }

    #[test]
    fn each_refused_character_is_named_and_located() {
        for (c, name) in [
            ('\u{1}', "the control character U+0001 (SOH)"),
            ('\u{8}', "the control character U+0008 (BS)"),
            ('\u{b}', "the control character U+000B (VT)"),
            ('\u{c}', "the control character U+000C (FF)"),
            ('\u{1b}', "the control character U+001B (ESC)"),
            ('\u{7f}', "the control character U+007F (DEL)"),
            ('\u{80}', "the C1 control character U+0080"),
            ('\u{9f}', "the C1 control character U+009F"),
            ('\u{fffe}', "the noncharacter U+FFFE"),
            ('\u{ffff}', "the noncharacter U+FFFF"),
        ] {
            // In a plain scalar, a quoted scalar, a block scalar and a comment.
            for (text, line, col) in [
                (format!("k: a{c}b\n"), 1, 5),
                (format!("k: 'a{c}'\n"), 1, 6),
                (format!("k: |\n  a{c}\n"), 2, 4),
                (format!("# x{c}\nk: v\n"), 1, 4),
            ] {
                let (docs, diags) = parse(&text);
                assert!(docs.iter().all(|d| d.root.is_none()), "{text:?}");
                let e = errors(&diags);
                assert_eq!(e.len(), 1, "{text:?}: {e:?}");
                assert_eq!((e[0].1, e[0].2), (line, col), "{text:?}");
                assert!(e[0].3.starts_with(name), "{text:?}: {}", e[0].3);
            }
        }
    }

    #[test]
    fn yaml_printable_characters_pass() {
        // TAB, CR LF, NEL, NBSP, private use, U+FFFD and astral characters are allowed.
        let (docs, diags) = parse("k: \"a\tb\u{85}\u{a0}\u{e000}\u{fffd}\u{1f600}\"\r\n");
        assert!(diags.is_empty(), "{diags:?}");
        assert!(docs[0].root.is_some());
        assert!(disallowed_chars("\t\r\n \u{85}\u{d7ff}\u{e000}\u{10ffff}").is_empty());
        assert_eq!(disallowed_chars("ok\nb\u{0}\u{9f}").len(), 2);
    }

    #[test]
    fn a_paste_of_only_a_control_character_is_one_rejected_document() {
        let (docs, diags) = parse("\u{0}");
        assert_eq!(docs.len(), 1);
        assert!(docs[0].root.is_none());
        assert_eq!(errors(&diags).len(), 1);
        // Comments before the first `---` are a document of their own for kubectl: the
        // error is reported there and the next document is still read.
        let (docs, diags) = parse("# \u{7}\n---\nk: v\n");
        let e = errors(&diags);
        assert_eq!(e.len(), 1);
        assert_eq!((e[0].1, e[0].2), (1, 3));
        assert!(docs.iter().any(|d| d.root.is_some()));
        // A comment at the end of a document belongs to it.
        let (docs, diags) = parse("k: v\n# \u{7}\n---\nk2: v\n");
        assert_eq!(errors(&diags).len(), 1);
        assert!(docs[0].root.is_none());
        assert!(docs[1].root.is_some());
    }

    fn root(text: &str) -> Value {
        let (docs, diags) = parse(text);
        assert!(diags.is_empty(), "{diags:?}");
        docs.into_iter()
            .next()
            .and_then(|d| d.root)
            .expect("a document")
    }

    #[test]
    fn builds_positions_and_prunes() {
        let v = root(
            "kind: Node\nstatus:\n  images:\n  - names: [a]\n  conditions:\n  - type: Ready\n    status: \"True\"\n",
        );
        let status = &v.get("status").unwrap().value;
        // Pruned, and dropped entirely where no unknown-field check needs the key.
        assert!(status.get("images").is_none());
        let v2 = root("kind: Node\nspec:\n  images: [a]\n");
        assert_eq!(
            v2.get("spec")
                .unwrap()
                .value
                .get("images")
                .unwrap()
                .value
                .kind,
            Kind::Pruned(Shape::Seq)
        );
        let conds = &status.get("conditions").unwrap().value;
        let Kind::Seq(items) = &conds.kind else {
            panic!()
        };
        let t = items[0].get("type").unwrap();
        assert_eq!(t.key_pos, Pos { line: 6, col: 5 });
        assert_eq!(t.value.pos, Pos { line: 6, col: 11 });
    }

    #[test]
    fn resolves_yaml_1_1_scalars_only_when_plain() {
        let r =
            root("tolerations:\n- a: yes\n  b: 'yes'\n  c: !!str yes\n  d: 0x1F\n  e: |\n    on\n");
        let Kind::Seq(items) = &r.get("tolerations").unwrap().value.kind else {
            panic!()
        };
        let v = &items[0];
        assert!(matches!(
            v.get("a").unwrap().value.kind,
            Kind::Bool(true, _)
        ));
        assert_eq!(v.get("b").unwrap().value.kind, Kind::Str("yes".into()));
        assert_eq!(v.get("c").unwrap().value.kind, Kind::Str("yes".into()));
        assert!(matches!(&v.get("d").unwrap().value.kind, Kind::Num(n) if n.json == "31"));
        assert_eq!(v.get("e").unwrap().value.kind, Kind::Str("on\n".into()));
    }

    #[test]
    fn anchors_and_merge_keys() {
        let v = root(
            "x-base: &base {key: a, operator: Exists}\ntolerations:\n- <<: *base\n  effect: NoSchedule\n- *base\n",
        );
        let Kind::Seq(items) = &v.get("tolerations").unwrap().value.kind else {
            panic!()
        };
        assert_eq!(
            items[0].get("key").unwrap().value.kind,
            Kind::Str("a".into())
        );
        assert_eq!(
            items[0].get("effect").unwrap().value.kind,
            Kind::Str("NoSchedule".into())
        );
        assert_eq!(
            items[1].get("operator").unwrap().value.kind,
            Kind::Str("Exists".into())
        );
        assert_eq!(items[1].pos.line, 5);
    }

    #[test]
    fn nested_and_redefined_anchors() {
        // The outer anchor's id is smaller than the inner one's but is stored after
        // it; a redefined name refers to its latest value from there on.
        let v = root("o: &out {i: &in {key: a}, k: &in {key: b}}\ntolerations:\n- *in\n- *out\n");
        let Kind::Seq(items) = &v.get("tolerations").unwrap().value.kind else {
            panic!()
        };
        assert_eq!(
            items[0].get("key").unwrap().value.kind,
            Kind::Str("b".into())
        );
        let i = &items[1].get("i").unwrap().value;
        assert_eq!(i.get("key").unwrap().value.kind, Kind::Str("a".into()));
        // Anchors are per document.
        let (_, diags) = parse("a: &x 1\n---\nb: *x\n");
        assert!(
            diags.iter().any(|d| d.code == Code::UnknownAnchor),
            "{diags:?}"
        );
    }

    #[test]
    fn merge_precedence_like_go_yaml_v2() {
        let v = root("a: &a {k: 1, j: 1}\nb: &b {k: 2}\ntolerations:\n- k: 0\n  <<: [*b, *a]\n");
        let Kind::Seq(items) = &v.get("tolerations").unwrap().value.kind else {
            panic!()
        };
        let c = &items[0];
        // Merged after the explicit key, so the merge wins; among merged maps the
        // earlier (*b) wins.
        assert!(matches!(&c.get("k").unwrap().value.kind, Kind::Num(n) if n.json == "2"));
        assert!(matches!(&c.get("j").unwrap().value.kind, Kind::Num(n) if n.json == "1"));
    }

    #[test]
    fn alias_bomb_is_stopped() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let p = i - 1;
            text.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        let (docs, diags) = parse(&text);
        assert!(docs[0].root.is_none());
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code, Code::AliasBomb);
    }

    #[test]
    fn deep_nesting_is_stopped() {
        let text = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let (docs, diags) = parse(&text);
        assert!(docs.iter().all(|d| d.root.is_none()));
        assert_eq!(diags[0].code, Code::TooDeep);
        let text = format!("a: {}{}", "{b: ".repeat(5000), "}".repeat(5000));
        let (_, diags) = parse(&text);
        assert_eq!(diags[0].code, Code::TooDeep);
        // Block nesting, which the YAML reader itself does not limit.
        let text = format!("tolerations:\n{}x\n", "- ".repeat(5000));
        let (docs, diags) = parse(&text);
        assert!(docs[0].root.is_none());
        assert_eq!(diags[0].code, Code::TooDeep);
        assert_eq!(diags[0].location.line, 2);
    }

    #[test]
    fn syntax_error_keeps_other_documents() {
        let (docs, diags) = parse("kind: A\n---\nkind: [B\n---\nkind: C\n");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code, Code::YamlSyntax);
        assert_eq!(diags[0].location.document, 2);
        let kinds: Vec<_> = docs.iter().map(|d| (d.index, d.root.is_some())).collect();
        assert_eq!(kinds, vec![(1, true), (2, false), (3, true)]);
        assert_eq!(docs[2].line, 4);
    }

    #[test]
    fn duplicate_keys_warn_and_last_wins() {
        let (docs, diags) = parse("key: a\nkey: b\n");
        assert_eq!(diags[0].code, Code::DuplicateKey);
        let v = docs[0].root.as_ref().unwrap();
        assert_eq!(v.get("key").unwrap().value.kind, Kind::Str("b".into()));
    }

    #[test]
    fn keys_convert_like_sigs_yaml() {
        let v = root("labels: {1: a, true: b, 1.5: c, on: d}\nmetadata:\n  labels: {1: a}\n");
        let _ = v;
        let (_, diags) = parse("metadata:\n  labels:\n    ~: a\n");
        assert_eq!(diags[0].code, Code::BadKey);
    }
}
