//! The YAML event reader: a `&str` in, the stream's events with their places out.
//!
//! Hand-written because a measured byte budget demands it: the npm engine module must be
//! at most 250,000 B gzipped, and yaml-rust2, which this replaces, was the largest single
//! piece left in it. Swapping its event parser for a 40-line stand-in (a measurement only)
//! took the engine from 259,374 B to 242,023 B gz: about 17.3 KB gz for its generic
//! scanner over `Chars`, a `HashMap` with SipHash for anchors, `arraydeque`, and the
//! `<char as Debug>` Unicode tables its `unwrap`s reach. This reader works on the bytes
//! of one `&str`, is not generic, and keeps anchor names in a sorted list. In its place
//! the engine went from 258,832 B to 250,954 B gz (main at c1e8ee2, built as `cargo
//! xtask npm` builds it, functions ordered by name; 263,182 -> 253,147 B without the
//! ordering).
//!
//! It reads YAML the way libyaml does, as go-yaml (kubectl, the API server) and
//! yaml-rust2 do: a scanner turns the text into tokens, guessing "simple keys" (a node
//! followed by `:` on the same line) and adding block starts and ends from the
//! indentation, and a parser with a stack of states (what follows the node being read)
//! turns the tokens into events, one at a time as the caller asks. The tokens,
//! the places (`line` 1-based, `col` 0-based in characters) and where errors are found
//! are those of yaml-rust2 0.13, which this reader replaced without changing what the
//! input layer reports: a differential test (`yaml_events_differential.rs`) checks
//! every YAML text of the repository and 700,000 mutations of them against yaml-rust2.
//! The error messages are libyaml's short ones, as kubectl prints them (`yaml: line 3:
//! did not find expected key`), without yaml-rust2's "while parsing ..." prefixes.
//!
//! Nothing recurses. Nesting is limited to [`MAX_NESTING`] collections (an error saying
//! "recursion limit exceeded"); a flow collection nested deeper than 255 levels fails
//! the same way in the scanner, as in yaml-rust2. The work is linear in the text: the
//! token queue holds at most the tokens of one unresolved simple key, runs of ordinary
//! characters are copied as slices, and no text is scanned twice.

/// Nested collections the parser follows before it gives up ("recursion limit
/// exceeded"); the value tree's own limit ([`crate::tree::Limits::max_depth`]) is far
/// lower, so this only bounds the parser's state stack.
pub(crate) const MAX_NESTING: usize = 10_000;

/// Distinct anchor names in one stream before the reader gives up ("too many anchors"):
/// Kubernetes pastes hold a handful; the limit bounds the sorted list's shifting.
pub(crate) const MAX_ANCHORS: usize = 10_000;

/// A place in the text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Marker {
    /// Characters before it.
    index: usize,
    /// 1-based line.
    line: usize,
    /// 0-based column, in characters.
    col: usize,
}

impl Marker {
    pub(crate) fn line(&self) -> usize {
        self.line
    }

    pub(crate) fn col(&self) -> usize {
        self.col
    }

    #[cfg(test)]
    pub(crate) fn index(&self) -> usize {
        self.index
    }
}

/// A syntax error: where, and libyaml's words for it.
#[derive(Clone, Debug)]
pub(crate) struct ScanError {
    mark: Marker,
    info: &'static str,
}

impl ScanError {
    pub(crate) fn marker(&self) -> &Marker {
        &self.mark
    }

    pub(crate) fn info(&self) -> &str {
        self.info
    }
}

/// A stop: the error is kept in the scanner ([`Scanner::fail`]), so that `?` passes
/// nothing but this on.
struct Halt;

type R<T> = Result<T, Halt>;

/// How a scalar was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

/// A resolved tag: `!!str` is `tag:yaml.org,2002:` + `str`, `!foo` is `!` + `foo`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Tag {
    pub(crate) handle: String,
    pub(crate) suffix: String,
}

/// What the reader reports, in stream order. Anchor ids start at 1 (0: no anchor); each
/// `&name` gets a fresh id and an alias names the latest one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Event {
    StreamStart,
    StreamEnd,
    DocumentStart,
    DocumentEnd,
    Alias(usize),
    /// Text, style, anchor id, tag. An empty node is a plain, empty scalar.
    Scalar(String, Style, usize, Option<Tag>),
    SequenceStart(usize, Option<Tag>),
    SequenceEnd,
    MappingStart(usize, Option<Tag>),
    MappingEnd,
}

#[derive(Clone, Debug)]
enum Tok {
    StreamStart,
    StreamEnd,
    VersionDirective,
    TagDirective(String, String),
    DocumentStart,
    DocumentEnd,
    BlockSequenceStart,
    BlockMappingStart,
    BlockEnd,
    FlowSequenceStart,
    FlowSequenceEnd,
    FlowMappingStart,
    FlowMappingEnd,
    BlockEntry,
    FlowEntry,
    Key,
    Value,
    Alias(String),
    Anchor(String),
    Tag(String, String),
    Scalar(Style, String),
}

#[derive(Clone, Copy)]
struct SimpleKey {
    possible: bool,
    required: bool,
    token_number: usize,
    mark: Marker,
}

const NO_KEY: SimpleKey = SimpleKey {
    possible: false,
    required: false,
    token_number: 0,
    mark: Marker {
        index: 0,
        line: 0,
        col: 0,
    },
};

fn is_break(c: u8) -> bool {
    c == b'\n' || c == b'\r'
}

fn is_breakz(c: u8) -> bool {
    is_break(c) || c == 0
}

