//! JSON reader: a strict RFC 8259 parser that builds the same located, pruned value tree
//! as the YAML reader, so both give identical results for the same content.
//!
//! It reads a stream of JSON values (what `kubectl get -o json` prints for one or
//! several objects). Parts the schema does not need are validated and skipped without
//! allocating, which is what makes large `kubectl get nodes -o json` outputs fast.
//! Go's decoder semantics are kept where they differ from a naive reader: the last of
//! two duplicate keys wins, and lone UTF-16 surrogates in `\u` escapes become U+FFFD.

use crate::diag::{Code, Diagnostic, Location};
use crate::tree::{Ctx, Doc, Entry, Kind, Limits, Number, Pos, Shape, Value, insert};

struct Reader<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
    limits: &'a Limits,
    doc: usize,
    base_line: u32,
    // Incremental line/column of byte offset `cur_off`.
    cur_off: usize,
    cur_line: u32,
    cur_col: u32,
    diags: &'a mut Vec<Diagnostic>,
}

struct Fail(Diagnostic);

/// Reads a stream of JSON values. `text` starts at line `base_line + 1` of the paste;
/// documents are numbered from `first_index`.
pub(crate) fn parse_stream(
    text: &str,
    base_line: u32,
    first_index: usize,
    limits: &Limits,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Doc> {
    let mut r = Reader::new(text, limits, first_index, base_line, diags);
    let mut docs = Vec::new();
    loop {
        r.ws();
        if r.i >= r.b.len() {
            break;
        }
        if docs.len() >= limits.max_documents {
            let p = r.pos_at(r.i);
            let loc = r.loc(p);
            r.diags.push(Diagnostic::error(
                Code::TooManyDocuments,
                loc,
                format!(
                    "more than {} documents in one paste; the rest is not read",
                    limits.max_documents
                ),
            ));
            break;
        }
        let start = r.pos_at(r.i);
        let first = r.b.get(r.i).copied();
        let result = r.value(Ctx::Object, 1).and_then(|v| {
            // Numbers and literals must be followed by whitespace or a delimiter, as
            // in every JSON stream reader (`04` is not `0` then `4`).
            let self_delimited = matches!(first, Some(b'{' | b'[' | b'"'));
            match r.b.get(r.i) {
                Some(c) if !self_delimited && !b" \t\r\n\"[]{},:".contains(c) => {
                    Err(r.fail("whitespace after the value"))
                }
                _ => Ok(v),
            }
        });
        match result {
            Ok(v) => {
                docs.push(Doc {
                    index: r.doc,
                    line: start.line,
                    root: Some(v),
                });
                r.doc += 1;
            }
            Err(Fail(d)) => {
                r.diags.push(d);
                docs.push(Doc {
                    index: r.doc,
                    line: start.line,
                    root: None,
                });
                break;
            }
        }
    }
    docs
}

/// The first JSON value of `text` (after whitespace), kept whole, with the byte offset
/// just after it; `None` when `text` does not start with valid JSON. For JSON quoted
/// inside other text (an Ansible task result, jsonpath's `.spec.taints`): the same
/// strict reader and limits as for pasted JSON, so the module needs no second parser.
pub(crate) fn parse_first(text: &str) -> Option<(Value, usize)> {
    let limits = Limits::default();
    let mut diags = Vec::new();
    let mut r = Reader::new(text, &limits, 0, 0, &mut diags);
    r.ws();
    let v = r.value(Ctx::Any, 1).ok()?;
    Some((v, r.i))
}

/// `text` as one JSON value kept whole (nothing pruned), under `limits`: a file read as
/// plain data ([`crate::document`]) rather than a paste of objects. Only whitespace may
/// follow the value. Warnings go to `diags`; the first error is returned.
pub(crate) fn parse_whole(
    text: &str,
    limits: &Limits,
    diags: &mut Vec<Diagnostic>,
) -> Result<Value, Diagnostic> {
    let mut r = Reader::new(text, limits, 1, 0, diags);
    r.ws();
    let v = r.value(Ctx::Any, 1).map_err(|Fail(d)| d)?;
    r.ws();
    if r.i < r.b.len() {
        let Fail(d) = r.fail("the end of the document");
        return Err(d);
    }
    Ok(v)
}

impl<'a> Reader<'a> {
    /// A reader at the start of `text`, document `doc`, whose first line is line
    /// `base_line + 1` of the paste.
    fn new(
        text: &'a str,
        limits: &'a Limits,
        doc: usize,
        base_line: u32,
        diags: &'a mut Vec<Diagnostic>,
    ) -> Self {
        Reader {
            text,
            b: text.as_bytes(),
            i: 0,
            limits,
            doc,
            base_line,
            cur_off: 0,
            cur_line: 1,
            cur_col: 1,
            diags,
        }
    }

    /// Line and column of a byte offset at or after the last one asked for.
    fn pos_at(&mut self, off: usize) -> Pos {
        let off = off.min(self.b.len());
        if off < self.cur_off {
            // Not expected (offsets grow), but stay correct: recount from the start.
            self.cur_off = 0;
            self.cur_line = 1;
            self.cur_col = 1;
        }
        (self.cur_line, self.cur_col) =
            advance(self.cur_line, self.cur_col, self.b, self.cur_off, off);
        self.cur_off = off;
        Pos {
            line: self.cur_line + self.base_line,
            col: self.cur_col,
        }
    }

    fn loc(&self, p: Pos) -> Location {
        Location::at(self.doc, p.line as usize, p.col as usize)
    }

    fn fail(&mut self, what: &str) -> Fail {
        let p = self.pos_at(self.i);
        let found = match self.text.get(self.i..).and_then(|s| s.chars().next()) {
            None => "the end of the input".to_string(),
            // What `{:?}` prints for these characters, without the standard library's
            // escaping tables.
            Some(' ') => "' '".to_string(),
            Some('\0') => "'\\0'".to_string(),
            Some('\t') => "'\\t'".to_string(),
            Some('\n') => "'\\n'".to_string(),
            Some('\r') => "'\\r'".to_string(),
            Some(c) if c.is_control() || c.is_whitespace() => format!("'\\u{{{:x}}}'", c as u32),
            Some(c) => format!("'{c}'"),
        };
        Fail(Diagnostic::error(
            Code::JsonSyntax,
            self.loc(p),
            format!("this is not valid JSON: expected {what}, found {found}"),
        ))
    }

    /// A raw C0 control character inside a string: Go's `encoding/json` stops with
    /// `invalid character '\x00' in string literal` (its `quoteChar`), which kubectl
    /// prints (after `json: offset <n>: ` for the first object of a file).
    fn raw_control(&mut self, c: u8) -> Fail {
        let p = self.pos_at(self.i);
        let go = match c {
            0x07 => String::from("\\a"),
            0x08 => String::from("\\b"),
            0x0c => String::from("\\f"),
            b'\n' => String::from("\\n"),
            b'\r' => String::from("\\r"),
            b'\t' => String::from("\\t"),
            0x0b => String::from("\\v"),
            _ => format!("\\x{c:02x}"),
        };
        Fail(Diagnostic::error(
            Code::JsonSyntax,
            self.loc(p),
            format!(
                "this is not valid JSON: {} must be escaped inside a string; kubectl reports \"invalid character '{go}' in string literal\"",
                crate::yaml::describe_char(char::from(c))
            ),
        ))
    }

    fn ws(&mut self) {
        // Indentation: eight spaces at a time.
        while let Some(w) = word(self.b, self.i)
            && w == SPACES
        {
            self.i += 8;
        }
        while let Some(&c) = self.b.get(self.i) {
            if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
                self.i += 1;
            } else if c == 0xEF
                && self.b.get(self.i..self.i + 3) == Some(&[0xEF, 0xBB, 0xBF])
                && self.i == 0
            {
                self.i += 3; // a byte-order mark at the very start
            } else {
                break;
            }
        }
    }

    fn too_deep(&mut self) -> Fail {
        let p = self.pos_at(self.i);
        Fail(Diagnostic::error(
            Code::TooDeep,
            self.loc(p),
            format!(
                "nesting is deeper than {} levels; Kubernetes objects need far fewer, so the document is not read",
                self.limits.max_depth
            ),
        ))
    }

    fn value(&mut self, ctx: Ctx, depth: usize) -> Result<Value, Fail> {
        let pos = self.pos_at(self.i);
        match self.b.get(self.i) {
            Some(b'{') => {
                if depth > self.limits.max_depth {
                    return Err(self.too_deep());
                }
                if !ctx.keeps_map() {
                    self.skip_value(depth)?;
                    return Ok(Value::new(pos, Kind::Pruned(Shape::Map)));
                }
                self.i += 1;
                let mut entries: Vec<Entry> = Vec::new();
                let mut first_key: Option<Pos> = None;
                self.ws();
                if self.b.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(Value::new(pos, Kind::Map(entries)));
                }
                loop {
                    self.ws();
                    if self.b.get(self.i) != Some(&b'"') {
                        return Err(self.fail("a string key"));
                    }
                    let key_pos = self.pos_at(self.i);
                    first_key.get_or_insert(key_pos);
                    let key = self.string()?;
                    self.ws();
                    if self.b.get(self.i) != Some(&b':') {
                        return Err(self.fail("':' after the key"));
                    }
                    self.i += 1;
                    self.ws();
                    let value = match ctx.field(&key) {
                        Some(c) => self.value(c, depth + 1)?,
                        None if ctx.keeps_pruned_keys() => {
                            let p = self.pos_at(self.i);
                            let shape = self.skip_value(depth + 1)?;
                            Value::new(p, Kind::Pruned(shape))
                        }
                        None => {
                            self.skip_value(depth + 1)?;
                            self.ws();
                            match self.b.get(self.i) {
                                Some(b',') => {
                                    self.i += 1;
                                    continue;
                                }
                                Some(b'}') => {
                                    self.i += 1;
                                    break;
                                }
                                _ => return Err(self.fail("',' or '}' after an object member")),
                            }
                        }
                    };
                    if let Some(prev) = insert(
                        &mut entries,
                        Entry {
                            key,
                            key_pos,
                            value,
                        },
                    ) {
                        let key = entries
                            .iter()
                            .find(|e| e.key_pos == key_pos)
                            .map(|e| e.key.clone())
                            .unwrap_or_default();
                        let loc = self.loc(key_pos);
                        self.diags.push(Diagnostic::warning(
                            Code::DuplicateKey,
                            loc,
                            format!(
                                "key \"{key}\" appears twice in this object (first on line {}); the last one wins, and kubectl --validate=strict rejects the object",
                                prev.line
                            ),
                        ));
                    }
                    self.ws();
                    match self.b.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            break;
                        }
                        _ => return Err(self.fail("',' or '}' after an object member")),
                    }
                }
                let pos = first_key.unwrap_or(pos);
                Ok(Value::new(pos, Kind::Map(entries)))
            }
            Some(b'[') => {
                if depth > self.limits.max_depth {
                    return Err(self.too_deep());
                }
                if !ctx.keeps_seq() {
                    self.skip_value(depth)?;
                    return Ok(Value::new(pos, Kind::Pruned(Shape::Seq)));
                }
                self.i += 1;
                let elem = ctx.element();
                let mut items = Vec::new();
                self.ws();
                if self.b.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(Value::new(pos, Kind::Seq(items)));
                }
                loop {
                    self.ws();
                    items.push(self.value(elem, depth + 1)?);
                    self.ws();
                    match self.b.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            break;
                        }
                        _ => return Err(self.fail("',' or ']' after an array element")),
                    }
                }
                Ok(Value::new(pos, Kind::Seq(items)))
            }
            Some(b'"') => Ok(Value::new(pos, Kind::Str(self.string()?))),
            Some(b't') => self.literal("true", Kind::Bool(true, "true".into()), pos),
            Some(b'f') => self.literal("false", Kind::Bool(false, "false".into()), pos),
            Some(b'n') => self.literal("null", Kind::Null("null".into()), pos),
            Some(b'-' | b'0'..=b'9') => {
                let start = self.i;
                let float = self.number()?;
                let lit = &self.text[start..self.i];
                Ok(Value::new(
                    pos,
                    Kind::Num(Box::new(Number {
                        json: lit.into(),
                        source: lit.into(),
                        float,
                    })),
                ))
            }
            _ => Err(self.fail("a value")),
        }
    }

    fn literal(&mut self, word: &str, kind: Kind, pos: Pos) -> Result<Value, Fail> {
        if self.b.get(self.i..self.i + word.len()) == Some(word.as_bytes()) {
            self.i += word.len();
            Ok(Value::new(pos, kind))
        } else {
            Err(self.fail("a value"))
        }
    }

    /// Validates a number; returns whether it has a fraction or an exponent.
    fn number(&mut self) -> Result<bool, Fail> {
        let b = self.b;
        let mut i = self.i;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        match b.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                while matches!(b.get(i), Some(b'0'..=b'9')) {
                    i += 1;
                }
            }
            _ => {
                self.i = i;
                return Err(self.fail("a digit"));
            }
        }
        let mut float = false;
        if b.get(i) == Some(&b'.') {
            float = true;
            i += 1;
            if !matches!(b.get(i), Some(b'0'..=b'9')) {
                self.i = i;
                return Err(self.fail("a digit after the decimal point"));
            }
            while matches!(b.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            float = true;
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if !matches!(b.get(i), Some(b'0'..=b'9')) {
                self.i = i;
                return Err(self.fail("a digit in the exponent"));
            }
            while matches!(b.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
        }
        self.i = i;
        Ok(float)
    }

    /// Reads a string starting at `"` and decodes escapes.
    fn string(&mut self) -> Result<String, Fail> {
        self.i += 1;
        let start = self.i;
        // Fast path: no escapes.
        let end = self.scan_string()?;
        if self.b.get(end) == Some(&b'"') {
            self.i = end + 1;
            return Ok(self.text[start..end].to_string());
        }
        let mut out = String::from(&self.text[start..end]);
        self.i = end;
        loop {
            match self.b.get(self.i) {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let c = match self.b.get(self.i) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.i += 1;
                            let hi = self.hex4()?;
                            let c = if (0xD800..0xDC00).contains(&hi)
                                && self.b.get(self.i..self.i + 2) == Some(b"\\u")
                            {
                                let save = self.i;
                                self.i += 2;
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                                        .unwrap_or('\u{FFFD}')
                                } else {
                                    self.i = save;
                                    '\u{FFFD}'
                                }
                            } else {
                                char::from_u32(hi).unwrap_or('\u{FFFD}')
                            };
                            out.push(c);
                            continue;
                        }
                        _ => return Err(self.fail("a valid escape sequence")),
                    };
                    self.i += 1;
                    out.push(c);
                }
                _ => {
                    let s = self.i;
                    let e = self.scan_string()?;
                    out.push_str(&self.text[s..e]);
                    self.i = e;
                }
            }
        }
    }

    /// Offset of the next `"` or `\` from `self.i`; errors on control characters and
    /// the end of input.
    fn scan_string(&mut self) -> Result<usize, Fail> {
        let mut j = self.i;
        // Eight bytes at a time until one of them may stop the string.
        while let Some(w) = word(self.b, j) {
            let stop = has_byte(w, b'"') | has_byte(w, b'\\') | has_below(w, 0x20);
            if stop != 0 {
                j += (stop.trailing_zeros() / 8) as usize;
                break;
            }
            j += 8;
        }
        while let Some(&c) = self.b.get(j) {
            if c == b'"' || c == b'\\' {
                return Ok(j);
            }
            if c < 0x20 {
                self.i = j;
                return Err(self.raw_control(c));
            }
            j += 1;
        }
        self.i = j;
        Err(self.fail("the closing '\"' of the string"))
    }

    fn hex4(&mut self) -> Result<u32, Fail> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = self.b.get(self.i).and_then(|&c| (c as char).to_digit(16));
            match d {
                Some(d) => {
                    v = v * 16 + d;
                    self.i += 1;
                }
                None => return Err(self.fail("four hex digits after \\u")),
            }
        }
        Ok(v)
    }

    /// Validates and skips a value; returns its shape.
    fn skip_value(&mut self, depth: usize) -> Result<Shape, Fail> {
        match self.b.get(self.i) {
            Some(b'{') => {
                if depth > self.limits.max_depth {
                    return Err(self.too_deep());
                }
                self.i += 1;
                self.ws();
                if self.b.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(Shape::Map);
                }
                loop {
                    self.ws();
                    if self.b.get(self.i) != Some(&b'"') {
                        return Err(self.fail("a string key"));
                    }
                    self.skip_string()?;
                    self.ws();
                    if self.b.get(self.i) != Some(&b':') {
                        return Err(self.fail("':' after the key"));
                    }
                    self.i += 1;
                    self.ws();
                    self.skip_value(depth + 1)?;
                    self.ws();
                    match self.b.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Shape::Map);
                        }
                        _ => return Err(self.fail("',' or '}' after an object member")),
                    }
                }
            }
            Some(b'[') => {
                if depth > self.limits.max_depth {
                    return Err(self.too_deep());
                }
                self.i += 1;
                self.ws();
                if self.b.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(Shape::Seq);
                }
                loop {
                    self.ws();
                    self.skip_value(depth + 1)?;
                    self.ws();
                    match self.b.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Shape::Seq);
                        }
                        _ => return Err(self.fail("',' or ']' after an array element")),
                    }
                }
            }
            Some(b'"') => {
                self.skip_string()?;
                Ok(Shape::Scalar)
            }
            Some(b't') => self
                .literal("true", Kind::Null("".into()), Pos::default())
                .map(|_| Shape::Scalar),
            Some(b'f') => self
                .literal("false", Kind::Null("".into()), Pos::default())
                .map(|_| Shape::Scalar),
            Some(b'n') => self
                .literal("null", Kind::Null("".into()), Pos::default())
                .map(|_| Shape::Scalar),
            Some(b'-' | b'0'..=b'9') => self.number().map(|_| Shape::Scalar),
            _ => Err(self.fail("a value")),
        }
    }

    fn skip_string(&mut self) -> Result<(), Fail> {
        self.i += 1;
        loop {
            let e = self.scan_string()?;
            self.i = e;
            if self.b.get(e) == Some(&b'"') {
                self.i += 1;
                return Ok(());
            }
            // A backslash.
            self.i += 1;
            match self.b.get(self.i) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => self.i += 1,
                Some(b'u') => {
                    self.i += 1;
                    self.hex4()?;
                }
                _ => return Err(self.fail("a valid escape sequence")),
            }
        }
    }
}

