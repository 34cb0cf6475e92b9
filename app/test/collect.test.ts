/**
 * The Collect screen's commands (app/src/shared/collect.ts), parsed back the way Windows and a
 * POSIX shell parse them: each argument is the one intended, paths with spaces included, and the
 * numbers are the plan's. Bad plans are refused field by field.
 */
import { describe, expect, it } from 'vitest';
import { collectCommands, collectProblems, hms, type CollectPlan } from '../src/shared/collect.ts';

/**
 * Splits a command line as CommandLineToArgvW does (the rules every Windows C runtime follows):
 * blanks separate arguments outside quotes; a double quote toggles quoting; 2n backslashes before a
 * quote give n backslashes and the quote acts, 2n+1 give n and a literal quote; other backslashes are
 * literal.
 */
function windowsArgv(line: string): string[] {
  const out: string[] = [];
  let cur = '', inQ = false, any = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === '\\') {
      let n = 0;
      while (line[i] === '\\') { n++; i++; }
      if (line[i] === '"') {
        cur += '\\'.repeat(Math.floor(n / 2));
        if (n % 2 === 1) cur += '"';
        else { inQ = !inQ; }
        any = true;
      } else {
        cur += '\\'.repeat(n);
        i--;
        any = true;
      }
    } else if (c === '"') {
      inQ = !inQ;
      any = true;
    } else if ((c === ' ' || c === '\t') && !inQ) {
      if (any) out.push(cur);
      cur = '';
      any = false;
    } else {
      cur += c;
      any = true;
    }
  }
  if (any) out.push(cur);
  return out;
}

/** Splits a POSIX shell command of plain words and single-quoted words (what the Linux commands use), up to a redirection. */
function shellWords(line: string): string[] {
  const out: string[] = [];
  let cur = '', any = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      cur += line.slice(i + 1, end);
      i = end;
      any = true;
    } else if (c === '\\' && i + 1 < line.length) {
      cur += line[++i];
      any = true;
    } else if (c === ' ') {
      if (any) out.push(cur);
      cur = '';
      any = false;
    } else {
      cur += c;
      any = true;
    }
  }
  if (any) out.push(cur);
  return out;
}

const win: CollectPlan = { os: 'windows', name: 'sql01', intervalS: 15, baselineH: 24, measureH: 24, folder: 'C:\\Perf Logs\\cache proof' };

describe('collect on another machine (shared/collect.ts)', () => {
  it('Windows: logman commands whose arguments are the plan, the folder with spaces in one argument', () => {
    const c = collectCommands(win);
    const create = c.steps.find((s) => s.step === 'create' && s.window === 'baseline')?.command as string;
    expect(windowsArgv(create)).toEqual([
      'logman', 'create', 'counter', 'sql01-baseline', '-c', '\\PhysicalDisk(*)\\*', '\\LogicalDisk(*)\\*',
      '-si', '00:00:15', '-rf', '24:00:00', '-f', 'csv', '-max', '1024', '-o', 'C:\\Perf Logs\\cache proof\\sql01-baseline.csv',
    ]);
    expect(windowsArgv(c.steps.find((s) => s.step === 'start' && s.window === 'measure')?.command as string)).toEqual(['logman', 'start', 'sql01-measure']);
    // typeperf: 24 h at 15 s is 5,760 samples
    expect(windowsArgv(c.steps.find((s) => s.step === 'typeperf' && s.window === 'baseline')?.command as string)).toEqual([
      'typeperf', '-cf', 'C:\\Perf Logs\\cache proof\\sql01-counters.txt', '-si', '15', '-sc', '5760', '-f', 'CSV', '-o', 'C:\\Perf Logs\\cache proof\\sql01-baseline.csv', '-y',
    ]);
    expect(c.samples).toEqual({ baseline: 5760, measure: 5760 });
    expect(c.scriptName).toBe('sql01.cmd');
    expect(c.script).toContain('\r\n');
    expect(c.script).toContain('if /i "%~1"=="measure" goto measure');
    expect(c.sendBack).toEqual(['C:\\Perf Logs\\cache proof\\sql01-baseline*.csv', 'C:\\Perf Logs\\cache proof\\sql01-measure*.csv']);
    expect(c.importCommand).toBe('cacheproof-probe import perfmon --baseline sql01-baseline*.csv --measure sql01-measure*.csv --out sql01.capture');
  });

  it('a baseline alone (measure 0 h) records one window and imports as a workload profile', () => {
    const c = collectCommands({ ...win, measureH: 0, baselineH: 1.5, intervalS: 5 });
    expect(c.steps.every((s) => s.window === 'baseline')).toBe(true);
    expect(windowsArgv(c.steps[0]?.command as string)).toContain('01:30:00');
    expect(c.samples.baseline).toBe(1080);
    expect(c.importCommand).toBe('cacheproof-probe import perfmon sql01-baseline*.csv --out sql01.capture');
  });

  it('Linux: iostat JSON with the interval and the count, the folder quoted for the shell', () => {
    const c = collectCommands({ os: 'linux', name: 'db-2', intervalS: 10, baselineH: 2, measureH: 1, folder: "/var/tmp/it's here/" });
    const cmd = c.steps[0]?.command as string;
    const words = shellWords(cmd.replace(/ 2>&1 &$/u, ''));
    expect(words).toEqual(['nohup', 'iostat', '-dxty', '-o', 'JSON', '10', '720', '>', "/var/tmp/it's here/db-2-baseline.json"]);
    expect(c.samples).toEqual({ baseline: 720, measure: 360 });
    expect(c.scriptName).toBe('db-2.sh');
    expect(c.script.startsWith('#!/bin/sh\n')).toBe(true);
    expect(c.importCommand).toBe('cacheproof-probe import iostat-json --baseline db-2-baseline.json --measure db-2-measure.json --out db-2.capture');
  });

  it('refuses a plan field by field', () => {
    expect(collectProblems(win)).toEqual([]);
    const bad = collectProblems({ os: 'windows', name: 'a b', intervalS: 0.5, baselineH: 0, measureH: -1, folder: 'Perf"Logs' });
    expect(bad.map((b) => b.field)).toEqual(['name', 'intervalS', 'baselineH', 'measureH', 'folder']);
    expect(collectProblems({ ...win, folder: 'C:\\logs\\100%' }).map((b) => b.field)).toEqual(['folder']);
    expect(collectProblems({ ...win, os: 'linux', folder: 'relative/dir' }).map((b) => b.field)).toEqual(['folder']);
    expect(hms(90061)).toBe('25:01:01');
  });
});
