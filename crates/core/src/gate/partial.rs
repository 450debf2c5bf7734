//! The form as far as a model has written it: the components that are complete so far.
//!
//! A streamed answer arrives a few characters at a time. [`Partial`] is fed those pieces and keeps
//! the top-level components whose closing brace has arrived, in order, each parsed on its own; a
//! component still being written is never among them, so every list it returns is a prefix of the
//! final answer's components. It reads the answer shapes [`super::schema_from`] reads: bare JSON,
//! JSON in a fence or after prose, a `{"schema": {...}}` (or `form`, `formSchema`, `document`)
//! wrapper, or only the `components` array.
//!
//! It scans each byte once (structural characters are ASCII, so cuts inside a multi-byte character
//! are harmless) and holds the text it was given; its caller bounds that text (the answer-size cap).
//! This file knows JSON's shape, not the gate's rules: the caller gates what it returns.

use serde_json::Value;

use crate::limits::nesting;

/// The wrappers around a form that [`super::schema_from`] unwraps, one level deep.
const WRAPPERS: &[&str] = &["schema", "form", "formSchema", "document"];

/// Keys longer than this are not a key that matters here (`components` or a wrapper).
const KEY_CHARS: usize = 32;

/// How many false starts (a `[` or `{` of prose) are skipped before the scan gives up.
const RESTARTS: usize = 16;

/// One open container.
#[derive(Debug, Clone)]
enum Frame {
    /// An object: its latest key, and whether a key comes next.
    Object { key: Option<String>, want_key: bool },
    /// An array.
    Array,
}

/// The scan of an answer being written. Feed it with [`Partial::push`].
#[derive(Debug, Default)]
pub struct Partial {
    text: String,
    pos: usize,
    /// Where the current root value starts (None: still looking for it).
    root: Option<usize>,
    stack: Vec<Frame>,
    in_string: bool,
    escaped: bool,
    /// The key being read, when the string being read is a key.
    key: Option<String>,
    /// The depth of the components array (its index in `stack`), once it opened.
    target: Option<usize>,
    /// Where the component being written starts.
    element: Option<usize>,
    /// The components array has closed, or the scan gave up: nothing more comes.
    done: bool,
    restarts: usize,
    components: Vec<Value>,
    /// The bytes of the answer each component was written in.
    sizes: Vec<usize>,
}

impl Partial {
    /// A scan with nothing read yet.
    pub fn new() -> Partial {
        Partial::default()
    }

    /// Reads the next piece of the answer; returns how many components it completed.
    pub fn push(&mut self, piece: &str) -> usize {
        let before = self.components.len();
        self.text.push_str(piece);
        while !self.done && self.pos < self.text.len() {
            let at = self.pos;
            self.pos += 1;
            self.step(at);
        }
        self.components.len() - before
    }

    /// The components complete so far, in order.
    pub fn components(&self) -> &[Value] {
        &self.components
    }

