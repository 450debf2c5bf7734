//! The component walk: types, keys, labels, ids and binding paths, recursively through groups and
//! dynamic lists.
//!
//! Normalising means making the schema what form-js expects without changing what the author (or model)
//! meant: a known synonym type becomes its form-js type, a missing label is made from the key and a
//! missing key from the label, a missing or clashing id is generated in form-js's own `Field_xxxxxxx`
//! style. Anything that cannot be repaired without guessing is refused, with the field named.

use std::collections::HashSet;

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::Report;
use super::catalogue::{self, Class};
use super::constraints::{self, brief};
use super::secrets;
use crate::words;

/// A keyed input field as the walk found it: for process fit and the refinement diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The full binding path: container paths and the key, dot-joined.
    pub path: String,
    /// The component's id.
    pub id: String,
    /// The sentence-start naming the field ("The field \"Start date\"").
    pub who: String,
    /// Whether it sits inside a dynamic list (its path is per list item).
    pub in_list: bool,
}

/// Binding claims in one scope, as form-js's path registry makes them: a keyed field claims its path
/// closed (nothing may bind the same path, a prefix or an extension of it); a group claims its path
/// open (its children extend it).
#[derive(Default)]
struct Claims {
    closed: Vec<(Vec<String>, String)>,
    open: Vec<(Vec<String>, String)>,
}

fn is_prefix(a: &[String], b: &[String]) -> bool {
    a.len() < b.len() && b.starts_with(a)
}

impl Claims {
    /// Claims `path` closed; returns the claim it clashes with (its path and who made it).
    fn claim_closed(&mut self, path: Vec<String>, who: &str) -> Option<(Vec<String>, String)> {
        let clash = self
            .closed
            .iter()
            .find(|(c, _)| *c == path || is_prefix(c, &path) || is_prefix(&path, c))
            .or_else(|| self.open.iter().find(|(o, _)| *o == path || is_prefix(&path, o)))
            .cloned();
        if clash.is_none() {
            self.closed.push((path, who.to_string()));
        }
        clash
    }

    /// Claims `path` open; returns the claim it clashes with.
    fn claim_open(&mut self, path: Vec<String>, who: &str) -> Option<(Vec<String>, String)> {
        let clash = self.closed.iter().find(|(c, _)| *c == path || is_prefix(c, &path)).cloned();
        if clash.is_none() {
            self.open.push((path, who.to_string()));
        }
        clash
    }
}

/// form-js's key pattern (`^\w+(\.\w+)*$`, ASCII word characters).
fn valid_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .split('.')
            .all(|seg| !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
}

/// The path of a group (may be empty) or a dynamic list.
fn valid_path(path: &str) -> bool {
    path.is_empty() || valid_key(path)
}

/// Why a syntactically valid key still cannot bind: segments form-js's editor refuses.
fn unsafe_segment(key: &str) -> Option<&str> {
    key.split('.').find(|seg| {
        matches!(*seg, "__proto__" | "prototype" | "constructor") || seg.bytes().all(|b| b.is_ascii_digit())
    })
}

/// Walks a form's components.
pub struct Walker<'r> {
    report: &'r mut Report,
    ids: HashSet<String>,
    seed: String,
    /// Every keyed field, in document order.
    pub bindings: Vec<Binding>,
}

const MAX_DEPTH: usize = 32;

impl<'r> Walker<'r> {
    /// A walker recording into `report`; `seed` makes generated ids deterministic per form.
    pub fn new(report: &'r mut Report, seed: &str) -> Self {
        Walker { report, ids: HashSet::new(), seed: seed.to_string(), bindings: Vec::new() }
    }

    /// Walks the root's components list.
    pub fn walk_root(&mut self, components: &mut Vec<Value>) {
        let mut claims = Claims::default();
        self.walk(components, &[], &mut claims, false, "", 0);
    }

