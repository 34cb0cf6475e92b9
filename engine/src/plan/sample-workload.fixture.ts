/**
 * The measured workload of the bundled lab sample (samples/lab/lab-sample.capture), as
 * `measuredWorkload` gives it from the sample's analysis: the figures the Planner and
 * `cacheproof tco --from-capture` prefill the example scenario with. The engine cannot open a
 * capture (the app's host reads it), so the engine's tests plan from this copy;
 * app/test/tco-verdict.test.ts fails when it drifts from the sample's analysis.
 */
import type { MeasuredWorkload } from './measured.ts';

export const LAB_SAMPLE_WORKLOAD: MeasuredWorkload = {
  iopsP95: 1054.239688144112,
  iopsPeak: 1863.0847088724584,
  iopsMean: 900.0193136798074,
  readShare: 0.8888916323053752,
  avgRequestBytes: 4096,
  readHitShare: 0.7936538461538462,
  writeHitShare: 0.255934065934066,
  cacheMode: null,
  backingCapacityBytes: 369098752,
  backingBytesPerYearBefore: { readBytes: 103410481936970.56, writtenBytes: 12945340114703.537 },
  backingBytesPerYearAfter: { readBytes: 30832025659290.164, writtenBytes: 11676709984897.945 },
  // no engine size and no trace: the bytes read and written on the backing device in the baseline (317 MiB of its 369 MB)
  cacheSize: { bytes: 332398592, basis: 'bytes-moved', key: 'cacheSize.bytes-moved', params: { bytes: 332398592, capped: 'none' } },
};
