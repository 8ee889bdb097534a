//! A fast reader for the host's `NodeList` answer.
//!
//! A cluster of 5,000 nodes is about 600 KB of JSON even with field masks. Building a
//! `serde_json::Value` tree for it costs tens of milliseconds inside WebAssembly; this
//! reader walks the bytes once, keeps only `metadata.name`, `metadata.labels` (on
//! request), `spec.taints` and `spec.unschedulable`, and skips everything else without
//! allocating. It is a strict JSON reader: anything that is not well-formed JSON is an
//! error naming the byte offset.

use std::borrow::Cow;

use crate::jsonscan::{R, Reader};

use taintlab_core::{Node, Taint, TaintEffect};

use crate::cluster::Cluster;
use taintlab_core::labels::Selector;

impl<'a> Reader<'a> {
    /// An object of string values, keys and values borrowed when possible.
    fn labels(&mut self, out: &mut Vec<(Cow<'a, str>, Cow<'a, str>)>) -> R<()> {
        self.expect(b'{')?;
        if self.eat(b'}') {
            return Ok(());
        }
        loop {
            self.ws();
            let key = self.string()?;
            self.expect(b':')?;
            let value = self.opt_str()?;
            out.push((key, value));
            if self.eat(b',') {
                continue;
            }
            return self.expect(b'}');
        }
    }

    /// A string or `null` (as empty), borrowed when possible.
    fn opt_str(&mut self) -> R<Cow<'a, str>> {
        if self.null()? {
            return Ok(Cow::Borrowed(""));
        }
        self.string()
    }

    fn taint(&mut self, out: &mut Vec<(Cow<'a, str>, Cow<'a, str>, Cow<'a, str>)>) -> R<()> {
        if self.null()? {
            out.push((Cow::Borrowed(""), Cow::Borrowed(""), Cow::Borrowed("")));
            return Ok(());
        }
        let (mut key, mut value, mut effect) =
            (Cow::Borrowed(""), Cow::Borrowed(""), Cow::Borrowed(""));
        self.object(|r, k| {
            match k {
                "key" => key = r.opt_str()?,
                "value" => value = r.opt_str()?,
                "effect" => effect = r.opt_str()?,
                _ => r.skip(1)?,
            }
            Ok(())
        })?;
        out.push((key, value, effect));
        Ok(())
    }

    /// Reads one node into `node` (cleared first).
    fn node(&mut self, labels: bool, node: &mut Scanned<'a>) -> R<()> {
        node.clear();
        self.object(|r, k| match k {
            "metadata" => {
                if r.null()? {
                    return Ok(());
                }
                r.object(|r, k| match k {
                    "name" => {
                        node.name = r.opt_str()?;
                        Ok(())
                    }
                    "labels" if labels => {
                        if r.null()? {
                            return Ok(());
                        }
                        r.labels(&mut node.labels)
                    }
                    _ => r.skip(2),
                })
            }
            "spec" => {
                if r.null()? {
                    return Ok(());
                }
                r.object(|r, k| match k {
                    "taints" => {
                        if r.null()? {
                            return Ok(());
                        }
                        r.array(|r| r.taint(&mut node.taints))
                    }
                    "unschedulable" => {
                        node.unschedulable = r.bool()?;
                        Ok(())
                    }
                    _ => r.skip(2),
                })
            }
            _ => r.skip(1),
        })
    }
}

/// One node as read, borrowing from the input where it can.
#[derive(Default)]
struct Scanned<'a> {
    name: Cow<'a, str>,
    labels: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    taints: Vec<(Cow<'a, str>, Cow<'a, str>, Cow<'a, str>)>,
    unschedulable: bool,
}

impl Scanned<'_> {
    fn clear(&mut self) {
        self.name = Cow::Borrowed("");
        self.labels.clear();
        self.taints.clear();
        self.unschedulable = false;
    }
}

/// Walks `items`, calling `each` for every node.
fn scan<'a>(json: &'a [u8], labels: bool, mut each: impl FnMut(&Scanned<'a>)) -> R<()> {
    crate::jsonscan::check_utf8(json, "the node list")?;
    let mut r = Reader {
        b: json,
        i: 0,
        what: "the node list",
    };
    let mut node = Scanned::default();
    r.object(|r, k| {
        if k != "items" {
            return r.skip(1);
        }
        if r.null()? {
            return Ok(());
        }
        r.array(|r| {
            r.node(labels, &mut node)?;
            each(&node);
            Ok(())
        })
    })?;
    r.ws();
    if r.i != json.len() {
        return r.err("trailing characters");
    }
    Ok(())
}

/// Reads a `NodeList` into core nodes: `items[*].metadata.{name,labels}`,
/// `items[*].spec.{taints,unschedulable}`. Labels are read only when `labels` is true.
pub fn read(json: &[u8], labels: bool) -> Result<Vec<Node>, String> {
    let mut nodes = Vec::new();
    scan(json, labels, |n| nodes.push(to_node(n)))?;
    Ok(nodes)
}

