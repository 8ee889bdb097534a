//! A small, strict JSON scanner over bytes.
//!
//! Building a `serde_json::Value` tree costs about six times as much as scanning the
//! same bytes, and most of an AdmissionRequest (container specs, status, annotations) is
//! never looked at. The policy scans the request once, keeps the raw bytes of the parts
//! it needs ([`object_fields`]) and parses only those. The node-list reader uses the same
//! scanner. Everything that is not well-formed JSON is an error naming the byte offset.

use std::borrow::Cow;

/// Nesting limit for skipped values (serde_json's default is 128 as well).
pub(crate) const MAX_DEPTH: usize = 128;

/// The scanner state: input, position, and what is being read (for messages).
pub(crate) struct Reader<'a> {
    pub(crate) b: &'a [u8],
    pub(crate) i: usize,
    pub(crate) what: &'static str,
}

/// Scanner result; the error names the offset.
pub(crate) type R<T> = Result<T, String>;

impl<'a> Reader<'a> {
    pub(crate) fn err<T>(&self, problem: &str) -> R<T> {
        Err(format!(
            "cannot read {}: {problem} at byte {}",
            self.what, self.i
        ))
    }

    pub(crate) fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    pub(crate) fn ws(&mut self) {
        while let Some(c) = self.peek() {
            if matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
                self.i += 1;
            } else {
                break;
            }
        }
    }

    pub(crate) fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    pub(crate) fn expect(&mut self, c: u8) -> R<()> {
        if self.eat(c) {
            Ok(())
        } else {
            self.err(&format!("expected '{}'", c as char))
        }
    }

    pub(crate) fn literal(&mut self, word: &[u8]) -> R<()> {
        if self.b.get(self.i..self.i + word.len()) == Some(word) {
            self.i += word.len();
            Ok(())
        } else {
            self.err("invalid literal")
        }
    }

    /// A string; borrowed when it has no escapes.
    pub(crate) fn string(&mut self) -> R<Cow<'a, str>> {
        self.expect(b'"')?;
        let start = self.i;
        let mut owned: Option<Vec<u8>> = None;
        loop {
            let Some(c) = self.peek() else {
                return self.err("unterminated string");
            };
            match c {
                b'"' => {
                    let raw = self.b.get(start..self.i).unwrap_or(&[]);
                    self.i += 1;
                    return match owned {
                        None => std::str::from_utf8(raw)
                            .map(Cow::Borrowed)
                            .or_else(|_| self.err("invalid UTF-8")),
                        Some(buf) => String::from_utf8(buf)
                            .map(Cow::Owned)
                            .or_else(|_| self.err("invalid UTF-8")),
                    };
                }
                b'\\' => {
                    let buf = owned.get_or_insert_with(Vec::new);
                    if buf.is_empty() {
                        buf.extend_from_slice(self.b.get(start..self.i).unwrap_or(&[]));
                    }
                    self.i += 1;
                    let Some(esc) = self.peek() else {
                        return self.err("unterminated escape");
                    };
                    self.i += 1;
                    let ch = match esc {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => return self.err("invalid escape"),
                    };
                    let mut tmp = [0u8; 4];
                    if let Some(buf) = owned.as_mut() {
                        buf.extend_from_slice(ch.encode_utf8(&mut tmp).as_bytes());
                    }
                    // Keep copying from here on.
                    let resume = self.i;
                    let end = self.scan_plain();
                    if let Some(buf) = owned.as_mut() {
                        buf.extend_from_slice(self.b.get(resume..end).unwrap_or(&[]));
                    }
                }
                0..=0x1f => return self.err("control character in string"),
                _ => {
                    self.scan_plain();
                }
            }
        }
    }

    /// Advances over plain string bytes (no quote, backslash or control character),
    /// eight bytes at a time while it can.
    pub(crate) fn scan_plain(&mut self) -> usize {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGHS: u64 = 0x8080_8080_8080_8080;
        let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
        while let Some(chunk) = self.b.get(self.i..self.i + 8) {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            let x = u64::from_le_bytes(word);
            // A byte is special when it is '"', '\\' or below 0x20.
            let special = has_zero(x ^ (ONES * u64::from(b'"')))
                | has_zero(x ^ (ONES * u64::from(b'\\')))
                | (x.wrapping_sub(ONES * 0x20) & !x & HIGHS);
            if special != 0 {
                break;
            }
            self.i += 8;
        }
        while let Some(c) = self.peek() {
            if c == b'"' || c == b'\\' || c < 0x20 {
                break;
            }
            self.i += 1;
        }
        self.i
    }

    pub(crate) fn hex4(&mut self) -> R<u32> {
        let Some(digits) = self.b.get(self.i..self.i + 4) else {
            return self.err("short \\u escape");
        };
        // `from_str_radix` would also take a sign: check the digits first.
        if !digits.iter().all(u8::is_ascii_hexdigit) {
            return self.err("bad \\u escape");
        }
        let text = std::str::from_utf8(digits).unwrap_or("");
        let v = u32::from_str_radix(text, 16).or_else(|_| self.err("bad \\u escape"))?;
        self.i += 4;
        Ok(v)
    }

    pub(crate) fn unicode_escape(&mut self) -> R<char> {
        let hi = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&hi) {
            if self.b.get(self.i..self.i + 2) != Some(b"\\u") {
                return self.err("lone surrogate");
            }
            self.i += 2;
            let lo = self.hex4()?;
            if !(0xDC00..0xE000).contains(&lo) {
                return self.err("bad surrogate pair");
            }
            0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
        } else {
            hi
        };
        char::from_u32(code).map_or_else(|| self.err("bad code point"), Ok)
    }

    pub(crate) fn digits(&mut self) -> usize {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        self.i - start
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    pub(crate) fn number(&mut self) -> R<()> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        let first = self.peek();
        let n = self.digits();
        if n == 0 || (first == Some(b'0') && n > 1) {
            return self.err("invalid number");
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return self.err("invalid number");
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                return self.err("invalid number");
            }
        }
        // Like serde_json, refuse numbers a double cannot hold (`1e400`): short integers
        // always fit; anything else is handed to serde_json itself (exactly its rule, and
        // no second float parser in the module).
        let text = self.b.get(start..self.i).unwrap_or(&[]);
        let short_integer =
            text.len() <= 18 && !text.iter().any(|c| matches!(c, b'.' | b'e' | b'E'));
        if !short_integer && serde_json::from_slice::<serde_json::Value>(text).is_err() {
            return self.err("number out of range");
        }
        Ok(())
    }

    /// Skips any value, checking that it is well formed.
    pub(crate) fn skip(&mut self, depth: usize) -> R<()> {
        if depth > MAX_DEPTH {
            return self.err("nesting too deep");
        }
        self.ws();
        match self.peek() {
            Some(b'"') => self.skip_string(),
            Some(b'{') => {
                self.i += 1;
                if self.eat(b'}') {
                    return Ok(());
                }
                loop {
                    self.ws();
                    self.skip_string()?;
                    self.expect(b':')?;
                    self.skip(depth + 1)?;
                    if self.eat(b',') {
                        continue;
                    }
                    return self.expect(b'}');
                }
            }
            Some(b'[') => self.array(|r| r.skip(depth + 1)),
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'n') => self.literal(b"null"),
            Some(c) if c == b'-' || c.is_ascii_digit() => self.number(),
            _ => self.err("expected a value"),
        }
    }

    /// Skips a string, checking escapes but not UTF-8: the entry points validate the
    /// whole input once ([`check_utf8`]), which is much cheaper than string by string.
    pub(crate) fn skip_string(&mut self) -> R<()> {
        self.expect(b'"')?;
        loop {
            self.scan_plain();
            match self.peek() {
                None => return self.err("unterminated string"),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    self.i += 1;
                    match self.peek() {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => self.i += 1,
                        Some(b'u') => {
                            self.i += 1;
                            self.unicode_escape()?;
                        }
                        _ => return self.err("invalid escape"),
                    }
                }
                Some(_) => return self.err("control character in string"),
            }
        }
    }

    /// Whether the next value is `null` (consumed if so).
    pub(crate) fn null(&mut self) -> R<bool> {
        self.ws();
        if self.peek() == Some(b'n') {
            self.literal(b"null")?;
            return Ok(true);
        }
        Ok(false)
    }

    pub(crate) fn object(&mut self, mut field: impl FnMut(&mut Self, &str) -> R<()>) -> R<()> {
        self.expect(b'{')?;
        if self.eat(b'}') {
            return Ok(());
        }
        loop {
            self.ws();
            let key = self.string()?;
            self.expect(b':')?;
            field(self, &key)?;
            if self.eat(b',') {
                continue;
            }
            return self.expect(b'}');
        }
    }

    pub(crate) fn array(&mut self, mut item: impl FnMut(&mut Self) -> R<()>) -> R<()> {
        self.expect(b'[')?;
        if self.eat(b']') {
            return Ok(());
        }
        loop {
            item(self)?;
            if self.eat(b',') {
                continue;
            }
            return self.expect(b']');
        }
    }

    pub(crate) fn bool(&mut self) -> R<bool> {
        self.ws();
        match self.peek() {
            Some(b't') => self.literal(b"true").map(|_| true),
            Some(b'f') => self.literal(b"false").map(|_| false),
            Some(b'n') => self.literal(b"null").map(|_| false),
            _ => self.err("expected a boolean"),
        }
    }
}

