// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import react from '@astrojs/react';
import { satteri } from '@astrojs/markdown-satteri';
import { linkLangPlugin } from './src/components/site/rehypeLinkLang.ts';

/** `client:player` (src/components/site/playerDirective.ts): chapters hydrate their player when it is needed */
function playerDirective() {
  return {
    name: 'csi-flows-player-directive',
    hooks: {
      /** @param {{ addClientDirective: (d: { name: string, entrypoint: string }) => void }} o */
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({ name: 'player', entrypoint: './src/components/site/playerDirective.ts' });
      },
    },
  };
}

// The site builds into dist/site; dist/lib is the library build (tsconfig.lib.json).
// Telemetry: CI sets ASTRO_TELEMETRY_DISABLED=1 (see .ci/run).
export default defineConfig({
  outDir: './dist/site',
  // Astro 7's default ('jsx') drops the line break between a word and an inline tag that follows it
  // on the next line ("Use it in an<code>"); lossless compression keeps one space there
  compressHTML: true,
  // Chinese prose linking a page that exists only in English says so (hreflang="en")
  markdown: { processor: satteri({ hastPlugins: [linkLangPlugin] }) },
  integrations: [mdx(), react(), playerDirective()],
  vite: {
    // No modulepreload of a lazy chunk's imports: the chunks loaded on demand (what-if, presenter, the
    // embed bridge) share everything else with the player, which has loaded it, and Vite's preload
    // helper cost every chapter 0.9 KiB gzip of its 100 KiB JavaScript budget. (A plugin, since Astro
    // builds the browser's code in its 'client' environment, which build options do not reach.)
    plugins: [{ name: 'csi-flows:no-modulepreload', configEnvironment: (/** @type {string} */ name) => (name === 'client' ? { build: { modulePreload: false } } : undefined) }],
  },
});
