//! `diff --auto`: shader blobs drawn through generated cases, with a
//! verdict per shader and per backend (`harness::auto`), counted by
//! verdict and reason, and the same documents `diff` writes.

use anyhow::Result;
use dxbc_dbg::harness;
use dxbc_dbg::harness::results::verdict::{self, Kind};

use super::Outcome;
use super::diff::{Outputs, Selection, write_documents};

pub fn auto_command(
    selection: Selection,
    opts: harness::auto::Options,
    outputs: Outputs,
    renderers: &[&dyn harness::suite::Renderer],
) -> Result<Outcome> {
    let all =
        harness::auto::collect(selection.cases, selection.filter).map_err(anyhow::Error::msg)?;
    if all.is_empty() {
        anyhow::bail!("no shader blobs to run");
    }
    let list = harness::auto::slice(&all, selection.shard);
    if let Some(shard) = selection.shard {
        println!("slice {shard}: {} of {} shaders", list.len(), all.len());
    }
    let info = selection.run_info(renderers, false);
    let bar = super::progress::Bar::new();
    let start = std::time::Instant::now();
    let run = harness::auto::run(&list, all.len(), renderers, &opts, info, &bar)
        .map_err(anyhow::Error::msg)?;
    bar.finish();
    let mut doc = run.doc;
    print!("{}", verdict::summary(&doc));
    print_details(&doc);
    println!(
        "{} shaders in {:.1} s",
        doc.cases.len(),
        start.elapsed().as_secs_f64()
    );
    if let Some(dir) = outputs.report {
        // Pictures for the drawn cases, written through a document of
        // those alone, then set on the full one.
        let mut drawn_doc = harness::results::Results {
            cases: run
                .drawn
                .iter()
                .map(|(i, _)| doc.cases[*i].clone())
                .collect(),
            ..doc.clone()
        };
        let results: Vec<_> = run.drawn.iter().map(|(_, r)| r.clone()).collect();
        harness::report::write_pictures(dir, &results, &mut drawn_doc)
            .map_err(anyhow::Error::msg)?;
        for ((i, _), rec) in run.drawn.iter().zip(drawn_doc.cases) {
            doc.cases[*i] = rec;
        }
        let page = harness::report::write_html(dir, &doc).map_err(anyhow::Error::msg)?;
        println!("report: {}", page.display());
    }
    write_documents(&mut doc, outputs)?;
    Ok(if doc.passed() {
        Outcome::Done
    } else {
        Outcome::Failed
    })
}

/// Every shader that did not agree (skipped and refused ones by count
/// only, in the summary), and every differ with its worst pixel.
pub fn print_details(doc: &harness::results::Results) {
    for c in &doc.cases {
        let Some(v) = &c.verdict else { continue };
        match v.kind {
            Kind::EmulatorError | Kind::DoesNotEnd | Kind::BackendError => {
                let mut why = v.reasons.clone();
                for b in v.backends.iter().filter(|b| b.kind == v.kind) {
                    why.extend(b.reasons.iter().map(|r| format!("{}: {r}", b.key())));
                }
                println!(
                    "{}: {}{} ({})",
                    c.name,
                    v.kind.name(),
                    if v.bug { " (a bug)" } else { "" },
                    why.join("; ")
                );
            }
            _ => {}
        }
    }
    print!("{}", verdict::differ_list(doc));
}
