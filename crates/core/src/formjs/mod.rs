//! form-js's vocabulary: the component types form-js 1.23 knows, what to make of the ones it does
//! not, and how long a binding path may be. Everything that reads or writes a form names types from
//! here, never as its own strings.
//!
//! The list is open: a model (or a newer editor) may write a type form-js has never heard of, and a host
//! application may register its own (`range`, `starRating`). The real library refuses the whole form on
//! a type nobody registered ("form field of type `<x>` not supported"). In a model's answer a type that is
//! a known synonym (`date`, `dropdown`, `email`) becomes the form-js type that means it, and any other
//! type on a component that binds a key becomes a `textfield`; in a hand-written form an unknown type is
//! a custom one, kept as written. Always with a warning, so nothing changes silently.

/// What a component type does with data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Binds a `key` (textfield, number, select, ...).
    Input,
    /// Holds components under an optional `path` (group) or a repeated `path` (dynamiclist).
    Container,
    /// Shows something; binds nothing.
    Presentational,
}

macro_rules! component_types {
    ($($variant:ident = $name:literal: $class:ident),* $(,)?) => {
        /// A component type form-js 1.23 knows.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum ComponentType {
            $(
                #[doc = concat!("`", $name, "`")]
                $variant,
            )*
        }

        impl ComponentType {
            /// Every type, inputs first.
            pub const ALL: &[ComponentType] = &[$(ComponentType::$variant),*];

            /// The type a component's `type` names; `None` for one form-js does not know (a custom
            /// type, a synonym).
            pub fn parse(name: &str) -> Option<ComponentType> {
                match name {
                    $($name => Some(ComponentType::$variant),)*
                    _ => None,
                }
            }

            /// The name form-js gives it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ComponentType::$variant => $name,)*
                }
            }

            /// What it does with data.
            pub(crate) fn class(self) -> Class {
                match self {
                    $(ComponentType::$variant => Class::$class,)*
                }
            }
        }
    };
}

impl ComponentType {
    /// Whether form-js's `validate.required` asks more of it than an answer: a required checkbox is
    /// only submitted ticked, a required checklist or tag list only with a value chosen. Where the
    /// process needs an answer, not a yes, unticked and none chosen are answers too.
    pub fn required_means_chosen(self) -> bool {
        matches!(self, ComponentType::Checkbox | ComponentType::Checklist | ComponentType::Taglist)
    }
}

component_types! {
    Textfield = "textfield": Input,
    Textarea = "textarea": Input,
    Number = "number": Input,
    Datetime = "datetime": Input,
    Expression = "expression": Input,
    Filepicker = "filepicker": Input,
    Checkbox = "checkbox": Input,
    Checklist = "checklist": Input,
    Radio = "radio": Input,
    Select = "select": Input,
    Taglist = "taglist": Input,
    Group = "group": Container,
    Dynamiclist = "dynamiclist": Container,
    Text = "text": Presentational,
    Html = "html": Presentational,
    Image = "image": Presentational,
    Table = "table": Presentational,
    Spacer = "spacer": Presentational,
    Separator = "separator": Presentational,
    Iframe = "iframe": Presentational,
    Button = "button": Presentational,
    DocumentPreview = "documentPreview": Presentational,
}

impl ComponentType {
    /// Whether it offers options: single-valued (radio, select) or multi-valued (checklist, taglist).
    pub(crate) fn has_options(self) -> bool {
        matches!(
            self,
            ComponentType::Radio | ComponentType::Select | ComponentType::Checklist | ComponentType::Taglist
        )
    }
}

impl std::fmt::Display for ComponentType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// form-js's input types.
pub const INPUTS: &[&str] = &[
    "textfield",
    "textarea",
    "number",
    "datetime",
    "expression",
    "filepicker",
    "checkbox",
    "checklist",
    "radio",
    "select",
    "taglist",
];

/// form-js's containers.
pub const CONTAINERS: &[&str] = &["group", "dynamiclist"];

/// form-js's presentational types.
pub const PRESENTATIONAL: &[&str] =
    &["text", "html", "image", "table", "spacer", "separator", "iframe", "button", "documentPreview"];

/// Option fields: single-valued (radio, select) and multi-valued (checklist, taglist).
pub const OPTION_FIELDS: &[&str] = &["radio", "select", "checklist", "taglist"];

