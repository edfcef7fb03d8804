import { Injectable } from '@nestjs/common';
import { TenantTransaction } from '@cairn/tenancy';
import { z } from 'zod';
import { AGENT_DEFAULT_SCOPES, type AgentDefaultScope } from './contract/memory-settings';
import { MemorySettingsRepository } from './memory-settings.repository';

const stored = z.object({ agentDefaultScope: z.enum(AGENT_DEFAULT_SCOPES) });

/**
 * Memory's tenant settings, read on every store without a scope and shown and changed through
 * the tenant settings API (@cairn/extraction's TenantSettingsService, as @cairn/secrets' mode).
 * A value that does not parse reads as the default (`project`, the behaviour before scopes).
 */
@Injectable()
export class MemorySettings {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly settings: MemorySettingsRepository,
  ) {}

  /** The scope a memory an agent stores gets when the agent names none. */
  agentDefaultScope(): Promise<AgentDefaultScope> {
    return this.tx.run(async () => {
      const parsed = stored.safeParse(await this.settings.find());
      return parsed.success ? parsed.data.agentDefaultScope : 'project';
    });
  }

  setAgentDefaultScope(scope: AgentDefaultScope): Promise<void> {
    return this.tx.run(() => this.settings.upsert({ agentDefaultScope: scope }));
  }
}
