//! Binding claims in one scope, as form-js's path registry makes them.
//!
//! A keyed field claims its path *closed*: nothing else may bind the same path, a prefix of it or an
//! extension of it. A group with a path claims it *open*: its children extend it, and another group may
//! share it. The claims live in a trie of path segments: a node per distinct prefix, holding which claim
//! ends there and which first claim runs through it. A claim walks its own segments once, and the trie
//! holds each segment once, so claims cost time and memory linear in the length of their paths; no
//! prefix of a path is ever copied out.
//!
//! This knows paths only; who made a claim is an opaque sentence-start from the walker.

use std::collections::HashMap;

/// One distinct path prefix: the claims that end at it and the first ones that run through it.
#[derive(Default)]
struct Node {
    children: HashMap<Box<str>, usize>,
    /// The closed claim of exactly this path.
    closed: Option<usize>,
    /// The first open claim of exactly this path.
    open: Option<usize>,
    /// The first closed claim that extends this path.
    closed_below: Option<usize>,
    /// The first open claim that extends this path.
    open_below: Option<usize>,
}

/// The claims of one scope (the form, or one dynamic list's items).
pub struct Claims {
    /// The trie; `nodes[0]` is the empty path.
    nodes: Vec<Node>,
    /// Every claim made: its path and who made it.
    made: Vec<(String, String)>,
}

impl Default for Claims {
    fn default() -> Self {
        Claims { nodes: vec![Node::default()], made: Vec::new() }
    }
}

/// What a walk down the trie along a path found.
struct Found {
    /// The shortest proper prefix of the path that is claimed closed: its length and the claim.
    closed_prefix: Option<(usize, usize)>,
    /// The node of the whole path, when some claim reaches it.
    node: Option<usize>,
}

impl Claims {
    /// Claims `path` closed; returns the claim it clashes with (its path and who made it).
    pub(crate) fn claim_closed(&mut self, path: &str, who: &str) -> Option<(String, String)> {
        let found = self.find(path);
        let at = found.node.map(|n| &self.nodes[n]);
        let clash = at
            .and_then(|n| n.closed)
            .map(|c| self.made[c].clone())
            .or_else(|| found.closed_prefix.map(|(len, c)| (path[..len].to_string(), self.made[c].1.clone())))
            .or_else(|| at.and_then(|n| n.closed_below).map(|c| self.made[c].clone()))
            .or_else(|| at.and_then(|n| n.open).map(|c| (path.to_string(), self.made[c].1.clone())))
            .or_else(|| at.and_then(|n| n.open_below).map(|c| self.made[c].clone()));
        if clash.is_none() {
            let claim = self.record(path, who);
            let end = self.insert(path, claim, true);
            self.nodes[end].closed = Some(claim);
        }
        clash
    }

    /// Claims `path` open; returns the claim it clashes with.
    pub(crate) fn claim_open(&mut self, path: &str, who: &str) -> Option<(String, String)> {
        let found = self.find(path);
        let at = found.node.map(|n| &self.nodes[n]);
        let clash = at.and_then(|n| n.closed).map(|c| self.made[c].clone()).or_else(|| {
            found.closed_prefix.map(|(len, c)| (path[..len].to_string(), self.made[c].1.clone()))
        });
        if clash.is_none() && at.is_none_or(|n| n.open.is_none()) {
            let claim = self.record(path, who);
            let end = self.insert(path, claim, false);
            self.nodes[end].open = Some(claim);
        }
        clash
    }

    fn record(&mut self, path: &str, who: &str) -> usize {
        self.made.push((path.to_string(), who.to_string()));
        self.made.len() - 1
    }

    /// Walks `path` as far as the trie has it, without changing it.
    fn find(&self, path: &str) -> Found {
        let mut found = Found { closed_prefix: None, node: None };
        let mut node = 0;
        let mut end = 0;
        for segment in path.split('.') {
            if end > 0 {
                if let (None, Some(c)) = (found.closed_prefix, self.nodes[node].closed) {
                    found.closed_prefix = Some((end, c));
                }
                end += 1;
            }
            end += segment.len();
            match self.nodes[node].children.get(segment) {
                Some(&next) => node = next,
                None => return found,
            }
        }
        found.node = Some(node);
        found
    }

