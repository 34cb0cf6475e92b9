import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { test, expect, watchConsole } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';

/** A raw HTTP request with full control of Host/Origin headers (fetch would rewrite them). */
function raw(port: number, path: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ agent: false, host: '127.0.0.1', port, path, method, headers }, (res) => {
      let data = '';
      res.on('data', (d: Buffer) => (data += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

test.describe('browser host security', () => {
  test('a request without the token is refused', async ({ app }) => {
    const host = `127.0.0.1:${app.port}`;
    expect((await raw(app.port, '/', { Host: host })).status).toBe(401);
    expect((await raw(app.port, '/api/app.info', { Host: host, 'content-type': 'application/json', 'x-cacheproof': '1' }, 'POST', '{}')).status).toBe(401);
    expect((await raw(app.port, '/auth?token=wrong', { Host: host })).status).toBe(401);
    // With the token, the same calls work.
    const ok = await raw(app.port, '/api/app.info', { Host: host, Authorization: `Bearer ${app.token}`, 'content-type': 'application/json', 'x-cacheproof': '1' }, 'POST', '{}');
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ ok: true, value: { shell: 'browser' } });
  });

  test('a foreign Origin or Host is refused even with the token', async ({ app }) => {
    const auth = { Authorization: `Bearer ${app.token}`, 'content-type': 'application/json', 'x-cacheproof': '1' };
    expect((await raw(app.port, '/api/app.info', { ...auth, Host: `127.0.0.1:${app.port}`, Origin: 'http://evil.example' }, 'POST', '{}')).status).toBe(403);
    expect((await raw(app.port, '/api/app.info', { ...auth, Host: `evil.example:${app.port}` }, 'POST', '{}')).status).toBe(403);
    expect((await raw(app.port, '/', { Authorization: `Bearer ${app.token}`, Host: `rebind.example:${app.port}` })).status).toBe(403);
    // An API call without the CacheProof header (e.g. a cross-site form post) is refused.
    expect((await raw(app.port, '/api/app.info', { Authorization: `Bearer ${app.token}`, Host: `127.0.0.1:${app.port}`, 'content-type': 'text/plain' }, 'POST', '{}')).status).toBe(403);
  });

  test('the host listens on 127.0.0.1 only', async ({ app }) => {
    const hex = app.port.toString(16).toUpperCase().padStart(4, '0');
    const listening = (file: string): string[] =>
      readFileSync(file, 'utf8').split('\n').slice(1)
        .map((l) => l.trim().split(/\s+/))
        .filter((c) => c[1]?.endsWith(`:${hex}`) && c[3] === '0A')
        .map((c) => c[1] ?? '');
    expect(listening('/proc/net/tcp')).toEqual([`0100007F:${hex}`]);
    expect(listening('/proc/net/tcp6')).toEqual([]);
  });
});

test('the UI is drawn in the font shipped with the app (DejaVu Sans from npm), not a machine font', async ({ app, page }) => {
  await page.goto(app.authUrl);
  await expect(page.getByTestId(TID.home)).toBeVisible();
  const loaded = await page.evaluate(async () => {
    await document.fonts.ready;
    return [...document.fonts].filter((f) => f.status === 'loaded').map((f) => `${f.family.replace(/["']/g, '')} ${f.weight}`).sort();
  });
  expect(loaded).toEqual(['DejaVu Sans 400', 'DejaVu Sans 700']);
  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^"?DejaVu Sans/u);
});

test('a bug in the window is said once on screen and logged, not left as a half-drawn screen', async ({ app, page }) => {
  const logged: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') logged.push(m.text());
  });
  await page.goto(app.authUrl);
  await expect(page.getByTestId(TID.home)).toBeVisible();
  await expect(page.getByTestId(TID.bug)).toHaveCount(0);
  await page.evaluate(() => {
    void Promise.reject(new Error('a rejected promise nobody awaited'));
  });
  await expect(page.getByTestId(TID.bug)).toContainText('An internal error occurred');
  await expect(page.getByTestId(TID.bug)).toContainText('a rejected promise nobody awaited');
  await page.evaluate(() => {
    // not a wait: an error thrown from a timer callback is the thing under test (the poll below waits for it)
    setTimeout(() => {
      throw new Error('a second bug');
    }, 0);
  });
  await expect.poll(() => logged.filter((l) => l.includes('bug in the window')).length).toBe(2);
  await expect(page.getByTestId(TID.bug)).toHaveCount(1);
});

test('the app boots on Home; the sample analysis is one click away, with its headline figures and no console errors', async ({ app, page }, testInfo) => {
  const errors = watchConsole(page);
  await page.goto(app.authUrl);
  await expect(page.getByTestId(TID.appTitle)).toHaveText('CacheProof');
  await expect(page.getByTestId(TID.home)).toBeVisible();
  await expect(page).toHaveURL(/#\/home$|\/$/);
  await page.getByTestId(TID.homeSample).click();
  await expect(page).toHaveURL(/#\/results\//);
  const saved = page.getByTestId(TID.cardIosSaved);
  const latency = page.getByTestId(TID.cardLatency);
  await expect(saved).toBeVisible();
  await expect(latency).toBeVisible();
  await expect(saved.locator('.value')).toHaveText(/^\d+(\.\d)?%$/);
  await expect(latency.locator('.value')).toHaveText(/^[\d.,]+ ms → [\d.,]+ ms$/);
  await expect(page.getByTestId(TID.modeBadge)).toBeVisible();
  await expect(page.getByTestId(TID.chartIops).locator('canvas')).toBeVisible();
  // Kept as a test artifact: test-results/e2e/<test>/sample-analysis.png.
  const path = testInfo.outputPath('sample-analysis.png');
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach('sample-analysis', { path, contentType: 'image/png' });
  expect(errors).toEqual([]);
});
