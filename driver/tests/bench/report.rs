//! The benchmark's Markdown table and SVG plot.
use std::fmt::Write;

/// peak.cl's kernels: unit, operations (or bytes) per work-item, and clpeak's figure for an
/// HD 530 (23 EUs, 950 MHz, NEO 20.47; float4 bandwidth, float, half, double and int MAD).
const PEAK: &[(&str, &str, f64, f64)] = &[
    ("peak_bandwidth_f4", "GB/s", 16.0 * 16.0 + 4.0, 14.51),
    ("peak_sp", "GFLOPS", 512.0, 325.96),
    ("peak_hp", "GFLOPS", 512.0, 644.94),
    ("peak_dp", "GFLOPS", 512.0, 81.89),
    ("peak_int", "GIOPS", 512.0, 108.98),
];
const PEAK_EUS: f64 = 23.0;

/// One peak.cl kernel's figures (`Report::peak_rates`), in its unit (GB/s, GFLOPS, GIOPS).
pub struct PeakRate {
    pub kernel: &'static str,
    pub unit: &'static str,
    pub per_item: f64,
    pub igc: Option<f64>,
    pub gencl: Option<f64>,
    pub clpeak: f64,
}
const PEAK_HZ: f64 = 950e6;

use super::{Report, Row, Side};

/// The per-kernel table's header (the short-mode test checks it).
pub const COLUMNS: &[&str] = &[
    "kernel",
    "file",
    "SIMD",
    "static instr",
    "dynamic instr",
    "sends",
    "scratch sends",
    "GRFs",
    "cycles gencl",
    "cycles IGC",
    "cycles gencl/IGC",
    "instr gencl/IGC",
    "status",
];

pub fn median(v: &[f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    Some(if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    })
}

fn geomean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp())
}

/// "gencl / IGC" of one figure, "—" for a side without it.
fn pair<T: std::fmt::Display>(r: &Row, f: impl Fn(&Side) -> Option<T>) -> String {
    let one = |s: &Side| f(s).map(|v| v.to_string()).unwrap_or_else(|| "—".into());
    format!("{} / {}", one(&r.gencl), one(&r.igc))
}

fn status(r: &Row) -> String {
    let mut v = Vec::new();
    if let Some(e) = r.gencl.error() {
        v.push(format!("gencl: {e}"));
    }
    if let Some(e) = r.igc.error() {
        v.push(format!("IGC: {e}"));
    }
    if v.is_empty() {
        "ok".into()
    } else {
        // Table cells: one line, no pipes.
        v.join("; ")
            .replace('|', "\\|")
            .replace('\n', " ")
            .chars()
            .take(160)
            .collect()
    }
}

impl Report {
    /// Kernels where either compiler failed (build, launch or a wrong result).
    pub fn failures(&self) -> Vec<String> {
        self.rows
            .iter()
            .filter(|r| r.gencl.error().is_some() || r.igc.error().is_some())
            .map(|r| format!("{}:{}: {}", r.file, r.kernel, status(r)))
            .collect()
    }

    pub fn cycle_ratios(&self) -> Vec<(&Row, f64)> {
        self.rows
            .iter()
            .filter_map(|r| Some((r, r.cycle_ratio()?)))
            .collect()
    }

    /// The summary lines (also printed by the command).
    /// The model's throughput on peak.cl's kernels, for IGC's and gencl's binaries, beside
    /// clpeak's published HD 530 figure (docs/gpu-model.md): the modelled cycles of a launch
    /// spread over the EUs of that GPU at its clock.
    pub fn peak_rates(&self) -> Vec<PeakRate> {
        PEAK.iter()
            .filter_map(|&(kernel, unit, per_item, clpeak)| {
                let r = self.rows.iter().find(|r| r.kernel == kernel)?;
                let rate = |side: &Side| {
                    side.ok().map(|(_, c)| {
                        let secs = c.modelled_cycles as f64 / PEAK_EUS / PEAK_HZ;
                        r.work_items as f64 * per_item / secs / 1e9
                    })
                };
                Some(PeakRate {
                    kernel,
                    unit,
                    per_item,
                    igc: rate(&r.igc),
                    gencl: rate(&r.gencl),
                    clpeak,
                })
            })
            .collect()
    }

