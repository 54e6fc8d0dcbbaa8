//! Getting a device, describing the adapter, and compiling kernels once.

use super::kernel::Kernel;
use super::timing::PassTimer;
use super::GpuError;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// What the reader is told about their GPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdapterSummary {
    /// A human name: the driver's device name natively, whatever the browser shares on the web.
    pub name: String,
    pub backend: String,
    pub device_type: String,
    /// A CPU adapter (SwiftShader, lavapipe): a few workgroups run at a time, each to its end.
    pub is_cpu: bool,
    pub driver: String,
    pub has_timestamps: bool,
    pub limits: ComputeLimitsSummary,
    /// The subgroup sizes the adapter reports, when the device has the `subgroups` feature;
    /// `None` when it has not (Firefox, an adapter without it). What size a kernel really ran in
    /// is read back from the kernel, never assumed from these.
    pub subgroups: Option<SubgroupSizes>,
}

/// The smallest and largest subgroup an adapter says it may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubgroupSizes {
    pub min: u32,
    pub max: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComputeLimitsSummary {
    pub max_workgroup_size_x: u32,
    pub max_invocations_per_workgroup: u32,
    pub max_workgroups_per_dimension: u32,
    pub max_storage_buffer_binding_size: u64,
    pub min_storage_buffer_offset_alignment: u32,
}

