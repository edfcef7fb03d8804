import { BadRequestError } from '@cairn/common';
import { z } from 'zod';

/** A grant listing's keyset position (creation time to the microsecond, and id), as an opaque cursor. */
export interface CursorPosition {
  readonly at: string;
  readonly id: string;
}

const positionSchema = z.tuple([z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/), z.uuid()]);

/**
 * The position itself travels, not a row id to look up: a share removed while a caller pages
 * through would otherwise end its listing early.
 */
export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): CursorPosition {
  try {
    const [at, id] = positionSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return { at, id };
  } catch {
    throw new BadRequestError('cursor: must be the nextCursor of a previous page', undefined, 'invalid_cursor');
  }
}
