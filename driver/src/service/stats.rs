//! What the service counts for `gencl top` (`Request::Stats`): each client's objects and
//! launches, kept by its handler in atomics that the answer reads without stopping anyone.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::Instant;

use parking_lot::Mutex;

use crate::protocol::{
    CacheStats, ClientStats, GpuTotals, Held, QueueStats, ServiceStats, MAX_QUEUE_ROWS,
};

/// One client's counters (its handler and its retiring thread update them).
#[derive(Debug)]
pub struct ClientCounters {
    pub id: u64,
    pub pid: Mutex<Option<i32>>,
    connected: Instant,
    pub buffers: AtomicU64,
    pub buffer_bytes: AtomicU64,
    pub programs: AtomicU64,
    pub builds: AtomicU64,
    pub launches: AtomicU64,
    pub completed: AtomicU64,
    pub failed: AtomicU64,
    /// Per queue (`Launch::queue`), the most recently active `MAX_QUEUE_ROWS`.
    queues: Mutex<Vec<QueueRow>>,
}

struct QueueRow {
    stats: QueueStats,
    last: Instant,
}

impl std::fmt::Debug for QueueRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.stats.fmt(f)
    }
}

impl ClientCounters {
    /// A launch of queue `queue` (0: none) was queued to the GPU.
    pub fn launched(&self, queue: u64) {
        Self::add(&self.launches, 1);
        self.queue_row(queue, |q| q.launches += 1);
    }

    /// A launch of queue `queue` finished on the GPU, or failed there.
    pub fn finished(&self, queue: u64, ok: bool) {
        Self::add(if ok { &self.completed } else { &self.failed }, 1);
        self.queue_row(queue, |q| if ok { q.completed += 1 } else { q.failed += 1 });
    }

    /// Count on queue `queue`'s row, made if needed in place of the least recently active
    /// one when there are `MAX_QUEUE_ROWS` (a client that makes queue after queue).
    fn queue_row(&self, queue: u64, count: impl FnOnce(&mut QueueStats)) {
        if queue == 0 {
            return;
        }
        let mut rows = self.queues.lock();
        let at = match rows.iter().position(|r| r.stats.id == queue) {
            Some(i) => i,
            None => {
                if rows.len() >= MAX_QUEUE_ROWS {
                    if let Some(oldest) = (0..rows.len()).min_by_key(|&i| rows[i].last) {
                        rows.remove(oldest);
                    }
                }
                rows.push(QueueRow {
                    stats: QueueStats {
                        id: queue,
                        ..QueueStats::default()
                    },
                    last: Instant::now(),
                });
                rows.len() - 1
            }
        };
        let row = &mut rows[at];
        row.last = Instant::now();
        count(&mut row.stats);
    }

    pub fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }

    pub fn sub(counter: &AtomicU64, n: u64) {
        counter.fetch_sub(n, Ordering::Relaxed);
    }

    fn row(&self) -> ClientStats {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let mut queues: Vec<_> = self
            .queues
            .lock()
            .iter()
            .map(|r| (r.last, r.stats.clone()))
            .collect();
        queues.sort_by_key(|q| q.0);
        ClientStats {
            id: self.id,
            queues: queues.into_iter().map(|q| q.1).collect(),
            pid: *self.pid.lock(),
            connected_ms: self.connected.elapsed().as_millis() as u64,
            buffers: get(&self.buffers),
            buffer_bytes: get(&self.buffer_bytes),
            programs: get(&self.programs),
            builds: get(&self.builds),
            launches: get(&self.launches),
            completed: get(&self.completed),
            failed: get(&self.failed),
        }
    }
}

/// Every client's counters; a client that went away drops out.
#[derive(Debug)]
pub struct Registry {
    started: Instant,
    next: AtomicU64,
    clients: Mutex<Vec<Weak<ClientCounters>>>,
}

impl Default for Registry {
    fn default() -> Self {
        Registry {
            started: Instant::now(),
            next: AtomicU64::new(1),
            clients: Mutex::new(Vec::new()),
        }
    }
}

impl Registry {
    /// Counters for a new client.
    pub fn join(&self) -> Arc<ClientCounters> {
        let c = Arc::new(ClientCounters {
            id: self.next.fetch_add(1, Ordering::Relaxed),
            pid: Mutex::new(None),
            connected: Instant::now(),
            buffers: AtomicU64::new(0),
            buffer_bytes: AtomicU64::new(0),
            programs: AtomicU64::new(0),
            builds: AtomicU64::new(0),
            launches: AtomicU64::new(0),
            completed: AtomicU64::new(0),
            failed: AtomicU64::new(0),
            queues: Mutex::new(Vec::new()),
        });
        let mut all = self.clients.lock();
        all.retain(|w| w.strong_count() > 0);
        all.push(Arc::downgrade(&c));
        c
    }

    /// The answer to `Request::Stats`.
    pub fn stats(
        &self,
        device: &str,
        held: (u64, u64, u64),
        gpu: Option<gencl_kmd::gpu::Counters>,
    ) -> ServiceStats {
        let clients = self
            .clients
            .lock()
            .iter()
            .filter_map(Weak::upgrade)
            .map(|c| c.row())
            .collect();
        let pc = gencl_jit::program_cache::stats();
        let (dir, entries, bytes) = gencl_jit::program_cache::usage()
            .map(|(d, n, b)| (d.display().to_string(), n as u64, b))
            .unwrap_or_default();
        ServiceStats {
            uptime_ms: self.started.elapsed().as_millis() as u64,
            device: device.to_string(),
            clients,
            program_cache: CacheStats {
                dir,
                entries,
                bytes,
                hits: pc.hits,
                misses: pc.misses,
                stored: pc.stored,
                evicted: pc.evicted,
                rejected: pc.rejected,
            },
            held: Held {
                gem_objects: held.0,
                vms: held.1,
                contexts: held.2,
            },
            gpu: gpu.map(|c| GpuTotals {
                threads: c.threads,
                instructions: c.instructions,
                lane_instructions: c.lane_instructions,
                sends: c.sends,
                modelled_cycles: c.modelled_cycles,
            }),
        }
    }
}
