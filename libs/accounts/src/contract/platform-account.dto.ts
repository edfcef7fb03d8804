import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';

export const platformAccountParamsSchema = z.strictObject({ id: z.uuid('must be a platform account id') });
export class PlatformAccountParamsDto extends createZodDto(platformAccountParamsSchema) {}

export const platformAccountSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  disabled: z.boolean().describe('A disabled operator cannot sign in; their browser sessions ended when disabled'),
  secondFactor: z.boolean().describe('Whether the operator signs in with a TOTP code too'),
  createdAt: z.iso.datetime(),
});
export class PlatformAccountDto extends createZodDto(platformAccountSchema) {}

export const platformAccountPageSchema = z.object({
  items: z.array(platformAccountSchema),
  nextCursor: z.string().nullable(),
});
export class PlatformAccountPageDto extends createZodDto(platformAccountPageSchema) {}

/** What the operators' list shows of a platform account: never its password hash or TOTP secret. */
export function toPlatformAccountDto(account: {
  readonly id: string;
  readonly email: string | null;
  readonly name: string | null;
  readonly disabledAt: Date | null;
  readonly totpSecret: Buffer | null;
  readonly createdAt: Date;
}): z.infer<typeof platformAccountSchema> {
  return {
    id: account.id,
    email: account.email ?? '',
    name: account.name ?? '',
    disabled: account.disabledAt !== null,
    secondFactor: account.totpSecret !== null,
    createdAt: account.createdAt.toISOString(),
  };
}