fn is_blank(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

fn is_blankz(c: u8) -> bool {
    is_blank(c) || is_breakz(c)
}

fn is_flow(c: u8) -> bool {
    matches!(c, b',' | b'[' | b']' | b'{' | b'}')
}

fn is_alpha(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

fn is_uri(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"-#;/?:@&=+$,_.!~*'()[]%".contains(&c)
}

fn is_tag_char(c: u8) -> bool {
    is_uri(c) && !is_flow(c) && c != b'!'
}

fn hex(c: u8) -> Option<u32> {
    (c as char).to_digit(16)
}

/// Joins a flow or plain scalar's lines: a single line break (`leading`) folds into a
/// space, the empty lines after it (`trailing`) stay line breaks; after an escaped line
/// break (no `leading`) only the empty lines count.
fn fold(s: &mut String, leading: &mut String, trailing: &mut String) {
    if !leading.is_empty() && trailing.is_empty() {
        s.push(' ');
    }
    s.push_str(trailing);
    leading.clear();
    trailing.clear();
}

/// The scanner: text to tokens.
struct Scanner<'a> {
    text: &'a str,
    pos: usize,
    mark: Marker,
    /// Tokens not yet taken, from `head` on (a queue in a `Vec`: emptied whenever it
    /// runs out, which it does between simple keys).
    tokens: Vec<(Marker, Tok)>,
    head: usize,
    started: bool,
    ended: bool,
    error: Option<ScanError>,
    adjacent_value_allowed_at: usize,
    simple_key_allowed: bool,
    simple_keys: Vec<SimpleKey>,
    indent: isize,
    /// Enclosing indents and whether each needs a block end when left.
    indents: Vec<(isize, bool)>,
    flow_level: u8,
    tokens_parsed: usize,
    token_available: bool,
    leading_ws: bool,
    flow_mapping_started: bool,
    implicit_flow_mapping: bool,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        Scanner {
            text,
            // A leading byte order mark is not content (go-yaml skips it too).
            pos: if text.starts_with('\u{feff}') { 3 } else { 0 },
            mark: Marker {
                index: 0,
                line: 1,
                col: 0,
            },
            tokens: Vec::new(),
            head: 0,
            started: false,
            ended: false,
            error: None,
            adjacent_value_allowed_at: 0,
            simple_key_allowed: true,
            simple_keys: Vec::new(),
            indent: -1,
            indents: Vec::new(),
            flow_level: 0,
            tokens_parsed: 0,
            token_available: false,
            leading_ws: true,
            flow_mapping_started: false,
            implicit_flow_mapping: false,
        }
    }

    /// The byte `k` places ahead (0 at the end; a NUL ends the stream too).
    #[inline(never)]
    fn at(&self, k: usize) -> u8 {
        self.text.as_bytes().get(self.pos + k).copied().unwrap_or(0)
    }

    fn b0(&self) -> u8 {
        self.at(0)
    }

    /// The current character's text.
    #[inline(never)]
    fn cur(&self) -> &'a str {
        let b = self.b0();
        let n = match b {
            0..=0x7f => 1,
            0xc0..=0xdf => 2,
            0xe0..=0xef => 3,
            _ => 4,
        };
        self.text.get(self.pos..self.pos + n).unwrap_or("")
    }

    fn is_bom(&self) -> bool {
        self.text
            .as_bytes()
            .get(self.pos..)
            .is_some_and(|r| r.starts_with(&[0xef, 0xbb, 0xbf]))
    }

    #[inline(never)]
    fn skip_blank(&mut self) {
        self.pos += self.cur().len().max(1);
        self.mark.index += 1;
        self.mark.col += 1;
    }

    fn skip_non_blank(&mut self) {
        self.skip_blank();
        self.leading_ws = false;
    }

    fn skip_n(&mut self, n: usize) {
        for _ in 0..n {
            self.skip_non_blank();
        }
    }

    fn skip_nl(&mut self) {
        self.pos += 1;
        self.mark.index += 1;
        self.mark.col = 0;
        self.mark.line += 1;
        self.leading_ws = true;
    }

    fn skip_linebreak(&mut self) {
        if self.b0() == b'\r' && self.at(1) == b'\n' {
            self.skip_blank();
            self.skip_nl();
        } else if is_break(self.b0()) {
            self.skip_nl();
        }
    }

    #[inline(never)]
    fn read_break(&mut self, s: &mut String) {
        if self.b0() == b'\r' && self.at(1) == b'\n' {
            self.skip_blank();
        }
        self.skip_nl();
        s.push('\n');
    }

    #[inline(never)]
    fn push_cur(&mut self, s: &mut String) {
        s.push_str(self.cur());
        self.skip_non_blank();
    }

    /// `---` or `...` (`dots`) at the start of a line, then a blank or the end.
    fn at_indicator(&self, c: u8) -> bool {
        self.mark.col == 0
            && self.b0() == c
            && self.at(1) == c
            && self.at(2) == c
            && is_blankz(self.at(3))
    }

    fn at_document_indicator(&self) -> bool {
        self.at_indicator(b'-') || self.at_indicator(b'.')
    }

    fn queued(&self) -> usize {
        self.tokens.len() - self.head
    }

    fn push(&mut self, mark: Marker, tok: Tok) {
        self.tokens.push((mark, tok));
    }

    /// Inserts a token before the not yet emitted token `number`.
    fn insert(&mut self, number: usize, mark: Marker, tok: Tok) {
        let i = number.saturating_sub(self.tokens_parsed).min(self.queued());
        self.tokens.insert(self.head + i, (mark, tok));
    }

    /// Keeps the first error; what `?` then passes on is a [`Halt`].
    #[inline(never)]
    fn fail(&mut self, mark: Marker, info: &'static str) -> Halt {
        if self.error.is_none() {
            self.error = Some(ScanError { mark, info });
        }
        Halt
    }

    /// The next token; after an error, none.
    fn next(&mut self) -> R<(Marker, Tok)> {
        if self.error.is_some() {
            return Err(Halt);
        }
        self.next_inner()
    }

    fn next_inner(&mut self) -> R<(Marker, Tok)> {
        if self.ended {
            return Err(self.fail(self.mark, "unexpected eof"));
        }
        if !self.token_available {
            self.fetch_more()?;
        }
        let Some(slot) = self.tokens.get_mut(self.head) else {
            return Err(self.fail(self.mark, "did not find expected next token"));
        };
        let t = std::mem::replace(slot, (Marker::DEFAULT, Tok::StreamEnd));
        self.head += 1;
        if self.head == self.tokens.len() {
            self.tokens.clear();
            self.head = 0;
        }
        self.token_available = false;
        self.tokens_parsed += 1;
        if matches!(t.1, Tok::StreamEnd) {
            self.ended = true;
        }
        Ok(t)
    }

    fn fetch_more(&mut self) -> R<()> {
        loop {
            let need_more = if self.tokens.is_empty() {
                true
            } else {
                // The next token may still turn out to be a key: read on.
                self.stale_simple_keys()?;
                let n = self.tokens_parsed;
                self.simple_keys
                    .iter()
                    .any(|k| k.possible && k.token_number == n)
            };
            if !need_more {
                break;
            }
            self.fetch_next()?;
        }
        self.token_available = true;
        Ok(())
    }

    fn stale_simple_keys(&mut self) -> R<()> {
        if self.flow_level > 0 {
            return Ok(());
        }
        let mark = self.mark;
        for k in &mut self.simple_keys {
            // Outside flow collections a simple key is on one line, within 1024 chars.
            if k.possible && (k.mark.line < mark.line || k.mark.index + 1024 < mark.index) {
                if k.required {
                    return Err(self.fail(mark, "could not find expected ':'"));
                }
                k.possible = false;
            }
        }
        Ok(())
    }

    fn fetch_next(&mut self) -> R<()> {
        if !self.started {
            self.started = true;
            self.indent = -1;
            self.simple_key_allowed = true;
            self.push(self.mark, Tok::StreamStart);
            self.simple_keys.push(NO_KEY);
            return Ok(());
        }
        self.skip_to_next_token()?;
        self.stale_simple_keys()?;
        self.unroll_indent(self.mark.col as isize);
        let (c, n) = (self.b0(), self.at(1));
        if c == 0 {
            return self.fetch_stream_end();
        }
        if self.mark.col == 0 && c == b'%' {
            return self.fetch_directive();
        }
        if self.at_indicator(b'-') {
            return self.fetch_document_indicator(Tok::DocumentStart);
        }
        if self.at_indicator(b'.') {
            self.fetch_document_indicator(Tok::DocumentEnd)?;
            self.skip_ws_to_eol(true)?;
            if !is_breakz(self.b0()) {
                return Err(self.fail(self.mark, "invalid content after document end marker"));
            }
            return Ok(());
        }
        if (self.mark.col as isize) < self.indent {
            return Err(self.fail(self.mark, "invalid indentation"));
        }
        let flow = self.flow_level > 0;
        match c {
            b'[' => self.fetch_flow_start(Tok::FlowSequenceStart),
            b'{' => self.fetch_flow_start(Tok::FlowMappingStart),
            b']' => self.fetch_flow_end(Tok::FlowSequenceEnd),
            b'}' => self.fetch_flow_end(Tok::FlowMappingEnd),
            b',' => self.fetch_flow_entry(),
            b'-' if is_blankz(n) => self.fetch_block_entry(),
            b'?' if is_blankz(n) => self.fetch_key(),
            b':' if is_blankz(n)
                || (flow && (is_flow(n) || self.mark.index == self.adjacent_value_allowed_at)) =>
            {
                self.fetch_value()
            }
            b'*' | b'&' => {
                self.save_simple_key();
                self.simple_key_allowed = false;
                let tok = self.scan_anchor(c == b'*')?;
                self.tokens.push(tok);
                Ok(())
            }
            b'!' => {
                self.save_simple_key();
                self.simple_key_allowed = false;
                let tok = self.scan_tag()?;
                self.tokens.push(tok);
                Ok(())
            }
            b'|' | b'>' if !flow => {
                self.save_simple_key();
                self.simple_key_allowed = true;
                let tok = self.scan_block_scalar(c == b'|')?;
                self.tokens.push(tok);
                Ok(())
            }
            b'\'' | b'"' => {
                self.save_simple_key();
                self.simple_key_allowed = false;
                let tok = self.scan_flow_scalar(c == b'\'')?;
                // A JSON-like key in a flow mapping may have its `:` right after it.
                self.skip_to_next_token()?;
                self.adjacent_value_allowed_at = self.mark.index;
                self.tokens.push(tok);
                Ok(())
            }
            b'%' | b'@' | b'`' => {
                Err(self.fail(self.mark, "found character that cannot start any token"))
            }
            _ => {
                self.save_simple_key();
                self.simple_key_allowed = false;
                let tok = self.scan_plain_scalar()?;
                self.tokens.push(tok);
                Ok(())
            }
        }
    }

    fn skip_to_next_token(&mut self) -> R<()> {
        loop {
            match self.b0() {
                // Tabs are not indentation: a line indented by one has no content.
                b'\t'
                    if !self.indents.is_empty()
                        && self.leading_ws
                        && (self.mark.col as isize) < self.indent =>
                {
                    self.skip_ws_to_eol(true)?;
                    if !is_breakz(self.b0()) {
                        return Err(
                            self.fail(self.mark, "found a tab character that violates indentation")
                        );
                    }
                }
                b'\t' | b' ' => self.skip_blank(),
                b'\n' | b'\r' => {
                    self.skip_linebreak();
                    if self.flow_level == 0 {
                        self.simple_key_allowed = true;
                    }
                }
                b'#' => self.skip_comment(),
                _ => return Ok(()),
            }
        }
    }

    fn skip_comment(&mut self) {
        self.run(|c, _| !is_breakz(c));
    }

    /// Steps over the characters from here on while `go(byte, next byte)` holds, and
    /// returns their text. `go` holds for every non-ASCII byte, so the run ends at a
    /// character boundary; this is the scanner's fast path (one slice per run rather
    /// than a push per character).
    fn run(&mut self, go: impl Fn(u8, u8) -> bool) -> &'a str {
        let b = self.text.as_bytes();
        let start = self.pos;
        let mut i = start;
        let mut n = 0;
        while let Some(&c) = b.get(i) {
            if !go(c, b.get(i + 1).copied().unwrap_or(0)) {
                break;
            }
            n += usize::from(c & 0xc0 != 0x80);
            i += 1;
        }
        self.pos = i;
        self.mark.index += n;
        self.mark.col += n;
        if n > 0 {
            self.leading_ws = false;
        }
        self.text.get(start..i).unwrap_or("")
    }

    /// Skips spaces (and tabs when `tabs`) and a comment; returns (tabs seen, spaces seen).
    fn skip_ws_to_eol(&mut self, tabs: bool) -> R<(bool, bool)> {
        let (mut tab, mut ws) = (false, false);
        loop {
            match self.b0() {
                b' ' => {
                    ws = true;
                    self.skip_blank();
                }
                b'\t' if tabs => {
                    tab = true;
                    self.skip_blank();
                }
                b'#' if !tab && !ws => {
                    return Err(self.fail(
                        self.mark,
                        "comments must be separated from other tokens by whitespace",
                    ));
                }
                b'#' => self.skip_comment(),
                _ => return Ok((tab, ws)),
            }
        }
    }

    fn fetch_stream_end(&mut self) -> R<()> {
        if self.mark.col != 0 {
            self.mark.col = 0;
            self.mark.line += 1;
        }
        for k in &mut self.simple_keys {
            if k.required && k.possible {
                return Err(self.fail(self.mark, "could not find expected ':'"));
            }
            k.possible = false;
        }
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        self.push(self.mark, Tok::StreamEnd);
        Ok(())
    }

    fn fetch_directive(&mut self) -> R<()> {
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let start = self.mark;
        self.skip_non_blank();
        let name_mark = self.mark;
        let mut name = String::new();
        while is_alpha(self.b0()) {
            self.push_cur(&mut name);
        }
        if name.is_empty() {
            return Err(self.fail(name_mark, "could not find expected directive name"));
        }
        if !is_blankz(self.b0()) {
            return Err(self.fail(name_mark, "found unexpected non-alphabetical character"));
        }
        let tok = match name.as_str() {
            "YAML" => {
                self.skip_blanks();
                self.version_number(start)?;
                if self.b0() != b'.' {
                    return Err(self.fail(start, "did not find expected digit or '.' character"));
                }
                self.skip_non_blank();
                self.version_number(start)?;
                Tok::VersionDirective
            }
            "TAG" => {
                self.skip_blanks();
                let handle = self.scan_tag_handle(true, start)?;
                self.skip_blanks();
                let prefix = self.scan_tag_prefix(start)?;
                if !is_blankz(self.b0()) {
                    return Err(self.fail(start, "did not find expected whitespace or line break"));
                }
                Tok::TagDirective(handle, prefix)
            }
            // An unknown directive is skipped (yaml-rust2 makes it an empty %TAG).
            _ => {
                self.skip_comment();
                Tok::TagDirective(String::new(), String::new())
            }
        };
        self.skip_ws_to_eol(true)?;
        if !is_breakz(self.b0()) {
            return Err(self.fail(start, "did not find expected comment or line break"));
        }
        self.skip_linebreak();
        self.push(start, tok);
        Ok(())
    }

    fn skip_blanks(&mut self) {
        while is_blank(self.b0()) {
            self.skip_blank();
        }
    }

    fn version_number(&mut self, start: Marker) -> R<()> {
        let mut len = 0;
        while self.b0().is_ascii_digit() {
            if len == 9 {
                return Err(self.fail(start, "found extremely long version number"));
            }
            len += 1;
            self.skip_non_blank();
        }
        if len == 0 {
            return Err(self.fail(start, "did not find expected version number"));
        }
        Ok(())
    }

    fn scan_tag_handle(&mut self, directive: bool, mark: Marker) -> R<String> {
        if self.b0() != b'!' {
            return Err(self.fail(mark, "did not find expected '!'"));
        }
        let mut s = String::new();
        self.push_cur(&mut s);
        while is_alpha(self.b0()) {
            self.push_cur(&mut s);
        }
        if self.b0() == b'!' {
            self.push_cur(&mut s);
        } else if directive && s != "!" {
            return Err(self.fail(mark, "did not find expected '!'"));
        }
        Ok(s)
    }

    fn scan_tag_prefix(&mut self, mark: Marker) -> R<String> {
        let mut s = String::new();
        let c = self.b0();
        if c == b'!' {
            self.push_cur(&mut s);
        } else if !is_tag_char(c) {
            return Err(self.fail(mark, "invalid global tag character"));
        }
        self.scan_uri(&mut s, mark, is_uri)?;
        Ok(s)
    }

    /// Appends URI characters (`ok`), decoding `%` escapes.
    fn scan_uri(&mut self, s: &mut String, mark: Marker, ok: fn(u8) -> bool) -> R<usize> {
        let mut n = 0;
        while ok(self.b0()) {
            if self.b0() == b'%' {
                s.push(self.uri_escape(mark)?);
            } else {
                self.push_cur(s);
            }
            n += 1;
        }
        Ok(n)
    }

    /// `%XX` octets of one character. Like yaml-rust2, the octets are joined as the
    /// code point (so `%C3%A9` is U+C3A9): tags are only compared, never shown.
    fn uri_escape(&mut self, mark: Marker) -> R<char> {
        let mut width = 0u32;
        let mut code = 0u32;
        loop {
            let (Some(h), Some(l)) = (hex(self.at(1)), hex(self.at(2))) else {
                return Err(self.fail(mark, "did not find URI escaped octet"));
            };
            if self.b0() != b'%' {
                return Err(self.fail(mark, "did not find URI escaped octet"));
            }
            let octet = (h << 4) + l;
            if width == 0 {
                let ones = (octet as u8).leading_ones();
                width = match ones {
                    0 => 1,
                    2..=4 => ones,
                    _ => {
                        return Err(self.fail(mark, "found an incorrect leading UTF-8 octet"));
                    }
                };
                code = octet;
            } else {
                if octet & 0xc0 != 0x80 {
                    return Err(self.fail(mark, "found an incorrect trailing UTF-8 octet"));
                }
                code = (code << 8) + octet;
            }
            self.skip_n(3);
            width -= 1;
            if width == 0 {
                break;
            }
        }
        match char::from_u32(code) {
            Some(c) => Ok(c),
            None => Err(self.fail(mark, "found an invalid UTF-8 codepoint")),
        }
    }

    fn scan_tag(&mut self) -> R<(Marker, Tok)> {
        let start = self.mark;
        let mut handle = String::new();
        let mut suffix = String::new();
        if self.at(1) == b'<' {
            self.skip_n(2);
            self.scan_uri(&mut suffix, start, is_uri)?;
            if self.b0() != b'>' {
                return Err(self.fail(start, "did not find the expected '>'"));
            }
            self.skip_non_blank();
        } else {
            handle = self.scan_tag_handle(false, start)?;
            if handle.len() >= 2 && handle.ends_with('!') {
                // `!!str`, `!e!x`: a handle and a suffix.
                if self.scan_uri(&mut suffix, start, is_tag_char)? == 0 {
                    return Err(self.fail(start, "did not find expected tag URI"));
                }
            } else {
                // `!foo`: the local handle `!`; a lone `!` is the non-specific tag.
                suffix.push_str(&handle[1..]);
                self.scan_uri(&mut suffix, start, is_tag_char)?;
                handle = String::from("!");
                if suffix.is_empty() {
                    handle.clear();
                    suffix.push('!');
                }
            }
        }
        let c = self.b0();
        if is_blankz(c) || (self.flow_level > 0 && is_flow(c)) {
            Ok((start, Tok::Tag(handle, suffix)))
        } else {
            Err(self.fail(start, "did not find expected whitespace or line break"))
        }
    }

    fn scan_anchor(&mut self, alias: bool) -> R<(Marker, Tok)> {
        let start = self.mark;
        self.skip_non_blank();
        let mut s = String::new();
        while !is_blankz(self.b0()) && !is_flow(self.b0()) && !self.is_bom() {
            self.push_cur(&mut s);
        }
        if s.is_empty() {
            return Err(self.fail(
                start,
                "did not find expected alphabetic or numeric character",
            ));
        }
        Ok((start, if alias { Tok::Alias(s) } else { Tok::Anchor(s) }))
    }

    fn fetch_flow_start(&mut self, tok: Tok) -> R<()> {
        self.save_simple_key();
        self.roll_one_col_indent();
        self.simple_keys.push(NO_KEY);
        let Some(level) = self.flow_level.checked_add(1) else {
            return Err(self.fail(self.mark, "recursion limit exceeded"));
        };
        self.flow_level = level;
        self.simple_key_allowed = true;
        let start = self.mark;
        self.skip_non_blank();
        if matches!(tok, Tok::FlowMappingStart) {
            self.flow_mapping_started = true;
        }
        self.skip_ws_to_eol(true)?;
        self.push(start, tok);
        Ok(())
    }

    fn fetch_flow_end(&mut self, tok: Tok) -> R<()> {
        self.remove_simple_key()?;
        if self.flow_level > 0 {
            self.flow_level -= 1;
            self.simple_keys.pop();
        }
        self.simple_key_allowed = false;
        self.end_implicit_mapping();
        let start = self.mark;
        self.skip_non_blank();
        self.skip_ws_to_eol(true)?;
        // A flow collection may be a key in a flow mapping, its `:` right after it.
        if self.flow_level > 0 {
            self.adjacent_value_allowed_at = self.mark.index;
        }
        self.push(start, tok);
        Ok(())
    }

    fn fetch_flow_entry(&mut self) -> R<()> {
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        self.end_implicit_mapping();
        let start = self.mark;
        self.skip_non_blank();
        self.skip_ws_to_eol(true)?;
        self.push(start, Tok::FlowEntry);
        Ok(())
    }

    fn fetch_block_entry(&mut self) -> R<()> {
        if self.flow_level > 0 {
            return Err(self.fail(self.mark, "\"-\" is only valid inside a block"));
        }
        if !self.simple_key_allowed {
            return Err(self.fail(
                self.mark,
                "block sequence entries are not allowed in this context",
            ));
        }
        if let Some((m, Tok::Anchor(_) | Tok::Tag(..))) = self.tokens.last()
            && self.mark.col == 0
            && m.col == 0
            && self.indent > -1
        {
            return Err(self.fail(*m, "invalid indentation for anchor"));
        }
        let mark = self.mark;
        self.skip_non_blank();
        self.roll_indent(mark.col, None, Tok::BlockSequenceStart, mark);
        let (tabs, _) = self.skip_ws_to_eol(true)?;
        if tabs && self.b0() == b'-' && is_blankz(self.at(1)) {
            return Err(self.fail(self.mark, "'-' must be followed by a valid YAML whitespace"));
        }
        self.skip_ws_to_eol(false)?;
        if is_break(self.b0()) || is_flow(self.b0()) {
            self.roll_one_col_indent();
        }
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        self.push(self.mark, Tok::BlockEntry);
        Ok(())
    }

    fn fetch_document_indicator(&mut self, tok: Tok) -> R<()> {
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let mark = self.mark;
        self.skip_n(3);
        self.push(mark, tok);
        Ok(())
    }

    fn scan_block_scalar(&mut self, literal: bool) -> R<(Marker, Tok)> {
        let mut start = self.mark;
        // -1 strip, 0 clip, 1 keep.
        let mut chomp = 0i8;
        let mut increment = 0usize;
        let mut s = String::new();
        let mut leading_break = String::new();
        let mut trailing = String::new();
        let mut chomp_break = String::new();
        self.skip_non_blank();
        self.unroll_non_block_indents();
        const ZERO: &str = "found an indentation indicator equal to 0";
        let c = self.b0();
        if c == b'+' || c == b'-' {
            chomp = if c == b'+' { 1 } else { -1 };
            self.skip_non_blank();
            if self.b0().is_ascii_digit() {
                if self.b0() == b'0' {
                    return Err(self.fail(start, ZERO));
                }
                increment = usize::from(self.b0() - b'0');
                self.skip_non_blank();
            }
        } else if c.is_ascii_digit() {
            if c == b'0' {
                return Err(self.fail(start, ZERO));
            }
            increment = usize::from(c - b'0');
            self.skip_non_blank();
            let c = self.b0();
            if c == b'+' || c == b'-' {
                chomp = if c == b'+' { 1 } else { -1 };
                self.skip_non_blank();
            }
        }
        self.skip_ws_to_eol(true)?;
        if !is_breakz(self.b0()) {
            return Err(self.fail(start, "did not find expected comment or line break"));
        }
        if is_break(self.b0()) {
            self.read_break(&mut chomp_break);
        }
        if self.b0() == b'\t' {
            return Err(self.fail(start, "a block scalar content cannot start with a tab"));
        }
        let mut indent = 0usize;
        if increment > 0 {
            indent = if self.indent >= 0 {
                self.indent as usize + increment
            } else {
                increment
            };
        }
        if indent == 0 {
            // The first non-empty line sets the indentation.
            let mut max = 0;
            loop {
                while self.b0() == b' ' {
                    self.skip_blank();
                }
                max = max.max(self.mark.col);
                if !is_break(self.b0()) {
                    break;
                }
                self.read_break(&mut trailing);
            }
            indent = max.max((self.indent + 1) as usize);
            if self.indent > 0 {
                indent = indent.max(1);
            }
        } else {
            self.block_indent(indent, &mut trailing);
        }
        let style = if literal {
            Style::Literal
        } else {
            Style::Folded
        };
        if self.b0() == 0 {
            let text = match chomp {
                -1 => String::new(),
                _ if self.mark.line == start.line => String::new(),
                0 => chomp_break,
                _ if trailing.is_empty() => chomp_break,
                _ => trailing,
            };
            return Ok((start, Tok::Scalar(style, text)));
        }
        if self.mark.col < indent && (self.mark.col as isize) > self.indent {
            return Err(self.fail(self.mark, "wrongly indented line in block scalar"));
        }
        start = self.mark;
        let mut leading_blank = false;
        while self.mark.col == indent && self.b0() != 0 {
            if indent == 0 && self.at_indicator(b'.') {
                break;
            }
            let trailing_blank = is_blank(self.b0());
            if !literal && !leading_break.is_empty() && !leading_blank && !trailing_blank {
                s.push_str(&trailing);
                if trailing.is_empty() {
                    s.push(' ');
                }
            } else {
                s.push_str(&leading_break);
                s.push_str(&trailing);
            }
            leading_break.clear();
            trailing.clear();
            leading_blank = is_blank(self.b0());
            // The rest of the line, as it is.
            let rest = self.text.as_bytes().get(self.pos..).unwrap_or_default();
            let len = rest
                .iter()
                .position(|&b| is_breakz(b))
                .unwrap_or(rest.len());
            let line = self.text.get(self.pos..self.pos + len).unwrap_or_default();
            s.push_str(line);
            let chars = line.bytes().filter(|b| b & 0xc0 != 0x80).count();
            self.pos += len;
            self.mark.index += chars;
            self.mark.col += chars;
            if self.b0() == 0 {
                break;
            }
            self.read_break(&mut leading_break);
            self.block_indent(indent, &mut trailing);
        }
        if chomp != -1 {
            s.push_str(&leading_break);
            if self.b0() == 0 && self.mark.col >= indent.max(1) {
                s.push('\n');
            }
        }
        if chomp == 1 {
            s.push_str(&trailing);
        }
        Ok((start, Tok::Scalar(style, s)))
    }

    /// Skips a block scalar's indentation and its empty lines.
    fn block_indent(&mut self, indent: usize, breaks: &mut String) {
        loop {
            while self.mark.col < indent && self.b0() == b' ' {
                self.skip_blank();
            }
            if !is_break(self.b0()) {
                return;
            }
            self.read_break(breaks);
        }
    }

    fn scan_flow_scalar(&mut self, single: bool) -> R<(Marker, Tok)> {
        let start = self.mark;
        let mut s = String::new();
        let mut leading_break = String::new();
        let mut trailing = String::new();
        let mut spaces = String::new();
        let quote = if single { b'\'' } else { b'"' };
        self.skip_non_blank();
        loop {
            if self.at_document_indicator() {
                return Err(self.fail(start, "found unexpected document indicator"));
            }
            if self.b0() == 0 {
                return Err(self.fail(start, "found unexpected end of stream"));
            }
            if (self.mark.col as isize) < self.indent {
                return Err(self.fail(start, "invalid indentation in quoted scalar"));
            }
            let mut leading_blanks = false;
            while !is_blankz(self.b0()) {
                let (c, n) = (self.b0(), self.at(1));
                if single && c == b'\'' && n == b'\'' {
                    s.push('\'');
                    self.skip_n(2);
                } else if c == quote {
                    break;
                } else if !single && c == b'\\' && is_break(n) {
                    // An escaped line break: the lines join without a space.
                    self.skip_non_blank();
                    self.skip_linebreak();
                    leading_blanks = true;
                    break;
                } else if !single && c == b'\\' {
                    s.push(self.escape(start)?);
                } else {
                    // Up to a blank, a quote or (double-quoted) a backslash.
                    let esc = if single { 0 } else { b'\\' };
                    s.push_str(self.run(|c, _| !is_blankz(c) && c != quote && c != esc));
                }
            }
            if self.b0() == quote {
                break;
            }
            while is_blank(self.b0()) || is_break(self.b0()) {
                if is_blank(self.b0()) {
                    if !leading_blanks {
                        spaces.push(self.b0() as char);
                    } else if self.b0() == b'\t' && (self.mark.col as isize) < self.indent {
                        return Err(
                            self.fail(self.mark, "found a tab character that violates indentation")
                        );
                    }
                    self.skip_blank();
                } else if leading_blanks {
                    self.read_break(&mut trailing);
                } else {
                    spaces.clear();
                    self.read_break(&mut leading_break);
                    leading_blanks = true;
                }
            }
            if !leading_blanks {
                s.push_str(&spaces);
                spaces.clear();
            } else {
                fold(&mut s, &mut leading_break, &mut trailing);
            }
        }
        self.skip_non_blank();
        self.skip_ws_to_eol(true)?;
        let c = self.b0();
        let ok = match c {
            b',' | b'}' | b']' => self.flow_level > 0,
            b':' => self.flow_level > 0 || start.line == self.mark.line,
            _ => is_breakz(c),
        };
        if !ok {
            return Err(self.fail(
                self.mark,
                "invalid trailing content after double-quoted scalar",
            ));
        }
        let style = if single {
            Style::SingleQuoted
        } else {
            Style::DoubleQuoted
        };
        Ok((start, Tok::Scalar(style, s)))
    }

    fn escape(&mut self, start: Marker) -> R<char> {
        let mut len = 0;
        let c = match self.at(1) {
            b'0' => '\0',
            b'a' => '\x07',
            b'b' => '\x08',
            b't' | b'\t' => '\t',
            b'n' => '\n',
            b'v' => '\x0b',
            b'f' => '\x0c',
            b'r' => '\r',
            b'e' => '\x1b',
            b' ' => ' ',
            b'"' => '"',
            b'/' => '/',
            b'\\' => '\\',
            b'N' => '\u{85}',
            b'_' => '\u{a0}',
            b'L' => '\u{2028}',
            b'P' => '\u{2029}',
            b'x' => {
                len = 2;
                '\0'
            }
            b'u' => {
                len = 4;
                '\0'
            }
            b'U' => {
                len = 8;
                '\0'
            }
            _ => {
                return Err(self.fail(start, "found unknown escape character"));
            }
        };
        self.skip_n(2);
        if len == 0 {
            return Ok(c);
        }
        let mut v = 0u32;
        for i in 0..len {
            let Some(d) = hex(self.at(i)) else {
                return Err(self.fail(start, "did not find expected hexadecimal number"));
            };
            v = (v << 4) + d;
        }
        let Some(c) = char::from_u32(v) else {
            return Err(self.fail(start, "found invalid Unicode character escape code"));
        };
        self.skip_n(len);
        Ok(c)
    }

    /// Whether the current character continues a plain scalar.
    fn plain_continues(&self) -> bool {
        let flow = self.flow_level > 0;
        match self.b0() {
            b':' => !(is_blankz(self.at(1)) || (flow && is_flow(self.at(1)))),
            c => !(flow && is_flow(c)),
        }
    }

    fn scan_plain_scalar(&mut self) -> R<(Marker, Tok)> {
        self.unroll_non_block_indents();
        let indent = self.indent + 1;
        let start = self.mark;
        let flow = self.flow_level > 0;
        if flow && (start.col as isize) < indent {
            return Err(self.fail(start, "invalid indentation in flow construct"));
        }
        let mut s = String::new();
        let mut leading_break = String::new();
        let mut trailing = String::new();
        let mut spaces = String::new();
        loop {
            if self.at_document_indicator() || self.b0() == b'#' {
                break;
            }
            if flow && self.b0() == b'-' && is_flow(self.at(1)) {
                return Err(self.fail(
                    self.mark,
                    "plain scalar cannot start with '-' followed by ,[]{}",
                ));
            }
            if !is_blankz(self.b0()) && self.plain_continues() {
                if self.leading_ws {
                    fold(&mut s, &mut leading_break, &mut trailing);
                    self.leading_ws = false;
                } else {
                    s.push_str(&spaces);
                    spaces.clear();
                }
                // Up to a blank, `: `, or (in a flow collection) `,[]{}` or `:` before one.
                let ends = |c| is_blankz(c) || (flow && is_flow(c));
                s.push_str(self.run(|c, n| !(ends(c) || (c == b':' && ends(n)))));
            }
            if !is_blank(self.b0()) && !is_break(self.b0()) {
                break;
            }
            while is_blank(self.b0()) || is_break(self.b0()) {
                if is_blank(self.b0()) {
                    if !self.leading_ws {
                        spaces.push(self.b0() as char);
                        self.skip_blank();
                    } else if (self.mark.col as isize) < indent && self.b0() == b'\t' {
                        // A tab in the indentation is allowed on an empty line only.
                        self.skip_ws_to_eol(true)?;
                        if !is_breakz(self.b0()) {
                            return Err(
                                self.fail(start, "found a tab character that violates indentation")
                            );
                        }
                    } else {
                        self.skip_blank();
                    }
                } else if self.leading_ws {
                    self.read_break(&mut trailing);
                } else {
                    spaces.clear();
                    self.read_break(&mut leading_break);
                    self.leading_ws = true;
                }
            }
            if !flow && (self.mark.col as isize) < indent {
                break;
            }
        }
        if self.leading_ws {
            self.simple_key_allowed = true;
        }
        Ok((start, Tok::Scalar(Style::Plain, s)))
    }

    fn fetch_key(&mut self) -> R<()> {
        let start = self.mark;
        let block = self.flow_level == 0;
        if block {
            if !self.simple_key_allowed {
                return Err(self.fail(self.mark, "mapping keys are not allowed in this context"));
            }
            self.roll_indent(start.col, None, Tok::BlockMappingStart, start);
        } else {
            self.flow_mapping_started = true;
        }
        self.remove_simple_key()?;
        self.simple_key_allowed = block;
        self.skip_non_blank();
        // At least one space or line break after `?`.
        let mut ws = false;
        loop {
            match self.b0() {
                b' ' => self.skip_blank(),
                b'\n' | b'\r' => {
                    self.skip_linebreak();
                    if block {
                        self.simple_key_allowed = true;
                    }
                }
                b'#' => {
                    self.skip_comment();
                    continue;
                }
                _ => break,
            }
            ws = true;
        }
        if !ws {
            return Err(self.fail(self.mark, "expected whitespace"));
        }
        if self.b0() == b'\t' {
            return Err(self.fail(self.mark, "tabs disallowed in this context"));
        }
        self.push(start, Tok::Key);
        Ok(())
    }

    fn fetch_value(&mut self) -> R<()> {
        let sk = *self.simple_keys.last().unwrap_or(&NO_KEY);
        let start = self.mark;
        let block = self.flow_level == 0;
        self.implicit_flow_mapping = !block && !self.flow_mapping_started;
        self.skip_non_blank();
        if self.b0() == b'\t' {
            let (_, ws) = self.skip_ws_to_eol(true)?;
            if !ws && (self.b0() == b'-' || is_alpha(self.b0())) {
                return Err(self.fail(self.mark, "':' must be followed by a valid YAML whitespace"));
            }
        }
        if sk.possible {
            // The simple key is a key: add KEY (and block or implicit flow mapping
            // starts) before its first token.
            self.insert(sk.token_number, sk.mark, Tok::Key);
            if self.implicit_flow_mapping {
                if sk.mark.line < start.line {
                    return Err(self.fail(start, "illegal placement of ':' indicator"));
                }
                self.insert(sk.token_number, self.mark, Tok::FlowMappingStart);
            }
            self.roll_indent(
                sk.mark.col,
                Some(sk.token_number),
                Tok::BlockMappingStart,
                start,
            );
            self.roll_one_col_indent();
            if let Some(k) = self.simple_keys.last_mut() {
                k.possible = false;
            }
            self.simple_key_allowed = false;
        } else {
            if self.implicit_flow_mapping {
                self.push(self.mark, Tok::FlowMappingStart);
            }
            if block {
                if !self.simple_key_allowed {
                    return Err(self.fail(start, "mapping values are not allowed in this context"));
                }
                self.roll_indent(start.col, None, Tok::BlockMappingStart, start);
            }
            self.roll_one_col_indent();
            self.simple_key_allowed = block;
        }
        self.push(start, Tok::Value);
        Ok(())
    }

    fn roll_indent(&mut self, col: usize, number: Option<usize>, tok: Tok, mark: Marker) {
        if self.flow_level > 0 {
            return;
        }
        let col = col as isize;
        if self.indent <= col
            && let Some(&(prev, false)) = self.indents.last()
        {
            // A one-column indent set up in case: it is a block after all.
            self.indent = prev;
            self.indents.pop();
        }
        if self.indent < col {
            self.indents.push((self.indent, true));
            self.indent = col;
            match number {
                Some(n) => self.insert(n, mark, tok),
                None => self.push(mark, tok),
            }
        }
    }

    fn unroll_indent(&mut self, col: isize) {
        if self.flow_level > 0 {
            return;
        }
        while self.indent > col {
            let Some((prev, block)) = self.indents.pop() else {
                break;
            };
            self.indent = prev;
            if block {
                self.push(self.mark, Tok::BlockEnd);
            }
        }
    }

    fn roll_one_col_indent(&mut self) {
        if self.flow_level == 0 && matches!(self.indents.last(), Some((_, true))) {
            self.indents.push((self.indent, false));
            self.indent += 1;
        }
    }

    fn unroll_non_block_indents(&mut self) {
        while let Some(&(prev, false)) = self.indents.last() {
            self.indent = prev;
            self.indents.pop();
        }
    }

    fn save_simple_key(&mut self) {
        if !self.simple_key_allowed {
            return;
        }
        let required = self.flow_level == 0
            && self.indent == self.mark.col as isize
            && matches!(self.indents.last(), Some((_, true)));
        let k = SimpleKey {
            possible: true,
            required,
            token_number: self.tokens_parsed + self.queued(),
            mark: self.mark,
        };
        if let Some(last) = self.simple_keys.last_mut() {
            *last = k;
        }
    }

    fn remove_simple_key(&mut self) -> R<()> {
        let mark = self.mark;
        if let Some(k) = self.simple_keys.last_mut() {
            if k.possible && k.required {
                return Err(self.fail(mark, "could not find expected ':'"));
            }
            k.possible = false;
        }
        Ok(())
    }

    fn end_implicit_mapping(&mut self) {
        if self.implicit_flow_mapping {
            self.implicit_flow_mapping = false;
            self.flow_mapping_started = false;
            self.push(self.mark, Tok::FlowMappingEnd);
        }
    }
}

