//! A prompt template parsed once: literal text and typed placeholders.
//!
//! `{{name}}` is a placeholder when `name` is made of letters, digits and `_`; anything else between
//! braces is text, as is an unclosed `{{`. Values are inserted in one pass and never scanned again, so
//! a brief holding `{{x}}` stays text. Parsing refuses a placeholder the template may not use, so
//! rendering cannot fail.

use super::PromptError;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part<S> {
    Text(String),
    Slot(S),
}

/// A parsed template whose placeholders are the slots `S`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Template<S> {
    parts: Vec<Part<S>>,
    /// The length of the template as written (placeholders included): what the budget counts.
    source_len: usize,
}

impl<S: Copy> Template<S> {
    /// Parses `text`; every placeholder must be one of `allowed`.
    pub(super) fn parse(name: &'static str, text: &str, allowed: &[(&str, S)]) -> Result<Self, PromptError> {
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut rest = text;
        while let Some(open) = rest.find("{{") {
            literal.push_str(&rest[..open]);
            let after = &rest[open + 2..];
            let Some(close) = after.find("}}") else {
                literal.push_str(&rest[open..]);
                rest = "";
                break;
            };
            let placeholder = after[..close].trim();
            let is_name = !placeholder.is_empty()
                && placeholder.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
            if !is_name {
                literal.push_str("{{");
                rest = after;
                continue;
            }
            let Some((_, slot)) = allowed.iter().find(|(n, _)| *n == placeholder) else {
                return Err(PromptError::Unfilled {
                    template: name,
                    name: placeholder.to_string(),
                    allowed: if allowed.is_empty() {
                        "none".into()
                    } else {
                        allowed.iter().map(|(n, _)| format!("{{{{{n}}}}}")).collect::<Vec<_>>().join(", ")
                    },
                });
            };
            parts.push(Part::Text(std::mem::take(&mut literal)));
            parts.push(Part::Slot(*slot));
            rest = &after[close + 2..];
        }
        literal.push_str(rest);
        parts.push(Part::Text(literal));
        parts.retain(|p| !matches!(p, Part::Text(t) if t.is_empty()));
        Ok(Template { parts, source_len: text.len() })
    }

    /// The template's length as written, placeholders included.
    pub(super) fn len(&self) -> usize {
        self.source_len
    }

    /// Fills every slot with its value.
    pub(super) fn render<'v>(&self, value: impl Fn(S) -> &'v str) -> String {
        let mut out = String::with_capacity(self.source_len * 2);
        for part in &self.parts {
            match part {
                Part::Text(t) => out.push_str(t),
                Part::Slot(s) => out.push_str(value(*s)),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_text_and_no_rescan() {
        let t = Template::parse("t", "A {{a}} B {{ not a name }} C {{a", &[("a", 1)]).unwrap();
        assert_eq!(t.render(|_| "{{b}}"), "A {{b}} B {{ not a name }} C {{a");
    }

    #[test]
    fn an_unknown_placeholder_is_refused_at_parse() {
        let e = Template::parse("generate", "Brief: {{description}} for {{target}}", &[("description", 0)])
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "the prompt template generate.md has the placeholder {{target}}, which nothing fills; remove it or use one of: {{description}}"
        );
    }
}
