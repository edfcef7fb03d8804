import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { z } from 'zod';
import { secretIdSchema, secretSchema, toSecretView } from '../contract/secret.dto';
import { SecretVault } from '../secret-vault.service';
import './secret-listing';

const spec = defineTool({
  name: 'secret_get',
  title: 'Read a redacted secret',
  toolset: 'secrets',
  permission: 'memory.read',
  scope: 'project',
  description:
    'The original behind a [SECRET:<type>:<id>] placeholder, for whoever wrote it or an admin. Example: {"id": "<id>"}',
  input: z.strictObject({ id: secretIdSchema }),
  output: secretSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

/** Every call is audited by the tool executor (`mcp.secret_get`, arguments as a digest only). */
@Injectable()
@McpTool(spec)
export class SecretGetTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly vault: SecretVault) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const secret = toSecretView(await this.vault.reveal(call.project, call.principal, input.id));
    return { structured: secret, text: `${secret.type} ${secret.id}: ${secret.value}` };
  }
}