    /// Walks `path`, adding the nodes it lacks and marking `claim` as the first closed (or open) claim
    /// through each proper prefix that has none yet. Returns the node of the whole path.
    fn insert(&mut self, path: &str, claim: usize, closed: bool) -> usize {
        let mut node = 0;
        for (i, segment) in path.split('.').enumerate() {
            if i > 0 {
                let n = &mut self.nodes[node];
                if closed {
                    n.closed_below.get_or_insert(claim)
                } else {
                    n.open_below.get_or_insert(claim)
                };
            }
            node = match self.nodes[node].children.get(segment) {
                Some(&next) => next,
                None => {
                    let next = self.nodes.len();
                    self.nodes.push(Node::default());
                    self.nodes[node].children.insert(segment.into(), next);
                    next
                }
            };
        }
        node
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
    fn many_claims_that_do_not_clash_are_all_granted() {
        // how long they take is `cargo bench --bench gate`'s to say, against a plain parse in the same run
        let mut c = Claims::default();
        for i in 0..50_000 {
            assert_eq!(c.claim_closed(&format!("g{}.field{i}", i % 7), "F"), None);
        }
    }

    /// The rule said plainly: every earlier claim compared with the new one, in the order they were
    /// made, quadratic in the number of claims and in the length of paths.
    #[derive(Default)]
    struct Straightforward {
        closed: Vec<(String, String)>,
        open: Vec<(String, String)>,
    }

    fn extends(long: &str, short: &str) -> bool {
        long.len() > short.len() && long.starts_with(short) && long.as_bytes()[short.len()] == b'.'
    }

    impl Straightforward {
        fn closed_clash(&self, path: &str) -> Option<(String, String)> {
            let exact = |list: &[(String, String)]| list.iter().find(|(p, _)| p == path).cloned();
            let below = |list: &[(String, String)]| list.iter().find(|(p, _)| extends(p, path)).cloned();
            let above = (1..path.len())
                .filter(|&i| path.as_bytes()[i] == b'.')
                .find_map(|i| self.closed.iter().find(|(p, _)| *p == path[..i]).cloned());
            exact(&self.closed)
                .or(above)
                .or_else(|| below(&self.closed))
                .or_else(|| exact(&self.open))
                .or_else(|| below(&self.open))
        }

        fn claim_closed(&mut self, path: &str, who: &str) -> Option<(String, String)> {
            let clash = self.closed_clash(path);
            if clash.is_none() {
                self.closed.push((path.to_string(), who.to_string()));
            }
            clash
        }

        fn claim_open(&mut self, path: &str, who: &str) -> Option<(String, String)> {
            let exact = self.closed.iter().find(|(p, _)| p == path).cloned();
            let above = (1..path.len())
                .filter(|&i| path.as_bytes()[i] == b'.')
                .find_map(|i| self.closed.iter().find(|(p, _)| *p == path[..i]).cloned());
            let clash = exact.or(above);
            if clash.is_none() && !self.open.iter().any(|(p, _)| p == path) {
                self.open.push((path.to_string(), who.to_string()));
            }
            clash
        }
    }

    proptest::proptest! {
        #[test]
        fn the_trie_agrees_with_the_straightforward_rule(
            claims in proptest::collection::vec((proptest::bool::ANY, proptest::collection::vec(0..3u8, 1..5)), 0..24)
        ) {
            let (mut trie, mut plain) = (Claims::default(), Straightforward::default());
            for (n, (closed, segments)) in claims.iter().enumerate() {
                let path = segments.iter().map(|s| ["a", "b", "ab"][*s as usize]).collect::<Vec<_>>().join(".");
                let who = format!("claim {n}");
                let (got, want) = if *closed {
                    (trie.claim_closed(&path, &who), plain.claim_closed(&path, &who))
                } else {
                    (trie.claim_open(&path, &who), plain.claim_open(&path, &who))
                };
                proptest::prop_assert_eq!(got, want, "claim {} of {:?}", n, claims);
            }
        }
    }

    #[test]
    fn a_long_path_is_held_once() {
        // 40,000 segments: every prefix copied out would be 1.6 GB
        let path = vec!["a"; 40_000].join(".");
        let mut c = Claims::default();
        assert_eq!(c.claim_closed(&path, "A"), None);
        assert_eq!(c.nodes.len(), 40_001);
        assert_eq!(c.claim_closed(&path[..4001], "B").map(|(_, w)| w).as_deref(), Some("A"));
        assert_eq!(c.claim_open(&format!("{path}.b"), "G"), Some((path.clone(), "A".to_string())));
    }
}