/// What the parser reads next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    StreamStart,
    /// Before a document; `true` when it may start without `---`.
    DocumentStart(bool),
    DocumentContent,
    DocumentEnd,
    BlockNode,
    /// A block mapping's key; `true` before the first.
    BlockMappingKey(bool),
    BlockMappingValue,
    BlockSequenceEntry(bool),
    /// An entry of a sequence at its parent key's indentation (`key:\n- a`).
    IndentlessEntry,
    FlowSequenceEntry(bool),
    /// `[a: b]`, `[? a : b]`: a one-pair mapping in a flow sequence.
    FlowPairKey,
    FlowPairValue,
    FlowPairEnd,
    FlowMappingKey(bool),
    FlowMappingValue,
    /// After a flow mapping key without `:`.
    FlowMappingEmptyValue,
    End,
}

/// The parser: tokens to events, one at a time, with a stack of what comes after the
/// node being read.
pub(crate) struct Parser<'a> {
    scanner: Scanner<'a>,
    token: Option<(Marker, Tok)>,
    state: State,
    states: Vec<State>,
    /// Open collections.
    depth: usize,
    /// Anchor names and their latest ids, sorted by name (binary search: std's
    /// `BTreeMap<String, usize>` cost 920 B gz in the engine module). Inserting a new
    /// name shifts the names after it, so the names are limited to [`MAX_ANCHORS`].
    anchors: Vec<(String, usize)>,
    next_anchor: usize,
    /// The document's `%TAG` handle and prefix (the last directive wins).
    tag_directive: Option<(String, String)>,
}

