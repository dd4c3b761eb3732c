// Guard run before `npm test`: the toolchain needs Node >= 22, which comes from the `node`
// devDependency (node_modules/.bin/node). After `npm ci --ignore-scripts` that binary is missing,
// npm scripts silently fall back to the system Node, and some tools (vitest) would still run.
const required = 22;
const major = Number(process.versions.node.split('.')[0]);
if (major < required) {
  console.error(
    `csi-flows: Node >= ${required} is required, but npm scripts are running Node ${process.version} ` +
      `(${process.execPath}).\n` +
      'The project brings Node 22 in through its "node" devDependency. Reinstall without ' +
      '--ignore-scripts (npm ci), then run through npm run / npx.',
  );
  process.exit(1);
}
