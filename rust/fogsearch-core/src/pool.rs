//! Worker thread pools, built once and reused.
//!
//! Building a rayon pool spawns its threads, which costs far more than a small search: a bot that
//! searches with `threads = 8` every turn must not start eight threads every turn. Pools are
//! therefore cached by thread count. A handful of counts is all a program uses, so the cache keeps
//! the few most recently used pools and lets older ones (and their threads) go.

use std::fmt;
use std::sync::{Arc, Mutex};

use rayon::{ThreadPool, ThreadPoolBuilder};

/// The most worker threads one computation may ask for. More threads than cores only add
/// switching; 256 is above the core count of any machine fogsearch runs on, and keeps a mistaken
/// count (say 10**6) from starting a million OS threads.
pub const MAX_THREADS: usize = 256;

/// How many pools of distinct sizes stay alive.
const CACHED_POOLS: usize = 4;

/// A thread count outside `1..=MAX_THREADS`, or a pool the system would not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PoolError {
    BadThreadCount(usize),
    CannotStart { threads: usize, reason: String },
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoolError::BadThreadCount(n) => write!(
                f,
                "threads must be between 1 and {MAX_THREADS} (1..{MAX_THREADS} inclusive: more \
                 threads than cores only add switching), got {n}"
            ),
            PoolError::CannotStart { threads, reason } => {
                write!(f, "cannot start {threads} worker threads: {reason}")
            }
        }
    }
}

impl std::error::Error for PoolError {}

/// The number of cores this process may use (1 if the system does not say).
pub fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Checks a thread count where it enters.
pub fn check_threads(threads: usize) -> Result<usize, PoolError> {
    if (1..=MAX_THREADS).contains(&threads) {
        Ok(threads)
    } else {
        Err(PoolError::BadThreadCount(threads))
    }
}

/// The worker count of a request: all the cores this process may use (at most [`MAX_THREADS`])
/// when it names none, else `threads` checked.
pub fn threads_or_all_cores(threads: Option<usize>) -> Result<usize, PoolError> {
    match threads {
        None => Ok(available_cores().min(MAX_THREADS)),
        Some(n) => check_threads(n),
    }
}

static POOLS: Mutex<Vec<(usize, Arc<ThreadPool>)>> = Mutex::new(Vec::new());

/// The shared pool of `threads` workers, started on first use.
pub fn pool(threads: usize) -> Result<Arc<ThreadPool>, PoolError> {
    check_threads(threads)?;
    // A panic elsewhere while the lock was held leaves a valid Vec: keep using it.
    let mut pools = POOLS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(at) = pools.iter().position(|(n, _)| *n == threads) {
        let entry = pools.remove(at);
        let pool = Arc::clone(&entry.1);
        pools.push(entry); // most recently used last
        return Ok(pool);
    }
    let pool = ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("fogsearch-{i}"))
        .build()
        .map_err(|e| PoolError::CannotStart {
            threads,
            reason: e.to_string(),
        })?;
    let pool = Arc::new(pool);
    if pools.len() == CACHED_POOLS {
        pools.remove(0);
    }
    pools.push((threads, Arc::clone(&pool)));
    Ok(pool)
}

/// Runs `op` inside the shared pool of `threads` workers (rayon's parallel iterators in `op` use
/// them).
pub fn install<R: Send>(threads: usize, op: impl FnOnce() -> R + Send) -> Result<R, PoolError> {
    Ok(pool(threads)?.install(op))
}

/// Runs `op` in the shared pool of `threads` workers when that can pay, else on the calling
/// thread: when one worker is asked for, or when `worth_splitting` is false (the work is too small
/// to split, and waking a pool costs tens of microseconds).
pub fn install_if_worth_it<R: Send>(
    threads: usize,
    worth_splitting: bool,
    op: impl FnOnce() -> R + Send,
) -> Result<R, PoolError> {
    if threads == 1 || !worth_splitting {
        Ok(op())
    } else {
        install(threads, op)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cache is global: tests that count evictions must not interleave.
    static SERIAL: Mutex<()> = Mutex::new(());

    #[test]
    fn the_same_count_reuses_one_pool() {
        let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
        let a = pool(3).unwrap();
        let b = pool(3).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(install(3, rayon::current_num_threads).unwrap(), 3);
    }

    #[test]
    fn small_work_or_one_worker_stays_on_the_calling_thread() {
        let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
        let here = std::thread::current().id();
        let on = |threads, worth| {
            install_if_worth_it(threads, worth, || std::thread::current().id()).unwrap()
        };
        assert_eq!(on(1, true), here);
        assert_eq!(on(3, false), here);
        assert_ne!(on(3, true), here);
        assert_eq!(
            install_if_worth_it(3, true, rayon::current_num_threads),
            Ok(3)
        );
        assert_eq!(
            install_if_worth_it(0, true, || ()),
            Err(PoolError::BadThreadCount(0))
        );
    }

    #[test]
    fn no_count_means_every_core_within_the_bound() {
        let all = threads_or_all_cores(None).unwrap();
        assert_eq!(all, available_cores().min(MAX_THREADS));
        assert_eq!(threads_or_all_cores(Some(2)), Ok(2));
        assert_eq!(
            threads_or_all_cores(Some(MAX_THREADS + 1)),
            Err(PoolError::BadThreadCount(MAX_THREADS + 1))
        );
    }

    #[test]
    fn counts_outside_the_bound_are_refused_with_the_bound() {
        assert_eq!(pool(0).unwrap_err(), PoolError::BadThreadCount(0));
        let err = pool(MAX_THREADS + 1).unwrap_err();
        assert!(err.to_string().contains("between 1 and 256"), "{err}");
    }

    #[test]
    fn old_pools_are_let_go_beyond_the_cache() {
        let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
        let first = pool(5).unwrap();
        for n in 6..6 + CACHED_POOLS {
            pool(n).unwrap();
        }
        let again = pool(5).unwrap();
        assert!(!Arc::ptr_eq(&first, &again));
    }
}
