//! The bar `diff`, `diff --auto` and `bisect` draw on standard error while
//! the library reports its stages ([`harness::progress::Progress`]). Only
//! on a terminal: piped into a log or a test, the run prints nothing
//! extra, so its output reads the same as before.

use std::io::IsTerminal;
use std::time::Duration;

use dxbc_dbg::harness;

/// A progress bar on a terminal's standard error, or nothing.
pub struct Bar(Option<indicatif::ProgressBar>);

impl Bar {
    /// A bar when standard error is a terminal.
    pub fn new() -> Bar {
        if !std::io::stderr().is_terminal() {
            return Bar(None);
        }
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(style(true));
        // The elapsed time moves while a backend draws a whole batch.
        bar.enable_steady_tick(Duration::from_millis(200));
        Bar(Some(bar))
    }

    /// Takes the bar off the screen before the summary is printed.
    pub fn finish(&self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}

fn style(counted: bool) -> indicatif::ProgressStyle {
    let template = if counted {
        "{prefix:>22} {bar:30} {pos}/{len} {elapsed} {wide_msg}"
    } else {
        "{prefix:>22} {spinner} {elapsed} {wide_msg}"
    };
    indicatif::ProgressStyle::with_template(template)
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
}

impl harness::progress::Progress for Bar {
    fn stage(&self, name: &str, total: usize) {
        if let Some(b) = &self.0 {
            b.set_style(style(total > 0));
            b.set_prefix(name.to_string());
            b.set_length(total as u64);
            b.set_position(0);
            b.set_message("");
        }
    }

    fn advance(&self, n: usize, item: &str) {
        if let Some(b) = &self.0 {
            b.inc(n as u64);
            if !item.is_empty() {
                b.set_message(item.to_string());
            }
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.finish();
    }
}
