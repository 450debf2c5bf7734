//! The lenient pieces of XML reading that quick-xml leaves to its caller: attributes, references,
//! namespace scopes, and the walk over the events ([`Walk`], [`feed`]).
//!
//! quick-xml finds the tags; it does not forgive a valueless attribute (`xx`), a name like `$a`, a
//! repeated attribute or namespace, or an undefined entity, and its namespace resolver gives up past
//! 65,535 levels. The modellers' reader (bpmn-moddle on saxen) skips each of those and reads on, so
//! these helpers do the same and never fail: a malformed attribute is skipped, the first of a repeated
//! one wins, an undefined entity stays as written, and nothing is ever expanded from a DTD.
//!
//! The walk is what every lenient reader does with the events whatever they mean: a stack of frames
//! for the open elements, a depth bound past which a subtree is skipped whole, a depth counter for
//! skipped subtrees (so skipping allocates nothing), and a namespace scope per open element. A reader
//! says only what an element, its text and its end mean to it.
//!
//! The DMN reader ([`crate::dmn`]) uses the same pieces, so [`Ns`] also tells the DMN model namespace
//! apart; the BPMN reader treats it like any other foreign namespace. This file knows XML and the
//! namespaces; it knows nothing of what a BPMN or DMN element means.

use std::borrow::Cow;

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

/// The namespaces the reader distinguishes. Everything else is [`Ns::Other`] and skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ns {
    /// `http://www.omg.org/spec/BPMN/20100524/MODEL`
    Bpmn,
    /// `http://camunda.org/schema/zeebe/1.0` (Camunda 8)
    Zeebe,
    /// `http://camunda.org/schema/1.0/bpmn` (Camunda 7)
    Camunda,
    /// `http://flowable.org/bpmn` or `http://activiti.org/bpmn` (Flowable, Activiti, Camunda 7.0–7.3):
    /// one vocabulary of extension attributes and elements.
    Flowable,
    /// The DMN model namespace of any DMN version (see [`is_dmn_uri`]); only the DMN reader reads it.
    Dmn,
    /// Any other namespace.
    Other,
    /// No namespace at all: an unprefixed name where no default namespace is declared. moddle accepts
    /// such an element when its name is the name of a property of its parent (`<extensionElements>`,
    /// `<documentation>` inside a prefixed BPMN element), so the reader must tell it apart.
    Unbound,
}

/// The BPMN 2.0 model namespace.
pub(crate) const BPMN_URI: &str = "http://www.omg.org/spec/BPMN/20100524/MODEL";
/// Camunda 8's extension namespace.
pub const ZEEBE_URI: &str = "http://camunda.org/schema/zeebe/1.0";
/// Camunda 7's extension namespace. (The 7.0–7.3 binding `http://activiti.org/bpmn` is not it.)
pub(crate) const CAMUNDA_URI: &str = "http://camunda.org/schema/1.0/bpmn";
/// Flowable's extension namespace.
pub(crate) const FLOWABLE_URI: &str = "http://flowable.org/bpmn";
/// Activiti's extension namespace (also Camunda 7.0–7.3's).
pub(crate) const ACTIVITI_URI: &str = "http://activiti.org/bpmn";

impl Ns {
    fn of(uri: &str) -> Ns {
        match uri {
            BPMN_URI => Ns::Bpmn,
            ZEEBE_URI => Ns::Zeebe,
            CAMUNDA_URI => Ns::Camunda,
            FLOWABLE_URI | ACTIVITI_URI => Ns::Flowable,
            _ if is_dmn_uri(uri) => Ns::Dmn,
            _ => Ns::Other,
        }
    }
}

/// Whether `uri` is the model namespace of a DMN version: `http://www.omg.org/spec/DMN/20151101/dmn.xsd`
/// (1.1), `http://www.omg.org/spec/DMN/20180521/MODEL/` (1.2), `https://www.omg.org/spec/DMN/20191111/MODEL/`
/// (1.3), and the later ones of the same shape; `http` and `https`, with or without the final slash, as
/// tools write either. The diagram namespaces (`.../DMNDI/`, `.../DC/`, `.../DI/`) are not it.
pub(crate) fn is_dmn_uri(uri: &str) -> bool {
    let Some(rest) = uri.strip_prefix("https://").or_else(|| uri.strip_prefix("http://")) else {
        return false;
    };
    let Some(rest) = rest.strip_prefix("www.omg.org/spec/DMN/") else {
        return false;
    };
    let Some((version, tail)) = rest.split_once('/') else {
        return false;
    };
    version.len() == 8
        && version.bytes().all(|b| b.is_ascii_digit())
        && matches!(tail, "MODEL/" | "MODEL" | "dmn.xsd")
}

