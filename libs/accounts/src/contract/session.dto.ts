import { ROLES } from '@cairn/access';
import { displayText, slugSchema } from '@cairn/common';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';

/** Loose on purpose: sign-in answers an unknown email like a wrong password; only the shape is checked. */
const emailSchema = z
  .string()
  .trim()
  .min(3)
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address')
  .transform((value) => value.toLowerCase());

const newPasswordSchema = z
  .string()
  .min(12, 'must be at least 12 characters')
  .max(256, 'must be at most 256 characters')
  .describe('At least 12 characters; a passphrase is best');

const totpCodeSchema = z.string().regex(/^\d{6}$/, 'must be the 6-digit code of the authenticator app');

export const loginSchema = z.strictObject({
  tenant: slugSchema.optional().describe("The tenant's slug; omit to sign in with a platform-operator account"),
  email: emailSchema,
  password: z.string().min(1).max(256),
  totp: totpCodeSchema.optional().describe('Needed when the account has a second factor'),
});
export class LoginDto extends createZodDto(loginSchema) {}

export const bootstrapSchema = z.strictObject({
  token: z.string().min(1).max(512).describe('The platform admin token (CAIRN_ADMIN_TOKEN)'),
});
export class BootstrapDto extends createZodDto(bootstrapSchema) {}

export const setPasswordSchema = z.strictObject({
  token: z.string().min(1).max(256).describe('The secret from the password link (after #token=)'),
  password: newPasswordSchema,
});
export class SetPasswordDto extends createZodDto(setPasswordSchema) {}

export const totpCodeBodySchema = z.strictObject({ code: totpCodeSchema });
export class TotpCodeDto extends createZodDto(totpCodeBodySchema) {}

export const createPlatformAccountSchema = z.strictObject({
  email: emailSchema,
  name: displayText(200),
  password: newPasswordSchema,
});
export class CreatePlatformAccountDto extends createZodDto(createPlatformAccountSchema) {}

export const passwordLinkParamsSchema = z.strictObject({ slug: slugSchema, id: z.uuid('must be a user id') });
export class PasswordLinkParamsDto extends createZodDto(passwordLinkParamsSchema) {}

export const sessionIdParamsSchema = z.strictObject({
  id: z.string().regex(/^[0-9a-f]{64}$/, 'must be a session id from the session list'),
});
export class SessionIdParamsDto extends createZodDto(sessionIdParamsSchema) {}

export const providersSchema = z.object({
  local: z.boolean().describe('Email and password sign-in is on'),
  oidc: z
    .array(z.object({ id: z.string(), name: z.string() }))
    .describe('Identity providers to sign in with: send the browser to /v1/session/oidc/{id}/start'),
});
export class ProvidersDto extends createZodDto(providersSchema) {}

export const oidcProviderParamsSchema = z.strictObject({
  provider: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be the id of a configured identity provider'),
});
export class OidcProviderParamsDto extends createZodDto(oidcProviderParamsSchema) {}

export const sessionViewSchema = z.object({
  kind: z.enum(['tenant', 'platform']),
  via: z.enum(['browser', 'token']).describe('browser: a session cookie; token: a bearer token'),
  account: z
    .object({
      id: z.uuid(),
      email: z.string(),
      name: z.string(),
      secondFactor: z.boolean().describe('Whether the account signs in with a TOTP code too (docs/sign-in.md)'),
    })
    .optional(),
  tenant: z.object({ slug: z.string(), name: z.string() }).optional(),
  role: z.enum([...ROLES, 'platform']),
  permissions: z.array(z.string()).describe('What the caller may do; "*" for a platform operator'),
  mustCreateAccount: z.boolean().describe('A bootstrap session: only creating a platform account is allowed'),
  csrfToken: z.string().optional().describe('Send as X-CSRF-Token on every request that is not GET, HEAD or OPTIONS'),
  expiresAt: z.iso.datetime().nullable().describe('When the session (or token) ends at the latest; null: never'),
  idleExpiresAt: z.iso.datetime().optional().describe('When the browser session ends unless used before'),
  notice: z.string().optional(),
});
export type SessionView = z.infer<typeof sessionViewSchema>;
export class SessionViewDto extends createZodDto(sessionViewSchema) {}

export const sessionListSchema = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      current: z.boolean(),
      createdAt: z.iso.datetime(),
      lastSeenAt: z.iso.datetime(),
      expiresAt: z.iso.datetime(),
      userAgent: z.string().nullable(),
      ip: z.string().nullable(),
    }),
  ),
});
export class SessionListDto extends createZodDto(sessionListSchema) {}

export const totpEnrolmentSchema = z.object({
  secret: z.string().describe('Base32 secret, for apps that cannot scan'),
  otpauthUrl: z.string().describe('otpauth:// URL to show as a QR code'),
});
export class TotpEnrolmentDto extends createZodDto(totpEnrolmentSchema) {}

export const passwordLinkSchema = z.object({
  url: z.string().describe('Relative console URL with the one-time secret in its fragment; shown once'),
  expiresAt: z.iso.datetime(),
});
export class PasswordLinkDto extends createZodDto(passwordLinkSchema) {}

export const createdPlatformAccountSchema = z.object({
  account: z.object({ id: z.uuid(), email: z.string(), name: z.string() }),
  signedOut: z.boolean().describe('true: the bootstrap session that made it has ended; sign in with the new account'),
  notice: z.string(),
});
export class CreatedPlatformAccountDto extends createZodDto(createdPlatformAccountSchema) {}
