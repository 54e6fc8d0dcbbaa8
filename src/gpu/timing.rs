//! GPU-side timing of a compute pass with timestamp queries, where the adapter has them.

use super::GpuContext;

/// Two timestamps around one compute pass and the buffer they resolve into.
#[derive(Clone)]
pub struct PassTimer {
    query_set: wgpu::QuerySet,
    resolved: wgpu::Buffer,
}

impl PassTimer {
    pub const BYTES: u64 = 16;

    /// The device's timer for a submission that times one pass: made once and reused (queue
    /// order keeps one submission's timestamps from mixing with the next's). `None` when the
    /// device has no `timestamp-query` feature.
    pub fn shared(ctx: &GpuContext) -> Option<Self> {
        ctx.pass_timer()
    }

    /// A timer of its own, for a submission that times more than one pass. `None` when the
    /// device has no `timestamp-query` feature.
    pub fn new(ctx: &GpuContext) -> Option<Self> {
        if !ctx.adapter.has_timestamps {
            return None;
        }
        let query_set = ctx.device.create_query_set(&wgpu::QuerySetDescriptor { label: Some("pass timer"), ty: wgpu::QueryType::Timestamp, count: 2 });
        let resolved = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("pass timer"),
            size: Self::BYTES,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        Some(PassTimer { query_set, resolved })
    }

    pub fn writes(&self) -> wgpu::ComputePassTimestampWrites<'_> {
        wgpu::ComputePassTimestampWrites { query_set: &self.query_set, beginning_of_pass_write_index: Some(0), end_of_pass_write_index: Some(1) }
    }

    pub fn resolve(&self, encoder: &mut wgpu::CommandEncoder) {
        encoder.resolve_query_set(&self.query_set, 0..2, &self.resolved, 0);
    }

    pub fn buffer(&self) -> &wgpu::Buffer {
        &self.resolved
    }

    /// Nanoseconds between the two timestamps. Browsers may coarsen timestamps (to 100 µs in
    /// some), so a single short pass can read 0: aggregate over many dispatches.
    pub fn nanoseconds(bytes: &[u8], period_ns: f32) -> Option<f64> {
        if bytes.len() < 16 {
            return None;
        }
        let begin = u64::from_le_bytes(bytes[0..8].try_into().ok()?);
        let end = u64::from_le_bytes(bytes[8..16].try_into().ok()?);
        Some(end.saturating_sub(begin) as f64 * f64::from(period_ns))
    }
}