/// A compiled pipeline's kernel, workgroup size and the boolean override set, if any.
type PipelineKey = (Kernel, u32, Option<&'static str>);

/// A device and queue, plus what runs on them keep between runs: the pipelines compiled so far,
/// read-back buffers, and the pass timer.
pub struct GpuContext {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub adapter: AdapterSummary,
    pipelines: RefCell<HashMap<PipelineKey, wgpu::ComputePipeline>>,
    /// Pipelines being compiled, and who else is waiting for each.
    compiling: RefCell<HashMap<PipelineKey, Vec<Waiter>>>,
    /// Mappable buffers free for the next read-back.
    staging: RefCell<Vec<wgpu::Buffer>>,
    pass_timer: std::cell::OnceCell<Option<PassTimer>>,
    lost: Arc<Mutex<Option<String>>>,
}

type Waiter = futures_channel::oneshot::Sender<Result<wgpu::ComputePipeline, GpuError>>;

/// Read-back buffers kept for reuse, at most.
const STAGING_KEPT: usize = 4;

impl GpuContext {
    /// Finds the most capable adapter and opens a device on it with the adapter's own limits,
    /// so the reader's sizes are checked against what their GPU can really do.
    pub async fn acquire() -> Result<GpuContext, GpuError> {
        Self::acquire_with_lost_callback(|_| {}).await
    }

    /// As [`GpuContext::acquire`], and `on_lost` hears at once if the device is lost later.
    pub async fn acquire_with_lost_callback(on_lost: impl Fn(String) + Send + 'static) -> Result<GpuContext, GpuError> {
        #[cfg(target_arch = "wasm32")]
        let backends = {
            if !browser_has_webgpu() {
                // Browsers expose `navigator.gpu` only to secure contexts, so on an http:// page
                // (or in a frame of one) it is missing even where the browser has WebGPU: then
                // the fix is the page's address, not the browser.
                return Err(if browser_is_secure_context() { GpuError::NoWebGpu } else { GpuError::InsecureContext });
            }
            wgpu::Backends::BROWSER_WEBGPU
        };
        // Vulkan only: the GL backend would add a second, slower view of the same CPU driver.
        #[cfg(not(target_arch = "wasm32"))]
        let backends = wgpu::Backends::VULKAN;

        #[cfg(target_arch = "wasm32")]
        ask_browser_for_subgroups();
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor { backends, ..wgpu::InstanceDescriptor::new_without_display_handle() });
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                force_fallback_adapter: false,
                compatible_surface: None,
                apply_limit_buckets: false,
            })
            .await
            .map_err(|e| GpuError::NoAdapter(e.to_string()))?;

        // Natively wgpu asks for subgroups like any feature. In the browser wgpu 30 drops
        // SUBGROUP from its device request, so the page's own wrapper asks for it instead
        // (ask_browser_for_subgroups, before the adapter is asked for) and the JS device is
        // asked whether it came.
        let features = adapter.features() & (wgpu::Features::TIMESTAMP_QUERY | wgpu::Features::SUBGROUP);
        let limits = adapter.limits();
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("syncscope"),
                required_features: features,
                required_limits: limits.clone(),
                ..Default::default()
            })
            .await
            .map_err(|e| GpuError::NoDevice(e.to_string()))?;

        let lost = Arc::new(Mutex::new(None));
        let lost_by_callback = Arc::clone(&lost);
        device.set_device_lost_callback(move |reason, message| {
            let why = if message.is_empty() { format!("{reason:?}") } else { message };
            if let Ok(mut slot) = lost_by_callback.lock() {
                *slot = Some(why.clone());
            }
            on_lost(why);
        });

        let info = adapter.get_info();
        #[cfg(target_arch = "wasm32")]
        let has_subgroups = browser_device_has_subgroups(&device);
        #[cfg(not(target_arch = "wasm32"))]
        let has_subgroups = features.contains(wgpu::Features::SUBGROUP);
        let subgroups = has_subgroups.then_some(SubgroupSizes { min: info.subgroup_min_size, max: info.subgroup_max_size });
        #[cfg(target_arch = "wasm32")]
        let browser_label = browser_adapter_label().await;
        #[cfg(not(target_arch = "wasm32"))]
        let browser_label: Option<String> = None;
        let name = [info.name.as_str(), browser_label.as_deref().unwrap_or(""), info.driver.as_str()]
            .into_iter()
            .find(|s| !s.trim().is_empty())
            .map(str::to_owned)
            .unwrap_or_else(|| "a WebGPU adapter (the browser does not share its name)".to_owned());
        let adapter = AdapterSummary {
            name,
            backend: format!("{:?}", info.backend),
            device_type: format!("{:?}", info.device_type),
            is_cpu: info.device_type == wgpu::DeviceType::Cpu,
            driver: [info.driver.as_str(), info.driver_info.as_str()].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" "),
            has_timestamps: features.contains(wgpu::Features::TIMESTAMP_QUERY),
            subgroups,
            limits: ComputeLimitsSummary {
                max_workgroup_size_x: limits.max_compute_workgroup_size_x,
                max_invocations_per_workgroup: limits.max_compute_invocations_per_workgroup,
                max_workgroups_per_dimension: limits.max_compute_workgroups_per_dimension,
                max_storage_buffer_binding_size: limits.max_storage_buffer_binding_size as u64,
                min_storage_buffer_offset_alignment: limits.min_storage_buffer_offset_alignment,
            },
        };
        Ok(GpuContext {
            device,
            queue,
            adapter,
            pipelines: RefCell::default(),
            compiling: RefCell::default(),
            staging: RefCell::default(),
            pass_timer: Default::default(),
            lost,
        })
    }

    /// Why the device was lost, if it was.
    pub fn lost_reason(&self) -> Option<String> {
        self.lost.lock().ok().and_then(|slot| slot.clone())
    }

    pub fn check_alive(&self) -> Result<(), GpuError> {
        match self.lost_reason() {
            Some(why) => Err(GpuError::DeviceLost(why)),
            None => Ok(()),
        }
    }

    /// Destroys the device, as a lost GPU would. Used by tests and the "simulate loss" control.
    pub fn destroy(&self) {
        self.device.destroy();
    }

    /// The pipeline for `kernel` with `workgroup_size`, compiled on first use. A page compiles
    /// its kernels as it opens ([`GpuContext::pipeline`] from a warm-up); a run asking while that
    /// compile is under way waits for it rather than compiling the same pipeline twice.
    pub async fn pipeline(&self, kernel: Kernel, workgroup_size: u32) -> Result<wgpu::ComputePipeline, GpuError> {
        self.pipeline_with(kernel, workgroup_size, None).await
    }

    /// The same with the kernel's boolean override `flag` set: a way of the kernel compiled to
    /// code of its own, where a branch on a uniform would slow the other way down.
    pub async fn pipeline_with(&self, kernel: Kernel, workgroup_size: u32, flag: Option<&'static str>) -> Result<wgpu::ComputePipeline, GpuError> {
        let key = (kernel, workgroup_size, flag);
        if let Some(p) = self.pipelines.borrow().get(&key) {
            return Ok(p.clone());
        }
        let waiting = self.compiling.borrow_mut().get_mut(&key).map(|waiters| {
            let (tx, rx) = futures_channel::oneshot::channel();
            waiters.push(tx);
            rx
        });
        if let Some(rx) = waiting {
            return rx.await.unwrap_or_else(|_| Err(GpuError::DeviceLost("the compile was abandoned".into())));
        }
        self.compiling.borrow_mut().insert(key, Vec::new());
        let result = self.compile_with(kernel.file_name(), kernel.source(), workgroup_size, flag).await;
        if let Ok(p) = &result {
            self.prime(p, kernel.source());
            self.pipelines.borrow_mut().insert(key, p.clone());
        }
        for waiter in self.compiling.borrow_mut().remove(&key).unwrap_or_default() {
            let _ = waiter.send(result.clone());
        }
        result
    }

    /// A mappable buffer of at least `size` bytes for a read-back: one kept from an earlier
    /// run when one is large enough, else a new one (sized up, so it is worth keeping).
    pub(crate) fn take_staging(&self, size: u64) -> wgpu::Buffer {
        let mut free = self.staging.borrow_mut();
        let fits = free.iter().enumerate().filter(|(_, b)| b.size() >= size).min_by_key(|(_, b)| b.size()).map(|(i, _)| i);
        match fits {
            Some(i) => free.swap_remove(i),
            None => self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("readback"),
                size: size.next_power_of_two().max(256),
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
        }
    }

    /// Gives an unmapped read-back buffer back for the next run.
    pub(crate) fn give_back_staging(&self, buffer: wgpu::Buffer) {
        let mut free = self.staging.borrow_mut();
        if free.len() < STAGING_KEPT {
            free.push(buffer);
        }
    }

    /// The timer for one timed pass per submission, made once; `None` without timestamp queries.
    pub(crate) fn pass_timer(&self) -> Option<PassTimer> {
        self.pass_timer.get_or_init(|| PassTimer::new(self)).clone()
    }

    /// Runs a new pipeline once, one workgroup on zeroed buffers, and forgets the result. A
    /// browser's software adapter (SwiftShader) translates a kernel to machine code only at its
    /// first dispatch: without this, the reader's first click would wait for that too. Every
    /// kernel here bounds its loops by its parameters, so on zeros it does next to nothing.
    /// Errors stay in a scope of their own; a GPU compiles at pipeline creation anyway, so
    /// native builds skip it.
    pub fn prime(&self, pipeline: &wgpu::ComputePipeline, source: &str) {
        if cfg!(target_arch = "wasm32") {
            self.dispatch_on_zeros(pipeline, source);
        }
    }

    /// One workgroup of `pipeline` on zeroed buffers bound at every binding `source` declares,
    /// submitted and not waited for: what [`GpuContext::prime`] runs, and what the host tests
    /// run on every kernel to hold each to ending on zeros.
    pub fn dispatch_on_zeros(&self, pipeline: &wgpu::ComputePipeline, source: &str) {
        // The largest uniform binding WebGPU guarantees; enough for every array the kernels
        // declare with a fixed size.
        const BYTES: u64 = 65_536;
        let bindings: Vec<u32> =
            source.lines().filter_map(|l| l.trim_start().strip_prefix("@group(0) @binding(")).filter_map(|rest| rest.split(')').next()?.parse().ok()).collect();
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let buffers: Vec<wgpu::Buffer> = bindings
            .iter()
            .map(|_| {
                self.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("prime"),
                    size: BYTES,
                    usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::UNIFORM,
                    mapped_at_creation: false,
                })
            })
            .collect();
        let entries: Vec<wgpu::BindGroupEntry> =
            bindings.iter().zip(&buffers).map(|(&binding, b)| wgpu::BindGroupEntry { binding, resource: b.as_entire_binding() }).collect();
        let mut encoder = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("prime"), timestamp_writes: None });
            pass.set_pipeline(pipeline);
            if !entries.is_empty() {
                let group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("prime"),
                    layout: &pipeline.get_bind_group_layout(0),
                    entries: &entries,
                });
                pass.set_bind_group(0, &group, &[]);
            }
            pass.dispatch_workgroups(1, 1, 1);
        }
        self.queue.submit([encoder.finish()]);
        // Whatever went wrong stays here: the real run reports its own errors. The answer is
        // awaited (not dropped), so the browser's promise always finds its handler.
        let errors = scope.pop();
        #[cfg(target_arch = "wasm32")]
        wasm_bindgen_futures::spawn_local(async move {
            let _ = errors.await;
        });
        #[cfg(not(target_arch = "wasm32"))]
        drop(errors);
    }

    /// Compiles WGSL with a `workgroup_size` override and entry point `main`, uncached. A
    /// compile or validation error comes back as [`GpuError::Shader`], with each compiler
    /// message as `file:line:column: kind: text`.
    pub async fn compile(&self, file: &'static str, source: &str, workgroup_size: u32) -> Result<wgpu::ComputePipeline, GpuError> {
        self.compile_with(file, source, workgroup_size, None).await
    }

    /// The same with a boolean override `flag` set to true.
    pub async fn compile_with(&self, file: &'static str, source: &str, workgroup_size: u32, flag: Option<&str>) -> Result<wgpu::ComputePipeline, GpuError> {
        self.check_alive()?;
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let source = native_wgsl(source);
        let module = self.device.create_shader_module(wgpu::ShaderModuleDescriptor { label: Some(file), source: wgpu::ShaderSource::Wgsl(source) });
        let mut constants = vec![("workgroup_size", f64::from(workgroup_size))];
        constants.extend(flag.map(|f| (f, 1.0)));
        let pipeline = self.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(file),
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: wgpu::PipelineCompilationOptions { constants: &constants, ..Default::default() },
            cache: None,
        });
        let Some(error) = scope.pop().await else { return Ok(pipeline) };
        Err(GpuError::Shader { file, message: compiler_messages(&module, &error, &format!("{file}:")).await })
    }
}