/// Checks that the whole input is UTF-8 (then every string in it is: JSON's structural
/// characters are ASCII).
pub(crate) fn check_utf8(json: &[u8], what: &str) -> R<()> {
    std::str::from_utf8(json).map(|_| ()).map_err(|e| {
        format!(
            "cannot read {what}: invalid UTF-8 at byte {}",
            e.valid_up_to()
        )
    })
}

/// The JSON type of the value starting at the first non-blank byte (for messages).
pub fn type_of(raw: &[u8]) -> &'static str {
    match raw.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

/// Whether the raw value is `null`.
pub fn is_null(raw: &[u8]) -> bool {
    raw.trim_ascii() == b"null"
}

/// The raw bytes of the values of `keys` in the JSON object `json` (`None` when a key is
/// absent; a later duplicate key wins, as in `serde_json`). Fails when `json` is not a
/// well-formed object; `what` names it in the message.
pub fn object_fields<'a, const N: usize>(
    json: &'a [u8],
    keys: [&str; N],
    what: &'static str,
) -> R<[Option<&'a [u8]>; N]> {
    check_utf8(json, what)?;
    let mut out = [None; N];
    let mut r = Reader {
        b: json,
        i: 0,
        what,
    };
    r.object(|r, k| {
        r.ws();
        let start = r.i;
        r.skip(1)?;
        if let Some(slot) = keys
            .iter()
            .position(|w| *w == k)
            .and_then(|p| out.get_mut(p))
        {
            *slot = r.b.get(start..r.i);
        }
        Ok(())
    })?;
    r.ws();
    if r.i != json.len() {
        return r.err("trailing characters");
    }
    Ok(out)
}

