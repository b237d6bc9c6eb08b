//! Many inputs: work on `--jobs N` threads, results handed on in input
//! order, and a progress bar on standard error when it is a terminal and
//! the batch is long.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A batch of at least this many inputs shows a progress bar.
const LONG_BATCH: usize = 50;

/// Runs `work` on each of `items` on `jobs` threads and hands each result
/// to `emit` in the order of `items`. An error from `emit` (a closed pipe)
/// stops the batch: no new item is started, and the error is returned.
pub fn run<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(&T) -> R + Sync,
    emit: impl FnMut(R) -> Result<()>,
) -> Result<()> {
    let progress = progress(items.len());
    let result = run_with(items, jobs, &progress, work, emit);
    progress.finish_and_clear();
    result
}

/// [`run`], counting the items done on `progress` (the caller's bar, or a
/// hidden one).
pub fn run_with<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    progress: &ProgressBar,
    work: impl Fn(&T) -> R + Sync,
    mut emit: impl FnMut(R) -> Result<()>,
) -> Result<()> {
    // One at a time: on this thread, with no hand-over per item (for many
    // small inputs, waking another thread for each costs more than the work).
    if jobs <= 1 || items.len() <= 1 {
        for item in items {
            let result = work(item);
            progress.inc(1);
            emit(result)?;
        }
        return Ok(());
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (send, receive) = mpsc::channel();
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            let send = send.clone();
            let (next, stop, work) = (&next, &stop, &work);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    if send.send((i, work(item))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        // Results that came before their turn.
        let mut early = BTreeMap::new();
        let mut turn = 0;
        for (i, result) in receive {
            early.insert(i, result);
            while let Some(result) = early.remove(&turn) {
                turn += 1;
                progress.inc(1);
                if let Err(err) = emit(result) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(err);
                }
            }
        }
        Ok(())
    })
}

/// A progress bar for `len` inputs, drawn only when standard error is a
/// terminal and the batch is long.
fn progress(len: usize) -> ProgressBar {
    if len < LONG_BATCH || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} inputs, {elapsed} (eta {eta})")
            .expect("a valid template"),
    );
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_input_order_whatever_the_jobs() {
        let items: Vec<u64> = (0..200).collect();
        for jobs in [1, 2, 7] {
            let mut seen = Vec::new();
            run(
                &items,
                jobs,
                |&n| {
                    // Later items finish sooner.
                    std::thread::sleep(std::time::Duration::from_micros(200 - n));
                    n * 2
                },
                |r| {
                    seen.push(r);
                    Ok(())
                },
            )
            .unwrap();
            assert_eq!(seen, items.iter().map(|n| n * 2).collect::<Vec<_>>());
        }
    }

    #[test]
    fn an_error_stops_the_batch() {
        let items: Vec<u32> = (0..1000).collect();
        for jobs in [1, 2] {
            let done = AtomicUsize::new(0);
            let mut emitted = 0;
            let result = run(
                &items,
                jobs,
                |_| {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                    done.fetch_add(1, Ordering::Relaxed)
                },
                |_| {
                    emitted += 1;
                    if emitted == 3 {
                        anyhow::bail!("closed")
                    }
                    Ok(())
                },
            );
            assert!(result.is_err());
            let done = done.load(Ordering::Relaxed);
            assert!(done < 1000);
            // One at a time, nothing is started after the error.
            assert!(jobs > 1 || done == 3, "{done}");
        }
    }
}
