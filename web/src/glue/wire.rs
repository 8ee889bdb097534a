//! The compact text format of the worker's replies (a pane's reading, tolerations read
//! from text) and of the first example's build-time reading (`build.rs`): a serde data
//! format written by hand for the page's download size.
//!
//! Why not JSON: the page decodes these values and nothing else of their types, so
//! every `Deserialize` impl of the input layer's model is linked into the page only for
//! this. With `serde_json` each impl carries two decoders (a struct may arrive as a JSON
//! object or array) and JSON's whitespace, escape and number handling in every one of
//! them. Here a struct is always a map and a value always starts with a one-byte tag, so
//! each impl keeps one small path. Measured on the page's wasm after wasm-bindgen,
//! `wasm-opt -Oz`, gzip -9: see the figures in the README's size section.
//!
//! The text (always valid UTF-8, so it crosses the worker boundary as a JavaScript
//! string) is a sequence of values:
//!
//! | value | text |
//! |---|---|
//! | null, `None`, unit | `n` |
//! | booleans | `t`, `f` |
//! | unsigned / signed integers | `u` digits `;`, `i` `-`? digits `;` |
//! | floats | `d` the bits of the `f64` as an unsigned integer `;` |
//! | strings, chars | `s` byte length `:` the UTF-8 bytes |
//! | `Some(v)` | `S` v |
//! | sequences, tuples | `[` values `]` |
//! | maps | `{` key value pairs `}` |
//! | structs | `{` field value pairs `}`, a field as `k` index `:` its name as a string |
//! | enum variants | a unit variant as `v` index `:` name string, any other as `{` that, value `}` |
//!
//! A struct field carries its index (the derive's field order: `skip_serializing_if`
//! fields count where they are left out) and its name. Decoding a struct asks for the
//! index, so the derives' matching of field and variant names is not linked for these
//! types; anything serde reads through its self-describing path (`#[serde(flatten)]`,
//! internally tagged enums, `deserialize_any`) gets the names, as from JSON. The derives'
//! `rename`/`default`/`skip_serializing_if` attributes therefore mean what they mean in
//! JSON.

use std::fmt::{self, Display, Write as _};

use serde::de::{
    self, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, SeqAccess, VariantAccess,
    Visitor,
};
use serde::ser::{self, Serialize};

/// A value that could not be written or read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(String);

impl Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

impl de::Error for Error {
    fn custom<T: Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

type Result<T> = std::result::Result<T, Error>;

/// Writes a value in the wire format.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String> {
    let mut w = Writer(String::new(), Vec::new());
    value.serialize(&mut w)?;
    Ok(w.0)
}

/// Reads a value written by [`to_string`]; the whole text must be one value.
pub fn from_str<'a, T: de::Deserialize<'a>>(text: &'a str) -> Result<T> {
    let mut r = Reader { s: text, at: 0 };
    let v = T::deserialize(&mut r)?;
    if r.at != text.len() {
        return Err(Error(format!("trailing data at byte {}", r.at)));
    }
    Ok(v)
}

// ---------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------

struct Writer(String, Vec<u32>);

impl Writer {
    /// A struct field or variant: `tag` index `:` name.
    fn indexed(&mut self, tag: char, index: u32, name: &str) {
        let _ = write!(self.0, "{tag}{index}:");
        self.text(name);
    }
    /// The next field of the innermost struct (written or skipped).
    fn next_field(&mut self) -> u32 {
        match self.1.last_mut() {
            Some(n) => {
                *n += 1;
                *n - 1
            }
            None => 0,
        }
    }

    fn uint(&mut self, v: u64) {
        let _ = write!(self.0, "u{v};");
    }
    fn int(&mut self, v: i64) {
        let _ = write!(self.0, "i{v};");
    }
    fn text(&mut self, v: &str) {
        let _ = write!(self.0, "s{}:", v.len());
        self.0.push_str(v);
    }
}