type Ev = R<(Event, Marker)>;

fn empty(m: Marker) -> Ev {
    Ok((Event::Scalar(String::new(), Style::Plain, 0, None), m))
}

impl<'a> Parser<'a> {
    pub(crate) fn new_from_str(text: &'a str) -> Self {
        Parser {
            scanner: Scanner::new(text),
            token: None,
            state: State::StreamStart,
            states: Vec::new(),
            depth: 0,
            anchors: Vec::new(),
            next_anchor: 1,
            tag_directive: None,
        }
    }

    /// The next event and its place; after an error, the same error again.
    pub(crate) fn next_token(&mut self) -> Result<(Event, Marker), ScanError> {
        let r = self.step();
        match (&self.scanner.error, r) {
            (Some(e), _) => Err(e.clone()),
            (None, Ok(ev)) => Ok(ev),
            // Not reached: every stop records its error first.
            (None, Err(Halt)) => Err(ScanError {
                mark: self.scanner.mark,
                info: "unexpected eof",
            }),
        }
    }

    fn step(&mut self) -> Ev {
        if self.scanner.error.is_some() {
            return Err(Halt);
        }
        match self.state {
            State::StreamStart => {
                self.peek()?;
                let m = self.take().0;
                self.state = State::DocumentStart(true);
                Ok((Event::StreamStart, m))
            }
            State::DocumentStart(implicit) => self.document_start(implicit),
            State::DocumentContent => {
                let (m, t) = self.look()?;
                if matches!(
                    t,
                    Tok::VersionDirective
                        | Tok::TagDirective(..)
                        | Tok::DocumentStart
                        | Tok::DocumentEnd
                        | Tok::StreamEnd
                ) {
                    self.pop_state();
                    empty(m)
                } else {
                    self.node(true, false)
                }
            }
            State::DocumentEnd => self.document_end(),
            State::BlockNode => self.node(true, false),
            State::BlockMappingKey(first) => self.block_mapping_key(first),
            State::BlockMappingValue => {
                let (m, t) = self.look()?;
                let value = matches!(t, Tok::Value);
                self.state = State::BlockMappingKey(false);
                if !value {
                    return empty(m);
                }
                self.skip();
                self.block_value(true)
            }
            State::BlockSequenceEntry(first) => {
                if first {
                    self.skip();
                }
                let (m, t) = self.look()?;
                match t {
                    Tok::BlockEnd => {
                        self.skip();
                        self.end(Event::SequenceEnd, m)
                    }
                    Tok::BlockEntry => {
                        self.skip();
                        self.state = State::BlockSequenceEntry(false);
                        self.block_value(false)
                    }
                    _ => Err(self.scanner.fail(m, "did not find expected '-' indicator")),
                }
            }
            State::IndentlessEntry => {
                let (m, t) = self.look()?;
                if !matches!(t, Tok::BlockEntry) {
                    return self.end(Event::SequenceEnd, m);
                }
                self.skip();
                let (m, t) = self.look()?;
                if matches!(t, Tok::BlockEntry | Tok::Key | Tok::Value | Tok::BlockEnd) {
                    return empty(m);
                }
                self.states.push(State::IndentlessEntry);
                self.node(true, false)
            }
            State::FlowSequenceEntry(first) => self.flow_sequence_entry(first),
            State::FlowPairKey => {
                let (m, t) = self.look()?;
                if matches!(t, Tok::Value | Tok::FlowEntry | Tok::FlowSequenceEnd) {
                    // yaml-rust2 steps over this token.
                    self.skip();
                    self.state = State::FlowPairValue;
                    return empty(m);
                }
                self.states.push(State::FlowPairValue);
                self.node(false, false)
            }
            State::FlowPairValue => {
                let (m, t) = self.look()?;
                let value = matches!(t, Tok::Value);
                self.state = State::FlowPairEnd;
                if !value {
                    return empty(m);
                }
                self.skip();
                let (m, t) = self.look()?;
                if matches!(t, Tok::FlowEntry | Tok::FlowSequenceEnd) {
                    return empty(m);
                }
                self.states.push(State::FlowPairEnd);
                self.node(false, false)
            }
            State::FlowPairEnd => {
                self.state = State::FlowSequenceEntry(false);
                self.depth -= 1;
                Ok((Event::MappingEnd, self.scanner.mark))
            }
            State::FlowMappingKey(first) => self.flow_mapping_key(first),
            State::FlowMappingValue => {
                let (m, t) = self.look()?;
                let value = matches!(t, Tok::Value);
                self.state = State::FlowMappingKey(false);
                if value {
                    self.skip();
                    if !matches!(self.look()?.1, Tok::FlowEntry | Tok::FlowMappingEnd) {
                        self.states.push(State::FlowMappingKey(false));
                        return self.node(false, false);
                    }
                }
                empty(m)
            }
            State::FlowMappingEmptyValue => {
                let m = self.look()?.0;
                self.state = State::FlowMappingKey(false);
                empty(m)
            }
            State::End => Ok((Event::StreamEnd, self.scanner.mark)),
        }
    }

