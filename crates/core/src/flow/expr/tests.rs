//! The reader's rules as a table, a snapshot of realistic expressions, and properties on any text.

use super::*;
use proptest::prelude::*;

/// The reads as `path` strings (the name is the path's root, checked separately).
fn paths(reads: &[Read]) -> Vec<&str> {
    reads.iter().map(|r| r.path.as_str()).collect()
}

#[test]
fn optional_names_are_the_checked_ones() {
    assert_eq!(optional_names("if is defined(org) and org != null then {a: org} else {}"), ["org"]);
    assert_eq!(optional_names("get or else(nick.name, name) + is defined ( y )"), ["y", "nick"]);
    assert!(optional_names("is defined(a + b)").is_empty(), "not one variable");
    assert!(optional_names("definedness(x) + is defined").is_empty());
}

#[test]
fn feel_rules() {
    let table: &[(&str, &[&str])] = &[
        // names and paths
        ("order.total * 2", &["order.total"]),
        ("a.b.c", &["a.b.c"]),
        ("order.items[1].price", &["order.items"]),
        ("x + x.y + x", &["x", "x.y"]),
        ("Current Vacation Status.name + \", \" + From", &["Current Vacation Status.name", "From"]),
        ("`first-name` + `last name`.x", &["first-name", "last name.x"]),
        ("{a: 1}.a", &[]),
        // built-ins, single and multi-word, and calls in general
        ("count(items) > limit.max", &["items", "limit.max"]),
        ("string join(names, \", \")", &["names"]),
        ("is defined(x) and not(is empty(y))", &["x", "y"]),
        ("date and time(start) < now()", &["start"]),
        ("years and months duration(from, to)", &["from", "to"]),
        ("get or else(nickname, name)", &["nickname", "name"]),
        ("list contains(tags, \"vip\") or day of week(today()) = \"Monday\"", &["tags"]),
        ("round half up(amount, 2) + random number()", &["amount"]),
        ("bpmnError(\"E1\", error.message)", &["error.message"]),
        ("sum > 10", &["sum"]),
        // keywords
        ("if a then b else c", &["a", "b", "c"]),
        ("x between low and high", &["x", "low", "high"]),
        ("v instance of date and time", &["v"]),
        ("x instance of list<context> and y", &["x", "y"]),
        ("null = n or true != false", &["n"]),
        // context keys
        ("{a: x}", &["x"]),
        ("{\"a b\": x, c: {d: y}}", &["x", "y"]),
        ("{X-Api-Key: key, Content-Type: \"json\"}", &["key"]),
        ("{base: 1, total: base + extra}", &["extra"]),
        ("{a: a}", &["a"]),
        ("contains(string: s, match: \".de\")", &["s"]),
        // bound names
        ("for x in xs return x * rate", &["xs", "rate"]),
        ("for i in 1..n, j in js return i + j", &["n", "js"]),
        ("some r in risks satisfies r = level", &["risks", "level"]),
        ("every r in risks satisfies r.ok", &["risks"]),
        ("sort(list, function(a, b) a < b)", &["list"]),
        ("(function(x: number) x + k)(3)", &["k"]),
        // filters
        ("list[item > 3]", &["list"]),
        ("list[item > limit]", &["list", "limit"]),
        ("orders[amount > 10].id", &["orders"]),
        ("headers[key = \"In-Reply-To\"][1].value", &["headers"]),
        ("[1, 2, x][1]", &["x"]),
        ("x in [a, b]", &["x", "a", "b"]),
        ("list[contains(item.name, q)]", &["list", "q"]),
        ("groups[count(members[active]) > min]", &["groups"]),
        ("groups[item.size > count(members[item.ok])]", &["groups", "members"]),
        ("for o in orders return o.lines[qty > limit]", &["orders"]),
        // strings, comments, temporals
        ("\"a + b\" + c", &["c"]),
        ("\"say \\\"hi\\\" \" + who", &["who"]),
        ("a // b\n+ c /* d */", &["a", "c"]),
        ("@\"2020-01-01\" < due", &["due"]),
        ("\"{{secrets.X}}\"", &[]),
        // unary-test input and junk
        ("? > 5", &[]),
        ("", &[]),
        ("=", &[]),
        (")))]]}}}", &[]),
        ("((((a", &["a"]),
        ("\"unterminated + b", &[]),
        ("a.", &["a"]),
        ("[1..a]", &["a"]),
    ];
    for (expr, want) in table {
        let got = feel_reads(expr);
        assert_eq!(paths(&got), *want, "feel_reads({expr:?})");
        for r in &got {
            assert!(r.path.starts_with(&r.name), "{expr:?}: {r:?}");
        }
    }
}

