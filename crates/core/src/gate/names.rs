//! How the gate names things and which names form-js can bind.
//!
//! Every sentence the gate writes starts by naming the component the way its author sees it: by its
//! label, else its key, path, id or position. Keys and paths are checked against form-js's own pattern
//! and the segments its editor refuses.

use serde_json::{Map, Value};

use crate::formjs::{self, Class, MAX_PATH_BYTES, MAX_PATH_SEGMENTS, segments, within_path_bounds};

pub(super) use formjs::{matches_key_pattern as valid_key, reserved_segment as unsafe_segment};

/// The path of a group (may be empty) or a dynamic list.
pub(super) fn valid_path(path: &str) -> bool {
    path.is_empty() || valid_key(path)
}

/// The refusal of a path past the bounds, when it is: `what` says which path it is, as the end of
/// "{who} has {what} of …" ("a key", "a path", "the whole path it binds").
pub(super) fn path_refusal(who: &str, what: &str, path: &str, fix: &str) -> Option<String> {
    if within_path_bounds(path) {
        return None;
    }
    Some(format!(
        "{who} has {what} of {} segments and {} bytes (\"{}\"); a binding path may have at most {MAX_PATH_SEGMENTS} segments and {MAX_PATH_BYTES} bytes, so {fix}.",
        segments(path),
        path.len(),
        clip(path)
    ))
}

/// "The field \"Label\"", falling back to the key, then the id, then the position.
pub fn naming(c: &Map<String, Value>, at: &str) -> String {
    let kind = c.get("type").and_then(Value::as_str).unwrap_or("component");
    let noun = match formjs::class_of(kind) {
        Some(Class::Input) | None => "field",
        Some(Class::Container) if kind == "group" => "group",
        Some(Class::Container) => "list",
        Some(Class::Presentational) => kind,
    };
    let label = formjs::shown_label(c);
    if !label.is_empty() {
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

pub(super) fn describe_kind(kind: &str, subtype: Option<&str>) -> String {
    use crate::formjs::ComponentType as T;
    match (T::parse(kind), subtype) {
        (Some(T::Datetime), Some(sub)) => format!("datetime field ({sub})"),
        (Some(T::Textfield), _) => "text field".into(),
        _ => format!("{kind} field"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_bounds() {
        let at = vec!["a"; MAX_PATH_SEGMENTS].join(".");
        assert!(within_path_bounds(&at) && within_path_bounds(&"a".repeat(MAX_PATH_BYTES)));
        assert!(
            !within_path_bounds(&format!("{at}.a")) && !within_path_bounds(&"a".repeat(MAX_PATH_BYTES + 1))
        );
        let long = vec!["a"; 40_000].join(".");
        let sentence = path_refusal("The field \"X\"", "a key", &long, "give it a shorter key").unwrap();
        assert!(
            sentence.starts_with("The field \"X\" has a key of 40000 segments and 79999 bytes (\"a.a.a"),
            "{sentence}"
        );
        assert!(sentence.len() < 300, "the path is quoted clipped: {sentence}");
    }
}