/// Iterates the well-formed attributes of a start tag's attribute text as `(qualified name, raw value)`,
/// skipping anything malformed the way saxen does: a name without `=` and a quoted value, a name that is
/// not an XML name, a value not followed by white space. Values are returned unescaped-not-yet.
pub struct Attrs<'a> {
    raw: &'a str,
    pos: usize,
}

impl<'a> Attrs<'a> {
    /// Attributes of `raw`, the text after the tag name (`BytesStart::attributes_raw`).
    pub fn new(raw: &'a str) -> Self {
        Attrs { raw, pos: 0 }
    }
}

fn is_ws(b: u8) -> bool {
    b == b' ' || (9..=13).contains(&b)
}

fn is_name_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b':'
}

fn is_name_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b':' | b'.' | b'-' | b'_')
}

impl<'a> Iterator for Attrs<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        let bytes = self.raw.as_bytes();
        loop {
            while self.pos < bytes.len() && is_ws(bytes[self.pos]) {
                self.pos += 1;
            }
            if self.pos >= bytes.len() {
                return None;
            }
            let start = self.pos;
            while self.pos < bytes.len() && !is_ws(bytes[self.pos]) && bytes[self.pos] != b'=' {
                self.pos += 1;
            }
            let name = &self.raw[start..self.pos];
            if self.pos >= bytes.len() || bytes[self.pos] != b'=' {
                continue; // a name without a value: skipped
            }
            self.pos += 1;
            let quote = match bytes.get(self.pos) {
                Some(&q @ (b'"' | b'\'')) => q,
                _ => {
                    // unquoted value: skip to the next white space
                    while self.pos < bytes.len() && !is_ws(bytes[self.pos]) {
                        self.pos += 1;
                    }
                    continue;
                }
            };
            let value_start = self.pos + 1;
            let Some(len) = memchr::memchr(quote, &bytes[value_start..]) else {
                self.pos = bytes.len();
                return None; // unclosed quote: nothing after it can be trusted
            };
            let value = &self.raw[value_start..value_start + len];
            self.pos = value_start + len + 1;
            let followed_well = self.pos >= bytes.len() || is_ws(bytes[self.pos]) || bytes[self.pos] == b'/';
            let nb = name.as_bytes();
            let valid_name =
                !nb.is_empty() && is_name_start(nb[0]) && nb[1..].iter().all(|&b| is_name_char(b));
            if followed_well && valid_name {
                return Some((name, value));
            }
        }
    }
}

/// Attributes a start tag keeps in its [`Tag`] list; a tag with more is scanned again when asked.
const TAG_ATTRS: usize = 16;

/// A start tag's well-formed attributes ([`Attrs`]), read once into a small list: several rules look
/// at one tag (its structure, its variables, its places, its vendor attributes), and each scanning
/// the text again was the reader's largest own cost.
pub struct Tag<'a> {
    raw: &'a str,
    list: [(&'a str, &'a str); TAG_ATTRS],
    len: usize,
    /// More attributes than the list holds: `get` and `iter` scan the text.
    overflow: bool,
}

impl<'a> Tag<'a> {
    /// The attributes of `raw`, the text after the tag name.
    pub fn new(raw: &'a str) -> Tag<'a> {
        let mut tag = Tag { raw, list: [("", ""); TAG_ATTRS], len: 0, overflow: false };
        for pair in Attrs::new(raw) {
            if tag.len == TAG_ATTRS {
                tag.overflow = true;
                break;
            }
            tag.list[tag.len] = pair;
            tag.len += 1;
        }
        tag
    }

    /// The attribute text as written.
    pub fn raw(&self) -> &'a str {
        self.raw
    }

    /// The first value of the attribute named `name` (first one wins, as in the modellers' reader).
    pub fn get(&self, name: &str) -> Option<&'a str> {
        if self.overflow {
            return attr(self.raw, name);
        }
        self.list[..self.len].iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }

    /// The first value of the attribute named `name`, unescaped; `""` when absent.
    pub fn value(&self, name: &str) -> String {
        self.get(name).map(|v| unescape(v).into_owned()).unwrap_or_default()
    }

    /// Every well-formed attribute, in document order.
    pub fn iter(&self) -> TagIter<'_, 'a> {
        if self.overflow {
            TagIter::Scan(Attrs::new(self.raw))
        } else {
            TagIter::List(self.list[..self.len].iter())
        }
    }
}

