//! How the gate names things and which names form-js can bind.
//!
//! Every sentence the gate writes starts by naming the component the way its author sees it: by its
//! label, else its key, path, id or position. Keys and paths are checked against form-js's own pattern
//! and the segments its editor refuses.

use serde_json::{Map, Value};

use super::catalogue::{self, Class};

/// form-js's key pattern (`^\w+(\.\w+)*$`, ASCII word characters).
pub(super) fn valid_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .split('.')
            .all(|seg| !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
}

/// The path of a group (may be empty) or a dynamic list.
pub(super) fn valid_path(path: &str) -> bool {
    path.is_empty() || valid_key(path)
}

/// Why a syntactically valid key still cannot bind: segments form-js's editor refuses.
pub(super) fn unsafe_segment(key: &str) -> Option<&str> {
    key.split('.').find(|seg| {
        matches!(*seg, "__proto__" | "prototype" | "constructor") || seg.bytes().all(|b| b.is_ascii_digit())
    })
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

pub(super) fn describe_kind(kind: &str, subtype: Option<&str>) -> String {
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
}
