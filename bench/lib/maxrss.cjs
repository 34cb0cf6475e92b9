// Preloaded into a benchmarked Node process (`node -r bench/lib/maxrss.cjs …`): on exit, writes
// the process's peak resident set size (getrusage ru_maxrss, KiB) to $CACHEPROOF_BENCH_RSS_FILE.
// Child processes (Chromium printing a PDF) are not included.
const { writeFileSync } = require('node:fs');

const file = process.env.CACHEPROOF_BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
