//! The model's lines and the kernels' lines are the same lines: every marker a model program
//! names appears exactly once in the kernel the code panel shows.

use syncscope::lessons::race::Variant;

#[test]
fn every_model_instruction_has_exactly_one_line_in_its_kernel() {
    for variant in [Variant::Racy, Variant::Atomic] {
        let program = variant.program();
        for kernel in [variant.kernel(), variant.replay_kernel()] {
            let source = kernel.source();
            for (pc, line) in program.lines.iter().enumerate() {
                let needle = format!("// step: {}", line.marker);
                assert_eq!(source.matches(&needle).count(), 1, "{needle} in {}", kernel.file_name());
                let n = program.source_line(pc, source).unwrap();
                assert!(source.lines().nth(n - 1).unwrap().contains(&needle));
            }
        }
    }
}

#[test]
fn the_ticket_model_names_lines_of_the_ticket_kernel() {
    use syncscope::lessons::tickets::Tickets;
    let program = Tickets::program(4);
    let source = Tickets::kernel().source();
    for (pc, line) in program.lines.iter().enumerate() {
        let needle = format!("// step: {}", line.marker);
        assert_eq!(source.matches(&needle).count(), 1, "{needle}");
        assert!(program.source_line(pc, source).is_some());
    }
}

#[test]
fn every_file_in_shaders_is_a_known_kernel() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/shaders");
    let mut on_disk: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".wgsl"))
        .collect();
    on_disk.sort();
    let mut known: Vec<String> =
        syncscope::gpu::kernels::Kernel::ALL.iter().map(|k| k.file_name().to_owned()).collect();
    known.sort();
    assert_eq!(on_disk, known);
}