impl ser::Serializer for &mut Writer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.0.push(if v { 't' } else { 'f' });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.int(v.into());
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.int(v.into());
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.int(v.into());
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.int(v);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.uint(v.into());
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.uint(v.into());
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.uint(v.into());
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.uint(v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.serialize_f64(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        let _ = write!(self.0, "d{};", v.to_bits());
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.text(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        self.text(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.0.push('[');
        for b in v {
            self.uint((*b).into());
        }
        self.0.push(']');
        Ok(())
    }
    fn serialize_none(self) -> Result<()> {
        self.0.push('n');
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        self.0.push('S');
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.0.push('n');
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.indexed('v', index, variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.0.push('{');
        self.indexed('v', index, variant);
        value.serialize(&mut *self)?;
        self.0.push('}');
        Ok(())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self> {
        self.0.push('[');
        Ok(self)
    }
    fn serialize_tuple(self, len: usize) -> Result<Self> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Self> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        index: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Self> {
        self.0.push('{');
        self.indexed('v', index, variant);
        self.0.push('[');
        Ok(self)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self> {
        self.0.push('{');
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self> {
        self.0.push('{');
        self.1.push(0);
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        index: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Self> {
        self.0.push('{');
        self.indexed('v', index, variant);
        self.0.push('{');
        self.1.push(0);
        Ok(self)
    }
}

impl ser::SerializeSeq for &mut Writer {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<()> {
        self.0.push(']');
        Ok(())
    }
}

impl ser::SerializeTuple for &mut Writer {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<()> {
        self.0.push(']');
        Ok(())
    }
}

impl ser::SerializeTupleStruct for &mut Writer {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<()> {
        self.0.push(']');
        Ok(())
    }
}

impl ser::SerializeTupleVariant for &mut Writer {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<()> {
        self.0.push_str("]}");
        Ok(())
    }
}

impl ser::SerializeMap for &mut Writer {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        key.serialize(&mut **self)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<()> {
        self.0.push('}');
        Ok(())
    }
}

impl ser::SerializeStruct for &mut Writer {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        let index = self.next_field();
        self.indexed('k', index, key);
        value.serialize(&mut **self)
    }
    fn skip_field(&mut self, _: &'static str) -> Result<()> {
        self.next_field();
        Ok(())
    }
    fn end(self) -> Result<()> {
        self.1.pop();
        self.0.push('}');
        Ok(())
    }
}

impl ser::SerializeStructVariant for &mut Writer {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        let index = self.next_field();
        self.indexed('k', index, key);
        value.serialize(&mut **self)
    }
    fn skip_field(&mut self, _: &'static str) -> Result<()> {
        self.next_field();
        Ok(())
    }
    fn end(self) -> Result<()> {
        self.1.pop();
        self.0.push_str("}}");
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------

struct Reader<'a> {
    s: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    fn err<T>(&self, what: &str) -> Result<T> {
        Err(Error(format!("{what} at byte {}", self.at)))
    }

    fn peek(&self) -> Option<u8> {
        self.s.as_bytes().get(self.at).copied()
    }

    fn next(&mut self) -> Result<u8> {
        match self.peek() {
            Some(b) => {
                self.at += 1;
                Ok(b)
            }
            None => self.err("unexpected end"),
        }
    }

    fn expect(&mut self, tag: u8) -> Result<()> {
        if self.next()? == tag {
            Ok(())
        } else {
            self.at -= 1;
            self.err(&format!("expected '{}'", tag as char))
        }
    }

    /// The digits (and a leading `-`) up to `end`, consumed with it.
    fn digits(&mut self, end: u8) -> Result<&'a str> {
        let rest = &self.s[self.at..];
        let Some(len) = rest.bytes().position(|b| b == end) else {
            return self.err("unterminated number");
        };
        self.at += len + 1;
        Ok(&rest[..len])
    }

    fn uint_body(&mut self) -> Result<u64> {
        self.digits(b';')?
            .parse()
            .or_else(|_| self.err("bad unsigned integer"))
    }

    fn int_body(&mut self) -> Result<i64> {
        self.digits(b';')?
            .parse()
            .or_else(|_| self.err("bad integer"))
    }

    fn str_body(&mut self) -> Result<&'a str> {
        let len: usize = self
            .digits(b':')?
            .parse()
            .or_else(|_| self.err("bad string length"))?;
        let end = self.at + len;
        match self.s.get(self.at..end) {
            Some(v) => {
                self.at = end;
                Ok(v)
            }
            None => self.err("bad string"),
        }
    }

    /// After `k` or `v`: the index and the name.
    fn indexed_body(&mut self) -> Result<(u64, &'a str)> {
        let index = self
            .digits(b':')?
            .parse()
            .or_else(|_| self.err("bad index"))?;
        self.expect(b's')?;
        Ok((index, self.str_body()?))
    }

    /// Visits a sequence or map (its opening tag read) and checks that it ends there: a
    /// visitor may stop before the closing tag (a tuple reads only its elements).
    fn list<T>(
        &mut self,
        end: u8,
        visit: impl FnOnce(&mut List<'_, 'a>) -> Result<T>,
    ) -> Result<T> {
        let mut l = List {
            r: self,
            end,
            done: false,
        };
        let value = visit(&mut l)?;
        if !l.done {
            l.r.expect(end)?;
        }
        Ok(value)
    }

    /// Consumes `end` if it is next.
    fn closes(&mut self, end: u8) -> bool {
        let done = self.peek() == Some(end);
        if done {
            self.at += 1;
        }
        done
    }
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.next()? {
            b'n' => v.visit_unit(),
            b't' => v.visit_bool(true),
            b'f' => v.visit_bool(false),
            b'u' => v.visit_u64(self.uint_body()?),
            b'i' => v.visit_i64(self.int_body()?),
            b'd' => v.visit_f64(f64::from_bits(self.uint_body()?)),
            b's' => v.visit_borrowed_str(self.str_body()?),
            // A field or variant read without its type: by name, as from JSON.
            b'k' | b'v' => v.visit_borrowed_str(self.indexed_body()?.1),
            b'S' => v.visit_some(self),
            b'[' => self.list(b']', |l| v.visit_seq(l)),
            b'{' => self.list(b'}', |l| v.visit_map(l)),
            _ => {
                self.at -= 1;
                self.err("unknown tag")
            }
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_any(v)
    }
    fn deserialize_i8<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_any(v)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_any(v)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_any(v)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_any(v)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_any(v)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_any(v)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_any(v)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_any(v)
    }
    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_any(v)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_any(v)
    }
    fn deserialize_char<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_str(v)
    }
    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.expect(b's')?;
        v.visit_borrowed_str(self.str_body()?)
    }
    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_str(v)
    }
    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_seq(v)
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_seq(v)
    }
    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'n') => {
                self.at += 1;
                v.visit_none()
            }
            Some(b'S') => {
                self.at += 1;
                v.visit_some(self)
            }
            _ => self.err("expected an option"),
        }
    }
    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.expect(b'n')?;
        v.visit_unit()
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(self, _: &'static str, v: V) -> Result<V::Value> {
        self.deserialize_unit(v)
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        v: V,
    ) -> Result<V::Value> {
        v.visit_newtype_struct(self)
    }
    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.expect(b'[')?;
        self.list(b']', |l| v.visit_seq(l))
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, v: V) -> Result<V::Value> {
        self.deserialize_seq(v)
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        v: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(v)
    }
    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.expect(b'{')?;
        self.list(b'}', |l| v.visit_map(l))
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        self.deserialize_map(v)
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        match self.peek() {
            Some(b'v') => {
                self.at += 1;
                let (index, _) = self.indexed_body()?;
                let Ok(index) = u32::try_from(index) else {
                    return self.err("bad variant index");
                };
                v.visit_enum(index.into_deserializer())
            }
            Some(b'{') => {
                self.at += 1;
                let value = v.visit_enum(Variant(&mut *self))?;
                self.expect(b'}')?;
                Ok(value)
            }
            _ => self.err("expected an enum variant"),
        }
    }
    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'k' | b'v') => {
                self.at += 1;
                v.visit_u64(self.indexed_body()?.0)
            }
            // Map keys that name fields (flattened structs) and variant names as strings.
            _ => self.deserialize_str(v),
        }
    }
    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_any(de::IgnoredAny)?;
        v.visit_unit()
    }
}

