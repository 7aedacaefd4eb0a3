//! Attribute parsing: `#[schema]` keywords, `#[crd]`, the serde attributes
//! that shape the JSON, and doc comments.

pub mod crd;
pub mod doc;
pub mod parse;
pub mod schema;
pub mod serde;
pub mod validation;
