//! Browser glue: the calls into the browser that the components use, kept apart from
//! the components so each is small and replaceable.
//!
//! - [`storage`]: local storage entries.
//! - [`dom`]: focus, downloads, the address bar's fragment, the document language.
//! - [`worker`]: the bridge to the background worker.
//! - [`reader`]: the worker's module on the page's thread, for reading while typing.
//! - [`wire`]: the compact text format of the worker's readings.

pub mod dom;
pub mod reader;
pub mod storage;
pub mod wire;
pub mod worker;
