//! The component walk: types, keys, labels, ids and binding paths, recursively through groups and
//! dynamic lists.
//!
//! Normalising means making the schema what form-js expects without changing what the author (or model)
//! meant. A missing or clashing id is generated in form-js's own `Field_xxxxxxx` style; an input that
//! repeats an earlier sibling exactly, key included, is removed (presentational components never are).
//! A model's answer is repaired further (synonym types, labels from keys, keys from labels: see
//! `fields.rs`); a hand-written form keeps its custom types and labels and gets no invented names.
//! Anything that cannot be repaired without guessing is refused, with the field named. The walk is
//! linear: ids, repeats and binding claims live in hash maps, and the caller's stop hook is asked every
//! [`STOP_EVERY`] components.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::claims::Claims;
use super::constraints::{self, brief};
use super::fields::{KEY_FIX, PATH_FIX};
use super::names::{describe_kind, naming, path_refusal, valid_key, valid_path};
use super::{Origin, Report, Rule, STOP_EVERY, leaks, markup, secrets};
use crate::formjs::within_path_bounds;
use crate::formjs::{self, Class};
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

/// What the walk makes of a component's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// One of form-js's own types.
    Known(Class),
    /// A type a host application registers with form-js (hand-written forms only): kept as written.
    Custom,
}

/// Walks a form's components.
pub struct Walker<'r> {
    pub(super) report: &'r mut Report,
    ids: HashSet<String>,
    seed: String,
    pub(super) origin: Origin,
    stop: Option<&'r (dyn Fn() -> bool + Sync)>,
    visited: usize,
    /// Set when the stop hook said to stop; the walk then returns without finishing.
    pub stopped: bool,
    /// Every keyed field, in document order.
    pub bindings: Vec<Binding>,
    fetches: Vec<leaks::Fetch>,
    editable: HashSet<String>,
}

/// Groups and lists nested deeper than this are refused: the walk recurses once per level.
const MAX_DEPTH: usize = crate::limits::nesting::FORM;

/// What [`path_refusal`] calls the path a field binds with its containers' paths.
const WHOLE_PATH: &str = "a whole binding path (the paths of the groups around it and its own)";
/// How to mend a whole path past the bounds.
const WHOLE_FIX: &str = "shorten its key or path, or the paths of the groups around it";

/// form-js 1.x types that are gone: the import fails on them.
const RETIRED: &[(&str, &str)] =
    &[("columns", "lay the fields out side by side with the same \"layout\": {\"row\"} instead")];

impl<'r> Walker<'r> {
    /// A walker recording into `report`; `seed` makes generated ids deterministic per form.
    pub fn new(
        report: &'r mut Report,
        seed: &str,
        origin: Origin,
        stop: Option<&'r (dyn Fn() -> bool + Sync)>,
    ) -> Self {
        Walker {
            report,
            ids: HashSet::new(),
            seed: seed.to_string(),
            origin,
            stop,
            visited: 0,
            stopped: false,
            bindings: Vec::new(),
            fetches: Vec::new(),
            editable: HashSet::new(),
        }
    }

    /// Walks the root's components list.
    pub(crate) fn walk_root(&mut self, components: &mut Vec<Value>) {
        let mut claims = Claims::default();
        self.walk(components, "", &mut claims, false, "", 0);
        leaks::judge(&self.fetches, &self.editable, self.report);
    }