    /// `peak_rates` as a table.
    pub fn peak_table(&self) -> String {
        let mut s = String::from(
            "\n## Peak throughput: the model against clpeak's HD 530\n\n\
             The modelled cycles of each launch, spread over the 23 EUs at 950 MHz that \
             clpeak's Gen9 GT2 run reports (results/Intel_Graphics_Compute_Runtime/\
             Intel_HD_Graphics_530.log in clpeak's repository), as the figure clpeak prints.\n\n\
             | kernel | unit | per work-item | model, IGC's code | model, gencl's code | \
             clpeak HD 530 | model (IGC) / clpeak |\n| --- | --- | --- | --- | --- | --- | --- |\n",
        );
        let cell = |x: Option<f64>| x.map_or("—".to_string(), |x| format!("{x:.1}"));
        for p in self.peak_rates() {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} |",
                p.kernel,
                p.unit,
                p.per_item,
                cell(p.igc),
                cell(p.gencl),
                p.clpeak,
                p.igc
                    .map_or("—".to_string(), |x| format!("{:.2}", x / p.clpeak))
            );
        }
        s
    }

    pub fn summary(&self) -> String {
        let ratios: Vec<f64> = self.cycle_ratios().iter().map(|x| x.1).collect();
        let instr: Vec<f64> = self
            .rows
            .iter()
            .filter_map(Row::instruction_ratio)
            .collect();
        let fmt = |x: Option<f64>| x.map(|v| format!("{v:.3}")).unwrap_or_else(|| "—".into());
        let mut s = String::new();
        let _ = writeln!(
            s,
            "- kernels: {}; both binaries correct: {}; failures: {}",
            self.rows.len(),
            ratios.len(),
            self.failures().len()
        );
        let _ = writeln!(
            s,
            "- modelled cycles gencl/IGC: median **{}**, geometric mean {}, {} kernels above 1.1, \
             {} above 1.5, {} at or below 1.0",
            fmt(median(&ratios)),
            fmt(geomean(&ratios)),
            ratios.iter().filter(|&&r| r > 1.1).count(),
            ratios.iter().filter(|&&r| r > 1.5).count(),
            ratios.iter().filter(|&&r| r <= 1.0).count()
        );
        let _ = writeln!(
            s,
            "- dynamic instructions gencl/IGC: median {}, geometric mean {}",
            fmt(median(&instr)),
            fmt(geomean(&instr))
        );
        let mut worst = self.cycle_ratios();
        worst.sort_by(|a, b| b.1.total_cmp(&a.1));
        let w: Vec<String> = worst
            .iter()
            .take(5)
            .map(|(r, x)| format!("{} {x:.2}", r.kernel))
            .collect();
        let _ = writeln!(s, "- worst five (cycles gencl/IGC): {}", w.join(", "));
        let jit: f64 = self.compile.iter().map(|c| c.gencl_secs).sum();
        let ocloc: f64 = self.compile.iter().map(|c| c.ocloc_secs).sum();
        if ocloc > 0.0 {
            let _ = writeln!(
                s,
                "- compile time over {} files: gencl's JIT {:.0} ms (in process), ocloc {:.0} ms: \
                 ratio {:.3}",
                self.compile.len(),
                jit * 1e3,
                ocloc * 1e3,
                jit / ocloc
            );
        }
        for f in self.failures() {
            let _ = writeln!(s, "- FAILED {f}");
        }
        s
    }

    /// The whole Markdown document.
    pub fn markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "# gencl's machine code against IGC's, kernel by kernel\n\n\
             Written by `cargo run --release -p gencl --example bench`{} (see README.md in this \
             folder for what each column means). Both binaries of each kernel ran on the GPU \
             model with the same inputs and ND-range; a kernel counts only when both results \
             equal the CPU reference.\n",
            if self.short { " -- --short" } else { "" }
        );
        let _ = writeln!(s, "## Summary\n\n{}", self.summary());
        let _ = writeln!(
            s,
            "## Per kernel (each cell: gencl / IGC)\n\n| {} |\n|{}",
            COLUMNS.join(" | "),
            " --- |".repeat(COLUMNS.len())
        );
        for r in &self.rows {
            let cycles = |s: &Side| s.ok().map(|(_, c)| c.modelled_cycles);
            let cells = [
                r.kernel.to_string(),
                r.file.to_string(),
                pair(r, |s| s.build.as_ref().ok().map(|b| b.simd)),
                pair(r, |s| s.build.as_ref().ok().map(|b| b.instructions)),
                pair(r, |s| s.ok().map(|(_, c)| c.instructions)),
                pair(r, |s| s.ok().map(|(_, c)| c.sends)),
                pair(r, |s| s.ok().map(|(_, c)| c.sends_scratch)),
                pair(r, |s| s.build.as_ref().ok().map(|b| b.grfs)),
                cycles(&r.gencl)
                    .map(|c| c.to_string())
                    .unwrap_or_else(|| "—".into()),
                cycles(&r.igc)
                    .map(|c| c.to_string())
                    .unwrap_or_else(|| "—".into()),
                r.cycle_ratio()
                    .map(|x| format!("{x:.2}"))
                    .unwrap_or_else(|| "—".into()),
                r.instruction_ratio()
                    .map(|x| format!("{x:.2}"))
                    .unwrap_or_else(|| "—".into()),
                status(r),
            ];
            let _ = writeln!(s, "| {} |", cells.join(" | "));
        }
        let _ = writeln!(s, "{}", self.peak_table());
        let _ = writeln!(
            s,
            "\n## Compile time per file (same source, options `{}`)\n\n\
             | file | gencl JIT in process (ms) | gencl JIT as a process (ms, peak MiB) | \
             ocloc (ms) | ocloc peak MiB | gencl/ocloc time |\n\
             | --- | --- | --- | --- | --- | --- |",
            super::OPTIONS
        );
        for c in &self.compile {
            let mib = |k: u64| format!("{:.0}", k as f64 / 1024.0);
            let _ = writeln!(
                s,
                "| {} | {:.1} | {} | {:.0} | {} | {} |",
                c.file,
                c.gencl_secs * 1e3,
                c.gencl_process
                    .map(|(t, k)| format!("{:.0}, {}", t * 1e3, mib(k)))
                    .unwrap_or_else(|| "—".into()),
                c.ocloc_secs * 1e3,
                c.ocloc_peak_kib.map(mib).unwrap_or_else(|| "—".into()),
                if c.ocloc_secs > 0.0 {
                    format!("{:.3}", c.gencl_secs / c.ocloc_secs)
                } else {
                    "—".into()
                }
            );
        }
        s
    }

    /// A horizontal bar chart of each kernel's modelled-cycle ratio on a log scale.
    pub fn svg(&self) -> String {
        let mut rows = self.cycle_ratios();
        rows.sort_by(|a, b| a.1.total_cmp(&b.1));
        let failed: Vec<&Row> = self
            .rows
            .iter()
            .filter(|r| r.cycle_ratio().is_none())
            .collect();
        let (row_h, top, left, plot_w) = (16.0, 40.0, 190.0, 560.0);
        let lo = rows
            .iter()
            .map(|r| r.1)
            .fold(0.25f64, f64::min)
            .log2()
            .floor();
        let hi = rows
            .iter()
            .map(|r| r.1)
            .fold(4.0f64, f64::max)
            .log2()
            .ceil();
        let x = |v: f64| left + (v.log2() - lo) / (hi - lo) * plot_w;
        let n = rows.len() + failed.len();
        let height = top + row_h * n as f64 + 40.0;
        let width = left + plot_w + 70.0;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             font-family=\"sans-serif\" font-size=\"11\">\n\
             <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
             <text x=\"{left}\" y=\"16\" font-size=\"13\">Modelled cycles, gencl / IGC \
             (log scale; left of 1 = gencl faster)</text>"
        );
        let mut e = lo as i32;
        while e <= hi as i32 {
            let v = 2f64.powi(e);
            let xv = x(v);
            let _ = writeln!(
                s,
                "<line x1=\"{xv:.1}\" y1=\"{}\" x2=\"{xv:.1}\" y2=\"{}\" stroke=\"{}\"/>\n\
                 <text x=\"{xv:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                top - 6.0,
                top + row_h * n as f64,
                if e == 0 { "black" } else { "#ccc" },
                top - 10.0,
                if e >= 0 {
                    format!("{}", 1u64 << e)
                } else {
                    format!("1/{}", 1u64 << -e)
                }
            );
            e += 1;
        }
        for (i, (r, v)) in rows.iter().enumerate() {
            let y = top + row_h * i as f64;
            let (x0, x1) = (x(1.0).min(x(*v)), x(1.0).max(x(*v)));
            let colour = if *v <= 1.0 {
                "#4a9"
            } else if *v <= 1.5 {
                "#e94"
            } else {
                "#d43"
            };
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n\
                 <rect x=\"{x0:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{colour}\"/>\n\
                 <text x=\"{:.1}\" y=\"{:.1}\">{v:.2}</text>",
                left - 6.0,
                y + 11.0,
                r.kernel,
                y + 2.0,
                (x1 - x0).max(1.0),
                row_h - 4.0,
                x1 + 4.0,
                y + 11.0
            );
        }
        for (i, r) in failed.iter().enumerate() {
            let y = top + row_h * (rows.len() + i) as f64;
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n\
                 <text x=\"{left}\" y=\"{:.1}\" fill=\"#d43\">no ratio: a build or a result \
                 failed</text>",
                left - 6.0,
                y + 11.0,
                r.kernel,
                y + 11.0
            );
        }
        s.push_str("</svg>\n");
        s
    }

    /// Compile time per corpus file: gencl's JIT in process and ocloc, on one linear scale.
    pub fn compile_svg(&self) -> String {
        let (row_h, top, left, plot_w) = (30.0, 40.0, 120.0, 600.0);
        let max = self
            .compile
            .iter()
            .map(|c| c.ocloc_secs.max(c.gencl_secs))
            .fold(1e-3f64, f64::max);
        let x = |secs: f64| left + secs / max * plot_w;
        let height = top + row_h * self.compile.len() as f64 + 30.0;
        let width = left + plot_w + 90.0;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             font-family=\"sans-serif\" font-size=\"11\">\n\
             <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
             <text x=\"{left}\" y=\"16\" font-size=\"13\">Compile time per file (ms): \
             <tspan fill=\"#4a9\">gencl JIT</tspan>, <tspan fill=\"#47c\">ocloc</tspan></text>"
        );
        for (i, c) in self.compile.iter().enumerate() {
            let y = top + row_h * i as f64;
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                left - 6.0,
                y + 15.0,
                c.file
            );
            for (k, (secs, colour)) in [(c.gencl_secs, "#4a9"), (c.ocloc_secs, "#47c")]
                .into_iter()
                .enumerate()
            {
                let yb = y + 2.0 + 12.0 * k as f64;
                let _ = writeln!(
                    s,
                    "<rect x=\"{left}\" y=\"{yb:.1}\" width=\"{:.1}\" height=\"11\" \
                     fill=\"{colour}\"/>\n<text x=\"{:.1}\" y=\"{:.1}\">{:.0}</text>",
                    (x(secs) - left).max(1.0),
                    x(secs) + 4.0,
                    yb + 10.0,
                    secs * 1e3
                );
            }
        }
        s.push_str("</svg>\n");
        s
    }
}
