//! What the interpreter has found wrong with a kernel in the run so far, as a list under the
//! narration.

use crate::model::kernel::finding_text;
use crate::model::Machine;
use stepper::run::Finding;

/// Each finding in words, with whether it is a race and whether a barrier not all reach.
fn words(m: &Machine) -> Vec<(bool, bool, String)> {
    m.findings().iter().map(|f| (matches!(f, Finding::Race { .. }), matches!(f, Finding::Divergence { .. }), finding_text(m.program(), f))).collect()
}
use leptos::prelude::*;

/// What the interpreter has found wrong with the kernel so far in this run (a model lowered from
/// its kernel): races, barriers not every thread reaches, indices out of bounds, spins. For tests
/// and embedding pages the list carries its counts as `data-races` and `data-divergence`.
#[component]
pub fn Findings(machine: Memo<Machine>) -> impl IntoView {
    let found = Memo::new(move |_| machine.with(words));
    move || {
        let found = found.get();
        (!found.is_empty()).then(|| {
            let races = found.iter().filter(|f| f.0).count();
            let divergence = found.iter().filter(|f| f.1).count();
            view! {
                <div class="findings notice warn" data-testid="findings" data-races=races data-divergence=divergence>
                    <strong>"Found in this run so far"</strong>
                    <ul>{found.into_iter().map(|(_, _, text)| view! { <li>{text}</li> }).collect_view()}</ul>
                </div>
            }
        })
    }
}
