//! A CUDA lock's handover in two memory models that share no code: the visibility model, which
//! the page steps, lets the next holder read stale data exactly where the scoped (axiomatic)
//! model allows it, and both agree with which locks are right.

use crate::lessons::litmus::method::assert_models_agree;
use crate::lessons::spinlock::cuda_lock::LOCK_METHODS;

#[test]
fn the_next_holder_reads_stale_data_exactly_where_the_scoped_model_allows_it() {
    assert_models_agree(&LOCK_METHODS);
    // Two right and two wrong, the fence on both sides being what tells them apart.
    assert_eq!(LOCK_METHODS.iter().filter(|m| m.safe).count(), 2);
}
