import { Injectable } from '@nestjs/common';
import { MetricsService } from '@cairn/observability';
import { Gauge, Histogram } from 'prom-client';
import { QUEUE_NAMES } from './contract/job-catalog';
import { JobQueue, withTimeout } from './job-queue.service';

const STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed', 'paused'] as const;

/**
 * Queue depth as Prometheus sees it, read from Redis at scrape time (so every app that can
 * enqueue also reports the backlog), and job durations as the worker records them.
 */
@Injectable()
export class JobMetrics {
  readonly duration: Histogram<'queue' | 'name' | 'outcome'>;
  readonly wait: Histogram<'queue' | 'origin'>;

  constructor(metrics: MetricsService, jobs: JobQueue) {
    new Gauge({
      name: 'cairn_queue_jobs',
      help: 'Jobs per queue and state',
      labelNames: ['queue', 'state'],
      registers: [metrics.registry],
      async collect() {
        for (const queue of QUEUE_NAMES) {
          try {
            const [counts, completed] = await withTimeout(
              Promise.all([jobs.queue(queue).getJobCounts(...STATES), jobs.completedCount(queue)]),
              1_000,
            );
            for (const state of STATES) this.set({ queue, state }, counts[state] ?? 0);
            // Completed jobs are removed at once: the workers' count of them instead (a total).
            this.set({ queue, state: 'completed' }, completed);
          } catch {
            // Redis unreachable: leave the last values; /readyz reports the outage.
          }
        }
      },
    });
    this.duration = new Histogram({
      name: 'cairn_job_duration_seconds',
      help: 'Job run time by queue, job name and outcome',
      labelNames: ['queue', 'name', 'outcome'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers: [metrics.registry],
    });
    this.wait = new Histogram({
      name: 'cairn_job_queue_wait_seconds',
      help: 'Time from a job being ready (enqueued, or its delay over) to its first start, by queue and origin (interactive, bulk; none outside the embeddings queue)',
      labelNames: ['queue', 'origin'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800],
      registers: [metrics.registry],
    });
  }
}
