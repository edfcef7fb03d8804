import { changeCursorSchema, decodeCursor, encodeCursor, laterCursor } from './change-cursor';

const ID = '0b7e7c2e-5d0a-4c8e-9f1a-2b3c4d5e6f70';

describe('change cursors', () => {
  it('round-trip both kinds, opaquely', () => {
    const after = { kind: 'after', xid: '18446744073709551615', id: ID } as const;
    const horizon = { kind: 'horizon', xid: '0' } as const;
    for (const cursor of [after, horizon]) {
      const token = encodeCursor(cursor);
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(token)).toEqual(cursor);
    }
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'abc+/='],
    ['random text', Buffer.from('hello').toString('base64url')],
    ['wrong version', Buffer.from('c2.h.12').toString('base64url')],
    ['xid beyond 64 bits', Buffer.from('c1.h.18446744073709551616').toString('base64url')],
    ['negative xid', Buffer.from('c1.h.-1').toString('base64url')],
    ['leading zero', Buffer.from('c1.h.012').toString('base64url')],
    ['after without id', Buffer.from('c1.a.12').toString('base64url')],
    ['after with a bad id', Buffer.from('c1.a.12.not-a-uuid').toString('base64url')],
    ['horizon with an id', Buffer.from(`c1.h.12.${ID}`).toString('base64url')],
    ['upper-case id', Buffer.from(`c1.a.12.${ID.toUpperCase()}`).toString('base64url')],
    ['too long', 'a'.repeat(201)],
  ])('rejects %s', (_name, token) => {
    expect(decodeCursor(token)).toBeNull();
    expect(changeCursorSchema.safeParse(token).success).toBe(false);
  });

  it('never moves backwards', () => {
    const h10 = { kind: 'horizon', xid: '10' } as const;
    const a10 = { kind: 'after', xid: '10', id: ID } as const;
    const h9 = { kind: 'horizon', xid: '9' } as const;
    expect(laterCursor(h10, h9)).toBe(h10);
    expect(laterCursor(h9, h10)).toBe(h10);
    expect(laterCursor(h10, a10)).toBe(a10);
    expect(laterCursor(a10, h10)).toBe(a10);
    // 64-bit ids compare as numbers, not strings.
    expect(laterCursor({ kind: 'horizon', xid: '100' }, h9).xid).toBe('100');
  });
});