    /// How many bytes of the answer each of [`Partial::components`] was written in: what judging it
    /// costs, about.
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// The text read so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    fn step(&mut self, at: usize) {
        let byte = self.text.as_bytes()[at];
        if self.in_string {
            self.string_byte(byte);
            return;
        }
        let Some(root) = self.root else {
            if matches!(byte, b'{' | b'[') {
                self.root = Some(at);
                self.open(byte);
            }
            return;
        };
        match byte {
            b'"' => {
                if let Some(Frame::Object { want_key: true, .. }) = self.stack.last() {
                    self.key = Some(String::new());
                } else {
                    self.value_starts(at);
                }
                self.in_string = true;
            }
            // serde_json reads no deeper than this, so nothing of the form can be read from here on
            // (the final gate refuses it too): the scan ends, and its stack stays small
            b'{' | b'[' if self.stack.len() >= nesting::JSON => self.done = true,
            b'{' | b'[' => {
                self.value_starts(at);
                self.open(byte);
            }
            b'}' | b']' => self.close(byte, at, root),
            b':' => {
                let key = self.key.take();
                match self.stack.last_mut() {
                    Some(Frame::Object { want_key, key: latest }) if *want_key && key.is_some() => {
                        *want_key = false;
                        *latest = key;
                    }
                    _ => self.restart(root),
                }
            }
            b',' => {
                if let Some(Frame::Object { want_key, .. }) = self.stack.last_mut() {
                    *want_key = true;
                }
            }
            b' ' | b'\t' | b'\n' | b'\r' => {}
            b'-' | b'0'..=b'9' | b'.' | b'+' | b'a'..=b'z' | b'A'..=b'Z' => {
                // a scalar (true, null, 12.5e3); outside an object's value or an array it is prose
                match self.stack.last() {
                    Some(Frame::Object { want_key: true, .. }) => self.restart(root),
                    _ => self.value_starts(at),
                }
            }
            _ => self.restart(root),
        }
    }

    fn string_byte(&mut self, byte: u8) {
        if self.escaped {
            self.escaped = false;
        } else if byte == b'\\' {
            self.escaped = true;
        } else if byte == b'"' {
            self.in_string = false;
            return;
        }
        if let Some(key) = &mut self.key
            && key.len() < KEY_CHARS
        {
            key.push(byte as char);
        }
    }

    /// A value begins at `at`: inside the components array, that is a component.
    fn value_starts(&mut self, at: usize) {
        if self.target.is_some_and(|t| t + 1 == self.stack.len()) && self.element.is_none() {
            self.element = Some(at);
        }
    }

    fn open(&mut self, byte: u8) {
        if byte == b'[' && self.target.is_none() && self.is_components_place() {
            self.target = Some(self.stack.len());
        }
        self.stack.push(if byte == b'{' {
            Frame::Object { key: None, want_key: true }
        } else {
            Frame::Array
        });
    }

    /// Whether an array opening now is the form's components: the root array, the root object's
    /// `components`, or a wrapper's.
    fn is_components_place(&self) -> bool {
        let key_is = |frame: &Frame, names: &[&str]| matches!(frame, Frame::Object { key: Some(k), want_key: false } if names.contains(&k.as_str()));
        match self.stack.as_slice() {
            [] => true,
            [root] => key_is(root, &["components"]),
            [root, inner] => key_is(root, WRAPPERS) && key_is(inner, &["components"]),
            _ => false,
        }
    }

    fn close(&mut self, byte: u8, at: usize, root: usize) {
        let fits = matches!(
            (byte, self.stack.last()),
            (b'}', Some(Frame::Object { .. })) | (b']', Some(Frame::Array))
        );
        if !fits {
            self.restart(root);
            return;
        }
        self.stack.pop();
        let depth = self.stack.len();
        match self.target {
            // an empty list (or one of prose, "[see above]") is not the form's: look on
            Some(t) if t == depth && self.components.is_empty() => self.restart(at),
            Some(t) if t == depth => self.done = true,
            Some(t) if t + 1 == depth && byte == b'}' => {
                if let Some(start) = self.element.take() {
                    match serde_json::from_str::<Value>(&self.text[start..=at]) {
                        Ok(v) if v.is_object() => {
                            self.components.push(v);
                            self.sizes.push(at + 1 - start);
                        }
                        _ => self.done = true,
                    }
                }
            }
            _ => {}
        }
        if self.stack.is_empty() && !self.done && self.root.is_some() {
            // a whole value without a components array was not the form: look after it
            self.restart(at);
        }
    }

    /// The value at `root` was not JSON (or not the form): look again just after `root`.
    fn restart(&mut self, root: usize) {
        self.restarts += 1;
        if self.restarts > RESTARTS || !self.components.is_empty() {
            self.done = true;
            return;
        }
        let text = std::mem::take(&mut self.text);
        let restarts = self.restarts;
        *self = Partial { text, pos: root + 1, restarts, ..Partial::default() };
    }
}

