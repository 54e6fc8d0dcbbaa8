#!/usr/bin/env node
// The machine code NVIDIA's Vulkan driver made of a kernel, read back from the driver's shader
// disk cache: how many registers it takes, what it keeps in shared memory for want of them, and
// the order of its loads, barriers and shuffles. Vulkan (and so wgpu) has no way to ask; the
// cache holds the compiled code anyway.
//
// On the machine with the GPU, one kernel a cache (so each blob is known by its kernel):
//   export __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1
//   __GL_SHADER_DISK_CACHE_PATH=/tmp/cache_a scan_variants <folder holding one kernel> 16
//   cp "$(find /tmp/cache_a -name '*.bin')" $OUT/cache_a.bin
// Here (needs the `zstd` command):
//   node bench/nv_sass.mjs extract cache_a.bin <dir>   -> <dir>/cache_a.<n>.code, one a pipeline
// Back on the GPU's machine (CUDA's disassembler, raw SM90 code):
//   nvdisasm -b SM90 <dir>/cache_a.<n>.code > cache_a.<n>.sass
// Here:
//   node bench/nv_sass.mjs summary cache_a.<n>.sass
//
// What the format is, as far as this reads it: the cache file holds zstd frames, each after its
// compressed and raw sizes (two little-endian u32s). A pipeline's frame opens with "NVDA"; its
// code is a run of 16-byte instructions at offsets 8 mod 16, told from the rest by their opcodes,
// and ending at its last EXIT. A reading, not a specification: check the disassembly reads as code.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);
const EXIT = Buffer.from([0x4d, 0x79, 0, 0, 0, 0, 0, 0]);
// Opcodes (an instruction's low 16 bits) common in these kernels: LDC, S2R, EXIT, BRA, LDG, STG,
// BAR, SHFL, IADD3, IMAD.MOV, RED, SEL, ISETP, ULDC.
const OPCODES = new Set([0x7b82, 0x7919, 0x794d, 0x7947, 0x7981, 0x7986, 0x7b1d, 0x7589, 0x7210, 0x7824, 0x798e, 0x7207, 0x7a0c, 0x7ab9]);

function frames(file) {
  const data = fs.readFileSync(file);
  const out = [];
  for (let at = data.indexOf(ZSTD_MAGIC); at >= 0; at = data.indexOf(ZSTD_MAGIC, at + 4)) {
    const compressed = data.readUInt32LE(at - 8);
    // The stored size runs a few bytes past the frame on some entries: try around it.
    for (let n = compressed - 8; n <= compressed + 8; n++) {
      try {
        out.push(execFileSync('zstd', ['-d', '-q', '-c'], { input: data.subarray(at, at + n), stdio: ['pipe', 'pipe', 'ignore'] }));
        break;
      } catch {
        // not this length
      }
    }
  }
  return out;
}

function codeOf(blob) {
  let first = -1;
  for (let at = 8; at + 16 <= blob.length; at += 16) {
    if (OPCODES.has(blob.readUInt16LE(at))) {
      first = at;
      break;
    }
  }
  let last = -1;
  for (let at = blob.indexOf(EXIT); at >= 0; at = blob.indexOf(EXIT, at + 1)) if (at % 16 === 8) last = at;
  if (first < 0 || last < first) return null;
  // A few instructions past the last EXIT: the branch to itself that ends a kernel, and padding.
  return blob.subarray(first, Math.min(blob.length - ((blob.length - first) % 16), last + 16 * 5));
}

function extract(file, dir) {
  fs.mkdirSync(dir, { recursive: true });
  const stem = path.basename(file, path.extname(file));
  let n = 0;
  for (const blob of frames(file)) {
    if (blob.subarray(0, 4).toString() !== 'NVDA') continue;
    const code = codeOf(blob);
    if (!code) continue;
    const out = path.join(dir, `${stem}.${n++}.code`);
    fs.writeFileSync(out, code);
    console.log(`${out}: ${code.length / 16} instructions`);
  }
}

function summary(file) {
  const text = fs.readFileSync(file, 'utf8');
  const lines = text.split('\n').filter((l) => /\/\*[0-9a-f]{4,}\*\//.test(l));
  const count = (re) => lines.filter((l) => re.test(l)).length;
  const registers = Math.max(-1, ...[...text.matchAll(/\bR(\d+)\b/g)].map((m) => Number(m[1]))) + 1;
  // R1 is each invocation's stack, which this driver keeps in shared memory.
  const spills = new Set([...text.matchAll(/\[R1(?:\+(0x[0-9a-f]+))?\]/g)].map((m) => m[1] ?? '0x0'));
  console.log(`${path.basename(file)}: ${lines.length} instructions, registers R0-R${registers - 1} (${registers}), ${spills.size} words an invocation spilled to shared memory`);
  console.log(`  loads ${count(/LDG/)}, stores ${count(/STG/)}, barriers ${count(/BAR\.SYNC/)}, shuffles ${count(/SHFL/)}, warp reductions ${count(/REDUX/)}, shared ${count(/\b(LDS|STS)\b/)} (spills ${count(/\[R1[\]+]/)}), local ${count(/\b(LDL|STL)\b/)}`);
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'extract' && rest.length === 2) extract(...rest);
else if (command === 'summary' && rest.length >= 1) rest.forEach(summary);
else {
  console.error('usage: node bench/nv_sass.mjs extract <cache.bin> <dir> | summary <file.sass>...');
  process.exit(2);
}