    fn peek(&mut self) -> R<&(Marker, Tok)> {
        if self.token.is_none() {
            self.token = Some(self.scanner.next()?);
        }
        Ok(self
            .token
            .as_ref()
            .unwrap_or(&(Marker::DEFAULT, Tok::StreamEnd)))
    }

    /// The next token's mark and kind (for matching).
    #[inline(never)]
    fn look(&mut self) -> R<(Marker, &Tok)> {
        let (m, t) = self.peek()?;
        Ok((*m, t))
    }

    fn take(&mut self) -> (Marker, Tok) {
        self.token
            .take()
            .unwrap_or((Marker::DEFAULT, Tok::StreamEnd))
    }

    fn skip(&mut self) {
        self.token = None;
    }

    fn pop_state(&mut self) {
        self.state = self.states.pop().unwrap_or(State::End);
    }

    /// A collection's end: back to what follows it.
    fn end(&mut self, e: Event, m: Marker) -> Ev {
        self.pop_state();
        self.depth -= 1;
        Ok((e, m))
    }

    fn document_start(&mut self, implicit: bool) -> Ev {
        while matches!(self.look()?.1, Tok::DocumentEnd) {
            self.skip();
        }
        let (m, t) = self.look()?;
        match t {
            Tok::StreamEnd => {
                self.state = State::End;
                self.skip();
                return Ok((Event::StreamEnd, m));
            }
            Tok::VersionDirective | Tok::TagDirective(..) | Tok::DocumentStart => {}
            _ if implicit => {
                self.states.push(State::DocumentEnd);
                self.state = State::BlockNode;
                return Ok((Event::DocumentStart, m));
            }
            _ => {}
        }
        // An explicit document: directives, then `---`.
        let mut version = false;
        loop {
            let (m, t) = self.look()?;
            match t {
                Tok::VersionDirective => {
                    if version {
                        return Err(self.scanner.fail(m, "duplicate version directive"));
                    }
                    version = true;
                    self.tag_directive = None;
                }
                Tok::TagDirective(h, p) => self.tag_directive = Some((h.clone(), p.clone())),
                _ => break,
            }
            self.skip();
        }
        let (m, t) = self.look()?;
        if !matches!(t, Tok::DocumentStart) {
            return Err(self
                .scanner
                .fail(m, "did not find expected <document start>"));
        }
        self.states.push(State::DocumentEnd);
        self.state = State::DocumentContent;
        self.skip();
        Ok((Event::DocumentStart, m))
    }

