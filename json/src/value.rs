//! The arguments as a small tree, read straight from JavaScript values (feature `js`). The
//! engine module needs no serde at all this way (serde_json and its `Value` cost about
//! 20 KB of the gzipped module); the policy module converts to `serde_json::Value` where
//! the policy wants one.

use crate::write::J;

/// A plain JavaScript value: `undefined` and `null` are [`V::Null`]; numbers are doubles,
/// except BigInts, which are kept exact.
#[derive(Clone, Debug, PartialEq)]
pub enum V {
    /// `null` or `undefined`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number.
    Num(f64),
    /// A BigInt within the 64-bit range.
    Int(i64),
    /// A string.
    Str(String),
    /// An array.
    Arr(Vec<V>),
    /// An object: its own enumerable properties, in order.
    Obj(Vec<(String, V)>),
}

impl V {
    /// A property of an object.
    pub fn get(&self, key: &str) -> Option<&V> {
        match self {
            V::Obj(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// `null` or `undefined`.
    pub fn is_null(&self) -> bool {
        matches!(self, V::Null)
    }

    /// The string, for strings.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            V::Str(s) => Some(s),
            _ => None,
        }
    }

    /// `"a string"`, `"a number"`, ... for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            V::Null => "null",
            V::Bool(_) => "a boolean",
            V::Num(_) | V::Int(_) => "a number",
            V::Str(_) => "a string",
            V::Arr(_) => "an array",
            V::Obj(_) => "an object",
        }
    }

    /// A whole number: integral doubles within the 64-bit range, and BigInts.
    pub fn as_int(&self) -> Option<i64> {
        match *self {
            V::Int(i) => Some(i),
            // i64::MAX as f64 rounds up to 2^63, which is out of range.
            V::Num(f)
                if f.fract() == 0.0
                    && (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&f) =>
            {
                Some(f as i64)
            }
            _ => None,
        }
    }

    /// Writes the value as JSON (what `JSON.stringify` would give).
    pub fn write_json(&self, j: &mut J) {
        match self {
            V::Null => {
                j.null();
            }
            V::Bool(b) => {
                j.bool(*b);
            }
            V::Int(i) => {
                j.num(*i);
            }
            V::Num(f) => match self.as_int() {
                Some(i) => {
                    j.num(i);
                }
                None if f.is_finite() => {
                    j.raw(&taintlab_core::float::display(*f));
                }
                None => {
                    j.null();
                }
            },
            V::Str(s) => {
                j.str(s);
            }
            V::Arr(items) => {
                j.arr();
                for v in items {
                    v.write_json(j);
                }
                j.end();
            }
            V::Obj(m) => {
                j.open();
                for (k, v) in m {
                    j.key_text(k);
                    v.write_json(j);
                }
                j.close();
            }
        }
    }

    /// The value as JSON text.
    pub fn to_json(&self) -> String {
        let mut j = J::new();
        self.write_json(&mut j);
        j.finish()
    }
}

/// Reads a JavaScript value. Functions and symbols are refused; nesting is limited so
/// that a cyclic object fails instead of looping.
#[cfg(feature = "js")]
pub fn from_js(v: &wasm_bindgen::JsValue) -> Result<V, String> {
    from_js_at(v, 0)
}

#[cfg(feature = "js")]
fn from_js_at(v: &wasm_bindgen::JsValue, depth: usize) -> Result<V, String> {
    use wasm_bindgen::JsCast;
    if depth > 128 {
        return Err("nested more than 128 levels deep (a cyclic object?)".into());
    }
    if v.is_null() || v.is_undefined() {
        return Ok(V::Null);
    }
    if let Some(b) = v.as_bool() {
        return Ok(V::Bool(b));
    }
    if let Some(n) = v.as_f64() {
        return Ok(V::Num(n));
    }
    if let Some(s) = v.as_string() {
        return Ok(V::Str(s));
    }
    if v.is_bigint() {
        return i64::try_from(v.clone())
            .map(V::Int)
            .map_err(|_| "a BigInt outside the 64-bit range".to_string());
    }
    if v.is_function() || v.is_symbol() {
        return Err(format!(
            "{} is not plain data",
            if v.is_function() {
                "a function"
            } else {
                "a symbol"
            }
        ));
    }
    if js_sys::Array::is_array(v) {
        let a: &js_sys::Array = v.unchecked_ref();
        let mut out = Vec::with_capacity(a.length() as usize);
        for item in a.iter() {
            out.push(from_js_at(&item, depth + 1)?);
        }
        return Ok(V::Arr(out));
    }
    let entries = js_sys::Object::entries(v.unchecked_ref());
    let mut out = Vec::with_capacity(entries.length() as usize);
    for e in entries.iter() {
        let pair: &js_sys::Array = e.unchecked_ref();
        let key = pair.get(0).as_string().unwrap_or_default();
        out.push((key, from_js_at(&pair.get(1), depth + 1)?));
    }
    Ok(V::Obj(out))
}

