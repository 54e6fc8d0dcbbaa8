//! A number as an attribute value, written by [`crate::text::fixed`] rather than by Rust's float
//! formatting (see there why).

use crate::text::fixed;
use leptos::tachys::html::attribute::AttributeValue;
use leptos::tachys::renderer::{types::Element, Rndr};
use std::fmt;

/// A number for an attribute or a text: two decimals at most.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Num(pub f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fixed(self.0, 2).fmt(f)
    }
}

impl AttributeValue for Num {
    type AsyncOutput = Num;
    type State = (Element, Num);
    type Cloneable = Num;
    type CloneableOwned = Num;

    fn html_len(&self) -> usize {
        0
    }

    fn to_html(self, key: &str, buf: &mut String) {
        <String as AttributeValue>::to_html(self.to_string(), key, buf);
    }

    fn to_template(_key: &str, _buf: &mut String) {}

    fn hydrate<const FROM_SERVER: bool>(self, key: &str, el: &Element) -> Self::State {
        if !FROM_SERVER {
            Rndr::set_attribute(el, key, &self.to_string());
        }
        (el.clone(), self)
    }

    fn build(self, el: &Element, key: &str) -> Self::State {
        Rndr::set_attribute(el, key, &self.to_string());
        (el.to_owned(), self)
    }

    fn rebuild(self, key: &str, state: &mut Self::State) {
        let (el, previous) = state;
        if self != *previous {
            Rndr::set_attribute(el, key, &self.to_string());
        }
        *previous = self;
    }

    fn into_cloneable(self) -> Self::Cloneable {
        self
    }

    fn into_cloneable_owned(self) -> Self::CloneableOwned {
        self
    }

    fn dry_resolve(&mut self) {}

    async fn resolve(self) -> Self::AsyncOutput {
        self
    }
}
