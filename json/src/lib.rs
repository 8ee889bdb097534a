//! # taintlab-json
//!
//! Taintlab's answers as plain JSON: the functions of the npm package `taintlab`
//! (`analyze`, `schedule`, `explain`, `validate`, `kubectlTaint`, `policyDecision`, ...)
//! as native Rust functions that take their arguments as [`value::V`] trees and return
//! the JSON text of the result, or an [`error::ApiError`] (on the JavaScript side a
//! thrown `TaintlabError`).
//!
//! The shape is shared: the npm package (`wasm/js`) exports these functions through
//! wasm-bindgen, and the command-line tool (`cli/`) prints the same JSON for `-o json`,
//! so a terminal, a CI job and a browser get byte-identical answers for the same texts
//! and options. Results are written with the small non-generic writer in [`write`] and
//! arguments read with [`read`], not with serde, which keeps the npm package's wasm
//! small.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod api;
pub mod error;
pub mod read;
pub mod value;
pub mod write;
