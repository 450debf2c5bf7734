//! Stopping work that no one waits for any more, cooperatively: the core keeps no time, so the caller
//! that does (the service, with a request's deadline or a client that left) raises a flag, and the
//! loops that grow with the input look at it and end early. What they return then is partial; the
//! caller that raised the flag throws it away.
//!
//! The flag is the calling thread's ([`watch`]), so no signature carries it and code that is never
//! watched (the CLI, the browser) never stops. Looking costs a thread-local read and an atomic load;
//! the loops look once per element, per expression or per few thousand tokens.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

thread_local! {
    static FLAG: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Watches `flag` on this thread until the guard is dropped: [`stopped`] says whether it is raised.
pub fn watch(flag: Arc<AtomicBool>) -> Watching {
    let before = FLAG.with(|f| f.borrow_mut().replace(flag));
    Watching { before }
}

/// The watch of a flag on this thread; dropping it puts back what was watched before.
#[must_use = "the flag is watched only while the guard lives"]
pub struct Watching {
    before: Option<Arc<AtomicBool>>,
}

impl Drop for Watching {
    fn drop(&mut self) {
        let before = self.before.take();
        FLAG.with(|f| *f.borrow_mut() = before);
    }
}

/// Whether this thread's work should stop: the flag it watches is raised.
pub fn stopped() -> bool {
    FLAG.with(|f| f.borrow().as_ref().is_some_and(|flag| flag.load(Ordering::Relaxed)))
}

/// The items of `items` until this thread's work should stop: a loop over the input written as
/// `for x in until_stopped(xs)` ends early when told.
pub fn until_stopped<I: IntoIterator>(items: I) -> impl Iterator<Item = I::Item> {
    items.into_iter().take_while(|_| !stopped())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_raised_flag_is_seen_only_while_watched() {
        let flag = Arc::new(AtomicBool::new(false));
        assert!(!stopped());
        {
            let _watching = watch(flag.clone());
            assert!(!stopped());
            flag.store(true, Ordering::Relaxed);
            assert!(stopped());
        }
        assert!(!stopped(), "the watch ended with its guard");
    }

    /// A process whose one condition reads `terms` names.
    fn process(terms: usize) -> String {
        let condition: Vec<String> = (0..terms).map(|i| format!("x{i} = {i}")).collect();
        format!(
            r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"><process id="P"><userTask id="T"/><exclusiveGateway id="G"/><endEvent id="E"/><sequenceFlow id="a" sourceRef="T" targetRef="G"/><sequenceFlow id="c" sourceRef="G" targetRef="E"><conditionExpression>= {}</conditionExpression></sequenceFlow></process></definitions>"#,
            condition.join(" or ")
        )
    }

    #[test]
    fn the_loops_that_grow_with_the_input_end_when_told() {
        let xml = process(5_000);
        let defs = crate::bpmn::read_str(&xml);
        let p = &defs.processes[0];
        let project = crate::project::Project::default();
        let needs = || crate::flow::contract(p, p.element_index("T"), &project).must_supply.len();
        assert!(needs() > 0, "unwatched, the names the condition reads are needs");
        let _watching = watch(Arc::new(AtomicBool::new(true)));
        assert_eq!(needs(), 0, "told to stop, the contract ends before its first read");
        assert!(crate::bpmn::read_str(&xml).processes.is_empty(), "and the reader before its first element");
    }
}
