/**
 * A stack's upper layer shown as what the applications saw (issue 36): a `sadf -d` log of a
 * PostgreSQL server (written here in sysstat's `# hostname;interval;timestamp;DEV;…` form; the
 * numbers, not the file, say that `vgsys-postgreSQL` sits on `sda`) imported with the real probe
 * and profiled. The volume's own figures (its tps and await, from the file) are shown beside the
 * disks in `analyze --profile` (JSON and text, en and ru) and in the profile report, and the
 * profile's totals stay the disks' (counted once: the volume's I/O is not added). Skipped with a
 * message when the probe is not built (a failure in CI).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkloadProfile } from '@cacheproof/engine';
import { upperLayerMsg } from '@cacheproof/engine/report';
import { runCli } from '../src/cli/main.ts';
import { reportText } from '../src/shared/i18n/report.ts';
import { probeAbsent, releaseProbe, skipped } from '../../test/support/testenv.ts';

const skip = skipped('profile-upper-layer', probeAbsent());
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-upper-layer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 30 lines a minute apart: dasda (4 tps), sda (the volume's writes plus a little of its own) and vgsys-postgreSQL (await 7.65 ms). */
function sadfLog(): { text: string; rows: Map<string, { tps: number[]; await: number[] }> } {
  const rows = new Map<string, { tps: number[]; await: number[] }>();
  let text = '# hostname;interval;timestamp;DEV;tps;rkB/s;wkB/s;dkB/s;areq-sz;aqu-sz;await;%util\n';
  for (let i = 0; i < 30; i++) {
    const ts = `2023-01-12 08:${String(10 + i).padStart(2, '0')}:00 UTC`;
    const pgW = 8000 + ((i * 7919) % 13) * 900;
    const sdaW = pgW + 12.5 + (i % 3);
    for (const [dev, tps, rk, wk, aw] of [['dasda', 4, 40, 3, 1.2], ['sda', sdaW / 8 + 1, 8, sdaW, 1.2], ['vgsys-postgreSQL', pgW / 8 + 1, 8, pgW, 7.65]] as const) {
      text += `pgsrv;60;${ts};${dev};${tps.toFixed(2)};${rk.toFixed(2)};${wk.toFixed(2)};0.00;8.00;0.50;${aw.toFixed(2)};12.00\n`;
      const r = rows.get(dev) ?? { tps: [], await: [] };
      r.tps.push(Number(tps.toFixed(2)));
      r.await.push(aw);
      rows.set(dev, r);
    }
  }
  return { text, rows };
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  return { code, out, err };
}

describe.skipIf(skip)('a sadf log with an LVM volume: what the applications saw, beside the disks', () => {
  const log = sadfLog();
  const file = join(dir, 'pg.sadf.csv');
  const capture = join(dir, 'pg.capture');

  it('profiles the disks once and shows the volume\'s own figures from the file', async () => {
    writeFileSync(file, log.text);
    execFileSync(releaseProbe, ['import', 'sadf', file, '--out', capture], { stdio: 'pipe' });
    const r = await cli(['analyze', capture, '--profile', '--json']);
    expect(r.code, r.err).toBe(0);
    const p = JSON.parse(r.out) as WorkloadProfile;
    expect(p.devices.backing).toEqual(['dasda', 'sda']);
    const pg = log.rows.get('vgsys-postgreSQL') as { tps: number[]; await: number[] };
    expect(p.upperLayer?.volumes.map((v) => [v.device, v.on, v.top])).toEqual([['vgsys-postgreSQL', ['sda'], true]]);
    const v = p.upperLayer?.volumes[0];
    // the file's tps and await of the volume (equal 60-s intervals: the plain mean is the time-weighted one)
    expect(v?.summary.means.iops).toBeCloseTo(mean(pg.tps), 6);
    expect(v?.summary.means.awaitMs).toBeCloseTo(7.65, 6);
    // counted once: the profile's IOPS are the disks' (dasda + sda), not the volume's added on top
    const disks = mean((log.rows.get('dasda') as { tps: number[] }).tps) + mean((log.rows.get('sda') as { tps: number[] }).tps);
    expect(p.appFacing.means.iops).toBeCloseTo(disks, 6);
    expect(p.perDevice.map((d) => d.device)).toEqual(['dasda', 'sda']);
  });

  for (const lang of ['en', 'ru'] as const) {
    it(`says it in the engine's words in analyze --profile and the profile report (${lang})`, async () => {
      const j = await cli(['analyze', capture, '--profile', '--json']);
      const sentence = reportText(upperLayerMsg(JSON.parse(j.out) as WorkloadProfile) as NonNullable<ReturnType<typeof upperLayerMsg>>, lang);
      expect(sentence).toContain('vgsys-postgreSQL');
      expect(sentence).toMatch(lang === 'en' ? /What the applications saw/u : /Что видели приложения/u);
      const text = await cli(['analyze', capture, '--profile', '--lang', lang]);
      expect(text.code, text.err).toBe(0);
      expect(text.out).toContain(sentence);
      const html = join(dir, `pg-${lang}.html`);
      const rep = await cli(['report', capture, '--format', 'html', '--out', html, '--lang', lang]);
      expect(rep.code, rep.err).toBe(0);
      const body = readFileSync(html, 'utf8').replace(/<[^>]+>/gu, ' ').replace(/&#39;|&apos;/gu, '\'').replace(/&amp;/gu, '&').replace(/[\s\u00a0\u202f]+/gu, ' ');
      expect(body).toContain(sentence.replace(/[\s\u00a0\u202f]+/gu, ' '));
      expect(body).toMatch(lang === 'en' ? /Volumes above the disks: what the applications saw/u : /Тома над дисками: что видели приложения/u);
    });
  }
});