fn to_node(n: &Scanned<'_>) -> Node {
    Node {
        name: n.name.to_string(),
        labels: n
            .labels
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        taints: n
            .taints
            .iter()
            .map(|(k, v, e)| Taint::new(k, v, TaintEffect::parse(e)))
            .collect(),
        unschedulable: n.unschedulable,
        conditions: Vec::new(),
    }
}

/// Reads a `NodeList` straight into groups (no per-node allocation once a group
/// exists). `protect` marks nodes whose labels match `protectTaintsOfNodes`.
pub fn read_cluster(json: &[u8], protect: Option<&Selector>) -> Result<Cluster, String> {
    read_cluster_with(json, protect, false)
}

/// [`read_cluster`], also keeping every node with its name and labels
/// ([`Cluster::placement_nodes`]) when `placement` is true (the pod selects nodes by
/// label or name, see [`crate::placement`]).
pub fn read_cluster_with(
    json: &[u8],
    protect: Option<&Selector>,
    placement: bool,
) -> Result<Cluster, String> {
    let mut cluster = Cluster::default();
    let mut kept: Vec<Node> = Vec::new();
    scan(json, protect.is_some() || placement, |n| {
        if placement {
            kept.push(to_node(n));
        }
        let protected = protect.is_some_and(|s| {
            s.matches_lookup(|key| {
                n.labels
                    .iter()
                    .find(|(k, _)| k == key)
                    .map(|(_, v)| v.as_ref())
            })
        });
        cluster.add(&n.taints, n.unschedulable, protected);
    })?;
    if placement {
        cluster.placement_nodes = Some(kept);
    }
    Ok(cluster)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_matters_and_skips_the_rest() {
        let json = br#"{"apiVersion":"v1","kind":"NodeList","metadata":{"resourceVersion":"1"},
          "items":[
            {"metadata":{"name":"n1","labels":{"a":"b","esc\"aped":"\u00e9\ud83d\ude00"},"annotations":{"x":[1,2.5e3,-0.1,true,null]}},
             "spec":{"taints":[{"key":"k","value":"v","effect":"NoSchedule","timeAdded":"2026-01-01T00:00:00Z"},{"key":"k2","effect":null}],
                     "unschedulable":true,"podCIDR":"10.0.0.0/24"},
             "status":{"conditions":[{"type":"Ready","status":"True"}]}},
            {"metadata":null,"spec":{"taints":null,"unschedulable":null}},
            {}
          ]}"#;
        let nodes = read(json, true).unwrap();
        assert_eq!(nodes.len(), 3);
        assert_eq!(nodes[0].name, "n1");
        assert_eq!(
            nodes[0].labels.get("esc\"aped").map(String::as_str),
            Some("é😀")
        );
        assert_eq!(nodes[0].taints.len(), 2);
        assert_eq!(
            nodes[0].taints[0],
            Taint::new("k", "v", TaintEffect::NoSchedule)
        );
        assert_eq!(nodes[0].taints[1], Taint::new("k2", "", TaintEffect::Empty));
        assert!(nodes[0].unschedulable);
        assert!(nodes[1].taints.is_empty() && !nodes[1].unschedulable);
        assert!(read(json, false).unwrap()[0].labels.is_empty());
    }

    #[test]
    fn agrees_with_serde_json_on_what_is_json() {
        let bad: &[&[u8]] = &[
            b"",
            b"{",
            b"[]",
            b"{\"items\":[}",
            b"{\"items\":[{]}",
            b"{\"items\":[1,]}",
            b"{\"a\":01x}",
            b"{\"a\":01}",
            b"{\"a\":1.}",
            b"{\"a\":1e}",
            b"{\"a\":-}",
            b"{\"a\":1e400}",
            b"{\"a\":\"\\u+efe\"}",
            b"{\"a\":3333E33333}",
            b"{\"a\":tru}",
            b"{\"a\":\"\\x\"}",
            b"{\"a\":\"\\ud800\"}",
            b"{\"a\":1} x",
            b"{\"a\":\"\x01\"}",
            b"{\"a\":+1}",
            b"{\"a\":.5}",
            b"{\"a\" 1}",
            b"{\"items\":[{\"spec\":{\"unschedulable\":1}}]}",
        ];
        for b in bad {
            assert!(read(b, true).is_err(), "{:?}", String::from_utf8_lossy(b));
        }
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(200), "]".repeat(200));
        assert!(read(deep.as_bytes(), true).is_err());
        let ok: &[&[u8]] = &[
            b"{}",
            b" { \"items\" : [ ] } ",
            b"{\"items\":null}",
            b"{\"x\":{\"y\":[1e5,-2,0.5,\"s\",0,-0.0e-1]}}",
            b"{\"items\":[{\"metadata\":{\"labels\":null},\"spec\":{\"taints\":null}}]}",
        ];
        for b in ok {
            assert!(read(b, true).is_ok(), "{:?}", String::from_utf8_lossy(b));
            assert!(serde_json::from_slice::<serde_json::Value>(b).is_ok());
        }
    }
}
