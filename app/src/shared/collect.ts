/**
 * Collecting on a machine without the probe (docs/collect.md): the exact commands that record a
 * baseline and a measure window with what the machine already has — Windows Performance Monitor
 * (`logman`, or `typeperf` where a data collector set cannot be created) or Linux `iostat` — in
 * files `cacheproof-probe import` reads, a ready script, and what to send back. Pure: the
 * Collect screen shows what this returns; nothing here runs anything.
 */

export const COLLECT_OS = ['windows', 'linux'] as const;
export type CollectOs = (typeof COLLECT_OS)[number];

/** What the person chooses. */
export interface CollectPlan {
  os: CollectOs;
  /** The collection's name: letters, digits, `-` and `_` (it names the files and the logman collections). */
  name: string;
  /** Sample interval, whole seconds (1 to 3600). */
  intervalS: number;
  /** Baseline (cache off) hours, above 0 and at most 720. */
  baselineH: number;
  /** Measure (cache on) hours, 0 to 720: 0 records a baseline alone (a workload profile for sizing without a cache). */
  measureH: number;
  /** Where the files go on that machine (an absolute path). */
  folder: string;
}

/** A field the plan cannot have, with why (the screen words it in the person's language). */
export interface CollectProblem {
  field: keyof CollectPlan;
  problem: 'name' | 'interval' | 'hours' | 'folder';
}

/** One command of the procedure, in order. */
export interface CollectStep {
  /** What it does: `create`, `start`, `stop` of a window, or `typeperf` (the fallback). */
  step: 'create' | 'start' | 'typeperf' | 'iostat';
  window: 'baseline' | 'measure';
  command: string;
}

export interface CollectCommands {
  steps: CollectStep[];
  /** The whole procedure as one script: `NAME.cmd` on Windows (run `NAME.cmd baseline`, then `NAME.cmd measure` after the switch), `NAME.sh` on Linux. */
  scriptName: string;
  script: string;
  /** The files to send back (patterns in the chosen folder), and the import they are for. */
  sendBack: string[];
  importCommand: string;
  /** Samples per window (what `typeperf -sc` and `iostat`'s count are). */
  samples: { baseline: number; measure: number };
}

/** The Windows objects recorded: every disk and every volume, every counter (the importer maps what it knows). */
export const WINDOWS_COUNTERS = ['\\PhysicalDisk(*)\\*', '\\LogicalDisk(*)\\*'] as const;

