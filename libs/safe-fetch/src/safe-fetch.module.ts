import { Module } from '@nestjs/common';
import { HOST_RESOLVER } from './contract/safe-fetch.types';
import { systemResolver } from './host-resolver';
import { SafeFetcher } from './safe-fetcher.service';

/**
 * The SSRF-safe fetch engine, for the knowledge base's `kb_fetch` and the worker job that runs
 * it. Resolution goes through {@link HOST_RESOLVER} (the OS resolver here; tests override the
 * provider with one they control).
 */
@Module({
  providers: [{ provide: HOST_RESOLVER, useValue: systemResolver }, SafeFetcher],
  exports: [SafeFetcher],
})
export class SafeFetchModule {}
