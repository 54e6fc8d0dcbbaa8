// bench/nv_sass.mjs: what it reads out of a disassembly, and how it cuts a pipeline's code out
// of a shader cache file, on inputs made here whose answers are known.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const SCRIPT = path.join(import.meta.dirname, '..', '..', 'bench', 'nv_sass.mjs');
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'nv-sass-'));
const run = (...args) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });

test('a disassembly: its registers, the words it spills through R1, and its loads, stores and barriers', () => {
  const sass = [
    '\t.headerflags\t@"EF_CUDA_SM90"',
    '        /*0000*/                   S2R R2, SR_TID.X ;',
    '        /*0010*/                   IMAD.U32 R1, R5, 0x1c, R6 ;',
    '        /*0020*/                   STS [R1+0x8], R30 ;',
    '        /*0030*/                   STS [R1], R25 ;',
    '        /*0040*/              @!P0 LDG.E.128.CONSTANT R12, [R16.U32+UR6], !P6 ;',
    '        /*0050*/                   BAR.SYNC 0x0 ;',
    '        /*0060*/                   LDS R38, [R1+0x8] ;',
    '        /*0070*/                   SHFL.IDX PT, R50, R7, 0x1f, 0x1f ;',
    '        /*0080*/                   REDUX.SUM UR4, R36 ;',
    '        /*0090*/                   STG.E.128 [R2.U32+UR4], R4 ;',
    '        /*00a0*/                   EXIT ;',
  ].join('\n');
  const file = path.join(TMP, 'k.sass');
  fs.writeFileSync(file, sass);
  const out = run('summary', file);
  assert.equal(out.status, 0, out.stderr);
  assert.match(out.stdout, /11 instructions, registers R0-R50 \(51\), 2 words an invocation spilled to shared memory/);
  assert.match(out.stdout, /loads 1, stores 1, barriers 1, shuffles 1, warp reductions 1, shared 3 \(spills 3\), local 0/);
});

const zstd = spawnSync('zstd', ['--version']).status === 0;

test('a cache file: the pipeline frame is unpacked and cut from its first known opcode to past its last EXIT', { skip: !zstd && 'no zstd command here' }, () => {
  // A pipeline blob: "NVDA", then instructions at offsets 8 mod 16: filler, S2R at 40, EXIT at 120.
  const blob = Buffer.alloc(8 + 16 * 20, 0xee);
  blob.write('NVDANVVM', 0, 'latin1');
  const at = (slot) => 8 + 16 * slot;
  blob.writeUInt16LE(0x7919, at(2));
  blob.writeUInt16LE(0x7210, at(3));
  Buffer.from([0x4d, 0x79, 0, 0, 0, 0, 0, 0]).copy(blob, at(7));
  const raw = path.join(TMP, 'blob.raw');
  fs.writeFileSync(raw, blob);
  const frame = spawnSync('zstd', ['-q', '-c', raw]).stdout;
  const sizes = Buffer.alloc(8);
  sizes.writeUInt32LE(frame.length, 0);
  sizes.writeUInt32LE(blob.length, 4);
  const cache = path.join(TMP, 'cache.bin');
  fs.writeFileSync(cache, Buffer.concat([Buffer.from('CDVN\0\0\x03\0'), sizes, frame]));
  const out = run('extract', cache, path.join(TMP, 'code'));
  assert.equal(out.status, 0, out.stderr);
  const code = fs.readFileSync(path.join(TMP, 'code', 'cache.0.code'));
  // From the S2R (slot 2) to five instructions past the EXIT (slot 7): slots 2 to 11.
  assert.equal(code.length, 16 * 10);
  assert.equal(code.readUInt16LE(0), 0x7919);
  assert.equal(code.readUInt16LE(16 * 5), 0x794d);
});

test('anything else is a usage message, not a stack trace', () => {
  const out = run('disassemble');
  assert.equal(out.status, 2);
  assert.match(out.stderr, /^usage: node bench\/nv_sass\.mjs/);
});
