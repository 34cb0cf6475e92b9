/**
 * The Rust test lanes of `npm test` (scripts/cargo-lanes.mjs): the binaries of a build that is still
 * running are read from its JSON messages as each line is written, and each lane runs its binaries
 * one at a time, in the order they came, while the lanes run side by side. Real files and real
 * processes (`sh`); no cargo: the messages are the lines cargo writes for a built test binary.
 */
import { describe, expect, it } from 'vitest';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: a plain .mjs script without types
import { binaryOf, runLanes, streamBinaries } from '../scripts/cargo-lanes.mjs';

interface Binary { label: string; executable: string; cwd: string; lane: string }
interface Lanes { ok: boolean; stdout: string; failed: string[] }
const stream = streamBinaries as (file: string, ended: Promise<unknown>, pollMs?: number) => AsyncGenerator<Binary>;
const lanes = runLanes as (b: Iterable<Binary> | AsyncIterable<Binary>, args: string[], write?: (s: string) => void) => Promise<Lanes>;
const parse = binaryOf as (line: string) => Binary | null;

/** A compiler-artifact message for a test target whose source is `src` (its text decides its lane). */
function artifact(dir: string, name: string, source: string, kind = 'test'): string {
  const src = join(dir, `${name}.rs`);
  writeFileSync(src, source);
  return JSON.stringify({
    reason: 'compiler-artifact', manifest_path: join(dir, 'Cargo.toml'), profile: { test: true },
    target: { kind: [kind], name, src_path: src }, executable: join(dir, `${name}-0123abcd`), fresh: false,
  });
}

describe('binaryOf', () => {
  it('reads a test binary from cargo\'s message, its lane from its source; other lines are none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lanes-'));
    try {
      expect(parse(artifact(dir, 'prom', 'fn t() { start_prometheus(); }'))).toEqual({ label: 'tests/prom.rs', executable: join(dir, 'prom-0123abcd'), cwd: dir, lane: 'prometheus' });
      expect(parse(artifact(dir, 'rec', 'fn t() { losetup(); }'))?.lane).toBe('machine');
      expect(parse(artifact(dir, 'csv', 'fn t() { parse(); }'))?.lane).toBe('files');
      expect(parse(artifact(dir, 'core', '', 'lib'))).toMatchObject({ label: 'unittests core', lane: 'machine' });
      expect(parse('{"reason":"build-finished","success":true}')).toBeNull();
      expect(parse('   Compiling core v0.1.0')).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('streamBinaries', () => {
  it('gives each binary as soon as its line is written, and ends once the build has ended and the file is read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lanes-'));
    const file = join(dir, 'build.jsonl');
    writeFileSync(file, '{"reason":"compiler-artifact","profile":{"test":false},"target":{"kind":["lib"]},"executable":null}\n');
    let end = (): void => undefined;
    const ended = new Promise<void>((resolve) => (end = resolve));
    try {
      const it = stream(file, ended, 5);
      const first = it.next();
      appendFileSync(file, `${artifact(dir, 'a', '')}\n`);
      expect((await first).value?.label).toBe('tests/a.rs');
      // a line written in two parts is read once it is whole
      const line = artifact(dir, 'b', 'common::prom::x');
      const second = it.next();
      appendFileSync(file, line.slice(0, 40));
      appendFileSync(file, `${line.slice(40)}\n`);
      expect((await second).value).toMatchObject({ label: 'tests/b.rs', lane: 'prometheus' });
      // the build ends with its last line written: that line is still given, then the stream ends
      appendFileSync(file, artifact(dir, 'c', ''));
      end();
      expect((await it.next()).value?.label).toBe('tests/c.rs');
      expect((await it.next()).done).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('runLanes', () => {
  it('runs a lane\'s binaries one at a time in order, the lanes side by side, and names each that failed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lanes-'));
    const log = join(dir, 'order');
    const script = (name: string, body: string): string => {
      const path = join(dir, name);
      writeFileSync(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
      return path;
    };
    // m1 waits until f1 has run: only lanes side by side let it end; m2 must start after m1 ended
    const m1 = script('m1', `while ! grep -q f1 ${log} 2>/dev/null; do sleep 0.01; done; echo m1 >> ${log}; echo "test result: ok. 2 passed; 0 failed; 0 ignored"`);
    const m2 = script('m2', `echo m2 >> ${log}; echo "test result: FAILED. 0 passed; 1 failed; 0 ignored"; exit 101`);
    const f1 = script('f1', `echo f1 >> ${log}; echo "test result: ok. 1 passed; 0 failed; 0 ignored"`);
    async function* arriving(): AsyncGenerator<Binary> {
      yield { label: 'tests/m1.rs', executable: m1, cwd: dir, lane: 'machine' };
      yield { label: 'tests/m2.rs', executable: m2, cwd: dir, lane: 'machine' };
      yield { label: 'tests/m2.rs', executable: m2, cwd: dir, lane: 'machine' }; // announced twice: run once
      yield { label: 'tests/f1.rs', executable: f1, cwd: dir, lane: 'files' };
    }
    let written = '';
    try {
      const r = await lanes(arriving(), [], (s) => (written += s));
      expect(r.ok).toBe(false);
      expect(r.failed).toEqual(['tests/m2.rs']);
      expect(readFileSync(log, 'utf8')).toBe('f1\nm1\nm2\n');
      expect(r.stdout.match(/test result/g)).toHaveLength(3);
      expect(written).toContain('Running tests/m2.rs (lane machine');
      expect(written).toContain('FAILED: exit 101');
      expect(written).toContain('cargo test lanes: machine 2, files 1 binaries; FAILED: tests/m2.rs');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