    fn document_end(&mut self) -> Ev {
        let (m, t) = self.look()?;
        let explicit = matches!(t, Tok::DocumentEnd);
        if explicit {
            self.skip();
        }
        self.tag_directive = None;
        if !explicit {
            let (dm, t) = self.look()?;
            if matches!(t, Tok::VersionDirective | Tok::TagDirective(..)) {
                return Err(self
                    .scanner
                    .fail(dm, "missing explicit document end marker before directive"));
            }
        }
        self.state = State::DocumentStart(explicit);
        Ok((Event::DocumentEnd, m))
    }

    fn find_anchor(&self, name: &str) -> Result<usize, usize> {
        self.anchors.binary_search_by(|a| a.0.as_str().cmp(name))
    }

    fn resolve_tag(&mut self, mark: Marker, handle: String, suffix: String) -> R<Tag> {
        let declared = match &self.tag_directive {
            Some((h, p)) if *h == handle => Some(p.clone()),
            _ => None,
        };
        let handle = match declared {
            Some(prefix) => prefix,
            None if handle == "!!" => String::from("tag:yaml.org,2002:"),
            None if handle.len() >= 2 && handle.starts_with('!') && handle.ends_with('!') => {
                return Err(self.scanner.fail(mark, "the handle wasn't declared"));
            }
            None => handle,
        };
        Ok(Tag { handle, suffix })
    }

