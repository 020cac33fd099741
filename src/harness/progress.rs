//! How a long run (`diff`, `diff --auto`, `bisect`) tells its caller how
//! far it has got. The library never prints: it calls a [`Progress`] at
//! each stage and as items finish, and the caller decides what to show
//! (the binary draws a bar on a terminal and nothing in a log). A run
//! given `&()` reports to no one.

/// What a run reports as it goes. Items of a stage may finish on the
/// run's worker threads, so it is `Sync`.
pub trait Progress: Sync {
    /// A stage begins (`emulator`, `drawing on vulkan`, …) with `total`
    /// items (0: a single step of unknown length).
    fn stage(&self, _name: &str, _total: usize) {}
    /// `n` items of the current stage are done; `item` names the last.
    fn advance(&self, _n: usize, _item: &str) {}
}

/// Reports to no one.
impl Progress for () {}

/// Reports one item of the current stage done when dropped: at the end
/// of the closure or loop body that did it, whichever way that ends.
pub(crate) struct Done<'a>(pub &'a dyn Progress, pub &'a str);

impl Drop for Done<'_> {
    fn drop(&mut self) {
        self.0.advance(1, self.1);
    }
}

#[cfg(test)]
pub(crate) mod record {
    use std::sync::Mutex;

    /// Every call, in order, for tests: `stage NAME TOTAL` and
    /// `advance N`.
    #[derive(Default)]
    pub struct Recorder(pub Mutex<Vec<String>>);

    impl super::Progress for Recorder {
        fn stage(&self, name: &str, total: usize) {
            self.0
                .lock()
                .expect("not poisoned")
                .push(format!("stage {name} {total}"));
        }
        fn advance(&self, n: usize, _item: &str) {
            self.0
                .lock()
                .expect("not poisoned")
                .push(format!("advance {n}"));
        }
    }

    impl Recorder {
        /// Per stage, its total and the items reported done in it.
        pub fn stages(&self) -> Vec<(String, usize, usize)> {
            let mut out: Vec<(String, usize, usize)> = Vec::new();
            for line in self.0.lock().expect("not poisoned").iter() {
                let words: Vec<&str> = line.split(' ').collect();
                if words[0] == "stage" {
                    let total = words[words.len() - 1].parse().unwrap_or(usize::MAX);
                    out.push((words[1..words.len() - 1].join(" "), total, 0));
                } else if let Some(last) = out.last_mut() {
                    last.2 += words[1].parse::<usize>().unwrap_or(0);
                }
            }
            out
        }
    }
}