    fn walk(
        &mut self,
        components: &mut Vec<Value>,
        prefix: &[String],
        claims: &mut Claims,
        in_list: bool,
        position: &str,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            self.report
                .refuse(format!("The form nests groups more than {MAX_DEPTH} levels deep; flatten it."));
            return;
        }
        self.drop_repeats(components, position);
        for (i, component) in components.iter_mut().enumerate() {
            let at = if position.is_empty() { format!("{}", i + 1) } else { format!("{position}.{}", i + 1) };
            let Some(c) = component.as_object_mut() else {
                self.report.refuse(format!(
                    "Component {at} of the form is {}, not a component; every component is an object with a \"type\".",
                    brief(component)
                ));
                continue;
            };
            self.component(c, prefix, claims, in_list, &at, depth);
        }
    }

    /// A component that is an exact copy of an earlier sibling (ids aside) carries nothing new: models
    /// that loop write the same field again and again. The copies go, with a warning; anything that
    /// differs stays and must pass the rules.
    fn drop_repeats(&mut self, components: &mut Vec<Value>, position: &str) {
        let strip = |v: &Value| {
            let mut v = v.clone();
            if let Some(o) = v.as_object_mut() {
                o.remove("id");
            }
            v
        };
        let mut kept: Vec<Value> = Vec::with_capacity(components.len());
        let mut seen: Vec<Value> = Vec::new();
        let mut repeats: Vec<(String, usize)> = Vec::new();
        for c in components.drain(..) {
            let bare = strip(&c);
            if bare.is_object() && seen.contains(&bare) {
                let name = naming(c.as_object().expect("object"), position);
                match repeats.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, count)) => *count += 1,
                    None => repeats.push((name, 1)),
                }
                continue;
            }
            seen.push(bare);
            kept.push(c);
        }
        *components = kept;
        for (name, count) in repeats {
            let times = if count == 1 { "once more".to_string() } else { format!("{count} more times") };
            self.report.warn(format!("{name} was repeated {times}, identically; the copies were removed."));
        }
    }

    fn component(
        &mut self,
        c: &mut Map<String, Value>,
        prefix: &[String],
        claims: &mut Claims,
        in_list: bool,
        at: &str,
        depth: usize,
    ) {
        let original_type = c.get("type").cloned();
        let who_before = naming(c, at);
        let Some(kind) = self.settle_type(c, &who_before) else {
            return;
        };
        let class = catalogue::class_of(&kind).expect("settled types are known");
        self.aliases(c, &kind, &who_before);

        // Secrets first: a field asking for one is refused whatever else is wrong with it.
        for (what, text) in [
            ("type", original_type.as_ref().and_then(Value::as_str).map(str::to_string)),
            ("key", c.get("key").and_then(Value::as_str).map(str::to_string)),
            ("label", c.get("label").and_then(Value::as_str).map(str::to_string)),
        ] {
            if let Some(text) = text
                && let Some(secret) = secrets::secret_in(&text)
            {
                self.report.refuse(format!(
                    "{who_before} asks for a secret (its {what} says \"{secret}\"). A form is stored and read by people and agents, so no field is safe for one: keep credentials in a vault and let the form name the entry instead."
                ));
                return;
            }
        }

        match class {
            Class::Input => self.input(c, &kind, at),
            Class::Container => self.container_label(c),
            Class::Presentational => self.presentational(c, &kind, &who_before),
        }
        let who = naming(c, at);
        self.settle_id(c, at);

        // Bindings
        match class {
            Class::Input => {
                if let Some(key) = c.get("key").and_then(Value::as_str) {
                    let mut path = prefix.to_vec();
                    path.extend(key.split('.').map(str::to_string));
                    if let Some((other_path, other)) = claims.claim_closed(path.clone(), &who) {
                        let (mine, theirs) = (path.join("."), other_path.join("."));
                        let what = if mine == theirs {
                            format!("{who} and {} both bind \"{mine}\"", words::lower_first(&other))
                        } else {
                            format!(
                                "{who} binds \"{mine}\", which overlaps \"{theirs}\" that {} binds",
                                words::lower_first(&other)
                            )
                        };
                        self.report.refuse(format!(
                            "{what}; form-js binds each path once (no key may equal, contain or extend another), so give one of them another key."
                        ));
                    }
                    let id = c.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
                    self.bindings.push(Binding { path: path.join("."), id, who: who.clone(), in_list });
                }
            }
            Class::Container => {
                let path = c.get("path").and_then(Value::as_str).unwrap_or_default().to_string();
                let mut full = prefix.to_vec();
                if !path.is_empty() {
                    full.extend(path.split('.').map(str::to_string));
                }
                let repeated = kind == "dynamiclist";
                if !path.is_empty() {
                    let clash = if repeated {
                        claims.claim_closed(full.clone(), &who)
                    } else {
                        claims.claim_open(full.clone(), &who)
                    };
                    if let Some((_, other)) = clash {
                        self.report.refuse(format!(
                            "{who} uses the path \"{}\", which {} already binds; give the {kind} another path.",
                            full.join("."),
                            words::lower_first(&other)
                        ));
                    }
                    if repeated {
                        let id = c.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
                        self.bindings.push(Binding { path: full.join("."), id, who: who.clone(), in_list });
                    }
                }
                match c.get_mut("components") {
                    Some(Value::Array(children)) => {
                        if repeated {
                            let mut scope = Claims::default();
                            self.walk(children, &[], &mut scope, true, at, depth + 1);
                        } else {
                            self.walk(children, &full, claims, in_list, at, depth + 1);
                        }
                    }
                    Some(other) => self.report.refuse(format!(
                        "{who} has \"components\" set to {}; a {kind} holds a list of components.",
                        brief(other)
                    )),
                    None => {
                        c.insert("components".into(), Value::Array(Vec::new()));
                        self.report.warn(format!("{who} held no components; it is empty."));
                    }
                }
            }
            Class::Presentational => {}
        }
        constraints::check(&kind, c, &who, self.report);
    }

    /// Makes `type` a form-js type. Returns `None` (after refusing) when that cannot be done.
    fn settle_type(&mut self, c: &mut Map<String, Value>, who: &str) -> Option<String> {
        let bindsish = ["key", "name", "values", "options", "validate", "defaultValue"]
            .iter()
            .any(|k| c.contains_key(*k));
        let given = match c.get("type") {
            Some(Value::String(t)) => t.clone(),
            Some(other) => {
                self.report.refuse(format!(
                    "{who} has the type {}; a type is a text such as \"textfield\".",
                    brief(other)
                ));
                return None;
            }
            None if bindsish || c.contains_key("label") => {
                c.insert("type".into(), Value::String("textfield".into()));
                self.report.warn(format!("{who} had no type; it is now a text field."));
                return Some("textfield".into());
            }
            None => {
                self.report.refuse(format!(
                    "{who} has no type; give it one of form-js's types, such as \"textfield\" or \"text\"."
                ));
                return None;
            }
        };
        if given == "default" {
            self.report.refuse(format!("{who} has the type \"default\", which only the form itself has; use a group to hold components."));
            return None;
        }
        if catalogue::class_of(&given).is_some() {
            return Some(given);
        }
        if let Some(r) = catalogue::synonym(&given) {
            c.insert("type".into(), Value::String(r.kind.into()));
            if let Some(sub) = r.subtype {
                c.entry("subtype").or_insert(Value::String(sub.into()));
            }
            if let Some(vt) = r.validation_type {
                let validate = c.entry("validate").or_insert_with(|| Value::Object(Map::new()));
                if let Some(v) = validate.as_object_mut() {
                    v.entry("validationType").or_insert(Value::String(vt.into()));
                }
            }
            self.report.warn(format!(
                "{who} had the type \"{given}\", which form-js does not know; it is now a {}.",
                describe_kind(r.kind, r.subtype)
            ));
            return Some(r.kind.to_string());
        }
        if bindsish || c.contains_key("label") {
            c.insert("type".into(), Value::String("textfield".into()));
            self.report.warn(format!(
                "{who} had the type \"{given}\", which form-js does not know; it is now a text field."
            ));
            return Some("textfield".into());
        }
        self.report.refuse(format!(
            "{who} has the type \"{given}\", which form-js does not know, and binds nothing; use one of form-js's types or remove it."
        ));
        None
    }

    /// Common spellings models use for form-js properties.
    fn aliases(&mut self, c: &mut Map<String, Value>, kind: &str, who: &str) {
        if !c.contains_key("key")
            && catalogue::class_of(kind) == Some(Class::Input)
            && let Some(Value::String(name)) = c.get("name")
            && valid_key(name)
        {
            let name = name.clone();
            c.remove("name");
            c.insert("key".into(), Value::String(name.clone()));
            self.report.warn(format!("{who} named its key in \"name\"; it is now the key \"{name}\"."));
        }
        if catalogue::OPTION_FIELDS.contains(&kind)
            && !c.contains_key("values")
            && let Some(options) = c.remove("options")
        {
            c.insert("values".into(), options);
        }
        if let Some(required) = c.remove("required") {
            let validate = c.entry("validate").or_insert_with(|| Value::Object(Map::new()));
            if let Some(v) = validate.as_object_mut() {
                v.entry("required").or_insert(required);
            }
        }
    }

    fn input(&mut self, c: &mut Map<String, Value>, kind: &str, at: &str) {
        if kind == "datetime" {
            datetime_labels(c);
        }
        let who = naming(c, at);
        // label: a text; numbers and booleans become text
        match c.get("label") {
            Some(Value::String(_)) | None => {}
            Some(Value::Number(_) | Value::Bool(_)) => {
                let text = c["label"].to_string();
                c.insert("label".into(), Value::String(text.clone()));
                self.report.warn(format!("{who} had a label that was not a text; it is now \"{text}\"."));
            }
            Some(other) => {
                self.report.refuse(format!("{who} has the label {}; a label is a text.", brief(other)));
                c.remove("label");
            }
        }
        let label = c.get("label").and_then(Value::as_str).map(str::trim).unwrap_or("").to_string();
        match c.get("key") {
            Some(Value::String(key)) => {
                let key = key.clone();
                if !valid_key(&key) {
                    let suggestion = words::key_from_label(&key).filter(|k| valid_key(k));
                    self.report.refuse(format!(
                        "{who} has the key \"{key}\", which form-js cannot bind; use letters, digits and _ with dots between path segments{}.",
                        suggestion.map(|s| format!(", e.g. \"{s}\"")).unwrap_or_default()
                    ));
                } else if let Some(seg) = unsafe_segment(&key) {
                    self.report.refuse(format!(
                        "{who} has the key \"{key}\", whose segment \"{seg}\" form-js refuses (numbers make lists, and __proto__, prototype and constructor are reserved); rename it."
                    ));
                }
            }
            Some(other) => {
                self.report.refuse(format!(
                    "{who} has the key {}; a key is a text such as \"startDate\".",
                    brief(other)
                ));
            }
            None => match words::key_from_label(&label) {
                Some(key) if !label.is_empty() => {
                    c.insert("key".into(), Value::String(key.clone()));
                    self.report.warn(format!(
                        "{who} had no key; it now binds \"{key}\". Check that the process uses that name."
                    ));
                }
                _ => {
                    self.report.refuse(format!(
                        "The {kind} at position {at} has neither a key nor a label; give it the key of the process variable it fills."
                    ));
                    return;
                }
            },
        }
        // An expression field is computed and never shown, and a datetime shows dateLabel/timeLabel.
        let shown_label = match kind {
            "expression" => return,
            "datetime" => ["dateLabel", "timeLabel"]
                .iter()
                .filter_map(|p| c.get(*p).and_then(Value::as_str))
                .find(|l| !l.trim().is_empty())
                .map(str::to_string)
                .unwrap_or_default(),
            _ => label,
        };
        if shown_label.is_empty()
            && let Some(key) = c.get("key").and_then(Value::as_str)
        {
            let made = words::humanise(key.rsplit('.').next().unwrap_or(key));
            if !made.is_empty() {
                let prop = match (kind, c.get("subtype").and_then(Value::as_str)) {
                    ("datetime", Some("time")) => "timeLabel",
                    ("datetime", _) => "dateLabel",
                    _ => "label",
                };
                c.insert(prop.into(), Value::String(made.clone()));
                self.report.warn(format!("{who} had no label; it is now \"{made}\"."));
            }
        }
    }

    fn container_label(&mut self, c: &mut Map<String, Value>) {
        if let Some(label) = c.get("label")
            && !label.is_string()
        {
            let text = match label {
                Value::Number(_) | Value::Bool(_) => label.to_string(),
                _ => String::new(),
            };
            c.insert("label".into(), Value::String(text));
        }
        let kind = c.get("type").and_then(Value::as_str).unwrap_or_default().to_string();
        match c.get("path") {
            None | Some(Value::String(_)) => {}
            Some(other) => {
                let text = brief(other);
                c.remove("path");
                self.report.refuse(format!(
                    "{} has the path {text}; a path is a text such as \"address\".",
                    naming(c, "")
                ));
            }
        }
        let path = c.get("path").and_then(Value::as_str).unwrap_or_default().to_string();
        if !valid_path(&path) {
            self.report.refuse(format!(
                "{} has the path \"{path}\", which form-js cannot bind; use letters, digits and _ with dots between segments.",
                naming(c, "")
            ));
        }
        if kind == "dynamiclist" && path.is_empty() {
            let from = c
                .get("key")
                .and_then(Value::as_str)
                .map(str::to_string)
                .or_else(|| c.get("label").and_then(Value::as_str).and_then(words::key_from_label));
            if let Some(p) = from.filter(|p| valid_key(p)) {
                c.insert("path".into(), Value::String(p.clone()));
                self.report.warn(format!("{} had no path; its items now bind under \"{p}\".", naming(c, "")));
            } else {
                self.report.refuse(format!(
                    "{} has no path; a dynamic list binds a list variable, so give it the path of that variable.",
                    naming(c, "")
                ));
            }
        }
        if c.contains_key("key") && kind == "group" {
            // a group binds by path; a key there is ignored by form-js
            let key = c.remove("key").expect("present");
            if !c.contains_key("path")
                && let Some(k) = key.as_str().filter(|k| valid_key(k))
            {
                c.insert("path".into(), Value::String(k.to_string()));
            }
        } else if kind == "dynamiclist" {
            c.remove("key");
        }
    }

    fn presentational(&mut self, c: &mut Map<String, Value>, kind: &str, who: &str) {
        if let Some(key) = c.remove("key") {
            self.report.warn(format!(
                "{who} is a {kind}, which binds no data; its key {} was removed.",
                brief(&key)
            ));
        }
        for prop in ["validate", "defaultValue"] {
            c.remove(prop);
        }
        // text, html, image, spacer and separator show no label (form-js's schema forbids one there)
        let labelled = matches!(kind, "button" | "iframe" | "table" | "documentPreview");
        if c.get("label").is_some_and(|l| !labelled || !l.is_string()) {
            c.remove("label");
        }
    }

    /// Keeps a unique string id; generates one in form-js's style where missing or clashing.
    fn settle_id(&mut self, c: &mut Map<String, Value>, at: &str) {
        let given = c.get("id").and_then(Value::as_str).map(str::to_string).filter(|s| !s.trim().is_empty());
        match given {
            Some(id) if !self.ids.contains(&id) => {
                self.ids.insert(id);
            }
            given => {
                let id = self.generate_id(at);
                if let Some(old) = given {
                    self.report.warn(format!(
                        "{} had the id \"{old}\", which another component already has; it is now \"{id}\".",
                        naming(c, at)
                    ));
                }
                c.insert("id".into(), Value::String(id));
            }
        }
    }

    fn generate_id(&mut self, at: &str) -> String {
        const ALPHABET: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
        for attempt in 0u32.. {
            let digest = Sha256::digest(format!("{}\u{0}{at}\u{0}{attempt}", self.seed));
            let tail: String = digest.iter().take(7).map(|b| ALPHABET[(*b as usize) % 36] as char).collect();
            let id = format!("Field_{tail}");
            if self.ids.insert(id.clone()) {
                return id;
            }
        }
        unreachable!("an unused id is always found")
    }
}