/// The components complete in `text`, an answer cut anywhere.
pub fn components_so_far(text: &str) -> Vec<Value> {
    let mut partial = Partial::new();
    partial.push(text);
    partial.components
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const FORM: &str = r#"{"id": "f", "components": [
        {"type": "textfield", "key": "name", "label": "Name \"quoted\" {brace} [x]"},
        {"type": "group", "label": "Address", "components": [{"type": "textfield", "key": "street", "label": "Straße"}]},
        {"type": "select", "key": "kind", "label": "Kind", "values": [{"label": "A", "value": "a"}]},
        {"type": "number", "key": "n", "label": "N", "validate": {"min": -1.5e2, "required": true}}
    ], "type": "default"}"#;

    fn answers() -> Vec<String> {
        let components = &FORM[FORM.find('[').unwrap()..FORM.rfind(']').unwrap() + 1];
        vec![
            FORM.to_string(),
            format!("Here is the form [as asked]:\n```json\n{FORM}\n```\nHope it {{helps}}."),
            format!(r#"{{"schema": {FORM}}}"#),
            components.to_string(),
            format!("Sure! {components}"),
        ]
    }

    fn finals(answer: &str) -> Vec<Value> {
        let form = crate::gate::extract::form_in(answer).expect("a form");
        form["components"].as_array().unwrap().clone()
    }

    #[test]
    fn whole_answers_give_every_component() {
        for answer in answers() {
            assert_eq!(components_so_far(&answer), finals(&answer), "{answer}");
        }
    }

    #[test]
    fn every_cut_gives_a_prefix_and_never_a_component_being_written() {
        for answer in answers() {
            let last = finals(&answer);
            let mut seen = 0;
            for cut in (0..=answer.len()).filter(|&i| answer.is_char_boundary(i)) {
                let so_far = components_so_far(&answer[..cut]);
                assert!(last.starts_with(&so_far), "cut at {cut} of {answer}: {so_far:?}");
                assert!(so_far.len() >= seen, "drafts only grow");
                seen = so_far.len();
            }
            assert_eq!(seen, last.len());
        }
    }

    /// What the module promises of any text: the components are objects, and the text cut anywhere
    /// gives a prefix of what the whole text gives.
    fn cuts_give_prefixes(text: &str) -> Result<(), proptest::test_runner::TestCaseError> {
        let whole = components_so_far(text);
        proptest::prop_assert!(whole.iter().all(Value::is_object), "{:?}", whole);
        for cut in (0..text.len()).filter(|&i| text.is_char_boundary(i)) {
            let so_far = components_so_far(&text[..cut]);
            proptest::prop_assert!(whole.starts_with(&so_far), "cut at {}: {:?} of {:?}", cut, so_far, whole);
        }
        Ok(())
    }

    #[test]
    fn a_component_counts_once_its_brace_closes() {
        let text = r#"{"components": [{"type": "textfield", "key": "a", "label": "A"}, {"type": "textfield", "key": "b""#;
        assert_eq!(components_so_far(text).len(), 1);
        assert!(components_so_far(r#"{"components": [{"type": "textfield""#).is_empty());
        assert!(components_so_far("no json here at all").is_empty());
        assert!(components_so_far(r#"{"other": [{"a": 1}]}"#).is_empty(), "not the components list");
    }

    proptest! {
        #[test]
        fn pieces_read_like_the_whole(cuts in proptest::collection::vec(0usize..400, 0..12), which in 0usize..5) {
            let answer = &answers()[which];
            let mut points: Vec<usize> = cuts.into_iter().map(|c| c % (answer.len() + 1)).filter(|&c| answer.is_char_boundary(c)).collect();
            points.sort_unstable();
            let mut partial = Partial::new();
            let mut from = 0;
            for p in points.into_iter().chain([answer.len()]) {
                partial.push(&answer[from..p]);
                from = p;
            }
            let whole = components_so_far(answer);
            prop_assert_eq!(partial.components(), whole.as_slice());
        }

        #[test]
        fn json_nested_past_serde_jsons_limit_is_no_draft(depth in nesting::JSON..4 * nesting::JSON) {
            let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            let text = format!(r#"{{"components": [{{"type": "text", "text": "a", "x": {nested}}}]}}"#);
            let mut partial = Partial::new();
            partial.push(&text);
            prop_assert!(partial.components().is_empty());
            prop_assert!(partial.stack.len() <= nesting::JSON);
        }

        #[test]
        fn any_text_never_panics(text in "\\PC{0,200}") {
            cuts_give_prefixes(&text)?;
        }

        #[test]
        fn json_like_text_never_panics(text in "[\\[\\]{}\":, a-z0-9\\\\]{0,200}") {
            cuts_give_prefixes(&text)?;
        }
    }
}
