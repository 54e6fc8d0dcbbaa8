//! A compute kernel: one `.wgsl` file under `shaders/<lesson id>/`, compiled into the binary.
//! Each lesson declares its own kernels with [`kernel!`](crate::kernel); this module knows
//! none of them.

use std::hash::{Hash, Hasher};

/// A kernel's file and source. Its entry point is always `main`.
#[derive(Clone, Copy, Debug)]
pub struct Kernel {
    /// The lesson id, which is also the kernel's folder under `shaders/`.
    pub lesson: &'static str,
    /// The file name inside that folder, as the code panel and the downloads name it.
    file: &'static str,
    source: &'static str,
}

impl Kernel {
    #[doc(hidden)]
    pub const fn new(lesson: &'static str, file: &'static str, source: &'static str) -> Kernel {
        Kernel { lesson, file, source }
    }

    /// The file name (`race_racy.wgsl`): what the code panel, compiler messages and downloads show.
    pub fn file_name(self) -> &'static str {
        self.file
    }

    /// The file's path under `shaders/` (`race/race_racy.wgsl`).
    pub fn path(self) -> String {
        format!("{}/{}", self.lesson, self.file)
    }

    pub fn source(self) -> &'static str {
        self.source
    }

    pub fn entry_point(self) -> &'static str {
        "main"
    }
}

// A kernel is named by its place on disk; comparing sources too would only cost time.
impl PartialEq for Kernel {
    fn eq(&self, other: &Kernel) -> bool {
        self.lesson == other.lesson && self.file == other.file
    }
}
impl Eq for Kernel {}
impl Hash for Kernel {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.lesson.hash(state);
        self.file.hash(state);
    }
}

/// `kernel!("race", "race_racy.wgsl")`: the kernel in `shaders/race/race_racy.wgsl`.
#[macro_export]
macro_rules! kernel {
    ($lesson:literal, $file:literal) => {
        $crate::gpu::Kernel::new($lesson, $file, include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/shaders/", $lesson, "/", $file)))
    };
}
