/** data-testid values shared by the renderer and the end-to-end specs. */
export const TID = {
  appTitle: 'app-title',
  status: 'status',
  error: 'error',
  langSelect: 'lang-select',
  analysisName: 'analysis-name',
  modeBadge: 'mode-badge',
  cardIosSaved: 'card-ios-saved',
  cardLatency: 'card-latency',
  cardNormalizedIops: 'card-normalized-iops',
  cardThroughput: 'card-throughput',
  cardCacheServed: 'card-cache-served',
  chartIops: 'chart-iops',
  chartSummary: 'chart-summary',
  warnings: 'warnings',
  version: 'app-version',
} as const;
