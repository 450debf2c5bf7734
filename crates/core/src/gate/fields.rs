//! Per-class repairs of the walk: an input's key and label, a container's path, what a presentational
//! component may not carry.
//!
//! A model's answer is repaired where the intent is plain (a label made from the key, a key from the
//! label, a datetime's `label` moved to the `dateLabel` it shows). A hand-written form is not: its
//! author chose every label, empty ones included, and a key nobody wrote is refused rather than made up.

use serde_json::{Map, Value};

use super::Origin;
use super::Rule;
use super::constraints::brief;
use super::names::{naming, unsafe_segment, valid_key, valid_path};
use super::normalise::Walker;
use crate::formjs::within_path_bounds;
use crate::words;

/// How to mend a key past the path bounds.
pub(super) const KEY_FIX: &str = "give it a shorter key";
/// How to mend a container's path past the path bounds.
pub(super) const PATH_FIX: &str = "give it a shorter path";

impl Walker<'_> {
    pub(super) fn input(&mut self, c: &mut Map<String, Value>, kind: &str, at: &str) {
        let model = self.origin == Origin::Model;
        if kind == "datetime" && model {
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
                self.report.refuse(
                    Rule::InvalidLabel,
                    format!("{who} has the label {}; a label is a text.", brief(other)),
                );
                c.remove("label");
            }
        }
        let label = c.get("label").and_then(Value::as_str).map(str::trim).unwrap_or("").to_string();
        match c.get("key") {
            Some(Value::String(key)) => {
                let key = key.clone();
                if !within_path_bounds(&key) {
                    // refused with the binding, after the repairs, by the walk
                } else if !valid_key(&key) {
                    let suggestion = words::key_from_label(&key).filter(|k| valid_key(k));
                    self.report.refuse(Rule::UnbindableKey, format!(
                        "{who} has the key \"{key}\", which form-js cannot bind; use letters, digits and _ with dots between path segments{}.",
                        suggestion.map(|s| format!(", e.g. \"{s}\"")).unwrap_or_default()
                    ));
                } else if let Some(seg) = unsafe_segment(&key) {
                    self.report.refuse(Rule::UnbindableKey, format!(
                        "{who} has the key \"{key}\", whose segment \"{seg}\" form-js refuses (numbers make lists, and __proto__, prototype and constructor are reserved); rename it."
                    ));
                }
            }
            Some(other) => {
                self.report.refuse(
                    Rule::UnbindableKey,
                    format!("{who} has the key {}; a key is a text such as \"startDate\".", brief(other)),
                );
            }
            None => match words::key_from_label(&label) {
                Some(key) if model && !label.is_empty() => {
                    c.insert("key".into(), Value::String(key.clone()));
                    self.report.warn(format!(
                        "{who} had no key; it now binds \"{key}\". Check that the process uses that name."
                    ));
                }
                _ if !model => {
                    self.report.refuse(Rule::UnbindableKey, format!(
                        "{who} has no key, so form-js would bind it to a made-up name; give it the key of the process variable it fills."
                    ));
                    return;
                }
                _ => {
                    self.report.refuse(Rule::UnbindableKey, format!(
                        "The {kind} at position {at} has neither a key nor a label; give it the key of the process variable it fills."
                    ));
                    return;
                }
            },
        }
        if !model {
            return;
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

    /// A group or dynamic list: a text label, a bindable path. A group binds by `path` only: a `key`
    /// on it binds nothing in form-js, so it is removed (never turned into a path, which would move
    /// every child's binding).
    pub(super) fn container(&mut self, c: &mut Map<String, Value>, kind: &str, at: &str) {
        if let Some(label) = c.get("label")
            && !label.is_string()
        {
            let text = match label {
                Value::Number(_) | Value::Bool(_) => label.to_string(),
                _ => String::new(),
            };
            c.insert("label".into(), Value::String(text));
        }
        match c.get("path") {
            None | Some(Value::String(_)) => {}
            Some(other) => {
                let text = brief(other);
                c.remove("path");
                self.report.refuse(
                    Rule::UnbindableKey,
                    format!("{} has the path {text}; a path is a text such as \"address\".", naming(c, at)),
                );
            }
        }
        let path = c.get("path").and_then(Value::as_str).unwrap_or_default().to_string();
        if !within_path_bounds(&path) {
            // refused with the binding, by the walk
        } else if !valid_path(&path) {
            self.report.refuse(Rule::UnbindableKey, format!(
                "{} has the path \"{path}\", which form-js cannot bind; use letters, digits and _ with dots between segments.",
                naming(c, at)
            ));
        }
        if kind == "dynamiclist" && path.is_empty() {
            let from = c
                .get("key")
                .and_then(Value::as_str)
                .map(str::to_string)
                .or_else(|| c.get("label").and_then(Value::as_str).and_then(words::key_from_label));
            match from.filter(|p| valid_key(p)) {
                Some(p) if self.origin == Origin::Model => {
                    c.insert("path".into(), Value::String(p.clone()));
                    self.report
                        .warn(format!("{} had no path; its items now bind under \"{p}\".", naming(c, at)));
                }
                _ => self.report.refuse(Rule::UnbindableKey, format!(
                    "{} has no path, so form-js would bind its items to a made-up name; give it the path of the list variable it fills.",
                    naming(c, at)
                )),
            }
        }
        if let Some(key) = c.remove("key") {
            let who = naming(c, at);
            let hint = match (kind, key.as_str().filter(|k| valid_key(k)), path.is_empty()) {
                ("group", Some(k), true) => format!(
                    " If its fields belong under \"{k}\", give the group \"path\": \"{k}\" (its fields then bind \"{k}.…\")."
                ),
                _ => String::new(),
            };
            if kind == "group" {
                self.report.warn(format!(
                    "{who} had the key {}, which binds nothing (a group binds by its path); it was removed.{hint}",
                    brief(&key)
                ));
            }
        }
    }

    pub(super) fn presentational(&mut self, c: &mut Map<String, Value>, kind: &str, who: &str) {
        if let Some(key) = c.remove("key") {
            self.report.warn(format!(
                "{who} is a {kind}, which binds no data; its key {} was removed.",
                brief(&key)
            ));
        }
        for prop in ["validate", "defaultValue"] {
            c.remove(prop);
        }
        // text, html, image, spacer and separator show no label (form-js's schema forbids one there);
        // a model's stray label goes, an author's is left as written (form-js ignores it).
        let labelled = matches!(kind, "button" | "iframe" | "table" | "documentPreview");
        let stray = c.get("label").is_some_and(|l| !labelled || !l.is_string());
        if stray && (self.origin == Origin::Model || !c.get("label").is_some_and(Value::is_string)) {
            c.remove("label");
        }
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