    /// A node's first event, with its properties; a collection's state follows it.
    fn node(&mut self, block: bool, indentless: bool) -> Ev {
        let mut anchor = 0;
        let mut tag = None;
        let (m, t) = self.look()?;
        match t {
            Tok::Alias(_) => {
                self.pop_state();
                let Tok::Alias(name) = self.take().1 else {
                    return Err(Halt);
                };
                let Ok(i) = self.find_anchor(&name) else {
                    return Err(self.scanner.fail(m, "found undefined alias"));
                };
                return Ok((Event::Alias(self.anchors[i].1), m));
            }
            Tok::Anchor(_) | Tok::Tag(..) => {
                // An anchor and a tag, in either order.
                let first_is_anchor = matches!(t, Tok::Anchor(_));
                for i in 0..2 {
                    let (mk, t) = self.look()?;
                    let want_anchor = first_is_anchor == (i == 0);
                    match t {
                        Tok::Anchor(_) if want_anchor => {
                            if let Tok::Anchor(name) = self.take().1 {
                                anchor = self.next_anchor;
                                self.next_anchor += 1;
                                match self.find_anchor(&name) {
                                    Ok(i) => self.anchors[i].1 = anchor,
                                    Err(_) if self.anchors.len() >= MAX_ANCHORS => {
                                        return Err(self.scanner.fail(mk, "too many anchors"));
                                    }
                                    Err(i) => self.anchors.insert(i, (name, anchor)),
                                }
                            }
                        }
                        Tok::Tag(..) if !want_anchor => {
                            if let Tok::Tag(h, s) = self.take().1 {
                                // The mark of the node's first property.
                                tag = Some(self.resolve_tag(m, h, s)?);
                            }
                        }
                        _ => break,
                    }
                }
            }
            _ => {}
        }
        let (m, t) = self.look()?;
        let (map, state) = match t {
            Tok::BlockEntry if indentless => (false, State::IndentlessEntry),
            Tok::Scalar(..) => {
                self.pop_state();
                let (m, Tok::Scalar(style, v)) = self.take() else {
                    return Err(Halt);
                };
                return Ok((Event::Scalar(v, style, anchor, tag), m));
            }
            Tok::FlowSequenceStart => (false, State::FlowSequenceEntry(true)),
            Tok::FlowMappingStart => (true, State::FlowMappingKey(true)),
            Tok::BlockSequenceStart if block => (false, State::BlockSequenceEntry(true)),
            Tok::BlockMappingStart if block => (true, State::BlockMappingKey(true)),
            _ if tag.is_some() || anchor > 0 => {
                self.pop_state();
                return Ok((Event::Scalar(String::new(), Style::Plain, anchor, tag), m));
            }
            _ => return Err(self.scanner.fail(m, "did not find expected node content")),
        };
        self.open(m)?;
        self.state = state;
        if map {
            Ok((Event::MappingStart(anchor, tag), m))
        } else {
            Ok((Event::SequenceStart(anchor, tag), m))
        }
    }

