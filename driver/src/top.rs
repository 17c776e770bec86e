//! `gencl top`: what a running gencld is doing: its clients (process, buffers, programs,
//! builds, launches queued, finished and failed, and launches a second since the last
//! refresh) and under each its queues (launches, finished, failed, in flight), the
//! persistent program cache, the GPU model's totals, and what gencld holds in the kernel
//! driver. One `Request::Stats`
//! a refresh, on a connection of its own (which shows in the list as `gencl top` itself).

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::client::Connection;
use crate::protocol::{Request, Response, ServiceStats};

/// Ask the gencld at `socket` (or the one the ICD would find) for its state.
pub fn fetch(conn: &Connection) -> Result<ServiceStats, String> {
    match conn.call(Request::Stats) {
        Ok((Response::Stats(s), _)) => Ok(*s),
        Ok((other, _)) => Err(format!("gencld answered {other:?}")),
        Err(e) => Err(format!("gencld: {e}")),
    }
}

pub fn connect(socket: Option<&Path>) -> Result<Connection, String> {
    match socket {
        Some(p) => Connection::connect_to(p),
        None => Connection::connect(),
    }
    .map_err(|e| {
        format!("no gencld to ask: {e} (gencl top reads a running service; --socket names one)")
    })
}

/// One screen: `rates` are launches a second per client id since the previous screen.
pub fn render(s: &ServiceStats, rates: &HashMap<u64, f64>) -> String {
    let mut out = format!(
        "gencld: {}, up {}, {} client{}\n",
        s.device,
        duration(s.uptime_ms),
        s.clients.len(),
        if s.clients.len() == 1 { "" } else { "s" }
    );
    out += &format!(
        "{:>4} {:>8} {:>9} {:>8} {:>10} {:>8} {:>7} {:>10} {:>10} {:>7} {:>9}\n",
        "id",
        "pid",
        "up",
        "buffers",
        "MiB",
        "programs",
        "builds",
        "launches",
        "finished",
        "failed",
        "launch/s"
    );
    for c in &s.clients {
        out += &format!(
            "{:>4} {:>8} {:>9} {:>8} {:>10.1} {:>8} {:>7} {:>10} {:>10} {:>7} {:>9.0}\n",
            c.id,
            c.pid.map_or("-".to_string(), |p| p.to_string()),
            duration(c.connected_ms),
            c.buffers,
            c.buffer_bytes as f64 / f64::from(1 << 20),
            c.programs,
            c.builds,
            c.launches,
            c.completed,
            c.failed,
            rates.get(&c.id).copied().unwrap_or(0.0)
        );
        // The client's queues under it, in the launches, finished and failed columns.
        for q in &c.queues {
            let in_flight = q.launches.saturating_sub(q.completed + q.failed);
            out += &format!(
                "{:>4} {:<55} {:>10} {:>10} {:>7}\n",
                "",
                format!("  queue {} ({} in flight)", q.id, in_flight),
                q.launches,
                q.completed,
                q.failed
            );
        }
    }
    let pc = &s.program_cache;
    if pc.dir.is_empty() {
        out += "program cache: off\n";
    } else {
        out += &format!(
            "program cache: {} ({} programs, {:.1} MiB); this service: {} hits, {} misses, \
             {} stored, {} evicted, {} rejected\n",
            pc.dir,
            pc.entries,
            pc.bytes as f64 / f64::from(1 << 20),
            pc.hits,
            pc.misses,
            pc.stored,
            pc.evicted,
            pc.rejected
        );
    }
    match &s.gpu {
        Some(g) => {
            out += &format!(
                "GPU model: {} threads, {} instructions ({} lane-instructions), {} sends, {} \
                 modelled cycles\n",
                g.threads, g.instructions, g.lane_instructions, g.sends, g.modelled_cycles
            )
        }
        None => out += "GPU: an i915 (gencl reads no hardware counters)\n",
    }
    out += &format!(
        "held in the kernel driver: {} GEM objects, {} VMs, {} contexts\n",
        s.held.gem_objects, s.held.vms, s.held.contexts
    );
    out
}

fn duration(ms: u64) -> String {
    let s = ms / 1000;
    if s < 60 {
        format!("{}.{}s", s, (ms % 1000) / 100)
    } else if s < 3600 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{}h{:02}m", s / 3600, (s / 60) % 60)
    }
}

/// Refresh every `interval` until interrupted (or `count` screens), clearing a terminal.
pub fn run(socket: Option<&Path>, interval: Duration, count: Option<u64>) -> Result<(), String> {
    use std::io::IsTerminal;
    let conn = connect(socket)?;
    let tty = std::io::stdout().is_terminal();
    let mut last: Option<(Instant, HashMap<u64, u64>)> = None;
    let mut shown = 0;
    loop {
        let s = fetch(&conn)?;
        let now = Instant::now();
        let launches: HashMap<u64, u64> = s.clients.iter().map(|c| (c.id, c.launches)).collect();
        let rates = match &last {
            Some((t, before)) => {
                let dt = now.duration_since(*t).as_secs_f64().max(1e-3);
                launches
                    .iter()
                    .map(|(id, n)| {
                        (
                            *id,
                            n.saturating_sub(*before.get(id).unwrap_or(n)) as f64 / dt,
                        )
                    })
                    .collect()
            }
            None => HashMap::new(),
        };
        if tty {
            // Home and clear: one screen, redrawn.
            print!("\x1b[H\x1b[2J");
        }
        print!("{}", render(&s, &rates));
        shown += 1;
        if count.is_some_and(|c| shown >= c) {
            return Ok(());
        }
        if !tty {
            println!();
        }
        last = Some((now, launches));
        std::thread::sleep(interval);
    }
}
