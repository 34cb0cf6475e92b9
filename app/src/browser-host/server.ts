/**
 * The browser host: the contract over loopback HTTP, for machines without an Electron
 * runtime and for end-to-end tests.
 *
 * Security (docs/ipc.md): listens on 127.0.0.1 only, on a random port; every request needs
 * the per-launch secret token — exchanged once at `/auth?token=…` for an HttpOnly, SameSite=Strict
 * cookie — or an `Authorization: Bearer` header; `Host` must name this listener (DNS rebinding)
 * and `Origin`, when sent, must be this listener's origin; API calls are POST with JSON and the
 * `x-cacheproof` header. The token is never written to logs.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { extname, join, normalize, sep } from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import { API_HEADER, API_PREFIX } from '../shared/contract.ts';
import type { Dispatch } from '../host/dispatch.ts';

export const LOOPBACK = '127.0.0.1';
const COOKIE = 'cacheproof_session';
const MAX_BODY_BYTES = 1 << 20;

/** CSP for every page the host serves: no inline script, no remote content. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

export interface BrowserHostOptions {
  /** Folder of the built renderer (index.html, renderer.js, styles.css). */
  staticDir: string;
  dispatch: Dispatch;
  /** Per-launch secret; at least 32 characters. */
  token: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /**
   * The file behind a download path (`/download/…`, e.g. a finished export at
   * `reportFileHref(jobId, index)`): its path on disk, the name to save it under and its type;
   * null when there is none.
   */
  download?: (pathname: string) => { path: string; name: string; mime: string } | null;
}

/** Paths served as downloads (see {@link BrowserHostOptions.download}). */
export const DOWNLOAD_PREFIX = '/download/';

/** Streams a file as a download (saved by the browser, never shown), or 404 when it is gone. */
async function sendDownload(req: IncomingMessage, res: ServerResponse, file: { path: string; name: string; mime: string } | null): Promise<void> {
  let size: number;
  try {
    if (file === null) throw new Error('none');
    size = (await stat(file.path)).size;
  } catch {
    send(res, 404, 'Not found: this export is no longer kept (10 minutes after it finished). Export it again.');
    return;
  }
  // RFC 6266: an ASCII fallback name and the UTF-8 name
  const ascii = file.name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  res.writeHead(200, {
    ...securityHeaders(file.mime),
    'Content-Length': String(size),
    'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  await pipeline(createReadStream(file.path), res);
}

export interface RunningHost {
  server: Server;
  port: number;
  /** http://127.0.0.1:PORT */
  origin: string;
  /** The URL that signs a browser in (contains the token: never log it). */
  authUrl: string;
  close(): Promise<void>;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieToken(req: IncomingMessage): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE) return decodeURIComponent(v.join('='));
  }
  return null;
}

/** The headers every answer carries, API and static files alike. */
function securityHeaders(type: string): Record<string, string> {
  return {
    'Content-Type': type,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  };
}

function send(res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8', extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...securityHeaders(type), ...extra });
  res.end(body);
}

/** A request body over {@link MAX_BODY_BYTES}: answered 413, not "not JSON". */
class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `/auth?token=…`: the session's link; sets the token's cookie and goes to the app. */
function handleAuth(url: URL, res: ServerResponse, token: string): void {
  const given = url.searchParams.get('token') ?? '';
  if (!sameSecret(given, token)) {
    send(res, 401, 'Unauthorized: this link is not valid for this CacheProof session.');
    return;
  }
  send(res, 303, '', 'text/plain; charset=utf-8', {
    Location: '/',
    'Set-Cookie': `${COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`,
  });
}