    /// A collection starts: within [`MAX_NESTING`].
    fn open(&mut self, m: Marker) -> R<()> {
        if self.depth >= MAX_NESTING {
            return Err(self.scanner.fail(m, "recursion limit exceeded"));
        }
        self.depth += 1;
        Ok(())
    }

    /// A block mapping's value or a block sequence's entry, the indicator taken: empty
    /// before the next key, value or entry (`in_map`) or the collection's end.
    fn block_value(&mut self, in_map: bool) -> Ev {
        let (m, t) = self.look()?;
        let none = match t {
            Tok::BlockEntry => !in_map,
            Tok::Key | Tok::Value => in_map,
            Tok::BlockEnd => true,
            _ => false,
        };
        if none {
            return empty(m);
        }
        self.states.push(self.state);
        self.node(true, in_map)
    }

    fn block_mapping_key(&mut self, first: bool) -> Ev {
        if first {
            self.skip();
        }
        let (m, t) = self.look()?;
        match t {
            Tok::Key => {
                self.skip();
                self.state = State::BlockMappingValue;
                self.block_value(true)
            }
            Tok::Value => {
                self.state = State::BlockMappingValue;
                empty(m)
            }
            Tok::BlockEnd => {
                self.skip();
                self.end(Event::MappingEnd, m)
            }
            _ => Err(self.scanner.fail(m, "did not find expected key")),
        }
    }

    fn flow_sequence_entry(&mut self, first: bool) -> Ev {
        if first {
            self.skip();
        }
        let (m, t) = self.look()?;
        match t {
            Tok::FlowSequenceEnd => {
                self.skip();
                return self.end(Event::SequenceEnd, m);
            }
            Tok::FlowEntry if !first => self.skip(),
            _ if !first => return Err(self.scanner.fail(m, "did not find expected ',' or ']'")),
            _ => {}
        }
        let (m, t) = self.look()?;
        match t {
            Tok::FlowSequenceEnd => {
                self.skip();
                self.end(Event::SequenceEnd, m)
            }
            Tok::Key => {
                self.open(m)?;
                self.state = State::FlowPairKey;
                self.skip();
                Ok((Event::MappingStart(0, None), m))
            }
            _ => {
                self.states.push(State::FlowSequenceEntry(false));
                self.node(false, false)
            }
        }
    }

    fn flow_mapping_key(&mut self, first: bool) -> Ev {
        if first {
            self.skip();
        }
        let (end_mark, t) = self.look()?;
        if !matches!(t, Tok::FlowMappingEnd) {
            if !first {
                if matches!(t, Tok::FlowEntry) {
                    self.skip();
                } else {
                    return Err(self
                        .scanner
                        .fail(end_mark, "did not find expected ',' or '}'"));
                }
            }
            let (m, t) = self.look()?;
            match t {
                Tok::Key => {
                    self.skip();
                    let (m, t) = self.look()?;
                    if matches!(t, Tok::Value | Tok::FlowEntry | Tok::FlowMappingEnd) {
                        self.state = State::FlowMappingValue;
                        return empty(m);
                    }
                    self.states.push(State::FlowMappingValue);
                    return self.node(false, false);
                }
                Tok::Value => {
                    self.state = State::FlowMappingValue;
                    return empty(m);
                }
                Tok::FlowMappingEnd => {}
                _ => {
                    // A key without `:`: its value is empty.
                    self.states.push(State::FlowMappingEmptyValue);
                    return self.node(false, false);
                }
            }
        }
        self.skip();
        self.end(Event::MappingEnd, end_mark)
    }
}

impl Marker {
    const DEFAULT: Marker = Marker {
        index: 0,
        line: 0,
        col: 0,
    };
}

#[cfg(test)]
#[path = "yaml_events_differential.rs"]
mod differential;