/// The attributes of a [`Tag`].
pub enum TagIter<'t, 'a> {
    /// From the list.
    List(std::slice::Iter<'t, (&'a str, &'a str)>),
    /// From the text (a tag with more attributes than the list holds).
    Scan(Attrs<'a>),
}

impl<'a> Iterator for TagIter<'_, 'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            TagIter::List(it) => it.next().copied(),
            TagIter::Scan(it) => it.next(),
        }
    }
}

/// The first value of the attribute named `name` (first one wins, as in the modellers' reader).
pub(crate) fn attr<'a>(raw: &'a str, name: &str) -> Option<&'a str> {
    Attrs::new(raw).find(|(n, _)| *n == name).map(|(_, v)| v)
}

/// Decodes the references in attribute values and text: the five predefined entities (also in upper
/// case, as saxen accepts), decimal and hexadecimal character references. Anything else, an undefined
/// entity among it, stays exactly as written. Nothing is ever looked up in a DTD.
pub fn unescape(raw: &str) -> Cow<'_, str> {
    if !raw.contains('&') {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        // a reference name is short: only a `;` within reach ends one (looking further for each `&`
        // would make a text of many `&`s quadratic)
        let resolved = after.as_bytes()[..after.len().min(33)]
            .iter()
            .position(|&b| b == b';')
            .filter(|&semi| semi > 0 && semi <= 32)
            .and_then(|semi| resolve_reference(&after[..semi]).map(|c| (c, semi)));
        match resolved {
            Some((c, semi)) => {
                out.push(c);
                rest = &after[semi + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Appends the character an entity reference stands for; a reference no DTD defines for us is kept as
/// written (`&name;`), never expanded.
pub(crate) fn push_reference(out: &mut String, name: &str) {
    match resolve_reference(name) {
        Some(c) => out.push(c),
        None => {
            out.push('&');
            out.push_str(name);
            out.push(';');
        }
    }
}

/// The character a reference name (between `&` and `;`) stands for, if it is predefined or numeric.
pub(crate) fn resolve_reference(name: &str) -> Option<char> {
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
                u32::from_str_radix(hex, 16).ok()?
            }
            Some(_) => return None,
            None if !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()) => num.parse().ok()?,
            None => return None,
        };
        return char::from_u32(code);
    }
    match name {
        "amp" | "AMP" => Some('&'),
        "lt" | "LT" => Some('<'),
        "gt" | "GT" => Some('>'),
        "quot" | "QUOT" => Some('"'),
        "apos" | "APOS" => Some('\''),
        _ => None,
    }
}

/// Namespace bindings in scope, one frame per open element. Bindings map a prefix (`""` for the default
/// namespace) straight to the [`Ns`] it means, so resolving a name never compares URIs. At most
/// [`MAX_BINDINGS`] are in scope at once, so each lookup is a short scan.
#[derive(Debug, Default)]
pub struct Scopes {
    bindings: Vec<(Box<str>, Ns)>,
    marks: Vec<usize>,
}

/// The most namespace bindings in scope at once; declarations past them are ignored (their prefixes
/// resolve as if undeclared). Real documents declare a dozen; a document declaring thousands would
/// otherwise make every name's lookup, and every declaration's check for a repeat, scan them all.
pub(crate) const MAX_BINDINGS: usize = 256;

