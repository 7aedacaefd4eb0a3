//! Structs: named fields are an object; a newtype or `#[serde(transparent)]`
//! struct is its field; a unit struct is an empty object.

use proc_macro2::TokenStream;
use quote::quote;

use super::Paths;
use super::field::{self, FieldContext};
use crate::internals::ast::{Container, Field, Style};

/// The schema expression of a struct (before the type's doc and keywords).
pub fn body(paths: &Paths, cont: &Container<'_>, style: Style, fields: &[Field<'_>]) -> TokenStream {
    let cx = FieldContext { container_default: &cont.serde.default, root: cont.is_root() };
    let private = paths.private();
    let inner = fields.iter().find(|f| f.is_present());
    match (style, inner) {
        (Style::Tuple, Some(inner)) => field::schema(paths, inner, FieldContext::variant()),
        (Style::Named, Some(inner)) if cont.serde.transparent => field::schema(paths, inner, FieldContext::variant()),
        _ => {
            let statements = field::add_all(paths, fields.iter(), cx, false);
            quote!({
                let mut object = #private::Object::new();
                #(#statements)*
                object.finish()
            })
        }
    }
}
