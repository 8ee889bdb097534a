//! `taintlab-conformance [DIR...]`: runs every case of every `*.json` vector file in each
//! directory (default: the vectors shipped with this crate) and exits non-zero if any case
//! fails, any op is unknown, or a file cannot be read.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut dirs: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if dirs.iter().any(|d| d == "-h" || d == "--help") {
        println!(
            "usage: taintlab-conformance [DIR...]\n\nRuns every case of every *.json vector file in each DIR (default: the shipped vectors)."
        );
        return ExitCode::SUCCESS;
    }
    if dirs.is_empty() {
        dirs.push(taintlab_conformance::shipped_vectors_dir());
    }
    let mut ok = true;
    for dir in &dirs {
        let report = taintlab_conformance::run_dir(dir);
        print!("{}", report.render(true));
        ok &= report.all_passed();
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