/** A contract call: a POST of JSON with the API header, dispatched; its reply as JSON. */
async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL, options: BrowserHostOptions): Promise<void> {
  if (req.method !== 'POST') {
    send(res, 405, 'Method not allowed.', 'text/plain; charset=utf-8', { Allow: 'POST' });
    return;
  }
  if (req.headers[API_HEADER] !== '1' || !(req.headers['content-type'] ?? '').startsWith('application/json')) {
    send(res, 403, 'Forbidden: not a CacheProof API call.');
    return;
  }
  let payload: unknown;
  try {
    const text = await readBody(req);
    payload = text.length === 0 ? {} : JSON.parse(text);
  } catch (err) {
    if (err instanceof BodyTooLarge) {
      // Say so and close: the rest of an oversized body is not read.
      send(res, 413, JSON.stringify({ ok: false, error: { code: 'bad-request', message: `The request body is larger than ${MAX_BODY_BYTES} bytes.` } }), 'application/json; charset=utf-8', { Connection: 'close' });
      return;
    }
    send(res, 400, JSON.stringify({ ok: false, error: { code: 'bad-request', message: 'The request body is not JSON.' } }), 'application/json; charset=utf-8');
    return;
  }
  const reply = await options.dispatch(url.pathname.slice(API_PREFIX.length), payload);
  // and one before serialising it, for the same reason
  await new Promise<void>((resolve) => setImmediate(resolve));
  send(res, 200, JSON.stringify(reply), 'application/json; charset=utf-8');
}

/** A GET or HEAD: a download, or a file of the app's static folder (nothing outside it). */
async function handleFile(req: IncomingMessage, res: ServerResponse, url: URL, options: BrowserHostOptions): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, 'Method not allowed.');
    return;
  }
  if (url.pathname.startsWith(DOWNLOAD_PREFIX)) {
    await sendDownload(req, res, options.download?.(url.pathname) ?? null);
    return;
  }
  let rel: string;
  try {
    rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname.slice(1));
  } catch {
    send(res, 400, 'Bad request: the path is not valid percent-encoding.');
    return;
  }
  const full = normalize(join(options.staticDir, rel));
  if (!full.startsWith(normalize(options.staticDir) + sep)) {
    send(res, 404, 'Not found.');
    return;
  }
  try {
    const body = await readFile(full);
    res.writeHead(200, securityHeaders(TYPES[extname(full)] ?? 'application/octet-stream'));
    res.end(body);
  } catch {
    send(res, 404, 'Not found.');
  }
}

/** Starts the host; resolves once it listens. */
export async function startBrowserHost(options: BrowserHostOptions): Promise<RunningHost> {
  if (options.token.length < 32) throw new Error('browser host token must be at least 32 characters');
  let port = 0;
  const allowedHosts = (): string[] => [`${LOOPBACK}:${port}`, `localhost:${port}`];
  const allowedOrigins = (): string[] => allowedHosts().map((h) => `http://${h}`);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // DNS rebinding: the Host header must name this listener.
    if (!req.headers.host || !allowedHosts().includes(req.headers.host.toLowerCase())) {
      send(res, 403, 'Forbidden: unexpected Host header.');
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins().includes(origin.toLowerCase())) {
      send(res, 403, 'Forbidden: foreign Origin.');
      return;
    }
    const url = new URL(req.url ?? '/', `http://${LOOPBACK}:${port}`);
    if (url.pathname === '/auth') {
      handleAuth(url, res, options.token);
      return;
    }
    const bearer = req.headers.authorization?.startsWith('Bearer ') ? req.headers.authorization.slice(7) : null;
    const presented = cookieToken(req) ?? bearer;
    if (presented === null || !sameSecret(presented, options.token)) {
      send(res, 401, 'Unauthorized: open CacheProof with the link printed when it started.');
      return;
    }
    if (url.pathname.startsWith(API_PREFIX)) await handleApi(req, res, url, options);
    else await handleFile(req, res, url, options);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      process.stderr.write(`browser host: request failed: ${(err as Error).message}\n`);
      if (!res.headersSent) send(res, 500, 'Internal error.');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LOOPBACK, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('browser host: no TCP address');
  port = address.port;
  const origin = `http://${LOOPBACK}:${port}`;
  return {
    server,
    port,
    origin,
    authUrl: `${origin}/auth?token=${encodeURIComponent(options.token)}`,
    // A window left open keeps polling on its keep-alive connections: close the idle ones now and
    // any still busy after a second, so stopping the host never waits on a browser.
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), 1000).unref();
    }),
  };
}
