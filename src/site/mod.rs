//! The site's plumbing, knowing no lesson: URL parameters and their messages, a lesson's
//! settings as they travel in its link, permalinks, and (in the browser) reading the address
//! and talking to an embedding page; the glossary of the words the pages use.

pub mod glossary;
pub mod param;
pub mod permalink;
pub mod settings;

#[cfg(target_arch = "wasm32")]
pub mod embed;
#[cfg(target_arch = "wasm32")]
pub mod query;