/// A datetime shows `dateLabel` (and `timeLabel`), not `label`: a `label` given alone becomes the
/// label of the part the subtype shows.
fn datetime_labels(c: &mut Map<String, Value>) {
    let has_own = c.contains_key("dateLabel") || c.contains_key("timeLabel");
    if let (false, Some(Value::String(label))) = (has_own, c.get("label")) {
        let label = label.clone();
        let subtype = c.get("subtype").and_then(Value::as_str).unwrap_or("date").to_string();
        if subtype != "time" {
            c.insert("dateLabel".into(), Value::String(label.clone()));
        }
        if subtype != "date" {
            c.insert("timeLabel".into(), Value::String(label));
        }
    }
}

/// "The field \"Label\"", falling back to the key, then the id, then the position.
pub fn naming(c: &Map<String, Value>, at: &str) -> String {
    let kind = c.get("type").and_then(Value::as_str).unwrap_or("component");
    let noun = match catalogue::class_of(kind) {
        Some(Class::Input) | None => "field",
        Some(Class::Container) if kind == "group" => "group",
        Some(Class::Container) => "list",
        Some(Class::Presentational) => kind,
    };
    let label = ["label", "dateLabel", "timeLabel"]
        .iter()
        .filter_map(|p| c.get(*p).and_then(Value::as_str))
        .map(str::trim)
        .find(|l| !l.is_empty());
    if let Some(label) = label {
        return format!("The {noun} \"{}\"", clip(label));
    }
    if let Some(key) = c.get("key").and_then(Value::as_str).filter(|k| !k.is_empty()) {
        return format!("The {noun} with key \"{}\"", clip(key));
    }
    if let Some(path) = c.get("path").and_then(Value::as_str).filter(|k| !k.is_empty()) {
        return format!("The {noun} with path \"{}\"", clip(path));
    }
    if let Some(id) = c.get("id").and_then(Value::as_str).filter(|k| !k.is_empty()) {
        return format!("The {noun} with id \"{}\"", clip(id));
    }
    if at.is_empty() { format!("A {noun}") } else { format!("The {noun} at position {at}") }
}

