export {
  type AppName,
  DEFAULT_MODELS_DIR,
  environmentSchema,
  LOCAL_EMBEDDING_MODELS,
  requiredByApp,
} from './config.schema';
export {
  CAIRN_CONFIG,
  type CairnConfig,
  databaseClusterNames,
  databaseClusterUrl,
  HOME_CLUSTER,
  type McpAuthorizationServerConfig,
  type OidcProviderConfig,
} from './cairn-config';
export { issuerAllowsHttp } from './oidc-providers.schema';
export { ConfigurationError, loadConfig, loadConfigFromProcess } from './load-config';
export { ConfigModule } from './config.module';
