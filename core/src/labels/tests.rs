//! Tables from upstream's `labels/selector_test.go` (TestSelectorParse,
//! TestSelectorMatches, TestLexer, TestLexerSequence, TestRequirementConstructor,
//! TestToString, TestRequirementSelectorMatching, TestSetSelectorParser), plus the
//! error messages of `labels.Parse` and `metav1.LabelSelectorAsSelector`.

use super::*;
use alloc::string::ToString;
use alloc::vec;

use SelectorOperator as Op;

fn set(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (String::from(*k), String::from(*v)))
        .collect()
}

fn strings(values: &[&str]) -> Vec<String> {
    values.iter().map(|v| String::from(*v)).collect()
}

/// `getRequirement`: a requirement that must be valid.
fn req(key: &str, op: SelectorOperator, values: &[&str]) -> Requirement {
    let mut values = strings(values);
    values.sort();
    values.dedup();
    match Requirement::new(key, op, values, KubeVersion::NEWEST) {
        Ok(r) => r,
        Err(e) => panic!("{key} {op:?}: {e}"),
    }
}

fn parse(text: &str) -> Result<Selector, String> {
    Selector::parse(text)
}

#[test]
fn selector_parse_round_trips() {
    for good in [
        "x=a,y=b,z=c",
        "",
        "x!=a,y=b",
        "x=",
        "x= ",
        "x=,z= ",
        "x= ,z= ",
        "!x",
        "x>1",
        "x>1,z<5",
    ] {
        match parse(good) {
            Ok(s) => assert_eq!(s.to_string(), good.replace(' ', ""), "{good:?}"),
            Err(e) => panic!("{good:?}: {e}"),
        }
    }
    for bad in ["x=a||y=b", "x==a==b", "!x=a", "x<a"] {
        assert!(parse(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn parse_is_deterministic() {
    let a = parse("x=a,a=x").map(|s| s.to_string());
    let b = parse("a=x,x=a").map(|s| s.to_string());
    assert_eq!(a, b);
    assert_eq!(a.as_deref(), Ok("a=x,x=a"));
}

#[test]
fn selector_matches() {
    let yes = |sel: &str, labels: &[(&str, &str)]| {
        assert!(
            parse(sel).is_ok_and(|s| s.matches(&set(labels))),
            "{sel:?} should match {labels:?}"
        );
    };
    let no = |sel: &str, labels: &[(&str, &str)]| {
        assert!(
            parse(sel).is_ok_and(|s| !s.matches(&set(labels))),
            "{sel:?} should not match {labels:?}"
        );
    };
    yes("", &[("x", "y")]);
    yes("x=y", &[("x", "y")]);
    yes("x=y,z=w", &[("x", "y"), ("z", "w")]);
    yes("x!=y,z!=w", &[("x", "z"), ("z", "a")]);
    yes("notin=in", &[("notin", "in")]);
    yes("x", &[("x", "z")]);
    yes("!x", &[("y", "z")]);
    yes("x>1", &[("x", "2")]);
    yes("x<1", &[("x", "0")]);
    no("x=z", &[]);
    no("x=y", &[("x", "z")]);
    no("x=y,z=w", &[("x", "w"), ("z", "w")]);
    no("x!=y,z!=w", &[("x", "z"), ("z", "w")]);
    no("x", &[("y", "z")]);
    no("!x", &[("x", "z")]);
    no("x>1", &[("x", "0")]);
    no("x<1", &[("x", "2")]);

    let labels = [("foo", "bar"), ("baz", "blah")];
    yes("foo=bar", &labels);
    yes("baz=blah", &labels);
    yes("foo=bar,baz=blah", &labels);
    no("foo=blah", &labels);
    no("baz=bar", &labels);
    no("foo=bar,foobar=bar,baz=blah", &labels);
}

#[test]
fn everything_and_nothing() {
    assert!(Selector::everything().matches(&set(&[("x", "y")])));
    assert!(Selector::everything().is_empty());
    assert!(!Selector::nothing().matches(&set(&[])));
    assert!(!Selector::nothing().is_empty());
    assert_eq!(Selector::nothing().to_string(), "");
}

#[test]
fn lexer_single_tokens() {
    for (text, tok) in [
        ("", Token::EndOfString),
        (",", Token::Comma),
        ("notin", Token::NotIn),
        ("in", Token::In),
        ("=", Token::Equals),
        ("==", Token::DoubleEquals),
        (">", Token::GreaterThan),
        ("<", Token::LessThan),
        ("!", Token::DoesNotExist),
        ("!=", Token::NotEquals),
        ("(", Token::OpenPar),
        (")", Token::ClosedPar),
        ("~", Token::Identifier),
        ("||", Token::Identifier),
    ] {
        let items = lex(text);
        assert_eq!(items.first().map(|i| i.0), Some(tok), "{text:?}");
        assert_eq!(items.first().map(|i| i.1), Some(text), "{text:?}");
    }
}

#[test]
fn lexer_sequences() {
    use Token::*;
    for (text, want) in [
        (
            "key in ( value )",
            vec![Identifier, In, OpenPar, Identifier, ClosedPar],
        ),
        (
            "key notin ( value )",
            vec![Identifier, NotIn, OpenPar, Identifier, ClosedPar],
        ),
        (
            "key in ( value1, value2 )",
            vec![
                Identifier, In, OpenPar, Identifier, Comma, Identifier, ClosedPar,
            ],
        ),
        ("key", vec![Identifier]),
        ("!key", vec![DoesNotExist, Identifier]),
        ("()", vec![OpenPar, ClosedPar]),
        (
            "x in (),y",
            vec![Identifier, In, OpenPar, ClosedPar, Comma, Identifier],
        ),
        (
            "== != (), = notin",
            vec![
                DoubleEquals,
                NotEquals,
                OpenPar,
                ClosedPar,
                Comma,
                Equals,
                NotIn,
            ],
        ),
        ("key>2", vec![Identifier, GreaterThan, Identifier]),
        ("key<1", vec![Identifier, LessThan, Identifier]),
    ] {
        let mut got: Vec<Token> = lex(text).into_iter().map(|i| i.0).collect();
        assert_eq!(got.pop(), Some(EndOfString), "{text:?}");
        assert_eq!(got, want, "{text:?}");
    }
}

#[test]
fn lexer_stops_at_nul_like_upstream() {
    // A NUL where a token starts ends the text; one right after a token is skipped.
    assert_eq!(
        parse("x, \0y").err().as_deref(),
        Some("found '', expected: identifier after ','")
    );
    assert_eq!(parse("x,\0y").map(|s| s.to_string()).as_deref(), Ok("x,y"));
    assert_eq!(parse("x\0").map(|s| s.to_string()).as_deref(), Ok("x"));
    assert_eq!(parse("x=\0y").map(|s| s.to_string()).as_deref(), Ok("x=y"));
}

#[test]
fn requirement_constructor() {
    let long = "a".repeat(254);
    for (key, op, values, ok) in [
        ("x", Op::In, vec![], false),
        ("x", Op::NotIn, vec![], false),
        ("x", Op::In, vec!["foo"], true),
        ("x", Op::NotIn, vec!["foo"], true),
        ("x", Op::Exists, vec![], true),
        ("x", Op::DoesNotExist, vec![], true),
        ("1foo", Op::In, vec!["bar"], true),
        ("1234", Op::In, vec!["bar"], true),
        ("y", Op::GreaterThan, vec!["1"], true),
        ("z", Op::LessThan, vec!["6"], true),
        ("foo", Op::GreaterThan, vec!["bar"], false),
        ("barz", Op::LessThan, vec!["blah"], false),
        (long.as_str(), Op::Exists, vec![], false),
    ] {
        let r = Requirement::new(key, op, strings(&values), KubeVersion::NEWEST);
        assert_eq!(r.is_ok(), ok, "{key} {op:?} {values:?}: {r:?}");
    }
}

#[test]
fn requirement_constructor_messages() {
    let msg = |key: &str, op, values: &[&str]| {
        Requirement::new(key, op, strings(values), KubeVersion::NEWEST).err()
    };
    assert_eq!(
        msg("x", Op::In, &[]).as_deref(),
        Some(
            "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty"
        )
    );
    assert_eq!(
        msg("x", Op::Exists, &["a", "b"]).as_deref(),
        Some(
            "values: Invalid value: []string{\"a\", \"b\"}: values set must be empty for exists and does not exist"
        )
    );
    assert_eq!(
        msg("x", Op::GreaterThan, &["a"]).as_deref(),
        Some(
            "values[0]: Invalid value: \"a\": for 'Gt', 'Lt' operators, the value must be an integer"
        )
    );
    // Several failures aggregate as `[e1, e2]`.
    let both = msg("-x", Op::In, &["a b"]).unwrap_or_default();
    assert!(
        both.starts_with("[key: Invalid value: \"-x\": name part must consist of"),
        "{both}"
    );
    assert!(
        both.contains(", values[0][-x]: Invalid value: \"a b\": a valid label must be"),
        "{both}"
    );
    assert!(both.ends_with(']'), "{both}");
}

#[test]
fn to_string_forms() {
    let sel = |reqs: Vec<Requirement>| Selector::everything().add(reqs).to_string();
    assert_eq!(
        sel(vec![
            req("x", Op::In, &["abc", "def"]),
            req("y", Op::NotIn, &["jkl"]),
            req("z", Op::Exists, &[]),
        ]),
        "x in (abc,def),y notin (jkl),z"
    );
    assert_eq!(
        sel(vec![
            req("x", Op::NotIn, &["abc", "def"]),
            req("y", Op::NotEquals, &["jkl"]),
            req("z", Op::DoesNotExist, &[]),
        ]),
        "x notin (abc,def),y!=jkl,!z"
    );
    assert_eq!(
        sel(vec![
            req("x", Op::NotIn, &["abc"]),
            req("y", Op::In, &["jkl", "mno"]),
            req("z", Op::NotIn, &[""]),
        ]),
        "x notin (abc),y in (jkl,mno),z notin ()"
    );
    assert_eq!(
        sel(vec![
            req("x", Op::Equals, &["abc"]),
            req("y", Op::DoubleEquals, &["jkl"]),
            req("z", Op::NotEquals, &["a"]),
            req("z", Op::Exists, &[]),
        ]),
        "x=abc,y==jkl,z!=a,z"
    );
    assert_eq!(
        sel(vec![
            req("x", Op::GreaterThan, &["2"]),
            req("y", Op::LessThan, &["8"]),
            req("z", Op::Exists, &[]),
        ]),
        "x>2,y<8,z"
    );
}

#[test]
fn printing_sorts_values_and_keeps_duplicates() {
    // TestSafeSort: sorted output, input untouched, duplicates kept.
    let r = Requirement::new(
        "x",
        Op::In,
        strings(&["foo", "bar", "foo", "bar"]),
        KubeVersion::NEWEST,
    );
    assert_eq!(
        r.as_ref().map(|r| r.to_string()).as_deref(),
        Ok("x in (bar,bar,foo,foo)")
    );
    assert_eq!(
        r.map(|r| r.values().to_vec()),
        Ok(strings(&["foo", "bar", "foo", "bar"]))
    );
}

#[test]
fn requirement_selector_matching() {
    let m = |labels: &[(&str, &str)], reqs: Vec<Requirement>| {
        Selector::everything().add(reqs).matches(&set(labels))
    };
    let xy = [("x", "foo"), ("y", "baz")];
    assert!(m(
        &xy,
        vec![req("x", Op::In, &["foo"]), req("y", Op::NotIn, &["alpha"])]
    ));
    assert!(!m(
        &xy,
        vec![req("x", Op::In, &["foo"]), req("y", Op::In, &["alpha"])]
    ));
    let y = [("y", "")];
    assert!(m(
        &y,
        vec![req("x", Op::NotIn, &[""]), req("y", Op::Exists, &[])]
    ));
    assert!(m(
        &y,
        vec![req("x", Op::DoesNotExist, &[]), req("y", Op::Exists, &[])]
    ));
    assert!(!m(
        &y,
        vec![req("x", Op::NotIn, &[""]), req("y", Op::DoesNotExist, &[])]
    ));
    assert!(!m(&[("y", "baz")], vec![req("x", Op::In, &[""])]));
    assert!(m(&[("z", "2")], vec![req("z", Op::GreaterThan, &["1"])]));
    assert!(!m(&[("z", "v2")], vec![req("z", Op::GreaterThan, &["1"])]));
}

#[test]
fn set_selector_parser() {
    // (input, expected requirements when valid, compare them, valid)
    let table: Vec<(&str, Vec<Requirement>, bool, bool)> = vec![
        ("", vec![], true, true),
        ("\rx", vec![req("x", Op::Exists, &[])], true, true),
        (
            "this-is-a-dns.domain.com/key-with-dash",
            vec![req(
                "this-is-a-dns.domain.com/key-with-dash",
                Op::Exists,
                &[],
            )],
            true,
            true,
        ),
        (
            "this-is-another-dns.domain.com/key-with-dash in (so,what)",
            vec![req(
                "this-is-another-dns.domain.com/key-with-dash",
                Op::In,
                &["so", "what"],
            )],
            true,
            true,
        ),
        (
            "0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)",
            vec![req(
                "0.1.2.domain/99",
                Op::NotIn,
                &["10.10.100.1", "tick.tack.clock"],
            )],
            true,
            true,
        ),
        (
            "foo  in\t (abc)",
            vec![req("foo", Op::In, &["abc"])],
            true,
            true,
        ),
        (
            "x notin\n (abc)",
            vec![req("x", Op::NotIn, &["abc"])],
            true,
            true,
        ),
        (
            "x  notin\t\t\t(abc,def)",
            vec![req("x", Op::NotIn, &["abc", "def"])],
            true,
            true,
        ),
        (
            "x in (abc,def)",
            vec![req("x", Op::In, &["abc", "def"])],
            true,
            true,
        ),
        (
            "x in (abc,)",
            vec![req("x", Op::In, &["abc", ""])],
            true,
            true,
        ),
        ("x in ()", vec![req("x", Op::In, &[""])], true, true),
        (
            "x notin (abc,,def),bar,z in (),w",
            vec![
                req("bar", Op::Exists, &[]),
                req("w", Op::Exists, &[]),
                req("x", Op::NotIn, &["abc", "", "def"]),
                req("z", Op::In, &[""]),
            ],
            true,
            true,
        ),
        (
            "x,y in (a)",
            vec![req("x", Op::Exists, &[]), req("y", Op::In, &["a"])],
            true,
            true,
        ),
        ("x=a", vec![req("x", Op::Equals, &["a"])], true, true),
        ("x>1", vec![req("x", Op::GreaterThan, &["1"])], true, true),
        ("x<7", vec![req("x", Op::LessThan, &["7"])], true, true),
        (
            "x=a,y!=b",
            vec![
                req("x", Op::Equals, &["a"]),
                req("y", Op::NotEquals, &["b"]),
            ],
            true,
            true,
        ),
        (
            "x=a,y!=b,z in (h,i,j)",
            vec![
                req("x", Op::Equals, &["a"]),
                req("y", Op::NotEquals, &["b"]),
                req("z", Op::In, &["h", "i", "j"]),
            ],
            true,
            true,
        ),
        ("x=a||y=b", vec![], false, false),
        ("x,,y", vec![], false, false),
        (",x,y", vec![], false, false),
        ("x nott in (y)", vec![], false, false),
        ("x notin ( )", vec![req("x", Op::NotIn, &[""])], true, true),
        (
            "x notin (, a)",
            vec![req("x", Op::NotIn, &["", "a"])],
            true,
            true,
        ),
        ("a in (xyz),", vec![], false, false),
        ("a in (xyz)b notin ()", vec![], false, false),
        ("a ", vec![req("a", Op::Exists, &[])], true, true),
        (
            "a in (x,y,notin, z,in)",
            vec![req("a", Op::In, &["in", "notin", "x", "y", "z"])],
            true,
            true,
        ),
        ("a in (xyz abc)", vec![], false, false),
        ("a notin(", vec![], false, false),
        ("a (", vec![], false, false),
        ("(", vec![], false, false),
    ];
    for (text, want, compare, valid) in table {
        let got = parse(text);
        assert_eq!(got.is_ok(), valid, "{text:?}: {got:?}");
        if compare {
            assert_eq!(
                got.map(|s| s.requirements().to_vec()).unwrap_or_default(),
                want,
                "{text:?}"
            );
        }
    }
}

#[test]
fn parse_error_messages() {
    for (text, want) in [
        ("x,", "found '', expected: identifier after ','"),
        (
            ",x",
            "found ',', expected: !, identifier, or 'end of string'",
        ),
        ("x=a b", "found 'b', expected: ',' or 'end of string'"),
        ("!x=a", "found '=', expected: ',' or 'end of string'"),
        (
            "x nott in (y)",
            "unable to parse requirement: found 'nott', expected: in, notin, =, ==, !=, gt, lt",
        ),
        (
            "env IN (a)",
            "unable to parse requirement: found 'IN', expected: in, notin, =, ==, !=, gt, lt",
        ),
        (
            "a in xyz",
            "unable to parse requirement: found 'xyz' expected: '('",
        ),
        (
            "a in (xyz abc)",
            "unable to parse requirement: found 'abc', expected: ',' or ')'",
        ),
        (
            "a notin(",
            "unable to parse requirement: found '', expected: ',', ')' or identifier",
        ),
        ("x==a==b", "found '==', expected: ',' or 'end of string'"),
        (
            "!",
            "unable to parse requirement: found '', expected: identifier",
        ),
        (
            "x=(",
            "unable to parse requirement: found '(', expected: identifier",
        ),
        (
            "x<a",
            "unable to parse requirement: values[0]: Invalid value: \"a\": for 'Gt', 'Lt' operators, the value must be an integer",
        ),
    ] {
        assert_eq!(parse(text).err().as_deref(), Some(want), "{text:?}");
    }
    let key = parse("a:b=c").err().unwrap_or_default();
    assert!(
        key.starts_with("unable to parse requirement: <nil>: Invalid value: \"a:b\": name part must consist of alphanumeric characters"),
        "{key}"
    );
    let value = parse("k=-v").err().unwrap_or_default();
    assert!(
        value.starts_with("unable to parse requirement: values[0][k]: Invalid value: \"-v\": a valid label must be an empty string"),
        "{value}"
    );
}

#[test]
fn metav1_label_selector() {
    let labels = set(&[("app", "web"), ("tier", "front")]);
    let expr = |key: &str, op: &str, values: &[&str]| LabelSelectorRequirement {
        key: key.into(),
        operator: op.into(),
        values: strings(values),
    };
    let empty = LabelSelector::default();
    assert!(empty.to_selector().is_ok_and(|s| s.is_empty()));
    assert!(
        label_selector_as_selector(None, KubeVersion::NEWEST)
            .is_ok_and(|s| !s.matches(&labels) && !s.is_empty())
    );
    let sel = LabelSelector {
        match_labels: set(&[("app", "web")]),
        match_expressions: vec![
            expr("tier", "In", &["front", "back"]),
            expr("canary", "DoesNotExist", &[]),
        ],
    };
    assert_eq!(
        sel.to_selector().map(|s| s.to_string()).as_deref(),
        Ok("app=web,!canary,tier in (back,front)")
    );
    assert!(sel.matches(&labels));
    assert!(!sel.matches(&set(&[("app", "web"), ("tier", "db")])));
    let bad_op = LabelSelector {
        match_expressions: vec![expr("x", "Equals", &["a"])],
        ..LabelSelector::default()
    };
    assert_eq!(
        bad_op.to_selector().err().as_deref(),
        Some("\"Equals\" is not a valid label selector operator")
    );
    assert!(!bad_op.matches(&labels));
    let no_values = LabelSelector {
        match_expressions: vec![expr("x", "NotIn", &[])],
        ..LabelSelector::default()
    };
    assert_eq!(
        no_values.to_selector().err().as_deref(),
        Some(
            "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty"
        )
    );
}