    fn walk(
        &mut self,
        components: &mut Vec<Value>,
        prefix: &str,
        claims: &mut Claims,
        in_list: bool,
        position: &str,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            self.report.refuse(
                Rule::InvalidComponent,
                format!("The form nests groups more than {MAX_DEPTH} levels deep; flatten it."),
            );
            return;
        }
        self.drop_repeats(components, position);
        for (i, component) in components.iter_mut().enumerate() {
            if self.stopped {
                return;
            }
            self.visited += 1;
            if self.visited.is_multiple_of(STOP_EVERY) && self.stop.is_some_and(|stop| stop()) {
                self.stopped = true;
                return;
            }
            let at = if position.is_empty() { format!("{}", i + 1) } else { format!("{position}.{}", i + 1) };
            let Some(c) = component.as_object_mut() else {
                self.report.at(None);
                self.report.refuse(Rule::InvalidComponent, format!(
                    "Component {at} of the form is {}, not a component; every component is an object with a \"type\".",
                    brief(component)
                ));
                continue;
            };
            self.component(c, prefix, claims, in_list, &at, depth);
        }
    }

    /// An input that is an exact copy of an earlier sibling, key included (ids aside), carries nothing
    /// new: models that loop write the same field again and again. Such a copy goes, with a warning
    /// that names it; anything that differs stays and must pass the rules. Presentational components
    /// and containers are never removed (a second separator or "Submit" button is the author's).
    /// Each input is serialised once and looked up in a hash map: linear in the form's size.
    fn drop_repeats(&mut self, components: &mut Vec<Value>, position: &str) {
        let mut first: HashMap<String, usize> = HashMap::new();
        let mut kept: Vec<Value> = Vec::with_capacity(components.len());
        for (i, c) in components.drain(..).enumerate() {
            let repeatable = c.as_object().is_some_and(|o| {
                o.get("key").is_some_and(Value::is_string)
                    && o.get("type").and_then(Value::as_str).is_none_or(|t| {
                        !matches!(formjs::class_of(t), Some(Class::Container | Class::Presentational))
                    })
            });
            if !repeatable {
                kept.push(c);
                continue;
            }
            let o = c.as_object().expect("an object");
            let bare: Map<String, Value> =
                o.iter().filter(|(k, _)| k.as_str() != "id").map(|(k, v)| (k.clone(), v.clone())).collect();
            let text = Value::Object(bare).to_string();
            match first.get(&text) {
                Some(&index) => {
                    let at = if position.is_empty() {
                        format!("{}", i + 1)
                    } else {
                        format!("{position}.{}", i + 1)
                    };
                    let copy = naming(o, &at);
                    let original = kept[index].as_object().expect("an object");
                    let own_id = o.get("id").and_then(Value::as_str);
                    let their_id = original.get("id").and_then(Value::as_str);
                    let ids = match (own_id, their_id) {
                        (Some(mine), Some(theirs)) if mine != theirs => format!(
                            " (id \"{mine}\") repeats the one with id \"{theirs}\" in everything but its id, key included"
                        ),
                        (Some(mine), _) => format!(" (id \"{mine}\") repeats an earlier one exactly"),
                        (None, Some(theirs)) => format!(
                            " repeats the one with id \"{theirs}\" in everything but its id, key included"
                        ),
                        (None, None) => " repeats an earlier one exactly, key included".to_string(),
                    };
                    self.report.warn(format!(
                        "{copy} at position {at}{ids}; the copy was removed (one field per key)."
                    ));
                }
                None => {
                    first.insert(text, kept.len());
                    kept.push(c);
                }
            }
        }
        *components = kept;
    }

    /// A component's type settled (refused when it asks for a secret), its class's own repairs done
    /// and its id settled: the type, its kind and how sentences name the component now.
    fn settle(&mut self, c: &mut Map<String, Value>, at: &str) -> Option<(String, Kind, String)> {
        let original_type = c.get("type").and_then(Value::as_str).map(str::to_string);
        let who_before = naming(c, at);
        // Secrets first: a field asking for one is refused whatever else is wrong with it.
        if let Some(sentence) = secrets::refusal(c, original_type.as_deref(), &who_before) {
            self.report.refuse(Rule::SecretField, sentence);
            return None;
        }
        let kind_name = self.settle_type(c, &who_before)?;
        let kind = match formjs::class_of(&kind_name) {
            Some(class) => Kind::Known(class),
            None => Kind::Custom,
        };
        if self.origin == Origin::Model {
            self.aliases(c, &kind_name, &who_before);
        }
        match kind {
            Kind::Known(Class::Input) => self.input(c, &kind_name, at),
            Kind::Known(Class::Container) => self.container(c, &kind_name, at),
            Kind::Known(Class::Presentational) => self.presentational(c, &kind_name, &who_before),
            Kind::Custom => {}
        }
        self.settle_id(c, at);
        let who = naming(c, at);
        Some((kind_name, kind, who))
    }

    fn component(
        &mut self,
        c: &mut Map<String, Value>,
        prefix: &str,
        claims: &mut Claims,
        in_list: bool,
        at: &str,
        depth: usize,
    ) {
        let here = located(c, prefix);
        self.report.at(here.clone());
        let Some((kind_name, kind, who)) = self.settle(c, at) else {
            return;
        };

        // Bindings: a path past the bounds is refused before anything holds it
        let key = c.get("key").and_then(Value::as_str);
        match kind {
            Kind::Known(Class::Input) | Kind::Custom if key.is_some_and(|k| !within_path_bounds(k)) => {
                let key = key.expect("some");
                self.report.refuse(
                    Rule::UnbindableKey,
                    path_refusal(&who, "a key", key, KEY_FIX).expect("past the bounds"),
                );
            }
            Kind::Known(Class::Input) | Kind::Custom if key.is_some_and(valid_key) => {
                let key = key.expect("some").to_string();
                let path = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
                match path_refusal(&who, WHOLE_PATH, &path, WHOLE_FIX) {
                    Some(sentence) => self.report.refuse(Rule::UnbindableKey, sentence),
                    None => self.bind_key(c, &key, path, &who, claims, in_list),
                }
            }
            Kind::Known(Class::Container) => {
                let path = c.get("path").and_then(Value::as_str).unwrap_or_default().to_string();
                // a container refused for its path is not looked at further: the form is refused
                if let Some(sentence) = path_refusal(&who, "a path", &path, PATH_FIX) {
                    self.report.refuse(Rule::UnbindableKey, sentence);
                    return;
                }
                let full = match (prefix.is_empty(), path.is_empty()) {
                    (_, true) => prefix.to_string(),
                    (true, false) => path.clone(),
                    (false, false) => format!("{prefix}.{path}"),
                };
                if let Some(sentence) = path_refusal(&who, WHOLE_PATH, &full, WHOLE_FIX) {
                    // its children are not walked: each would bind under the path refused here
                    self.report.refuse(Rule::UnbindableKey, sentence);
                    return;
                }
                let repeated = kind_name == "dynamiclist";
                if !path.is_empty() && valid_path(&path) {
                    let clash = if repeated {
                        claims.claim_closed(&full, &who)
                    } else {
                        claims.claim_open(&full, &who)
                    };
                    if let Some((_, other)) = clash {
                        self.report.refuse(Rule::DuplicateBinding, format!(
                            "{who} uses the path \"{full}\", which {} already binds; give the {kind_name} another path.",
                            words::lower_first(&other)
                        ));
                    }
                    if repeated {
                        let id = c.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
                        self.bindings.push(Binding { path: full.clone(), id, who: who.clone(), in_list });
                    }
                }
                match c.get_mut("components") {
                    Some(Value::Array(children)) => {
                        if repeated {
                            let mut scope = Claims::default();
                            self.walk(children, "", &mut scope, true, at, depth + 1);
                        } else {
                            self.walk(children, &full, claims, in_list, at, depth + 1);
                        }
                    }
                    Some(other) => self.report.refuse(
                        Rule::InvalidComponent,
                        format!(
                            "{who} has \"components\" set to {}; a {kind_name} holds a list of components.",
                            brief(other)
                        ),
                    ),
                    None => {
                        c.insert("components".into(), Value::Array(Vec::new()));
                        self.report.warn(format!("{who} held no components; it is empty."));
                    }
                }
            }
            Kind::Custom => {
                if let Some(Value::Array(children)) = c.get_mut("components") {
                    self.walk(children, prefix, claims, in_list, at, depth + 1);
                }
            }
            _ => {}
        }
        // the children walked above located their own problems: these are this component's again
        self.report.at(here);
        leaks::collect(&kind_name, c, &who, &mut self.fetches, self.report);
        markup::check(&kind_name, c, &who, self.report);
        if let Kind::Known(_) = kind {
            constraints::check(&kind_name, c, &who, self.report);
        }
    }

    /// Claims a field's binding path and records it.
    fn bind_key(
        &mut self,
        c: &Map<String, Value>,
        key: &str,
        path: String,
        who: &str,
        claims: &mut Claims,
        in_list: bool,
    ) {
        if let Some((theirs, other)) = claims.claim_closed(&path, who) {
            let what = if path == theirs {
                format!("{who} and {} both bind \"{path}\"", words::lower_first(&other))
            } else {
                format!(
                    "{who} binds \"{path}\", which overlaps \"{theirs}\" that {} binds",
                    words::lower_first(&other)
                )
            };
            self.report.refuse(Rule::DuplicateBinding, format!(
                "{what}; form-js binds each path once (no key may equal, contain or extend another), so give one of them another key."
            ));
        }
        let fixed = ["readonly", "disabled"].iter().any(|p| c.get(*p) == Some(&Value::Bool(true)));
        if !fixed {
            for name in [
                key,
                &path,
                path.split('.').next().unwrap_or_default(),
                key.split('.').next().unwrap_or_default(),
            ] {
                self.editable.insert(name.to_string());
            }
        }
        let id = c.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
        self.bindings.push(Binding { path, id, who: who.to_string(), in_list });
    }

    /// Makes `type` a type the form can keep. Returns `None` (after refusing) when that cannot be done.
    /// A model's unknown type becomes the form-js type it means (a synonym) or, when it binds a key, a
    /// text field; a hand-written form's unknown type is a custom one a host registers, kept as written.
    fn settle_type(&mut self, c: &mut Map<String, Value>, who: &str) -> Option<String> {
        let keyed = c.contains_key("key") || c.contains_key("name");
        let given = match c.get("type") {
            Some(Value::String(t)) => t.clone(),
            Some(other) => {
                self.report.refuse(
                    Rule::InvalidComponent,
                    format!("{who} has the type {}; a type is a text such as \"textfield\".", brief(other)),
                );
                return None;
            }
            None if self.origin == Origin::Model && (keyed || c.contains_key("label")) => {
                c.insert("type".into(), Value::String("textfield".into()));
                self.report.warn(format!("{who} had no type; it is now a text field."));
                return Some("textfield".into());
            }
            None => {
                self.report.refuse(Rule::InvalidComponent, format!(
                    "{who} has no type; give it one of form-js's types, such as \"textfield\" or \"text\"."
                ));
                return None;
            }
        };
        if given == "default" {
            self.report.refuse(Rule::InvalidComponent, format!("{who} has the type \"default\", which only the form itself has; use a group to hold components."));
            return None;
        }
        if formjs::class_of(&given).is_some() {
            return Some(given);
        }
        if let Some((_, instead)) = RETIRED.iter().find(|(t, _)| *t == given) {
            self.report.refuse(Rule::InvalidComponent, format!(
                "{who} has the type \"{given}\", which form-js 1.x no longer has (the import fails); {instead}."
            ));
            return None;
        }
        let synonym = formjs::synonym(&given);
        if self.origin == Origin::Author {
            let meant = synonym
                .map(|r| {
                    format!(
                        " If you meant form-js's own {}, write \"type\": \"{}\".",
                        describe_kind(r.kind.as_str(), r.subtype),
                        r.kind
                    )
                })
                .unwrap_or_default();
            self.report.warn(format!(
                "{who} has the type \"{given}\", which form-js does not know; it was kept as written, so the application that shows the form must register it (form-js refuses the whole form otherwise).{meant}"
            ));
            return Some(given);
        }
        if let Some(r) = synonym {
            c.insert("type".into(), Value::String(r.kind.as_str().into()));
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
                describe_kind(r.kind.as_str(), r.subtype)
            ));
            return Some(r.kind.to_string());
        }
        if keyed {
            c.insert("type".into(), Value::String("textfield".into()));
            self.report.warn(format!(
                "{who} had the type \"{given}\", which form-js does not know; it is now a text field."
            ));
            return Some("textfield".into());
        }
        self.report.refuse(Rule::InvalidComponent, format!(
            "{who} has the type \"{given}\", which form-js does not know, and binds nothing; use one of form-js's types or remove it."
        ));
        None
    }

    /// Common spellings models use for form-js properties.
    fn aliases(&mut self, c: &mut Map<String, Value>, kind: &str, who: &str) {
        if !c.contains_key("key")
            && formjs::class_of(kind) == Some(Class::Input)
            && let Some(Value::String(name)) = c.get("name")
            && valid_key(name)
        {
            let name = name.clone();
            c.remove("name");
            c.insert("key".into(), Value::String(name.clone()));
            self.report.warn(format!("{who} named its key in \"name\"; it is now the key \"{name}\"."));
        }
        if formjs::OPTION_FIELDS.contains(&kind)
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
        for attempt in 0u32.. {
            let digest = Sha256::digest(format!("{}\u{0}{at}\u{0}{attempt}", self.seed));
            let id = format!("Field_{}", super::base36(&digest, 7));
            if self.ids.insert(id.clone()) {
                return id;
            }
        }
        unreachable!("an unused id is always found")
    }
}

/// Where a component's problems are reported: its binding path (its key, or a container's path,
/// under the paths around it), else its id.
fn located(c: &Map<String, Value>, prefix: &str) -> Option<String> {
    let own = c.get("key").or_else(|| c.get("path")).and_then(Value::as_str).filter(|k| !k.is_empty());
    match own {
        Some(k) if prefix.is_empty() => Some(k.to_string()),
        Some(k) => Some(format!("{prefix}.{k}")),
        None => c.get("id").and_then(Value::as_str).map(str::to_string),
    }
}
