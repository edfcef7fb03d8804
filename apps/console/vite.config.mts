import { defineConfig } from 'vite';

/**
 * The web console's build: `npm run build` (or `npm run console:build`) runs it from the repository
 * root, writing dist/console, which the api serves under /console (libs/web-console). Vite 8
 * compiles TSX itself (oxc, automatic React runtime); no plugin. Hashed file names under assets/
 * (cached for a year), no inline script or style (the Content-Security-Policy allows neither).
 */
export default defineConfig({
  root: 'apps/console',
  base: '/console/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: '../../dist/console',
    emptyOutDir: true,
    assetsDir: 'assets',
    // Inlined assets would be data: URLs in CSS or script; keep every asset a file.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
  },
});