impl Scopes {
    /// Opens an element's scope, adding the `xmlns` / `xmlns:p` declarations among its attributes (the
    /// first declaration of a prefix in one tag wins), up to [`MAX_BINDINGS`] in scope.
    pub fn push(&mut self, attrs_raw: &str) {
        let mark = self.bindings.len();
        self.marks.push(mark);
        static XMLNS: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
            std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"xmlns"));
        if XMLNS.find(attrs_raw.as_bytes()).is_none() {
            return;
        }
        for (name, value) in Attrs::new(attrs_raw) {
            let prefix = match name.strip_prefix("xmlns") {
                Some("") => "",
                Some(p) => match p.strip_prefix(':') {
                    Some(p) if !p.is_empty() => p,
                    _ => continue,
                },
                None => continue,
            };
            if self.bindings.len() >= MAX_BINDINGS {
                break;
            }
            if self.bindings[mark..].iter().any(|(p, _)| &**p == prefix) {
                continue;
            }
            let value = unescape(value);
            // `xmlns=""` undeclares the default namespace
            let ns = if value.is_empty() { Ns::Unbound } else { Ns::of(&value) };
            self.bindings.push((prefix.into(), ns));
        }
    }

    /// Closes the innermost scope.
    pub fn pop(&mut self) {
        if let Some(mark) = self.marks.pop() {
            self.bindings.truncate(mark);
        }
    }

    /// The namespace of an element name (`prefix:local` or `local`, which takes the default namespace).
    /// An undeclared prefix resolves to [`Ns::Other`]; an unprefixed name without a default namespace
    /// to [`Ns::Unbound`].
    pub fn element<'n>(&self, qname: &'n str) -> (Ns, &'n str) {
        match split_prefix(qname) {
            Some((prefix, local)) => (self.lookup(prefix).unwrap_or(Ns::Other), local),
            None => (self.lookup("").unwrap_or(Ns::Unbound), qname),
        }
    }

    /// The namespace of an attribute name: unprefixed attributes belong to their element (`None`).
    pub fn attribute<'n>(&self, qname: &'n str) -> (Option<Ns>, &'n str) {
        match split_prefix(qname) {
            Some((prefix, local)) => (Some(self.lookup(prefix).unwrap_or(Ns::Other)), local),
            None => (None, qname),
        }
    }

    /// The namespace bound to `prefix`. An undeclared `bpmn:`, `zeebe:`, `camunda:` or `dmn:` means what
    /// modellers mean by it: bpmn-moddle pre-binds its packages' own prefixes, and files written by hand
    /// (or cut from a bigger one) use them without declaring them.
    fn lookup(&self, prefix: &str) -> Option<Ns> {
        let bound = self.bindings.iter().rev().find(|(p, _)| &**p == prefix).map(|(_, ns)| *ns);
        bound.or(match prefix {
            "bpmn" => Some(Ns::Bpmn),
            "zeebe" => Some(Ns::Zeebe),
            "camunda" => Some(Ns::Camunda),
            "dmn" => Some(Ns::Dmn),
            _ => None,
        })
    }
}

/// `prefix:local` split at the first colon (names are short: a byte loop beats a searcher).
fn split_prefix(qname: &str) -> Option<(&str, &str)> {
    let at = qname.bytes().position(|b| b == b':')?;
    Some((&qname[..at], &qname[at + 1..]))
}

/// Elements deeper than this are skipped as one subtree: no BPMN or DMN construct nests this deep, and
/// it keeps a 100,000-level document from costing 100,000 frames.
const MAX_DEPTH: usize = crate::limits::nesting::XML;

/// The reader settings every way of reading shares.
pub(crate) fn configured<R>(mut reader: Reader<R>) -> Reader<R> {
    let config = reader.config_mut();
    config.check_end_names = true;
    config.allow_dangling_amp = true;
    config.expand_empty_elements = false;
    reader
}

