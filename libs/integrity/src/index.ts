export {
  INTEGRITY_MANIFEST_FORMAT,
  type IntegrityManifest,
  integrityManifestSchema,
} from './contract/integrity-manifest';
export {
  type IntegrityDifference,
  type IntegrityMode,
  type IntegrityReport,
  type IntegrityStatus,
} from './contract/integrity-report';
export { digestTree, sha256OfFile } from './file-digests';
export {
  readIntegrityManifest,
  UnreadableManifestError,
  writeIntegrityManifest,
  type WriteManifestOptions,
} from './integrity-manifest';
export {
  checkIntegrity,
  INTEGRITY_EXIT_CODE,
  type IntegrityCheckOptions,
  refusesToStart,
  REPORTED_PATHS,
} from './integrity-check';
