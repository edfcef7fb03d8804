import { type CairnConfig } from '@cairn/config';
import { type MaintenanceTask } from '@cairn/jobs';

const DAY_MS = 86_400_000;

/**
 * How often each task runs for every tenant. Decay is daily because its factor is a daily
 * step; the sweep is frequent because it is what guarantees every row gets its vector, and
 * the term-statistics fold keeps pace with writes so keyword ranking reads few rows per term.
 * The data-key re-seal runs with the purge: a bounded batch an hour moves what nobody reads
 * after a rotation, and costs one count query when nothing is left to move.
 */
export function taskIntervalMs(task: MaintenanceTask, config: CairnConfig): number {
  switch (task) {
    case 'stale-embedding-sweep':
    case 'term-statistics-fold':
      return config.worker.sweepIntervalSeconds * 1000;
    case 'retention-purge':
    case 'data-key-reseal':
      return config.worker.maintenanceIntervalSeconds * 1000;
    case 'confidence-decay':
    case 'duplicate-scan':
      return DAY_MS;
  }
}