/** Checks a plan; empty when it can be collected. */
export function collectProblems(p: CollectPlan): CollectProblem[] {
  const out: CollectProblem[] = [];
  if (!/^[A-Za-z0-9_-]{1,40}$/u.test(p.name)) out.push({ field: 'name', problem: 'name' });
  if (!Number.isInteger(p.intervalS) || p.intervalS < 1 || p.intervalS > 3600) out.push({ field: 'intervalS', problem: 'interval' });
  if (!(Number.isFinite(p.baselineH) && p.baselineH > 0 && p.baselineH <= 720)) out.push({ field: 'baselineH', problem: 'hours' });
  if (!(Number.isFinite(p.measureH) && p.measureH >= 0 && p.measureH <= 720)) out.push({ field: 'measureH', problem: 'hours' });
  const absolute = p.os === 'windows' ? /^[A-Za-z]:\\/u.test(p.folder) : p.folder.startsWith('/');
  // quotes, % (cmd expansion), control characters and, on Windows, the characters paths cannot hold
  const control = [...p.folder].some((ch) => ch.charCodeAt(0) < 0x20);
  const bad = control || (p.os === 'windows' && /["%<>|?*]/u.test(p.folder));
  if (!absolute || bad || p.folder.length > 200) out.push({ field: 'folder', problem: 'folder' });
  return out;
}

/** `hh:mm:ss` of a number of seconds (logman's `-si` and `-rf`). */
export function hms(seconds: number): string {
  const s = Math.round(seconds);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(Math.floor(s / 3600))}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
}

/** A Windows argument in double quotes (the plan has no quote in it: {@link collectProblems}). */
const dq = (s: string): string => `"${s}"`;
/** A POSIX shell word in single quotes. */
export const sq = (s: string): string => `'${s.replace(/'/gu, `'\\''`)}'`;

function windowsPath(folder: string, file: string): string {
  return `${folder.replace(/\\+$/u, '')}\\${file}`;
}

/**
 * The commands for a plan (check it with {@link collectProblems} first).
 *
 * @example
 * collectCommands({ os: 'windows', name: 'sql01', intervalS: 15, baselineH: 24, measureH: 24, folder: 'C:\\PerfLogs' }).steps[0].command
 * // logman create counter "sql01-baseline" -c "\PhysicalDisk(*)\*" "\LogicalDisk(*)\*" -si 00:00:15 -rf 24:00:00 -f csv -max 1024 -o "C:\PerfLogs\sql01-baseline.csv"
 */
export function collectCommands(p: CollectPlan): CollectCommands {
  const windows = (['baseline', 'measure'] as const).filter((w) => w === 'baseline' || p.measureH > 0);
  const hours = (w: 'baseline' | 'measure'): number => (w === 'baseline' ? p.baselineH : p.measureH);
  const samples = { baseline: Math.ceil((p.baselineH * 3600) / p.intervalS), measure: Math.ceil((p.measureH * 3600) / p.intervalS) };
  const steps: CollectStep[] = [];
  if (p.os === 'windows') {
    const countersFile = windowsPath(p.folder, `${p.name}-counters.txt`);
    for (const w of windows) {
      const coll = `${p.name}-${w}`;
      const out = windowsPath(p.folder, `${coll}.csv`);
      steps.push({ step: 'create', window: w, command: `logman create counter ${dq(coll)} -c ${WINDOWS_COUNTERS.map(dq).join(' ')} -si ${hms(p.intervalS)} -rf ${hms(hours(w) * 3600)} -f csv -max 1024 -o ${dq(out)}` });
      steps.push({ step: 'start', window: w, command: `logman start ${dq(coll)}` });
      steps.push({ step: 'typeperf', window: w, command: `typeperf -cf ${dq(countersFile)} -si ${p.intervalS} -sc ${samples[w]} -f CSV -o ${dq(out)} -y` });
    }
    const lines = [
      '@echo off',
      'rem CacheProof: records the disks with Windows Performance Monitor, nothing to install (docs/collect.md).',
      `rem Run "${p.name}.cmd baseline" with the cache off; after the switch, "${p.name}.cmd measure".`,
      'setlocal',
      `if not exist ${dq(p.folder)} mkdir ${dq(p.folder)}`,
      `(echo ${WINDOWS_COUNTERS[0]}& echo ${WINDOWS_COUNTERS[1]})> ${dq(countersFile)}`,
      `if /i "%~1"=="measure" goto measure`,
      ...steps.filter((s) => s.window === 'baseline' && s.step !== 'typeperf').map((s) => s.command),
      `echo Recording the baseline for ${p.baselineH} h into ${windowsPath(p.folder, `${p.name}-baseline.csv`)}`,
      'goto :eof',
      ':measure',
      ...(p.measureH > 0
        ? [...steps.filter((s) => s.window === 'measure' && s.step !== 'typeperf').map((s) => s.command), `echo Recording the measure window for ${p.measureH} h into ${windowsPath(p.folder, `${p.name}-measure.csv`)}`]
        : ['echo This plan records a baseline alone.']),
    ];
    return {
      steps, scriptName: `${p.name}.cmd`, script: `${lines.join('\r\n')}\r\n`, samples,
      sendBack: windows.map((w) => windowsPath(p.folder, `${p.name}-${w}*.csv`)),
      importCommand: `cacheproof-probe import perfmon ${p.measureH > 0 ? `--baseline ${p.name}-baseline*.csv --measure ${p.name}-measure*.csv` : `${p.name}-baseline*.csv`} --out ${p.name}.capture`,
    };
  }
  const folder = p.folder.replace(/\/+$/u, '');
  for (const w of windows) {
    steps.push({ step: 'iostat', window: w, command: `nohup iostat -dxty -o JSON ${p.intervalS} ${samples[w]} > ${sq(`${folder}/${p.name}-${w}.json`)} 2>&1 &` });
  }
  const lines = [
    '#!/bin/sh',
    '# CacheProof: records the disks with sysstat\'s iostat, no probe needed (docs/collect.md).',
    `# Run "sh ${p.name}.sh baseline" with the cache off; after the switch, "sh ${p.name}.sh measure".`,
    'set -eu',
    `mkdir -p ${sq(folder)}`,
    'case "${1:-baseline}" in',
    ...windows.map((w) => `  ${w}) ${steps.find((s) => s.window === w)?.command ?? ''} echo "Recording the ${w} window for ${hours(w)} h";;`),
    '  *) echo "give baseline or measure" >&2; exit 2;;',
    'esac',
  ];
  return {
    steps, scriptName: `${p.name}.sh`, script: `${lines.join('\n')}\n`, samples,
    sendBack: windows.map((w) => `${folder}/${p.name}-${w}.json`),
    importCommand: `cacheproof-probe import iostat-json ${p.measureH > 0 ? `--baseline ${p.name}-baseline.json --measure ${p.name}-measure.json` : `${p.name}-baseline.json`} --out ${p.name}.capture`,
  };
}
