//! Errors collected while a derive input is parsed and checked, reported
//! all at once (serde_derive's `Ctxt`).

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

/// Collects `syn::Error`s; [`Ctxt::check`] hands them over as one error.
#[derive(Debug, Default)]
pub struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    /// A context with no errors yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// An error at the span of `tokens`.
    pub fn error_spanned_by(&self, tokens: impl ToTokens, message: impl Display) {
        self.errors.borrow_mut().push(syn::Error::new_spanned(tokens, message));
    }

    /// An error already built (for example by a parser).
    pub fn syn_error(&self, error: syn::Error) {
        self.errors.borrow_mut().push(error);
    }

    /// All errors combined, or `Ok` when there were none.
    pub fn check(self) -> syn::Result<()> {
        let mut errors = self.errors.into_inner().into_iter();
        let Some(mut combined) = errors.next() else { return Ok(()) };
        for error in errors {
            combined.combine(error);
        }
        Err(combined)
    }
}
