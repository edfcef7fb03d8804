import { join } from 'node:path';
import { expectCommittedFile } from '@cairn/testing';
import { BROADCAST_SQL } from './broadcasts.sql';

/** A post's and a page read's statements as the repository sends them (libs/coordination/sql/broadcasts.sql). */
describe('coordination channel SQL', () => {
  it('matches the committed snapshot', () => {
    const text = [
      '-- A post (BroadcastPosting.post), in one tenant transaction: the project resolved, then',
      "-- lock: serialises the project's posters until commit ($1 = 'cairn.broadcasts:<project id>')",
      `${BROADCAST_SQL.lock};`,
      '',
      '-- channelHead: the key, if set, and the newest link ($1 = project id)',
      `${BROADCAST_SQL.channelHead};`,
      '',
      '-- insert: the message with its sequence number and chain link',
      `${BROADCAST_SQL.insert};`,
      '',
      "-- page: broadcast_read, oldest first after a sequence number, with the reader's acknowledgements",
      `${BROADCAST_SQL.page};`,
    ].join('\n');
    expectCommittedFile(join(__dirname, '..', 'sql', 'broadcasts.sql'), text);
  });
});