/// The elements of a sequence, or the entries of a map, up to its closing tag `end`
/// (`done` once read).
struct List<'r, 'de> {
    r: &'r mut Reader<'de>,
    end: u8,
    done: bool,
}

impl List<'_, '_> {
    fn at_end(&mut self) -> bool {
        self.done = self.done || self.r.closes(self.end);
        self.done
    }
}

impl<'de> SeqAccess<'de> for &mut List<'_, 'de> {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.at_end() {
            return Ok(None);
        }
        seed.deserialize(&mut *self.r).map(Some)
    }
}

impl<'de> MapAccess<'de> for &mut List<'_, 'de> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.at_end() {
            return Ok(None);
        }
        seed.deserialize(&mut *self.r).map(Some)
    }
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        seed.deserialize(&mut *self.r)
    }
}

/// A variant with data: `{` name value `}` (the closing tag is read by the caller).
struct Variant<'r, 'de>(&'r mut Reader<'de>);

impl<'de> EnumAccess<'de> for Variant<'_, 'de> {
    type Error = Error;
    type Variant = Self;
    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self)> {
        let name = seed.deserialize(&mut *self.0)?;
        Ok((name, self))
    }
}

impl<'de> VariantAccess<'de> for Variant<'_, 'de> {
    type Error = Error;
    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(&mut *self.0)
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(&mut *self.0)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _: usize, v: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(&mut *self.0, v)
    }
    fn struct_variant<V: Visitor<'de>>(self, _: &'static [&'static str], v: V) -> Result<V::Value> {
        de::Deserializer::deserialize_map(&mut *self.0, v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};
    use std::collections::BTreeMap;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Inner {
        name: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        list: Vec<i32>,
        maybe: Option<u64>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "type", rename_all = "camelCase")]
    enum Tagged {
        One { a: String },
        Two { b: bool, c: Option<Inner> },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    enum Plain {
        Unit,
        New(String),
        Tuple(u8, i64),
        Struct { x: f64 },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Outer {
        #[serde(flatten)]
        inner: Inner,
        tagged: Vec<Tagged>,
        plain: Vec<Plain>,
        map: BTreeMap<String, (char, bool)>,
        text: String,
    }

    fn sample() -> Outer {
        Outer {
            inner: Inner {
                name: "ünïcode: s3:x }]".into(),
                list: vec![-1, 0, i32::MAX],
                maybe: Some(u64::MAX),
            },
            tagged: vec![
                Tagged::One { a: "".into() },
                Tagged::Two {
                    b: true,
                    c: Some(Inner {
                        name: "in".into(),
                        list: vec![],
                        maybe: None,
                    }),
                },
            ],
            plain: vec![
                Plain::Unit,
                Plain::New("n".into()),
                Plain::Tuple(7, i64::MIN),
                Plain::Struct { x: -0.1 },
            ],
            map: [("k".to_string(), ('é', false))].into_iter().collect(),
            text: "line\nbreak \"quoted\"".into(),
        }
    }

    /// Read by field index: fields left out by `skip_serializing_if` keep the indexes
    /// of the fields after them.
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Direct {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        first: Option<String>,
        inners: Vec<Inner>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        plain: Vec<Plain>,
        last: Plain,
    }

    #[test]
    fn round_trips_every_shape_serde_derives() {
        let v = sample();
        let text = to_string(&v).expect("writes");
        assert_eq!(from_str::<Outer>(&text), Ok(v));
        for (first, plain) in [(None, vec![]), (Some("f".to_string()), vec![Plain::Unit])] {
            let d = Direct {
                first,
                inners: vec![
                    Inner {
                        name: "a".into(),
                        list: vec![],
                        maybe: Some(3),
                    },
                    Inner {
                        name: "b".into(),
                        list: vec![1],
                        maybe: None,
                    },
                ],
                plain,
                last: Plain::Struct { x: 2.5 },
            };
            let text = to_string(&d).expect("writes");
            assert_eq!(from_str::<Direct>(&text), Ok(d), "{text}");
        }
    }

    #[test]
    fn bad_text_is_an_error_not_a_panic() {
        let text = to_string(&sample()).expect("writes");
        for cut in 0..text.len() {
            if text.is_char_boundary(cut) {
                assert!(from_str::<Outer>(&text[..cut]).is_err(), "cut at {cut}");
            }
        }
        assert!(from_str::<Outer>(&format!("{text}n")).is_err());
        assert!(from_str::<Inner>("{s99999:").is_err());
        assert!(from_str::<Inner>("x").is_err());
        assert!(from_str::<Vec<u8>>("[u300;]").is_err());
    }
}
