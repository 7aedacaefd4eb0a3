//! Work spread over the machine's cores: the versions of a CRD are modelled
//! side by side (`typespace::CrdSpace::new`), and a large file's types are
//! laid out in runs side by side (`emit/runs.rs`). Results come back in the
//! order of the work items, so the output never depends on the number of
//! threads.
//!
//! Each thread has the stack of the generator's main thread
//! ([`Limits::STACK_BYTES`](crd_schema::limits::Limits::STACK_BYTES),
//! reserved and touched only by deep schemas): modelling and layout recurse
//! as deep as a schema nests.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The most threads one piece of work is spread over.
const MAX_THREADS: usize = 8;

/// How many threads the machine runs at once (at most [`MAX_THREADS`]),
/// asked of the system once per process.
pub(crate) fn available() -> usize {
    static AVAILABLE: OnceLock<usize> = OnceLock::new();
    *AVAILABLE.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS))
}

/// `job` of every item, in the items' order, on up to `threads` threads,
/// the caller's one of them. Each thread takes the next item when it
/// finishes one. A thread the system refuses leaves its share to the
/// others.
pub(crate) fn map<I: Sync, T: Send>(threads: usize, items: &[I], job: impl Fn(&I) -> T + Sync) -> Vec<T> {
    if threads <= 1 || items.len() <= 1 {
        return items.iter().map(job).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else { return done };
            done.push((i, job(item)));
        }
    };
    let mut done = std::thread::scope(|scope| {
        let stack = crd_schema::limits::Limits::STACK_BYTES;
        let helpers: Vec<_> = (1..threads.min(items.len()))
            .filter_map(|_| std::thread::Builder::new().stack_size(stack).spawn_scoped(scope, work).ok())
            .collect();
        let mut done = work();
        for helper in helpers {
            done.extend(helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        }
        done
    });
    done.sort_unstable_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, result)| result).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_order_of_items_on_any_number_of_threads() {
        let items: Vec<usize> = (0..40).collect();
        for threads in [1, 2, 3, 8] {
            let out = map(threads, &items, |i| i * 2);
            assert_eq!(out, (0..40).map(|i| i * 2).collect::<Vec<_>>(), "{threads} threads");
        }
        assert!((1..=MAX_THREADS).contains(&available()));
    }
}
