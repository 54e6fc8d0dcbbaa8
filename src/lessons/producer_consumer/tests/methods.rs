//! CUDA's handoffs in two memory models that share no code: the visibility model, which the
//! page steps, reaches the stale read exactly where the scoped (axiomatic) model allows it, and
//! both agree with what the tutorial calls safe; each is a message-passing test the scene sets
//! its challenge for.

use crate::lessons::litmus::method::assert_models_agree;
use crate::lessons::producer_consumer::methods::METHODS;

#[test]
fn the_visibility_model_reaches_the_stale_read_exactly_where_the_scoped_model_allows_it() {
    assert_models_agree(&METHODS);
}