/// The labels form-js's editor gives a new field of each input type (`Text field`, `Checkbox group`,
/// ...), and the type names real forms carry as labels (`Text Field`, `Radio`, `Date time`): a field
/// still labelled so was never named by its author.
const NEW_FIELD_LABELS: &[&str] = &[
    "text field",
    "text area",
    "number",
    "checkbox",
    "checkbox group",
    "checklist",
    "radio",
    "radio group",
    "select",
    "tag list",
    "taglist",
    "date time",
    "file picker",
];

/// Whether `label` is one form-js's editor gives a new field ([`NEW_FIELD_LABELS`], in any case):
/// it says what kind of field it is, not what the field holds.
pub(crate) fn is_new_field_label(label: &str) -> bool {
    NEW_FIELD_LABELS.iter().any(|l| l.eq_ignore_ascii_case(label.trim()))
}

/// The class of a form-js type; `None` for a type form-js does not know.
pub(crate) fn class_of(kind: &str) -> Option<Class> {
    ComponentType::parse(kind).map(ComponentType::class)
}

/// What an unknown type becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replacement {
    /// The form-js type.
    pub kind: ComponentType,
    /// Extra properties the synonym implies (`date` → `subtype: "date"`), as `(name, value)`.
    pub subtype: Option<&'static str>,
    /// `validate.validationType` the synonym implies (`email`).
    pub validation_type: Option<&'static str>,
}

/// The form-js type a common synonym means, matched case- and separator-insensitively.
pub(crate) fn synonym(kind: &str) -> Option<Replacement> {
    let norm: String = kind.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect();
    use ComponentType as T;
    let r = |kind, subtype, validation_type| Some(Replacement { kind, subtype, validation_type });
    match norm.as_str() {
        "text" | "string" | "input" | "textinput" | "textbox" | "shorttext" | "url" | "link" => {
            r(T::Textfield, None, None)
        }
        "email" | "emailaddress" | "mail" => r(T::Textfield, None, Some("email")),
        "phone" | "tel" | "telephone" | "phonenumber" => r(T::Textfield, None, Some("phone")),
        "longtext" | "multiline" | "paragraphinput" | "textareafield" | "richtext" => {
            r(T::Textarea, None, None)
        }
        "integer" | "int" | "decimal" | "float" | "double" | "currency" | "money" | "amount" | "numeric"
        | "long" | "range" | "slider" | "percent" | "rating" => r(T::Number, None, None),
        "date" | "datepicker" | "birthday" => r(T::Datetime, Some("date"), None),
        "time" | "timepicker" => r(T::Datetime, Some("time"), None),
        "datetimelocal" | "timestamp" | "datetimepicker" => r(T::Datetime, Some("datetime"), None),
        "boolean" | "bool" | "toggle" | "switch" | "yesno" | "check" => r(T::Checkbox, None, None),
        "dropdown" | "enum" | "combobox" | "choice" | "singleselect" | "picklist" | "selectbox" => {
            r(T::Select, None, None)
        }
        "radiogroup" | "radiobutton" | "radiobuttons" | "options" => r(T::Radio, None, None),
        "multiselect" | "multiplechoice" | "checkboxes" | "checkboxgroup" => r(T::Checklist, None, None),
        "tags" | "tag" | "chips" => r(T::Taglist, None, None),
        "file" | "upload" | "fileupload" | "attachment" | "imageupload" => r(T::Filepicker, None, None),
        "heading" | "header" | "title" | "paragraph" | "markdown" | "label" | "static" | "info" | "hint" => {
            r(T::Text, None, None)
        }
        "divider" | "hr" | "line" => r(T::Separator, None, None),
        "section" | "fieldset" | "panel" | "container" => r(T::Group, None, None),
        "list" | "repeater" | "repeatable" | "array" => r(T::Dynamiclist, None, None),
        "submit" | "reset" => r(T::Button, None, None),
        _ => None,
    }
}

/// The label a component shows: its `label`, or a date or time field's `dateLabel` or `timeLabel`
/// (form-js shows those, not `label`, on a `datetime`), trimmed; `""` when it has none.
pub fn shown_label(c: &serde_json::Map<String, serde_json::Value>) -> &str {
    ["label", "dateLabel", "timeLabel"]
        .iter()
        .filter_map(|p| c.get(*p).and_then(serde_json::Value::as_str))
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or_default()
}