fn clip(s: &str) -> String {
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s.to_string()
    }
}

fn describe_kind(kind: &str, subtype: Option<&str>) -> String {
    match (kind, subtype) {
        ("datetime", Some(sub)) => format!("datetime field ({sub})"),
        ("textfield", _) => "text field".into(),
        (k, _) => format!("{k} field"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys() {
        for ok in ["a", "a.b", "start_date", "x1.y2"] {
            assert!(valid_key(ok), "{ok}");
        }
        for bad in ["", "a b", "a..b", ".a", "a.", "ä", "a-b"] {
            assert!(!valid_key(bad), "{bad}");
        }
        assert_eq!(unsafe_segment("a.0"), Some("0"));
        assert_eq!(unsafe_segment("__proto__.x"), Some("__proto__"));
        assert_eq!(unsafe_segment("a.b"), None);
    }

    #[test]
    fn claims_follow_form_js() {
        let p = |s: &str| s.split('.').map(str::to_string).collect::<Vec<_>>();
        let mut c = Claims::default();
        assert_eq!(c.claim_closed(p("a"), "A"), None);
        assert_eq!(c.claim_closed(p("a.b"), "B").map(|(_, w)| w).as_deref(), Some("A"));
        assert_eq!(c.claim_closed(p("c.d"), "D"), None);
        assert_eq!(c.claim_closed(p("c.e"), "E"), None);
        assert_eq!(c.claim_open(p("c"), "G"), None, "a group over c.* is fine");
        assert_eq!(c.claim_closed(p("c"), "C").map(|(_, w)| w).as_deref(), Some("D"));
        assert_eq!(c.claim_open(p("a"), "G2").map(|(_, w)| w).as_deref(), Some("A"));
    }
}
