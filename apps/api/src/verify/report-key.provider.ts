import { type HallmarkConfig } from '@hallmark/config';
import { CONFIG } from '@hallmark/runtime';
import { loadReportKey, type ReportSigningKey } from '@hallmark/verification';
import type { Provider } from '@nestjs/common';

/** The key verification reports are signed with (`ReportSigningKey`). */
export const REPORT_KEY = Symbol('REPORT_KEY');

/**
 * Loaded once at start-up: a configured key that does not match its certificate, or is not an EC
 * key, stops the API with the setting's name rather than failing the first report.
 */
export const reportKeyProvider: Provider<Promise<ReportSigningKey>> = {
  provide: REPORT_KEY,
  inject: [CONFIG],
  useFactory: (config: HallmarkConfig) => loadReportKey(config),
};