/// What a reader takes from one XML event: its text, borrowed, and nothing it does not use. A BPMN
/// stream read on two threads (`bpmn::stream`) hands these over without quick-xml's events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mark<'a> {
    /// Character data, still escaped as written.
    Text(&'a str),
    /// An entity or character reference, by its name (`amp`, `#10`).
    Reference(&'a str),
    /// A CDATA section's content.
    CData(&'a str),
    /// A start tag (`children`) or an empty-element tag: its qualified name and the text after it.
    Open {
        /// The qualified name.
        name: &'a str,
        /// The attributes as written.
        attrs: &'a str,
        /// Whether an end tag follows (a start tag, not `<a/>`).
        children: bool,
    },
    /// An end tag.
    Close,
    /// A comment or processing instruction: it ends a run of text.
    Break,
    /// The XML declaration or a DOCTYPE: nothing to a reader.
    Nothing,
}

impl<'a> Mark<'a> {
    /// The mark of a quick-xml event.
    #[inline]
    pub(crate) fn of(event: &'a Event<'_>) -> Mark<'a> {
        let open = |e: &'a BytesStart<'_>, children| {
            let content: &'a str = e;
            let name_len = e.name().as_ref().len();
            Mark::Open { name: &content[..name_len], attrs: &content[name_len..], children }
        };
        match event {
            Event::Text(t) => Mark::Text(t),
            Event::GeneralRef(r) => Mark::Reference(r),
            Event::CData(c) => Mark::CData(c),
            Event::Start(e) => open(e, true),
            Event::Empty(e) => open(e, false),
            Event::End(_) => Mark::Close,
            Event::Comment(_) | Event::PI(_) => Mark::Break,
            Event::Decl(_) | Event::DocType(_) | Event::Eof => Mark::Nothing,
        }
    }
}

/// A reader's side of the walk: where it keeps the walk's state, and what an element, its text and
/// its end mean to it. The rest, the same for every reader, is [`feed`]'s.
pub(crate) trait Walk {
    /// What an open element is to the reader.
    type Frame;

    /// The namespace scopes of the open elements.
    fn scopes(&mut self) -> &mut Scopes;

    /// The frames of the open elements, innermost last.
    fn stack(&mut self) -> &mut Vec<Self::Frame>;

    /// The depth inside a subtree being skipped whole; 0 when reading.
    fn skip(&mut self) -> &mut usize;

    /// What a newly opened element is (its namespace scope already open), recording what its start tag
    /// says. `None`: it is skipped with everything inside it.
    fn frame(&mut self, qname: &str, attrs: &Tag<'_>) -> Option<Self::Frame>;

    /// An element ends (an empty-element tag right after it opens).
    fn close(&mut self, frame: Self::Frame);

    /// Character data, still escaped as written.
    fn text(&mut self, text: &str);

    /// An entity or character reference, by its name.
    fn reference(&mut self, name: &str);

    /// A CDATA section's content.
    fn cdata(&mut self, text: &str);

    /// A tag, CDATA section, comment or processing instruction comes: what ends a run of text, for a
    /// reader that reads text in runs.
    fn markup(&mut self) {}
}

/// What one event means to `walk`: skipped inside a skipped subtree, else text to the reader, and a tag
/// opening or closing an element within the depth bound.
#[inline]
pub(crate) fn feed<W: Walk>(walk: &mut W, mark: Mark<'_>) {
    let skip = walk.skip();
    if *skip > 0 {
        // inside an ignored subtree: only its depth matters
        match mark {
            Mark::Open { children: true, .. } => *skip += 1,
            Mark::Close => *skip -= 1,
            _ => {}
        }
        return;
    }
    match mark {
        Mark::Text(t) => walk.text(t),
        Mark::Reference(r) => walk.reference(r),
        Mark::CData(c) => {
            walk.markup();
            walk.cdata(c);
        }
        Mark::Open { name, attrs, children } => {
            walk.markup();
            open(walk, name, attrs, children);
        }
        Mark::Close => {
            walk.markup();
            if let Some(frame) = walk.stack().pop() {
                walk.scopes().pop();
                walk.close(frame);
            }
        }
        Mark::Break => walk.markup(),
        Mark::Nothing => {}
    }
}

/// An element opens: past the depth bound, or when the reader has no frame for it, it is skipped (with
/// its subtree, if it has one); an empty-element tag closes as it opens.
fn open<W: Walk>(walk: &mut W, qname: &str, raw: &str, children: bool) {
    if walk.stack().len() >= MAX_DEPTH {
        if children {
            *walk.skip() = 1;
        }
        return;
    }
    walk.scopes().push(raw);
    match (walk.frame(qname, &Tag::new(raw)), children) {
        (Some(frame), true) => {
            walk.stack().push(frame);
            return;
        }
        (Some(frame), false) => walk.close(frame),
        (None, true) => *walk.skip() = 1,
        (None, false) => {}
    }
    walk.scopes().pop();
}

/// Reads decoded `text` into `walk`, to its end or its first break (a malformed tag, a mismatched end
/// tag). Where it broke, if it did: the break, or the end of a text whose elements are not all closed.
pub(crate) fn walk_str<W: Walk>(text: &str, walk: &mut W) -> Option<u64> {
    let mut reader = configured(Reader::from_str(text));
    loop {
        if crate::stop::stopped() {
            return Some(reader.buffer_position());
        }
        match reader.read_event() {
            Ok(Event::Eof) => {
                let unclosed = !walk.stack().is_empty() || *walk.skip() > 0;
                return unclosed.then(|| reader.buffer_position());
            }
            Err(_) => return Some(reader.error_position()),
            Ok(event) => feed(walk, Mark::of(&event)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_attributes_are_skipped_and_the_first_wins() {
        let all: Vec<_> = Attrs::new(r#" $a="b" id="P1" xx name='n' id="P2" bad="v"x ok="1""#).collect();
        assert_eq!(all, vec![("id", "P1"), ("name", "n"), ("id", "P2"), ("ok", "1")]);
        assert_eq!(attr(r#" id="P1" id="P2""#, "id"), Some("P1"));
    }

    #[test]
    fn unclosed_quote_ends_the_attributes() {
        let all: Vec<_> = Attrs::new(r#" id="a" name="open"#).collect();
        assert_eq!(all, vec![("id", "a")]);
    }

    #[test]
    fn references_decode_and_unknown_entities_stay() {
        assert_eq!(unescape("a&#10;b &foo; &lt;x&GT; &#x41;&amp"), "a\nb &foo; <x> A&amp");
        assert_eq!(unescape("&#xD800;"), "&#xD800;");
        assert!(matches!(unescape("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn scopes_resolve_by_uri_and_the_first_declaration_wins() {
        let mut s = Scopes::default();
        s.push(&format!(r#" xmlns="{BPMN_URI}" xmlns="urn:other" xmlns:z="{ZEEBE_URI}""#));
        assert_eq!(s.element("process"), (Ns::Bpmn, "process"));
        assert_eq!(s.element("z:input"), (Ns::Zeebe, "input"));
        assert_eq!(s.element("q:input").0, Ns::Other);
        assert_eq!(s.element("camunda:in").0, Ns::Camunda, "well-known prefixes without a declaration");
        assert_eq!(s.element("camunda:in").0, Ns::Camunda, "well-known prefixes without a declaration");
        s.push(r#" xmlns="urn:vendor""#);
        assert_eq!(s.element("process").0, Ns::Other);
        assert_eq!(s.attribute("z:formKey"), (Some(Ns::Zeebe), "formKey"));
        s.pop();
        assert_eq!(s.element("process").0, Ns::Bpmn);
    }

    #[test]
    fn every_dmn_version_is_the_dmn_namespace_and_diagrams_are_not() {
        for uri in [
            "http://www.omg.org/spec/DMN/20151101/dmn.xsd",
            "http://www.omg.org/spec/DMN/20180521/MODEL/",
            "https://www.omg.org/spec/DMN/20191111/MODEL/",
            "https://www.omg.org/spec/DMN/20230324/MODEL",
        ] {
            assert!(is_dmn_uri(uri), "{uri}");
        }
        for uri in [
            "https://www.omg.org/spec/DMN/20191111/DMNDI/",
            "http://www.omg.org/spec/DMN/20180521/DC/",
            "https://www.omg.org/spec/DMN/2019111/MODEL/",
            "http://camunda.org/schema/1.0/dmn",
            BPMN_URI,
        ] {
            assert!(!is_dmn_uri(uri), "{uri}");
        }
        let mut s = Scopes::default();
        s.push(r#" xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/""#);
        assert_eq!(s.element("decision"), (Ns::Dmn, "decision"));
    }

    #[test]
    fn namespace_bindings_past_the_cap_are_ignored() {
        let declarations: String =
            (0..MAX_BINDINGS + 10).map(|i| format!(" xmlns:p{i}=\"urn:x{i}\"")).collect();
        let mut s = Scopes::default();
        s.push(&format!(r#"{declarations} xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL""#));
        assert_eq!(s.bindings.len(), MAX_BINDINGS);
        assert_eq!(s.element("p0:x").0, Ns::Other, "a declared prefix resolves to what it binds");
        assert!(
            s.bindings.iter().all(|(p, _)| &**p != format!("p{}", MAX_BINDINGS).as_str()),
            "past the cap"
        );
        assert_eq!(
            s.element("bpmn:task").0,
            Ns::Bpmn,
            "an undeclared well-known prefix still means its package"
        );
        s.pop();
        assert!(s.bindings.is_empty());
    }

    #[test]
    fn a_text_of_many_ampersands_unescapes_as_written() {
        let text = format!("{}&amp;{}", "&".repeat(100_000), "& x;".repeat(1000));
        let out = unescape(&text);
        assert_eq!(out, format!("{}&{}", "&".repeat(100_000), "& x;".repeat(1000)));
        assert_eq!(
            unescape("a &#x41; &lt; &toolongtobeanentitynameatallreally; b"),
            "a A < &toolongtobeanentitynameatallreally; b"
        );
    }
}
