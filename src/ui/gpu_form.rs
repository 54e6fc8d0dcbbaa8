//! The sizes a reader types for a dispatch, checked against the adapter before anything runs.

use crate::gpu::GpuContext;
use crate::lessons::dispatch::{check_params, ComputeLimits, GpuParams};
use crate::lessons::param::in_range;
use leptos::prelude::*;

/// The two fields as typed, and the sizes the page opened with (the fallback while a field
/// holds something that is not a number).
#[derive(Clone, Copy)]
pub struct SizeFields {
    pub invocations: RwSignal<String>,
    pub workgroup: RwSignal<String>,
    opened: GpuParams,
}

impl SizeFields {
    pub fn new(opened: GpuParams) -> Self {
        SizeFields {
            invocations: RwSignal::new(opened.invocations.to_string()),
            workgroup: RwSignal::new(opened.workgroup_size.to_string()),
            opened,
        }
    }

    /// The sizes for a link: what is typed where it is a number, else what the page opened with.
    pub fn current(self) -> GpuParams {
        GpuParams {
            invocations: self.invocations.with(|v| v.trim().parse().unwrap_or(self.opened.invocations)),
            workgroup_size: self.workgroup.with(|v| v.trim().parse().unwrap_or(self.opened.workgroup_size)),
        }
    }

    /// The sizes to dispatch, or a message naming what this GPU does not allow.
    pub fn checked(self, ctx: &GpuContext) -> Result<GpuParams, String> {
        let limits = ComputeLimits::from(ctx.adapter.limits);
        let n = in_range("invocations", &self.invocations.get_untracked(), 1..=u64::from(u32::MAX))?;
        let w = in_range("workgroup size", &self.workgroup.get_untracked(), 1..=u64::from(u32::MAX))?;
        check_params(GpuParams { invocations: n as u32, workgroup_size: w as u32 }, &limits)
    }
}

#[component]
pub fn SizeInputs(sizes: SizeFields) -> impl IntoView {
    view! {
        <label>"Invocations " <input type="text" inputmode="numeric" prop:value=move || sizes.invocations.get()
            on:input=move |e| sizes.invocations.set(event_target_value(&e)) data-testid="gpu-invocations" /></label>
        <label>"Workgroup size " <input type="text" inputmode="numeric" prop:value=move || sizes.workgroup.get()
            on:input=move |e| sizes.workgroup.set(event_target_value(&e)) data-testid="gpu-workgroup" /></label>
    }
}

/// The messages for parts of the page's link that were refused.
#[component]
pub fn LinkProblems(problems: Vec<String>) -> impl IntoView {
    (!problems.is_empty()).then(|| {
        view! {
            <div class="notice warn" role="alert" data-testid="param-error">
                {problems.into_iter().map(|p| view! { <p>{p}</p> }).collect_view()}
            </div>
        }
    })
}
