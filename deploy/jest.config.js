/**
 * The deployment checks (`npm run deploy:check`): the Helm chart, the kustomize overlays, the
 * image recipe and the config parity. Kept out of `npm test` because they need the pinned helm
 * and kustomize (scripts/install-deploy-tools.sh); they share its PostgreSQL/Redis global setup.
 */
const base = require('../jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  rootDir: '..',
  testMatch: ['<rootDir>/deploy/test/**/*.spec.ts'],
  testTimeout: 180_000,
};
