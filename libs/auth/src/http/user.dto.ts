import { ROLES } from '@cairn/access';
import { displayText, slugSchema } from '@cairn/common';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { type UserEntity } from '../user.entity';

const roleSchema = z.enum(ROLES);

/**
 * zod's email pattern with RFC 5321's 64-character limit on the local part: mail systems (and
 * email validators reading the OpenAPI document) refuse longer ones.
 */
const EMAIL_PATTERN = new RegExp(`^(?=[^@]{1,64}@)${z.regexes.email.source.replace(/^\^/, '')}`);

export const createUserSchema = z.strictObject({
  email: z
    .email({ pattern: EMAIL_PATTERN })
    .max(254)
    .transform((value) => value.toLowerCase()),
  name: displayText(200),
  role: roleSchema,
});
export class CreateUserDto extends createZodDto(createUserSchema) {}

export const updateUserSchema = z
  .strictObject({
    name: displayText(200).optional(),
    role: roleSchema.optional(),
    disabled: z.boolean().optional().describe('true disables the user and all its tokens at once'),
  })
  .refine((body) => Object.keys(body).length > 0, 'give at least one of name, role, disabled')
  .meta({ minProperties: 1 });
export class UpdateUserDto extends createZodDto(updateUserSchema) {}

export const userParamsSchema = z.strictObject({ slug: slugSchema, id: z.uuid('must be a user id') });
export class UserParamsDto extends createZodDto(userParamsSchema) {}

export const userSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  disabled: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export class UserDto extends createZodDto(userSchema) {}

export const userPageSchema = z.object({ items: z.array(userSchema), nextCursor: z.string().nullable() });
export class UserPageDto extends createZodDto(userPageSchema) {}

export function toUserDto(user: UserEntity): z.infer<typeof userSchema> {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    disabled: user.disabledAt !== null,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}