/// The raw bytes of every item of a JSON array.
pub fn array_items<'a>(json: &'a [u8], what: &'static str) -> R<Vec<&'a [u8]>> {
    check_utf8(json, what)?;
    let mut out = Vec::new();
    let mut r = Reader {
        b: json,
        i: 0,
        what,
    };
    r.array(|r| {
        r.ws();
        let start = r.i;
        r.skip(1)?;
        if let Some(item) = r.b.get(start..r.i) {
            out.push(item);
        }
        Ok(())
    })?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_of_an_object() {
        let json = br#" {"a": {"x": [1, "}"]}, "b": "s", "a": 5, "c": null} "#;
        let [a, b, c, d] = object_fields(json, ["a", "b", "c", "d"], "test").unwrap();
        assert_eq!(a, Some(&b"5"[..]));
        assert_eq!(b, Some(&br#""s""#[..]));
        assert!(c.is_some_and(is_null));
        assert_eq!(d, None);
        assert!(
            object_fields(b"[1]", ["a"], "test")
                .unwrap_err()
                .starts_with("cannot read test: expected '{'")
        );
        assert!(object_fields(b"{\"a\":}", ["a"], "test").is_err());
        assert_eq!(type_of(b" [1]"), "an array");
        assert_eq!(
            array_items(b"[1, {\"a\": [2]}, \"x\"]", "t").unwrap(),
            vec![&b"1"[..], &b"{\"a\": [2]}"[..], &b"\"x\""[..]]
        );
    }
}