/// Parses JSON text: with the JavaScript engine's `JSON.parse` in the npm package's
/// wasm (feature `js`: no JSON parser in the module), with serde_json elsewhere.
pub fn parse_json(text: &str) -> Result<V, String> {
    #[cfg(all(feature = "js", target_arch = "wasm32"))]
    {
        match js_sys::JSON::parse(text) {
            Ok(v) => from_js(&v),
            Err(e) => Err(js_sys::Error::from(e).message().into()),
        }
    }
    #[cfg(not(all(feature = "js", target_arch = "wasm32")))]
    {
        serde_json::from_str::<serde_json::Value>(text)
            .map(V::from)
            .map_err(|e| e.to_string())
    }
}

impl From<&serde_json::Value> for V {
    fn from(v: &serde_json::Value) -> Self {
        match v {
            serde_json::Value::Null => V::Null,
            serde_json::Value::Bool(b) => V::Bool(*b),
            serde_json::Value::Number(n) => match n.as_i64() {
                Some(i) if (-(1 << 53)..=(1 << 53)).contains(&i) => V::Num(i as f64),
                Some(i) => V::Int(i),
                None => V::Num(n.as_f64().unwrap_or(f64::NAN)),
            },
            serde_json::Value::String(s) => V::Str(s.clone()),
            serde_json::Value::Array(a) => V::Arr(a.iter().map(V::from).collect()),
            serde_json::Value::Object(m) => {
                V::Obj(m.iter().map(|(k, v)| (k.clone(), V::from(v))).collect())
            }
        }
    }
}

impl From<serde_json::Value> for V {
    fn from(v: serde_json::Value) -> Self {
        V::from(&v)
    }
}

/// The value as a `serde_json::Value` (for the policy, which reads JSON).
pub fn to_serde(v: &V) -> serde_json::Value {
    match v {
        V::Null => serde_json::Value::Null,
        V::Bool(b) => serde_json::Value::Bool(*b),
        V::Int(i) => serde_json::Value::from(*i),
        V::Num(_) => match v.as_int() {
            Some(i) => serde_json::Value::from(i),
            None => match v {
                V::Num(f) => serde_json::Number::from_f64(*f)
                    .map(serde_json::Value::Number)
                    .unwrap_or(serde_json::Value::Null),
                _ => serde_json::Value::Null,
            },
        },
        V::Str(s) => serde_json::Value::String(s.clone()),
        V::Arr(a) => serde_json::Value::Array(a.iter().map(to_serde).collect()),
        V::Obj(m) => {
            serde_json::Value::Object(m.iter().map(|(k, v)| (k.clone(), to_serde(v))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trips_through_json() {
        let src = json!({"a": [1, 2.5, "x\"y", null, true], "b": {"c": 9007199254740993_i64}});
        let v = V::from(&src);
        assert_eq!(
            v.get("b").and_then(|b| b.get("c")).and_then(V::as_int),
            Some(9007199254740993)
        );
        let back: serde_json::Value = serde_json::from_str(&v.to_json()).unwrap();
        assert_eq!(back, src);
        assert_eq!(to_serde(&v), src);
        assert_eq!(V::Num(1e20).as_int(), None, "beyond int64");
        assert_eq!(V::Num(1.5).as_int(), None);
        assert_eq!(V::Num(f64::NAN).to_json(), "null");
    }
}
