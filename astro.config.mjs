// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import react from '@astrojs/react';

// The site builds into dist/site; dist/lib is the library build (tsconfig.lib.json).
// Telemetry: CI sets ASTRO_TELEMETRY_DISABLED=1 (see .ci/run).
export default defineConfig({
  outDir: './dist/site',
  integrations: [mdx(), react()],
});