#[test]
fn names_are_the_root_of_the_path() {
    let got = feel_reads("order.items[1].price + Current Vacation Status.name");
    assert_eq!(
        got,
        vec![
            Read { name: "order".into(), path: "order.items".into() },
            Read { name: "Current Vacation Status".into(), path: "Current Vacation Status.name".into() },
        ]
    );
}

#[test]
fn juel_rules() {
    let table: &[(&str, &[&str])] = &[
        ("${approved}", &["approved"]),
        ("${order.total > 100 && !empty customer}", &["order.total", "customer"]),
        ("${a['b'] eq 'x' or c[0] ne d}", &["a.b", "c", "d"]),
        ("${execution.getVariable(\"amount\") gt 10}", &["amount"]),
        ("${task.assignee == initiator}", &["initiator"]),
        ("${authorization.id} ${execution.processInstanceId}", &[]),
        ("#{x div 2 mod 3 le y and z instanceof t}", &["x", "y", "z", "t"]),
        ("${true} ${false} ${null} ${not done}", &["done"]),
        ("Dear ${user.name}, see {literal} and $notjuel", &["user.name"]),
        ("${dateTime().plusDays(days)}", &["days"]),
        ("${fn:upper(name)}", &["name"]),
        ("${order.getTotal() > min}", &["order", "min"]),
        ("${x == '${y}'}", &["x"]),
        ("${items.stream().map(i -> i.price)}", &["items"]),
        ("${a ? b : c}", &["a", "b", "c"]),
        ("${unterminated", &["unterminated"]),
        ("no expression at all", &[]),
    ];
    for (text, want) in table {
        assert_eq!(paths(&juel_reads(text)), *want, "juel_reads({text:?})");
    }
}

#[test]
fn zeebe_values() {
    let table: &[(&str, &[&str])] = &[
        ("=order.total", &["order.total"]),
        ("  \n= approved", &["approved"]),
        ("approved", &[]),
        ("{{secrets.API_KEY}}", &[]),
        ("secrets.SENDGRID", &[]),
        ("=\"Bearer {{secrets.TOKEN}}\"", &[]),
        ("=secrets.TOKEN + suffix", &["suffix"]),
        ("Hello {{ customer.name }}, order {{orderId}} {{secrets.X}}", &["customer.name", "orderId"]),
        ("{{ open", &[]),
        ("", &[]),
    ];
    for (value, want) in table {
        assert_eq!(paths(&zeebe_value_reads(value)), *want, "zeebe_value_reads({value:?})");
    }
}

#[test]
fn long_input_is_bounded() {
    let long = format!("a + {}", "(".repeat(MAX_EXPRESSION_BYTES * 2));
    assert_eq!(paths(&feel_reads(&long)), vec!["a"]);
    let deep = format!("{}b{}", "[".repeat(500), "]".repeat(500));
    assert_eq!(paths(&feel_reads(&deep)), vec!["b"]);
}

