//! The sizes of a dispatch as the reader sets them, checked against the adapter's limits.

/// The parameters of one GPU run, as the reader set them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuParams {
    pub invocations: u32,
    pub workgroup_size: u32,
}

impl GpuParams {
    pub const DEFAULT: GpuParams = GpuParams { invocations: 1024, workgroup_size: 64 };

    pub fn workgroups(&self) -> u32 {
        self.invocations.div_ceil(self.workgroup_size)
    }
}

/// Upper bound on invocations, whatever the adapter allows: enough to show the effect, small
/// enough that "run 100×" stays quick on a software rasteriser.
pub const MAX_INVOCATIONS: u32 = 1 << 22;

/// The slice of an adapter's limits that this lesson depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComputeLimits {
    pub max_workgroup_size_x: u32,
    pub max_invocations_per_workgroup: u32,
    pub max_workgroups_per_dimension: u32,
}

/// Checks the reader's sizes against the adapter's limits, with a message that says which
/// limit was hit and what to choose instead.
pub fn check_params(p: GpuParams, limits: &ComputeLimits) -> Result<GpuParams, String> {
    let max_wg = limits.max_workgroup_size_x.min(limits.max_invocations_per_workgroup);
    if p.workgroup_size == 0 || p.workgroup_size > max_wg {
        return Err(format!("workgroup size must be between 1 and {max_wg} on this GPU (got {})", p.workgroup_size));
    }
    if p.invocations == 0 || p.invocations > MAX_INVOCATIONS {
        return Err(format!("invocations must be between 1 and {MAX_INVOCATIONS} (got {})", p.invocations));
    }
    if p.workgroups() > limits.max_workgroups_per_dimension {
        return Err(format!(
            "{} invocations in workgroups of {} need {} workgroups, but this GPU allows {} in one \
             dimension: use larger workgroups or fewer invocations",
            p.invocations,
            p.workgroup_size,
            p.workgroups(),
            limits.max_workgroups_per_dimension
        ));
    }
    Ok(p)
}

impl From<crate::gpu::ComputeLimitsSummary> for ComputeLimits {
    fn from(l: crate::gpu::ComputeLimitsSummary) -> Self {
        ComputeLimits {
            max_workgroup_size_x: l.max_workgroup_size_x,
            max_invocations_per_workgroup: l.max_invocations_per_workgroup,
            max_workgroups_per_dimension: l.max_workgroups_per_dimension,
        }
    }
}
