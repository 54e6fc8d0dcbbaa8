//! Everything that can keep the GPU half of a lesson from running, each with a message a
//! reader can act on.

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GpuError {
    /// The page is not a secure context (served over `http://` from a host other than
    /// localhost, or framed by such a page), and browsers give WebGPU only to secure contexts:
    /// `navigator.gpu` is missing even in a browser that has it.
    InsecureContext,
    /// The browser has no `navigator.gpu` at all, in a secure context.
    NoWebGpu,
    /// WebGPU exists but gave no adapter (blocklisted GPU, flag off, headless without one).
    NoAdapter(String),
    /// The adapter refused a device.
    NoDevice(String),
    /// The device was lost (driver reset, GPU removed, `device.destroy()`).
    DeviceLost(String),
    /// A kernel failed to compile or validate; the message is the compiler's own.
    Shader { file: &'static str, message: String },
    /// Any other validation or out-of-memory error while running a kernel.
    Run(String),
    /// The reader's parameters were refused before anything was dispatched.
    BadParams(String),
}

impl GpuError {
    /// True when trying again (after reconnecting) may help.
    pub fn is_recoverable(&self) -> bool {
        matches!(self, GpuError::DeviceLost(_) | GpuError::Run(_) | GpuError::BadParams(_))
    }

    /// One word for what went wrong, for the page's markup (`data-reason`), so a test or a
    /// stylesheet can tell the causes apart without reading the message.
    pub fn reason(&self) -> &'static str {
        match self {
            GpuError::InsecureContext => "insecure",
            GpuError::NoWebGpu => "no-webgpu",
            GpuError::NoAdapter(_) => "no-adapter",
            GpuError::NoDevice(_) => "no-device",
            GpuError::DeviceLost(_) => "lost",
            GpuError::Shader { .. } => "shader",
            GpuError::Run(_) => "run",
            GpuError::BadParams(_) => "bad-params",
        }
    }
}

/// Where WebGPU is on, and where to switch it on.
const HOW_TO_ENABLE: &str = "WebGPU is on by default in Chrome and Edge 113+ (Windows, macOS, \
     ChromeOS, Android), in Safari 26+, and in Firefox 141+ on Windows. On Linux, Chrome needs \
     chrome://flags/#enable-unsafe-webgpu (and #enable-vulkan); Firefox elsewhere needs \
     dom.webgpu.enabled in about:config.";

impl std::fmt::Display for GpuError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GpuError::InsecureContext => write!(
                f,
                "WebGPU is given only to secure contexts, and this page is not one: it came over \
                 http:// from a host other than localhost, or sits in a frame of such a page. The \
                 model still works. To run the real kernel, serve the page over https:// (or from \
                 localhost); for a lesson embedded in course notes, the page that embeds it too."
            ),
            GpuError::NoWebGpu => write!(
                f,
                "This browser has no WebGPU, so the real kernel cannot run here. The model still \
                 works. {HOW_TO_ENABLE}"
            ),
            #[cfg(target_arch = "wasm32")]
            GpuError::NoAdapter(why) => write!(
                f,
                "WebGPU is present but offered no GPU adapter ({why}). The browser may block this \
                 GPU or its driver, or run without GPU access. The model still works; \
                 chrome://gpu (or your browser's equivalent) says why. {HOW_TO_ENABLE}"
            ),
            // Natively (tests, the real-GPU reports) no browser is involved: what is missing is
            // a Vulkan driver.
            #[cfg(not(target_arch = "wasm32"))]
            GpuError::NoAdapter(why) => write!(
                f,
                "No Vulkan adapter ({why}). Install a Vulkan driver (on Debian, mesa-vulkan-drivers \
                 gives the CPU's lavapipe) or run where a GPU and its driver are."
            ),
            GpuError::NoDevice(why) => write!(f, "The GPU adapter refused to open a device: {why}"),
            GpuError::DeviceLost(why) => {
                write!(f, "The GPU device was lost ({why}). Reconnect to get a new one.")
            }
            GpuError::Shader { file, message } => {
                write!(f, "The kernel {file} did not compile on this GPU:\n{message}")
            }
            GpuError::Run(why) => write!(f, "The GPU run failed: {why}"),
            GpuError::BadParams(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for GpuError {}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    #[test]
    fn natively_a_missing_adapter_is_a_missing_vulkan_driver_not_a_browser_setting() {
        let text = super::GpuError::NoAdapter("none found".into()).to_string();
        assert!(text.contains("Vulkan") && text.contains("none found"), "{text}");
        assert!(!text.contains("chrome://"), "{text}");
    }

    #[test]
    fn an_insecure_context_is_blamed_on_the_page_s_address_not_the_browser() {
        let text = super::GpuError::InsecureContext.to_string();
        assert!(text.contains("secure context") && text.contains("https://") && text.contains("localhost"), "{text}");
        assert!(!text.contains("chrome://") && !text.contains("about:config"), "{text}");
    }
}