/// Realistic expressions, as a modeller's users write them.
const REALISTIC: &[&str] = &[
    "order.total * 2",
    "if applicant.age >= 18 then \"adult\" else \"minor\"",
    "invoice.amount > 1000 and invoice.currency = \"EUR\"",
    "count(order.items[price > 100]) > 0",
    "sum(for item in order.items return item.price * item.quantity)",
    "some p in payments satisfies p.status = \"failed\"",
    "every doc in documents satisfies is defined(doc.signature)",
    "{customerId: customer.id, total: order.total, lines: order.items}",
    "{\"Content-Type\": \"application/json\", \"Authorization\": \"Bearer \" + token}",
    "string join(for r in reviewers return r.email, \";\")",
    "date and time(submittedAt) + duration(\"P\" + string(slaDays) + \"D\")",
    "now() > date and time(deadline)",
    "get or else(customer.preferredName, customer.firstName)",
    "not(is empty(headers[key = \"X-Request-Id\"]))",
    "response.body.choices[1].message.content",
    "lower case(trim(email)) = lower case(confirmEmail)",
    "decision = \"APPROVED\" or override = true",
    "riskScore between 0 and threshold.low",
    "if is defined(discount) then price - discount else price",
    "upper case(substring(country, 1, 2))",
    "distinct values(flatten(for o in orders return o.tags))",
    "list contains(allowedRegions, region)",
    "years and months duration(birthDate, today()).years >= 18",
    "context put(request, \"priority\", if vip then \"high\" else \"normal\")",
    "{id: toolCall._meta.id, name: toolCall._meta.name, content: toolCallResult}",
    "loopCounter + 1 // next round",
    "/* legacy */ approved = false",
    "fromAi(toolCall.query, \"The search query\", \"string\")",
    "amount instance of number and amount > limits.max",
    "Employee Badge Number != null and string(Employee Badge Number) != \"\"",
    "filter(items, function(x) x.active)",
    "@\"2024-01-01\" <= startDate and endDate <= @\"2024-12-31\"",
];

#[test]
fn realistic_expressions_snapshot() {
    let mut out = String::new();
    for expr in REALISTIC {
        let reads: Vec<String> = feel_reads(expr)
            .into_iter()
            .map(|r| if r.name == r.path { r.name } else { format!("{} ({})", r.name, r.path) })
            .collect();
        out.push_str(&format!("{expr}\n  -> {}\n", reads.join(", ")));
    }
    insta::assert_snapshot!(out);
}

fn words_occur(input: &str, r: &Read) -> bool {
    r.path.starts_with(&r.name)
        && r.path.split('.').flat_map(str::split_whitespace).all(|w| !w.is_empty() && input.contains(w))
}

proptest! {
    #[test]
    fn any_text_never_panics_and_reads_occur_in_it(s in "\\PC{0,200}") {
        for r in feel_reads(&s).iter().chain(&juel_reads(&s)).chain(&zeebe_value_reads(&s)) {
            prop_assert!(words_occur(&s, r), "{r:?} not in {s:?}");
        }
    }

    #[test]
    fn feel_shaped_text_never_panics_and_reads_occur_in_it(
        parts in proptest::collection::vec(prop_oneof![
            "[a-z]{1,6}", Just(" ".to_string()), Just(".".to_string()), Just("[".to_string()),
            Just("]".to_string()), Just("{".to_string()), Just("}".to_string()), Just("(".to_string()),
            Just(")".to_string()), Just(":".to_string()), Just(",".to_string()), Just("\"".to_string()),
            Just("for".to_string()), Just("in".to_string()), Just("item".to_string()),
            Just("function".to_string()), Just("${".to_string()), Just("{{".to_string()),
            Just("}}".to_string()), Just("//".to_string()), Just("/*".to_string()), Just("`".to_string()),
        ], 0..40)
    ) {
        let s: String = parts.concat();
        for r in feel_reads(&s).iter().chain(&juel_reads(&s)).chain(&zeebe_value_reads(&s)) {
            prop_assert!(words_occur(&s, r), "{r:?} not in {s:?}");
        }
        let reads = feel_reads(&s);
        let mut seen = std::collections::HashSet::new();
        prop_assert!(reads.iter().all(|r| seen.insert(r.path.clone())), "duplicate path in {reads:?}");
    }
}
