/**
 * Where a report export spends its time, for the person tuning it: with CACHEPROOF_REPORT_TIMES=1
 * in the environment, each stage's end is written to standard error as one line,
 * `cacheproof report: time <ms since the process started> <stage>` (performance.now(): milliseconds
 * from the process's time origin, so Node's own start is in the first figure). Without the
 * variable nothing is written and nothing is measured.
 */

const ON = process.env['CACHEPROOF_REPORT_TIMES'] === '1';

/** Marks the end of a stage (`analysis`, `chromium launched`, `print 1`…). */
export function reportTime(stage: string): void {
  if (ON) process.stderr.write(`cacheproof report: time ${performance.now().toFixed(0)} ${stage}\n`);
}
