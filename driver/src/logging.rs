//! Logs, the same way in gencld, the ICD and the `gencl` tool: to stderr, filtered by
//! `GENCL_LOG` (tracing's `EnvFilter` syntax, e.g. `debug` or `gencl=debug,gencl_kmd=warn`).
//!
//! - Colours only when stderr is a terminal and `NO_COLOR` is unset or empty
//!   (no-color.org): under systemd, journald reads plain text.
//! - A `GENCL_LOG` that does not parse is reported on stderr, not ignored; logging then
//!   falls back to warnings and errors.
//! - Without `GENCL_LOG`, `default` (gencld: `info`; the ICD and the tool: nothing, so
//!   that an application's stderr stays its own).

use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

/// Set up logging for this process; an application that installed its own tracing
/// subscriber keeps it.
pub fn init(default: Option<&str>) {
    let spec = std::env::var("GENCL_LOG").ok();
    let filter = match filter(spec.as_deref(), default) {
        Ok(Some(f)) => f,
        Ok(None) => return,
        Err(why) => {
            eprintln!(
                "gencl: GENCL_LOG={:?}: {why}; logging warnings and errors",
                spec.unwrap_or_default()
            );
            EnvFilter::new("warn")
        }
    };
    let ansi = colours(
        std::io::stderr().is_terminal(),
        std::env::var_os("NO_COLOR").as_deref(),
    );
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(ansi)
        .with_writer(std::io::stderr)
        .try_init();
}

/// The filter `GENCL_LOG` (`spec`) asks for, else `default`; none for no logging.
pub fn filter(spec: Option<&str>, default: Option<&str>) -> Result<Option<EnvFilter>, String> {
    match spec.filter(|s| !s.trim().is_empty()).or(default) {
        None => Ok(None),
        Some(s) => EnvFilter::try_new(s).map(Some).map_err(|e| e.to_string()),
    }
}

/// Whether to colour: on a terminal, unless `NO_COLOR` is set to something.
pub fn colours(terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    terminal && no_color.is_none_or(|v| v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn colours_only_on_a_terminal_without_no_color() {
        assert!(colours(true, None));
        assert!(
            colours(true, Some(OsStr::new(""))),
            "NO_COLOR empty: as unset"
        );
        assert!(!colours(true, Some(OsStr::new("1"))));
        assert!(
            !colours(false, None),
            "journald, pipes and files get plain text"
        );
    }

    #[test]
    fn a_bad_filter_is_an_error_and_none_means_the_default() {
        assert!(filter(None, None).unwrap().is_none());
        assert!(filter(Some("  "), None).unwrap().is_none());
        assert_eq!(
            filter(None, Some("info")).unwrap().map(|f| f.to_string()),
            Some("info".to_string())
        );
        assert_eq!(
            filter(Some("gencl=debug"), Some("info"))
                .unwrap()
                .map(|f| f.to_string()),
            Some("gencl=debug".to_string())
        );
        let e = filter(Some("gencl=loud"), None).unwrap_err();
        assert!(!e.is_empty());
    }
}
