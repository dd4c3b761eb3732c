// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import react from '@astrojs/react';
import { satteri } from '@astrojs/markdown-satteri';
import { linkLangPlugin } from './src/components/site/rehypeLinkLang.ts';

// The site builds into dist/site; dist/lib is the library build (tsconfig.lib.json).
// Telemetry: CI sets ASTRO_TELEMETRY_DISABLED=1 (see .ci/run).
export default defineConfig({
  outDir: './dist/site',
  // Astro 7's default ('jsx') drops the line break between a word and an inline tag that follows it
  // on the next line ("Use it in an<code>"); lossless compression keeps one space there
  compressHTML: true,
  // Chinese prose linking a page that exists only in English says so (hreflang="en")
  markdown: { processor: satteri({ hastPlugins: [linkLangPlugin] }) },
  integrations: [mdx(), react()],
});
