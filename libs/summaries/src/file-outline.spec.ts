import { L0_MAX_CHARS, L1_MAX_CHARS } from './contract/file-summary.types';
import { outlineL0, outlineL1 } from './file-outline';

const TS = `// Copyright 2024 Example Corp
/**
 * Rate limiter for outgoing webhook deliveries.
 */
import { Injectable } from '@nestjs/common';

export const DEFAULT_RATE = 10;
export interface LimiterOptions { rate: number }
export class WebhookLimiter {
  take(): boolean { return true; }
}
export async function drain(limit: number) {}
`;

describe('file outline fallback', () => {
  it('takes the first meaningful comment for L0, skipping licence lines', () => {
    expect(outlineL0('src/webhooks/limiter.ts', TS)).toBe('limiter.ts: Rate limiter for outgoing webhook deliveries.');
  });

  it('lists the declared symbols and the size in L1', () => {
    const l1 = outlineL1('src/webhooks/limiter.ts', TS);
    expect(l1).toContain('src/webhooks/limiter.ts (13 lines)');
    expect(l1).toContain('Declares: DEFAULT_RATE, LimiterOptions, WebhookLimiter, drain');
  });

  it('uses headings of markdown, and only of markdown', () => {
    const md = '# Deploying the API\n\nSteps.\n\n## Rollback\n\n### Database\n';
    expect(outlineL0('docs/deploy.md', md)).toBe('deploy.md: Deploying the API');
    expect(outlineL1('docs/deploy.md', md)).toContain('Sections:\nDeploying the API\n  Rollback\n    Database');
    const py =
      '#!/usr/bin/env python3\n# Nightly export of invoices to S3\nimport boto3\n\ndef export(day):\n    pass\n\nclass Exporter:\n    pass\n';
    expect(outlineL0('jobs/export.py', py)).toBe('export.py: Nightly export of invoices to S3');
    const l1 = outlineL1('jobs/export.py', py);
    expect(l1).not.toContain('Sections:');
    expect(l1).toContain('Declares: export, Exporter');
  });

  it('finds symbols of Go, Rust, Java and SQL', () => {
    const go = 'package main\n\nfunc (s *Server) Serve(addr string) error {\n}\n\ntype Config struct {\n}\n';
    expect(outlineL1('main.go', go)).toContain('Declares: Serve, Config');
    const rust = 'pub struct Pool {}\npub fn connect() {}\nfn private() {}\n';
    expect(outlineL1('lib.rs', rust)).toContain('Declares: Pool, connect');
    const java = 'package a;\npublic final class Billing {\n}\n';
    expect(outlineL1('Billing.java', java)).toContain('Declares: Billing');
    const sql = 'CREATE TABLE IF NOT EXISTS invoices (id int);\ncreate view overdue as select 1;\n';
    expect(outlineL1('schema.sql', sql)).toContain('Declares: invoices, overdue');
  });

  it('stays within the caps for huge and odd inputs', () => {
    const huge = Array.from({ length: 5_000 }, (_, i) => `export const symbol${i} = ${i}; // ${'x'.repeat(50)}`).join(
      '\n',
    );
    expect(outlineL0('big.ts', huge).length).toBeLessThanOrEqual(L0_MAX_CHARS);
    expect(outlineL1('big.ts', huge).length).toBeLessThanOrEqual(L1_MAX_CHARS);
    const longLine = `// ${'word '.repeat(200)}`;
    expect(outlineL0('a.ts', longLine).length).toBeLessThanOrEqual(L0_MAX_CHARS);
    expect(outlineL0('empty.txt', '\n\n  \n')).toBe('empty.txt: empty file');
    expect(outlineL0('ctl.bin', '\u0000\u0001abc\u0007def')).toBe('ctl.bin: abcdef');
  });
});