const SPACES: u64 = u64::from_le_bytes([b' '; 8]);
const ONES: u64 = u64::from_le_bytes([0x01; 8]);
const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);

/// The eight bytes at `i`, little-endian, when there are eight.
pub(crate) fn word(b: &[u8], i: usize) -> Option<u64> {
    let w: [u8; 8] = b.get(i..i.checked_add(8)?)?.try_into().ok()?;
    Some(u64::from_le_bytes(w))
}

/// A mask whose lowest set bit is the high bit of the first byte of `w` equal to `c`
/// (zero when none is); bits above the first match may be set spuriously.
pub(crate) fn has_byte(w: u64, c: u8) -> u64 {
    let x = w ^ (ONES * c as u64);
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// The same for the first byte below `n` (`n` at most 0x80).
fn has_below(w: u64, n: u8) -> u64 {
    w.wrapping_sub(ONES * n as u64) & !w & HIGHS
}

/// The line and column after `b`, from `line` and `col` before it: a `\n` starts a new
/// line, every other byte that does not continue a UTF-8 character is a column. One pass,
/// eight bytes at a time where they hold no `\n`: it runs before every value and key,
/// over the few bytes since the last one.
fn advance(line: u32, col: u32, b: &[u8], from: usize, to: usize) -> (u32, u32) {
    fn step((line, col): (u32, u32), &c: &u8) -> (u32, u32) {
        if c == b'\n' {
            (line + 1, 1)
        } else if c & 0xC0 != 0x80 {
            (line, col + 1)
        } else {
            (line, col)
        }
    }
    let mut at = (line, col);
    let mut i = from;
    while i < to {
        let n = (to - i).min(8);
        let w = match word(b, i) {
            Some(w) if n == 8 => Some(w),
            // The eight bytes that end at `to`, shifted so that only the last `n` are
            // left (the zero bytes shifted in are neither `\n` nor continuations).
            _ => to
                .checked_sub(8)
                .and_then(|s| word(b, s))
                .map(|w| w >> (8 * (8 - n))),
        };
        match w {
            // Continuation bytes are 10xxxxxx: bit 7 set, bit 6 clear.
            Some(w) if has_byte(w, b'\n') == 0 => {
                at.1 += n as u32 - (w & !(w << 1) & HIGHS).count_ones()
            }
            _ => at = b[i..i + n].iter().fold(at, step),
        }
        i += n;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advancing_counts_lines_and_characters() {
        let samples = [
            "",
            "a",
            "\n",
            "abc\ndef\n\n\nghijklmnopq\n",
            "é€😀\n\u{7f}\u{80}x\ny\u{0}\u{a}\u{8a}zzzzzzzz\n\n",
            "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n",
            "abcdefgh\u{b}\u{c}\r\n\u{e9}abcdefghijklmnop\u{2028}x",
        ];
        for s in samples {
            let all = s.as_bytes();
            for start in 0..=all.len() {
                for end in start..=all.len() {
                    // Byte by byte: lines are `\n`, columns characters (UTF-8 lead bytes).
                    let (mut line, mut col) = (3, 5);
                    for &c in &all[start..end] {
                        if c == b'\n' {
                            (line, col) = (line + 1, 1);
                        } else if (c & 0xC0) != 0x80 {
                            col += 1;
                        }
                    }
                    assert_eq!(
                        advance(3, 5, all, start, end),
                        (line, col),
                        "{s:?}[{start}..{end}]"
                    );
                }
            }
        }
    }

    #[test]
    fn word_masks_find_the_first_match() {
        let b = b"abc\"de\\f\x01ghijklmnop";
        let w = word(b, 0).unwrap();
        assert_eq!(has_byte(w, b'"').trailing_zeros() / 8, 3);
        assert_eq!(has_byte(w, b'\\').trailing_zeros() / 8, 6);
        assert_eq!(has_below(w, 0x20), 0);
        assert_eq!(has_below(word(b, 4).unwrap(), 0x20).trailing_zeros() / 8, 4);
        assert_eq!(has_byte(word(b, 9).unwrap(), b'"'), 0);
        assert_eq!(word(b, b.len() - 7), None);
        // Bytes of multi-byte characters are never taken for quotes or controls.
        let u = "é€😀ab\"".as_bytes();
        let w = word(u, 0).unwrap();
        assert_eq!(has_below(w, 0x20), 0);
        assert_eq!(has_byte(w, b'"'), 0);
        for i in 0..u.len() {
            if let Some(w) = word(u, i) {
                let first = u[i..i + 8].iter().position(|&c| c == b'"');
                let got = has_byte(w, b'"');
                assert_eq!(
                    first,
                    (got != 0).then(|| (got.trailing_zeros() / 8) as usize)
                );
            }
        }
    }

    fn parse(text: &str) -> (Vec<Doc>, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let docs = parse_stream(text, 0, 1, &Limits::default(), &mut diags);
        (docs, diags)
    }

    #[test]
    fn raw_control_characters_in_strings_are_located_errors() {
        // encoding/json refuses U+0000-U+001F inside a string ("invalid character '\x00'
        // in string literal"); DEL and C1 controls are allowed there, unlike in YAML.
        for (c, go, name) in [
            ('\u{0}', "\\x00", "the control character U+0000 (NUL)"),
            ('\u{1b}', "\\x1b", "the control character U+001B (ESC)"),
            ('\u{1f}', "\\x1f", "the control character U+001F (US)"),
            ('\t', "\\t", "the control character U+0009 (HT)"),
            ('\n', "\\n", "the control character U+000A (LF)"),
        ] {
            let text = format!("{{\"a\": \"x{c}y\"}}");
            let (docs, diags) = parse(&text);
            assert!(docs.iter().all(|d| d.root.is_none()), "{text:?}");
            assert_eq!(diags.len(), 1, "{text:?}");
            assert_eq!(diags[0].code, Code::JsonSyntax);
            assert_eq!((diags[0].location.line, diags[0].location.column), (1, 9));
            assert_eq!(
                diags[0].message,
                format!(
                    "this is not valid JSON: {name} must be escaped inside a string; kubectl reports \"invalid character '{go}' in string literal\""
                )
            );
        }
        for c in ['\u{7f}', '\u{85}', '\u{9f}'] {
            let (docs, diags) = parse(&format!("{{\"a\": \"x{c}y\"}}"));
            assert!(diags.is_empty(), "{diags:?}");
            assert!(docs[0].root.is_some());
        }
        // Outside strings a control character is not whitespace.
        let (_, diags) = parse("{\"a\":\u{0}1}");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code, Code::JsonSyntax);
    }

    #[test]
    fn same_tree_as_yaml() {
        let json = "{\"kind\": \"Node\", \"status\": {\"images\": [{\"names\": [\"a\"]}], \"conditions\": [{\"type\": \"Ready\", \"status\": \"True\", \"lastHeartbeatTime\": \"x\"}]}, \"spec\": {\"taints\": [{\"key\": \"k\", \"effect\": \"NoSchedule\", \"tolerationSeconds\": 1.5}]}}";
        let (docs, diags) = parse(json);
        assert!(diags.is_empty());
        let mut yd = Vec::new();
        let ydocs = crate::yaml::parse_stream(json, 0, 1, &Limits::default(), &mut yd);
        assert!(yd.is_empty());
        let strip = |v: &Value| format!("{:?}", v.kind);
        assert_eq!(
            strip(docs[0].root.as_ref().unwrap()),
            strip(ydocs[0].root.as_ref().unwrap())
        );
    }

    #[test]
    fn positions_count_characters() {
        let (docs, _) = parse("{\n  \"kind\": \"é\", \"metadata\": {\"name\": \"n\"}\n}");
        let v = docs[0].root.as_ref().unwrap();
        let m = &v.get("metadata").unwrap();
        assert_eq!(m.key_pos, Pos { line: 2, col: 16 });
        assert_eq!(
            m.value.get("name").unwrap().value.pos,
            Pos { line: 2, col: 37 }
        );
    }

    #[test]
    fn escapes_and_surrogates() {
        let (docs, d) = parse(r#"{"key": "a\"b\\c\u00e9\ud83d\ude00\ud800x"}"#);
        assert!(d.is_empty());
        let v = docs[0].root.as_ref().unwrap();
        assert_eq!(
            v.get("key").unwrap().value.kind,
            Kind::Str("a\"b\\cé😀\u{FFFD}x".into())
        );
    }

    #[test]
    fn streams_and_errors() {
        let (docs, d) = parse("{\"kind\": \"A\"}\n{\"kind\": \"B\"}\n{\"kind\": \"C\",}");
        assert_eq!(docs.len(), 3);
        assert!(docs[2].root.is_none());
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].location, Location::at(3, 3, 14));
        assert_eq!(
            d[0].message,
            "this is not valid JSON: expected a string key, found '}'"
        );
    }

    #[test]
    fn rejects_what_go_rejects() {
        for bad in [
            "{\"a\": 01}",
            "{\"a\": 1.}",
            "{\"a\": .5}",
            "[1,]",
            "{\"a\" 1}",
            "\"a\tb\"",
            "{\"a\": tru}",
            "[\"\\x\"]",
            "{\"a\": -}",
            "{'a': 1}",
        ] {
            let (_, d) = parse(bad);
            assert_eq!(d.len(), 1, "{bad}");
            assert_eq!(d[0].code, Code::JsonSyntax, "{bad}");
        }
        // The same inside pruned parts.
        for bad in ["{\"status\": {\"images\": [1,]}}", "{\"zzz\": {\"a\": 01}}"] {
            let (_, d) = parse(bad);
            assert_eq!(d.len(), 1, "{bad}");
        }
    }

    #[test]
    fn stream_values_need_separators() {
        // Found by fuzzing against serde_json.
        let (_, d) = parse("\":0\"04");
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, Code::JsonSyntax);
        let (docs, d) = parse("{}{} 1 2");
        assert!(d.is_empty());
        assert_eq!(docs.len(), 4);
    }

    #[test]
    fn deep_nesting_fails_fast() {
        let text = format!("{}{}", "[".repeat(1_000_000), "]".repeat(1_000_000));
        let (_, d) = parse(&text);
        assert_eq!(d[0].code, Code::TooDeep);
        let text = format!(
            "{{\"zzz\": {}{}}}",
            "[".repeat(1_000_000),
            "]".repeat(1_000_000)
        );
        let (_, d) = parse(&text);
        assert_eq!(d[0].code, Code::TooDeep);
    }
}
