import { Injectable } from '@nestjs/common';
import { TenantSettingsStore } from '@cairn/tenancy';
import { z } from 'zod';
import { AGENT_DEFAULT_SCOPES, type AgentDefaultScope } from './contract/memory-settings';

/** Memory's key of the tenant's settings. */
const MEMORY_KEY = 'memory';

const stored = z.object({ agentDefaultScope: z.enum(AGENT_DEFAULT_SCOPES) });

/**
 * Memory's tenant settings, read on every store without a scope and shown and changed through
 * the tenant settings API (@cairn/extraction's TenantSettingsService, as @cairn/secrets' mode).
 * A value that does not parse reads as the default (`project`, the behaviour before scopes).
 */
@Injectable()
export class MemorySettings {
  constructor(private readonly settings: TenantSettingsStore) {}

  /** The scope a memory an agent stores gets when the agent names none. */
  async agentDefaultScope(): Promise<AgentDefaultScope> {
    const parsed = stored.safeParse(await this.settings.read(MEMORY_KEY));
    return parsed.success ? parsed.data.agentDefaultScope : 'project';
  }

  setAgentDefaultScope(scope: AgentDefaultScope): Promise<void> {
    return this.settings.write(MEMORY_KEY, { agentDefaultScope: scope });
  }
}