/// The compiler's messages on `module`, each as `<prefix>line:column: kind: text`, one a line;
/// the error itself where the compiler said nothing.
pub async fn compiler_messages(module: &wgpu::ShaderModule, error: &wgpu::Error, prefix: &str) -> String {
    let info = module.get_compilation_info().await;
    let message = info
        .messages
        .iter()
        .map(|m| match &m.location {
            Some(at) => format!("{prefix}{}:{}: {:?}: {}", at.line_number, at.line_position, m.message_type, m.message),
            None => format!("{:?}: {}", m.message_type, m.message),
        })
        .collect::<Vec<_>>()
        .join("\n");
    if message.is_empty() {
        error.to_string()
    } else {
        message
    }
}

/// The WGSL a kernel file holds, as this build's compiler takes it. The browser takes the file as
/// it is. naga (wgpu's compiler natively) rejects the `enable subgroups;` directive that the
/// browser requires (gfx-rs/wgpu#5555) yet accepts the subgroup built-ins, so natively that one
/// line is dropped: one source for both, nothing else changed.
pub fn native_wgsl(source: &str) -> std::borrow::Cow<'_, str> {
    if cfg!(target_arch = "wasm32") || !source.contains("enable subgroups;") {
        return source.into();
    }
    source.lines().filter(|l| l.trim() != "enable subgroups;").map(|l| format!("{l}\n")).collect::<String>().into()
}

