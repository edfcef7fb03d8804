import { lookup } from 'node:dns/promises';
import { type HostResolver } from './contract/safe-fetch.types';

/**
 * The production resolver: the OS's (getaddrinfo, so /etc/hosts, search domains and the
 * cluster's DNS answer as they would for any client), every A and AAAA record, in the order
 * the resolver gave them.
 */
export const systemResolver: HostResolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, order: 'verbatim' });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};
