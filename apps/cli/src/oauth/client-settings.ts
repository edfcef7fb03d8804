import { CliError, ExitCode } from '../cli-error';
import { type Environment } from '../settings/paths';
import { type CairnOAuthOptions } from './cairn-oauth-provider';

/**
 * How cairn presents itself to an authorization server other than by registering: a Client ID
 * Metadata Document it is published at (`CAIRN_OAUTH_CLIENT_METADATA_URL`, https, used where the
 * server says it takes one), or credentials an administrator registered for it
 * (`CAIRN_OAUTH_CLIENT_ID`, `CAIRN_OAUTH_CLIENT_SECRET`, for servers without dynamic
 * registration). Neither is a secret worth a flag except the client secret, which is never one.
 */
export function oauthClientSettings(env: Environment): Pick<CairnOAuthOptions, 'clientMetadataUrl' | 'preRegistered'> {
  const clientMetadataUrl = env.CAIRN_OAUTH_CLIENT_METADATA_URL?.trim() || undefined;
  if (clientMetadataUrl) {
    const url = URL.parse(clientMetadataUrl);
    if (url?.protocol !== 'https:' || url.pathname === '/') {
      throw new CliError(
        'CAIRN_OAUTH_CLIENT_METADATA_URL must be an https URL with a path (the Client ID Metadata Document)',
        ExitCode.usage,
      );
    }
  }
  const clientId = env.CAIRN_OAUTH_CLIENT_ID?.trim() || undefined;
  const clientSecret = env.CAIRN_OAUTH_CLIENT_SECRET?.trim() || undefined;
  if (clientSecret && !clientId) {
    throw new CliError('CAIRN_OAUTH_CLIENT_SECRET is set without CAIRN_OAUTH_CLIENT_ID', ExitCode.usage);
  }
  return {
    clientMetadataUrl,
    preRegistered: clientId
      ? { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) }
      : undefined,
  };
}