/// wgpu 30's browser backend builds `requiredFeatures` from a table that lacks `subgroups`
/// (gfx-rs/wgpu#10146), though it hands WGSL to the browser untouched: the device's feature is
/// all the subgroup kernels need. So `navigator.gpu.requestAdapter` is wrapped, once, and each
/// adapter it gives gets a `requestDevice` of its own that adds the feature whenever the adapter
/// offers it. Closures made by wasm-bindgen, no JavaScript text: a page under a strict Content
/// Security Policy (no `unsafe-eval`) allows them.
#[cfg(target_arch = "wasm32")]
fn ask_browser_for_subgroups() {
    use js_sys::{Array, Function, Object, Reflect};
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::{JsCast, JsValue};
    let Some(window) = web_sys::window() else { return };
    let Ok(gpu) = Reflect::get(&window.navigator(), &"gpu".into()) else { return };
    let marker: JsValue = "__syncscopeSubgroups".into();
    if gpu.is_undefined() || gpu.is_null() || Reflect::has(&gpu, &marker).unwrap_or(true) {
        return;
    }
    let Ok(request_adapter) = Reflect::get(&gpu, &"requestAdapter".into()).and_then(JsCast::dyn_into::<Function>) else { return };
    let with_subgroups = Closure::<dyn FnMut(JsValue) -> JsValue>::new(|adapter: JsValue| {
        let offers = Reflect::get(&adapter, &"features".into())
            .and_then(|f| Reflect::get(&f, &"has".into()).and_then(JsCast::dyn_into::<Function>).and_then(|has| has.call1(&f, &"subgroups".into())))
            .is_ok_and(|v| v.as_bool() == Some(true));
        if let (true, Ok(request_device)) = (offers, Reflect::get(&adapter, &"requestDevice".into()).and_then(JsCast::dyn_into::<Function>)) {
            let this = adapter.clone();
            let own = Closure::<dyn FnMut(JsValue) -> JsValue>::new(move |descriptor: JsValue| {
                let d = Object::assign(&Object::new(), &if descriptor.is_object() { descriptor.unchecked_into() } else { Object::new() });
                let wanted = Reflect::get(&d, &"requiredFeatures".into()).ok().filter(|v| !v.is_undefined()).map_or_else(Array::new, |v| Array::from(&v));
                if !wanted.includes(&"subgroups".into(), 0) {
                    wanted.push(&"subgroups".into());
                }
                let _ = Reflect::set(&d, &"requiredFeatures".into(), &wanted);
                request_device.call1(&this, &d).unwrap_or_else(|e| js_sys::Promise::reject(&e).into())
            });
            let _ = Reflect::set(&adapter, &"requestDevice".into(), &own.into_js_value());
        }
        adapter
    })
    .into_js_value();
    let gpu_for_call = gpu.clone();
    let wrapped = Closure::<dyn FnMut(JsValue) -> JsValue>::new(move |options: JsValue| {
        let promise = match request_adapter.call1(&gpu_for_call, &options) {
            Ok(p) => p,
            Err(e) => return js_sys::Promise::reject(&e).into(),
        };
        match Reflect::get(&promise, &"then".into()).and_then(JsCast::dyn_into::<Function>) {
            Ok(then) => then.call1(&promise, &with_subgroups).unwrap_or(promise),
            Err(_) => promise,
        }
    });
    let _ = Reflect::set(&gpu, &"requestAdapter".into(), &wrapped.into_js_value());
    let _ = Reflect::set(&gpu, &marker, &JsValue::TRUE);
}

