/**
 * The browser host's answers to malformed requests and its headers (a real HTTP server on
 * loopback), and the sign-in file: 0600 on every write, never through a symlink (the real
 * built host process, and the writer itself).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startBrowserHost, type RunningHost } from '../src/browser-host/server.ts';
import { parseReportFileHref, reportFileHref } from '../src/shared/contract.ts';
import { SignInFileError, writeSignInFile } from '../src/browser-host/signin-file.ts';
import { waitFor } from '../../test/support/testenv.ts';

const root = resolve(__dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-host-test-'));
const TOKEN = 't'.repeat(40);
let host: RunningHost;

function call(path: string, opts: { method?: string; body?: Buffer; headers?: Record<string, string> } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port: host.port, path, method: opts.method ?? 'GET', headers: { Host: `127.0.0.1:${host.port}`, Authorization: `Bearer ${TOKEN}`, ...opts.headers } }, (res) => {
      let data = '';
      res.on('data', (d: Buffer) => (data += d.toString()));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
    });
    // The server may answer 413 and close before the whole body is sent.
    req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : fail(e)));
    if (opts.body) req.write(opts.body);
    req.end();
  });
}

beforeAll(async () => {
  const staticDir = join(dir, 'static');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>x</title>');
  writeFileSync(join(staticDir, 'renderer.js'), 'void 0;');
  writeFileSync(join(dir, 'export.csv'), 'a,b\r\n1,2\r\n');
  host = await startBrowserHost({
    staticDir, token: TOKEN, dispatch: async (channel, payload) => ({ ok: true, value: { channel, payload } }) as never,
    download: (p) => {
      const at = parseReportFileHref(p);
      return at !== null && at.jobId === 'job-1' && at.index === 1 ? { path: join(dir, 'export.csv'), name: 'rapport-données.csv', mime: 'text/csv' } : null;
    },
  });
});
afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('finished exports are downloads straight from the host\'s disk', () => {
  it('serves the file as an attachment with its UTF-8 name, needs the session, and says when it is gone', async () => {
    const href = reportFileHref('job-1', 1);
    const r = await call(href);
    expect(r.status).toBe(200);
    expect(r.body).toBe('a,b\r\n1,2\r\n');
    expect(r.headers['content-type']).toBe('text/csv');
    expect(r.headers['content-length']).toBe('10');
    expect(r.headers['content-disposition']).toBe(`attachment; filename="rapport-donn_es.csv"; filename*=UTF-8''rapport-donn%C3%A9es.csv`);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect((await call(href, { method: 'HEAD' })).status).toBe(200);
    expect((await call(href, { headers: { Authorization: 'Bearer nope' } })).status).toBe(401);
    const gone = await call(reportFileHref('job-2', 0));
    expect(gone.status).toBe(404);
    expect(gone.body).toMatch(/no longer kept.*Export it again/u);
    expect((await call('/download/report/job-1/../../etc/passwd')).status).toBe(404);
    expect((await call(href, { method: 'POST' })).status).toBe(405);
  });
});

describe('malformed requests get the status that names them', () => {
  it('a path that is not valid percent-encoding is 400, not 500', async () => {
    for (const p of ['/%', '/%E0%A4%A', '/%zz', '/a%2']) {
      const r = await call(p);
      expect(r.status, p).toBe(400);
      expect(r.body).toMatch(/percent-encoding/u);
    }
  });

  it('an API body over 1 MiB is 413 (and one just under is answered)', async () => {
    const api = { method: 'POST', headers: { 'content-type': 'application/json', 'x-cacheproof': '1' } };
    const big = Buffer.from(JSON.stringify({ pad: 'x'.repeat((1 << 20) + 10) }));
    const r = await call('/api/app.info', { ...api, body: big });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    const small = await call('/api/app.info', { ...api, body: Buffer.from(JSON.stringify({ pad: 'x'.repeat(1000) })) });
    expect(small.status).toBe(200);
    const notJson = await call('/api/app.info', { ...api, body: Buffer.from('{nope') });
    expect(notJson.status).toBe(400);
  });

  it('static files carry the same isolation headers as the API (COOP, CORP, CSP, nosniff, frame)', async () => {
    const api = await call('/api/app.info', { method: 'POST', headers: { 'content-type': 'application/json', 'x-cacheproof': '1' }, body: Buffer.from('{}') });
    for (const p of ['/', '/renderer.js']) {
      const r = await call(p);
      expect(r.status, p).toBe(200);
      for (const h of ['cross-origin-opener-policy', 'cross-origin-resource-policy', 'content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'cache-control']) {
        expect(r.headers[h], `${p} ${h}`).toBeDefined();
        expect(r.headers[h], `${p} ${h}`).toBe(api.headers[h]);
      }
    }
  });
});

describe('the sign-in file', () => {
  const mode = (p: string): number => statSync(p).mode & 0o777;

  it('is 0600 even when a 0644 file was there before, and holds only the link', () => {
    const f = join(dir, 'pre-existing.url');
    writeFileSync(f, 'old\n', { mode: 0o644 });
    chmodSync(f, 0o644);
    writeSignInFile(f, 'http://127.0.0.1:1/auth?token=abc');
    expect(mode(f)).toBe(0o600);
    expect(readFileSync(f, 'utf8')).toBe('http://127.0.0.1:1/auth?token=abc\n');
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('is never written through a symlink: refused with a sentence, the link and its target untouched', () => {
    const target = join(dir, 'victim.txt');
    writeFileSync(target, 'keep me\n', { mode: 0o644 });
    const link = join(dir, 'link.url');
    symlinkSync(target, link);
    expect(() => writeSignInFile(link, 'http://x')).toThrow(SignInFileError);
    expect(() => writeSignInFile(link, 'http://x')).toThrow(/symbolic link.*Remove it/u);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('keep me\n');
    expect(mode(target)).toBe(0o644);
  });

  it('the real host process: writes 0600 over a 0644 file, and refuses a symlink with exit 1 and one sentence', async () => {
    const bin = join(root, 'app', 'dist', 'browser-host.cjs');
    expect(existsSync(bin), 'the app is built (npm test builds it)').toBe(true);
    const run = (urlFile: string): Promise<{ code: number | null; out: string; err: string }> =>
      new Promise((ok) => {
        const child = spawn(process.execPath, [bin, '--no-open', '--url-file', urlFile], { env: { ...process.env, CACHEPROOF_DATA_DIR: join(dir, 'data') }, stdio: ['pipe', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('sign-in link stored')) child.kill('SIGTERM');
        });
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        child.on('exit', (code) => ok({ code, out, err }));
      });
    const f = join(dir, 'host.url');
    writeFileSync(f, 'stale\n');
    chmodSync(f, 0o644);
    const good = await run(f);
    expect(good.out).toMatch(/readable by you only/u);
    expect(mode(f)).toBe(0o600);
    expect(readFileSync(f, 'utf8')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth\?token=/u);

    const target = join(dir, 'host-victim.txt');
    writeFileSync(target, 'keep\n');
    const link = join(dir, 'host-link.url');
    symlinkSync(target, link);
    const bad = await run(link);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/is a symbolic link/u);
    expect(bad.err.trim().split('\n')).toHaveLength(1);
    expect(readFileSync(target, 'utf8')).toBe('keep\n');
  });
});

describe('stopping the host', () => {
  it('never waits on a window left open: a busy keep-alive connection is closed within about a second', async () => {
    let arrived = false;
    const slow = await startBrowserHost({ staticDir: join(dir, 'static'), token: TOKEN, dispatch: () => {
      arrived = true;
      // not a wait: a handler that answers only after a minute is the thing under test (a busy connection)
      return new Promise((r) => setTimeout(() => r({ ok: true, value: null } as never), 60_000));
    } });
    const agent = new Agent({ keepAlive: true });
    const pending = new Promise<string>((ok) => {
      const req = request({ host: '127.0.0.1', port: slow.port, path: '/api/app.info', method: 'POST', agent, headers: { Host: `127.0.0.1:${slow.port}`, Authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'x-cacheproof': '1' } }, () => ok('answered'));
      req.on('error', () => ok('closed'));
      req.end('{}');
    });
    // the request is in the host's hands (its dispatch is running) before the host is stopped
    await waitFor('the request to reach the host\'s dispatch', 10_000, () => (arrived ? true : undefined));
    const t0 = Date.now();
    await slow.close();
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(await pending).toBe('closed');
    agent.destroy();
  });
});
