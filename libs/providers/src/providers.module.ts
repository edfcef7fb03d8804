import { Global, Module } from '@nestjs/common';
import { CAIRN_CONFIG } from '@cairn/config';
import { GENERATOR } from './generator';
import { createGenerator } from './generators';
import { ProviderClients } from './provider-clients.service';
import { ProviderReadiness } from './provider-readiness.service';

/**
 * Model providers for every app that embeds or generates (api and worker: the api embeds
 * queries). Global, so `GENERATOR` and `ProviderClients` are injectable anywhere.
 */
@Global()
@Module({
  providers: [
    ProviderClients,
    ProviderReadiness,
    { provide: GENERATOR, useFactory: createGenerator, inject: [CAIRN_CONFIG, ProviderClients] },
  ],
  exports: [ProviderClients, GENERATOR],
})
export class ProvidersModule {}