/// Whether the browser's device has the `subgroups` feature: asked of the JS device, since
/// wgpu's own feature set never lists it there.
#[cfg(target_arch = "wasm32")]
fn browser_device_has_subgroups(device: &wgpu::Device) -> bool {
    use js_sys::Reflect;
    use wasm_bindgen::JsCast;
    let Some(js) = device.as_webgpu() else { return false };
    let js: &wasm_bindgen::JsValue = js.as_ref();
    let Ok(features) = Reflect::get(js, &"features".into()) else { return false };
    let Ok(has) = Reflect::get(&features, &"has".into()).and_then(|f| f.dyn_into::<js_sys::Function>()) else { return false };
    has.call1(&features, &"subgroups".into()).ok().and_then(|v| v.as_bool()).unwrap_or(false)
}

#[cfg(target_arch = "wasm32")]
fn browser_has_webgpu() -> bool {
    let Some(window) = web_sys::window() else { return false };
    let gpu = js_sys::Reflect::get(&window.navigator(), &"gpu".into());
    matches!(gpu, Ok(v) if !v.is_undefined() && !v.is_null())
}

/// Whether the page is a secure context (`window.isSecureContext`). A browser too old to say
/// counts as secure, so its missing WebGPU is blamed on the browser.
#[cfg(target_arch = "wasm32")]
fn browser_is_secure_context() -> bool {
    let Some(window) = web_sys::window() else { return true };
    js_sys::Reflect::get(&window, &"isSecureContext".into()).ok().and_then(|v| v.as_bool()).unwrap_or(true)
}

/// wgpu maps only `GPUAdapterInfo.description`, which browsers often leave empty; vendor and
/// architecture (e.g. "google swiftshader") are usually there, so ask for them directly.
#[cfg(target_arch = "wasm32")]
async fn browser_adapter_label() -> Option<String> {
    use js_sys::Reflect;
    use wasm_bindgen::JsCast;
    let gpu = Reflect::get(&web_sys::window()?.navigator(), &"gpu".into()).ok()?;
    let request = Reflect::get(&gpu, &"requestAdapter".into()).ok()?.dyn_into::<js_sys::Function>().ok()?;
    let promise = request.call0(&gpu).ok()?.dyn_into::<js_sys::Promise>().ok()?;
    let adapter = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    let info = Reflect::get(&adapter, &"info".into()).ok()?;
    let field = |name: &str| Reflect::get(&info, &name.into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
    let label = [field("vendor"), field("architecture"), field("device")].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" ");
    let fallback = Reflect::get(&info, &"isFallbackAdapter".into()).ok().and_then(|v| v.as_bool()).unwrap_or(false);
    match (label.is_empty(), fallback) {
        (true, _) => None,
        (false, true) => Some(format!("{label} (software fallback adapter)")),
        (false, false) => Some(label),
    }
}
