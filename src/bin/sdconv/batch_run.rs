//! Running a batch's jobs on one rayon pool, each isolated: a panic is caught and reported, a
//! job past its time limit is given up on (reported as timed out, and barred from writing its
//! output when it does finish), and every other job goes on.
//!
//! Rust cannot stop a thread, so a timed-out job keeps its pool thread until it returns; the
//! batch does not wait for it at the end (the process exits under it).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How a job ended.
pub enum Ended<T> {
    /// It returned.
    Done(T),
    /// It panicked: the panic's message.
    Panicked(String),
    /// It ran past the time limit.
    TimedOut,
}

const QUEUED: u8 = 0;
const RUNNING: u8 = 1;
const COMMITTING: u8 = 2;
const TIMED_OUT: u8 = 3;

/// A job's state, shared by the worker running it and the coordinator timing it.
struct Slot {
    state: AtomicU8,
    /// When it started, in nanoseconds since the batch started (valid once RUNNING).
    started: AtomicU64,
}

/// Handed to a job: it asks before making its result visible.
pub struct Guard<'a> {
    slot: &'a Slot,
}

impl Guard<'_> {
    /// Claims the right to write the output: `false` once the job has timed out (the result must
    /// then be thrown away). After `true` the job cannot time out any more.
    pub fn commit(&self) -> bool {
        self.slot
            .state
            .compare_exchange(RUNNING, COMMITTING, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }
}

/// Runs `work(i, guard)` for every `i < count` on `pool`, calling `on_end(i, ended, time)` on
/// this thread as each job ends (in the order they end) and `on_tick()` about every `tick`.
pub fn run_all<T, W>(
    pool: &rayon::ThreadPool,
    count: usize,
    timeout: Option<Duration>,
    tick: Duration,
    work: W,
    mut on_end: impl FnMut(usize, Ended<T>, Duration),
    mut on_tick: impl FnMut(),
) where
    T: Send + 'static,
    W: Fn(usize, &Guard<'_>) -> T + Send + Sync + 'static,
{
    let begin = Instant::now();
    let slots: Arc<Vec<Slot>> = Arc::new(
        (0..count)
            .map(|_| Slot {
                state: AtomicU8::new(QUEUED),
                started: AtomicU64::new(0),
            })
            .collect(),
    );
    let work = Arc::new(work);
    let (tx, rx) = mpsc::channel::<(usize, Ended<T>, Duration)>();
    for i in 0..count {
        let (slots, work, tx) = (Arc::clone(&slots), Arc::clone(&work), tx.clone());
        pool.spawn(move || {
            let slot = &slots[i];
            let start = Instant::now();
            slot.started
                .store(begin.elapsed().as_nanos() as u64, Ordering::Release);
            slot.state.store(RUNNING, Ordering::Release);
            let guard = Guard { slot };
            let ended = match catch_unwind(AssertUnwindSafe(|| work(i, &guard))) {
                Ok(value) => Ended::Done(value),
                Err(payload) => Ended::Panicked(panic_message(payload.as_ref())),
            };
            // The coordinator may have stopped listening (the batch is over): nothing to do.
            let _ = tx.send((i, ended, start.elapsed()));
        });
    }
    drop(tx);

    let mut ended = vec![false; count];
    let mut left = count;
    while left > 0 {
        match rx.recv_timeout(tick) {
            Ok((i, result, time)) => {
                // A job that timed out was already reported; its late result is dropped.
                if !ended[i] {
                    ended[i] = true;
                    left -= 1;
                    on_end(i, result, time);
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            // Every worker has sent or gone: nothing more can arrive.
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        if let Some(limit) = timeout {
            let now = begin.elapsed();
            for (i, slot) in slots.iter().enumerate() {
                if ended[i] || slot.state.load(Ordering::Acquire) != RUNNING {
                    continue;
                }
                let started = Duration::from_nanos(slot.started.load(Ordering::Acquire));
                let time = now.saturating_sub(started);
                if time > limit
                    && slot
                        .state
                        .compare_exchange(RUNNING, TIMED_OUT, Ordering::AcqRel, Ordering::Acquire)
                        .is_ok()
                {
                    ended[i] = true;
                    left -= 1;
                    on_end(i, Ended::TimedOut, time);
                }
            }
        }
        on_tick();
    }
}

/// The text of a panic's payload (`panic!("…")` gives a `&str` or a `String`).
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-text payload".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(n: usize) -> rayon::ThreadPool {
        match rayon::ThreadPoolBuilder::new().num_threads(n).build() {
            Ok(p) => p,
            Err(e) => panic!("no pool: {e}"),
        }
    }

    /// Runs `work` on `count` jobs; the endings by job index.
    fn run<W>(count: usize, timeout: Option<Duration>, work: W) -> Vec<String>
    where
        W: Fn(usize, &Guard<'_>) -> String + Send + Sync + 'static,
    {
        let mut out = vec![String::new(); count];
        run_all(
            &pool(2),
            count,
            timeout,
            Duration::from_millis(5),
            work,
            |i, ended, _| {
                out[i] = match ended {
                    Ended::Done(s) => s,
                    Ended::Panicked(m) => format!("panic: {m}"),
                    Ended::TimedOut => "timeout".into(),
                }
            },
            || {},
        );
        out
    }

    #[test]
    fn a_panic_is_caught_and_the_others_go_on() {
        let out = run(6, None, |i, _| {
            if i == 3 {
                panic!("job {i} broke");
            }
            format!("ok {i}")
        });
        assert_eq!(
            out,
            ["ok 0", "ok 1", "ok 2", "panic: job 3 broke", "ok 4", "ok 5"]
        );
    }

    #[test]
    fn a_slow_job_times_out_and_cannot_commit() {
        let committed = Arc::new(AtomicU8::new(0));
        let seen = Arc::clone(&committed);
        let out = run(3, Some(Duration::from_millis(50)), move |i, guard| {
            if i == 1 {
                std::thread::sleep(Duration::from_millis(400));
            }
            if guard.commit() {
                seen.fetch_add(1, Ordering::SeqCst);
                format!("ok {i}")
            } else {
                "discarded".into()
            }
        });
        assert_eq!(out, ["ok 0", "timeout", "ok 2"]);
        // The slow job finished after being given up on and was refused the commit.
        std::thread::sleep(Duration::from_millis(500));
        assert_eq!(committed.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn jobs_run_inside_the_pool() {
        // Nested rayon work (a document's pictures) lands on the same pool's threads.
        let out = run(4, None, |_, _| {
            let outer = rayon::current_num_threads();
            let inner: Vec<usize> =
                rayon::iter::ParallelIterator::collect(rayon::iter::ParallelIterator::map(
                    rayon::iter::IntoParallelIterator::into_par_iter(0..4),
                    |_| rayon::current_num_threads(),
                ));
            format!("{outer} {}", inner.iter().all(|&n| n == 2))
        });
        assert!(out.iter().all(|s| s == "2 true"), "{out:?}");
    }
}
