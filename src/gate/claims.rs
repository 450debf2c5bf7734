//! Binding claims in one scope, as form-js's path registry makes them.
//!
//! A keyed field claims its path *closed*: nothing else may bind the same path, a prefix of it or an
//! extension of it. A group with a path claims it *open*: its children extend it, and another group may
//! share it. Every claim is answered from hash maps of whole paths and of their proper prefixes, so a
//! claim costs the length of its path, not the number of claims before it.
//!
//! This knows paths only; who made a claim is an opaque sentence-start from the walker.

use std::collections::HashMap;

/// The claims of one scope (the form, or one dynamic list's items).
#[derive(Default)]
pub struct Claims {
    /// Closed paths and who claimed them.
    closed: HashMap<String, String>,
    /// Every proper prefix of a closed path, with the first closed path that has it.
    closed_prefixes: HashMap<String, (String, String)>,
    /// Open paths and who claimed them first.
    open: HashMap<String, String>,
    /// Every proper prefix of an open path, with the first open path that has it.
    open_prefixes: HashMap<String, (String, String)>,
}

/// The proper prefixes of a dotted path, shortest first: `a.b.c` gives `a`, `a.b`.
fn prefixes(path: &str) -> impl Iterator<Item = &str> {
    path.match_indices('.').map(|(i, _)| &path[..i])
}

impl Claims {
    /// Claims `path` closed; returns the claim it clashes with (its path and who made it).
    pub fn claim_closed(&mut self, path: &str, who: &str) -> Option<(String, String)> {
        let clash = self
            .closed
            .get(path)
            .map(|w| (path.to_string(), w.clone()))
            .or_else(|| prefixes(path).find_map(|p| self.closed.get(p).map(|w| (p.to_string(), w.clone()))))
            .or_else(|| self.closed_prefixes.get(path).cloned())
            .or_else(|| self.open.get(path).map(|w| (path.to_string(), w.clone())))
            .or_else(|| self.open_prefixes.get(path).cloned());
        if clash.is_none() {
            for p in prefixes(path) {
                self.closed_prefixes
                    .entry(p.to_string())
                    .or_insert_with(|| (path.to_string(), who.to_string()));
            }
            self.closed.insert(path.to_string(), who.to_string());
        }
        clash
    }

    /// Claims `path` open; returns the claim it clashes with.
    pub fn claim_open(&mut self, path: &str, who: &str) -> Option<(String, String)> {
        let clash =
            self.closed.get(path).map(|w| (path.to_string(), w.clone())).or_else(|| {
                prefixes(path).find_map(|p| self.closed.get(p).map(|w| (p.to_string(), w.clone())))
            });
        if clash.is_none() && !self.open.contains_key(path) {
            for p in prefixes(path) {
                self.open_prefixes
                    .entry(p.to_string())
                    .or_insert_with(|| (path.to_string(), who.to_string()));
            }
            self.open.insert(path.to_string(), who.to_string());
        }
        clash
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn who(c: Option<(String, String)>) -> Option<String> {
        c.map(|(_, w)| w)
    }

    #[test]
    fn claims_follow_form_js() {
        let mut c = Claims::default();
        assert_eq!(c.claim_closed("a", "A"), None);
        assert_eq!(who(c.claim_closed("a.b", "B")).as_deref(), Some("A"));
        assert_eq!(who(c.claim_closed("a", "A2")).as_deref(), Some("A"));
        assert_eq!(c.claim_closed("c.d", "D"), None);
        assert_eq!(c.claim_closed("c.e", "E"), None);
        assert_eq!(c.claim_open("c", "G"), None, "a group over c.* is fine");
        assert_eq!(c.claim_open("c", "G1"), None, "two groups may share a path");
        assert_eq!(who(c.claim_closed("c", "C")).as_deref(), Some("D"));
        assert_eq!(who(c.claim_open("a", "G2")).as_deref(), Some("A"));
        assert_eq!(who(c.claim_open("a.x", "G3")).as_deref(), Some("A"));
        assert_eq!(c.claim_open("x.y", "G4"), None);
        assert_eq!(who(c.claim_closed("x", "X")).as_deref(), Some("G4"), "a key equal to a group's prefix");
        assert_eq!(who(c.claim_closed("x.y", "XY")).as_deref(), Some("G4"), "a key equal to a group's path");
        assert_eq!(c.claim_closed("x.y.z", "XYZ"), None, "a child of the group");
    }

    #[test]
    fn many_claims_stay_fast() {
        let mut c = Claims::default();
        let start = std::time::Instant::now();
        for i in 0..50_000 {
            assert_eq!(c.claim_closed(&format!("g{}.field{i}", i % 7), "F"), None);
        }
        assert!(start.elapsed().as_secs() < 2, "{:?}", start.elapsed());
    }
}