/// The most segments a binding path may have: a key, a container's path, or the whole path a field
/// binds (its containers' paths and its key, dot-joined). The real forms of the corpus bind at most 3.
pub const MAX_PATH_SEGMENTS: usize = 32;

/// The most bytes a binding path may have (the real forms of the corpus bind at most 33).
pub const MAX_PATH_BYTES: usize = 512;

/// Whether a path is within [`MAX_PATH_SEGMENTS`] and [`MAX_PATH_BYTES`].
pub fn within_path_bounds(path: &str) -> bool {
    path.len() <= MAX_PATH_BYTES && segments(path) <= MAX_PATH_SEGMENTS
}

/// The segments of a dot-joined path (`a.b.c`: 3).
pub fn segments(path: &str) -> usize {
    path.bytes().filter(|&b| b == b'.').count() + 1
}

/// Whether `key` matches form-js's key pattern (`^\w+(\.\w+)*$`, ASCII word characters).
pub(crate) fn matches_key_pattern(key: &str) -> bool {
    !key.is_empty()
        && key
            .split('.')
            .all(|seg| !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
}

/// The first segment of `key` form-js's editor refuses to bind (an all-digit index, or a name that
/// would reach an object's prototype), if any.
pub(crate) fn reserved_segment(key: &str) -> Option<&str> {
    key.split('.').find(|seg| {
        matches!(*seg, "__proto__" | "prototype" | "constructor") || seg.bytes().all(|b| b.is_ascii_digit())
    })
}

/// Whether a field may bind `key`: form-js's pattern, no reserved segment, within the path bounds.
pub fn bindable(key: &str) -> bool {
    matches_key_pattern(key) && reserved_segment(key).is_none() && within_path_bounds(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names of the types of a class, in [`ComponentType::ALL`]'s order.
    fn names_of(class: Class) -> Vec<&'static str> {
        ComponentType::ALL.iter().filter(|t| t.class() == class).map(|t| t.as_str()).collect()
    }

    #[test]
    fn the_lists_are_the_types_of_each_class() {
        assert_eq!(names_of(Class::Input), INPUTS);
        assert_eq!(names_of(Class::Container), CONTAINERS);
        assert_eq!(names_of(Class::Presentational), PRESENTATIONAL);
        let options: Vec<&str> =
            ComponentType::ALL.iter().filter(|t| t.has_options()).map(|t| t.as_str()).collect();
        let mut expected = OPTION_FIELDS.to_vec();
        expected.sort_by_key(|n| ComponentType::parse(n));
        assert_eq!(options, expected);
    }

    #[test]
    fn every_type_has_one_class() {
        for kind in INPUTS.iter().chain(CONTAINERS).chain(PRESENTATIONAL) {
            assert!(class_of(kind).is_some(), "{kind}");
        }
        assert_eq!(INPUTS.len() + CONTAINERS.len() + PRESENTATIONAL.len(), 22);
        assert_eq!(class_of("frobnicate"), None);
    }

    #[test]
    fn keys() {
        for ok in ["a", "a.b", "start_date", "x1.y2", "order.total"] {
            assert!(matches_key_pattern(ok) && bindable(ok), "{ok}");
        }
        for bad in ["", "a b", "a..b", ".a", "a.", "ä", "a-b", "=parcel"] {
            assert!(!matches_key_pattern(bad) && !bindable(bad), "{bad}");
        }
        assert_eq!(reserved_segment("a.0"), Some("0"));
        assert_eq!(reserved_segment("__proto__.x"), Some("__proto__"));
        assert_eq!(reserved_segment("a.b"), None);
        assert!(!bindable("items.0") && !bindable(&vec!["a"; MAX_PATH_SEGMENTS + 1].join(".")));
    }

    #[test]
    fn synonyms() {
        assert_eq!(synonym("Date").unwrap().subtype, Some("date"));
        assert_eq!(synonym("drop-down").unwrap().kind, ComponentType::Select);
        assert_eq!(synonym("email").unwrap().validation_type, Some("email"));
        assert_eq!(synonym("frobnicate"), None);
        for (_, r) in ["date", "divider", "section", "tags"].iter().map(|k| (k, synonym(k).unwrap())) {
            assert!(class_of(r.kind.as_str()).is_some());
        }
    }
}
