// Preloaded into a benchmarked Node process (`node --import ./bench/lib/maxrss.mjs …`): on exit,
// writes the process's peak resident set size (getrusage ru_maxrss, KiB) to
// $CACHEPROOF_BENCH_RSS_FILE. Child processes (Chromium printing a PDF) are not included.
import { writeFileSync } from 'node:fs';

const file = process.env.CACHEPROOF_BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
